"""The docs site builds with Sphinx, warnings as errors, and its limits table is generated from
every limit of exactodds/limits.py (the docs' code blocks run in tests/test_readme.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from exactodds import limits
from tests.extras import need

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_docs_build_without_warnings(tmp_path: Path) -> None:
    need("sphinx", "docs")
    need("myst_parser", "docs")
    html = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", DOCS, html],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    limits_page = (tmp_path / "html" / "limits.html").read_text(encoding="utf-8")
    api = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    assert "MAX_FILE_BYTES" in limits_page and "1,048,576" in limits_page
    assert 'id="exactodds.bets.paytable.Paytable.with_payout"' in api


def test_the_limits_table_has_every_limit_with_its_value() -> None:
    need("docutils", "docs")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from exactodds_limits import limit_rows  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    rows = {name: (value, doc) for name, value, doc in limit_rows()}
    names = [n for n in limits.__all__ if n.startswith("MAX_")]
    assert sorted(rows) == sorted(names)
    for name in names:
        value, doc = rows[name]
        assert value == getattr(limits, name) and len(doc) > 10, name
