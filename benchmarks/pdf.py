"""Benchmark: ``exactodds report classic --format pdf|xlsx --out DIR`` as fresh processes, and
``compare --decks inf --formula`` (the deck-count formula of one tableau).

Each run writes into a new empty directory (so the PDF is always printed: an up-to-date PDF
would be left alone). Prints the median wall and CPU time of each command and the PDF's ratio
to its 10 s target, and the PDF/XLSX times as ratios to the Markdown sheet's, measured in the
same run (the ratios hold up better than seconds on a shared machine).

    python benchmarks/pdf.py [RUNS]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_PDF = 10.0
EXACTODDS = [sys.executable, "-m", "exactodds"]


def timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child) of one run of ``exactodds ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*EXACTODDS, *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Time each command RUNS times (default 3) and print medians and ratios."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    commands = {
        "md": ["report", "classic", "--format", "md", "--out"],
        "pdf": ["report", "classic", "--format", "pdf", "--out"],
        "xlsx": ["report", "classic", "--format", "xlsx", "--out"],
        "formula": ["compare", "classic", "--rules", "punto-banco", "--tie", "8:1"],
    }
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, args in commands.items():
            if name == "formula":
                results[name].append(timed([*args, "--decks", "8,inf", "--formula"]))
                continue
            with tempfile.TemporaryDirectory() as out:
                results[name].append(timed([*args, os.path.join(out, "sheets")]))
    wall = {name: statistics.median(w for w, _ in r) for name, r in results.items()}
    cpu = {name: statistics.median(c for _, c in r) for name, r in results.items()}
    print(
        f"classic.toml (14 bets, 8 decks), median of {runs} fresh processes (os.cpu_count() = "
        f"{os.cpu_count()}, load average {os.getloadavg()[0]:.1f}):"
    )
    for name, label in (
        ("md", "report --format md --out DIR  "),
        ("pdf", "report --format pdf --out DIR "),
        ("xlsx", "report --format xlsx --out DIR"),
        ("formula", "compare --decks 8,inf --formula (one tableau)"),
    ):
        print(f"  {label}: wall {wall[name]:6.2f} s, CPU {cpu[name]:6.2f} s")
    print(
        f"  PDF: wall/target {wall['pdf'] / TARGET_PDF:.2f} (target {TARGET_PDF:.0f} s); "
        f"CPU ratio to the Markdown sheet {cpu['pdf'] / cpu['md']:.1f}, XLSX's "
        f"{cpu['xlsx'] / cpu['md']:.1f}"
    )


if __name__ == "__main__":
    main()
