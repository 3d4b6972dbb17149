"""The process environment: closed, full or vanished standard streams, a file-size limit.

Each case of tests/data/hostile/environment/cases.toml runs ``exactodds`` in a real process with
its stdout or stderr set up as the case says, and checks the exit code and that stderr holds
at most one line (the error) and never a traceback, and that nothing lands on stdout when an
error was meant for stderr.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

CASES_FILE = Path(__file__).parent / "data" / "hostile" / "environment" / "cases.toml"
CASES: dict[str, dict[str, Any]] = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))
HANG_GUARD = 120  # seconds: only a hang would take this long


def _run_case(case: dict[str, Any], tmp_path: Path) -> tuple[int, bytes, bytes, Path | None]:
    """Run the case: exit code, what the test read of stdout and stderr, the stdout file."""
    closed: list[int] = []
    limits: list[tuple[int, int]] = []
    keep: list[int] = []
    out_file: Path | None = None
    stdout: Any = subprocess.PIPE
    stderr: Any = subprocess.PIPE
    kind = case.get("stdout", "pipe")
    if kind == "closed":
        stdout = subprocess.DEVNULL
        closed.append(1)
    elif kind == "full":
        stdout = open("/dev/full", "wb")  # noqa: SIM115 - closed below
        keep.append(stdout.fileno())
    elif kind == "gone":
        read, write = os.pipe()
        os.close(read)  # the reader went away before the first byte
        stdout = write
        keep.append(write)
    elif kind == "file":
        out_file = tmp_path / "out.txt"
        stdout = out_file.open("wb")
        keep.append(stdout.fileno())
        limits.append((resource.RLIMIT_FSIZE, int(case["fsize"])))
    if case.get("stderr") == "closed":
        stderr = subprocess.DEVNULL
        closed.append(2)

    def setup() -> None:
        for fd in closed:
            os.close(fd)
        for which, value in limits:
            resource.setrlimit(which, (value, value))

    try:
        proc = subprocess.run(
            [sys.executable, "-m", "exactodds", *case["args"]],
            stdout=stdout,
            stderr=stderr,
            preexec_fn=setup,
            timeout=HANG_GUARD,
            check=False,
        )
    finally:
        for fd in keep:
            os.close(fd)
    return proc.returncode, proc.stdout or b"", proc.stderr or b"", out_file


@pytest.mark.parametrize("name", sorted(CASES))
def test_environment_case(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    code, out, err, out_file = _run_case(case, tmp_path)
    assert code == case["code"], (code, err)
    assert b"Traceback" not in err and b"Traceback" not in out
    assert err.count(b"\n") <= 1
    if "err" in case:
        if case["err"]:
            assert err.startswith(b"exactodds: error: ") and case["err"].encode() in err, err
        else:
            assert err == b""
    if "out" in case:
        want = case["out"].encode()
        assert out.startswith(want) if want else out == b"", out[:200]
    if out_file is not None:
        assert out_file.stat().st_size <= case["fsize"]


def test_closed_stdin_is_not_reused(tmp_path: Path) -> None:
    """With stdin closed, a file the command opens does not become descriptor 0 unnoticed:
    the command runs as usual."""
    proc = subprocess.run(
        [sys.executable, "-m", "exactodds", "validate", "examples/my-game.toml"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        preexec_fn=lambda: os.close(0),
        timeout=HANG_GUARD,
        cwd=Path(__file__).parent.parent,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_no_writable_cache_location_means_no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a read-only install and no writable home, numba refuses ``cache=True`` ("no
    locator available"): the kernel's decorator then compiles without a disk cache instead
    of failing (checked by hand under a read-only bind mount), and every compiled function
    of the kernel goes through that decorator."""
    numba = pytest.importorskip("numba")
    from exactodds.analysis import _numba_kernel as kernel

    real = numba.njit

    def njit(*args: Any, **options: Any) -> Any:
        if options.get("cache"):
            raise RuntimeError("cannot cache function 'f': no locator available for file 'x'")
        return real(*args, **options)

    def twice(x: int) -> int:
        return 2 * x

    monkeypatch.setattr(numba, "njit", njit)
    double = kernel._jit()(twice)  # no signature: compiled lazily, at the call
    assert double(21) == 42
    source = Path(kernel.__file__).read_text(encoding="utf-8")
    assert source.count("numba.njit(") == 2  # both inside _jit: with and without the cache
