"""The market paytables (issue 16 item 5) run through exactodds.

Each bet's exact figures from the library (the card-level engine, offers per offered round) must
equal tests/market_independent.py's, event by event, and round to the figure its source
publishes (tests/data/market_edges.toml, one "# Source:" line per figure). The files themselves
cite their rules page, validate clean, ship in the package, and settle real rounds.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from exactodds.bets.bundled import bundled_dir
from exactodds.bets.loader import load_paytable, validate_paytable
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import BetFigures, paytable_figures
from tests.cli_helpers import Cli
from tests.market_independent import edge
from tests.test_market_bets import (
    FIGURES,
    INSURANCE,
    PAYS,
    PUBLISHED,
    eight_deck_counts,
    insurance_figures,
    rounded,
)

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "paytables"
MARKET = sorted(PUBLISHED)  # the bundled market paytables, by file stem


@cache
def figures(paytable: str) -> dict[str, BetFigures]:
    every = paytable_figures(load_paytable(HOME / f"{paytable}.toml"))
    return {f.bet.id: f for f in every if isinstance(f, BetFigures)}


def probabilities(fig: BetFigures) -> dict[str, Fraction]:
    """Probability of each row's event (per offered round for an offer)."""
    return {row.event: row.probability for row in fig.rows}


# -- the files ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MARKET)
def test_file_cites_its_rules_page_validates_and_ships(name: str) -> None:
    path = HOME / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("# Source: ")
    assert "https://" in text.splitlines()[0] + text.splitlines()[1]
    assert "https://" in load_paytable(path).source
    assert validate_paytable(path) == []
    assert load_paytable(path).decks == 8
    assert (bundled_dir("paytables") / path.name).read_text(encoding="utf-8") == text
    assert load_paytable(name).path == bundled_dir("paytables") / path.name


# -- every bet against the independent calculator and the published figure ------------------------


@pytest.mark.parametrize(("paytable", "bet"), FIGURES)
def test_bet_matches_independent_counts_and_published_edge(paytable: str, bet: str) -> None:
    fig = figures(paytable)[bet]
    counts, total = eight_deck_counts(paytable, bet)
    _, _, pays = PAYS[paytable, bet]
    got = probabilities(fig)
    for event in pays:
        assert got.get(event, Fraction(0)) == Fraction(counts.get(event, 0), total), event
    assert fig.house_edge == edge(counts, total, pays)
    entry = PUBLISHED[paytable][bet]
    assert round(100 * fig.house_edge, entry["decimals"]) == Fraction(entry["percent"])


@pytest.mark.parametrize("bet", INSURANCE)
def test_insurance_offer_matches_independent_and_published(bet: str) -> None:
    entry = PUBLISHED["insurance"][bet]
    fig = figures("insurance")[bet]
    counts, total = insurance_figures(Shoe.decks(8), entry["player"], entry["banker"])
    got = probabilities(fig)
    for event, key in (
        ("Player wins", "player_win"),
        ("Banker wins", "banker_win"),
        ("Tie", "tie"),
    ):
        assert got[event] == Fraction(counts[event], total), event
        assert rounded(got[event], entry[key]) == Fraction(entry[key]), key
    assert rounded(fig.ev, entry["ev"]) == Fraction(entry["ev"])
    # the sheet's probability of the offer: the offered share of all six-card sequences
    assert fig.offer_probability == Fraction(total, 416 * 415 * 414 * 413 * 412 * 411)


# -- settle: real rounds with their suits ---------------------------------------------------------


def settle(cli: Cli, paytable: str, cards: str, bet: str) -> Fraction:
    """The net win of a 10-unit ``bet`` on the round ``cards``, through the CLI (JSON)."""
    code, out, err = cli(
        [
            "settle",
            str(HOME / f"{paytable}.toml"),
            "--cards",
            cards,
            "--bet",
            f"{bet}=10",
            "--format",
            "json",
        ]
    )
    assert code == 0, err
    data = json.loads(out)
    (row,) = [b for b in data["bets"] if b["bet"] == bet]
    return Fraction(row["net"])


@pytest.mark.parametrize(
    ("paytable", "cards", "bet", "net"),
    [
        # four red cards: 6 to 1
        ("colour-match", "P: 9d Kh | B: 2h 5d", "colour_match", 60),
        ("colour-match", "P: 9d Kh | B: 2h 5s", "colour_match", -10),
        # suited 4-5 (a Player natural 9): 20 to 1; a 9 and a king: 5 to 1
        ("perfect-9", "P: 4s 5s | B: Kd 7c", "perfect_9", 200),
        ("perfect-9", "P: 9s Ks | B: Kd 7c", "perfect_9", 50),
        # king and queen of hearts on the Banker's first two cards: 25 to 1
        ("majestic-match", "P: 2c 3c 4d | B: Kh Qh 5s", "majestic_banker", 250),
        ("majestic-match", "P: 2c 3c 4d | B: Kh Qh 5s", "majestic_player", 25),
        # three nines of diamonds among the first four cards: 500 to 1
        ("lucky-nines", "P: 9d 9d | B: 9d Kc", "lucky_nines", 5000),
        # A-K-Q-J of spades over the first four cards (P: A, Q; B: K, J): mini royal
        ("jackpot-baccarat", "P: As Qs 2c | B: Ks Js 3d", "jackpot", 2500),
        # offered at Player 0 v Banker 5; the Player draws a 9 and wins: 2 to 1
        ("insurance", "P: Kc Qh 9s | B: 2d 3s", "player_0_v_5", 20),
        ("insurance", "P: Kc Qh 4s | B: 2d 3s 2c", "player_0_v_5", -10),
    ],
)
def test_settle_real_rounds(cli: Cli, paytable: str, cards: str, bet: str, net: int) -> None:
    assert settle(cli, paytable, cards, bet) == net


def test_docs_table_states_the_exact_edges() -> None:
    """docs/paytables.md's table of market bets gives each exact edge as the library does."""
    text = (ROOT / "docs" / "paytables.md").read_text(encoding="utf-8")
    stated: dict[str, Fraction] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0].strip("`") in PUBLISHED and " = " in cells[4]:
            stated[cells[0].strip("`")] = Fraction(cells[4].split(" = ")[0])
    assert set(stated) == {p for p, _ in FIGURES}
    for paytable, bet in FIGURES:
        assert figures(paytable)[bet].house_edge == stated[paytable], paytable
