"""Commands that leave a kind of bet out say so in their output and exit code (issue 32):
``odds --given``, ``montecarlo`` and ``exposure`` name the streak bets they leave out (JSON: a
``left_out`` list with the reason; text and Markdown: a last section) and exit 3, never only a
line on stderr; ``--bet`` leaving them out makes the run complete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactodds.cli.common import EXIT_INCOMPLETE
from tests.cli_helpers import Cli

TABLE = """\
name = "Streaks"
decks = 1
[bets.banker]
name = "Banker"
rows = [ { when = "banker.wins", pays = "0.95:1" }, { when = "winner == tie", pays = "push" },
         { when = "otherwise", pays = "lose" } ]
[bets.streak_a]
name = "Streak A"
streak = "banker.wins"
rows = [ { when = "streak >= 4", pays = "10:1" }, { when = "otherwise", pays = "lose" } ]
[bets.streak_b]
streak = "player.wins"
max_streak = 3
rows = [ { when = "streak >= 3", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
"""

COMMANDS = {
    "odds --given": ["odds", "--given", "P: 9s ? | B: ? ?", "--paytable", "T"],
    "montecarlo": ["montecarlo", "T", "--rounds", "200"],
    "exposure": ["exposure", "T", "--flash", "P1"],
}


@pytest.fixture
def table(tmp_path: Path) -> str:
    path = tmp_path / "streaks.toml"
    path.write_text(TABLE, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", COMMANDS)
def test_streak_bets_left_out_are_in_the_json_and_exit_3(
    cli: Cli, table: str, command: str
) -> None:
    argv = [table if a == "T" else a for a in COMMANDS[command]]
    code, out, err = cli([*argv, "--format", "json"])
    assert code == EXIT_INCOMPLETE == 3
    data = json.loads(out)
    assert [(b["bet"], b["name"]) for b in data["left_out"]] == [
        ("streak_a", "Streak A"),
        ("streak_b", "streak_b"),
    ]
    assert all("settled over several rounds" in b["reason"] for b in data["left_out"])
    assert "banker" in json.dumps(data)  # the rest is there
    assert (
        err
        == f"exactodds: incomplete: {command} left out streak_a, streak_b (named in its output)\n"
    )


@pytest.mark.parametrize("fmt", ["md", "text"])
def test_streak_bets_left_out_end_the_markdown_and_text(cli: Cli, table: str, fmt: str) -> None:
    argv = [table if a == "T" else a for a in COMMANDS["odds --given"]]
    code, out, _ = cli([*argv, "--format", fmt])
    assert code == 3
    if fmt == "md":
        section = out[out.index("\n## Left out\n") :].splitlines()[3:]
        assert section[0].startswith("- Streak A (`streak_a`): a streak bet, settled over")
        assert section[1].startswith("- streak_b (`streak_b`): a streak bet, settled over")
    else:
        section = out[out.index("\nLeft out:\n") :].splitlines()[2:]
        assert section[0].startswith("  streak_a (Streak A): a streak bet, settled over")
        assert section[1].startswith("  streak_b (streak_b): a streak bet, settled over")
    assert len(section) == 2  # the output's last lines


def test_a_run_with_the_streak_bets_left_out_by_bet_is_complete(cli: Cli, table: str) -> None:
    code, out, err = cli(["montecarlo", table, "--rounds", "200", "--bet", "banker", "-f", "json"])
    assert (code, err) == (0, "")
    assert "left_out" not in json.loads(out)


def test_exposure_optimise_names_the_card_level_bets_it_leaves_out(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "card.toml"
    path.write_text(
        """\
name = "Card"
decks = 1
[bets.tie]
rows = [ { when = "winner == tie", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
[bets.hearts]
rows = [ { when = "player.card1.suit == hearts", pays = "2:1" },
         { when = "otherwise", pays = "lose" } ]
""",
        encoding="utf-8",
    )
    argv = ["exposure", str(path), "--optimise", "--seen", "1", "--top", "1", "--format", "json"]
    code, out, err = cli(argv)
    assert code == 3, err
    (left,) = json.loads(out)["left_out"]
    assert left["bet"] == "hearts" and left["reason"].startswith("card-level: --optimise")
