"""Benchmark: every command on the largest inputs the limits and work budgets allow.

Target (issue 20): on one core, every command on any input within the limits finishes in at most
30 s and 2 GiB, or is refused up front (exit 2, one line naming the limit). The paytables are
made here, each at the 1 MiB file limit or at a work budget of ``exactodds/bets/budget.py``:

- ``rows``: 122 bets × 100 rows, every bet its own order (``benchmarks/load.py``'s paytable);
- ``bets``: 240 bets × 48 rows, every bet the same;
- ``primes``: one bet of 256 rows, each paying its own ratio of 30-digit primes (a common
  denominator of about 7,600 digits);
- ``primes-28``: 28 such bets of 160 rows (the file limit allows about this many);
- ``wide-4``: 4 bets of 60 rows over 30-digit primes: at the evaluation budget (242 moduli);
- ``pdf``: 3 bets × 100 rows (300 rows: the PDF budget).

Each command runs in a fresh interpreter; the line gives its exit code, wall time, CPU time and
peak memory (of that process, from ``wait4``), and the first words of its error when refused.
The machine may be shared: give its load (printed first and last) with the figures.

    python benchmarks/limits.py [--only CASE,...] [--quick]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _combos(rows: int) -> list[tuple[int, int, int]]:
    return [(a, b, c) for c in range(10) for a in range(6) for b in range(8)][: rows - 1]


def near_limit(bets: int, rows: int, *, vary: bool) -> str:
    """``bets`` bets of ``rows`` rows that all can match: ``benchmarks/load.py``'s paytable."""
    spec = importlib.util.spec_from_file_location(
        "benchmark_load", Path(__file__).with_name("load.py")
    )
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    text: str = load.paytable(bets, rows, vary=vary)
    return text


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for p in small:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes(count: int, start: int = 10**29 + 1) -> list[int]:
    """The first ``count`` primes from ``start`` (30 digits by default)."""
    out: list[int] = []
    n = start
    while len(out) < count:
        if _is_prime(n):
            out.append(n)
        n += 1
    return out


def prime_paytable(bets: int, rows: int) -> str:
    """``bets`` bets of ``rows`` rows, row i paying q_i:p_i for 30-digit primes p_i ≠ q_i: the
    common denominator of a bet is the product of its rows' p_i (30·(rows − 1) digits)."""
    ps = primes(2 * (rows - 1))
    lines = ['name = "primes"', "decks = 8", 'rules = "punto-banco"']
    for k in range(bets):
        lines += [f"[bets.b{k}]", "rows = ["]
        for i, (a, b, c) in enumerate(_combos(rows)):
            when = f"player.initial == {a} and banker.initial == {b} and player.third == {c}"
            lines.append(f'  {{ when = "{when}", pays = "{ps[2 * i + 1]}:{ps[2 * i]}" }},')
        lines += ['  { when = "otherwise", pays = "lose" },', "]"]
    return "\n".join(lines) + "\n"


PAYTABLES = {
    "rows": lambda: near_limit(122, 100, vary=True),
    "bets": lambda: near_limit(240, 48, vary=False),
    "primes": lambda: prime_paytable(1, 256),
    "primes-28": lambda: prime_paytable(28, 160),
    "wide-4": lambda: prime_paytable(4, 61),
    "pdf": lambda: near_limit(3, 100, vary=True),
}

_REPORT = ["report", "--date", "2024-01-01"]
COMMANDS: dict[str, list[list[str]]] = {
    "rows": [
        ["validate"],
        *([*_REPORT, "--format", f, "--out", "{out}", "--force"] for f in ("md", "html")),
        *([*_REPORT, "--format", f, "--out", "{out}", "--force"] for f in ("csv", "json")),
        [*_REPORT, "--format", "xlsx", "--out", "{out}", "--force"],
        [*_REPORT, "--format", "pdf", "--out", "{out}", "--force"],
        ["check", "--against", "gli-11,adm,mga"],
        ["eor"],
        ["simulate", "--shoes", "100"],
        ["compare", "--tie", "8:1,9:1", "--decks", ",".join(str(d) for d in range(1, 42))],
        ["compare", "--tie", "8:1", "--decks", ",".join(str(d) for d in range(1, 17))],
        ["compare", "--rules", "punto-banco", "--tie", "8:1", "--formula"],
        ["compare", "--rules", "punto-banco,mini,pronto", "--tie", "8:1,9:1", "--formula"],
    ],
    "bets": [
        ["validate"],
        [*_REPORT, "--format", "html", "--out", "{out}", "--force"],
        [*_REPORT, "--format", "xlsx", "--out", "{out}", "--force"],
        ["eor"],
        ["simulate", "--shoes", "100"],
        ["compare", "--rules", "punto-banco", "--tie", "8:1", "--formula"],
    ],
    "primes": [
        [*_REPORT, "--format", f, "--out", "{out}", "--force"]
        for f in ("md", "html", "csv", "json", "xlsx", "pdf")
    ]
    + [["check", "--against", "gli-11"], ["eor"], ["simulate", "--shoes", "1"], ["compare"]]
    + [["compare", "--formula"]],
    "primes-28": [
        [*_REPORT, "--format", "md", "--out", "{out}", "--force"],
        [*_REPORT, "--format", "json", "--out", "{out}", "--force"],
        ["eor"],
        ["simulate", "--shoes", "1"],
    ],
    "wide-4": [["eor"], ["simulate", "--shoes", "103"], ["simulate", "--shoes", "104"]],
    "pdf": [[*_REPORT, "--format", "pdf", "--out", "{out}", "--force"]],
}

OTHERS: list[list[str]] = [
    ["simulate", "classic", "--shoes", "100000"],
    ["simulate", "classic", "--monte-carlo", "--rounds", "100000000"],
    ["report", "classic", "--monte-carlo-rounds", "100000000"],
    ["odds", "--decks", "1000"],
    ["compare", "classic", "--decks", ",".join(str(d) for d in range(1, 86)), "--tie", "8:1"],
]
"""Commands at a limit of their options (not of a file)."""


def run(args: list[str], cwd: Path) -> tuple[int, float, float, float, str]:
    """Exit code, wall seconds, CPU seconds, peak MiB and the first error words of one run."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "exactodds", *args],
            stdout=subprocess.DEVNULL,
            stderr=err,
            cwd=cwd,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        err.seek(0)
        first = err.read().decode("utf-8", "replace").strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024  # KiB on Linux
    return proc.returncode, wall, cpu, peak, (first[0][18:110] if first else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated cases (" + ", ".join(PAYTABLES) + ")")
    parser.add_argument("--no-others", action="store_true", help="skip the option limits")
    opts = parser.parse_args()
    cases = opts.only.split(",") if opts.only else list(PAYTABLES)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)", flush=True)
    print(f"{'case':10} {'code':>4} {'wall s':>7} {'cpu s':>7} {'MiB':>6}  command / refusal")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for case in cases:
            path = folder / f"{case}.toml"
            path.write_text(PAYTABLES[case](), encoding="utf-8")
            for command in COMMANDS[case]:
                args = [a.replace("{out}", str(folder / "out")) for a in command]
                args.insert(1, str(path))
                if args[0] == "validate":
                    args = args[:2]
                code, wall, cpu, peak, err = run(args, folder)
                shown = " ".join(a if len(a) < 30 else a[:27] + "…" for a in command)
                print(
                    f"{case:10} {code:>4} {wall:>7.1f} {cpu:>7.1f} {peak:>6.0f}  {shown}"
                    + (f"\n{'':40}refused: {err}" if code == 2 else ""),
                    flush=True,
                )
        if not opts.no_others:
            for args in OTHERS:
                code, wall, cpu, peak, err = run(args, ROOT)
                shown = " ".join(a if len(a) < 30 else a[:27] + "…" for a in args)
                print(
                    f"{'options':10} {code:>4} {wall:>7.1f} {cpu:>7.1f} {peak:>6.0f}  {shown}"
                    + (f"\n{'':40}refused: {err}" if code == 2 else ""),
                    flush=True,
                )
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")


if __name__ == "__main__":
    main()
