"""Benchmark: start-up of the CLI as a fresh process, warm (after one untimed run).

Times ``exactodds odds`` (target 0.15 s), ``exactodds report`` on a terminal (the summary,
target 0.3 s; run on a pseudo-terminal) and ``exactodds report`` redirected (the full default
8-deck sheet, target 1.5 s): the median wall time of several runs and its ratio to the target,
with the CPU time (user + system) of the children, which a loaded machine inflates less. Then
checks that no heavy library (sympy, numpy, matplotlib, pandas) is imported on the way.

    python benchmarks/cli.py [RUNS]
"""

from __future__ import annotations

import os
import pty
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"odds": 0.15, "report (terminal)": 0.3, "report (redirected)": 1.5}
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


WARM_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: the untimed first run may write bytecode (``.pyc``), as an
installed package has it; with PYTHONDONTWRITEBYTECODE set (some CI and sandboxes set it) every
run would compile exactodds' modules again (~40 ms) and no run would be warm."""


def _run(cmd: list[str], terminal: bool) -> None:
    if not terminal:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=WARM_ENV)
        return
    leader, follower = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=follower, env=WARM_ENV)
    os.close(follower)
    while True:
        try:
            if not os.read(leader, 65536):
                break
        except OSError:  # the child closed the terminal
            break
    os.close(leader)
    if proc.wait() != 0:
        raise SystemExit(f"{cmd} failed")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Time the runs and look for heavy imports."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cases = {
        "odds": ([*command(), "odds"], False),
        "report (terminal)": ([*command(), "report"], True),
        "report (redirected)": ([*command(), "report"], False),
    }
    for label, (cmd, terminal) in cases.items():
        _run(cmd, terminal)  # warm: files and bytecode in the caches
        times, cpus = [], []
        for _ in range(runs):
            start, cpu = time.perf_counter(), _cpu()
            _run(cmd, terminal)
            times.append(time.perf_counter() - start)
            cpus.append(_cpu() - cpu)
        median, target = statistics.median(times), TARGETS[label]
        print(
            f"{label}: median {median:.3f} s of {runs} runs (min {min(times):.3f} s, "
            f"CPU min {min(cpus):.3f} s; target {target} s, ratio {median / target:.2f})"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
