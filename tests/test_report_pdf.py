"""PDF sheets (few tests: WeasyPrint takes seconds per document): the text pypdf extracts shows
every bet's house edge as the HTML sheet prints it, each bet starts a page, and every page
carries the name, SHA-256, date and page number; same inputs give the same bytes."""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from exactodds.cli import main
from exactodds.numbers import percent
from exactodds.report import Sheet, build_sheets, recorded_date, render_file, render_sheets
from exactodds.report.figures import PRECISION
from exactodds.report.generate import print_html
from exactodds.report.pdf import html_digest, pdf_stamp
from tests.cli_helpers import Cli
from tests.extras import need

ROOT = Path(__file__).resolve().parents[1]
PdfReader = need("pypdf", "test").PdfReader
pytestmark = pytest.mark.slow  # every test prints a sheet through weasyprint
need("weasyprint", "pdf")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Sheet, Path]:
    """classic's PDF written by the CLI, and the sheet it shows."""
    out = tmp_path_factory.mktemp("pdf")
    argv = ["report", "classic", "--format", "pdf", "--out", str(out), "--date", "2024-01-01"]
    with pytest.raises(SystemExit) as done:  # as the console script runs (no capsys here)
        main(argv)
    assert not done.value.code
    (sheet,) = build_sheets(["classic"], date="2024-01-01")
    return sheet, out / "classic.pdf"


def page_texts(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


def test_every_page_names_the_sheet_and_every_bet_is_shown(
    written: tuple[Sheet, Path],
) -> None:
    sheet, path = written
    pages = page_texts(path)
    sha = sheet.paytable.sha256
    assert sha is not None
    for n, text in enumerate(pages, 1):
        assert "Classic (commission) — math sheet" in text
        assert f"classic.toml SHA-256 {sha}" in text
        assert "2024-01-01 · exactodds" in text
        assert f"Page {n} of {len(pages)}" in text
    # each bet's section starts a page (the first one right after the Bets heading) and shows
    # the house edge the HTML sheet prints
    html = render_sheets([sheet], "html")
    starts = [t.split("\n", 1)[0] for t in pages]
    first, *others = sheet.bets
    own = {first.bet.id: pages[starts.index("Bets")]}
    own |= {b.bet.id: pages[starts.index(f"{b.bet.name} ({b.bet.id})")] for b in others}
    assert f"\n{first.bet.name} ({first.bet.id})\n" in own[first.bet.id]
    for b in sheet.bets:
        edge = f"House edge (pushes counted) {percent(b.figures.house_edge, PRECISION['percent'])}"
        assert edge in own[b.bet.id], b.bet.id
        field = f'<span data-bet="{b.bet.id}" data-figure="house_edge">'
        assert edge.replace("d) ", f'd)</td><td class="r">{field}') in html
        # the payouts print once, as text; the designer's controls not at all
        row = b.figures.rows[0]
        assert f"\n{row.event} {row.pays.text} " in own[b.bet.id] or b.notes[0], b.bet.id
    assert not any("Paytable designer" in t or "Reset" in t for t in pages)
    meta = PdfReader(path).metadata
    assert meta is not None
    assert (str(meta["/CreationDate"]), str(meta["/ModDate"])) == ("D:20240101", "D:20240101")
    stamp = pdf_stamp(path.read_bytes())
    printed = print_html(sheet)  # the sheet without the designer's script and data
    assert stamp is not None and stamp.html_sha256 == html_digest(printed)
    assert "<script" not in printed and "<script" in html
    assert recorded_date(path.read_bytes(), "pdf") == "2024-01-01"


def test_unchanged_pdf_is_not_printed_again(
    written: tuple[Sheet, Path], cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, path = written
    before = path.read_bytes()

    def refuse(html: str, date: str) -> bytes:
        raise AssertionError("printed again")

    monkeypatch.setattr("exactodds.report.pdf.render_pdf", refuse)
    argv = ["report", "classic", "--format", "pdf", "--out", str(path.parent)]
    code, out, _ = cli([*argv, "--date", "2024-01-01"])
    assert (code, out) == (0, f"{path}: unchanged\n")
    code, out, _ = cli(argv)  # today: only the date would differ
    assert (code, out, path.read_bytes()) == (0, f"{path}: unchanged\n", before)


PRINT = """
import sys, time
import weasyprint.pdf.fonts
from exactodds.report import build_sheets, render_file

# fontTools subsets, as without HarfBuzz-Subset 4.1: it stamps each font it saves with the time
weasyprint.pdf.fonts.harfbuzz_subset = None
later = float(sys.argv[1])
now = time.time
time.time = lambda: now() + later  # this process prints the sheet `later` seconds later
(sheet,) = build_sheets(["classic"], bet_ids=["tie"], date="2024-03-01")
sys.stdout.buffer.write(render_file(sheet, "pdf"))
"""


def print_in_a_process(hash_seed: int, later: float) -> bytes:
    """The tie sheet's PDF printed by a fresh Python process with this hash seed, its clock
    ``later`` seconds ahead, without SOURCE_DATE_EPOCH."""
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    path = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env |= {"PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": path}
    argv = [sys.executable, "-c", PRINT, str(later)]
    done = subprocess.run(argv, env=env, capture_output=True, check=True, timeout=300)
    return done.stdout


def test_same_sheet_same_bytes_in_any_process_at_any_time() -> None:
    """Two prints a second apart once differed inside a font stream (issue 24: offset 23,391
    under ``-n auto``): fontTools stamped the subset font with the time of saving. Each print
    here runs in its own process, with its own hash seed, a year apart on its clock."""
    first = print_in_a_process(1, 0)
    assert first.startswith(b"%PDF-")
    assert print_in_a_process(2, 366 * 86400) == first
    (sheet,) = build_sheets(["classic"], bet_ids=["tie"], date="2024-03-02")
    other = render_file(sheet, "pdf")  # in this process, with HarfBuzz-Subset where installed
    assert isinstance(other, bytes)
    meta = PdfReader(io.BytesIO(other)).metadata
    assert meta is not None and str(meta["/CreationDate"]) == "D:20240302"  # the sheet's date
    assert str(PdfReader(io.BytesIO(first)).metadata["/CreationDate"]) == "D:20240301"


MARGINS = 4
"""Lines every page prints in its margins: title, date, file and SHA-256, page number."""


def test_no_page_is_near_empty(written: tuple[Sheet, Path]) -> None:
    """The PDF wasted pages: one held a heading and a sentence (the paytable's table pushed to
    the next page whole), another was 70% blank. Every page but the last holds at least a
    quarter of the lines of a typical page, or a chart (a picture that text does not count)."""
    _, path = written
    lines = [len([x for x in t.splitlines() if x.strip()]) - MARGINS for t in page_texts(path)]
    typical = statistics.median(lines)
    for n, (count, text) in enumerate(zip(lines[:-1], page_texts(path), strict=False), 1):
        chart = "Return distribution of" in text
        assert count >= typical / 4 or chart, (n, count, typical, text[:200])
