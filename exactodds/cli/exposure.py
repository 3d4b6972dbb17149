"""``exactodds exposure``: what a seen card is worth to a player who bets best on it."""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BudgetOpt,
    DecksOpt,
    LeftOut,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    bets_left_out,
    check_format,
    echo_leaving_out,
    format_option,
    use_budget,
)
from exactodds.cli.progress import progress_display
from exactodds.limits import MAX_EXPOSURE_JOBS, MAX_EXPOSURE_TOP

__all__ = ["exposure"]

EPILOG = """Examples:

\b
  exactodds exposure punto-banco --sort '6 7 8 9' --seen 4
  exactodds exposure classic --flash burn --format json
  exactodds exposure punto-banco --optimise --seen 4"""


def exposure(  # noqa: PLR0917 - one parameter per command-line option
    paytable: PaytableArg = None,
    sort: Annotated[
        str | None,
        typer.Option(
            "--sort",
            metavar="RANKS",
            help="Ranks of one group of an edge sort, e.g. '6 7 8 9' (0 for every ten-value "
            "rank); the other ranks form the other group.",
        ),
    ] = None,
    seen: Annotated[
        int | None,
        typer.Option(
            "--seen",
            metavar="N",
            help="How many of the first cards (1-4) the player sees the group of (default: 1).",
            show_default=False,
        ),
    ] = None,
    flash: Annotated[
        str | None,
        typer.Option(
            "--flash",
            metavar="POSITION",
            help="A card whose rank is seen: P1, B1, P2, B2, burn or bottom.",
        ),
    ] = None,
    optimise: Annotated[
        bool,
        typer.Option("--optimise", "--optimize", help="Find the best two-group sorts for --seen."),
    ] = False,
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            metavar="value|rank",
            help="--optimise over partitions of the ten values (value; default: value) or of the "
            "13 ranks (rank).",
            show_default=False,
        ),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            metavar="N",
            min=1,
            max=MAX_EXPOSURE_TOP,
            help="Sorts --optimise prints (default: 10).",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            metavar="N",
            min=1,
            max=MAX_EXPOSURE_JOBS,
            help="Worker processes for --optimise (default: CPUs for --by rank).",
        ),
    ] = None,
    fmt: Annotated[str, format_option("text", "md", "json", "csv", default="text")] = "text",
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    budget: BudgetOpt = None,
) -> None:
    """The player's exact edge when a signal is seen before the bet (an edge sort, a flashed
    card, a burn or bottom card) and the best bet of the paytable is made on it, or none."""
    use_budget(budget)
    from exactodds.bets.loader import load_paytable
    from exactodds.errors import ExactOddsError
    from exactodds.protection.exposure import (
        analyse_flash,
        analyse_sort,
        check_seen,
        optimise_sort,
        parse_position,
        parse_sort,
    )
    from exactodds.protection.render import FORMATS, render_exposure, render_optimise

    fmt = check_format(fmt, FORMATS)
    chosen = [
        name
        for name, on in (
            ("--sort", sort is not None),
            ("--flash", flash is not None),
            ("--optimise", optimise),
        )
        if on
    ]
    if len(chosen) != 1:
        raise ExactOddsError(
            "exposure: give one of --sort, --flash or --optimise"
            + (f" (not {' and '.join(chosen)})" if chosen else "")
        )
    if flash is not None and seen is not None:
        raise ExactOddsError("--seen goes with --sort or --optimise, not --flash")
    if not optimise:
        for name, value in (("--by", by), ("--top", top), ("--jobs", jobs)):
            if value is not None:
                raise ExactOddsError(f"{name} goes with --optimise")
    seen = check_seen(1 if seen is None else seen)
    by = "value" if by is None else by
    group = parse_sort(sort) if sort is not None else None
    position = parse_position(flash) if flash is not None else None
    if by not in ("value", "rank"):
        raise ExactOddsError(f"--by {by!r}: use value or rank")
    game = GameChoice(decks, remove, shoe_file, rules)
    table = load_paytable(paytable, game, counted=False)  # counted per signal seen
    shoe, tableau = game.resolve(table)
    table, left_out = bets_left_out(table, "exposure")  # streak and live bets
    if optimise:
        from exactodds.protection.exposure import card_level

        skipped = [
            LeftOut(b.id, b.name, "card-level: --optimise searches the bets read from the "
                    "round's outcome; analyse it with --sort")
            for b in table.bets
            if card_level(b)
        ]  # fmt: skip
        with progress_display("optimise", "sorts") as update:
            results = optimise_sort(
                table,
                seen,
                by,
                shoe=shoe,
                tableau=tableau,
                top=10 if top is None else top,
                jobs=jobs,
                progress=update,
            )
        text = render_optimise(results, table.name, (shoe.describe(), tableau.name, seen, by), fmt)
        left = [*skipped, *left_out]
        echo_leaving_out(text, fmt, left, "exposure --optimise")
        return
    from exactodds.bets.budget import check_card_work

    signals = 2**seen if group is not None else 14  # seen in the group or not; a rank per card
    check_card_work(table.bets, shoe, tableau, signals)
    if group is not None:
        result = analyse_sort(table, group, seen, shoe, tableau)
    else:
        assert position is not None
        result = analyse_flash(table, position, shoe, tableau)
    text = render_exposure(result, table.name, shoe.describe(), tableau.name, fmt)
    echo_leaving_out(text, fmt, left_out, "exposure")
