"""``exactodds compare``: house edge of every bet over a grid of game variants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from exactodds.cli.common import (
    BetIdsOpt,
    BudgetOpt,
    LeftOut,
    PaytableArg,
    check_format,
    echo_leaving_out,
    format_option,
    live_left_out,
    use_budget,
)
from exactodds.cli.progress import progress_display

if TYPE_CHECKING:
    from exactodds.figures.compare import Comparison

__all__ = ["compare"]

EPILOG = """Examples:

\b
  exactodds compare classic --rules punto-banco,mini --tie 8:1,9:1 --decks 6,8
  exactodds compare classic --banker commission,no-commission --format csv
  exactodds compare classic --decks 6,8 --format html     # a page, a chart per bet
  exactodds compare classic --rules punto-banco --tie 8:1 --decks 6,8,inf --formula
  exactodds compare classic --bet banker --bet tie --decks 6,8"""


def compare(
    paytable: PaytableArg = None,
    *,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="LIST",
            help="Tableaux, comma-separated: names, files, or 'paytable' for its own "
            "(default: the paytable's own).",
        ),
    ] = None,
    tie: Annotated[
        str | None,
        typer.Option(
            "--tie",
            metavar="LIST",
            help="Tie payouts, comma-separated (default: the paytable's own Tie bet; a "
            "paytable without one gets the standard Tie only when payouts are listed).",
        ),
    ] = None,
    decks: Annotated[
        str | None,
        typer.Option(
            "--decks",
            "-d",
            metavar="LIST",
            help="Deck counts, comma-separated; 'inf' for the exact infinite-deck limit "
            "(default: the paytable's).",
        ),
    ] = None,
    banker: Annotated[
        str | None,
        typer.Option(
            "--banker",
            metavar="LIST",
            help="Banker versions: commission, no-commission (default: the paytable's own).",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        format_option(
            "md",
            "csv",
            "json",
            "html",
            default=None,
            note="default: a summary with the bets as rows on a terminal, else md",
        ),
    ] = None,
    formula: Annotated[
        bool,
        typer.Option(
            "--formula",
            help="Also give each bet's house edge as an exact function of the number of decks d "
            "(derived with sympy, checked against the enumeration). In CSV: a formula column.",
        ),
    ] = False,
    bets: BetIdsOpt = None,
    budget: BudgetOpt = None,
) -> None:
    """One table of the house edge of every bet over variants of the game.

    Only what is asked: each of --rules, --decks, --tie and --banker lists the values of one
    axis, and an axis not given is the paytable's own, so --decks 6,8 --tie 8:1,9:1 makes 4
    variants. Variants change the rules (tableau), the decks, the Tie payout and the Banker bet
    (commission 19:20, or no-commission paying 1:2 on a winning 6); other bets keep their rows.
    Cells marked * favour the player. Every house edge on a full shoe is a rational function
    of the number of decks: --formula prints it, and --decks inf its limit (cards drawn with
    replacement).
    """
    use_budget(budget)
    from exactodds.bets.loader import load_paytable
    from exactodds.bets.settle_rounds import select_bets
    from exactodds.errors import named
    from exactodds.figures.compare import compare_variants, parse_list, render_comparison

    summary = fmt is None
    fmt = check_format(fmt or "md", ("md", "csv", "json", "html"))
    lists = {}
    for option, text in (
        ("--rules", rules),
        ("--tie", tie),
        ("--decks", decks),
        ("--banker", banker),
    ):
        with named(option):
            lists[option] = parse_list(text)
    table = load_paytable(paytable)
    with named("--bet"):  # round and streak bets
        table = select_bets(table, bets or ())
    left: list[LeftOut] = []
    infinite = ("inf", "∞", "infinite", "infinity")
    if formula or any(d.strip().lower() in infinite for d in lists["--decks"] or ()):
        from dataclasses import replace

        kept, left = live_left_out(
            table.bets, "compare --formula or --decks inf", ("fee", "multipliers")
        )
        table = replace(table, bets=tuple(kept))  # a peek has no formula in the decks
    with progress_display("compare", "variants") as progress:
        result = compare_variants(
            table,
            rules=lists["--rules"],
            ties=lists["--tie"],
            decks=lists["--decks"],
            bankers=lists["--banker"],
            formula=formula,
            progress=progress,
        )
    from exactodds.cli.summary import compare_summary, on_terminal

    if summary and on_terminal():
        text, fmt = compare_summary(result, color=True), "text"
    elif fmt == "html":
        text = _html_page(result, paytable, lists, formula, bets or [])
    else:
        text = render_comparison(result, fmt)
    echo_leaving_out(text, fmt, left, "compare")


def _from_anywhere(argument: str) -> str:
    """A command argument that works from any folder: a file by its absolute path."""
    from pathlib import Path

    from exactodds.bets.bundled import command_path

    try:
        is_file = Path(argument).is_file()
    except OSError:  # a name the system refuses: not a file
        is_file = False
    return command_path(Path(argument)) if is_file else argument


def _html_page(
    result: Comparison,
    paytable: str | None,
    lists: dict[str, Any],
    formula: bool,
    bets: list[str],
) -> str:
    """The comparison as a self-contained HTML page with a chart per bet, naming the command
    line that reruns it."""
    import shlex

    from exactodds.report.comparison import comparison_document
    from exactodds.report.html import render_html

    words = ["exactodds", "compare", *([_from_anywhere(paytable)] if paytable else [])]
    for option, values in lists.items():
        if values:
            words += [option, ",".join(_from_anywhere(v) for v in values)]
    words += [w for b in dict.fromkeys(bets) for w in ("--bet", b)]
    words += [*(["--formula"] if formula else []), "--format", "html"]
    command = " ".join(shlex.quote(w) for w in words)
    return render_html(comparison_document(comparison=result, command=command))
