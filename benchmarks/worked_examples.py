"""Benchmark: worked examples of every bundled paytable, and on depleted shoes.

Per bundled paytable, in one process: the joint distribution and row combinations the sheet
computes anyway are made first (not timed), then every bet's :func:`row_examples` from cold
caches (timed: ordering the outcomes, finding each row's first outcome, dealing its cards).
Then the same for classic on random depleted shoes (8 decks less 0–400 random cards, and
small shoes of 6–20 cards), where the card search has the least to choose from. Prints each
CPU time (process time, steadier than wall time on a shared machine) and the worst against a
1 s budget per paytable.

Usage: python benchmarks/worked_examples.py [--shoes 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Card, Shoe
from exactodds.figures.worked_examples import _in_order, example_cards, row_examples

BUDGET = 1.0


def timed(table: Paytable, shoe: Shoe) -> float:
    """CPU seconds for every bet's examples on ``shoe``, after the joint and row counts."""
    joint = joint_distribution(shoe, table.tableau)
    for bet in table.bets:
        bet.row_combinations(joint)
    _in_order.cache_clear()
    example_cards.cache_clear()
    start = time.process_time()
    for bet in table.bets:
        row_examples(bet, shoe, table.tableau)
    return time.process_time() - start


def depleted(rng: random.Random, base: Shoe, keep: int) -> Shoe:
    """``base`` less random cards, ``keep`` left."""
    cards = [
        Card(r, s) for r, row in enumerate(base.counts) for s, n in enumerate(row) for _ in range(n)
    ]
    rng.shuffle(cards)
    return base.remove(cards[: len(cards) - keep])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shoes", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    worst = 0.0
    total = 0.0
    for path in bundled_paytables():
        table = load_paytable(path)
        seconds = timed(table, table.shoe)
        rows = sum(len(bet.rows) for bet in table.bets)
        print(f"{path.stem:<14} {len(table.bets):>2} bets {rows:>3} rows  {seconds * 1000:7.1f} ms")
        worst, total = max(worst, seconds), total + seconds
    print(
        f"all bundled paytables: {total * 1000:.1f} ms; worst {worst * 1000:.1f} ms, "
        f"ratio to the {BUDGET:.0f} s budget {worst / BUDGET:.3f}"
    )

    classic = load_paytable("classic")
    rng = random.Random(args.seed)
    times = []
    for i in range(args.shoes):
        keep = rng.randint(16, 416) if i % 2 else rng.randint(6, 20)
        times.append(timed(classic, depleted(rng, Shoe.decks(8), keep)))
    print(
        f"classic on {args.shoes} random depleted shoes (6-416 cards): "
        f"median {sorted(times)[len(times) // 2] * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms, "
        f"ratio to the budget {max(times) / BUDGET:.3f}"
    )


if __name__ == "__main__":
    main()
