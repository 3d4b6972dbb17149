"""Offered bets say so everywhere: every output of a bet with an ``offer`` states the offer, its
probability and that the figures are per offered round (CSV, JSON, the terminal summary, the
notebook's frames and tables, ``compare``, ``solve``). The probability of the offer is checked
against an independent count of the first four cards, written out here."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from itertools import product
from math import prod

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.cli.summary import report_summary
from exactodds.figures.compare import compare_variants
from exactodds.figures.metrics import paytable_figures
from exactodds.figures.solve import render_solution, solve_payout
from exactodds.numbers import exact, percent
from exactodds.report.csv_ import render_csv
from exactodds.report.json_ import render_json
from exactodds.report.sheet import Sheet, build_sheet

OFFER = "player.initial == 0 and banker.initial == 5"


def offer_probability(player: int, banker: int, decks: int = 8) -> Fraction:
    """P(the player's two cards total ``player`` and the banker's ``banker``), by counting the
    ordered first four cards by value (16 ten-value cards a deck, 4 of each other value)."""
    left = {v: (16 if v == 0 else 4) * decks for v in range(10)}
    n = sum(left.values())
    hits = 0
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        if (p1 + p2) % 10 != player or (b1 + b2) % 10 != banker:
            continue
        seen: dict[int, int] = {}
        ways = 1
        for v in (p1, b1, p2, b2):
            ways *= left[v] - seen.get(v, 0)
            seen[v] = seen.get(v, 0) + 1
        hits += ways
    return Fraction(hits, prod(range(n - 3, n + 1)))


P_0_V_5 = offer_probability(0, 5)


@pytest.fixture(scope="module")
def insurance() -> Paytable:
    return load_paytable("insurance")


@pytest.fixture(scope="module")
def sheet(insurance: Paytable) -> Sheet:
    return build_sheet(insurance, bet_ids=["player_0_v_5"], date="2024-01-01")


def test_the_independent_count_is_the_one_a_deck_gives() -> None:
    """Hand-checked on one deck: P 0 needs two ten-value cards or a pair of values summing to
    10; the count can fail (another total gives another probability)."""
    assert offer_probability(0, 5, decks=1) != offer_probability(1, 5, decks=1)
    assert sum(offer_probability(p, b, decks=1) for p in range(10) for b in range(10)) == 1


def test_csv_states_the_offer(sheet: Sheet) -> None:
    lines = list(csv.DictReader(io.StringIO(render_csv([sheet]))))
    (offer,) = [line for line in lines if line["kind"] == "offer"]
    assert offer["item"] == OFFER and offer["exact"] == exact(P_0_V_5)
    assert offer["note"] == "figures per offered round"
    (total,) = [line for line in lines if line["kind"] == "total"]
    assert total["note"] == "per offered round" and total["combinations"] == offer["combinations"]


def test_json_states_the_offer(sheet: Sheet) -> None:
    (bet,) = json.loads(render_json([sheet]))["bets"]
    assert bet["offer"]["condition"] == OFFER
    assert bet["offer"]["probability"] == exact(P_0_V_5) == bet["offer_probability"]
    assert bet["offer"]["figures_per"] == "offered round"
    assert bet["offer"]["combinations"] == bet["total"]["combinations"]


def test_terminal_summary_marks_offered_bets(insurance: Paytable) -> None:
    two = build_sheet(insurance, bet_ids=["player_0_v_5", "player_1_v_5"], date="2024-01-01")
    text = report_summary([two], width=80)
    lines = [line for line in text.splitlines() if "exactodds report" not in line]  # commands
    assert max(len(line) for line in lines) <= 80
    assert text.count("†") == 3  # two bets and the legend
    assert percent(P_0_V_5) in text and percent(offer_probability(1, 5)) in text
    words = " ".join(text.split())
    assert "per offered round" in words and "Offered" in text
    assert "offered when player.initial == 1 and banker.initial == 5" in words
    plain = report_summary([build_sheet(load_paytable("mini"), date="2024-01-01")], width=80)
    assert "†" not in plain and "Offered" not in plain


def test_notebook_frames_and_tables_state_the_offer(insurance: Paytable) -> None:
    pytest.importorskip("pandas")
    figures = paytable_figures(insurance)
    df = figures.to_frame().set_index("bet")
    row = df.loc["player_0_v_5"]
    assert row["offer"] == OFFER and row["offer_probability"] == P_0_V_5
    assert row["per"] == "offered round" and row["offer_probability_float"] == float(P_0_V_5)
    html = figures._repr_html_()
    assert "<th>offer</th>" in html and f'title="{P_0_V_5}"' in html
    first = figures[0]
    assert "offered only when player.initial == 0" in first._repr_html_()
    assert first.to_frame().attrs["offer_probability"] == P_0_V_5
    assert "offer" in insurance.to_frame().columns
    classic = paytable_figures(load_paytable("mini"))
    assert "<th>offer</th>" not in classic._repr_html_()
    assert classic.to_frame()["per"].tolist() == ["round"] * len(classic)


def test_compare_labels_an_offered_bet_with_its_offer(insurance: Paytable) -> None:
    c = compare_variants(insurance, rules=["punto-banco"], ties=["8:1"], decks=[8])
    labels = dict(c.bets)
    assert labels["player_0_v_5"].endswith(f"(offered when {OFFER})")


def test_solve_states_the_offer(insurance: Paytable) -> None:
    s = solve_payout(insurance, "player_0_v_5", "Player wins", "5%")
    assert s.offer_probability == P_0_V_5
    text = render_solution(s)
    assert f"Offer: offered only when {OFFER}" in text
    assert f"probability of the offer {percent(P_0_V_5)}, {P_0_V_5}" in text
    assert "house edge per offered round" in text
    data = json.loads(render_solution(s, fmt="json"))
    assert data["offer"] == {"condition": OFFER, "probability": exact(P_0_V_5)}
    assert data["figures_per"] == "offered round"
    tie = solve_payout(load_paytable("classic"), "tie", "Tie")
    assert (
        "Offer" not in render_solution(tie)
        and json.loads(render_solution(tie, fmt="json"))["offer"] is None
    )
