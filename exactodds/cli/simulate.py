"""``exactodds simulate``: dealt shoes with computer-perfect play or card counting, or a Monte
Carlo check."""

from __future__ import annotations

import sys
import time
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
from exactodds.cli.progress import progress_display

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


def simulate(
    paytable: PaytableArg = None,
    *,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    shoes: Annotated[
        int | None,
        typer.Option("--shoes", min=1, help="Shoes to deal (default 1000).", show_default=False),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the run.")] = 1,
    cut_card: Annotated[
        int | None,
        typer.Option(
            "--cut-card", min=0, help="Cards behind the cut card (default 14).", show_default=False
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="Worker processes (default 1).", show_default=False),
    ] = None,
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
        int | None,
        typer.Option(
            "--rounds",
            min=1,
            help="Rounds to deal with --monte-carlo (default 1,000,000).",
            show_default=False,
        ),
    ] = None,
    plots: Annotated[
        Path | None,
        typer.Option("--plots", help="Also write edge-by-round.png and .svg here."),
    ] = None,
    force: ForceOpt = False,
) -> None:
    """Deal shoes and measure how often, and for how much, each bet favours a player who knows
    the cards left or counts them; or (--monte-carlo) compare dealt rounds with the exact
    figures."""
    from exactodds.analysis.simulate import BACKENDS
    from exactodds.analysis.simulation import STRATEGIES
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
    _check_combinations(
        monte_carlo,
        {
            "--shoes": shoes is not None,
            "--cut-card": cut_card is not None,
            "--workers": workers is not None,
            "--strategy": strategy != "perfect",
            "--backend": backend != "local",
            "--scheduler": scheduler is not None,
            "--plots": plots is not None,
            "--rounds": rounds is not None,
        },
        {
            "--tags": tags is not None,
            "--trigger": bool(trigger),
            "--level": level is not None,
            "--see-burns": see_burns,
        },
        strategy,
        backend,
    )
    if plots is not None:
        check_plot_outputs(plots, "edge-by-round", force)
    table = load_paytable(paytable)
    shoe, tableau = game_shoe_and_rules(table, decks, remove, shoe_file, rules)
    start = time.perf_counter()
    if monte_carlo:
        from exactodds.analysis.montecarlo import monte_carlo_check, render_monte_carlo_check

        with progress_display("monte carlo", "rounds") as progress:
            check = monte_carlo_check(
                table.bets,
                shoe,
                tableau,
                rounds=rounds or 1_000_000,
                seed=seed,
                progress=progress,
            )
        typer.echo(render_monte_carlo_check(check, table.name, fmt))
    else:
        from exactodds.analysis.batch import compile_bets
        from exactodds.analysis.count import parse_triggers, read_tags
        from exactodds.analysis.simulate import check_run
        from exactodds.analysis.simulate import simulate as run_simulate
        from exactodds.analysis.simulation import render_simulation
        from exactodds.budget import check_simulation

        n_shoes, n_workers = shoes or 1000, workers or 1
        cut = 14 if cut_card is None else cut_card
        check_run(
            n_shoes,
            shoe,
            n_workers,
            seed=seed,
            cut_card=cut,
            backend=backend,
            scheduler=scheduler,
        )
        check_simulation(table.bets, shoe.size, n_shoes)  # before compiling the bets
        bet_ids = [b.id for b in table.bets]
        given = read_tags(tags, bet_ids) if tags is not None else None
        triggers = parse_triggers(trigger or [], bet_ids)
        evaluator = compile_bets(table.bets, tableau)  # seconds: every option is checked
        count = None
        if strategy == "count":
            from exactodds.analysis.count import count_strategy

            count = count_strategy(
                evaluator,
                shoe,
                tags=given,
                tags_source=str(tags) if tags is not None else "",
                triggers=triggers,
                see_burns=see_burns,
                level=level or 3,
            )
        with progress_display("simulate", "shoes") as progress:
            sim = run_simulate(
                evaluator,
                shoe,
                shoes=n_shoes,
                seed=seed,
                cut_card=cut,
                workers=n_workers,
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


def _check_combinations(
    monte_carlo: bool,
    given: dict[str, bool],
    counting: dict[str, bool],
    strategy: str,
    backend: str,
) -> None:
    """Refuse, before any work, options that do not apply together (``given``: which options
    were given; ``counting``: which count-strategy options were)."""
    from exactodds.errors import SimulationError

    if monte_carlo:
        dealt = [o for o, v in given.items() if v and o != "--rounds"]
        if dealt:
            raise SimulationError(f"{dealt[0]} applies to dealt shoes, not to --monte-carlo")
    elif given["--rounds"]:
        raise SimulationError("--rounds applies only with --monte-carlo (dealt shoes: --shoes)")
    used = [o for o, v in counting.items() if v]
    if used and strategy != "count":
        raise SimulationError(f"{used[0]} applies only with --strategy count")
    if given["--scheduler"] and backend != "dask":
        raise SimulationError("--scheduler applies only with --backend dask")
