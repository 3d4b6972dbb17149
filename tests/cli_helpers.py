"""Running the CLI in-process the way the console script does (the ``cli`` fixture of
``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from exactodds.cli import main

Cli = Callable[[list[str]], tuple[int, str, str]]
"""``cli(argv)``: run ``exactodds ARGV``; exit code, stdout, stderr."""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``exactodds ARGV``: exit code, stdout, stderr."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
