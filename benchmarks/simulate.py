"""Benchmark: dealt rounds per second of ``simulate`` (computer-perfect play, every round's exact
EV of every bet), one worker, and the speed-up of two workers in the same run.

Runs: ten shoes first (compile or load the batch kernel, timed apart); ``--shoes`` shoes with
one worker; the batch evaluator alone on the states those shoes deal (its share of the time);
the same shoes with ``--workers`` workers (the ratio of the two rates, a check that both give
the same JSON, and the CPU time of every process of both runs: whether splitting costs work);
optionally (``--numpy``) the numpy kernel on ``--numpy-shoes`` shoes, and (``--count``) the count
strategy. The kernel is the one ``EXACTODDS_KERNEL`` chooses. Ends with ``rounds/s: N`` (one
worker).

Usage: python benchmarks/simulate.py [--paytable classic] [--shoes 3000] [--workers 2]
       [--seed 1] [--numpy] [--numpy-shoes 60] [--count]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from typing import Any

from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.analysis.count import count_strategy
from exactodds.analysis.dealing import deal_shoes
from exactodds.analysis.simulate import simulate
from exactodds.bets.loader import load_paytable
from exactodds.deal.shoe import Shoe


def kernel() -> str:
    """The batch kernel in use (numpy when this checkout has no compiled kernel)."""
    try:
        from exactodds.analysis import kernel as k  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return "numpy (no compiled kernel in this checkout)"
    name: str = k.kernel_name(1 << 20)
    return name


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the pool's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(
    evaluator: BatchEvaluator, shoe: Shoe, shoes: int, seed: int, **options: Any
) -> tuple[float, int, dict[str, Any], float]:
    """Seconds, rounds dealt, JSON and CPU seconds (all processes) of one run."""
    start, cpu = time.perf_counter(), cpu_seconds()
    sim = simulate(evaluator, shoe, shoes=shoes, seed=seed, **options)
    return time.perf_counter() - start, sim.rounds, sim.to_json(), cpu_seconds() - cpu


def main() -> None:  # noqa: PLR0915 - the benchmark's steps, in the order it prints them
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--paytable", default="classic")
    ap.add_argument("--shoes", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--numpy", action="store_true", help="also time the numpy kernel")
    ap.add_argument("--numpy-shoes", type=int, default=60)
    ap.add_argument("--count", action="store_true", help="also time the count strategy")
    args = ap.parse_args()

    table = load_paytable(args.paytable)
    shoe = table.shoe
    t0 = time.perf_counter()
    evaluator = compile_bets(table.bets, table.tableau)
    print(f"paytable: {table.label} ({len(table.bets)} bets), {shoe.describe()}")
    print(f"kernel: {kernel()}")
    print(f"compile: {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    simulate(evaluator, shoe, shoes=10, seed=args.seed + 1)  # enough states to load numba
    print(f"first 10 shoes (kernel compile or cache): {time.perf_counter() - t0:.2f} s")

    one_s, rounds, one_json, one_cpu = timed(evaluator, shoe, args.shoes, args.seed)
    one_rate = rounds / one_s
    print(
        f"1 worker: {args.shoes} shoes, {rounds} rounds in {one_s:.2f} s: {one_rate:.0f} rounds/s"
    )

    dealt = deal_shoes(shoe, table.tableau, args.seed, range(args.shoes), 14)
    t0 = time.perf_counter()
    evaluator.evaluate(dealt.states.reshape(-1, 13, 4))
    eval_s = time.perf_counter() - t0
    rest = (
        f"{len(dealt) / (one_s - eval_s):.0f} rounds/s"
        if one_s > eval_s
        else "not measurable (a loaded machine)"
    )
    print(
        f"evaluator alone on those states: {len(dealt) / eval_s:.0f} states/s, "
        f"{eval_s / one_s:.0%} of the run; the rest (dealing, tally): {rest}"
    )

    if args.workers > 1:
        many_s, _, many_json, many_cpu = timed(
            evaluator, shoe, args.shoes, args.seed, workers=args.workers
        )
        same = "same JSON" if many_json == one_json else "DIFFERENT JSON"
        print(
            f"{args.workers} workers: {many_s:.2f} s ({same}), "
            f"ratio: {one_s / many_s:.2f} (pool start-up included)"
        )
        # On a shared machine the wall-clock ratio depends on the other jobs: the CPU time of
        # every process shows whether the split itself costs work (noisy too under load).
        print(
            f"CPU time: 1 worker {one_cpu:.2f} s, {args.workers} workers {many_cpu:.2f} s "
            "(parent and workers)"
        )
        if many_json != one_json:
            raise SystemExit(1)

    if args.count:
        strategy = count_strategy(evaluator, shoe)
        count_s, count_rounds, _, _ = timed(evaluator, shoe, args.shoes, args.seed, count=strategy)
        print(f"count strategy, 1 worker: {count_rounds / count_s:.0f} rounds/s")

    if args.numpy:
        before = os.environ.get("EXACTODDS_KERNEL")
        os.environ["EXACTODDS_KERNEL"] = "numpy"
        try:
            np_s, np_rounds, _, _ = timed(evaluator, shoe, args.numpy_shoes, args.seed)
        finally:
            if before is None:
                del os.environ["EXACTODDS_KERNEL"]
            else:
                os.environ["EXACTODDS_KERNEL"] = before
        print(f"numpy kernel, 1 worker: {np_rounds / np_s:.0f} rounds/s ({args.numpy_shoes} shoes)")

    print(f"rounds/s: {one_rate:.0f}")


if __name__ == "__main__":
    main()
