"""Running the CLI in-process the way the console script does."""

from __future__ import annotations

import pytest

from exactodds.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``exactodds ARGV``: exit code, stdout, stderr."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
