"""Markdown tables are laid out by tabulate, in the one style of every text table: a reader sees
the cells the sheet's document holds, escaped as before, with the same alignment; only the
padding is tabulate's. (HTML, CSV and JSON sheets are byte-identical: the golden files.)"""

from __future__ import annotations

from itertools import groupby

import pytest

from exactodds.bets.game import GameChoice
from exactodds.report import Sheet, build_sheets, comparison_document, render_sheets
from exactodds.report.content import document
from exactodds.report.document import Code, Document, Table
from exactodds.report.markdown import md_inline, render_markdown
from exactodds.report.montecarlo import monte_carlo_sheet
from tests.markdown_cells import markdown_lines

LETTERS = {"l": "l", "r": "r", "c": "c"}


def expected_tables(doc: Document) -> list[list[tuple[str, ...]]]:
    """Each table of ``doc`` as the lines a reader should see: header, alignment, rows."""
    out = []
    for block in doc.blocks:
        if isinstance(block, Table):
            rows = [*block.rows, *((block.total,) if block.total is not None else ())]
            out.append(
                [
                    tuple(md_inline(h) for h in block.header),
                    tuple(LETTERS[a] for a in block.align),
                    *(tuple(md_inline(c, in_table=True).strip() for c in row) for row in rows),
                ]
            )
    return out


def rendered_tables(markdown: str) -> list[list[tuple[str, ...]]]:
    """Each run of table lines of ``markdown`` as its cells: header, alignment, rows."""
    runs = groupby(markdown_lines(markdown), key=lambda line: line[0] != "text")
    return [
        [cells for _, cells in lines if isinstance(cells, tuple)] for table, lines in runs if table
    ]


@pytest.fixture(scope="module")
def sheets() -> list[Sheet]:
    """Sheets with every kind of table: compliance, rounded returns, a Monte Carlo section."""
    against = build_sheets(["classic", "touch"], against="gli-11,adm,nj", date="2024-06-01")
    small = build_sheets(["mini"], game=GameChoice(decks=1), date="2024-06-01")
    return [*against, monte_carlo_sheet(small[0], rounds=500, seed=2)]


def test_every_table_shows_the_documents_cells_and_alignment(sheets: list[Sheet]) -> None:
    for sheet in sheets:
        doc = document(sheet)
        markdown = render_markdown(doc)
        assert rendered_tables(markdown) == expected_tables(doc)
        assert markdown == render_sheets([sheet], "md")


def test_the_comparison_document_too() -> None:
    doc = comparison_document("2024-06-01", version="9.9")
    assert rendered_tables(render_markdown(doc)) == expected_tables(doc)


def test_each_table_is_padded_to_its_columns(sheets: list[Sheet]) -> None:
    runs = groupby(render_sheets(sheets[:1], "md").splitlines(), key=lambda s: s.startswith("|"))
    tables = [list(lines) for table, lines in runs if table]
    assert len(tables) > 20
    for lines in tables:
        assert len({len(line) for line in lines}) == 1, lines[0]


def test_escaped_pipes_and_code_spans_survive_the_layout() -> None:
    table = Table(("A | B", "Code"), (("x | y", (Code("p|q"), " ok")),), "lc", total=("1", "2"))
    doc = Document("T", (table,), "2024-01-01", "9.9")
    markdown = render_markdown(doc)
    assert "| A \\| B " in markdown and "`p\\|q` ok" in markdown and "x \\| y" in markdown
    assert rendered_tables(markdown) == [
        [("A \\| B", "Code"), ("l", "c"), ("x \\| y", "`p\\|q` ok"), ("1", "2")]
    ]


def test_a_table_without_rows_keeps_its_alignment() -> None:
    doc = Document("T", (Table(("Input", "SHA-256"), (), "lr"),), "2024-01-01", "9.9")
    assert rendered_tables(render_markdown(doc)) == [[("Input", "SHA-256"), ("l", "r")]]
