"""``exactodds report`` as a user runs it: output, files, dates, errors."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.game import GameChoice
from exactodds.report import build_sheets, plan_files, recorded_date, render_sheets, write_atomic
from tests.cli_helpers import Cli
from tests.markdown_cells import has_cells


def test_default_is_the_eight_deck_classic_sheet(cli: Cli) -> None:
    code, out, err = cli(["report", "--date", "2024-06-01"])
    assert (code, err) == (0, "")
    assert "# Classic (commission) — math sheet" in out
    assert "4,998,398,275,503,360" in out
    assert has_cells(out, "Banker (`banker`)", "1.0579%")  # docs/rules.md §9
    assert has_cells(out, "Player (`player`)", "1.2351%")


def test_json_output_shape(cli: Cli) -> None:
    code, out, _ = cli(["report", "classic", "--format", "json", "--bet", "banker"])
    data = json.loads(out)
    assert code == 0 and data["file"] == "paytables/classic.toml"
    (banker,) = data["bets"]
    assert Fraction(banker["house_edge"]) == Fraction(114753351728, 10847218479825)
    assert sum(r["combinations"] for r in banker["rows"]) == 4_998_398_275_503_360


def test_overrides_change_the_game(cli: Cli) -> None:
    code, out, _ = cli(
        ["report", "classic", "-f", "json", "-d", "6", "-r", "6 6 7h Kd", "--rules", "mini"]
    )
    data = json.loads(out)
    assert code == 0
    assert data["shoe"]["description"] == "6 decks less 6c 6d 7h Kd (308 cards)"
    assert data["rules"]["name"] == "mini"
    assert data["universe"] == 308 * 307 * 306 * 305 * 304 * 303


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["report", "no-such-paytable"], "no-such-paytable: file not found"),
        (["report", "missing/game.toml"], "missing/game.toml: file not found"),
        (["report", "--bet", "nope"], "unknown bet id 'nope'"),
        (["report", "--remove", "7x"], "unknown suit 'x' in card '7x'"),
        (["report", "--remove", "Zh"], "unknown rank 'Z'"),
        (["report", "--rules", "nonsense"], "unknown rules 'nonsense'"),
        (["report", "--format", "docx"], "--format: 'docx' is not one of 'md', 'html'"),
        (["report", "--date", "2024-02-30"], "--date '2024-02-30' is not a date"),
        (["report", "--all", "classic"], "PAYTABLE names or --all, not both"),
    ],
)
def test_errors_are_one_line_and_exit_2(args: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("exactodds: error: ")
    assert needle in err
    assert "Traceback" not in err


def test_bad_paytable_file_is_refused(tmp_path: Path, cli: Cli) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[bets.a]\nrows = [{ when = "player.wins", pays = "1:1" }]\n')
    code, _, err = cli(["report", str(bad)])
    assert code == 2 and "otherwise" in err and "Traceback" not in err


def test_help_shows_a_real_example(cli: Cli) -> None:
    code, out, _ = cli(["report", "--help"])
    assert code == 0
    assert "exactodds report --all --out reports/" in out
    assert "--date" in out and "--format" in out


def test_out_writes_md_and_html_and_keeps_dates(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    code, out, _ = cli(["report", "classic", "--out", str(tmp_path), "--date", "2024-01-01"])
    assert code == 0 and out.count("written") == 2
    md = (tmp_path / "classic.md").read_text(encoding="utf-8")
    assert recorded_date(md, "md") == "2024-01-01"
    assert recorded_date((tmp_path / "classic.html").read_text(encoding="utf-8"), "html") == (
        "2024-01-01"
    )
    # Without --date the content is unchanged, so the files (and their dates) stay as they are.
    code, out, _ = cli(["report", "classic", "--out", str(tmp_path)])
    assert code == 0 and out.count("unchanged") == 2
    assert (tmp_path / "classic.md").read_text(encoding="utf-8") == md
    # A changed game is rewritten with today's date.
    code, out, _ = cli(["report", "classic", "--out", str(tmp_path), "-d", "6"])
    assert code == 0 and out.count("written") == 2
    assert recorded_date((tmp_path / "classic.md").read_text(encoding="utf-8"), "md") != (
        "2024-01-01"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic.html", "classic.md"]


@pytest.mark.parametrize("fmt", ["csv", "md", "html", "json"])
def test_rewriting_a_text_sheet_gives_the_same_bytes(
    fmt: str, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CSV sheets end lines with CRLF (RFC 4180); an old sheet is compared byte for byte (no
    newline translation), so an unchanged CSV is left alone and keeps its date as others do."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    argv = ["report", "classic", "--bet", "tie", "--format", fmt, "--out", str(tmp_path)]
    path = tmp_path / f"classic.{fmt}"
    assert cli([*argv, "--date", "2024-01-01"])[:2] == (0, f"{path}: written\n")
    first = path.read_bytes()
    lines = first.count(b"\n")
    assert lines > 5 and first.count(b"\r\n") == (lines if fmt == "csv" else 0)
    assert cli([*argv, "--date", "2024-01-01", "--force"])[:2] == (0, f"{path}: written\n")
    assert path.read_bytes() == first
    # Without --date (today), only the date would differ: the file is left as it is.
    assert cli([*argv, "--force"])[:2] == (0, f"{path}: unchanged\n")
    assert path.read_bytes() == first
    path.write_bytes(b"\xff\xfe not UTF-8")  # not a sheet of ours: replaced with --force
    assert cli([*argv, "--force"])[:2] == (0, f"{path}: written\n")
    assert recorded_date(path.read_bytes().decode("utf-8"), fmt) not in (None, "2024-01-01")


def test_source_date_epoch_fixes_the_date(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    code, out, _ = cli(["report", "classic", "-f", "json", "-b", "player"])
    assert code == 0 and json.loads(out)["date"] == "2023-11-14"


@pytest.mark.parametrize("fmt", ["md", "html", "csv", "json"])
def test_recorded_date_round_trips(fmt: str) -> None:
    (sheet,) = build_sheets(
        ["classic"], game=GameChoice(decks=1), bet_ids=["player"], date="2023-03-04"
    )
    assert recorded_date(render_sheets([sheet], fmt), fmt) == "2023-03-04"


def test_nothing_half_written_when_a_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "sheet.md"
    target.write_text("old\n", encoding="utf-8")

    def fail(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        write_atomic(target, "new\n" * 1000)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.md"]


def test_an_error_while_computing_writes_nothing(tmp_path: Path, cli: Cli) -> None:
    code, _, _ = cli(["report", "classic", "nope", "--out", str(tmp_path)])
    assert code == 2 and list(tmp_path.iterdir()) == []


def test_plan_refuses_two_paytables_with_one_name(tmp_path: Path) -> None:
    other = tmp_path / "x" / "classic.toml"
    other.parent.mkdir()
    other.write_text(
        Path(build_sheets(["classic"], game=GameChoice(decks=1))[0].paytable.path or "").read_text()
    )
    sheets = build_sheets(["classic", str(other)], game=GameChoice(decks=1), bet_ids=["player"])
    from exactodds.errors import ExactOddsError

    with pytest.raises(ExactOddsError, match="would both be written as classic"):
        plan_files(sheets, ["md"], tmp_path)
