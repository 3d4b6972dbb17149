"""Benchmark: batch evaluator states per second on a paytable, checked against the engine.

States are shoes part-way through: the paytable's full shoe (or ``--decks N`` decks) less a
random number (0–400) of random cards. A random sample is checked exactly against the recursive
engine (``joint_distribution`` and ``metrics.bet_figures``: Σ net × combinations per bet).

The kernel is the one ``EXACTODDS_KERNEL`` chooses (numba when installed, else numpy). Its first
call (one state), which compiles the numba kernel or loads it from the disk cache, is timed
apart; the rate is the best of ``--repeat`` runs. ``--compare`` also runs the numpy kernel on
the same states (the first ``--numpy-states`` of them), checks that both give the same integers
and prints ``ratio: X`` (numba rate / numpy rate, measured in the same run). Ends with
``states/s: N``.

Usage: python benchmarks/batch.py [--paytable classic] [--decks N] [--states 20000] [--check 12]
       [--seed 1] [--repeat 3] [--compare] [--numpy-states 4000] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from exactodds.analysis.batch import BatchEvaluator, BatchResult, compile_bets
from exactodds.analysis.kernel import KERNEL_ENV, kernel_name
from exactodds.bets.loader import load_paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.errors import ExactOddsError
from exactodds.figures.metrics import bet_figures


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


@contextmanager
def kernel(name: str | None) -> Iterator[None]:
    """Run with ``EXACTODDS_KERNEL=name`` (unchanged when None)."""
    old = os.environ.get(KERNEL_ENV)
    if name is not None:
        os.environ[KERNEL_ENV] = name
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(KERNEL_ENV, None)
        else:
            os.environ[KERNEL_ENV] = old


def timed(
    evaluator: BatchEvaluator, states: np.ndarray, repeat: int, clock: Callable[[], float]
) -> tuple[BatchResult, float, float]:
    """The result, the first call's time on one state (compile or cache load) and the best
    time of ``repeat`` evaluations of all states."""
    t0 = clock()
    evaluator.evaluate(states[:1])
    first = clock() - t0
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = clock()
        result = evaluator.evaluate(states)
        best = min(best, clock() - t0)
    assert result is not None
    return result, first, best


def main() -> None:  # noqa: PLR0915 - the benchmark's steps, in the order it prints them
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--paytable", default="classic")
    ap.add_argument("--decks", type=int, default=None, help="shoe of N decks (default: paytable's)")
    ap.add_argument("--states", type=int, default=20000)
    ap.add_argument("--check", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--compare", action="store_true", help="also time numpy; print the ratio")
    ap.add_argument("--numpy-states", type=int, default=4000)
    ap.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="cpu: this process's CPU time, steadier than wall time on a shared machine",
    )
    args = ap.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time

    try:
        name = kernel_name()
    except ExactOddsError as exc:
        sys.exit(f"error: {exc}")
    if args.compare and name != "numba":
        sys.exit("error: --compare needs the numba kernel: pip install 'exactodds[fast]'")
    table = load_paytable(args.paytable)
    t0 = time.perf_counter()
    evaluator = compile_bets(table.bets, table.tableau)
    compile_s = time.perf_counter() - t0
    shoe = Shoe.decks(args.decks) if args.decks else table.shoe
    states = random_states(shoe, args.states, args.seed)

    with kernel(name):  # also for small batches, which numba would leave to numpy
        result, first, elapsed = timed(evaluator, states, args.repeat, clock)
    rate = args.states / elapsed
    rates: dict[str, float] = {}
    if args.compare:
        few = states[: args.numpy_states]
        with kernel("numpy"):
            slow, _, slow_s = timed(evaluator, few, args.repeat, clock)
        if not (slow.numerators == result.numerators[: len(few)]).all():
            sys.exit("MISMATCH between the numba and numpy kernels")
        rates = {"numba": rate, "numpy": len(few) / slow_s}

    rng = np.random.default_rng(args.seed + 1)
    sample = rng.choice(args.states, size=min(args.check, args.states), replace=False)
    for i in sample.tolist():
        counts: Any = tuple(tuple(int(n) for n in row) for row in states[i])
        joint = joint_distribution(Shoe(counts), table.tableau)
        for bet in table.bets:
            exact = bet_figures(joint, bet).ev
            if result.ev(i, bet.id) != exact:
                sys.exit(f"MISMATCH state {i} bet {bet.id}: {result.ev(i, bet.id)} != {exact}")
    print(f"paytable: {table.label} ({len(table.bets)} bets, {evaluator.terms} terms)")
    print(f"shoe: {shoe.describe()}")
    print(f"kernel: {name}")
    print(
        f"compile paytable: {compile_s:.2f} s; first kernel call (compile or cache): {first:.2f} s"
    )
    print(f"checked against the engine: {len(sample)} states x {len(table.bets)} bets, all exact")
    took = f"{elapsed:.2f} s of {args.clock} time (best of {args.repeat})"
    print(f"evaluated: {args.states} states in {took}")
    if rates:
        print(f"numba states/s: {rates['numba']:.0f}")
        print(f"numpy states/s: {rates['numpy']:.0f} ({len(few)} states, same integers)")
        print(f"ratio: {rates['numba'] / rates['numpy']:.1f}")
    print(f"states/s: {rate:.0f}")


if __name__ == "__main__":
    main()
