"""Benchmark: the commands a lab runs on a stranger's paytable, on valid paytables at the 1 MiB
file limit, against an older exactodds (default: the ``main`` branch) in the same run.

Two valid paytables just under the limit, every row of which can match but only late (each row
names one player.initial, banker.initial and player.third of a round where the player draws):

- 240 bets × 48 rows, every bet the same (identical conditions);
- 122 bets × 100 rows, every bet its own order of rows and of the clauses in a condition
  (no two bets' texts alike, the same comparisons throughout).

Each command runs in a fresh interpreter, once with the older source tree (``git archive REF``)
and once with this one; both must print the same bytes. Prints the seconds of each and the
ratio old/new. The machine may be shared: compare the ratios, measured in the same run.

    python benchmarks/load.py [REF] [--only validate,report,...]
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from itertools import permutations
from pathlib import Path

from exactodds.limits import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent

COMMANDS: dict[str, list[str]] = {
    "validate": ["validate"],
    "report": ["report", "--date", "2024-01-01"],
    "check": ["check", "--against", "gli-11"],
    "eor": ["eor"],
    "simulate": ["simulate", "--shoes", "1"],
}

_CLAUSES = ("player.initial=={a}", "banker.initial=={b}", "player.third=={c}")


def paytable(bets: int, rows: int, *, vary: bool) -> str:
    """A valid paytable of ``bets`` bets of ``rows`` rows (the last ``otherwise``); with
    ``vary``, each bet lists its rows and its clauses in its own order."""
    combos = [(a, b, c) for c in range(10) for a in range(6) for b in range(8)][: rows - 1]
    orders = list(permutations(_CLAUSES))
    lines = ['name = "near the limit"', "decks = 8", 'rules = "punto-banco"']
    for k in range(bets):
        shift = k if vary else 0
        clauses = orders[k % len(orders)] if vary else (_CLAUSES[2], _CLAUSES[1], _CLAUSES[0])
        lines += [f"[bets.b{k}]", "rows = ["]
        if vary:  # and its own spacing around "==": no two bets' texts alike
            spaces = [" " * (k // 6 >> bit & 1) for bit in range(6)]
            clauses = tuple(
                clause.replace("==", f"{spaces[2 * i]}=={spaces[2 * i + 1]}")
                for i, clause in enumerate(clauses)
            )
        for a, b, c in combos[shift % len(combos) :] + combos[: shift % len(combos)]:
            when = " and ".join(clauses).format(a=a, b=b, c=c)
            lines.append(f'{{when="{when}",pays="1:1"}},')
        lines.append('{when="otherwise",pays="lose"}]')
    return "\n".join(lines) + "\n"


CASES = {
    "240 bets × 48 rows, identical": (240, 48, False),
    "122 bets × 100 rows, all different": (122, 100, True),
}


def source_tree(ref: str, into: Path) -> Path:
    """The exactodds package of git ``ref``, extracted under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "exactodds"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def run(source: Path, args: list[str], cwd: Path) -> tuple[float, bytes]:
    """Seconds and output (stdout, stderr, exit code) of one command in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(source), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "exactodds", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    return seconds, done.stdout + b"\0" + done.stderr + bytes([done.returncode])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", nargs="?", default="main", help="the older exactodds (git ref)")
    parser.add_argument("--only", default=",".join(COMMANDS), help="commands, comma-separated")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = source_tree(options.ref, Path(tmp, "old"))
        for label, (bets, rows, vary) in CASES.items():
            path = Path(tmp, f"{bets}x{rows}.toml")
            path.write_text(paytable(bets, rows, vary=vary), encoding="utf-8")
            size = path.stat().st_size
            assert size <= MAX_FILE_BYTES, size
            print(f"{label} ({size:,} bytes):")
            for name in options.only.split(","):
                args = [*COMMANDS[name], path.name]
                before, expected = run(old, args, Path(tmp))
                after, got = run(ROOT, args, Path(tmp))
                assert got == expected, f"{name}: the output differs from {options.ref}'s"
                print(
                    f"  {name:<9} {options.ref} {before:6.2f} s, this tree {after:6.2f} s "
                    f"(ratio {before / after:.1f})"
                )


if __name__ == "__main__":
    main()
