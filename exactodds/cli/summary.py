"""What ``report`` and ``compare`` print on a terminal: a summary that fits the screen (80
columns), drawn with :mod:`rich` tables; the full sheet is one option (or one redirection) away.

Redirected or piped output, and any ``--format``, stay the full Markdown (or other) text, so
scripts and files see what they always did. :mod:`rich` comes with typer; it is imported only
here, when a terminal is there to read the summary.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.bets.meters import meter_note
from exactodds.bets.offers import MARK, offer_legend
from exactodds.bets.payout import Notation, Payout, format_number
from exactodds.bets.returns import ReturnFigures
from exactodds.bets.streak import STREAK_LEGEND, STREAK_MARK, streak_figures
from exactodds.cli.process import no_color
from exactodds.numbers import grouped, percent

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from exactodds.figures.compare import Comparison
    from exactodds.report.sheet import Sheet

__all__ = ["WIDTH", "compare_summary", "on_terminal", "report_summary"]

WIDTH = 80
"""Columns the summary fits in (narrower when the terminal is)."""

MAX_OFFERS_LISTED = 6
"""Offers (conditions) the summary lists under its table; more are in the full sheet only."""

VARIANTS_PER_TABLE = 4
"""Variant columns per compare table: with the bet names, 4 columns of edges fit 80."""


def on_terminal() -> bool:
    """Whether standard output is a terminal a person reads (not a file or a pipe)."""
    return sys.stdout.isatty()


def _console(width: int | None, color: bool) -> tuple[Console, io.StringIO]:
    from rich.console import Console

    if width is None:
        from shutil import get_terminal_size

        width = min(WIDTH, get_terminal_size((WIDTH, 24)).columns)
    color = color and not no_color()
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
        markup=False,
    )
    return console, buffer


def _table(title: str, headers: Sequence[str], numeric_from: int = 1) -> Table:
    from rich import box
    from rich.table import Table

    table = Table(
        title=title or None,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
    )
    for i, header in enumerate(headers):
        table.add_column(
            header,
            justify="right" if i >= numeric_from else "left",
            overflow="fold",
            no_wrap=i >= numeric_from,
        )
    return table


def _headline(f: ReturnFigures) -> list[str]:
    """A bet's cells, round or streak bet alike: house edge (* when it favours the player),
    RTP, hit frequency, largest win."""
    largest = Payout(f.largest_win).stated(Notation.TO) if f.largest_win else "-"
    return [_edge(f.house_edge), percent(f.rtp), percent(f.hit_frequency), largest]


def _legends(sheet: Sheet, edges: Sequence[Fraction]) -> list[str]:
    """The lines under a sheet's table: the streak mark, the meters, the player-edge mark."""
    lines = [STREAK_LEGEND] if sheet.streaks else []
    note = meter_note([b.bet for b in sheet.bets])
    if note:
        lines.append(note)
    if any(edge < 0 for edge in edges):
        lines.append("* favours the player: exactodds check fails it (--allow-player-edge).")
    return lines


def _fee_legend(sheet: Sheet) -> str:
    """The footnote of bets with a fee or a peek: their RTP is per money paid ("" if none).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> _fee_legend(build_sheet(load_paytable("mini"), date="2024-01-01"))
    ''
    """
    from exactodds.report.live import FEE_MARK

    live = [b for b in sheet.bets if b.paid_differs]
    if not live:
        return ""
    fees = ", ".join(f"{b.bet.name} {format_number(b.figures.fee * 100)}%" for b in live)
    line = (
        f"{FEE_MARK} fee paid every round, never returned ({fees}): house edge and RTP per money "
        "paid (stake + fee)"
    )
    if any(b.bet.peek is not None for b in live):
        line += (
            "; a peek bet's at the optimal keep-or-raise, its raises counted as paid, its "
            "largest win per base stake"
        )
    return line + "."


def report_summary(sheets: Sequence[Sheet], width: int | None = None, color: bool = False) -> str:
    """Per sheet: the game line and one row per bet (house edge, RTP, hit frequency, largest
    win), then where the full sheet is and how to get it.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> text = report_summary([build_sheet(load_paytable("mini"), date="2024-01-01")], width=80)
    >>> print(text.splitlines()[0])
    Mini — paytables/mini.toml
    >>> max(len(line) for line in text.splitlines()) <= 80
    True
    """
    from exactodds.report.live import FEE_MARK

    console, buffer = _console(width, color)
    for n, sheet in enumerate(sheets):
        if n:
            console.print()
        where = f" — {sheet.file}" if sheet.file else ""
        console.print(f"{sheet.paytable.name}{where}", style="bold")
        console.print(f"{sheet.shoe.describe()}, {sheet.tableau.name} tableau")
        console.print(f"{grouped(sheet.universe)} equally likely rounds (six-card sequences)")
        offered = [b for b in sheet.bets if b.bet.offer is not None]
        headers = ("Bet", "House edge", "RTP", "Hit freq.", "Largest win")
        table = _table("", (*headers, "Offered") if offered else headers)
        for bet in sheet.bets:
            f = bet.figures
            cells = _headline(f)
            if offered:  # _edge: * marks a bet that favours the player
                p = f.offer_probability
                cells.append("always" if bet.bet.offer is None or p is None else percent(p))
            name = bet.bet.name + (f" {MARK}" if bet.bet.offer is not None else "")
            name += f" {FEE_MARK}" if bet.paid_differs else ""
            table.add_row(name, *cells)
        edges = [bet.figures.house_edge for bet in sheet.bets]
        for streak in sheet.streaks:  # figures per bet, rounds independent
            sf = streak_figures(streak, sheet.shoe, sheet.tableau)
            edges.append(sf.house_edge)
            offer = ("always",) if offered else ()
            table.add_row(f"{streak.name} {STREAK_MARK}", *_headline(sf), *offer)
        console.print(table)
        for line in _legends(sheet, edges):
            console.print(line)
        fee = _fee_legend(sheet)
        if fee:
            console.print(fee)
        if offered:
            console.print(f"{offer_legend()} Offered: the probability of the offer.")
            if len(offered) <= MAX_OFFERS_LISTED:
                for b in offered:
                    console.print(f"  {b.bet.name}: offered when {b.bet.offer}")
            else:
                console.print("  Each bet's offer: the Paytable section of the full sheet.")
        if sheet.compliance is not None:
            console.print(f"Compliance: {sheet.compliance.summary()}")
    command = sheets[0].command if len(sheets) == 1 else None
    base = command or "exactodds report PAYTABLE…"
    console.print("Rounded to 4 decimals. The full sheet (every row, exact fractions, examples):")
    console.print(f"  {base} --format md | less", soft_wrap=True)
    console.print(f"  {base} --format html --out sheets/", soft_wrap=True)
    console.print("Formats: md, html, csv, json; pdf and xlsx with --out DIR.")
    console.print("Redirected to a file or a pipe, report prints the full Markdown sheet.")
    return buffer.getvalue()


def compare_summary(comparison: Comparison, width: int | None = None, color: bool = False) -> str:
    """The house edges with bets as rows and variants as columns, a few variants per table
    so that each fits the width.

    >>> from exactodds.figures.compare import compare_variants
    >>> from exactodds.bets.loader import load_paytable
    >>> c = compare_variants(load_paytable("classic"), ties=["8:1", "9:1"], decks=[6, 8])
    >>> text = compare_summary(c, width=80)
    >>> max(len(line) for line in text.splitlines()) <= 80, text.count("Player Pair")
    (True, 1)
    """
    console, buffer = _console(width, color)
    console.print(f"House edge by variant: {comparison.paytable.name}", style="bold")
    if comparison.varying_axes() and comparison.common_label():
        console.print(f"Every variant: {comparison.common_label()}.")
    rows = comparison.bet_rows()
    labels = comparison.variant_labels()  # the axes that vary, a line each
    for start in range(0, len(labels), VARIANTS_PER_TABLE):
        heads = [label.replace(", ", "\n") for label in labels[start : start + VARIANTS_PER_TABLE]]
        console.print()
        table = _table("", ["Bet", *heads])
        for name, edges in rows:
            cells = edges[start : start + VARIANTS_PER_TABLE]
            table.add_row(name, *(_edge(e) for e in cells))
        console.print(table)
    console.print(f"{comparison.edge_note}, pushes counted; * favours the player.")
    if comparison.streaks:
        console.print(STREAK_LEGEND)
    console.print("Exact fractions: --format json; variants as rows: --format md (or redirect).")
    return buffer.getvalue()


def _edge(edge: object) -> str:
    from fractions import Fraction

    if not isinstance(edge, Fraction):
        return "-"
    return percent(edge) + ("*" if edge < 0 else "")
