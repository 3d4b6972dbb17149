"""Benchmark: the exposure analyses of issue 17 on 8 decks, each in a fresh process (so the
first-four table and the paytable's row layout are built inside the time, as a user pays them).

Prints, in seconds: every signal of one seen group (``--sort "6 7 8 9" --seen 1``), four seen
groups (``--seen 4``), a flashed first card, a seen burn card, and ``--optimise --seen 4`` over
every two-group sort of the values on one core (``--jobs 1``); with ``--rank``, also ``--by
rank`` with ``--jobs`` processes. Each line gives the wall time and the CPU time of the main
process (the better measure on a loaded machine). Targets: ≤ 1 s, ≤ 3 s, and ≤ 60 s for the
optimisation. The optimisation is numpy integer arithmetic: the ``fast`` extra (numba) does not
change it. Ends
with ``uptime`` (other work on the machine slows every figure).

Usage: python benchmarks/exposure.py [--paytable classic] [--rank] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

CASES = {
    "one seen group (--seen 1)": "analyse_sort(table, parse_sort('6 7 8 9'), 1)",
    "four seen groups (--seen 4)": "analyse_sort(table, parse_sort('6 7 8 9'), 4)",
    "flashed first card (--flash P1)": "analyse_flash(table, 'P1')",
    "seen burn card (--flash burn)": "analyse_flash(table, 'burn')",
    "--optimise --seen 4 (values, 1 core)": "optimise_sort(table, 4, 'value', jobs=1)",
}

SETUP = (
    "from exactodds.bets.loader import load_paytable\n"
    "from exactodds.protection.exposure import (\n"
    "    analyse_flash, analyse_sort, optimise_sort, parse_sort\n"
    ")\n"
    "table = load_paytable({paytable!r})\n"
    "import time\n"
    "start, cpu = time.perf_counter(), time.process_time()\n"
    "{call}\n"
    "print(time.perf_counter() - start, time.process_time() - cpu)\n"
)


def timed(paytable: str, call: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``call`` in a fresh interpreter (imports excluded, everything
    else included; the CPU time is the main process's, without worker processes)."""
    code = SETUP.format(paytable=paytable, call=call)
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    wall, cpu = out.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paytable", default="classic")
    parser.add_argument("--rank", action="store_true", help="also --optimise --by rank")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    cases = dict(CASES)
    if args.rank:
        cases[f"--optimise --seen 4 --by rank ({args.jobs} processes)"] = (
            f"optimise_sort(table, 4, 'rank', jobs={args.jobs})"
        )
    print(f"paytable: {args.paytable}, 8 decks")
    for label, call in cases.items():
        started = time.perf_counter()
        seconds, cpu = timed(args.paytable, call)
        wall = time.perf_counter() - started
        print(f"{label}: {seconds:.2f} s, CPU {cpu:.2f} s (process with imports: {wall:.2f} s)")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
