"""Benchmark: batch evaluator states per second on a paytable, checked against the engine.

States are shoes part-way through: the paytable's full shoe less a random number (0–400) of
random cards. A random sample is checked exactly against the recursive engine
(``joint_distribution`` and ``metrics.bet_figures``: Σ net × combinations per bet).
Ends with the line ``states/s: N``.

Usage: python benchmarks/batch.py [--paytable classic] [--states 20000] [--check 12] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from exactodds.analysis.batch import compile_bets
from exactodds.engine import joint_distribution
from exactodds.metrics import bet_figures
from exactodds.paytable import load_paytable
from exactodds.shoe import Shoe


def random_states(shoe: Shoe, n: int, seed: int) -> np.ndarray:
    """``n`` shoe states: ``shoe`` less a random number of random cards each."""
    rng = np.random.default_rng(seed)
    flat = np.array(shoe.counts, dtype=np.int64).reshape(-1)
    cards = np.repeat(np.arange(flat.size), flat)
    out = np.empty((n, flat.size), dtype=np.int64)
    for i in range(n):
        k = int(rng.integers(0, min(400, cards.size - 6) + 1))
        gone = rng.choice(cards, size=k, replace=False)
        out[i] = flat - np.bincount(gone, minlength=flat.size)
    return out.reshape(n, 13, 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--paytable", default="classic")
    ap.add_argument("--states", type=int, default=20000)
    ap.add_argument("--check", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    table = load_paytable(args.paytable)
    t0 = time.perf_counter()
    evaluator = compile_bets(table.bets, table.tableau)
    compile_s = time.perf_counter() - t0
    states = random_states(table.shoe(), args.states, args.seed)

    t0 = time.perf_counter()
    result = evaluator.evaluate(states)
    elapsed = time.perf_counter() - t0

    rng = np.random.default_rng(args.seed + 1)
    sample = rng.choice(args.states, size=min(args.check, args.states), replace=False)
    for i in sample.tolist():
        shoe = Shoe(tuple(tuple(int(n) for n in row) for row in states[i]))  # type: ignore[misc]
        joint = joint_distribution(shoe, table.tableau)
        for bet in table.bets:
            exact = bet_figures(joint, bet).ev
            if result.ev(i, bet.id) != exact:
                print(f"MISMATCH state {i} bet {bet.id}: {result.ev(i, bet.id)} != {exact}")
                sys.exit(1)
    print(f"paytable: {table.label} ({len(table.bets)} bets, {evaluator.terms} terms)")
    print(f"compile: {compile_s:.2f} s")
    print(f"checked against the engine: {len(sample)} states x {len(table.bets)} bets, all exact")
    print(f"evaluated: {args.states} states in {elapsed:.2f} s")
    print(f"states/s: {args.states / elapsed:.0f}")


if __name__ == "__main__":
    main()
