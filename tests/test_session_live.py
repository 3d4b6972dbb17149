"""`exactodds session` of live bets (issue 34): a round's outcomes are the bet's exact outcomes
(every multiplier product; a peek's optimal raises) less the fee; the mean is N × EV exactly;
the risk of ruin counts what a round takes."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.game import GameChoice
from exactodds.errors import SessionError
from exactodds.session import session
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
LIGHTNING = str(DATA / "live-lightning.toml")
PEEK = str(DATA / "live-peek.toml")
ONE_DECK = GameChoice(decks=1, remove=" ".join(4 * ["7", "8", "9", "T", "J", "Q", "K"]))
"""One deck's aces to sixes (24 cards): the exact figures of the live bets take milliseconds."""


def _convolved(one: list[tuple[Fraction, Fraction]], rounds: int) -> dict[Fraction, Fraction]:
    """The net result of ``rounds`` independent rounds, by direct convolution."""
    dist = {Fraction(0): Fraction(1)}
    for _ in range(rounds):
        step: dict[Fraction, Fraction] = defaultdict(Fraction)
        for a, p in dist.items():
            for b, q in one:
                step[a + b] += p * q
        dist = step
    return {k: v for k, v in dist.items() if v}


@pytest.mark.parametrize(("paytable", "bet"), [(LIGHTNING, "banker"), (PEEK, "player")])
def test_distribution_is_the_outcomes_less_the_fee(paytable: str, bet: str) -> None:
    s = session(paytable, bet, 2, game=ONE_DECK)
    f = s.figures
    assert f.fee == Fraction(1, 5)
    one = [(net - f.fee, p) for p, net in f.outcomes()]
    got = {net: p.lower for net, p in s.distribution.outcomes()}
    assert s.exact and got == _convolved(one, 2)
    mean = sum((net * p for net, p in got.items()), Fraction(0))
    assert mean == s.expected == 2 * f.ev  # the fee paid every round
    assert f.ev == f.mean_net - Fraction(1, 5)


def test_products_and_ruin_with_the_fee() -> None:
    # bankroll 1.2 pays exactly one round of Tie with its fee: ruined by the first loss
    s = session(LIGHTNING, "tie", 1, bankroll="1.2", game=ONE_DECK)
    nets = {net for net, _ in s.distribution.outcomes()}
    # Tie pays 5:1 times a product of 2, 3, 4, 5, 8 capped at 512, less the 0.2 fee
    assert {Fraction(-6, 5), 5 - Fraction(1, 5), 10 - Fraction(1, 5)} <= nets
    assert max(nets) == 5 * 512 - Fraction(1, 5)
    loss = sum((p for p, net in s.figures.outcomes() if net < 0), Fraction(0))
    assert s.p_ruin is not None and s.p_ruin.exact == loss
    with pytest.raises(SessionError, match=r"takes up to 3.2 units a round"):
        session(PEEK, "player", 1, bankroll="3", game=ONE_DECK)


def test_dead_chips_left_out_in_one_line(cli: Cli) -> None:
    small = ["--decks", "1", "--remove", ONE_DECK.remove or ""]
    argv = ["session", PEEK, "--bet", "banker", "--rounds", "2", *small, "--dead-chips"]
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and "has fee and peek" in err and err.count("\n") == 1
    code, out, err = cli([*argv[:-1], "--bankroll", "3.1"])
    assert (code, out) == (2, "") and "takes up to 3.2 units a round" in err


def test_the_sheets_session_section_counts_the_fee() -> None:
    """report --session: one round of a peek bet with a 20% fee is never even (a push loses the
    fee) and is ahead exactly when it wins."""
    from exactodds.bets.loader import load_paytable
    from exactodds.report.session import session_sheet
    from exactodds.report.sheet import build_sheet

    table = load_paytable(PEEK)
    sheet = build_sheet(table, game=ONE_DECK, bet_ids=["banker"], examples=False)
    section = session_sheet(sheet, 1).session
    assert section is not None
    (s,) = section.sessions
    assert s.distribution.p_even.exact == 0
    assert s.distribution.p_ahead.exact == s.figures.hit_frequency > 0


def test_the_text_states_the_stake_the_fee_and_the_peek(cli: Cli) -> None:
    """A live bet's session text says what a round takes: the stake, the fee a round and, for a
    peek, that raises follow the optimal decision table; an ordinary bet's stays one unit."""
    small = ["--decks", "1", "--remove", ONE_DECK.remove or ""]
    heads = {}
    for paytable, bet in ((LIGHTNING, "banker"), (PEEK, "player"), ("classic", "tie")):
        code, out, err = cli(["session", paytable, "--bet", bet, "--rounds", "2", *small])
        assert (code, err) == (0, ""), err
        heads[bet] = out.splitlines()[0]
    assert heads["banker"] == "Banker: 2 rounds at one unit plus a fee of 0.2 unit a round (20.00%)"
    assert heads["player"] == (
        "Player: 2 rounds at a base stake of one unit plus a fee of 0.2 unit a round (20.00%), "
        "raised as the optimal decision table says"
    )
    assert heads["tie"] == "Tie: 2 rounds at one unit"
