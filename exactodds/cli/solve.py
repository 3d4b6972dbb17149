"""``exactodds solve``: the payout of one paytable row that gives a target house edge."""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.common import (
    BudgetOpt,
    Format,
    PaytableArg,
    check_format,
    deprecated,
    format_option,
    use_budget,
)

__all__ = ["solve"]

EPILOG = """Examples:

\b
  exactodds solve classic --bet player_pair --event 'Player pair' --target-edge 5%
  exactodds solve classic --bet player_pair --event 'Player pair' --sweep 10:13 --format json
  exactodds solve examples/my-game.toml --bet player_bonus --event 'Win by 9' -t 3%"""


def solve(
    paytable: PaytableArg = None,
    *,
    bet: Annotated[
        str, typer.Option("--bet", "-b", metavar="ID", help="Bet id, e.g. player_pair.")
    ],
    event: Annotated[
        str,
        typer.Option(
            "--event", "-e", metavar="LABEL", help="Event label of the row to solve, or #N."
        ),
    ],
    target_edge: Annotated[
        str | None,
        typer.Option(
            "--target-edge",
            "-t",
            metavar="EDGE",
            help="Target house edge, a percentage: 5%, 1/2% or -0.5%.",
        ),
    ] = None,
    sweep_range: Annotated[
        str | None,
        typer.Option(
            "--sweep", metavar="A:B", help="Also list the house edge for payouts A..B to 1 (A:B)."
        ),
    ] = None,
    step: Annotated[
        str,
        typer.Option(
            "--step", metavar="S", help="Step of --sweep (default: 1).", show_default=False
        ),
    ] = "1",
    fmt: Annotated[str, format_option("text", "json", default="text")] = "text",
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
    budget: BudgetOpt = None,
) -> None:
    """Solve the payout of one row for a target house edge, exactly; also the break-even payout.

    The payout is the net win "to 1" of that row; the other rows keep theirs.
    """
    use_budget(budget)
    from exactodds.bets.loader import judge_paytable, load_paytable
    from exactodds.errors import ExactOddsError, named
    from exactodds.figures.solve import (
        find_row,
        parse_edge,
        parse_sweep,
        render_solution,
        solve_payout,
        sweep,
    )

    fmt = check_format(fmt, ("text", "json"))
    if as_json:
        deprecated("solve --json", "--format json")
        fmt = Format.JSON
    if not bet:
        raise ExactOddsError("give the bet to solve with --bet ID (e.g. --bet player_pair)")
    if not event:
        raise ExactOddsError(
            "give the row to solve with --event LABEL (e.g. --event 'Player pair')"
        )
    payouts = parse_sweep(sweep_range, step) if sweep_range is not None else None
    if target_edge is not None:
        with named("--target-edge"):
            parse_edge(target_edge)
    table = load_paytable(paytable, counted=False)
    with named("--bet"):
        found = table.round_bet(bet, "solve")
    with named("--event"):
        find_row(found, event)
    table = judge_paytable(table)  # once every option is checked: it counts card-level bets
    solution = solve_payout(table, bet, event, target_edge)
    rows = sweep(solution, payouts) if payouts is not None else None
    typer.echo(render_solution(solution, rows, fmt))
