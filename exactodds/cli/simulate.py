"""``exactodds simulate``: dealt shoes with computer-perfect play or card counting (the Monte
Carlo check is ``exactodds montecarlo``; ``simulate --monte-carlo`` is its deprecated alias)."""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BetIdsOpt,
    BudgetOpt,
    DecksOpt,
    ForceOpt,
    LeftOut,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    check_plot_outputs,
    deprecated,
    echo_leaving_out,
    format_option,
    use_budget,
)
from exactodds.cli.progress import progress_display

if TYPE_CHECKING:
    from exactodds.analysis.simulation import Simulation

__all__ = ["simulate"]

_LIVE_REASON = (
    "has {}: simulate's exact EV from the cards left does not count them yet "
    "(exactodds montecarlo plays it round by round, exactodds report gives its exact figures)"
)
"""Why simulate leaves out a live bet (its live features named)."""

EPILOG = """Examples:

\b
  exactodds simulate classic --shoes 200 --seed 1 --workers 2
  exactodds simulate classic --strategy count --shoes 1000 --seed 1
  exactodds simulate examples/lucky-six.toml --strategy count --tags examples/lucky-six-tags.toml
  exactodds simulate classic --shoes 100000 --backend dask --scheduler tcp://10.0.0.1:8786
  exactodds simulate colour-match --shoes 5 --seed 1
  exactodds simulate majestic-match --decks 2 --strategy count --shoes 20 --seed 1
  exactodds simulate banker-streak --bet banker --bet banker_streak --shoes 5 --seed 1

--strategy perfect bets whenever the exact EV from the cards left is positive; --strategy count
bets when the bet's true count reaches its trigger (tags: eor's, or --tags FILE with a [BET]
table of rank = tag; trigger: derived from the EOR, or --trigger BET=TC). Card-level bets
(ranks, suits, colours) and bets with an offer are counted by the card engine, a bet with an
offer on the rounds that offer it; a counter tags their ranks by their card-level EOR and the
engine counts the EV of the rounds it bets only. Their work is budgeted up front (a counter's
EVs as the run spends them: it stops with one line once over). Streak bets are staked at every
chance whatever the strategy: in each shoe after its first round the condition fails, and again
as each bet settles; a bet running at the end of a shoe goes on over the next shoe's rounds.
The Monte Carlo check of the exact figures is exactodds montecarlo. A live bet (a fee,
multipliers, a peek) is left out, named in the output (exit 3): montecarlo plays it."""


def simulate(
    paytable: PaytableArg = None,
    *,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    bets: BetIdsOpt = None,
    shoes: Annotated[
        int | None,
        typer.Option(
            "--shoes",
            metavar="N",
            min=1,
            help="Shoes to deal (default: 1000).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", metavar="N", min=0, help="Seed of the run (default: 1).", show_default=False
        ),
    ] = 1,
    cut_card: Annotated[
        int | None,
        typer.Option(
            "--cut-card",
            metavar="N",
            min=0,
            help="Cards behind the cut card (default: 14).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            min=1,
            help="Worker processes (default: 1).",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[str, format_option("md", "json", default="md")] = "md",
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            metavar="perfect|count",
            help="perfect (bet when the exact EV > 0) or count (default: perfect).",
            show_default=False,
        ),
    ] = "perfect",
    tags: Annotated[
        Path | None,
        typer.Option(
            "--tags",
            metavar="FILE",
            help="Count tags, TOML: [BET] A = 1 … (default: eor's tags).",
        ),
    ] = None,
    trigger: Annotated[
        list[str] | None,
        typer.Option(
            "--trigger",
            metavar="BET=TC",
            help="Bet at true count TC or more (default: from the EOR).",
        ),
    ] = None,
    see_burns: Annotated[
        bool, typer.Option("--see-burns", help="The counter sees the burned cards too.")
    ] = False,
    level: Annotated[
        int | None,
        typer.Option(
            "--level",
            metavar="N",
            min=1,
            max=20,
            help="Largest default tag (±level; default: 3).",
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            metavar="local|dask",
            help="local (processes) or dask (a Dask cluster; default: local).",
            show_default=False,
        ),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Dask scheduler, e.g. tcp://10.0.0.1:8786 (default: a local cluster).",
        ),
    ] = None,
    monte_carlo: Annotated[bool, typer.Option("--monte-carlo", hidden=True)] = False,
    rounds: Annotated[int | None, typer.Option("--rounds", min=1, hidden=True)] = None,
    plots: Annotated[
        Path | None,
        typer.Option("--plots", metavar="DIR", help="Also write edge-by-round.png and .svg here."),
    ] = None,
    force: ForceOpt = False,
    budget: BudgetOpt = None,
) -> None:
    """Deal shoes and measure how often, and for how much, each bet favours a player who knows
    the cards left or counts them."""
    use_budget(budget)
    from exactodds.analysis.simulate import BACKENDS
    from exactodds.analysis.simulation import STRATEGIES

    fmt = check_format(fmt, ("md", "json"))
    _check_choice("--strategy", strategy, STRATEGIES)
    _check_choice("--backend", backend, BACKENDS)
    given = {
        "--shoes": shoes is not None,
        "--cut-card": cut_card is not None,
        "--workers": workers is not None,
        "--strategy": strategy != "perfect",
        "--backend": backend != "local",
        "--scheduler": scheduler is not None,
        "--plots": plots is not None,
        "--rounds": rounds is not None,
    }
    counting = {
        "--tags": tags is not None,
        "--trigger": bool(trigger),
        "--level": level is not None,
        "--see-burns": see_burns,
    }
    _check_combinations(monte_carlo, given, counting, strategy, backend)
    if monte_carlo:
        from exactodds.cli.montecarlo import DEFAULT_ROUNDS, run_montecarlo

        deprecated("simulate --monte-carlo", "exactodds montecarlo")
        game = GameChoice(decks, remove, shoe_file, rules)
        run_montecarlo(paytable, game, rounds or DEFAULT_ROUNDS, seed, fmt)
        return
    if plots is not None:
        check_plot_outputs(plots, "edge-by-round", force)
    start = time.perf_counter()
    sim, name, left = _run(
        paytable,
        GameChoice(decks, remove, shoe_file, rules),
        _Run(shoes or 1000, seed, 14 if cut_card is None else cut_card, workers or 1),
        (backend, scheduler),
        (strategy, tags, trigger or [], see_burns, level or 3),
        bet_ids=bets or [],
    )
    from exactodds.analysis.simulation import render_simulation

    if sim is None:  # every bet left out: the output names them
        import json

        head = {"paytable": name, "bets": {}}
        text = json.dumps(head) if fmt == "json" else f"# Shoe simulation — {name}\n"
        echo_leaving_out(text, fmt, left, "simulate")
        return
    text = render_simulation(sim, name, fmt)
    if plots is not None:
        from exactodds.analysis.plots import plot_edge_by_round

        plot_edge_by_round(sim, plots)
    if sys.stderr.isatty():
        print(f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    echo_leaving_out(text, fmt, left, "simulate")


class _Run(NamedTuple):
    """How many shoes to deal, and how."""

    shoes: int
    seed: int
    cut_card: int
    workers: int


def _run(
    paytable: str | None,
    game: GameChoice,
    run: _Run,
    cluster: tuple[str, str | None],
    counting: tuple[str, Path | None, list[str], bool, int],
    *,
    bet_ids: list[str],
) -> tuple[Simulation | None, str, list[LeftOut]]:
    """Deal the shoes (every option checked first, then the paytable compiled): the simulation,
    the paytable's name and the live bets left out (no simulation when every bet is)."""
    from exactodds.analysis.count import parse_triggers, read_tags
    from exactodds.analysis.prepare import Counting
    from exactodds.analysis.simulate import check_run
    from exactodds.analysis.simulate import simulate as run_simulate
    from exactodds.bets.loader import load_paytable
    from exactodds.bets.settle_rounds import select_bets
    from exactodds.errors import named

    table = load_paytable(paytable, game, counted=False)  # EVs on the shoes as dealt
    with named("--bet"):
        table = select_bets(table, bet_ids)
    left = [
        LeftOut(b.id, b.name, _LIVE_REASON.format(" and ".join(b.live)))
        for b in table.bets
        if b.live
    ]
    if left:
        kept = tuple(b for b in table.bets if not b.live)
        if not kept and not table.streaks:
            return None, table.name, left
        table = replace(table, bets=kept)
    shoe, tableau = game.resolve(table)
    backend, scheduler = cluster
    strategy, tags, trigger, see_burns, level = counting
    check_run(  # the options before the tags file, as simulate() checks them before any work
        run.shoes,
        shoe,
        run.workers,
        seed=run.seed,
        cut_card=run.cut_card,
        backend=backend,
        scheduler=scheduler,
    )
    count = None
    if strategy == "count":
        bet_ids = [b.id for b in table.bets]
        streak_ids = [b.id for b in table.streaks]
        count = Counting(
            tags=read_tags(tags, bet_ids, streak_ids) if tags is not None else None,
            triggers=parse_triggers(trigger, bet_ids, streak_ids),
            see_burns=see_burns,
            level=level,
            tags_source=str(tags) if tags is not None else "",
        )
    with progress_display("simulate", "shoes") as progress:
        sim = run_simulate(
            table,
            shoe,
            tableau=tableau,
            shoes=run.shoes,
            seed=run.seed,
            cut_card=run.cut_card,
            workers=run.workers,
            progress=progress,
            count=count,
            backend=backend,
            scheduler=scheduler,
        )
    return sim, table.name, left


def _check_choice(option: str, value: str, choices: tuple[str, ...]) -> None:
    """Refuse a value of ``option`` that is not one of ``choices`` (a usage error)."""
    if value not in choices:
        from exactodds.suggest import did_you_mean

        raise typer.BadParameter(
            f"{value!r} is not one of {', '.join(map(repr, choices))}"
            + did_you_mean(value, choices),
            param_hint=option,
        )


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
        raise SimulationError(
            "--rounds applies only to exactodds montecarlo (dealt shoes: --shoes)"
        )
    used = [o for o, v in counting.items() if v]
    if used and strategy != "count":
        raise SimulationError(f"{used[0]} applies only with --strategy count")
    if given["--scheduler"] and backend != "dask":
        raise SimulationError("--scheduler applies only with --backend dask")
