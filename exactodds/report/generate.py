"""From command-line choices to rendered sheets: which paytables, on which shoe and rules, in
which formats, and where each file goes.

The sheet date is kept stable when writing to a directory: when a sheet there already records a
date and re-rendering it with that date gives the same bytes, the file is left as it is. So
``exactodds report --all --out reports/`` only changes the files whose figures, inputs or
software version changed, and a file's date is the day its content last changed. PDF and XLSX
sheets are binary files, written only with ``--out``; a PDF is the HTML sheet printed, and is
left as it is when it was printed from the same HTML (it records the HTML's SHA-256), so an
unchanged PDF is not printed again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.bets.game import PAYTABLE_GAME, GameChoice
from exactodds.bets.loader import (
    bundled_paytables,
    default_paytable,
    judge_paytable,
    load_paytable,
)
from exactodds.bets.payout import Notation
from exactodds.bets.paytable import Paytable
from exactodds.bets.settle_rounds import check_bet_ids
from exactodds.compliance.profiles import load_profiles
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ReportError, about, parameter, require
from exactodds.formats import Format
from exactodds.report.comparison import COMPARISON_STEM, comparison_document
from exactodds.report.sheet import InputFile, Sheet, build_sheet, file_input, resolve_date

if TYPE_CHECKING:
    from exactodds.compliance.rules import Profile

__all__ = [
    "BINARY_FORMATS",
    "BUNDLED_AGAINST",
    "COMPARISON_STEM",
    "EXTENSIONS",
    "FORMATS",
    "ReportError",
    "build_sheets",
    "check_sheet_format",
    "comparison_document",
    "plan_comparison",
    "plan_files",
    "recorded_date",
    "render_file",
    "render_sheets",
]

FORMATS = (Format.MD, Format.HTML, Format.CSV, Format.JSON, Format.PDF, Format.XLSX)
"""Output formats of ``exactodds report``."""

BINARY_FORMATS = tuple(f for f in FORMATS if f.binary)
"""Formats written only as files (``--out``), one per sheet (extras ``pdf`` and ``xlsx``)."""

EXTENSIONS = {f: f.extension for f in FORMATS}
"""File name extension of a sheet in each format."""

BUNDLED_AGAINST = "gli-11,adm,mga"
"""Profiles the bundled sheets are checked against: ``--all`` uses them unless ``--against``
is given, so ``exactodds report --all --out reports/`` stays the one regenerating command."""

_DATE_PATTERNS = {
    Format.MD: re.compile(r"exactodds-sheet:[^\n]*?date=(\d{4}-\d{2}-\d{2})"),
    Format.HTML: re.compile(r"exactodds-sheet:[^\n]*?date=(\d{4}-\d{2}-\d{2})"),
    Format.JSON: re.compile(r'^  "date": "(\d{4}-\d{2}-\d{2})"', re.MULTILINE),
}


def render_sheets(sheets: Sequence[Sheet], fmt: str | Format) -> str:
    """Render sheets in a text format: Markdown and HTML sheets are joined, CSV and JSON
    combined (PDF and XLSX: :func:`render_file`, one sheet each).

    >>> sheets = build_sheets(["classic"], bet_ids=["player_pair"], date="2024-01-01")
    >>> json.loads(render_sheets(sheets, "json"))["date"]
    '2024-01-01'
    >>> render_sheets(sheets, "rtf")
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: unknown format 'rtf' (use one of md, html, csv, json, pdf, xlsx)
    >>> render_sheets(sheets, "pdf")
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: fmt pdf writes binary files, one per sheet: give out DIR
    """
    require(fmt, (str,), "fmt")
    fmt = Format.check(fmt, FORMATS, ReportError)
    if fmt.binary:
        check_sheet_format(fmt, to_files=False)
    if fmt is Format.JSON:
        from exactodds.report.json_ import render_json

        return render_json(sheets)
    if fmt is Format.CSV:
        from exactodds.report.csv_ import render_csv

        return render_csv(sheets)
    if fmt is Format.MD:
        from exactodds.report.content import document
        from exactodds.report.markdown import render_markdown

        return "\n".join(render_markdown(document(s)) for s in sheets)
    from exactodds.report.html import render_sheet_html

    return "".join(render_sheet_html(s) for s in sheets)


def print_html(sheet: Sheet) -> str:
    """The HTML a PDF is printed from: the sheet without the designer's script and data (a
    printed page runs no script; WeasyPrint lays the page out about 10% faster without them).

    >>> sheet = build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01")[0]
    >>> "<script" in print_html(sheet), "<script" in render_sheets([sheet], "html")
    (False, True)
    """
    from exactodds.report.html import render_sheet_html

    return render_sheet_html(sheet, designer=False)


def check_sheet_format(fmt: str | Format, to_files: bool) -> None:
    """Refuse, before any work, a format that is unknown, binary without ``out``, or needs an
    extra that is not installed (:class:`~exactodds.errors.MissingExtraError`).

    >>> check_sheet_format("xlsx", to_files=False)
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: fmt xlsx writes binary files, one per sheet: give out DIR
    """
    fmt = Format.check(fmt, FORMATS, ReportError)
    if fmt.binary and not to_files:
        message = f"fmt {fmt} writes binary files, one per sheet: give out DIR"
        raise about(ReportError(message), "fmt", "out")
    if fmt is Format.PDF:
        from exactodds.report.pdf import weasyprint

        weasyprint()
    elif fmt is Format.XLSX:
        from exactodds.report.xlsx import openpyxl

        openpyxl()


def render_file(sheet: Sheet, fmt: str | Format) -> str | bytes:
    """One sheet as the content of its file: text, or bytes for PDF and XLSX.

    >>> sheet = build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01")[0]
    >>> render_file(sheet, "xlsx")[:2], render_file(sheet, "md") == render_sheets([sheet], "md")
    (b'PK', True)
    """
    fmt = Format.check(fmt, FORMATS, ReportError)
    if fmt is Format.PDF:
        from exactodds.report.pdf import render_pdf

        return render_pdf(print_html(sheet), sheet.date)
    if fmt is Format.XLSX:
        from exactodds.report.xlsx import render_xlsx

        return render_xlsx(sheet)
    return render_sheets([sheet], fmt)


def recorded_date(text: str | bytes, fmt: str | Format) -> str | None:
    """The date a rendered sheet records, or None (also for a file exactodds did not write).
    Binary formats are read from bytes; text given as bytes is decoded as UTF-8.

    >>> recorded_date("<!-- exactodds-sheet: generated …; date=2024-05-01; do not edit -->", "md")
    '2024-05-01'
    >>> recorded_date(b"%PDF-1.7 ...", "pdf"), recorded_date(b"\\xff", "md")
    (None, None)
    """
    fmt = Format.check(fmt, FORMATS, ReportError)
    if fmt is Format.PDF:
        from exactodds.report.pdf import pdf_stamp

        stamp = pdf_stamp(text) if isinstance(text, bytes) else None
        return None if stamp is None else stamp.date
    if fmt is Format.XLSX:
        from exactodds.report.xlsx import xlsx_date

        return xlsx_date(text) if isinstance(text, bytes) else None
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if fmt is Format.CSV:
        import csv
        import io

        for line in csv.DictReader(io.StringIO(text, newline="")):
            if line.get("kind") == "meta" and line.get("item") == "date":
                return line.get("value") or None
        return None
    end = 4096 if fmt in ("md", "html") else len(text)  # md, html: the marker's line
    match = _DATE_PATTERNS[fmt].search(text, 0, end)
    if match is None:
        return None
    if fmt is Format.JSON:
        try:
            data = json.loads(text)
        except ValueError:
            return None
        return data.get("date") if isinstance(data, dict) else None
    return match.group(1)


def build_sheets(
    specs: Sequence[str],
    *,
    all_bundled: bool = False,
    game: GameChoice = PAYTABLE_GAME,
    bet_ids: Sequence[str] = (),
    date: str | None = None,
    version: str | None = None,
    against: str | None = None,
    notation: Notation = Notation.BOTH,
    examples: bool = True,
    protection: bool = False,
    allow_player_edge: bool = False,
    session: int | None = None,
) -> list[Sheet]:
    """Sheets of the paytables named by ``specs`` (paths or bundled names), of every bundled
    paytable with ``all_bundled``, or of the default game when neither is given, each on the
    shoe and rules ``game`` chooses.

    ``against`` names jurisdiction profiles (``"gli-11,adm"``) whose checks each sheet carries;
    with ``all_bundled`` it defaults to :data:`BUNDLED_AGAINST`; ``allow_player_edge`` drops
    exactodds' own no-player-edge rule from them
    (:meth:`~exactodds.compliance.rules.Profile.allowing_player_edge`). ``examples=False`` leaves
    out the worked examples (see :func:`~exactodds.report.sheet.build_sheet`). ``protection`` adds
    the game-protection section (:func:`~exactodds.report.protection.protection_sheet`), its
    work on the card engine checked with the sheet's before either is computed; ``session``
    adds sessions of that many rounds per bet (:func:`~exactodds.report.session.session_sheet`).

    >>> [s.stem for s in build_sheets([], date="2024-01-01")]
    ['classic']
    >>> one_deck = GameChoice(decks=1, remove="Kd")
    >>> [(s.stem, s.shoe.size) for s in build_sheets(["mini", "touch"], game=one_deck)]
    [('mini', 51), ('touch', 51)]
    >>> [s.compliance.summary() for s in build_sheets(["classic"], against="mga")]
    ['28 checks: 26 pass, 2 fail, 0 n/a']
    >>> build_sheets(["mini"], all_bundled=True)
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: give specs or all_bundled, not both
    """
    if all_bundled and specs:
        message = "give specs or all_bundled, not both"
        raise about(ReportError(message), "specs", "all_bundled")
    paths: list[str | Path] = list(specs)
    if all_bundled:
        paths = list(bundled_paytables())
        if not paths:
            message = "all_bundled: no bundled paytables found (is exactodds installed?)"
            raise about(ReportError(message), "all_bundled")
    elif not paths:
        paths = [default_paytable()]
    extra: list[InputFile] = []
    tableau: Tableau | None = None
    if game.rules is not None:
        tableau = game.tableau()
        if tableau is not BUILTIN.get(tableau.name) and Path(game.rules).is_file():
            extra.append(file_input("rules", game.rules))
    if game.shoe_file is not None:
        extra.append(file_input("shoe", game.shoe_file))
    day = resolve_date(date)
    profiles = _profiles(BUNDLED_AGAINST if against is None and all_bundled else against)
    if allow_player_edge:
        if not profiles:
            message = "allow_player_edge applies only with against PROFILES"
            raise about(ReportError(message), "allow_player_edge", "against")
        profiles = tuple(p.allowing_player_edge() for p in profiles)
    tables = _read_tables(paths, game, bet_ids)
    _weigh_protections(tables, game, tableau, protection=protection)
    sheets = []
    for read in tables:
        # its card-level bets counted once checked, with their worked examples on a whole sheet
        table = judge_paytable(read, game, examples=examples and not bet_ids)
        shoe = game.shoe(table)
        streaks = [s for s in table.streaks if not bet_ids or s.id in bet_ids]
        if streaks:  # their one-shoe model, before any dealing
            from exactodds.report.streak import check_sheet_streaks

            check_sheet_streaks(len(streaks), shoe)
        if protection:
            from exactodds.report.protection import check_protection_work

            check_protection_work(table.bets, shoe, tableau or table.tableau)
        sheets.append(
            build_sheet(
                table,
                shoe=shoe,
                tableau=tableau,
                bet_ids=bet_ids,
                date=day,
                version=version,
                extra_inputs=extra,
                game=game,
                against=profiles,
                notation=notation,
                examples=examples,
            )
        )
        sheets[-1] = _with_sections(sheets[-1], protection, session)
    return sheets


def _read_tables(
    paths: Sequence[str | Path], game: GameChoice, bet_ids: Sequence[str]
) -> list[Paytable]:
    """Every paytable read and every ``--bet`` checked before any counting (card-level bets
    are judged later, :func:`~exactodds.bets.loader.judge_paytable`)."""
    tables = []
    for spec in paths:
        table = load_paytable(spec, game, counted=False)
        with parameter("bet_ids"):  # a round bet or a streak bet
            check_bet_ids(table, bet_ids)
        tables.append(table)
    return tables


def _weigh_protections(
    tables: Sequence[Paytable], game: GameChoice, tableau: Tableau | None, *, protection: bool
) -> None:
    """With ``protection``, every paytable's section weighed against the CPU budget before any
    is counted (:func:`~exactodds.report.protection.check_protections`)."""
    if not protection:
        return
    from exactodds.report.protection import check_protections

    check_protections([(t.bets, game.shoe(t), tableau or t.tableau) for t in tables])


def _with_sections(sheet: Sheet, protection: bool, session: int | None) -> Sheet:
    """``sheet`` with the optional sections asked for: game protection, sessions of N rounds."""
    if protection:
        from exactodds.report.protection import protection_sheet

        sheet = protection_sheet(sheet)
    if session is not None:
        from exactodds.report.session import session_sheet

        sheet = session_sheet(sheet, session)
    return sheet


def _profiles(against: str | None) -> tuple[Profile, ...]:
    """The profiles ``--against`` names (none without it)."""
    return load_profiles(against) if against is not None else ()


def plan_files(
    sheets: Sequence[Sheet], formats: Sequence[str | Format], out: Path, keep_dates: bool = True
) -> dict[Path, str | bytes | None]:
    """Each output file and its new content, or None where the file is already up to date.

    With ``keep_dates`` a file that records a date and differs from the new sheet only by that
    date is left unchanged (None). A PDF is only printed when it is not up to date.

    >>> import tempfile
    >>> old = build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01")
    >>> new = [s.with_date("2024-02-02") for s in old]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for path, text in plan_files(old, ["md"], Path(tmp)).items():
    ...         _ = path.write_text(text or "", encoding="utf-8")
    ...     kept = plan_files(new, ["md"], Path(tmp))
    ...     redated = plan_files(new, ["md"], Path(tmp), keep_dates=False)
    >>> list(kept.values()), [recorded_date(text or "", "md") for text in redated.values()]
    ([None], ['2024-02-02'])
    """
    stems: dict[str, str] = {}
    for sheet in sheets:
        other = stems.setdefault(sheet.stem, sheet.file)
        if other != sheet.file:
            message = (
                f"out: {other} and {sheet.file} would both be written as {sheet.stem}.*; "
                "write them to different directories"
            )
            raise about(ReportError(message), "out")
    plan: dict[Path, str | bytes | None] = {}
    for sheet in sheets:
        for fmt in (Format.check(f, FORMATS, ReportError) for f in formats):
            path = out / f"{sheet.stem}{fmt.extension}"
            if fmt.binary:
                plan[path] = _plan_binary(sheet, fmt, path, keep_dates)
                continue
            new = render_sheets([sheet], fmt)
            old = _old_text(path) if keep_dates else None
            if old is not None:
                if old == new:
                    plan[path] = None
                    continue
                old_date = recorded_date(old, fmt)
                if (
                    old_date is not None
                    and old_date != sheet.date
                    and render_sheets([sheet.with_date(old_date)], fmt) == old
                ):
                    plan[path] = None
                    continue
            plan[path] = new
    return plan


def _plan_binary(sheet: Sheet, fmt: Format, path: Path, keep_dates: bool) -> bytes | None:
    """:func:`plan_files` for a PDF or XLSX file: its new bytes, or None when up to date."""
    old = _old_bytes(path)
    if fmt is Format.PDF:
        from exactodds.report.pdf import html_digest, pdf_stamp, render_pdf

        html = print_html(sheet)
        stamp = None if old is None else pdf_stamp(old)
        if stamp is not None and (
            stamp.html_sha256 == html_digest(html)
            or (
                keep_dates
                and stamp.date != sheet.date
                and stamp.html_sha256 == html_digest(print_html(sheet.with_date(stamp.date)))
            )
        ):
            return None
        return render_pdf(html, sheet.date)
    from exactodds.report.xlsx import render_xlsx

    new = render_xlsx(sheet)
    old_date = None if old is None else recorded_date(old, fmt)
    if old == new or (
        keep_dates
        and old_date not in (None, sheet.date)
        and render_xlsx(sheet.with_date(str(old_date))) == old
    ):
        return None
    return new


def _old_bytes(path: Path) -> bytes | None:
    """The file exactodds may have written before, or None (none there, or too big to be one)."""
    from exactodds.errors import InputFileError
    from exactodds.files import read_bytes

    try:
        return read_bytes(path, limit=1 << 26) if path.is_file() else None
    except InputFileError:
        return None


def _old_text(path: Path) -> str | None:
    """The text sheet exactodds may have written before, exactly as written (no newline
    translation: a CSV sheet's CRLF line ends compare equal to a new rendering), or None (none
    there, too big, or not UTF-8: not one of ours)."""
    old = _old_bytes(path)
    try:
        return None if old is None else old.decode("utf-8")
    except UnicodeDecodeError:
        return None


def plan_comparison(out: Path, date: str | None, keep_dates: bool = True) -> dict[Path, str | None]:
    """The comparison's Markdown and HTML files and their new text (None when up to date,
    ignoring the date as :func:`plan_files` does).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     plan = plan_comparison(Path(tmp), "2024-01-01")
    ...     for path, text in plan.items():
    ...         _ = path.write_text(text or "", encoding="utf-8")
    ...     later = plan_comparison(Path(tmp), "2024-02-02")
    >>> sorted(p.name for p in plan), list(later.values())
    (['comparison.html', 'comparison.md'], [None, None])
    """
    from exactodds.report.html import render_html
    from exactodds.report.markdown import render_markdown

    renderers = {Format.MD: render_markdown, Format.HTML: render_html}
    doc = comparison_document(date)
    plan: dict[Path, str | None] = {}
    for fmt, render_doc in renderers.items():
        path = out / f"{COMPARISON_STEM}{fmt.extension}"
        new = render_doc(doc)
        old = _old_text(path)
        old_date = recorded_date(old, fmt) if old is not None else None
        same = old == new or (
            keep_dates and old_date is not None and render_doc(replace(doc, date=old_date)) == old
        )
        plan[path] = None if same else new
    return plan
