"""Benchmark: the full 8-deck figures of classic.toml in a fresh interpreter, engine included.

Each run is a new Python process that imports exactodds, loads and checks the paytable, runs the
exact enumeration and computes every bet's figures (and, separately timed, renders the Markdown
sheet). Prints the median of the runs and its ratio to the 1 s target.

    python benchmarks/report.py [RUNS]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

TARGET = 1.0


def once() -> None:
    """One measurement, in this (fresh) process; prints JSON timings."""
    start = time.perf_counter()
    from exactodds.bets.loader import default_paytable, load_paytable
    from exactodds.figures.metrics import paytable_figures

    table = load_paytable(default_paytable())
    figures = paytable_figures(table)
    computed = time.perf_counter()
    from exactodds.report import build_sheet, render_sheets

    render_sheets([build_sheet(table, date="2024-01-01")], "md")
    rendered = time.perf_counter()
    print(
        json.dumps(
            {
                "figures": computed - start,
                "sheet": rendered - start,
                "bets": len(figures),
            }
        )
    )


def main() -> None:
    """Run the measurement in fresh interpreters and print the median."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    results = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--once"], capture_output=True, text=True, check=True
        ).stdout
        results.append(json.loads(out))
    figures = statistics.median(r["figures"] for r in results)
    sheet = statistics.median(r["sheet"] for r in results)
    bets = results[0]["bets"]
    print(f"classic.toml, 8 decks, {bets} bets, median of {runs} fresh interpreters:")
    print(
        f"  import + load + enumerate + figures: {figures:.3f} s  (target {TARGET:.1f} s, "
        f"ratio {figures / TARGET:.2f})"
    )
    print(f"  ... + Markdown math sheet:           {sheet:.3f} s")


if __name__ == "__main__":
    if sys.argv[1:] == ["--once"]:
        once()
    else:
        main()
