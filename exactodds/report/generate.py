"""From command-line choices to rendered sheets: which paytables, on which shoe and rules, in
which formats, and where each file goes.

The sheet date is kept stable when writing to a directory: when a sheet there already records a
date and re-rendering it with that date gives the same bytes, the file is left as it is. So
``exactodds report --all --out reports/`` only changes the files whose figures, inputs or
software version changed, and a file's date is the day its content last changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from exactodds.compliance import load_profiles
from exactodds.errors import ReportError
from exactodds.numbers import percent
from exactodds.payout import Notation
from exactodds.paytable import bundled_paytables, default_paytable, display_path, load_paytable
from exactodds.report.layout import PRECISION, Code, Document, Heading, Inline, Para, Table
from exactodds.report.sheet import InputFile, Sheet, build_sheet, file_input, resolve_date
from exactodds.shoe import Shoe
from exactodds.tableau import BUILTIN, Tableau, load_tableau

__all__ = [
    "BUNDLED_AGAINST",
    "COMPARISON_STEM",
    "EXTENSIONS",
    "FORMATS",
    "ReportError",
    "build_sheets",
    "comparison_document",
    "plan_comparison",
    "plan_files",
    "recorded_date",
    "render",
]

FORMATS = ("md", "html", "csv", "json")
"""Output formats of ``exactodds report``."""

EXTENSIONS = {"md": ".md", "html": ".html", "csv": ".csv", "json": ".json"}

BUNDLED_AGAINST = "gli-11,adm,mga"
"""Profiles the bundled sheets are checked against: ``--all`` uses them unless ``--against``
is given, so ``exactodds report --all --out reports/`` stays the one regenerating command."""

_DATE_PATTERNS = {
    "md": re.compile(r"exactodds-sheet:[^\n]*?date=(\d{4}-\d{2}-\d{2})"),
    "html": re.compile(r"exactodds-sheet:[^\n]*?date=(\d{4}-\d{2}-\d{2})"),
    "json": re.compile(r'^  "date": "(\d{4}-\d{2}-\d{2})"', re.MULTILINE),
}


def render(sheets: Sequence[Sheet], fmt: str) -> str:
    """Render sheets in ``fmt``: Markdown and HTML sheets are joined, CSV and JSON combined.

    >>> sheets = build_sheets(["classic"], bet_ids=["player_pair"], date="2024-01-01")
    >>> json.loads(render(sheets, "json"))["date"]
    '2024-01-01'
    >>> render(sheets, "pdf")
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: unknown format 'pdf' (use one of md, html, csv, json)
    """
    if fmt not in FORMATS:
        raise ReportError(f"unknown format {fmt!r} (use one of {', '.join(FORMATS)})")
    if fmt == "json":
        from exactodds.report.json_ import render_json

        return render_json(sheets)
    if fmt == "csv":
        from exactodds.report.csv_ import render_csv

        return render_csv(sheets)
    from exactodds.report.layout import document

    if fmt == "md":
        from exactodds.report.markdown import render_markdown

        return "\n".join(render_markdown(document(s)) for s in sheets)
    from exactodds.report.html import render_html

    return "".join(render_html(document(s)) for s in sheets)


def recorded_date(text: str, fmt: str) -> str | None:
    """The date a rendered sheet records, or None.

    >>> recorded_date("<!-- exactodds-sheet: generated …; date=2024-05-01; do not edit -->", "md")
    '2024-05-01'
    """
    if fmt == "csv":
        import csv
        import io

        for line in csv.DictReader(io.StringIO(text, newline="")):
            if line.get("kind") == "meta" and line.get("item") == "date":
                return line.get("value") or None
        return None
    match = _DATE_PATTERNS[fmt].search(text)
    if match is None:
        return None
    if fmt == "json":
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
    decks: int | None = None,
    remove: str | None = None,
    shoe_file: Path | None = None,
    rules: str | None = None,
    bet_ids: Sequence[str] = (),
    date: str | None = None,
    version: str | None = None,
    against: str | None = None,
    notation: Notation = Notation.BOTH,
) -> list[Sheet]:
    """Sheets of the paytables named by ``specs`` (paths or bundled names), of every bundled
    paytable with ``all_bundled``, or of the default game when neither is given.

    ``against`` names jurisdiction profiles (``"gli-11,adm"``) whose checks each sheet carries;
    with ``all_bundled`` it defaults to :data:`BUNDLED_AGAINST`.

    >>> [s.stem for s in build_sheets([], date="2024-01-01")]
    ['classic']
    >>> [(s.stem, s.shoe.size) for s in build_sheets(["mini", "touch"], decks=1, remove="Kd")]
    [('mini', 51), ('touch', 51)]
    >>> [s.compliance.summary() for s in build_sheets(["classic"], against="mga")]
    ['14 checks: 12 pass, 2 fail, 0 n/a']
    >>> build_sheets(["mini"], all_bundled=True)
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: give PAYTABLE names or --all, not both
    """
    if all_bundled and specs:
        raise ReportError("give PAYTABLE names or --all, not both")
    paths: list[str | Path] = list(specs)
    if all_bundled:
        paths = list(bundled_paytables())
        if not paths:
            raise ReportError("--all: no bundled paytables found (is exactodds installed?)")
    elif not paths:
        paths = [default_paytable()]
    extra: list[InputFile] = []
    tableau: Tableau | None = None
    if rules is not None:
        tableau = load_tableau(rules)
        if tableau is not BUILTIN.get(tableau.name) and Path(rules).is_file():
            extra.append(file_input("rules", rules))
    if shoe_file is not None:
        extra.append(file_input("shoe", shoe_file))
    day = resolve_date(date)
    if against is None and all_bundled:
        against = BUNDLED_AGAINST
    profiles = load_profiles(against) if against is not None else ()
    options = _options(decks, remove, shoe_file, rules, bet_ids)
    sheets = []
    for spec in paths:
        table = load_paytable(spec)
        shoe = Shoe.from_options(decks, remove, shoe_file, default_decks=table.decks)
        sheets.append(
            build_sheet(
                table,
                shoe=shoe,
                tableau=tableau,
                bet_ids=bet_ids,
                date=day,
                version=version,
                extra_inputs=extra,
                options=options,
                against=profiles,
                notation=notation,
            )
        )
    return sheets


def _options(
    decks: int | None,
    remove: str | None,
    shoe_file: Path | None,
    rules: str | None,
    bet_ids: Sequence[str],
) -> list[str]:
    """The command-line options of :func:`build_sheets`, as the sheets' rerun command gives
    them (files by the path given, as the sheet's inputs table names them)."""
    out: list[str] = []
    if decks is not None:
        out += ["--decks", str(decks)]
    if shoe_file is not None:
        out += ["--shoe", display_path(shoe_file)]
    if remove:
        out += ["--remove", remove]
    if rules is not None:
        out += ["--rules", rules if rules in BUILTIN else display_path(Path(rules))]
    return out + [arg for bet in bet_ids for arg in ("--bet", bet)]


def plan_files(
    sheets: Sequence[Sheet], formats: Sequence[str], out: Path, keep_dates: bool = True
) -> dict[Path, str | None]:
    """Each output file and its new text, or None where the file is already up to date.

    With ``keep_dates`` a file that records a date and differs from the new sheet only by that
    date is left unchanged (None).

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
            raise ReportError(
                f"{other} and {sheet.file} would both be written as {sheet.stem}.*; "
                "write them to different --out directories"
            )
    plan: dict[Path, str | None] = {}
    for sheet in sheets:
        for fmt in formats:
            path = out / f"{sheet.stem}{EXTENSIONS[fmt]}"
            new = render([sheet], fmt)
            if keep_dates and path.is_file():
                old = path.read_text(encoding="utf-8")
                if old == new:
                    plan[path] = None
                    continue
                old_date = recorded_date(old, fmt)
                if (
                    old_date is not None
                    and old_date != sheet.date
                    and render([sheet.with_date(old_date)], fmt) == old
                ):
                    plan[path] = None
                    continue
            plan[path] = new
    return plan


COMPARISON_STEM = "comparison"
"""File stem of the default variant comparison written by ``exactodds report --all --out``."""


def comparison_document(date: str | None = None, version: str | None = None) -> Document:
    """The default comparison — the three tableaux × Tie 8:1 / 9:1 — of the default paytable,
    bets as rows and variants as columns, with the software version and the paytable's SHA-256.

    >>> doc = comparison_document("2024-01-01", version="9.9")
    >>> doc.title, doc.blocks[-1].header[1:3]  # doctest: +NORMALIZE_WHITESPACE
    ('Classic (commission) — house edge by variant',
     ('punto-banco, Tie 8:1', 'punto-banco, Tie 9:1'))
    >>> [row[1] for row in doc.blocks[-1].rows if row[0][2] == Code("tie")]  # SPEC §9: 8:1
    ['14.3596%']
    """
    from exactodds import __version__
    from exactodds.compare import compare_variants

    table = load_paytable(default_paytable())
    comparison = compare_variants(table)
    results = comparison.results
    header = ("Bet", *(f"{r.variant.rules}, Tie {r.tie_label}" for r in results))
    rows: tuple[tuple[Inline, ...], ...] = tuple(
        (
            (name, " (", Code(bet_id), ")"),
            *(_edge_cell(dict(r.edges).get(bet_id)) for r in results),
        )
        for bet_id, name in comparison.bets
    )
    facts: tuple[tuple[Inline, ...], ...] = (
        ("Software", f"exactodds {version or __version__}"),
        ("Paytable", (f"{table.name} — ", Code(display_path(table.path)))),
        ("Paytable SHA-256", Code(str(table.sha256))),
        ("Shoe", f"{table.decks} decks, every round counted over the six-card universe"),
        ("Variants", "drawing rules × Tie payout; every other bet as in the paytable"),
        ("Regenerate", Code("exactodds report --all --out reports/")),
    )
    blocks = (
        Table(("Item", "Value"), facts, "ll"),
        Heading(2, "House edge by variant", "variants"),
        Para(
            "House edge = −EV per unit staked, pushes counted, from complete enumeration; "
            "* marks a player-favourable bet (positive expectation). Exact fractions: "
            "exactodds compare classic --format json."
        ),
        Table(header, rows, "l" + "r" * len(results)),
    )
    return Document(
        f"{table.name} — house edge by variant",
        blocks,
        resolve_date(date),
        version or __version__,
    )


def _edge_cell(edge: Fraction | None) -> str:
    if edge is None:
        return "—"
    return percent(edge, PRECISION["percent"]) + (" *" if edge < 0 else "")


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

    renderers = {"md": render_markdown, "html": render_html}
    doc = comparison_document(date)
    plan: dict[Path, str | None] = {}
    for fmt, render_doc in renderers.items():
        path = out / f"{COMPARISON_STEM}{EXTENSIONS[fmt]}"
        new = render_doc(doc)
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        old_date = recorded_date(old, fmt) if old is not None else None
        same = old == new or (
            keep_dates and old_date is not None and render_doc(replace(doc, date=old_date)) == old
        )
        plan[path] = None if same else new
    return plan
