"""Benchmark: ``exactodds report`` (the default 8-deck sheet) as a fresh process.

Prints the median wall time of several runs and its ratio to the 1.5 s target, and checks that
no heavy library (sympy, numpy, matplotlib) is imported on the way.

    python benchmarks/cli.py [RUNS]
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 1.5
HEAVY = ("sympy", "numpy", "matplotlib", "pandas", "scipy")


def command() -> list[str]:
    """The installed ``exactodds`` script next to this interpreter, else ``python -c``."""
    script = Path(sys.executable).with_name("exactodds")
    if script.exists():
        return [str(script)]
    found = shutil.which("exactodds")
    if found:
        return [found]
    return [sys.executable, "-c", "from exactodds.cli import main; main()"]


def main() -> None:
    """Time the runs and look for heavy imports."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cmd = [*command(), "report"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"{' '.join(Path(cmd[0]).name if i == 0 else a for i, a in enumerate(cmd))}: "
        f"median {median:.3f} s of {runs} runs (min {min(times):.3f} s; target {TARGET} s, "
        f"ratio {median / TARGET:.2f})"
    )
    trace = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "from exactodds.cli import main; main(['report'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    imported = {m.group(1).split(".")[0] for m in re.finditer(r"\|\s+([\w.]+)\s*$", trace, re.M)}
    heavy = sorted(imported & set(HEAVY))
    print(f"top-level packages imported: {len(imported)}")
    print(f"heavy modules imported: {', '.join(heavy) if heavy else 'none'}")


if __name__ == "__main__":
    main()
