"""``--bet ID`` on simulate, montecarlo, compare and check (issue 32): only the bets named, with
the figures they have in the whole paytable, so one heavy bet does not hold up the rest; an
unknown id is suggested, a streak bet named where rounds are read one by one refused, in one
line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import Cli

TABLE = """\
name = "Streaks"
decks = 1
[bets.banker]
rows = [ { when = "banker.wins", pays = "0.95:1" }, { when = "winner == tie", pays = "push" },
         { when = "otherwise", pays = "lose" } ]
[bets.tie]
rows = [ { when = "winner == tie", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
[bets.streak_a]
streak = "banker.wins"
rows = [ { when = "streak >= 4", pays = "10:1" }, { when = "otherwise", pays = "lose" } ]
[bets.streak_b]
streak = "player.wins"
max_streak = 3
rows = [ { when = "streak >= 3", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
"""


def test_check_judges_only_the_bets_named(cli: Cli) -> None:
    argv = ["check", "banker-streak", "--against", "mga", "--format", "json"]
    code, whole, _ = cli(argv)
    code, named, err = cli([*argv, "--bet", "banker_streak", "--bet", "tie"])
    assert (code, err) == (0, "")
    checks = json.loads(named)["checks"]
    assert [(k["rule"], k["bet"]) for k in checks] == [
        ("min_rtp", "tie"),
        ("min_rtp", "banker_streak"),
        ("max_rtp", "tie"),
        ("max_rtp", "banker_streak"),
    ]
    assert all(k in json.loads(whole)["checks"] for k in checks)  # the same checks


def test_simulate_of_named_bets_gives_their_figures_in_the_whole_run(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TABLE, encoding="utf-8")
    argv = ["simulate", str(path), "--shoes", "2", "--seed", "3", "--format", "json"]
    code, whole, err = cli(argv)
    assert code == 0, err
    code, named, err = cli([*argv, "--bet", "streak_a", "--bet", "tie"])
    assert code == 0, err
    one, every = json.loads(named), json.loads(whole)
    assert list(one["bets"]) == ["tie"] and list(one["streaks"]) == ["streak_a"]
    assert list(every["bets"]) == ["banker", "tie"] and len(every["streaks"]) == 2
    assert one["bets"]["tie"] == every["bets"]["tie"]
    assert one["streaks"]["streak_a"] == every["streaks"]["streak_a"]


def test_montecarlo_of_named_bets(cli: Cli) -> None:
    argv = ["montecarlo", "punto-banco", "--decks", "1", "--rounds", "1000", "-f", "json"]
    code, whole, err = cli(argv)
    assert code == 0, err
    code, named, err = cli([*argv, "--bet", "tie"])
    assert code == 0, err
    one, every = json.loads(named), json.loads(whole)
    assert list(one["bets"]) == ["tie"] and one["bets"]["tie"] == every["bets"]["tie"]


def test_compare_of_named_bets(cli: Cli) -> None:
    argv = ["compare", "classic", "--decks", "1,2", "--format", "json"]
    code, whole, err = cli(argv)
    assert code == 0, err
    code, named, err = cli([*argv, "--bet", "tie", "--bet", "banker"])
    assert code == 0, err
    for one, every in zip(
        json.loads(named)["variants"], json.loads(whole)["variants"], strict=True
    ):
        assert one["house_edge"] == {k: every["house_edge"][k] for k in ("tie", "banker")}
    code, page, _ = cli([*argv[:-2], "--bet", "tie", "--format", "html"])
    assert "exactodds compare classic --decks 1,2 --bet tie --format html" in page  # its rerun


@pytest.mark.parametrize("command", ["simulate", "montecarlo", "compare", "check"])
def test_an_unknown_bet_is_suggested_in_one_line(cli: Cli, command: str) -> None:
    extra = ["--against", "mga"] if command == "check" else []
    code, out, err = cli([command, "banker-streak", "--bet", "banker_streek", *extra])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.startswith("exactodds: error: --bet: ") and "did you mean 'banker_streak'?" in err


@pytest.mark.parametrize("command", ["montecarlo"])  # compare takes it: tests/test_every_bet.py
def test_a_streak_bet_named_where_rounds_are_read_one_by_one_is_refused(
    cli: Cli, command: str
) -> None:
    code, out, err = cli([command, "banker-streak", "--bet", "banker_streak"])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.startswith("exactodds: error: --bet: ") and "is a streak bet" in err
