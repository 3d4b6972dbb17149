"""The docs site builds with Sphinx, warnings as errors, and its limits table is generated from
every limit of exactodds/limits.py (the docs' code blocks run in tests/test_readme.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from exactodds import limits
from tests.browser import chromium
from tests.extras import need

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs built once for this module: Sphinx's output folder, or the test fails."""
    need("sphinx", "docs")
    need("myst_parser", "docs")
    html = tmp_path_factory.mktemp("docs") / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", DOCS, html],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return html


def test_the_docs_build_without_warnings(site: Path) -> None:
    limits_page = (site / "limits.html").read_text(encoding="utf-8")
    api = (site / "api.html").read_text(encoding="utf-8")
    assert "MAX_FILE_BYTES" in limits_page and "1,048,576" in limits_page
    assert 'id="exactodds.bets.paytable.Paytable.with_payout"' in api


WIDE = """() => {
  const wide = [...document.querySelectorAll('pre')].filter((p) => p.scrollWidth > p.clientWidth);
  return {
    page: document.documentElement.scrollWidth,
    wide: wide.map((p) => [getComputedStyle(p).whiteSpace, p.textContent]),
  };
}"""


def test_wide_output_scrolls_inside_its_block(site: Path) -> None:
    """Issue 32: the tutorial's compare table wrapped mid-row (and a wrapped ``# comment``
    looked like a command): at 1,280 px its block scrolls sideways, its rows whole, and the
    page itself does not."""
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto((site / "tutorial.html").as_uri())
            shown = page.evaluate(WIDE)
        finally:
            context.close()
    assert shown["page"] <= 1280
    tables = [text for _, text in shown["wide"] if "| Drawing rules" in text]
    assert len(tables) == 1 and {space for space, _ in shown["wide"]} == {"pre"}


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
