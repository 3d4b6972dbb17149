"""XLSX math sheets (optional extra ``xlsx``): the sheet as a workbook for people who work in
Excel. openpyxl is imported only here, when a workbook is made.

Sheets: ``Summary`` (one row per bet, each value a formula referring to the bet's sheet), one
live sheet per bet (:mod:`exactodds.report.xlsx_bet`: its paytable rows with combinations,
probability and return, the total, then its figures, volatility index and confidence ranges, each
a formula over the payout and probability cells; an offered bet states its offer), then one live
sheet per streak bet (:mod:`exactodds.report.xlsx_streak`), ``Multipliers`` when the paytable has
multiplier tables (:mod:`exactodds.report.xlsx_live`, which also lays out a bet's fee, multiplied
rows and peek decisions),
``Compliance`` when the sheet has checks (``--against``: every check, then the profiles) and
``Inputs`` (software, date, shoe, rules, input files with SHA-256, the command that recomputes
the sheet). Text cells hold the same strings as the JSON sheet (``p/q``, the decimals of the
confidence bounds), so a workbook can be checked against it exactly.

Exact where a spreadsheet allows it, and safe:

- Counts are integer cells while Excel can hold them: it stores every number as an IEEE double,
  exact up to 2⁵³ = 9,007,199,254,740,992. The 8-deck universe (4,998,398,275,503,360) fits; 9
  decks' does not. A larger count is written as text, and the sheet says so.
- Probabilities, returns and percentages are number cells or formulas (cached as the nearest
  double; Excel shows 15 digits), for sorting and charts, with the exact fraction as computed as
  text in the next column, ``p/q`` as in the JSON sheet. The cells themselves are written by
  :mod:`exactodds.report.xlsx_cells`.
- Every text cell is a string cell, never a formula; text a spreadsheet would take for one
  (:func:`~exactodds.escape.formula_like`) also carries Excel's quote prefix, so editing the cell
  keeps it text. Characters XML cannot hold become U+FFFD.
- Reproducible: the document properties and the zip entries carry the sheet's date, not the
  time of the run, so the same sheet gives the same bytes (with the same openpyxl and zlib).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any
from xml.sax.saxutils import escape

from exactodds.bets.offers import PER_OFFERED_ROUND
from exactodds.compliance.rules import Compliance
from exactodds.errors import MissingExtraError
from exactodds.numbers import exact, grouped
from exactodds.report.figures import BetFigure, Kind, Value, View, in_view
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.report.streak import sheet_streaks
from exactodds.report.xlsx_bet import bet_sheet, cached_of
from exactodds.report.xlsx_cells import (
    BIG_COUNT_NOTE,
    FORMATS,
    MAX_EXACT_INT,
    NUMBER,
    ODDS,
    Writer,
    clean,
)
from exactodds.report.xlsx_live import multipliers_sheet
from exactodds.report.xlsx_streak import streak_sheet

__all__ = [
    "BIG_COUNT_NOTE",
    "MAX_EXACT_INT",
    "openpyxl",
    "render_xlsx",
    "sheet_names",
    "xlsx_date",
]

MAX_SHEET_NAME = 31
"""Excel's limit on the length of a sheet name."""

_RESERVED = (
    "Summary",
    "Multipliers",
    "Compliance",
    "Inputs",
    "History",
)  # "History" is reserved by Excel itself
_STAMP = re.compile(rb"exactodds-sheet date=(\d{4}-\d{2}-\d{2})")
_CORE = "docProps/core.xml"


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


SUMMARY_NOTE = (
    "The value columns are formulas over the bet sheets (edit a bet's Net per unit there and "
    "they follow); the exact columns give the figures as computed."
)


def _summary(
    w: Writer, sheet: Sheet, names: Sequence[str], refs: Sequence[Mapping[str, str]]
) -> None:
    """One row per bet; each value a reference to the bet sheet's figure cell (``refs``: the
    cell of each figure key on the bet's sheet)."""
    w.line(f"{sheet.paytable.name} — math sheet", bold=True)
    w.line(f"{sheet.shoe.describe()}; drawing rules {sheet.tableau.name}; {sheet.software}")
    w.line(f"Date {sheet.date}. Every figure is exact; the 'exact' columns give it as p/q.")
    w.line(SUMMARY_NOTE)
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
    w.line(*header, "Sheet", OFFER_HEADER, bold=True)
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 3)
    rows = [
        _Line(b.bet.name, b.bet.id, (b.figures, b, b.bet, b.progressive), _offer(b))
        for b in sheet.bets
    ]
    rows += [_Line(bet.name, bet.id, (f,), STREAK_NOTE) for bet, f, _ in sheet_streaks(sheet)]
    for line, name, cells in zip(rows, names, refs, strict=True):
        w.line(line.name, line.id)
        column = 3
        for figure in figures:
            ref = cells.get(figure.key)
            where = None if ref is None else f"{_quoted(name)}!{ref}"
            _summary_cell(w, column, figure, figure.value_in(*line.holders), where)
            column += 2 if figure.kind.fractional or figure.exact_short else 1
        w.text(column, name)
        if line.note:
            w.text(column + 1, line.note)
    w.widths(*widths, 16, 40)


OFFER_HEADER = f"Offered when (figures {PER_OFFERED_ROUND})"
STREAK_NOTE = "streak bet: figures with rounds independent, per bet"


@dataclass(frozen=True)
class _Line:
    """A bet's Summary row: its name and id, what holds its figures' values (in the order
    :meth:`BetFigure.value_in` reads them), and the note in the last column."""

    name: str
    id: str
    holders: tuple[object, ...]
    note: str = ""


def _offer(b: BetSheet) -> str:
    """The Summary's note on an offered bet."""
    return "" if b.bet.offer is None else f"{b.bet.offer}: {PER_OFFERED_ROUND}"


def _quoted(name: str) -> str:
    """A worksheet name as a formula refers to it."""
    return "'" + name.replace("'", "''") + "'"


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


def _summary_cell(w: Writer, column: int, figure: BetFigure, x: Value, ref: str | None) -> None:
    """A figure's cells in a bet's Summary row, for its value ``x``: a formula referring to the
    bet sheet's cell (``ref``; a figure not on bet sheets is written as a fixed value) and,
    where the Summary has one, the exact form as computed; left empty where the sheet shows
    "—"."""
    if figure.text_of(x, in_summary=True) in ("", "—"):
        return
    kind = figure.kind
    value: Fraction | float | str = cached_of(figure, x)
    formula = f"={ref}"
    if kind is Kind.ODDS:  # "1 in N"
        value, formula = 1 / Fraction(x or 0), f"=1/{ref}"
    beside = exact(Fraction(x or 0)) if kind.fractional or figure.exact_short else ""
    fmt = ODDS if kind is Kind.ODDS else FORMATS.get(kind, NUMBER)
    if ref is not None:
        w.formula(column, formula, value, fmt, beside)
    elif isinstance(value, str):
        w.text(column, value)
    else:
        w.number(column, value, fmt)
        if beside:
            w.text(column + 1, beside)


def _compliance(w: Writer, sheet: Sheet, c: Compliance) -> None:
    """Every check (values and limits as in the JSON sheet), then the profiles."""
    w.line(f"Compliance — {c.summary()}; verdict {c.verdict.value}", bold=True)
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


def _inputs(w: Writer, sheet: Sheet) -> None:
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
        cached: dict[str, dict[str, float | str]] | None = None,
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
            value = values[ref]
            attributes = match.group(2)
            if isinstance(value, str):  # a formula giving text
                attributes = re.sub(rb' t="[a-z]+"', b"", attributes) + b' t="str"'
                text = escape(value).encode("utf-8")
            else:
                text = repr(value).encode("ascii")
            return b'<c r="%s"%s><f>%s</f><v>%s</v></c>' % (
                match.group(1),
                attributes,
                match.group(3),
                text,
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

    >>> from exactodds.bets.loader import load_paytable
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
    streaks = sheet_streaks(sheet)
    names = sheet_names([b.bet.id for b in sheet.bets] + [bet.id for bet, _, _ in streaks])
    bet_writers = [Writer(book.create_sheet(name)) for name in names]
    refs = [bet_sheet(writer, b) for b, writer in zip(sheet.bets, bet_writers, strict=False)]
    refs += [
        streak_sheet(writer, *models)
        for models, writer in zip(streaks, bet_writers[len(sheet.bets) :], strict=True)
    ]
    summary_writer = Writer(summary)
    _summary(summary_writer, sheet, names, refs)
    if sheet.paytable.multipliers:
        multipliers_sheet(Writer(book.create_sheet("Multipliers")), sheet)
    if sheet.compliance is not None:
        _compliance(Writer(book.create_sheet("Compliance")), sheet, sheet.compliance)
    if sheet.protection is not None:
        from exactodds.report.protection import protection_xlsx

        protection_xlsx(Writer(book.create_sheet("Protection")), sheet, NUMBER)
    if sheet.session is not None:
        from exactodds.report.session import session_xlsx

        session_xlsx(Writer(book.create_sheet("Session")), sheet, NUMBER)
    _inputs(Writer(book.create_sheet("Inputs")), sheet)
    day = dt.date.fromisoformat(sheet.date)
    stamp = dt.datetime(day.year, day.month, day.day)
    props = book.properties
    props.creator = sheet.software
    props.lastModifiedBy = None
    props.title = clean(f"{sheet.paytable.name} — math sheet")
    props.keywords = f"exactodds-sheet date={sheet.date}"
    props.created = props.modified = stamp
    zip_time = max((day.year, day.month, day.day, 0, 0, 0), (1980, 1, 1, 0, 0, 0))  # zip's epoch
    # worksheets are written as sheetN.xml in book order; the bet sheets follow the Summary
    writers = [summary_writer, *bet_writers]
    cached = {f"xl/worksheets/sheet{k}.xml": w.cached for k, w in enumerate(writers, 1)}
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
