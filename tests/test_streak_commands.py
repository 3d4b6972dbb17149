"""Streak bets in the commands that read single rounds (issue 27): a streak bet named with
``--bet`` is refused in one line, and a whole paytable holding them gets one line saying they
are left out, never a traceback or a silent figure."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import Cli

NAMED = [
    ["eor", "banker-streak", "--decks", "1", "--bet", "banker_streak"],
    ["solve", "banker-streak", "--bet", "banker_streak", "--event", "4", "-t", "5%"],
    ["session", "banker-streak", "--bet", "banker_streak_2", "--rounds", "10"],
]

WHOLE = [
    ["eor", "banker-streak", "--decks", "1"],
    ["odds", "--given", "P: 9s ? | B: ? ?", "--paytable", "banker-streak", "--decks", "1"],
    ["montecarlo", "banker-streak", "--rounds", "200"],
    ["exposure", "banker-streak", "--flash", "P1", "--decks", "1"],
    ["compare", "banker-streak", "--decks", "1,2"],
    ["check", "banker-streak", "--against", "gli-11"],
]


@pytest.mark.parametrize("argv", NAMED, ids=lambda a: a[0])
def test_a_streak_bet_named_is_refused_in_one_line(cli: Cli, argv: list[str]) -> None:
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    (line,) = err.strip().splitlines()
    assert line.startswith("exactodds: error: --bet: ") and "is a streak bet" in line, line


@pytest.mark.parametrize("argv", WHOLE, ids=lambda a: a[0])
def test_a_whole_paytable_says_its_streak_bets_are_left_out(cli: Cli, argv: list[str]) -> None:
    code, out, err = cli(argv)
    assert code in {0, 1} and "Banker" in out, err  # check: exit 1 when a profile check fails
    notes = [line for line in err.splitlines() if "streak" in line]
    assert notes == [
        f"exactodds: note: {argv[0] if argv[0] != 'odds' else 'odds --given'} leaves out the "
        "streak bets of paytables/banker-streak.toml (banker_streak, banker_streak_2): they run "
        "over several rounds; exactodds simulate and exactodds report play them"
    ]
    assert "banker_streak" not in out and "(pay table" not in out  # no streak bet's figures


def test_eor_of_named_bets_keeps_their_figures(cli: Cli) -> None:
    code, named, err = cli(["eor", "banker-streak", "--decks", "1", "--bet", "tie", "--format",
                            "json"])  # fmt: skip
    assert (code, err) == (0, "")
    code, whole, _ = cli(["eor", "banker-streak", "--decks", "1", "--format", "json"])
    one, every = json.loads(named), json.loads(whole)
    assert list(one["eor"]) == ["tie"] and list(every["eor"]) == ["player", "banker", "tie"]
    assert (one["ev"]["tie"], one["eor"]["tie"]) == (every["ev"]["tie"], every["eor"]["tie"])
