"""``simulate`` with card-level and offered bets: every round's EV against brute force over the
physical cards left (tests/cardforce.py), the rounds offered against an independent replay of the
dealt shoes, the same figures on every backend, and the command line end to end."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.analysis.batch import compile_bets
from exactodds.analysis.cardround import card_rounds
from exactodds.analysis.dealing import deal_shoes, shoe_rng
from exactodds.analysis.simulate import simulate
from exactodds.analysis.simulation import render_simulation
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.cli import main
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import PhysicalCard, card_value, physical_cards, shoe_of
from tests.cardforce import brute_rows, deal, holds
from tests.extras import need

PB = BUILTIN["punto-banco"]


def make_bet(bet_id: str, rows: list[tuple[str, str]], offer: str | None = None) -> Bet:
    """A bet of (condition, payout) rows, losing otherwise."""
    parsed = tuple(Row(parse_condition(w), parse_payout(p), w) for w, p in rows)
    return Bet(
        bet_id,
        bet_id.title(),
        (*parsed, Row(OTHERWISE, parse_payout("lose"), "other")),
        offer=parse_condition(offer) if offer else None,
    )


COLOUR = make_bet("colour", [("player.colour == red", "3:1"), ("banker.suited", "1:1")])
OFFERED = make_bet(
    "offered",
    [("player.wins", "2:1"), ("winner == tie", "push")],
    "count(initial, colour == red) >= 3",
)
BEHIND = make_bet("behind", [("player.wins", "3:1")], "player.initial < banker.initial")
CARD_BETS = (COLOUR, OFFERED, BEHIND)
RED_FOUR = make_bet("red_four", [("count(initial, colour == red) == 4", "10:1")])  # fast
TIE = load_paytable("classic").round_bet("tie")

# Nine low cards: the burn takes 2 to 4, so each shoe deals one round from 5 to 7 cards (or
# none), small enough to deal every ordered six-card sequence of physical cards.
SMALL = shoe_of([(0, 0), (0, 1), (0, 2), (1, 0), (1, 3), (1, 2), (2, 1), (2, 3), (2, 0)])


def brute_ev(bet: Bet, shoe: Shoe) -> Fraction | None:
    """EV per offered round by dealing every ordered six-card sequence of physical cards."""
    counts, offered = brute_rows(
        [r.when.node for r in bet.rows], shoe, bet.offer.node if bet.offer else None
    )
    if not offered:
        return None
    total = sum((n * bet.row_net(r) for n, r in zip(counts, bet.rows, strict=True)), Fraction(0))
    return total / offered


def brute_net(bet: Bet, seq: list[PhysicalCard]) -> Fraction:
    """The dealt net of one unit, read by the brute-force interpreter."""
    rnd = deal(seq)
    return next(bet.row_net(r) for r in bet.rows if holds(r.when.node, rnd))


def replay(shoe: Shoe, seed: int, index: int) -> list[tuple[Shoe, list[PhysicalCard]]]:
    """Shoe ``index`` of run ``seed`` dealt again card by card (cut card 0): per round, the
    cards left before it and the round's cards (the documented stream, burn and dealer)."""
    cards = physical_cards(shoe)  # card-code order: rank, then suit
    seq = [cards[i] for i in shoe_rng(seed, index).permutation(len(cards))]
    pos = 1 + (card_value(seq[0]) or 10)
    out = []
    while len(seq) - pos >= 6:
        rnd = deal(seq[pos : pos + 6])
        used = len(rnd.player) + len(rnd.banker)
        out.append((shoe_of(seq[pos:]), seq[pos : pos + used]))
        pos += used
    return out


SEED, SHOES = 4, 12


@pytest.fixture(scope="module")
def rounds() -> list[tuple[Shoe, list[PhysicalCard]]]:
    dealt = [r for i in range(SHOES) for r in replay(SMALL, SEED, i)]
    assert len(dealt) >= 6  # enough rounds for the check to mean something
    return dealt


def test_each_rounds_ev_is_the_brute_force_ev_of_that_rounds_shoe(
    rounds: list[tuple[Shoe, list[PhysicalCard]]],
) -> None:
    dealt = deal_shoes(SMALL, PB, SEED, range(SHOES), 0)
    played = card_rounds(CARD_BETS, dealt.round, dealt.states, dealt.cards, PB)
    assert len(dealt) == len(rounds)
    for bet, per_round in zip(CARD_BETS, played, strict=True):
        offered = 0
        for r, (left, cards) in zip(per_round, rounds, strict=True):
            first_four = deal(cards + cards[:2]) if len(cards) < 6 else deal(cards)
            meets = bet.offer is None or holds(bet.offer.node, first_four)
            assert r.offered == meets
            if meets:
                offered += 1
                assert r.ev == brute_ev(bet, left)
                assert r.net == brute_net(bet, cards + [cards[0]] * (6 - len(cards)))
        if bet.offer is not None:
            assert 0 < offered < len(rounds)  # the offer both held and failed


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=9, max_size=9, unique=True
    ),
    seed=st.integers(0, 2**32),
)
def test_rounds_of_drawn_shoes_match_brute_force(cards: list[PhysicalCard], seed: int) -> None:
    shoe = shoe_of(cards)  # low ranks: short burns, rounds from at most 7 cards
    rounds = [r for i in range(3) for r in replay(shoe, seed, i)]
    dealt = deal_shoes(shoe, PB, seed, range(3), 0)
    played = card_rounds(CARD_BETS, dealt.round, dealt.states, dealt.cards, PB)
    for bet, per_round in zip(CARD_BETS, played, strict=True):
        assert len(per_round) == len(rounds)
        for r, (left, dealt_cards) in zip(per_round, rounds, strict=True):
            meets = bet.offer is None or holds(bet.offer.node, deal(dealt_cards + cards[:2]))
            assert r.offered == meets
            assert r.ev == (brute_ev(bet, left) if meets else None)


def test_simulate_tallies_offered_rounds_and_their_evs(
    rounds: list[tuple[Shoe, list[PhysicalCard]]],
) -> None:
    sim = simulate(
        compile_bets([TIE], PB),
        SMALL,
        shoes=SHOES,
        seed=SEED,
        cut_card=0,
        card_bets=CARD_BETS,
        order=["colour", "tie", "offered", "behind"],
    )
    assert [b.bet_id for b in sim.bets] == ["colour", "tie", "offered", "behind"]
    assert sim.rounds == len(rounds)
    for run in sim.bets:
        if run.bet_id == "tie":
            continue
        bet = next(b for b in CARD_BETS if b.id == run.bet_id)
        evs, nets = [], []
        for left, cards in rounds:
            if bet.offer is None or holds(bet.offer.node, deal(cards + cards[:2])):
                ev = brute_ev(bet, left)
                assert ev is not None
                evs.append(ev)
                nets.append(brute_net(bet, cards + [cards[0]] * (6 - len(cards))))
        assert run.rounds == len(rounds)
        assert run.rounds_offered() == len(evs)
        assert sum(r.mean_ev * r.rounds for r in run.by_round if r.mean_ev) == sum(evs)
        bet_on = [i for i, ev in enumerate(evs) if ev > 0]
        assert run.bet_rounds() == len(bet_on)
        assert run.expected_gain() == sum((evs[i] for i in bet_on), Fraction(0))
        assert run.realized_gain() == sum((nets[i] for i in bet_on), Fraction(0))
        assert run.units_per_round() == run.expected_gain() / (len(evs) or 1)
    data = sim.to_json("small")
    assert data["bets"]["offered"]["rounds_offered"] == sim.bets[2].rounds_offered()
    assert "offer" not in data["bets"]["colour"]
    text = render_simulation(sim, "small")
    assert f"Offered: offered on {sim.bets[2].rounds_offered():,} of {sim.rounds:,} rounds" in text


def test_same_figures_in_one_process_a_pool_and_chunks() -> None:
    evaluator = compile_bets([TIE], PB)
    shoe = Shoe.decks(1)
    args = {"shoes": 4, "seed": 2, "card_bets": (RED_FOUR, BEHIND)}
    one = simulate(evaluator, shoe, **args)  # type: ignore[arg-type]
    pool = simulate(evaluator, shoe, workers=2, chunk=1, **args)  # type: ignore[arg-type]
    assert one.to_json() == pool.to_json()
    tie, red, behind = one.bets
    assert behind.rounds_offered() < one.rounds == red.rounds_offered() == tie.rounds


def test_same_figures_on_dask() -> None:
    need("distributed", "dask")
    evaluator = compile_bets([TIE], PB)
    args = {"shoes": 3, "seed": 2, "card_bets": (RED_FOUR, BEHIND)}
    one = simulate(evaluator, Shoe.decks(1), **args)  # type: ignore[arg-type]
    dask = simulate(evaluator, Shoe.decks(1), backend="dask", workers=1, **args)  # type: ignore[arg-type]
    assert one.to_json() == dask.to_json()


def test_cli_colour_match_and_insurance(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "colour-match", "--decks", "1", "--shoes", "3", "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    colour = data["bets"]["colour_match"]
    assert data["shoes"] == 3 and data["rounds"] > 10
    assert sum(r["rounds"] for r in colour["by_round"]) == data["rounds"]
    assert all("mean_ev" in r for r in colour["by_round"])
    with pytest.raises(SystemExit) as info:
        main(["simulate", "insurance", "--decks", "1", "--shoes", "1"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "Player Win insurance, Player 0 v Banker 5: offered on " in out
    offered = [int(line.split("offered on ")[1].split()[0]) for line in out.splitlines()
               if ": offered on " in line]  # fmt: skip
    assert len(offered) == 17 and sum(offered) >= 1


def test_cli_refuses_an_over_budget_card_level_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "colour-match", "--shoes", "100000"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "over the budget of 30 s (--budget" in err


def test_value_level_bets_keep_the_batch_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.analysis.simulate as sim_module

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("value-level bets went to the card engine")

    monkeypatch.setattr(sim_module, "card_rounds", refuse)
    table = load_paytable("classic")
    sim = simulate(compile_bets(table.bets, table.tableau), Shoe.decks(1), shoes=2, seed=1)
    assert sim.rounds > 0 and all(b.offer is None and b.dealt is None for b in sim.bets)
    assert np.all([b.rounds == sim.rounds for b in sim.bets])


@pytest.mark.slow  # matplotlib's first figure: several seconds
def test_plots_of_card_level_and_offered_bets(tmp_path: Path) -> None:
    need("matplotlib", "plots")
    from exactodds.analysis.plots import plot_edge_by_round

    never = make_bet("never", [("player.wins", "1:1")], "count(initial, rank == K) == 4")
    sim = simulate(
        compile_bets([], PB), Shoe.decks(1), shoes=2, seed=1, card_bets=(RED_FOUR, BEHIND, never)
    )
    assert sim.bets[2].rounds_offered() == 0 < sim.bets[2].rounds  # a panel with no points
    paths = plot_edge_by_round(sim, tmp_path)
    assert [p.name for p in paths] == ["edge-by-round.png", "edge-by-round.svg"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in paths[1].read_bytes()
