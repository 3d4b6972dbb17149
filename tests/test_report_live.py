"""Sheets of live-casino bets (issue 34) in every format against the exact figures: a fee, a
multiplied row (with a commission, and over the whole round), a peek, and a one-card multiplier
table checked by hand. One-deck shoes keep the counting cheap."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds import Shoe, joint_distribution
from exactodds.bets.game import GameChoice
from exactodds.bets.loader import load_paytable
from exactodds.cli.summary import report_summary
from exactodds.figures.metrics import BetFigures, bet_figures
from exactodds.numbers import exact, fixed, one_in, percent
from exactodds.report import Sheet, build_sheets, render_sheets
from exactodds.report.live import FEE_MARK
from tests.markdown_cells import has_cells

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def sheets() -> tuple[Sheet, Sheet]:
    game = GameChoice(decks=1)
    (lightning,) = build_sheets([str(DATA / "live-lightning.toml")], bet_ids=["banker"], game=game)
    (peek,) = build_sheets([str(DATA / "live-peek.toml")], bet_ids=["player"], game=game)
    return lightning, peek


@pytest.fixture(scope="module")
def exact_figures(sheets: tuple[Sheet, Sheet]) -> dict[str, BetFigures]:
    """The figures of bet_figures itself, apart from the sheets' own computation (a peek's RTP
    by reveal rule, dear to count again, is read from the sheet's figures)."""
    joint = joint_distribution(Shoe.decks(1))
    lightning = load_paytable(DATA / "live-lightning.toml")
    peek = load_paytable(DATA / "live-peek.toml")
    return {
        "banker": bet_figures(joint, lightning.round_bet("banker")),
        "peek": bet_figures(joint, peek.round_bet("player")),
    }


def _json(sheet: Sheet) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(render_sheets([sheet], "json"))
    return data


def test_json_states_fee_paid_products_and_top_award(
    sheets: tuple[Sheet, Sheet], exact_figures: dict[str, BetFigures]
) -> None:
    data = _json(sheets[0])
    assert json.loads(json.dumps(data)) == data
    assert data["multipliers"] == [
        {
            "name": "lightning",
            "deck": 52,
            "cards": {"1": "1/5", "2": "3/10", "3": "3/10", "4": "3/20", "5": "1/20"},
            "values": {"2": "2/5", "3": "3/10", "4": "3/20", "5": "1/10", "8": "1/20"},
            "cap": 512,
            "repeat": "each",
        }
    ]
    for entry in data["bets"]:
        f = exact_figures[entry["id"]]
        for key in ("house_edge", "rtp", "ev", "fee", "paid", "rtp_per_stake", "variance"):
            assert Fraction(entry[key]) == getattr(f, key), key
        assert Fraction(entry["paid"]) == Fraction(6, 5)
        top = entry["top_award"]
        assert Fraction(top["win"]) == f.largest_win
        assert Fraction(top["probability"]) == f.largest_win_probability
        for row, fr in zip(entry["rows"], f.rows, strict=True):
            if not fr.products:
                assert "products" not in row
                continue
            got = [(p["product"], Fraction(p["probability"])) for p in row["products"]]
            assert got == list(fr.products)
            assert sum(q for _, q in got) == 1
            assert [Fraction(p["net"]) for p in row["products"]] == [
                fr.net_at(m) for m, _ in fr.products
            ]
            assert Fraction(row["return"]) == fr.ret
    banker = data["bets"][0]
    assert Fraction(banker["top_award"]["win"]) == Fraction(512) - Fraction(1, 20)  # cap 512
    assert banker["rows"][0]["example"]["product"] == 1
    assert banker["rows"][0]["example"]["fee"] == "20/1"  # on a stake of 100


def test_json_gives_the_peek_and_its_decision_table(
    sheets: tuple[Sheet, Sheet], exact_figures: dict[str, BetFigures]
) -> None:
    f = exact_figures["peek"]
    assert f.peek is not None
    data = _json(sheets[1])
    assert json.loads(json.dumps(data)) == data
    (entry,) = data["bets"]
    peek = entry["peek"]
    assert entry["rows"][0]["example"]["raise"] == 1  # the example keeps the stake
    assert Fraction(peek["rtp"]) == f.rtp == Fraction(entry["rtp"])
    assert Fraction(peek["rtp_never_raise"]) == f.peek.rtp_never_raise
    assert Fraction(peek["rtp_always_max"]) == f.peek.rtp_always_max
    assert Fraction(peek["value_of_peeking"]) == f.rtp - f.peek.rtp_never_raise
    by_reveal = {k: Fraction(v) for k, v in peek["rtp_by_reveal"].items()}
    assert list(by_reveal) == ["P1", "P1 B1", "P1 B1 P2", "P1 B1 P2 B2"]
    assert by_reveal["P1 B1"] == f.rtp  # the bet's own rule, always P1 B1
    shown = sheets[1].bets[0].figures.peek
    assert shown is not None
    assert by_reveal == {" ".join(k): v for k, v in shown.rtp_by_reveal.items()}
    # The optimal RTP again from the table alone: raise exactly where the edge is below zero,
    # to the largest raise; net = Σ p·r·(−edge) − fee over paid = E[r] + fee.
    (rule,) = peek["decision_table"]
    assert rule["cards"] == "P1 B1" and len(rule["cells"]) == 100
    net = stake = Fraction(0)
    for cell in rule["cells"]:
        p, edge = Fraction(cell["probability"]), Fraction(cell["edge"])
        assert cell["stake"] == (3 if edge < 0 else 1)
        assert cell["decision"] == ("triple" if edge < 0 else "keep")
        net += p * cell["stake"] * -edge
        stake += p * cell["stake"]
    fee = Fraction(entry["fee"])
    assert fee == Fraction(1, 5)
    assert 1 + (net - fee) / (stake + fee) == f.rtp
    assert Fraction(entry["paid"]) == stake + fee


def test_csv_lines_equal_the_exact_figures(
    sheets: tuple[Sheet, Sheet], exact_figures: dict[str, BetFigures]
) -> None:
    lines = list(csv.DictReader(io.StringIO(render_sheets(list(sheets), "csv"), newline="")))
    figure = {
        (r["bet_id"], r["item"]): r["exact"] for r in lines if r["kind"] in ("figure", "peek")
    }
    for bet_id, key in (("banker", "banker"), ("player", "peek")):
        f = exact_figures[key]
        for name in ("fee", "paid", "rtp_per_stake", "rtp"):
            assert Fraction(figure[bet_id, name]) == getattr(f, name), name
        (top,) = [r for r in lines if r["bet_id"] == bet_id and r["kind"] == "top_award"]
        assert Fraction(top["exact"]) == f.largest_win_probability
        assert Fraction(top["value"]) == f.largest_win
    products = [
        (int(r["value"]), *(Fraction(x) for x in r["exact"].split(";")))
        for r in lines
        if r["bet_id"] == "banker" and r["kind"] == "product"
    ]
    row = exact_figures["banker"].rows[0]
    assert products == [(m, q, row.net_at(m)) for m, q in row.products]
    peek = exact_figures["peek"].peek
    assert peek is not None
    assert Fraction(figure["player", "rtp_never_raise"]) == peek.rtp_never_raise
    cells = [r for r in lines if r["kind"] == "peek_cell"]
    assert len(cells) == 100 and cells[0]["item"] == "P1=0 B1=0"
    multipliers = {r["item"]: r for r in lines if r["kind"] == "multiplier"}
    assert multipliers["lightning value 8"]["exact"] == "1/20"
    assert multipliers["lightning cap"]["value"] == "512"


def test_markdown_and_html_say_the_fee_products_and_peek(
    sheets: tuple[Sheet, Sheet], exact_figures: dict[str, BetFigures]
) -> None:
    lightning, peek = sheets
    md = render_sheets([lightning], "md")
    banker = exact_figures["banker"]
    pct = percent(banker.rtp_per_stake)
    assert has_cells(md, f"Banker {FEE_MARK}", "20.0000%", "1.2000000000", percent(banker.rtp))
    assert f"RTP per stake {pct}" in md
    assert has_cells(md, "Fee (never returned)", "", "", "", "-0.2000000000")
    top, q = banker.rows[0].products[-1]
    assert top == 512
    assert has_cells(md, "×512", "511.95", fixed(q), exact(q))
    assert f"511.95 to 1, {one_in(banker.largest_win_probability)} rounds" in md
    assert has_cells(md, "Multiplier cards drawn", "1: 0.2, 2: 0.3, 3: 0.3, 4: 0.15, 5: 0.05")
    assert md.count("## Multipliers") == 1
    assert "product 1 (no multiplier card on the group)" in md
    html = render_sheets([lightning], "html")
    assert html.count('<figure class="chart" data-chart="products">') == 1  # Banker wins
    assert "<svg" in html.split('data-chart="products"')[1][:200]
    pmd = render_sheets([peek], "md")
    f = exact_figures["peek"]
    assert f.peek is not None
    assert has_cells(pmd, "RTP, optimal keep or raise", percent(f.rtp), exact(f.rtp))
    assert has_cells(pmd, "RTP, always raising to ×3", percent(f.peek.rtp_always_max))
    assert has_cells(pmd, "P1 B1", percent(f.rtp), exact(f.rtp))
    cell = f.peek.decision_table[0].cells[0]
    probability = fixed(cell.probability)
    assert has_cells(
        pmd, "0", "0", cell.decision, probability, percent(cell.edge), exact(cell.edge)
    )


def test_one_card_table_by_hand() -> None:
    # One multiplier card of 52, always ×8, on the player's first card: that card's identity
    # is drawn with probability 1/52 whatever it is, so a Player win pays 8 with probability
    # 1/52 and 1 otherwise. The fee (10%) is paid on top of the stake.
    (sheet,) = build_sheets([str(DATA / "live-one-card.toml")])
    (entry,) = _json(sheet)["bets"]
    classic = bet_figures(
        joint_distribution(Shoe.decks(1)), load_paytable("classic").round_bet("player")
    )
    win, lose = classic.rows[0].probability, classic.rows[2].probability
    row = entry["rows"][0]
    assert [(p["product"], p["probability"]) for p in row["products"]] == [
        (1, "51/52"),
        (8, "1/52"),
    ]
    assert Fraction(row["mean_product"]) == 1 + Fraction(7, 52)
    ev = win * (1 + Fraction(7, 52)) - lose - Fraction(1, 10)
    assert Fraction(entry["ev"]) == ev
    assert Fraction(entry["rtp"]) == 1 + ev / Fraction(11, 10)
    assert Fraction(entry["rtp_per_stake"]) == Fraction(11, 10) + ev
    assert entry["top_award"]["win"] == "8/1"
    assert Fraction(entry["top_award"]["probability"]) == win / 52


def test_terminal_summary_marks_fee_bets_only(sheets: tuple[Sheet, Sheet]) -> None:
    text = report_summary(list(sheets), width=80)
    assert f"Banker {FEE_MARK}" in text and f"Player {FEE_MARK}" in text
    words = " ".join(text.split())  # rich wraps the footnote at 80 columns
    assert "per money paid (stake + fee)" in words and "optimal keep-or-raise" in words
    assert max(len(line) for line in text.splitlines()) <= 80
    (plain,) = build_sheets(["classic"], bet_ids=["tie"], game=GameChoice(decks=1))
    assert FEE_MARK not in report_summary([plain], width=80)
    assert FEE_MARK not in render_sheets([plain], "md")
