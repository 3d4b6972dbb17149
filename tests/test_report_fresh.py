"""reports/ holds the sheets of every bundled paytable; this fails when one is stale.

Each sheet records the date it was generated. The real command regenerates every sheet into a
copy of reports/ with the date recorded in the committed file, so the test compares figures,
inputs (SHA-256) and software version, not the calendar, byte for byte, and names the stale
files. The bundled sheets carry the checks against :data:`BUNDLED_AGAINST`, which ``--all``
adds. Fix a failure with ``exactodds report --all --out reports/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from exactodds.bets.loader import bundled_paytables
from exactodds.cli import main
from exactodds.report import (
    COMPARISON_STEM,
    comparison_document,
    recorded_date,
)
from exactodds.report.html import render_html
from exactodds.report.markdown import MARKER, render_markdown

REPORTS = Path(__file__).resolve().parents[1] / "reports"
FIX = "stale; run: exactodds report --all --out reports/"


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_default_comparison_is_up_to_date(fmt: str) -> None:
    committed = REPORTS / f"{COMPARISON_STEM}.{fmt}"
    assert committed.is_file(), f"{committed} is missing; {FIX}"
    text = committed.read_text(encoding="utf-8")
    date = recorded_date(text, fmt)
    assert date is not None, f"{committed} records no date; {FIX}"
    render_doc = render_markdown if fmt == "md" else render_html
    assert render_doc(comparison_document(date)) == text, f"{committed} is {FIX}"


def test_no_sheet_without_a_paytable() -> None:
    stems = {p.stem for p in bundled_paytables()} | {COMPARISON_STEM}
    for committed in sorted(REPORTS.glob("*.*")):
        if committed.suffix in (".md", ".html") and MARKER in committed.read_text("utf-8")[:300]:
            assert committed.stem in stems, f"{committed} has no bundled paytable; delete it"


def test_regenerating_into_a_copy_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real command on a copy of reports/: every sheet is reported unchanged, byte for byte."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    copy = tmp_path / "reports"
    shutil.copytree(REPORTS, copy)
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "--all", "--out", str(copy)])
    assert exit_info.value.code in (0, None)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * len(bundled_paytables()) + 2
    stale = [line for line in lines if not line.endswith(": unchanged")]
    assert stale == [], FIX
    for committed in REPORTS.iterdir():
        assert (copy / committed.name).read_bytes() == committed.read_bytes()
