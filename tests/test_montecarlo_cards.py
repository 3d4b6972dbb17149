"""Monte Carlo checks of card-level and offered bets (issue 25): rounds are dealt as physical
cards and each bet is settled on the cards as dealt; every option is checked before any
counting."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exactodds.analysis.carddeal import NOT_OFFERED, dealt_rows
from exactodds.analysis.montecarlo import Z99
from exactodds.bets.loader import load_paytable
from tests import cardforce
from tests.cli_helpers import Cli

CARD_PAYTABLES = ["colour-match", "lucky-nines", "jackpot-baccarat", "insurance"]


@pytest.mark.parametrize("name", CARD_PAYTABLES)
def test_dealt_rows_match_an_independent_reading(name: str) -> None:
    """200 random six-card deals from 8 decks: the row dealt_rows settles each round by is the
    one tests/cardforce.py (plain Python over the physical cards) finds first."""
    table = load_paytable(name)
    rng = np.random.default_rng(7)
    codes = np.stack([rng.choice(52, size=6, replace=True) for _ in range(200)], axis=1)
    rows = dealt_rows(table.bets, codes, table.tableau)
    for j in range(codes.shape[1]):
        cards = [(int(c) // 4, int(c) % 4) for c in codes[:, j]]
        rnd = cardforce.deal(cards, table.tableau)
        for bet, got in zip(table.bets, rows, strict=True):
            offered = bet.offer is None or cardforce.holds(bet.offer.node, rnd)
            want = (
                next(i for i, r in enumerate(bet.rows) if cardforce.holds(r.when.node, rnd))
                if offered
                else NOT_OFFERED
            )
            assert int(got[j]) == want, (bet.id, cards)


@pytest.mark.parametrize("name", ["colour-match", "insurance"])
def test_montecarlo_plays_card_level_and_offered_bets(name: str, cli: Cli) -> None:
    code, out, err = cli(
        ["montecarlo", name, "--decks", "1", "--rounds", "2000", "--format", "json"]
    )
    assert code == 0, err
    data = json.loads(out)
    for bet in data["bets"].values():
        observed = sum(r["observed"] for r in bet["results"])
        assert observed <= 2000
        assert abs(bet["z"]) < 2 * Z99  # seeded: the same rounds every run
    if name == "colour-match":
        assert sum(r["observed"] for r in data["bets"]["colour_match"]["results"]) == 2000


def test_the_sheets_monte_carlo_check_plays_card_level_bets(cli: Cli) -> None:
    code, out, err = cli(
        [
            "report",
            "colour-match",
            "--decks",
            "1",
            "--monte-carlo-rounds",
            "1000",
            "--format",
            "json",
        ]
    )
    assert code == 0, err
    check = json.loads(out)["verification"]
    rows = check["bets"][0]["rows"]
    assert check["rounds"] == sum(r["observed"] for r in rows) == 1000
    assert all(abs(r["z"]) < 2 * Z99 for r in rows)  # seeded: the same rounds every run


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["montecarlo", "lucky-nines", "--rounds", "0"], "--rounds"),
        (["montecarlo", "insurance", "--rounds", "100000000"], "dealt rounds"),
        (["report", "lucky-nines", "--bet", "nosuch", "--format", "json"], "nosuch"),
        (["solve", "lucky-nines", "--bet", "nosuch", "--event", "x"], "nosuch"),
        (["solve", "lucky-nines", "--bet", "lucky_nines", "--event", "nosuch"], "nosuch"),
        (["odds", "--paytable", "lucky-nines", "--given", "P: Kh ? | B: ?"], "--given"),
        (["settle", "lucky-nines", "--cards", "P: Kh | B: 9"], "--cards"),
    ],
)
def test_options_are_checked_before_any_counting(argv: list[str], needle: str, cli: Cli) -> None:
    """Refused in one line without counting a card-level bet (the card engine is never run:
    its cache stays empty)."""
    from exactodds.bets.paytable import _card_counts

    _card_counts.cache_clear()
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and needle in err, err
    assert _card_counts.cache_info().currsize == 0
