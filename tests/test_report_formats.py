"""Math sheet formats checked against independent figures: HTML structure, CSV, JSON, Markdown."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from exactodds import Shoe, joint_distribution
from exactodds.bets.game import GameChoice
from exactodds.bets.loader import load_paytable
from exactodds.deal.tableau import load_tableau
from exactodds.figures.metrics import bet_figures
from exactodds.report import Sheet, build_sheets, render_sheets
from exactodds.report.csv_ import COLUMNS
from tests.markdown_cells import has_cells

GOLDEN = Path(__file__).parent / "golden"
VOID = {"meta", "br", "hr", "img", "input", "link"}


@pytest.fixture(scope="module")
def golden() -> Sheet:
    inputs = GOLDEN / "inputs"
    (sheet,) = build_sheets(
        [str(inputs / "game.toml")],
        game=GameChoice(shoe_file=inputs / "shoe.toml", rules=str(inputs / "rules.toml")),
        date="2024-06-01",
    )
    return sheet


@pytest.fixture(scope="module")
def classic6() -> Sheet:
    (sheet,) = build_sheets(["classic"], game=GameChoice(decks=6), date="2024-06-01")
    return sheet


class _Checker(HTMLParser):
    """Checks nesting of tags and collects heading and cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.headings: list[str] = []
        self.text: list[str] = []
        self.tags: Counter[str] = Counter()
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        if tag not in VOID:
            self.stack.append(tag)
        if tag in ("h1", "h2", "h3"):
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack[-3:]}")
            return
        self.stack.pop()
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)


def _parse_html(text: str) -> _Checker:
    checker = _Checker()
    checker.feed(text)
    checker.close()
    return checker


@pytest.mark.parametrize("which", ["golden", "classic6"])
def test_html_parses_and_names_every_bet(which: str, request: pytest.FixtureRequest) -> None:
    sheet: Sheet = request.getfixturevalue(which)
    html = render_sheets([sheet], "html")
    checker = _parse_html(html)
    assert checker.errors == []
    assert checker.stack == []
    # self-contained: the designer's data block and inline script (tests/test_designer.py)
    assert checker.tags["script"] == 2 and checker.tags["link"] == 0
    assert "@media print" in html
    for b in sheet.bets:
        assert f"{b.bet.name} ({b.bet.id})" in checker.headings
    text = "".join(checker.text)
    if which == "golden":
        assert "Pair <either> & more" in text  # escaped in the source, intact when parsed
        assert "<either>" not in html
    assert sheet.software in text and sheet.date in text


def test_markdown_tables_are_rectangular(golden: Sheet) -> None:
    md = render_sheets([golden], "md")
    tables = 0
    width = None
    for line in md.splitlines():
        if line.startswith("|"):
            cells = len(line.replace("\\|", "").split("|")) - 2
            if width is None:
                width, tables = cells, tables + 1
            assert cells == width, line
        else:
            width = None
    assert tables >= 10
    assert r"Either Pair \| \*test\*" in md


def test_csv_loads_and_matches_the_metrics(golden: Sheet) -> None:
    text = render_sheets([golden], "csv")
    lines = list(csv.DictReader(io.StringIO(text, newline="")))
    assert tuple(lines[0]) == COLUMNS
    joint = joint_distribution(golden.shoe, golden.tableau)
    for bet in golden.paytable.bets:
        figures = bet_figures(joint, bet)
        rows = [r for r in lines if r["bet_id"] == bet.id and r["kind"] == "row"]
        assert [r["item"] for r in rows] == [row.event for row in bet.rows]
        assert [int(r["combinations"]) for r in rows] == [r.combinations for r in figures.rows]
        assert sum(int(r["combinations"]) for r in rows) == joint.total
        for r, fr in zip(rows, figures.rows, strict=True):
            probability, ret = (Fraction(x) for x in r["exact"].split(";"))
            assert probability == fr.probability and ret == fr.ret
        found = {r["item"]: r for r in lines if r["bet_id"] == bet.id and r["kind"] == "figure"}
        assert Fraction(found["house_edge"]["exact"]) == figures.house_edge
        assert Fraction(found["variance"]["exact"]) == figures.variance
    meta = {r["item"]: r["value"] for r in lines if r["kind"] == "meta"}
    assert meta["date"] == "2024-06-01" and meta["universe"] == str(math.perm(48, 6))


def test_json_round_trips_with_exact_fractions(golden: Sheet) -> None:
    data = json.loads(render_sheets([golden], "json"))
    assert json.loads(json.dumps(data)) == data
    assert set(data) >= {"paytable", "file", "bets"}
    joint = joint_distribution(
        Shoe.decks(1).remove("Kd Kh 7h 2c"), load_tableau(str(GOLDEN / "inputs" / "rules.toml"))
    )
    table = load_paytable(GOLDEN / "inputs" / "game.toml")
    assert [b["id"] for b in data["bets"]] == [b.id for b in table.bets]
    for entry, bet in zip(data["bets"], table.bets, strict=True):
        f = bet_figures(joint, bet)
        assert set(entry) >= {
            "id",
            "name",
            "house_edge",
            "rtp",
            "ev",
            "hit_frequency",
            "variance",
            "std_dev",
            "rows",
        }
        for key, value in (
            ("house_edge", f.house_edge),
            ("rtp", f.rtp),
            ("ev", f.ev),
            ("hit_frequency", f.hit_frequency),
            ("variance", f.variance),
        ):
            assert isinstance(entry[key], str) and "/" in entry[key]
            assert Fraction(entry[key]) == value, key
        assert isinstance(entry["std_dev"], float)
        assert entry["std_dev"] == pytest.approx(float(f.variance) ** 0.5, rel=1e-12)
        for row, fr in zip(entry["rows"], f.rows, strict=True):
            assert isinstance(row["combinations"], int)
            assert row["combinations"] == fr.combinations
            assert Fraction(row["probability"]) == Fraction(fr.combinations, joint.total)
            assert Fraction(row["return"]) == fr.ret
    assert data["universe"] == math.perm(48, 6) == joint.total


def test_several_paytables_in_json_are_a_list() -> None:
    sheets = build_sheets(["classic", "classic"], game=GameChoice(decks=1), date="2024-06-01")
    data = json.loads(render_sheets(sheets, "json"))
    assert isinstance(data, list) and len(data) == 2


def test_six_deck_pair_matches_the_closed_form(classic6: Sheet) -> None:
    # A pair: the second card matches the first card's rank, 23 of the other 311 cards.
    data = json.loads(render_sheets([classic6], "json"))
    pair = next(b for b in data["bets"] if b["id"] == "player_pair")
    assert Fraction(pair["ev"]) == Fraction(12 * 23, 311) - 1
    assert data["universe"] == 312 * 311 * 310 * 309 * 308 * 307
    md = render_sheets([classic6], "md")
    assert has_cells(md, "Player Pair (`player_pair`)", "11.2540%")  # 1 - 276/311 = 35/311


def test_rtp_by_stake_marks_where_rounding_changes_nothing(golden: Sheet) -> None:
    # 1.95 x stake is a whole number of cents exactly when the stake is a multiple of 0.20.
    rounded = golden.bet("banker_touch")
    marks = {s.stake: s.equals_unrounded for s in rounded.rtp_by_stake}
    assert marks == {
        **{Fraction(i, 10): i % 2 == 0 for i in range(1, 11)},
        Fraction(2): True,
        Fraction(5): True,
        Fraction(10): True,
        Fraction(100): True,
    }
    below = [s for s in rounded.rtp_by_stake if not s.equals_unrounded]
    assert rounded.unrounded_rtp is not None
    assert all(s.rtp < rounded.unrounded_rtp for s in below)
    assert golden.bet("player").rtp_by_stake == ()


def test_player_favourable_bet_is_flagged(golden: Sheet) -> None:
    md = render_sheets([golden], "md")
    assert golden.bet("generous").figures.ev > 0
    assert "> **PLAYER-FAVOURABLE:** Generous Player (generous)" in md
    assert not golden.bet("player").figures.player_favourable


def test_every_payout_in_both_forms(golden: Sheet) -> None:
    md = render_sheets([golden], "md")
    assert has_cells(md, "6:5", "1.2 to 1", "2.2 for 1")
    assert has_cells(md, "1.95 for 1", "0.95 to 1", "1.95 for 1")
    assert has_cells(md, "push", "push", "1 for 1")


def test_csv_states_every_payout_in_the_sheets_notation() -> None:
    """The example lines state a row's payout as its row line does (``--notation to``)."""
    from exactodds.bets.payout import Notation

    sheet = build_sheets(["classic"], bet_ids=["banker"], date="2024-01-01", notation=Notation.TO)
    lines = list(csv.DictReader(io.StringIO(render_sheets(sheet, "csv"))))
    stated = {(r["kind"], r["item"]): r["pays"] for r in lines if r["kind"] in ("row", "example")}
    for (kind, item), pays in stated.items():
        assert pays == stated["row", item], (kind, item)
    assert stated["example", "Banker wins"] == "0.95 to 1"
