"""``exactodds game``: the chemin de fer and Baccarat Gold commands, their formats and refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.cli_helpers import Cli


def test_chemin_de_fer_markdown_shows_value_and_strategies(cli: Cli) -> None:
    code, out, err = cli(
        ["game", "chemin-de-fer", "--model", "kemeny-snell", "--rules", "free-everywhere"]
    )
    assert code == 0, err
    assert "-679568/53094899" in out
    assert "| 5      | 9/11 (81.8182%) |" in out
    assert "| 6             | stood                 | 859/2288 (37.5437%) |" in out


def test_chemin_de_fer_json_has_exact_strings_and_a_commission(cli: Cli) -> None:
    code, out, err = cli(
        ["game", "chemin-de-fer", "-m", "kemeny-snell", "--commission", "5%", "-f", "json"]
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["value"] == "-679568/53094899" and data["unique"] is True
    assert data["player"] == [{"hand": "5", "draw": "9/11"}]
    (eq,) = data["commission"]["equilibria"]
    assert data["commission"]["rate"] == "1/20" and eq["player_draw"] == "179/214"
    assert Fraction(eq["banker_profit"]) < 0


def test_chemin_de_fer_compares_deck_counts(cli: Cli) -> None:
    code, out, err = cli(
        ["game", "chemin-de-fer", "-m", "kemeny-snell", "-d", "1,inf", "-f", "json"]
    )
    assert code == 0, err
    rows = json.loads(out)["comparison"]
    assert [r["shoe"] for r in rows] == ["1 deck (52 cards), with replacement", "infinite shoe"]
    assert rows[1]["value"] == "-679568/53094899"  # the limit: with replacement


def test_chemin_de_fer_html_page_is_escaped_and_written(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "r.toml"
    rules.write_text('name = "<b>x</b>"\nplayer_free = [5]\nbanker_free = { 6 = ["stood"] }\n')
    code, _, err = cli(
        [
            "game",
            "chemin-de-fer",
            "-m",
            "kemeny-snell",
            "--rules",
            str(rules),
            "-f",
            "html",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0, err
    page = (tmp_path / "chemin-de-fer.html").read_text()
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert 'class="free" style="background: hsl(' in page and "859/2288" in page
    code, _, err = cli(
        ["game", "chemin-de-fer", "-m", "kemeny-snell", "--out", str(tmp_path), "-f", "html"]
    )
    assert code == 2 and "already exists" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "downton-lockwod"], "did you mean 'downton-lockwood'?"),
        (["--rules", "tradition"], "did you mean 'traditional'?"),
        (["--decks", "0"], "--decks: '0' is not a number of decks"),
        (["--decks", "1-99"], "at most 12 shoes"),
        (["--commission", "lots"], "--commission: 'lots' is not a rate"),
        (["--model", "ethier-gamez", "--commission", "5%"], "one per pair of cards: use kemeny"),
        (["--decks", "inf", "--remove", "5"], "an infinite shoe has no cards to remove"),
        (["--format", "csv"], "'csv' is not one of"),
    ],
)
def test_chemin_de_fer_refuses_in_one_line(cli: Cli, args: list[str], message: str) -> None:
    code, out, err = cli(["game", "chemin-de-fer", *args])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_rules_file_naming_a_cell_that_does_not_exist(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "r.toml"
    rules.write_text('banker_free = { 3 = [9, "stod"] }\n')
    code, _, err = cli(["game", "chemin-de-fer", "--rules", str(rules)])
    assert code == 2 and "there is no cell 'stod'" in err
