"""Cells of exactodds' XLSX workbooks (:mod:`exactodds.report.xlsx`): a writer of text, exact
numbers, counts and live formulas, row by row, and the number formats. openpyxl is imported
only when a cell is styled, i.e. when a workbook is made.

- Counts are integer cells while Excel can hold them exactly (:data:`MAX_EXACT_INT`), else text.
- Every text cell is a string cell, never a formula; text a spreadsheet would take for one
  carries Excel's quote prefix. Characters XML cannot hold become U+FFFD.
- A formula cell carries a cached value (:attr:`Writer.cached`, filled in by the workbook's
  archive) and, beside it, the figure as computed.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from exactodds.escape import formula_like
from exactodds.numbers import exact, grouped
from exactodds.report.figures import Kind

__all__ = [
    "BIG_COUNT_NOTE",
    "COUNT",
    "FORMATS",
    "MAX_EXACT_INT",
    "NUMBER",
    "ODDS",
    "PERCENT",
    "PROBABILITY",
    "RETURN",
    "Writer",
    "clean",
]

MAX_EXACT_INT = 2**53
"""Largest count written as a number: Excel's doubles hold every integer up to 2⁵³ exactly."""

BAD_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_MAX_TEXT = 32767  # characters in one Excel cell

PERCENT = "0.0000%"
PROBABILITY = "0.0000000000"
RETURN = "+0.0000000000;-0.0000000000;0.0000000000"
COUNT = "#,##0"
ODDS = "#,##0.00"
NUMBER = "General"


def pay_table_head(weight: str, *extra: str) -> tuple[str, ...]:
    """The column headings of a bet's pay table: its rows' payouts, then ``weight`` (what each
    row's probability comes from: combinations, a streak), the probability, the return and the
    net × return the variance reads (each also exact, as text), then ``extra``."""
    return (
        "Event",
        "Pays",
        "To 1",
        "For 1",
        "Net per unit",
        "Net (exact)",
        weight,
        "Probability",
        "Probability (exact)",
        "Return",
        "Return (exact)",
        "Net × return",
        "Net × return (exact)",
        *extra,
    )


BIG_COUNT_NOTE = (
    "Counts above 2^53 = 9,007,199,254,740,992 are written as text: Excel stores numbers as "
    "doubles and would round them."
)


def clean(text: str) -> str:
    """``text`` as an XML cell can hold it (characters XML cannot hold as U+FFFD).

    >>> clean("a\\x00b\\tc")
    'a\\ufffdb\\tc'
    """
    return BAD_XML.sub("\ufffd", text)


class Writer:
    """Cells of one worksheet, written row by row: text, exact numbers and counts.

    >>> from fractions import Fraction
    >>> from exactodds.report.xlsx import openpyxl
    >>> w = Writer(openpyxl().Workbook().active)
    >>> w.line("RTP")
    >>> w.formula(2, "=1-B9", Fraction(1, 3), PERCENT)
    >>> w.ws["B1"].value, w.ws["C1"].value, w.cached
    ('=1-B9', '1/3', {'B1': 0.3333333333333333})
    """

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.row = 0
        self.big_counts = False
        self.cached: dict[str, float | str] = {}
        """Cached values of formula cells by reference (openpyxl writes formulas without
        one; :class:`_Archive` adds them, so a reader that does not recalculate sees them)."""

    def text(self, column: int, value: str, bold: bool = False) -> None:
        from openpyxl.styles import Font

        cell = self.ws.cell(self.row, column)
        cell.value = clean(value)[:_MAX_TEXT]
        cell.data_type = "s"  # never a formula, whatever the text
        if formula_like(value):
            cell.quotePrefix = True
        if bold:
            cell.font = Font(bold=True)

    def number(self, column: int, value: Fraction | int | float, fmt: str) -> None:
        cell = self.ws.cell(self.row, column)
        cell.value = value if isinstance(value, int | float) else float(value)
        cell.number_format = fmt

    def count(self, column: int, value: int) -> None:
        if abs(value) <= MAX_EXACT_INT:
            self.number(column, value, COUNT)
        else:
            self.big_counts = True
            self.text(column, grouped(value))

    def formula(
        self,
        column: int,
        formula: str,
        value: Fraction | float | str,
        fmt: str,
        beside: str | None = None,
    ) -> None:
        """A live Excel formula (``=…``) whose cached value is ``value``, and in the next column
        ``beside`` (default: ``value`` as exact ``p/q`` text): the figure as computed, which
        does not change when the formula recomputes."""
        cell = self.ws.cell(self.row, column)
        cell.value = formula
        cell.number_format = fmt
        self.cached[cell.coordinate] = value if isinstance(value, str) else float(value)
        if beside is None and isinstance(value, Fraction):
            beside = exact(value)
        if beside:
            self.text(column + 1, beside)

    def exact(self, column: int, value: Fraction | int, fmt: str) -> None:
        """The value as a number in ``column`` and as ``p/q`` text in the next one."""
        self.number(column, value, fmt)
        self.text(column + 1, exact(value))

    def decimal(self, column: int, value: str, fmt: str) -> None:
        """A decimal string (as in the JSON sheet) as a number, and as that text beside it."""
        self.number(column, float(Fraction(value)), fmt)
        self.text(column + 1, value)

    def line(self, *cells: str, bold: bool = False) -> None:
        """A new row of text cells."""
        self.row += 1
        for column, value in enumerate(cells, 1):
            if value:
                self.text(column, value, bold)

    def widths(self, *widths: int) -> None:
        from openpyxl.utils import get_column_letter

        for column, width in enumerate(widths, 1):
            self.ws.column_dimensions[get_column_letter(column)].width = width

    def note_big_counts(self) -> None:
        if self.big_counts:
            self.row += 1
            self.line(BIG_COUNT_NOTE)


FORMATS: dict[Kind, str] = {
    Kind.PERCENT: PERCENT,
    Kind.SIGNED: RETURN,
    Kind.EXACT: "0.0000000000",
    Kind.PAYOUT: NUMBER,
    Kind.ODDS: PROBABILITY,
    Kind.SQRT: "0.0000",
    Kind.VOLATILITY: "0.0000",
    Kind.ROUNDS: "0",
    Kind.FLAG: NUMBER,
    Kind.AMOUNT: "#,##0.00",
}
"""Number format of a figure's value cell, by kind."""
