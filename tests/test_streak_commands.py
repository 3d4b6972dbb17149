"""Streak bets in the commands that read single rounds (issue 27): a streak bet named with
``--bet`` is refused in one line, and a whole paytable holding them gets one line saying they
are left out, never a traceback or a silent figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import Cli

NAMED = [
    ["eor", "banker-streak", "--decks", "1", "--bet", "banker_streak"],
    ["solve", "banker-streak", "--bet", "banker_streak", "--event", "4", "-t", "5%"],
    ["session", "banker-streak", "--bet", "banker_streak_2", "--rounds", "10"],
]

# One round bet beside two streak bets: the commands' own work stays small.
TABLE = """\
name = "Streaks"
decks = 1
[bets.banker]
rows = [ { when = "banker.wins", pays = "0.95:1" }, { when = "winner == tie", pays = "push" },
         { when = "otherwise", pays = "lose" } ]
[bets.streak_a]
streak = "banker.wins"
rows = [ { when = "streak >= 4", pays = "10:1" }, { when = "otherwise", pays = "lose" } ]
[bets.streak_b]
streak = "player.wins"
max_streak = 3
rows = [ { when = "streak >= 3", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
"""

WHOLE = [
    ["eor", "T"],
    ["compare", "T", "--decks", "1,2"],
]


@pytest.mark.parametrize("argv", NAMED, ids=lambda a: a[0])
def test_a_streak_bet_named_is_refused_in_one_line(cli: Cli, argv: list[str]) -> None:
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    (line,) = err.strip().splitlines()
    assert line.startswith("exactodds: error: --bet: ") and "is a streak bet" in line, line


@pytest.mark.parametrize("argv", WHOLE, ids=lambda a: a[0])
def test_a_whole_paytable_says_its_streak_bets_are_left_out(
    cli: Cli, tmp_path: Path, argv: list[str]
) -> None:
    path = tmp_path / "streaks.toml"
    path.write_text(TABLE, encoding="utf-8")
    code, out, err = cli([str(path) if a == "T" else a for a in argv])
    assert code == 0 and "anker" in out, err
    notes = [line for line in err.splitlines() if "streak" in line]
    command = argv[0]
    assert notes == [
        f"exactodds: note: {command} leaves out the streak bets of {path} (streak_a, "
        "streak_b): they run over several rounds; exactodds simulate and exactodds report play "
        "them"
    ]
    assert "streak_a" not in out and "streak_b" not in out  # no streak bet's figures


def test_eor_of_named_bets_keeps_their_figures(cli: Cli) -> None:
    code, named, err = cli(["eor", "banker-streak", "--decks", "1", "--bet", "tie", "--format",
                            "json"])  # fmt: skip
    assert (code, err) == (0, "")
    code, whole, _ = cli(["eor", "banker-streak", "--decks", "1", "--format", "json"])
    one, every = json.loads(named), json.loads(whole)
    assert list(one["eor"]) == ["tie"] and list(every["eor"]) == ["player", "banker", "tie"]
    assert (one["ev"]["tie"], one["eor"]["tie"]) == (every["ev"]["tie"], every["eor"]["tie"])


def test_a_misspelt_streak_bet_is_suggested(cli: Cli) -> None:
    """The suggestion is the closest of every bet id, streak bets included (it was 'banker')."""
    code, out, err = cli(["eor", "banker-streak", "--bet", "banker_streek"])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.rstrip().endswith("did you mean 'banker_streak'?"), err
