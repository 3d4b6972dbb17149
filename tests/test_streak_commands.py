"""Streak bets in the commands that read single rounds (issue 27): a streak bet named with
``--bet`` is refused in one line, and a whole paytable holding them gets one line saying they
are left out, never a traceback or a silent figure."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import Cli

NAMED = [  # eor computes a streak bet's EOR (issue 32): tests/test_every_bet.py
    ["solve", "banker-streak", "--bet", "banker_streak", "--event", "4", "-t", "5%"],
    ["session", "banker-streak", "--bet", "banker_streak_2", "--rounds", "10"],
]

# eor and compare list streak bets (issue 32): below and tests/test_every_bet.py; the commands
# that still leave them out say so in their output (tests/test_left_out.py).


@pytest.mark.parametrize("argv", NAMED, ids=lambda a: a[0])
def test_a_streak_bet_named_is_refused_in_one_line(cli: Cli, argv: list[str]) -> None:
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    (line,) = err.strip().splitlines()
    assert line.startswith("exactodds: error: --bet: ") and "is a streak bet" in line, line


def test_eor_of_named_bets_keeps_their_figures(cli: Cli) -> None:
    code, named, err = cli(["eor", "banker-streak", "--decks", "1", "--bet", "tie", "--bet",
                            "banker_streak", "--format", "json"])  # fmt: skip
    assert (code, err) == (0, "")
    code, whole, err = cli(["eor", "banker-streak", "--decks", "1", "--format", "json"])
    assert (code, err) == (0, "")  # streak bets included: no note of bets left out
    one, every = json.loads(named), json.loads(whole)
    assert list(one["eor"]) == ["tie", "banker_streak"]
    assert list(every["eor"]) == ["player", "banker", "tie", "banker_streak", "banker_streak_2"]
    assert every["streak_bets"]["ids"] == ["banker_streak", "banker_streak_2"]
    for bet in ("tie", "banker_streak"):
        assert (one["ev"][bet], one["eor"][bet]) == (every["ev"][bet], every["eor"][bet])


def test_a_misspelt_streak_bet_is_suggested(cli: Cli) -> None:
    """The suggestion is the closest of every bet id, streak bets included (it was 'banker')."""
    code, out, err = cli(["eor", "banker-streak", "--bet", "banker_streek"])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.rstrip().endswith("did you mean 'banker_streak'?"), err
