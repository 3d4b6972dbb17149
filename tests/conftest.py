"""Fixtures shared by the test files: the classic paytable and its compiled bets, the CLI run
in-process, a folder to write input files into, and headless Chromium pages for the HTML
sheets' script."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from tests.browser import Pages, chromium
from tests.cli_helpers import Cli, run

# No wall-clock assertion in tests (timing belongs to benchmarks/): hypothesis's per-example
# deadline would fail a test on a busy machine, so it is off for every property test.
settings.register_profile("exactodds", deadline=None)
settings.load_profile("exactodds")

WriteFile = Callable[[str, str], Path]
"""``write_file(name, text)``: the path of a new UTF-8 file in the test's own folder."""


@pytest.fixture(scope="session")
def classic() -> Paytable:
    """The bundled ``classic`` paytable: 8 decks, punto-banco, 14 bets (immutable, shared)."""
    return load_paytable("classic")


@pytest.fixture(scope="session")
def classic_evaluator(classic: Paytable) -> BatchEvaluator:
    """The classic bets compiled for the batch evaluator (a few seconds, once per session)."""
    return compile_bets(classic.bets, classic.tableau)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``cli(["report", "classic"])`` runs ``exactodds report classic`` in-process, as the
    console script does: exit code, stdout, stderr."""
    return lambda argv: run(argv, capsys)


@pytest.fixture
def write_file(tmp_path: Path) -> WriteFile:
    """Write input files (paytables, shoes, rules, profiles) into the test's folder."""

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium, one per test module (skipped without it, failed in CI)."""
    with chromium() as b:
        yield b


@pytest.fixture
def pages(browser: Any, tmp_path: Path) -> Iterator[Pages]:
    """Pages of one test; it fails on any console error, page error or CSP violation."""
    opened = Pages(browser, tmp_path)
    yield opened
    opened.close()
    assert opened.problems == []
