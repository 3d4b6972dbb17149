"""``exactodds simulate``: dealt shoes with computer-perfect play or card counting, or a Monte
Carlo check."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from exactodds.cli import app
from exactodds.cli.common import (
    DecksOpt,
    ForceOpt,
    FormatOpt,
    PaytableArg,
    RemoveOpt,
    ShoeOpt,
    check_format,
)
from exactodds.cli.eor import check_plot_outputs
from exactodds.cli.game import RulesOverrideOpt, game_shoe_and_rules
from exactodds.cli.progress import progress_display

if TYPE_CHECKING:
    from exactodds.analysis.batch import BatchEvaluator
    from exactodds.analysis.count import CountStrategy
    from exactodds.shoe import Shoe

__all__ = ["simulate"]

EPILOG = """Examples:

\b
  exactodds simulate classic --shoes 1000 --seed 1 --workers 2
  exactodds simulate classic --strategy count --shoes 1000 --seed 1
  exactodds simulate classic --strategy count --tags tags.toml --trigger lucky_six=7
  exactodds simulate classic --shoes 100000 --backend dask --scheduler tcp://10.0.0.1:8786
  exactodds simulate classic --monte-carlo --rounds 1000000 --seed 1

--strategy perfect bets whenever the exact EV from the cards left is positive; --strategy count
bets when the bet's true count reaches its trigger (tags: eor's, or --tags FILE with a [BET]
table of rank = tag; trigger: derived from the EOR, or --trigger BET=TC)."""


@app.command(epilog=EPILOG)
def simulate(
    paytable: PaytableArg = None,
    *,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    shoes: Annotated[int, typer.Option("--shoes", min=1, help="Shoes to deal.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the run.")] = 1,
    cut_card: Annotated[
        int, typer.Option("--cut-card", min=0, help="Cards behind the cut card.")
    ] = 14,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 1,
    fmt: FormatOpt = "md",
    strategy: Annotated[
        str, typer.Option("--strategy", help="perfect (bet when the exact EV > 0) or count.")
    ] = "perfect",
    tags: Annotated[
        Path | None,
        typer.Option("--tags", help="Count tags, TOML: [BET] A = 1 … (default: eor's tags)."),
    ] = None,
    trigger: Annotated[
        list[str] | None,
        typer.Option(
            "--trigger", help="BET=TC: bet at true count TC or more (default: from the EOR)."
        ),
    ] = None,
    see_burns: Annotated[
        bool, typer.Option("--see-burns", help="The counter sees the burned cards too.")
    ] = False,
    level: Annotated[
        int | None,
        typer.Option("--level", min=1, max=20, help="Largest default tag (±level; default 3)."),
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="local (processes) or dask (a Dask cluster).")
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Dask scheduler, e.g. tcp://10.0.0.1:8786 (default: a local cluster).",
        ),
    ] = None,
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
    the cards left or counts them; or (--monte-carlo) compare dealt rounds with the exact
    figures."""
    from exactodds.analysis.exposure import STRATEGIES
    from exactodds.analysis.simulate import BACKENDS
    from exactodds.errors import SimulationError
    from exactodds.paytable_loader import load_paytable

    fmt = check_format(fmt, ("md", "json"))
    if strategy not in STRATEGIES:
        raise typer.BadParameter(
            f"{strategy!r} is not one of {', '.join(map(repr, STRATEGIES))}",
            param_hint="--strategy",
        )
    if backend not in BACKENDS:
        raise typer.BadParameter(
            f"{backend!r} is not one of {', '.join(map(repr, BACKENDS))}", param_hint="--backend"
        )
    if monte_carlo:
        dealt = [
            o
            for o, v in (("--strategy", strategy != "perfect"), ("--backend", backend != "local"))
            if v
        ]
        if dealt:
            raise SimulationError(f"{dealt[0]} applies to dealt shoes, not to --monte-carlo")
    counting = [o for o, v in (("--tags", tags), ("--trigger", trigger), ("--level", level)) if v]
    if see_burns:
        counting.append("--see-burns")
    if counting and strategy != "count":
        raise SimulationError(f"{counting[0]} applies only with --strategy count")
    if scheduler is not None and backend != "dask":
        raise SimulationError("--scheduler applies only with --backend dask")
    if plots is not None and not monte_carlo:
        check_plot_outputs(plots, "edge-by-round", force)
    table = load_paytable(paytable)
    shoe, tableau = game_shoe_and_rules(table, decks, remove, shoe_file, rules)
    start = time.perf_counter()
    if monte_carlo:
        from exactodds.analysis.montecarlo import monte_carlo_check, render_monte_carlo_check

        with progress_display("monte carlo", "rounds") as progress:
            check = monte_carlo_check(
                table.bets, shoe, tableau, rounds=rounds, seed=seed, progress=progress
            )
        typer.echo(render_monte_carlo_check(check, table.name, fmt))
    else:
        from exactodds.analysis.batch import compile_bets
        from exactodds.analysis.exposure import render_simulation
        from exactodds.analysis.simulate import check_limits
        from exactodds.analysis.simulate import simulate as run_simulate

        check_limits(shoes, shoe, workers, cluster=scheduler is not None)
        evaluator = compile_bets(table.bets, tableau)
        count = None
        if strategy == "count":
            count = _count(
                evaluator,
                shoe,
                tags=tags,
                triggers=trigger or [],
                see_burns=see_burns,
                level=level or 3,
            )
        with progress_display("simulate", "shoes") as progress:
            sim = run_simulate(
                evaluator,
                shoe,
                shoes=shoes,
                seed=seed,
                cut_card=cut_card,
                workers=workers,
                progress=progress,
                count=count,
                backend=backend,
                scheduler=scheduler,
            )
        typer.echo(render_simulation(sim, table.name, fmt))
        if plots is not None:
            from exactodds.analysis.plots import plot_edge_by_round

            plot_edge_by_round(sim, plots)
    if sys.stderr.isatty():
        print(f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)


def _count(
    evaluator: BatchEvaluator,
    shoe: Shoe,
    *,
    tags: Path | None,
    triggers: list[str],
    see_burns: bool,
    level: int,
) -> CountStrategy:
    """The count strategy of the options: tags from ``--tags`` (else eor's), triggers."""
    from exactodds.analysis.count import count_strategy, parse_triggers, read_tags

    given = read_tags(tags, evaluator.bet_ids) if tags is not None else None
    return count_strategy(
        evaluator,
        shoe,
        tags=given,
        tags_source=str(tags) if tags is not None else "",
        triggers=parse_triggers(triggers, evaluator.bet_ids),
        see_burns=see_burns,
        level=level,
    )
