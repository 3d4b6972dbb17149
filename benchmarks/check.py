"""Benchmark: ``exactodds report --against gli-11,adm,mga`` (the default sheet with its compliance
section) as a fresh process, against the plain ``exactodds report`` in the same run.

Prints the median wall time of several runs of each, the ratio of the checked sheet to the 1 s
target and to the plain sheet, and ``exactodds check`` alone for comparison.

    python benchmarks/check.py [RUNS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from cli import command  # benchmarks/cli.py: the installed script next to this interpreter

TARGET = 1.0
AGAINST = "gli-11,adm,mga"


def median_time(args: list[str], runs: int) -> float:
    """Median wall time of ``runs`` fresh processes of ``exactodds ARGS`` (output discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [*command(), *args], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Time the three commands, interleaved per round so machine load hits them alike."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    cases = {
        "report": ["report"],
        f"report --against {AGAINST}": ["report", "--against", AGAINST],
        f"check --against {AGAINST}": ["check", "--against", AGAINST],
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, args in cases.items():
            samples[name].append(median_time(args, 1))
    medians = {name: statistics.median(times) for name, times in samples.items()}
    for name, t in medians.items():
        print(f"exactodds {name}: median {t:.3f} s of {runs} runs (min {min(samples[name]):.3f} s)")
    checked = medians[f"report --against {AGAINST}"]
    print(
        f"report --against {AGAINST}: {checked:.3f} s; target {TARGET} s, ratio "
        f"{checked / TARGET:.2f}; {checked / medians['report']:.2f}x the plain sheet"
    )


if __name__ == "__main__":
    main()
