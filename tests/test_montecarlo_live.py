"""`exactodds montecarlo` of live bets (issue 34): the multiplier cards drawn every round, the
product paid, the fee charged, a peek played by its decision table; checked against settle on
the same cards and draws, and against the exact figures with a fixed seed."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exactodds.analysis.montecarlo import Z99, deal_rounds, monte_carlo_check
from exactodds.analysis.montecarlo_live import LivePlay
from exactodds.bets.loader import load_paytable
from exactodds.bets.multipliers import draw_multipliers
from exactodds.bets.settle import settle_round
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome
from exactodds.deal.shoe import Card, Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.figures.metrics import bet_figures
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
LIGHTNING = DATA / "live-lightning.toml"
PEEK = DATA / "live-peek.toml"
PB = BUILTIN["punto-banco"]
SMALL = Shoe.decks(1).remove(" ".join(4 * ["7", "8", "9", "T", "J", "Q", "K"]))


def test_each_round_nets_what_settle_pays() -> None:
    """Montecarlo's own play of 400 dealt rounds against settle on the same cards and the same
    multiplier draws (the seed's stream replayed): the same net results, round for round."""
    table = load_paytable(LIGHTNING)
    shoe = Shoe.decks(1)
    bets = list(table.bets)
    play = LivePlay(bets, [None] * len(bets), PB, seed=5)  # no peek: no figures needed
    rounds: list[tuple[list[int], int]] = []

    def observe(dealt: np.typing.NDArray[np.int64], codes: np.typing.NDArray[np.int64]) -> None:
        play.observe(dealt, codes)
        rounds.extend(zip(dealt.T.tolist(), codes.tolist(), strict=True))

    deal_rounds(shoe, PB, 400, 5, observe=observe)
    replay = random.Random(5)
    (lightning,) = table.multipliers
    settled: list[Counter[Fraction]] = [Counter() for _ in bets]
    for cards, code in rounds:
        used = Outcome.from_code(code).cards
        text = " ".join(str(Card(*divmod(c, 4))) for c in cards[:used])
        drawn = {lightning.name: draw_multipliers(lightning, replay)}
        s = settle_round(table, text, [(b.id, 1) for b in bets], multipliers=drawn, shoe=shoe)
        for j, x in enumerate(s.settlements):
            settled[j][x.amount] += 1
    assert settled == play.seen
    assert any(net > 5 for net in play.seen[2])  # some multiplied Tie was dealt


@pytest.mark.parametrize("path", [LIGHTNING, PEEK])
def test_mean_within_the_printed_interval(path: Path) -> None:
    """Seed 1, 6,000 rounds of a 24-card shoe (aces to sixes: its exact figures take
    milliseconds): each bet's mean return lies in the 99% interval the tool prints around the
    exact EV (deterministic: the seed fixes the rounds and the draws), and no net result the
    exact figures call impossible is ever dealt."""
    bets = load_paytable(path).bets
    check = monte_carlo_check(bets, SMALL, PB, rounds=6_000, seed=1)
    for b in check.bets:
        low, high = b.interval
        assert low <= b.observed_return <= high and abs(b.z) < Z99, b.bet_id
        assert all(c.probability > 0 for c in b.classes if c.observed), b.bet_id
        assert sum(c.observed for c in b.classes) == 6_000
    player = check.bets[0]
    exact = bet_figures(joint_distribution(SMALL, PB), bets[0])
    assert player.ev == exact.ev  # the EV after the fee, per base stake


def test_budget_counts_the_live_play(cli: Cli) -> None:
    code, out, err = cli(["montecarlo", str(LIGHTNING), "--rounds", "1000000", "--budget", "30"])
    assert (code, out) == (2, "")
    assert "settling the card-level, live and offered bets on 1,000,000 dealt rounds" in err


def test_simulate_leaves_live_bets_out_named_exit_3(cli: Cli) -> None:
    argv = ["simulate", str(PEEK), "--decks", "1", "--shoes", "2", "--seed", "1"]
    code, out, err = cli([*argv, "--format", "json"])
    assert code == 3 and "simulate left out player, banker" in err
    data = json.loads(out)
    assert [(b["bet"], "has fee and peek" in b["reason"]) for b in data["left_out"]] == [
        ("player", True),
        ("banker", True),
    ]
    assert list(data["bets"]) == ["tie"]  # the rest is simulated
    code, out, _ = cli(["simulate", str(LIGHTNING), "--bet", "tie", "--shoes", "1"])
    assert code == 3 and "## Left out\n\n- Tie (`tie`): has fee and multipliers" in out


def test_peek_with_a_random_reveal_keyed_by_ranks() -> None:
    """A peek on a pair bet (cells keyed by ranks) with a random reveal (P1 B2 a third of the
    time, else P1): the reveal drawn every round, the stake read from its rule's cell."""
    from dataclasses import replace

    from exactodds.bets.multipliers import Peek

    pair = load_paytable("classic").round_bet("player_pair")
    peek = Peek(((("P1", "B2"), Fraction(1, 3)), (("P1",), Fraction(2, 3))), (2, 3))
    bet = replace(pair, fee=Fraction(1, 10), peek=peek)
    # aces to sixes 8 each, sevens to kings 4 each: a shown ace triples, a shown king keeps
    mixed = Shoe.decks(2).remove(" ".join(4 * ["7", "8", "9", "T", "J", "Q", "K"]))
    (check,) = monte_carlo_check([bet], mixed, PB, rounds=6_000, seed=3).bets
    low, high = check.interval
    assert low <= check.observed_return <= high
    # a pair pays 11 a unit, kept or tripled; no pair loses the stake kept or tripled; less the fee
    nets = {c.net: c.observed for c in check.classes}
    fee = Fraction(1, 10)
    assert set(nets) == {33 - fee, 11 - fee, -1 - fee, -3 - fee}
    assert all(nets.values()) and all(c.probability > 0 for c in check.classes)


def test_the_sheets_monte_carlo_return_is_the_live_bets() -> None:
    """report --monte-carlo-rounds: a live bet's rows are tallied as dealt, and its return is
    the one played (multipliers, fee), against the sheet's own EV, not the rows' alone."""
    from exactodds.report.montecarlo import monte_carlo_sheet
    from exactodds.report.sheet import build_sheet

    table = load_paytable(LIGHTNING)
    sheet = build_sheet(table, shoe=SMALL, bet_ids=["tie"], examples=False)
    section = monte_carlo_sheet(sheet, rounds=3_000, seed=2).monte_carlo
    assert section is not None
    (check,) = section.bets
    figures = sheet.bets[0].figures
    assert check.ev == figures.ev != sum(r.probability * r.net for r in figures.rows)
    assert sum(c.observed for c in check.classes) == 3_000  # the rows, as dealt
    low, high = check.interval
    assert low <= check.observed_return <= high
