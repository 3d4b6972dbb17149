"""``exactodds eor``: exact effect of removal of every rank on every bet, and counting tags."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli.common import (
    DecksOpt,
    ForceOpt,
    FormatOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    check_plot_outputs,
)
from exactodds.cli.game import game_shoe_and_rules

__all__ = ["eor"]


EPILOG = (
    "Examples: exactodds eor classic --format json\n\n"
    "exactodds eor classic --decks 6 --remove '6 6 7h' --rules mini"
)


def eor(  # noqa: PLR0917 - one parameter per command-line option
    paytable: PaytableArg = None,
    fmt: FormatOpt = "md",
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    level: Annotated[
        int, typer.Option("--level", min=1, max=20, help="Largest counting tag (±level).")
    ] = 3,
    plots: Annotated[
        Path | None, typer.Option("--plots", help="Also write eor.png and eor.svg here.")
    ] = None,
    force: ForceOpt = False,
) -> None:
    """Exact change of every bet's EV when one card of each rank leaves the shoe (the
    paytable's, or the one --decks, --remove and --shoe give)."""
    from exactodds.analysis.eor import effect_of_removal, render_eor
    from exactodds.budget import check_evaluation
    from exactodds.paytable_loader import load_paytable

    fmt = check_format(fmt, ("md", "json"))
    if plots is not None:
        check_plot_outputs(plots, "eor", force)
    table = load_paytable(paytable)
    shoe, tableau = game_shoe_and_rules(table, decks, remove, shoe_file, rules)
    check_evaluation(table.bets, shoe.size, "eor")  # before compiling the bets
    result = effect_of_removal(table.bets, shoe, tableau, level=level)
    typer.echo(render_eor(result, table.name, fmt))
    if plots is not None:
        from exactodds.analysis.plots import plot_eor

        plot_eor(result, plots)
