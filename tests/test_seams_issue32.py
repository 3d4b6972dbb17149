"""Issue 32's seams and issue 33's bounded numbers: a progressive bet settled at its fixed wager,
risk of ruin that counts the last round, progressive labels, the CLI's seams, solving with
rounding, bounded digits and error lines that fit in any locale."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_helpers import Cli

TWIN_DRAGONS = """name = "Twin Dragons"
decks = 8
[bets.banker]
rows = [ { when = "winner == banker", pays = "0.95:1" },
         { when = "winner == player", pays = "lose" }, { when = "otherwise", pays = "push" } ]
[bets.twin_dragons]
name = "Twin Dragons"
stake = 5
progressive = { reset = 10000, increment = "10%" }
rows = [
  { when = "player.pair and banker.pair", pays = "jackpot", event = "Both pairs" },
  { when = "player.pair", pays = "50 for 1", event = "Player pair" },
  { when = "otherwise", pays = "lose", event = "Loser" },
]
"""


def twin_dragons(tmp_path: Path) -> str:
    path = tmp_path / "twin-dragons.toml"
    path.write_text(TWIN_DRAGONS, encoding="utf-8")
    return str(path)


def test_settle_pays_the_meter_for_the_fixed_wager(cli: Cli, tmp_path: Path) -> None:
    table = twin_dragons(tmp_path)
    both = ["settle", table, "--cards", "P: 9s 9h | B: 4d 4c", "--bet", "twin_dragons=5"]
    code, out, err = cli(both)
    assert (code, err) == (0, ""), err
    assert "wins 9995" in out  # the 10,000 meter for the 5 wagered, not 5 × 1,999
    code, out, err = cli([*both, "--format", "json"])
    (bet,) = json.loads(out)["bets"]
    assert (code, bet["net"], bet["returns"]) == (0, "9995/1", "10000/1")
    code, out, err = cli(["settle", table, "-c", "P: 9s 9h | B: Kd 7c", "-b", "twin_dragons=5"])
    assert (code, "wins 245" in out) == (0, True), out  # a fixed row: 50 for 1 on each unit


def test_settle_refuses_another_stake_of_a_progressive_bet(cli: Cli, tmp_path: Path) -> None:
    table = twin_dragons(tmp_path)
    for fmt in ("text", "json"):
        argv = ["settle", table, "-c", "P: 9s 9h | B: 4d 4c", "-b", "twin_dragons=100", "-f", fmt]
        code, out, err = cli(argv)
        assert (code, out) == (2, "")
        (line,) = err.splitlines()
        assert "twin_dragons" in line and "fixed at 5" in line and "not 100" in line, line
        assert line.startswith("exactodds: error: --bet: "), line
    code, out, err = cli(["settle", table, "-c", "P: 2s 2h | B: 4d 5c", "-b", "banker=100"])
    assert (code, "wins 95" in out) == (0, True)  # a fixed-pay bet takes any stake

