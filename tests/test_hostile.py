"""Hostile input through the command line: every case ends with exit 2 and one stderr line.

The corpus is tests/data/hostile/ (small files, committed) plus what is too big or too strange to
commit (a 100 MB paytable, a 1 MB condition, symbolic links, a FIFO, a directory named x.toml),
made here, and hostile option values. All cases run in one subprocess (tests/run_cases.py) under a
2 GiB address-space limit; each must end with exit code 2 and exactly one line
``exactodds: error: …`` of at most 300 characters, no traceback. A case that hangs is stopped by an
alarm after HANG_SECONDS and fails (code -1): a guard against hangs, not a timing assertion (how
fast input is refused is measured by benchmarks/, never asserted here).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HOSTILE = Path(__file__).parent / "data" / "hostile"
MEMORY = 2 << 30
HANG_SECONDS = 120
"""A case still running after this is stopped (a hang), whatever the machine's load."""
SHOES = {
    "nan-shoe.json",
    "bigint-shoe.json",
    "exponent-shoe.json",
    "deep-shoe.json",
    "huge-ranks.toml",
    "huge-cards.json",
    "shoe-remove.toml",
    "not-json.json",
    "binary.json",
    "json-list.json",
    "duplicate-key-shoe.json",
}
RULES = {"inf-rules.json", "deep-rules.json", "duplicate-key-rules.json"}
PROFILES = {"profile-control.toml", "profile-two-problems.toml"}
TAGS = {"tags-control.toml"}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _paytable(when: str = "winner == tie", top: str = "") -> str:
    return (
        f'{top}[bets.tie]\nrows = [\n  {{ when = "{when}", pays = "8:1" }},\n'
        '  { when = "otherwise", pays = "lose" },\n]\n'
    )


def _made(tmp: Path) -> list[list[str]]:
    """Cases on files made here: too big to commit, or not files at all."""
    big = tmp / "big.toml"  # 100 MB (sparse): refused by its size, never parsed
    with big.open("wb") as handle:
        handle.truncate(100 << 20)
    over = tmp / "over.json"
    over.write_text('{"decks": 8, "x": "' + "x" * (1 << 20) + '"}', encoding="utf-8")
    garbage = tmp / "garbage.toml"  # a 1 MB condition: refused by its length, shown elided
    garbage.write_text(_paytable("x" * 1_000_000), encoding="utf-8")
    mib = tmp / "mib-count.toml"  # a 1 MiB card-level condition: refused by its length
    clause = "count(initial, rank == 9 and suit == diamonds) >= 1 and "
    mib.write_text(_paytable(clause * ((1 << 20) // len(clause)) + "player.wins"), "utf-8")
    long_and = tmp / "long-and.toml"
    long_and.write_text(_paytable("player.wins and " * 60_000 + "player.wins"), encoding="utf-8")
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "r.toml").write_text('player_draw = []\n[banker_draw]\n0 = "none"\n', "utf-8")
    folder = tmp / "games"
    folder.mkdir()
    (folder / "out.toml").symlink_to(outside / "r.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "link-out.toml").write_text(_paytable(top='rules = "out.toml"\n'), "utf-8")
    (folder / "link-zero.toml").write_text(_paytable(top='rules = "zero.toml"\n'), "utf-8")
    (tmp / "dir.toml").mkdir()
    os.mkfifo(tmp / "fifo.toml")
    existing = tmp / "existing.png"
    existing.write_bytes(b"not a directory")
    foreign = tmp / "sheets"
    foreign.mkdir()
    (foreign / "classic.md").write_text("my notes, not a sheet\n", encoding="utf-8")
    return [
        ["report", str(big)],
        ["validate", str(big)],
        ["odds", "--shoe", str(over)],
        ["report", str(garbage)],
        ["report", str(mib)],
        ["report", str(long_and)],
        ["report", str(folder / "link-out.toml")],
        ["report", str(folder / "link-zero.toml")],
        ["report", str(tmp / "dir.toml")],
        ["report", str(tmp / "fifo.toml")],
        ["odds", "--shoe", str(tmp / "fifo.toml")],
        ["odds", "--rules", str(tmp / "fifo.toml")],
        ["eor", "--plots", str(existing)],
        ["simulate", "--shoes", "1", "--plots", str(existing)],
        ["report", "classic", "--out", str(existing)],
        ["report", "classic", "--out", str(foreign)],
    ]


OPTIONS: list[list[str]] = [
    ["odds", "--shoe", "/dev/zero"],
    ["odds", "--rules", "/dev/zero"],
    ["report", "/dev/zero"],
    ["report", "/proc/self/environ"],
    ["odds", "--decks", "1000000000"],
    ["odds", "--decks", "9" * 5000],
    ["odds", "--remove", "Kd " * 400_000],
    ["odds", "--remove", "Zz" * 1000],
    ["odds", "--" + "x" * 100_000],
    ["nosuchcommand" * 1000],
    ["validate"],
    ["simulate", "--workers", "10000", "--shoes", "2"],
    ["simulate", "--shoes", "1000000000"],
    ["montecarlo", "--rounds", "1000000000000"],
    ["simulate", "--cut-card", "99999999999999999999"],
    ["simulate", "--seed", "-1"],
    ["report", "--monte-carlo-rounds", "10000000000"],
    ["report", "--date", "x" * 100_000],
    ["report", "--format", "x" * 10_000],
    ["report", "classic", "--bet", "x" * 100_000],
    ["compare", "--decks", ",".join(str(n) for n in range(1, 300))],
    ["compare", "--decks", "1" * 50],
    ["compare", "--tie", "1" * 100 + ":1"],
    ["solve", "--bet", "tie", "--event", "Tie", "--target-edge", "1e400"],
    ["solve", "--bet", "tie", "--event", "Tie", "--target-edge", "9" * 5000 + "%"],
    ["solve", "--bet", "tie", "--event", "Tie", "--sweep", "0:" + "9" * 29, "--step", "1e-30"],
    ["settle", "--cards", "9s " * 100_000],
    ["settle", "--cards", "P: 9s 9h | B: Kd 7c", "--bet", "tie=" + "9" * 5000],
    ["eor", "--level", "99999999999999999999999"],
]


def _cases(tmp: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(HOSTILE.iterdir()):
        if path.name in SHOES:
            argv = ["odds", "--shoe", str(path)]
        elif path.name in RULES:
            argv = ["odds", "--rules", str(path)]
        elif path.name in PROFILES:
            argv = ["check", "classic", "--against", str(path)]
        elif path.name in TAGS:
            argv = ["simulate", "--strategy", "count", "--tags", str(path), "--shoes", "1"]
        else:
            argv = ["report", str(path)]
        cases.append({"argv": argv})
    cases += [{"argv": argv} for argv in _made(tmp) + OPTIONS]
    for epoch in ("9" * 5000, "99999999999999999", "-1e9", "\u2028", "\u0663", " 1 "):
        cases.append({"argv": ["report", "--bet", "tie"], "env": {"SOURCE_DATE_EPOCH": epoch}})
    return cases


def _run(cases: list[dict[str, Any]], tmp: Path) -> list[dict[str, Any]]:
    todo = tmp / "cases.json"
    todo.write_text(json.dumps(cases), encoding="utf-8")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "COLUMNS": "80"}
    env.pop("EXACTODDS_DEBUG", None)
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "run_cases.py"), str(todo), str(HANG_SECONDS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        preexec_fn=_limit_memory,
        env=env,
        cwd=tmp,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results: list[dict[str, Any]] = json.loads(proc.stdout)
    return results


@pytest.mark.slow
def test_hostile_corpus_gets_one_line_and_exit_2(tmp_path: Path) -> None:
    cases = _cases(tmp_path)
    assert len(cases) > 80
    results = _run(cases, tmp_path)
    bad = []
    for case, result in zip(cases, results, strict=True):
        err = result["stderr"]
        lines = err.splitlines()
        ok = (
            result["code"] == 2
            and err.endswith("\n")
            and len(lines) == 1
            and lines[0].startswith("exactodds: error: ")
            and len(lines[0]) <= 300
            and "Traceback" not in err
        )
        if not ok:
            shown = [a[:60] for a in case["argv"]]
            bad.append(f"{shown} {case.get('env', '')}: {result['code']} {err[:300]!r}")
    assert not bad, "\n".join(bad)
    leftovers = [p.name for p in tmp_path.iterdir() if p.suffix in (".png", ".svg")]
    assert leftovers == ["existing.png"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["validate", str(HOSTILE / "too-many-rows.toml")], "257 rows is over the limit of 256"),
        (["validate", str(HOSTILE / "rules-dotdot.toml")], "must be inside the paytable's folder"),
    ],
)
def test_console_script_refuses_with_one_line(argv: list[str], needle: str) -> None:
    """The real entry point (``python -m exactodds``), under the memory limit."""
    proc = subprocess.run(
        [sys.executable, "-m", "exactodds", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        preexec_fn=_limit_memory,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("exactodds: error: ") and proc.stderr.count("\n") == 1
    assert needle in proc.stderr and "Traceback" not in proc.stderr
