"""Run many ``exactodds`` command lines in one process, each timed and with its own stderr.

Used by tests/test_hostile.py in a subprocess under an address-space limit: reads a JSON list of
``{"argv": [...], "env": {...}}`` from the file named on the command line and prints a JSON list
of ``{"code", "stderr", "stdout_chars", "seconds"}``. A case still running after ``--alarm``
seconds is stopped and reported with code -1.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import time
from types import FrameType
from typing import Any


class _Alarm(BaseException):
    """Raised in a case that runs too long (a BaseException: the CLI must not catch it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Alarm


def run_cases(cases: list[dict[str, Any]], alarm: int) -> list[dict[str, Any]]:
    from exactodds.cli import run

    signal.signal(signal.SIGALRM, _alarm)
    results = []
    for case in cases:
        saved = dict(os.environ)
        os.environ.update(case.get("env", {}))
        out, err = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        signal.alarm(alarm)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = run(case["argv"])
        except _Alarm:
            code = -1
        finally:
            signal.alarm(0)
            os.environ.clear()
            os.environ.update(saved)
        results.append(
            {
                "code": code,
                "stderr": err.getvalue(),
                "stdout_chars": len(out.getvalue()),
                "seconds": time.perf_counter() - start,
            }
        )
    return results


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        todo = json.load(handle)
    print(json.dumps(run_cases(todo, int(sys.argv[2]) if len(sys.argv) > 2 else 10)))
