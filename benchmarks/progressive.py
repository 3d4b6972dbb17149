"""Benchmark: progressive and streak bets (issue 27), in CPU seconds.

1. A progressive sheet against the same bet with fixed pays: the Dragon Dragon sheet
   (``build_sheet`` and Markdown) and the same paytable with its jackpot rows paying fixed
   amounts, after a warm-up sheet (imports); the card counts are cleared before each so both
   count from scratch.
2. The one-shoe model of Banker Streak: ``--shoes`` shoes (10,000 by default) dealt and settled.

Prints ``progressive: S s``, ``fixed: S s``, ``ratio: R`` and ``streak shoes/s: N``.

Usage: python benchmarks/progressive.py [--shoes 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from exactodds.analysis.streak import simulate_streak
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Paytable, _card_counts, _row_combinations
from exactodds.bets.progressive import JackpotPayout
from exactodds.report.content import document
from exactodds.report.markdown import render_markdown
from exactodds.report.sheet import build_sheet


def fixed_pays(table: Paytable) -> Paytable:
    """The paytable with every jackpot row paying its reset amount as a fixed payout."""
    bets = []
    for bet in table.bets:
        rows = tuple(
            replace(r, pays=Payout(r.pays.net, "fixed")) if isinstance(r.pays, JackpotPayout) else r
            for r in bet.rows
        )
        bets.append(replace(bet, rows=rows, progressive=None))
    return replace(table, bets=tuple(bets))


def sheet_seconds(table: Paytable) -> float:
    """CPU seconds of one sheet, from empty caches."""
    _card_counts.cache_clear()
    _row_combinations.cache_clear()
    start = time.process_time()
    render_markdown(document(build_sheet(table, date="2024-01-01")))
    return time.process_time() - start


def main() -> None:
    """Run both benchmarks and print their lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = load_paytable("dragon-dragon")
    sheet_seconds(load_paytable("punto-banco"))  # imports and the engine's tables, once
    fixed = sheet_seconds(fixed_pays(table))
    progressive = sheet_seconds(table)
    print(f"progressive: {progressive:.2f} s")
    print(f"fixed: {fixed:.2f} s")
    print(f"ratio: {progressive / fixed:.3f}")
    streak = load_paytable("banker-streak")
    start = time.process_time()
    run = simulate_streak(
        streak.streaks[0], streak.shoe, streak.tableau, args.shoes, seed=args.seed
    )
    seconds = time.process_time() - start
    print(f"streak: {args.shoes:,} shoes, {run.bets:,} bets, {seconds:.2f} s")
    print(f"streak shoes/s: {args.shoes / seconds:,.0f}")


if __name__ == "__main__":
    main()
