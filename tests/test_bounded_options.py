"""Numbers in options are bounded like numbers in files, and outputs take any file name and
refuse dates their format cannot record: all checked before any work, through the CLI."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from exactodds.limits import MAX_DIGITS, MAX_XLSX_YEAR
from tests.cli_helpers import Cli
from tests.extras import need

PAYTABLES = Path(__file__).parent.parent / "paytables"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["simulate", "classic", "--strategy", "count", "--trigger", "tie=1e99999999"],
            "--trigger 'tie=1e99999999': the true count must be a number",
        ),
        (
            ["simulate", "classic", "--strategy", "count", "--trigger", "tie=" + "7" * 31],
            "the true count must be a number",
        ),
        (["simulate", "classic", "--shoes", "1" * 40], f"more than {MAX_DIGITS} digits"),
        (["simulate", "classic", f"--seed={'9' * 5000}"], f"more than {MAX_DIGITS} digits"),
        (["report", "--monte-carlo-rounds", "9" * 31], f"more than {MAX_DIGITS} digits"),
        (["odds", "-d", "1" * 31], f"-d: '{'1' * 31}' has more than {MAX_DIGITS} digits"),
    ],
)
def test_numbers_in_options_are_bounded(args: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and needle in err, err


def test_a_trigger_within_the_digits_is_read_exactly() -> None:
    from exactodds.analysis.count import parse_triggers

    got = parse_triggers(["tie=-12.5", "player=+1/3"], ["tie", "player"])
    assert {k: str(v) for k, v in got.items()} == {"tie": "-25/2", "player": "1/3"}


def test_xlsx_dates_after_its_range_are_refused_up_front(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("openpyxl", "xlsx")
    out = tmp_path / "sheets"
    code, _, err = cli(
        ["report", "mini", "--format", "xlsx", "--out", str(out), "--date", "2108-01-01"]
    )
    assert code == 2 and f"up to {MAX_XLSX_YEAR}-12-31" in err and "--date '2108-01-01'" in err
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "5000000000")  # 2128-06-11
    code, _, err = cli(["report", "mini", "--format", "xlsx", "--out", str(out)])
    assert code == 2 and "SOURCE_DATE_EPOCH (the date 2128-06-11)" in err
    assert not out.exists()  # refused before anything was made
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    code, _, err = cli(
        ["report", "mini", "--format", "xlsx", "--out", str(out), "--date", "2107-12-31"]
    )
    assert code == 0, err


@pytest.mark.skipif(os.name != "posix", reason="file names as bytes")
def test_a_file_name_that_is_not_utf8_is_written_as_given_and_printed_escaped(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = os.fsdecode(b"b\xffad.toml")  # the name as Python sees it: a surrogate escape
    try:
        shutil.copy(PAYTABLES / "mini.toml", tmp_path / raw)
    except (UnicodeEncodeError, OSError):
        pytest.skip("this file system refuses the name")
    monkeypatch.chdir(tmp_path)
    for fmt in ([], ["--format", "csv"], ["--format", "json"]):
        code, out, err = cli(["report", raw, "--out", "out", *fmt])
        assert code == 0, err
        assert "b\\udcffad." in out and "\udcff" not in out
    names = sorted(os.listdir(b"out"))
    assert names == [b"b\xffad" + ext for ext in (b".csv", b".html", b".json", b".md")]
    for name in names:
        text = (tmp_path / "out" / os.fsdecode(name)).read_bytes().decode("utf-8")  # valid UTF-8
        assert "b\\udcffad" in text or "b\\\\udcffad" in text
    code, out, _ = cli(["report", raw, "--out", "out"])  # a rerun recognises its own sheets
    assert code == 0 and out.count("unchanged") == 2
