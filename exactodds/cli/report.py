"""``exactodds report``: math sheets of paytables as Markdown, HTML, CSV, JSON, PDF or XLSX."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from exactodds.bets.game import GameChoice
from exactodds.bets.payout import Notation
from exactodds.cli.common import (
    AgainstOpt,
    AllowPlayerEdgeOpt,
    BetIdsOpt,
    BudgetOpt,
    DecksOpt,
    NotationOpt,
    OutDirOpt,
    PaytablesArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    check_outputs,
    format_option,
    use_budget,
)
from exactodds.escape import printable
from exactodds.formats import Format

__all__ = ["report"]

EPILOG = """Examples:

\b
  exactodds report                               # classic.toml, 8 decks: a summary
  exactodds report classic --format md           # the full sheet, Markdown
  exactodds report classic --format json         # exact figures as "p/q" strings
  exactodds report classic --decks 6 --remove "6 6 7h Kd" --rules mini
  exactodds report examples/my-game.toml --format html --out sheets/
  exactodds report classic --format pdf --out sheets/     # needs: pip install 'exactodds[pdf]'
  exactodds report classic --format xlsx --out sheets/    # needs: pip install 'exactodds[xlsx]'
  exactodds report --all --out reports/          # regenerate every bundled sheet
  exactodds report classic --monte-carlo-rounds 1000000 --seed 1   # add a Monte Carlo check
  exactodds report classic --against adm,mga --notation to    # add a compliance section
  exactodds report classic --session 200         # add sessions of 200 rounds per bet

On a terminal, without --format, report prints a summary that fits 80 columns (every bet's
house edge, RTP, hit frequency and largest win) and how to get the full sheet; redirected to
a file or a pipe, or with --format, --monte-carlo-rounds or --session, the full sheet.
Several PAYTABLEs print one sheet after another (Markdown, HTML), one CSV, or a JSON list.
With --out, each sheet is written as NAME.md and NAME.html (or NAME.<format> with --format);
a file whose content is unchanged apart from its date is left untouched, and a file there that
is not a sheet exactodds wrote is refused unless --force. PDF (the HTML sheet printed: a page
per bet, name, SHA-256, date and page number on every page) and XLSX (Summary, a sheet per bet,
Inputs; exact fractions beside the numbers) are written only with --out. The date is --date,
else SOURCE_DATE_EPOCH, else today (UTC). --monte-carlo-rounds N adds a Monte Carlo
verification section (N rounds from fresh shoes, --seed S): a statistical check, not a source of
figures.
--against adds a Compliance section: every bet checked against jurisdiction profiles (with
--all, by default gli-11, adm and mga, as in reports/); every profile also checks exactodds'
own rule that no bet favours the player, unless --allow-player-edge. --notation to|for|both
chooses how the payout columns state payouts (default both: as written, "to 1" and "for 1").
--session N adds a Sessions section: per bet, a flat bet of one unit over N independent rounds
(P(ahead), percentiles, the 95% range of the house's win, dead chips), exact; every figure of a
session and its distribution: exactodds session.
Each sheet says where options override its paytable and ends with the command that recomputes
it from any folder."""


def report(  # noqa: PLR0917 - one parameter per command-line option
    paytables: PaytablesArg = None,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    bets: BetIdsOpt = None,
    fmt: Annotated[
        str | None,
        format_option(
            "md",
            "html",
            "csv",
            "json",
            "pdf",
            "xlsx",
            default=None,
            note="default: a summary on a terminal, else md; with --out md and html; pdf and "
            "xlsx need --out",
        ),
    ] = None,
    out: OutDirOpt = None,
    all_bundled: Annotated[
        bool, typer.Option("--all", help="Every bundled paytable (see paytables/).")
    ] = False,
    date: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM-DD", help="Date printed on the sheet."),
    ] = None,
    monte_carlo_rounds: Annotated[
        int | None,
        typer.Option(
            "--monte-carlo-rounds",
            metavar="N",
            help="Add a Monte Carlo verification: deal this many rounds from fresh shoes.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the Monte Carlo verification (default: 1)."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="With --out: also replace files that are not sheets exactodds wrote."
        ),
    ] = False,
    against: AgainstOpt = None,
    notation: NotationOpt = Notation.BOTH,
    protection: Annotated[
        bool,
        typer.Option(
            "--protection",
            help="Add a Game protection section: the player's edge per bet from an edge sort "
            "seen on 1 and 4 cards, a flashed first card and a seen burn card.",
        ),
    ] = False,
    allow_player_edge: AllowPlayerEdgeOpt = False,
    session: Annotated[
        int | None,
        typer.Option(
            "--session",
            metavar="N",
            help="Add a Sessions section: per bet, a flat bet over N independent rounds (P(ahead), "
            "percentiles, 95% range of the house's win, dead chips); N up to 1,000.",
            show_default=False,
        ),
    ] = None,
    budget: BudgetOpt = None,
) -> None:
    """Math sheet of a paytable: rules, paytable, exact return tables, house edges, provenance."""
    use_budget(budget)
    import os

    from exactodds.report import (
        COMPARISON_STEM,
        FORMATS,
        ReportError,
        build_sheets,
        check_sheet_format,
        plan_comparison,
        plan_files,
        render_sheets,
        write_all,
    )

    if fmt is not None:
        fmt = check_format(fmt, FORMATS)
        check_sheet_format(fmt, to_files=out is not None)
    if monte_carlo_rounds is not None:
        from exactodds.limits import MAX_MONTE_CARLO_ROUNDS, check_count
        from exactodds.report.montecarlo import check_monte_carlo_options

        check_monte_carlo_options(monte_carlo_rounds, 1 if seed is None else seed)
        check_count(monte_carlo_rounds, MAX_MONTE_CARLO_ROUNDS, "--monte-carlo-rounds", ReportError)
    elif seed is not None:
        raise ReportError("--seed applies only with --monte-carlo-rounds N")
    formats = [Format(fmt)] if fmt else [Format.MD, Format.HTML]
    _check_xlsx_date(date, formats)
    if out is not None:
        stems = _stems(paytables or [], all_bundled)
        if all_bundled and fmt is None:
            stems.append(COMPARISON_STEM)
        names = [stem + f.extension for stem in stems for f in formats]
        check_outputs("--out", out, names, force=force, replaceable=_generated_sheet)
    from exactodds.cli.summary import on_terminal

    if session is not None:
        from exactodds.report.session import check_session_rounds

        check_session_rounds(session)
    full = monte_carlo_rounds is None and session is None
    summary = out is None and fmt is None and full and on_terminal()
    sheets = build_sheets(
        paytables or [],
        all_bundled=all_bundled,
        game=GameChoice(decks, remove, shoe_file, rules),
        bet_ids=bets or (),
        date=date,
        against=against,
        notation=notation,
        examples=not summary,  # the summary shows none: a tenth of its time
        protection=protection,
        allow_player_edge=allow_player_edge,
        session=session,
    )
    if Format.PDF in formats:  # before the Monte Carlo check and WeasyPrint
        _check_pdf_budget(sheets)
    if monte_carlo_rounds is not None:
        from exactodds.cli.progress import progress_display
        from exactodds.report.montecarlo import monte_carlo_sheets

        with progress_display("monte carlo", "rounds") as progress:
            sheets = monte_carlo_sheets(
                sheets,
                rounds=monte_carlo_rounds,
                seed=1 if seed is None else seed,
                progress=progress,
            )
    if out is None:
        from exactodds.cli.summary import report_summary

        if summary:
            typer.echo(report_summary(sheets, color=True), nl=False)
            return
        typer.echo(render_sheets(sheets, fmt or "md"), nl=False)
        _protection_incomplete(sheets)
        return
    explicit_date = date is not None or bool(os.environ.get("SOURCE_DATE_EPOCH"))
    plan = plan_files(sheets, formats, out, keep_dates=not explicit_date)
    if all_bundled and fmt is None:
        plan.update(plan_comparison(out, date, keep_dates=not explicit_date))
    write_all({path: content for path, content in plan.items() if content is not None})
    for path, text in plan.items():
        typer.echo(f"{printable(str(path))}: {'written' if text is not None else 'unchanged'}")
    _protection_incomplete(sheets)


def _protection_incomplete(sheets: list[Any]) -> None:
    """Exit 3 (incomplete), with one line on stderr, when a sheet's game-protection section
    left bets out (a fee, multipliers or a peek: named in the section, in every format)."""
    left = [b for s in sheets if s.protection is not None for b, _, _ in s.protection.left_out]
    if left:
        from exactodds.cli.common import EXIT_INCOMPLETE
        from exactodds.errors import error_line

        message = f"report --protection left out {', '.join(dict.fromkeys(left))} (named in it)"
        print(error_line(message, "incomplete"), file=sys.stderr)
        raise typer.Exit(EXIT_INCOMPLETE)


def _check_pdf_budget(sheets: list[Any]) -> None:
    """Refuse PDF sheets over the work budget (rows, digits) before WeasyPrint runs."""
    from exactodds.bets.budget import check_pdf

    check_pdf([b.bet for sheet in sheets for b in sheet.bets], len(sheets))


def _check_xlsx_date(date: str | None, formats: list[Format]) -> None:
    """Refuse, before any work, a sheet date an XLSX file cannot record: its zip entries carry
    dates up to the end of 2107 (MS-DOS time; earlier dates than 1980 are stored as 1980)."""
    if Format.XLSX not in formats:
        return
    from exactodds.errors import DateError
    from exactodds.limits import MAX_XLSX_YEAR
    from exactodds.report.sheet import resolve_date

    day = resolve_date(date)
    if int(day[:4]) > MAX_XLSX_YEAR:
        source = f"--date {date!r}" if date is not None else f"SOURCE_DATE_EPOCH (the date {day})"
        raise DateError(
            f"{source}: an XLSX file records dates up to {MAX_XLSX_YEAR}-12-31 (its zip format)"
        )


def _stems(specs: list[str], all_bundled: bool) -> list[str]:
    """File stems of the sheets of ``specs`` (as :attr:`Sheet.stem`), known before any work."""
    from exactodds.bets.loader import bundled_paytables, default_paytable, resolve_paytable

    if all_bundled:
        return [p.stem for p in bundled_paytables()]
    return [resolve_paytable(s).stem for s in specs] or [default_paytable().stem]


def _generated_sheet(path: Path) -> bool:
    """Whether ``path`` holds a sheet exactodds wrote, by the marker at its start (see
    :mod:`exactodds.report.ownership`), so ``--out`` may replace it without --force."""
    from exactodds.report import EXTENSIONS
    from exactodds.report.ownership import written_by_exactodds

    fmt = next((f for f, ext in EXTENSIONS.items() if path.suffix == ext), None)
    return fmt is not None and written_by_exactodds(path, str(fmt))
