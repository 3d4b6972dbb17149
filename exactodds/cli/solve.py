"""``exactodds solve``: the payout of one paytable row that gives a target house edge; for a
live bet (fee, multipliers, peek) the fee, a base pay or a multiplier weight for a target RTP."""

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
  exactodds solve examples/my-game.toml --bet player_bonus --event 'Win by 9' -t 3%
  exactodds solve lightning --bet player --fee --target-rtp 98.76%
  exactodds solve lightning --bet player --weight lightning:8 --target-rtp 98.76%
  exactodds solve lightning --bet tie --pay --event Tie --target-rtp 93%

A bet with a fee, multipliers or a peek is solved for a target RTP per money paid (stake, fee
and raises): its fee (exact; a peek's too), a row's base pay (exact, not for a peek) or one
multiplier's weight, the others rescaled to keep the sum 1 (the RTP is a polynomial in it: the
polynomial is stated and its roots in [0, 1] isolated exactly, given to 30 digits)."""


def solve(
    paytable: PaytableArg = None,
    *,
    bet: Annotated[
        str, typer.Option("--bet", "-b", metavar="ID", help="Bet id, e.g. player_pair.")
    ],
    event: Annotated[
        str | None,
        typer.Option(
            "--event", "-e", metavar="LABEL", help="Event label of the row to solve, or #N."
        ),
    ] = None,
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
    target_rtp: Annotated[
        str | None,
        typer.Option(
            "--target-rtp",
            metavar="RTP",
            help="Target RTP per money paid (stake, fee, raises), a percentage: 98.76%.",
        ),
    ] = None,
    fee: Annotated[
        bool, typer.Option("--fee", help="With --target-rtp: solve the bet's fee.")
    ] = False,
    weight: Annotated[
        str | None,
        typer.Option(
            "--weight",
            metavar="TABLE:VALUE",
            help="With --target-rtp: solve this multiplier's weight (others rescaled).",
        ),
    ] = None,
    pay: Annotated[
        bool,
        typer.Option("--pay", help="With --target-rtp: solve the --event row's base pay."),
    ] = False,
    fmt: Annotated[str, format_option("text", "json", default="text")] = "text",
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
    budget: BudgetOpt = None,
) -> None:
    """Solve the payout of one row for a target house edge, exactly; also the break-even payout.

    The payout is the net win "to 1" of that row; the other rows keep theirs. A bet with a
    fee, multipliers or a peek is solved for --target-rtp (per money paid) instead: its fee, a
    row's base pay or one multiplier's weight.
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
    if target_rtp is not None or fee or weight is not None or pay:
        edge_options = [
            name
            for name, given in (("--target-edge", target_edge), ("--sweep", sweep_range))
            if given is not None
        ]
        if edge_options:
            raise ExactOddsError(
                f"{' and '.join(edge_options)} go with the edge solve, not --target-rtp"
            )
        if event is not None and not pay:
            raise ExactOddsError("--event goes with --pay (the row whose base pay is solved)")
        _solve_rtp(
            paytable,
            bet,
            event=event,
            target_rtp=target_rtp,
            fee=fee,
            weight=weight,
            pay=pay,
            fmt=fmt,
        )
        return
    if event is None:  # optional only for --target-rtp --fee / --weight
        raise ExactOddsError("missing option '--event': give the row to solve (e.g. --event Tie)")
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


def _solve_rtp(
    paytable: str | None,
    bet: str,
    *,
    event: str | None,
    target_rtp: str | None,
    fee: bool,
    weight: str | None,
    pay: bool,
    fmt: str,
) -> None:
    """``solve --target-rtp`` with one of ``--fee``, ``--weight``, ``--pay --event``."""
    import json

    from exactodds.bets.loader import judge_paytable, load_paytable
    from exactodds.errors import ExactOddsError, named
    from exactodds.figures.solve import find_row
    from exactodds.figures.solve_live import parse_rtp, solve_fee, solve_live_pay, solve_weight

    chosen = [name for name, on in (("--fee", fee), ("--weight", weight), ("--pay", pay)) if on]
    if len(chosen) != 1:
        raise ExactOddsError("solve --target-rtp: give one of --fee, --weight or --pay")
    if target_rtp is None:
        raise ExactOddsError(f"{chosen[0]} needs --target-rtp RTP (e.g. --target-rtp 98.76%)")
    with named("--target-rtp"):
        parse_rtp(target_rtp)
    table = load_paytable(paytable, counted=False)
    with named("--bet"):
        found = table.round_bet(bet, "solve")
    row = 0
    if pay:
        if not event:
            raise ExactOddsError("--pay needs the row: --event LABEL")
        with named("--event"):
            row = find_row(found, event)
    table = judge_paytable(table)
    if fee:
        solution = solve_fee(table, bet, target_rtp)
    elif pay:
        solution = solve_live_pay(table, bet, row, target_rtp)
    else:
        assert weight is not None
        solution = solve_weight(table, bet, weight, target_rtp)  # type: ignore[assignment]
    if fmt == "json":
        typer.echo(json.dumps(solution.to_json(), indent=2))
    else:
        typer.echo(solution.text())
