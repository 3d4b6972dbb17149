"""``exactodds eor``: exact effect of removal of every rank on every bet, and counting tags."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli import app
from exactodds.cli.common import ForceOpt, FormatOpt, PaytableArg, check_format, check_outputs

__all__ = ["check_plot_outputs", "eor"]


def check_plot_outputs(directory: Path, stem: str, force: bool) -> None:
    """Before any work: the ``plots`` extra is installed and the plot files may be written."""
    from exactodds.analysis.plots import check_plots, plot_names

    check_plots()
    check_outputs("--plots", directory, plot_names(stem), force=force)


@app.command(epilog="Example: exactodds eor classic --format json")
def eor(
    paytable: PaytableArg = None,
    fmt: FormatOpt = "md",
    level: Annotated[
        int, typer.Option("--level", min=1, max=20, help="Largest counting tag (±level).")
    ] = 3,
    plots: Annotated[
        Path | None, typer.Option("--plots", help="Also write eor.png and eor.svg here.")
    ] = None,
    force: ForceOpt = False,
) -> None:
    """Exact change of every bet's EV when one card of each rank leaves the paytable's shoe."""
    from exactodds.analysis.eor import effect_of_removal, render_eor
    from exactodds.paytable_loader import load_paytable

    fmt = check_format(fmt, ("md", "json"))
    if plots is not None:
        check_plot_outputs(plots, "eor", force)
    table = load_paytable(paytable)
    result = effect_of_removal(table.bets, table.shoe(), table.tableau, level=level)
    typer.echo(render_eor(result, table.name, fmt))
    if plots is not None:
        from exactodds.analysis.plots import plot_eor

        plot_eor(result, plots)
