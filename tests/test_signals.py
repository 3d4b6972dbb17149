"""Signals through real processes: SIGTERM and SIGHUP end a command as Ctrl-C does (one line,
exit 128 + the signal), no worker outlives the command, and no temporary file is left.

The tests wait for what they need to see (worker processes started) by polling the process
table, never by sleeping a guessed time; timeouts are generous hang guards only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.extras import need

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process table from /proc"
)

HANG_GUARD = 120.0
ROOT = Path(__file__).parent.parent
SIMULATE = ["simulate", "classic", "--shoes", "100000", "--seed", "1", "--budget", "1000"]


def _group(pgid: int) -> set[int]:
    """Process ids of the live (not zombie) processes of process group ``pgid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.add(int(entry.name))
    return found


def _wait_for(
    condition: Callable[[], bool], what: str, proc: subprocess.Popen[bytes] | None = None
) -> None:
    """Poll ``condition`` until it holds; fail when ``proc`` ended first or on the hang guard."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"{what}: the command ended first ({proc.stderr and proc.stderr.read()!r})")
        if time.monotonic() > deadline:
            pytest.fail(f"hang guard: {what}")
        time.sleep(0.05)


def _start(args: list[str], *prefix: str) -> subprocess.Popen[bytes]:
    """The command ``args`` (after ``prefix``, e.g. ``-c HOOK``) in its own process group: its
    workers are found by it. Ctrl-C is at its default there however the tests were started: a
    job a non-interactive shell puts in the background inherits SIGINT ignored, and Python
    then leaves it ignored (a command rightly does not answer a Ctrl-C it cannot get). A
    Python handler here is reset to the default by the exec; an ignored signal would not be."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [sys.executable, *(prefix or ("-m", "exactodds")), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=ROOT,
        )
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signal_stops_workers_with_one_line(sig: signal.Signals) -> None:
    proc = _start([*SIMULATE, "--workers", "2"])
    try:
        _wait_for(lambda: len(_group(proc.pid) - {proc.pid}) >= 2, "workers never started", proc)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
    name = "interrupted" if sig == signal.SIGINT else f"terminated by {sig.name}"
    assert err.decode() == f"exactodds: error: {name}\n"
    assert proc.returncode == 128 + sig
    _wait_for(lambda: not _group(proc.pid), "a worker outlived the command")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_just_after_a_workers_fork_ends_the_command(sig: signal.Signals) -> None:
    """The signal lands right after the second worker is forked, before the pool has it in
    its table (the process sends it to itself from inside the start, so the moment is
    certain): one line, no hang, no worker left. It hung after its line: the interpreter
    joined at exit a worker that only multiprocessing knew, waiting for work."""
    hook = (
        "import os, signal, sys\n"
        "import multiprocessing.process as mp\n"
        "real, started = mp.BaseProcess.start, []\n"
        "def start(self):\n"
        "    real(self)\n"
        "    started.append(self)\n"
        f"    if len(started) == 2: os.kill(os.getpid(), {int(sig)})\n"
        "mp.BaseProcess.start = start\n"
        "from exactodds.cli import main\n"
        "sys.argv[0] = 'exactodds'\n"
        "main()\n"
    )
    proc = _start([*SIMULATE, "--workers", "2"], "-c", hook)
    try:
        _, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
    name = "interrupted" if sig == signal.SIGINT else f"terminated by {sig.name}"
    assert err.decode() == f"exactodds: error: {name}\n"
    assert proc.returncode == 128 + sig
    _wait_for(lambda: not _group(proc.pid), "a worker outlived the command")


def test_workers_die_with_a_killed_parent() -> None:
    """SIGKILL cannot be caught: the workers end by the parent-death signal they asked for."""
    proc = _start([*SIMULATE, "--workers", "2"])
    try:
        _wait_for(lambda: len(_group(proc.pid) - {proc.pid}) >= 2, "workers never started", proc)
        proc.kill()
        proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
    _wait_for(lambda: not _group(proc.pid), "a worker outlived its killed parent")


def test_ctrl_c_with_dask_gives_one_line() -> None:
    """Ctrl-C reaches the whole process group (as from a terminal): the Dask workers stay
    quiet and the command prints one line."""
    need("distributed", "dask")
    proc = _start([*SIMULATE, "--workers", "2", "--backend", "dask"])
    try:
        _wait_for(lambda: len(_group(proc.pid) - {proc.pid}) >= 2, "workers never started", proc)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert err.decode() == "exactodds: error: interrupted\n"
    assert proc.returncode == 130
    _wait_for(lambda: not _group(proc.pid), "a Dask worker outlived the command")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_during_a_write_leaves_no_temporary_file(
    sig: signal.Signals, tmp_path: Path
) -> None:
    """The signal arrives while a sheet is being written (the process sends it to itself
    from inside the write, so the moment is certain): the temporary file is removed."""
    hook = (
        "import os, signal, sys\n"
        "real = os.fsync\n"
        f"os.fsync = lambda fd: (os.kill(os.getpid(), {int(sig)}), real(fd))\n"
        "from exactodds.cli import main\n"
        "sys.argv[0] = 'exactodds'\n"
        "main()\n"
    )
    out = tmp_path / "sheets"
    proc = subprocess.run(
        [sys.executable, "-c", hook, "report", "mini", "--out", str(out)],
        capture_output=True,
        timeout=HANG_GUARD,
        cwd=ROOT,
        check=False,
    )
    assert proc.stderr.decode() == f"exactodds: error: terminated by {sig.name}\n"
    assert proc.returncode == 128 + sig
    assert [p.name for p in out.iterdir()] == []
