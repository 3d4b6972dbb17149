"""XLSX math sheets (optional extra ``xlsx``): the sheet as a workbook for people who work in
Excel. openpyxl is imported only here, when a workbook is made.

Sheets: ``Summary`` (one row per bet), one sheet per bet (its paytable rows with combinations,
probability and return, the total, then its figures, volatility index and confidence ranges),
``Compliance`` when the sheet has checks (``--against``: every check, then the profiles) and
``Inputs`` (software, date, shoe, rules, input files with SHA-256, the command that recomputes
the sheet). Text cells hold the same strings as the JSON sheet (``p/q``, the decimals of the
confidence bounds), so a workbook can be checked against it exactly.

Exact where a spreadsheet allows it, and safe:

- Counts are integer cells while Excel can hold them: it stores every number as an IEEE double,
  exact up to 2⁵³ = 9,007,199,254,740,992. The 8-deck universe (4,998,398,275,503,360) fits; 9
  decks' does not. A larger count is written as text, and the sheet says so.
- Probabilities, returns and percentages are number cells (16 significant digits, as openpyxl
  writes numbers; Excel shows 15), for sorting and charts, with the exact fraction as text in
  the next column, ``p/q`` as in the JSON sheet.
- Every text cell is a string cell, never a formula; text a spreadsheet would take for one
  (:func:`~exactodds.escape.formula_like`) also carries Excel's quote prefix, so editing the cell
  keeps it text. Characters XML cannot hold become U+FFFD.
- Reproducible: the document properties and the zip entries carry the sheet's date, not the
  time of the run, so the same sheet gives the same bytes (with the same openpyxl and zlib).
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
import zipfile
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from exactodds.compliance import Compliance
from exactodds.confidence import confidence_ranges, volatility_index
from exactodds.errors import MissingExtraError
from exactodds.escape import formula_like
from exactodds.numbers import exact, grouped
from exactodds.report.figures import FLAG, BetFigure, Kind, View, in_view
from exactodds.report.sheet import CONFIDENCE_PLACES, BetSheet, Sheet

__all__ = ["MAX_EXACT_INT", "openpyxl", "render_xlsx", "sheet_names", "xlsx_date"]

MAX_EXACT_INT = 2**53
"""Largest count written as a number: Excel's doubles hold every integer up to 2⁵³ exactly."""

MAX_SHEET_NAME = 31
"""Excel's limit on the length of a sheet name."""

_RESERVED = ("Summary", "Compliance", "Inputs", "History")  # "History" is reserved by Excel itself
_STAMP = re.compile(rb"exactodds-sheet date=(\d{4}-\d{2}-\d{2})")
_CORE = "docProps/core.xml"
_BAD_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_MAX_TEXT = 32767  # characters in one Excel cell

PERCENT = "0.0000%"
PROBABILITY = "0.0000000000"
RETURN = "+0.0000000000;-0.0000000000;0.0000000000"
COUNT = "#,##0"
ODDS = "#,##0.00"
NUMBER = "General"

BIG_COUNT_NOTE = (
    "Counts above 2^53 = 9,007,199,254,740,992 are written as text: Excel stores numbers as "
    "doubles and would round them."
)


def sheet_names(bet_ids: Sequence[str]) -> list[str]:
    """A worksheet name per bet: its id, cut to 31 characters, unique ignoring case (Excel's
    rule) and distinct from the Summary and Inputs sheets.

    >>> names = sheet_names(["tie", "summary", "x" * 40, "x" * 31 + "y"])
    >>> names[:2], names[2] == "x" * 31, names[3]
    (['tie', 'summary~2'], True, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx~2')
    """
    taken = {name.casefold() for name in _RESERVED}
    out = []
    for bet_id in bet_ids:
        name = bet_id[:MAX_SHEET_NAME]
        n = 1
        while name.casefold() in taken:
            n += 1
            suffix = f"~{n}"
            name = bet_id[: MAX_SHEET_NAME - len(suffix)] + suffix
        taken.add(name.casefold())
        out.append(name)
    return out


class _Writer:
    """Cells of one worksheet, written row by row: text, exact numbers and counts."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.row = 0
        self.big_counts = False
        self.cached: dict[str, float] = {}
        """Cached values of formula cells by reference (openpyxl writes formulas without
        one; :class:`_Archive` adds them, so a reader that does not recalculate sees them)."""

    def text(self, column: int, value: str, bold: bool = False) -> None:
        from openpyxl.styles import Font

        cell = self.ws.cell(self.row, column)
        cell.value = _BAD_XML.sub("\ufffd", value)[:_MAX_TEXT]
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

    def formula(self, column: int, formula: str, value: Fraction, fmt: str) -> None:
        """A live Excel formula (``=…``) whose cached value is ``value``, and ``value`` as
        exact ``p/q`` text in the next column (the figure as computed, which does not change)."""
        cell = self.ws.cell(self.row, column)
        cell.value = formula
        cell.number_format = fmt
        self.cached[cell.coordinate] = float(value)
        self.text(column + 1, exact(value))

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


def _summary(w: _Writer, sheet: Sheet, names: Sequence[str]) -> None:
    w.line(f"{sheet.paytable.name} — math sheet", bold=True)
    w.line(f"{sheet.shoe.describe()}; drawing rules {sheet.tableau.name}; {sheet.software}")
    w.line(f"Date {sheet.date}. Every figure is exact; the 'exact' columns give it as p/q.")
    w.row += 1
    figures = in_view(View.SUMMARY)
    header = ["Bet", "Id"]
    widths = [24, 16]
    for figure in figures:
        short = figure.short or figure.label
        header.append(short + figure.unit)
        if figure.kind.fractional or figure.exact_short:
            header.append(figure.exact_short or f"{short} (exact)")
        widths += _SUMMARY_WIDTHS[figure.kind]
    w.line(*header, "Sheet", bold=True)
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 3)
    for b, name in zip(sheet.bets, names, strict=True):
        w.line(b.bet.name, b.bet.id)
        column = 3
        for figure in figures:
            _summary_cell(w, column, figure, b)
            column += 2 if figure.kind.fractional or figure.exact_short else 1
        w.text(column, name)
    w.widths(*widths, 16)


_SUMMARY_WIDTHS: dict[Kind, tuple[int, ...]] = {
    Kind.PERCENT: (11, 24),
    Kind.SIGNED: (13, 24),
    Kind.EXACT: (11, 30),
    Kind.SQRT: (9, 30),
    Kind.VOLATILITY: (9,),
    Kind.PAYOUT: (12, 14),
    Kind.ODDS: (14, 26),
    Kind.ROUNDS: (10,),
    Kind.FLAG: (20,),
}
"""Column widths of a figure in the Summary sheet (its value, and its exact form)."""

_FORMATS: dict[Kind, str] = {
    Kind.PERCENT: PERCENT,
    Kind.SIGNED: RETURN,
    Kind.EXACT: "0.0000000000",
    Kind.PAYOUT: NUMBER,
    Kind.ODDS: PROBABILITY,
    Kind.AMOUNT: "#,##0.00",
}
"""Number format of an exact figure on a bet's sheet, by kind."""


def _summary_cell(w: _Writer, column: int, figure: BetFigure, b: BetSheet) -> None:
    """A figure's cells in the bet's Summary row: left empty where the sheet shows "—"."""
    x = figure.value(b)
    if figure.text(b, in_summary=True) in ("", "—"):
        return
    kind = figure.kind
    if kind is Kind.FLAG:
        w.text(column, FLAG)
    elif kind is Kind.ROUNDS:
        w.number(column, int(x or 0), "0")
    elif kind is Kind.SQRT:
        w.number(column, math.sqrt(Fraction(x or 0)), "0.0000")
        w.text(column + 1, exact(Fraction(x or 0)))
    elif kind is Kind.VOLATILITY:
        w.decimal(column, volatility_index(Fraction(x or 0), CONFIDENCE_PLACES), "0.0000")
    elif kind is Kind.ODDS:
        w.number(column, 1 / Fraction(x or 0), ODDS)
        w.text(column + 1, exact(Fraction(x or 0)))
    else:
        w.exact(column, Fraction(x or 0), _FORMATS.get(kind, NUMBER))


def _live(figure: BetFigure, rows: tuple[int, int, int]) -> str | None:
    """The Excel formula of a figure that follows from the return table (rows ``first`` to
    ``last`` of nets in E and probabilities in H, the total return in J of ``total``), or
    None: these recompute when a Net per unit cell is edited."""
    first, last, total = rows
    nets, probabilities = f"E{first}:E{last}", f"H{first}:H{last}"
    return {
        "house_edge": f"=-J{total}",
        "rtp": f"=1+J{total}",
        "ev": f"=J{total}",
        "hit_frequency": f'=SUMIF({nets},">0",{probabilities})',
        "push_probability": f"=SUMIF({nets},0,{probabilities})",
    }.get(figure.key)


def _figure_row(
    w: _Writer, figure: BetFigure, b: BetSheet, rows: tuple[int, int, int] | None = None
) -> None:
    """A figure's row on the bet's sheet: label, value (and its exact form); a live formula
    where the figure follows from the return table."""
    x = figure.value(b)
    kind = figure.kind
    label = figure.xlsx_label or figure.label
    if kind is Kind.FLAG:
        if x:
            w.line(label, FLAG)
        return
    if kind is Kind.ROUNDS:
        w.line(label, "" if x else figure.none_text)
        if x:
            w.number(2, int(x), "0")
        return
    w.line(label)
    if x is None:
        w.text(2, "—")
    elif kind is Kind.SQRT:
        w.number(2, math.sqrt(Fraction(x)), "0.0000")
    elif kind is Kind.VOLATILITY:
        w.decimal(2, volatility_index(Fraction(x), CONFIDENCE_PLACES), "0.0000")
    elif rows is not None and (live := _live(figure, rows)) is not None:
        w.formula(2, live, Fraction(x), _FORMATS[kind])
    else:
        w.exact(2, Fraction(x), _FORMATS[kind])


LIVE_NOTE = (
    "Live: Net per unit (column E) is the payout as a number; edit it and Return, the total, "
    "house edge, RTP, EV, hit and push frequency recompute (Excel formulas). The exact columns "
    "and the other figures state the sheet as computed."
)


def _bet(w: _Writer, sheet: Sheet, b: BetSheet) -> None:
    f = b.figures
    bet = b.bet
    w.line(f"{bet.name} ({bet.id})", bold=True)
    if bet.description:
        w.line(bet.description)
    w.row += 1
    w.line(
        "Event",
        "Pays",
        "To 1",
        "For 1",
        "Net per unit",
        "Net (exact)",
        "Combinations",
        "Probability",
        "Probability (exact)",
        "Return",
        "Return (exact)",
        "Note",
        bold=True,
    )
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 2)
    first = w.row + 1
    for row, note in zip(f.rows, b.notes, strict=True):
        w.line(row.event, row.pays.text or str(row.pays), row.pays.to_one(), row.pays.for_one())
        w.exact(5, row.net, NUMBER)
        w.count(7, row.combinations)
        w.exact(8, row.probability, PROBABILITY)
        w.formula(10, f"=E{w.row}*H{w.row}", row.ret, RETURN)
        if note:
            w.text(12, note)
    last = w.row
    w.line("Total", bold=True)
    w.count(7, f.total)
    w.exact(8, Fraction(1), PROBABILITY)
    w.formula(10, f"=SUM(J{first}:J{last})", f.ev, RETURN)
    rows = (first, last, w.row)
    w.row += 1
    w.line("Figure", "Value", "Exact", bold=True)
    for figure in in_view(View.XLSX):
        if figure.present(b):
            _figure_row(w, figure, b, rows)
    _confidence(w, b)
    if b.rtp_by_stake and b.unrounded_rtp is not None:
        w.row += 1
        w.line("Stake", "RTP", "RTP (exact)", "Equals unrounded", bold=True)
        for s in b.rtp_by_stake:
            w.row += 1
            w.exact(1, s.stake, "0.00")
            w.exact(2, s.rtp, PERCENT)
            w.text(4, "yes (exact)" if s.equals_unrounded else "no")
        w.line("Unrounded RTP")
        w.exact(2, b.unrounded_rtp, PERCENT)
    w.note_big_counts()
    w.row += 1
    w.line(LIVE_NOTE)
    w.widths(34, 16, 12, 12, 13, 14, 26, 14, 30, 15, 30, 28)


def _confidence(w: _Writer, b: BetSheet) -> None:
    """The RTP range over N rounds at each confidence level, bounds as in the JSON sheet."""
    f = b.figures
    w.row += 1
    w.line(
        "Rounds", "Level", "Level (exact)", "RTP low", "RTP low (decimal)", "RTP high", bold=True
    )
    w.text(7, "RTP high (decimal)", bold=True)
    for r in confidence_ranges(f.rtp, f.variance):
        w.row += 1
        w.count(1, r.rounds)
        w.number(2, float(r.level), "0.0%")
        w.text(3, exact(r.level))
        w.decimal(4, r.low(CONFIDENCE_PLACES), PERCENT)
        w.decimal(6, r.high(CONFIDENCE_PLACES), PERCENT)
    w.row += 1
    w.line(
        "The range the average return of N rounds stays in at each confidence level (normal "
        "approximation: RTP ± z·SD/√N, z two-sided, SD exact; bounds rounded to "
        f"{CONFIDENCE_PLACES} places)."
    )


def _compliance(w: _Writer, sheet: Sheet, c: Compliance) -> None:
    """Every check (values and limits as in the JSON sheet), then the profiles."""
    w.line(f"Compliance — {c.summary()}", bold=True)
    w.line(
        f"On {sheet.shoe.describe()}, drawing rules {sheet.tableau.name}; payouts stated "
        f"'{c.notation.value}'."
    )
    w.row += 1
    headers = ("Profile", "Rule", "Bet", "Value", "Value (exact)", "Limit", "Limit (exact)")
    w.line(*headers, "Verdict", "Source", "Note", bold=True)
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 4)
    for k in c.checks:
        w.line(k.profile, k.rule.value, k.bet)
        for column, value in ((4, k.value), (6, k.limit)):
            if isinstance(value, Fraction):
                w.exact(column, value, NUMBER)
            else:
                w.text(column + 1, value)
        w.text(8, k.verdict.value)
        w.text(9, k.source)
        if k.note:
            w.text(10, k.note)
    w.row += 1
    w.line("Profile id", "Name", "Source", "File", "SHA-256", bold=True)
    for p in c.profiles:
        w.line(p.id, p.name, p.source, p.file or "", p.sha256 or "")
    w.widths(12, 22, 18, 14, 24, 14, 24, 9, 60, 40)


def _inputs(w: _Writer, sheet: Sheet) -> None:
    t = sheet.paytable
    w.line("Item", "Value", bold=True)
    facts = [
        ("Paytable", t.name),
        ("File", sheet.file),
        ("Paytable SHA-256", t.sha256 or ""),
        ("Source", t.source),
        ("Description", t.description),
        ("Shoe", sheet.shoe.describe()),
        ("Drawing rules", sheet.tableau.name),
        ("Differs from the paytable", " ".join(sheet.overrides)),
    ]
    for item, value in facts:
        if value:
            w.line(item, value)
    w.line("Universe (ordered six-card sequences)")
    w.count(2, sheet.universe)
    w.line("Method", "complete enumeration of ordered six-card sequences; exact fractions")
    w.line("Software", sheet.software)
    w.line("Date", sheet.date)
    if sheet.monte_carlo is not None:
        v = sheet.monte_carlo
        w.line(
            "Monte Carlo check",
            f"{grouped(v.rounds)} rounds, seed {v.seed}: see the HTML or JSON sheet",
        )
    w.line("Command", sheet.command or "— (the shoe or rules cannot be given as options)")
    w.row += 1
    w.line("Input", "File", "SHA-256", bold=True)
    for i in sheet.inputs:
        w.line(i.role, i.path, i.sha256)
    w.note_big_counts()
    w.widths(38, 70, 66)


_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v ?/></c>')


class _Archive(zipfile.ZipFile):
    """A zip whose entries all carry one fixed time (openpyxl would stamp the current one),
    and whose worksheets carry the cached value of each formula cell (``cached``: by part name,
    then cell reference), which openpyxl leaves empty."""

    def __init__(
        self,
        file: IO[bytes],
        date_time: tuple[int, int, int, int, int, int],
        cached: dict[str, dict[str, float]] | None = None,
    ) -> None:
        super().__init__(file, "w", zipfile.ZIP_DEFLATED)
        self.date_time = date_time
        self.cached = cached or {}

    def _with_values(self, name: str, data: Any) -> Any:
        values = self.cached.get(name)
        if not values:
            return data
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)

        def fill(match: re.Match[bytes]) -> bytes:
            ref = match.group(1).decode("ascii")
            if ref not in values:
                return match.group(0)
            value = repr(values[ref]).encode("ascii")
            return b'<c r="%s"%s><f>%s</f><v>%s</v></c>' % (
                match.group(1),
                match.group(2),
                match.group(3),
                value,
            )

        return _FORMULA_CELL.sub(fill, raw)

    def writestr(
        self,
        zinfo_or_arcname: str | zipfile.ZipInfo,
        data: Any,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        name = (
            zinfo_or_arcname.filename
            if isinstance(zinfo_or_arcname, zipfile.ZipInfo)
            else zinfo_or_arcname
        )
        data = self._with_values(name, data)
        info = zipfile.ZipInfo(name, self.date_time)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 3
        info.external_attr = 0o644 << 16
        super().writestr(info, data, compress_type, compresslevel)

    def write(
        self,
        filename: Any,
        arcname: Any = None,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        data = Path(filename).read_bytes()
        self.writestr(str(arcname or Path(filename).name), data, compress_type, compresslevel)


def openpyxl() -> Any:
    """The openpyxl module, or :class:`~exactodds.errors.MissingExtraError` naming the ``xlsx``
    extra."""
    try:
        import openpyxl as module
        import openpyxl.writer.excel  # ExcelWriter, used by render_xlsx
    except ImportError:
        raise MissingExtraError("XLSX sheets need openpyxl", "xlsx") from None
    return module


def render_xlsx(sheet: Sheet) -> bytes:
    """The sheet as an XLSX workbook (Summary, one sheet per bet, Compliance with checks,
    Inputs).

    Raises :class:`~exactodds.errors.MissingExtraError` without the ``xlsx`` extra.

    >>> from exactodds.paytable_loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01")
    >>> data = render_xlsx(sheet)
    >>> data[:2], xlsx_date(data)
    (b'PK', '2024-01-01')
    """
    module = openpyxl()
    book = module.Workbook()
    summary = book.active
    summary.title = "Summary"
    names = sheet_names([b.bet.id for b in sheet.bets])
    _summary(_Writer(summary), sheet, names)
    bet_writers = [_Writer(book.create_sheet(name)) for name in names]
    for b, writer in zip(sheet.bets, bet_writers, strict=True):
        _bet(writer, sheet, b)
    if sheet.compliance is not None:
        _compliance(_Writer(book.create_sheet("Compliance")), sheet, sheet.compliance)
    if sheet.protection is not None:
        from exactodds.report.protection import protection_xlsx

        protection_xlsx(_Writer(book.create_sheet("Protection")), sheet, NUMBER)
    _inputs(_Writer(book.create_sheet("Inputs")), sheet)
    day = dt.date.fromisoformat(sheet.date)
    stamp = dt.datetime(day.year, day.month, day.day)
    props = book.properties
    props.creator = sheet.software
    props.lastModifiedBy = None
    props.title = _BAD_XML.sub("\ufffd", f"{sheet.paytable.name} — math sheet")
    props.keywords = f"exactodds-sheet date={sheet.date}"
    props.created = props.modified = stamp
    zip_time = max((day.year, day.month, day.day, 0, 0, 0), (1980, 1, 1, 0, 0, 0))  # zip's epoch
    # worksheets are written as sheetN.xml in book order; the bet sheets follow the Summary
    cached = {f"xl/worksheets/sheet{k}.xml": w.cached for k, w in enumerate(bet_writers, 2)}
    book.calculation.fullCalcOnLoad = True  # a spreadsheet that calculates does so on opening
    out = io.BytesIO()
    archive = _Archive(out, zip_time, cached)
    module.writer.excel.ExcelWriter(book, archive).save()  # closes the archive
    return out.getvalue()


def xlsx_date(data: bytes) -> str | None:
    """The date an XLSX workbook exactodds wrote records, or None for any other file.

    >>> xlsx_date(b"PK not a zip")
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.getinfo(_CORE)
            if info.file_size > 1 << 16:
                return None
            core = archive.read(info)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        return None
    found = _STAMP.search(core)
    return found.group(1).decode("ascii") if found else None
