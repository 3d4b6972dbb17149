"""``exactodds simulate``: dealt shoes with computer-perfect play, or a Monte Carlo check."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli import app
from exactodds.cli.common import ForceOpt, FormatOpt, PaytableArg, check_format
from exactodds.cli.eor import check_plot_outputs

__all__ = ["simulate"]


@app.command(
    epilog="Examples: exactodds simulate classic --shoes 1000 --seed 1 --workers 2\n\n"
    "exactodds simulate classic --monte-carlo --rounds 1000000 --seed 1"
)
def simulate(
    paytable: PaytableArg = None,
    *,
    shoes: Annotated[int, typer.Option("--shoes", min=1, help="Shoes to deal.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the run.")] = 1,
    cut_card: Annotated[
        int, typer.Option("--cut-card", min=0, help="Cards behind the cut card.")
    ] = 14,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 1,
    fmt: FormatOpt = "md",
    monte_carlo: Annotated[
        bool, typer.Option("--monte-carlo", help="Monte Carlo check of the exact figures instead.")
    ] = False,
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, help="Rounds to deal with --monte-carlo.")
    ] = 1_000_000,
    plots: Annotated[
        Path | None,
        typer.Option("--plots", help="Also write edge-by-round.png and .svg here."),
    ] = None,
    force: ForceOpt = False,
) -> None:
    """Deal shoes and measure how often, and for how much, each bet favours a player who knows
    the cards left; or (--monte-carlo) compare dealt rounds with the exact figures."""
    from exactodds.paytable_loader import load_paytable

    fmt = check_format(fmt, ("md", "json"))
    if plots is not None and not monte_carlo:
        check_plot_outputs(plots, "edge-by-round", force)
    table = load_paytable(paytable)
    start = time.perf_counter()
    if monte_carlo:
        from exactodds.analysis.montecarlo import monte_carlo_check, render_monte_carlo_check

        check = monte_carlo_check(table.bets, table.shoe(), table.tableau, rounds=rounds, seed=seed)
        typer.echo(render_monte_carlo_check(check, table.name, fmt))
    else:
        from exactodds.analysis.batch import compile_bets
        from exactodds.analysis.simulate import (
            check_limits,
            render_simulation,
            simulation_json,
            stderr_progress,
        )
        from exactodds.analysis.simulate import simulate as run_simulate

        check_limits(shoes, table.shoe(), workers)
        evaluator = compile_bets(table.bets, table.tableau)
        sim = run_simulate(
            evaluator,
            table.shoe(),
            shoes=shoes,
            seed=seed,
            cut_card=cut_card,
            workers=workers,
            progress=stderr_progress(),
        )
        if fmt == "json":
            typer.echo(json.dumps(simulation_json(sim, table.name), indent=2))
        else:
            typer.echo(render_simulation(sim, table.name))
        if plots is not None:
            from exactodds.analysis.plots import plot_edge_by_round

            plot_edge_by_round(sim, plots)
    if sys.stderr.isatty():
        print(f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)
