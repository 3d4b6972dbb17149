"""``exactodds eor``: exact effect of removal of every rank on every bet, and counting tags."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BudgetOpt,
    DecksOpt,
    ForceOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    check_plot_outputs,
    echo_leaving_out,
    format_option,
    live_left_out,
    use_budget,
)

__all__ = ["eor"]


EPILOG = """Examples:

\b
  exactodds eor classic --format json
  exactodds eor classic --format html    # a page with a chart per bet, a bar per rank
  exactodds eor classic --decks 6 --remove '6 6 7h' --rules mini
  exactodds eor classic --level 5 --plots plots/      # needs: pip install 'exactodds[plots]'
  exactodds eor classic --bet tie --bet player_pair

Streak bets (settled over several rounds) have no EOR of one round: eor leaves them out of a
whole paytable with a note, and refuses one named with --bet. A bet with a fee, multipliers or
a peek is left out (named in the output, exit 3): its EOR is not counted."""


def eor(  # noqa: PLR0917 - one parameter per command-line option
    paytable: PaytableArg = None,
    fmt: Annotated[str, format_option("md", "json", "html", default="md")] = "md",
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    level: Annotated[
        int,
        typer.Option(
            "--level",
            metavar="N",
            min=1,
            max=20,
            help="Largest counting tag (±level; default: 3).",
            show_default=False,
        ),
    ] = 3,
    plots: Annotated[
        Path | None,
        typer.Option("--plots", metavar="DIR", help="Also write eor.png and eor.svg here."),
    ] = None,
    force: ForceOpt = False,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", metavar="ID", help="Only this bet (repeat for more; default: all)."
        ),
    ] = None,
    budget: BudgetOpt = None,
) -> None:
    """Exact change of every bet's EV when one card of each rank leaves the shoe (the
    paytable's, or the one --decks, --remove and --shoe give)."""
    use_budget(budget)
    from exactodds.analysis.eor import effect_of_removal, no_bets, with_streak_bets
    from exactodds.bets.budget import check_evaluation
    from exactodds.bets.loader import load_paytable
    from exactodds.bets.paytable import Bet
    from exactodds.errors import named
    from exactodds.report.eor import render_eor

    fmt = check_format(fmt, ("md", "json", "html"))
    if plots is not None:
        check_plot_outputs(plots, "eor", force)
    game = GameChoice(decks, remove, shoe_file, rules)
    table = load_paytable(paytable, game, counted=False)  # counted on shoes less a card
    shoe, tableau = game.resolve(table)
    with named("--bet"):
        chosen = [table.bet(b) for b in dict.fromkeys(bet)] if bet else list(table.every_bet)
    bets, left = live_left_out((b for b in chosen if isinstance(b, Bet)), "eor")
    streaks = [b for b in chosen if not isinstance(b, Bet)]  # exact from p, rounds independent
    check_evaluation(bets, shoe.size)  # before compiling the bets
    # effect_of_removal refuses card work over the budget first (check_removal_work)
    result = effect_of_removal(bets, shoe, tableau, level=level) if bets else no_bets(shoe, level)
    result = with_streak_bets(result, streaks, tableau)
    source = f"{table.path.name} SHA-256 {table.sha256}" if table.path and table.sha256 else ""
    if plots is not None:
        from exactodds.analysis.plots import plot_eor

        plot_eor(result, plots)
    echo_leaving_out(render_eor(result, table.name, fmt, source), fmt, left, "eor")
