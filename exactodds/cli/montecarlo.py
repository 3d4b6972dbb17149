"""``exactodds montecarlo``: deal rounds from fresh shoes and compare them with the exact figures
(z-scores): a statistical check of the engine, not a source of figures."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BetIdsOpt,
    BudgetOpt,
    DecksOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    echo_leaving_out,
    format_option,
    streaks_left_out,
    use_budget,
)

__all__ = ["DEFAULT_ROUNDS", "montecarlo", "run_montecarlo"]

DEFAULT_ROUNDS = 1_000_000
"""Rounds dealt when ``--rounds`` is not given."""

EPILOG = """Examples:

\b
  exactodds montecarlo classic --rounds 1000000 --seed 1
  exactodds montecarlo classic --decks 6 --rules mini --rounds 100000 --format json
  exactodds montecarlo classic --bet player --bet banker --rounds 100000
  exactodds montecarlo lightning --decks 1 --rounds 100000 --seed 1

A live bet (a fee, multipliers, a peek) is played as dealt: every round draws its multiplier
cards (an exact integer RNG seeded by --seed) and pays the product over the row's cards, the
fee is charged, a peek bet raises by its exact optimal decision table; each net result (after
the fee, per base stake) is checked against its exact probability."""


def montecarlo(
    paytable: PaytableArg = None,
    *,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    bets: BetIdsOpt = None,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds",
            metavar="N",
            min=1,
            help=f"Rounds to deal (default: {DEFAULT_ROUNDS:,}).",
            show_default=False,
        ),
    ] = DEFAULT_ROUNDS,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", metavar="N", min=0, help="Seed of the run (default: 1).", show_default=False
        ),
    ] = 1,
    fmt: Annotated[str, format_option("md", "json", default="md")] = "md",
    budget: BudgetOpt = None,
) -> None:
    """Monte Carlo check of the exact figures: deal rounds from fresh shoes and give, per bet and
    per paytable row, how far the counts seen are from the exact ones (z-scores)."""
    use_budget(budget)
    game = GameChoice(decks, remove, shoe_file, rules)
    run_montecarlo(paytable, game, rounds, seed, fmt, bet_ids=bets or ())


def run_montecarlo(
    paytable: str | None,
    game: GameChoice,
    rounds: int,
    seed: int,
    fmt: str,
    *,
    bet_ids: Sequence[str] = (),
) -> None:
    """The command's work (also ``simulate --monte-carlo``'s, deprecated) on the game of the
    ``--decks``, ``--remove``, ``--shoe`` and ``--rules`` options, for the bets ``bet_ids``
    (every bet when empty)."""
    from exactodds.analysis.montecarlo import monte_carlo_check, render_monte_carlo_check
    from exactodds.bets.loader import judge_paytable, load_paytable
    from exactodds.bets.settle_rounds import select_bets
    from exactodds.cli.progress import progress_display
    from exactodds.errors import named

    chosen = check_format(fmt, ("md", "json"))
    table = load_paytable(paytable, game, counted=False)
    with named("--bet"):  # a streak bet named: one line (rounds are dealt one by one)
        table = select_bets(table, bet_ids, streaks=False, command="montecarlo")
    shoe, tableau = game.resolve(table)
    from exactodds.analysis.montecarlo import check_options
    from exactodds.bets.budget import check_card_work, check_dealt_cards

    check_options(rounds, seed)
    check_dealt_cards(table.bets, rounds)
    check_card_work(table.bets, shoe, tableau)
    table = judge_paytable(table, game)  # every option checked: count the card-level bets
    start = time.perf_counter()
    with progress_display("monte carlo", "rounds") as progress:
        check = monte_carlo_check(
            table.bets, shoe, tableau, rounds=rounds, seed=seed, progress=progress
        )
    if sys.stderr.isatty():
        print(f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    text = render_monte_carlo_check(check, table.name, chosen)
    echo_leaving_out(text, chosen, streaks_left_out(table), "montecarlo")
