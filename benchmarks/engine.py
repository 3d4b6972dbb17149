"""Speed of the exact engine against the naive enumerator found in most public analyses.

The naive enumerator loops over all 10^6 sequences of six card *values* with
``itertools.product(range(10), repeat=6)``, weights each by the falling product of the value
counts and plays it out, counting only Banker / Player / Tie. The engine computes the full
joint distribution (pairs, perfect pairs, third cards, naturals…) exactly.

Run: ``python benchmarks/engine.py [--decks 8] [--repeat 5]``. Targets (issue 2): the
in-process full joint at least 5× faster than the naive loop; ``exactodds odds --decks 8
--json`` as a whole process at least 2× faster than the naive script as a whole process.
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe

T = TypeVar("T")


def naive_counts(values: Sequence[int]) -> tuple[int, int, int]:
    """Banker, Player and Tie combinations of Punto Banco, by looping over every six-value
    sequence (the typical public implementation)."""
    banker = player = tie = 0
    for seq in itertools.product(range(10), repeat=6):
        left = list(values)
        weight = 1
        for v in seq:
            weight *= left[v]
            left[v] -= 1
        if weight <= 0:
            continue
        p1, b1, p2, b2, c5, c6 = seq
        p = (p1 + p2) % 10
        b = (b1 + b2) % 10
        if p < 8 and b < 8:
            if p <= 5:
                third = c5
                p = (p + third) % 10
                if (
                    b <= 2
                    or (b == 3 and third != 8)
                    or (b == 4 and 2 <= third <= 7)
                    or (b == 5 and 4 <= third <= 7)
                    or (b == 6 and 6 <= third <= 7)
                ):
                    b = (b + c6) % 10
            elif b <= 5:
                b = (b + c5) % 10
        if b > p:
            banker += weight
        elif p > b:
            player += weight
        else:
            tie += weight
    return banker, player, tie


def best_time(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Best wall time of ``repeat`` (≥ 1) calls, and the last result."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def process_time(argv: list[str], repeat: int) -> tuple[float, str]:
    """Best wall time of running ``argv`` as a whole process, and its output."""

    def once() -> str:
        proc = subprocess.run(argv, capture_output=True, text=True, check=True)
        return proc.stdout

    return best_time(once, repeat)


def naive_script(values: Sequence[int]) -> str:
    """A standalone script running :func:`naive_counts` (same source) on ``values``."""
    return (
        "from __future__ import annotations\n\nimport itertools\n"
        "from collections.abc import Sequence\n\n\n"
        f"{inspect.getsource(naive_counts)}\n\nprint(naive_counts({tuple(values)!r}))\n"
    )


def exactodds_command() -> list[str]:
    """The installed ``exactodds`` console script next to this interpreter, else ``-m``."""
    script = Path(sys.executable).parent / "exactodds"
    return [str(script)] if script.exists() else [sys.executable, "-m", "exactodds"]


def main(argv: list[str] | None = None) -> int:
    """Measure, check that both methods agree, and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5, help="runs of the fast measurements")
    parser.add_argument("--naive-repeat", type=int, default=2, help="runs of the naive ones")
    args = parser.parse_args(argv)

    shoe = Shoe.decks(args.decks)
    values = shoe.value_counts
    print(f"shoe: {shoe.describe()}, Punto Banco")

    uncached = joint_distribution.__wrapped__
    engine_s, joint = best_time(lambda: uncached(shoe), args.repeat)
    naive_s, naive = best_time(lambda: naive_counts(values), args.naive_repeat)
    wins = joint.winner_counts()
    engine_bpt = (wins[Winner.BANKER], wins[Winner.PLAYER], wins[Winner.TIE])
    if engine_bpt != naive:
        print(f"MISMATCH: engine {engine_bpt} != naive {naive}")
        return 1
    print(f"B/P/T agree: {engine_bpt[0]:,} / {engine_bpt[1]:,} / {engine_bpt[2]:,}")
    print(f"engine full joint: {engine_s:.3f} s  ({len(joint.counts)} outcomes)")
    print(f"naive 10^6 value loop (B/P/T only): {naive_s:.3f} s")
    in_ratio = naive_s / engine_s
    print(f"in-process ratio: {in_ratio:.1f}x  (target >= 5x)")

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "naive_baccarat.py"
        script.write_text(naive_script(values), encoding="utf-8")
        cli = [*exactodds_command(), "odds", "--decks", str(args.decks), "--json"]
        cli_s, _ = process_time(cli, args.repeat)
        naive_proc_s, naive_out = process_time([sys.executable, str(script)], args.naive_repeat)
    if naive_out.strip() != repr(naive):
        print(f"MISMATCH: naive script printed {naive_out.strip()}")
        return 1
    print(f"process `{' '.join(['exactodds', *cli[-4:]])}`: {cli_s:.3f} s")
    print(f"process naive script: {naive_proc_s:.3f} s")
    proc_ratio = naive_proc_s / cli_s
    print(f"whole-process ratio: {proc_ratio:.1f}x  (target >= 2x)")
    ok = in_ratio >= 5 and proc_ratio >= 2
    print("targets: met" if ok else "targets: MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
