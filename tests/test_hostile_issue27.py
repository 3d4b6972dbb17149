"""Hostile streak and progressive bets (issue 27) through the command line: values that are
legal but extreme must give true figures or one line, never a traceback, a made-up number or
invalid JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import Cli

ALWAYS = """\
name = "Always"
decks = 1
[bets.tie]
rows = [ { when = "winner == tie", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
[bets.always]
streak = "banker.total >= 0"
max_streak = 2
rows = [ { when = "streak >= 2", pays = "3:1" }, { when = "otherwise", pays = "lose" } ]
"""
"""A streak condition that holds on every round, ended by max_streak: exactly 3:1 every time
with rounds independent; in dealt shoes never made (it is made after a round it fails)."""


def test_a_streak_bet_never_made_in_the_shoes_has_no_one_shoe_figures(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "always.toml"
    path.write_text(ALWAYS, encoding="utf-8")
    code, out, err = cli(["report", str(path), "--format", "json"])
    assert (code, err) == (0, "")
    (streak,) = json.loads(out, parse_constant=lambda c: 1 / 0)["streaks"]  # no Infinity
    # By hand: the streak is always 2, which pays 3 to 1: a return of 4 per unit.
    assert streak["independent"]["rtp"] == "4/1"
    one_shoe = streak["one_shoe"]
    assert (one_shoe["bets"], one_shoe["rtp"], one_shoe["range_99"]) == (0, None, None)
    assert one_shoe["covers_independent"] is None
    code, out, err = cli(["report", str(path), "--format", "md"])
    assert (code, err) == (0, "") and "No bet was made in the 2,000 shoes dealt" in out


def test_a_decimal_where_a_whole_number_belongs_is_quoted_as_written(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "float.toml"
    path.write_text(ALWAYS.replace("max_streak = 2", "max_streak = 2.50"), encoding="utf-8")
    code, out, err = cli(["validate", str(path)])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert line.endswith("max_streak must be a whole number from 1 to 100, not 2.5"), line


PROGRESSIVE = """\
name = "P"
decks = 1
[bets.p]
STAKE
progressive = { reset = 1000000000000, increment = "6%" }
rows = [
  { when = "player.pair and banker.pair", pays = "PAYS", event = "Both pairs" },
  { when = "otherwise", pays = "lose", event = "Other" },
]
"""


@pytest.mark.parametrize(
    ("stake", "pays", "shown"),
    [
        # 10^12 for 10^-27: a jackpot of 10^39 to 1 (the confidence ranges could not be rounded)
        ('stake = "0.000000000000000000000000001"', "jackpot", "at the reset meter"),
        ("stake = 1", "999999999999999999999999999999:1", "999999999999999999999999999999:1"),
        ("stake = 1", "1:0.000000000000000000000000001", "1:0.000000000000000000000000001"),
    ],
    ids=["jackpot", "ratio", "divisor"],
)
def test_a_payout_over_the_net_limit_is_refused_in_one_line(
    cli: Cli, tmp_path: Path, stake: str, pays: str, shown: str
) -> None:
    path = tmp_path / "p.toml"
    text = PROGRESSIVE.replace("STAKE", stake).replace("PAYS", pays)
    if "jackpot" not in pays:
        text = text.replace("progressive = {", "# {")
        text = text.replace(stake, "")
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(["report", str(path), "--format", "json"])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert "wins more than the limit of 1,000,000,000,000,000 to 1" in line and shown in line


def test_a_float_stake_is_refused_saying_how_to_write_it(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(PROGRESSIVE.replace("STAKE", "stake = 5.5").replace("PAYS", "jackpot"), "utf-8")
    code, out, err = cli(["validate", str(path)])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert line.endswith(
        "stake must be a whole number or a decimal in quotes like 25000 or "
        '"25000.50", not the float 5.5'
    ), line


def streaks_table(decks: int, bets: int) -> str:
    """A paytable of ``decks`` decks with ``bets`` streak bets and one round bet."""
    text = (
        f'decks = {decks}\n[bets.tie]\nrows = [ {{ when = "winner == tie", pays = "8:1" }}, '
        '{ when = "otherwise", pays = "lose" } ]\n'
    )
    for i in range(bets):
        text += (
            f'[bets.s{i}]\nstreak = "banker.wins"\nrows = [ {{ when = "streak >= 2", pays = '
            '"3:1" }, { when = "otherwise", pays = "lose" } ]\n'
        )
    return text


@pytest.mark.parametrize(
    ("decks", "bets", "argv", "budget"),
    [  # a sheet's one-shoe model deals 2,000 shoes: of 1,000 decks it took minutes and 9 GB
        (1000, 1, ["report", "--format", "json"], "fewer streak bets or decks"),
        (8, 40, ["report", "--format", "md"], "fewer streak bets or decks"),
        (8, 10, ["simulate", "--shoes", "100000"], "and playing 10 streak bets"),
    ],
    ids=["sheet-decks", "sheet-bets", "simulate"],
)
def test_streak_play_over_its_budget_is_refused_up_front(
    cli: Cli, tmp_path: Path, *, decks: int, bets: int, argv: list[str], budget: str
) -> None:
    path = tmp_path / "many.toml"
    path.write_text(streaks_table(decks, bets), encoding="utf-8")
    code, out, err = cli([argv[0], str(path), *argv[1:]])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert "would take about" in line and "over the budget of 30 s" in line, line
    assert budget in line, line


def test_report_bet_chooses_streak_bets_too(cli: Cli, tmp_path: Path) -> None:
    """``--bet`` names streak bets as it names round bets: the sheet shows those chosen; one
    never named is left out (it was shown, and simulated); a sheet of a streak bet alone is a
    sheet too (it was refused: "needs a bet settled on one round too")."""
    path = tmp_path / "two.toml"
    path.write_text(streaks_table(1, 2), encoding="utf-8")
    code, out, err = cli(["report", str(path), "--bet", "tie", "--bet", "s1", "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert ([b["id"] for b in data["bets"]], [s["id"] for s in data["streaks"]]) == (
        ["tie"],
        ["s1"],
    )
    code, out, err = cli(["report", str(path), "--bet", "s0", "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert ([b["id"] for b in data["bets"]], [s["id"] for s in data["streaks"]]) == ([], ["s0"])


ROUND = (
    '[bets.tie]\nrows = [ { when = "winner == tie", pays = "8:1" }, '
    '{ when = "otherwise", pays = "lose" } ]\n'
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [  # "$" also matches before a final newline: a quoted key "t\n" passed as a bet id
        (ROUND.replace("[bets.tie]", '[bets."t\\n"]'), "bet id 't\\n' must be lower-case"),
        (
            ROUND + '[bets."s\\n"]\nstreak = "banker.wins"\nrows = [ { when = "streak >= 2", '
            'pays = "3:1" }, { when = "otherwise", pays = "lose" } ]\n',
            "bet 's\\n': a bet id must be lower-case",  # its HTML page failed
        ),
        (
            '[bets.p]\nstake = 1\nprogressive = { "major\\n" = { reset = 100, increment = "1%" } '
            '}\nrows = [ { when = "winner == tie", pays = "major jackpot" }, { when = '
            '"otherwise", pays = "lose" } ]\n',
            "jackpot level 'major\\n' must be lower-case",
        ),
    ],
    ids=["round-bet", "streak-bet", "jackpot-level"],
)
def test_an_id_ending_in_a_newline_is_refused(
    cli: Cli, tmp_path: Path, text: str, shown: str
) -> None:
    path = tmp_path / "nl.toml"
    path.write_text("decks = 1\n" + text, encoding="utf-8")
    code, out, err = cli(["validate", str(path)])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert shown in line, line


def test_count_options_naming_a_streak_bet_say_it_is_one(cli: Cli, tmp_path: Path) -> None:
    """A streak bet in ``--tags`` or ``--trigger`` was 'unknown' (did you mean 'banker'?)."""
    path = tmp_path / "two.toml"
    path.write_text(streaks_table(1, 1), encoding="utf-8")
    tags = tmp_path / "tags.toml"
    tags.write_text("[s0]\nA = 1\n", encoding="utf-8")
    for option in (["--tags", str(tags)], ["--trigger", "s0=2"]):
        code, out, err = cli(["simulate", str(path), "--strategy", "count", *option])
        assert (code, out) == (2, "")
        (line,) = err.splitlines()
        assert "'s0' is a streak bet, staked at every chance whatever the strategy" in line
