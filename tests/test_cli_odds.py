"""``exactodds odds`` in-process and as a process: JSON contract, figures, and clean errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from tests.cli_helpers import Cli
from tests.conftest import WriteFile

PUBLISHED_8_DECKS = {
    "total_combinations": 4_998_398_275_503_360,
    "banker_wins": 2_292_252_566_437_888,
    "player_wins": 2_230_518_282_592_256,
    "ties": 475_627_426_473_216,
}

REQUIRED_INT_KEYS = ("total_combinations", "banker_wins", "player_wins", "ties", "cards")


def run_json(cli: Cli, argv: list[str]) -> dict[str, Any]:
    code, out, err = cli([*argv, "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def check_contract(data: dict[str, Any]) -> None:
    for key in REQUIRED_INT_KEYS:
        assert type(data[key]) is int, key
    assert isinstance(data["rules"], str)
    assert data["total_combinations"] == math.perm(data["cards"], 6)
    assert data["banker_wins"] + data["player_wins"] + data["ties"] == data["total_combinations"]
    totals = data["totals"]
    assert all(set(t) == {"player", "banker", "combinations"} for t in totals)
    assert all(type(t["combinations"]) is int and t["combinations"] > 0 for t in totals)
    assert sum(t["combinations"] for t in totals) == data["total_combinations"]
    ties = sum(t["combinations"] for t in totals if t["player"] == t["banker"])
    player = sum(t["combinations"] for t in totals if t["player"] > t["banker"])
    assert (ties, player) == (data["ties"], data["player_wins"])


def test_json_eight_decks_matches_spec(cli: Cli) -> None:
    data = run_json(cli, ["odds", "--decks", "8"])
    check_contract(data)
    assert {k: data[k] for k in PUBLISHED_8_DECKS} == PUBLISHED_8_DECKS
    assert (data["cards"], data["rules"]) == (416, "punto-banco")
    assert len(data["totals"]) == 100


def test_default_is_eight_decks(cli: Cli) -> None:
    assert run_json(cli, ["odds"])["total_combinations"] == PUBLISHED_8_DECKS["total_combinations"]


def test_json_mini_six_decks_with_removals(cli: Cli) -> None:
    data = run_json(cli, ["odds", "-d", "6", "--rules", "mini", "--remove", "6 6 7h Kd"])
    check_contract(data)
    joint = joint_distribution(Shoe.decks(6).remove("6 6 7h Kd"), BUILTIN["mini"])
    wins = joint.winner_counts()
    assert data["cards"] == 308 and data["rules"] == "mini"
    assert data["banker_wins"] == wins[Winner.BANKER] and data["ties"] == wins[Winner.TIE]


def test_shoe_and_rules_files(write_file: WriteFile, cli: Cli) -> None:
    cards = {"A": [2, 0, 0, 0], "K": [1, 1, 1, 1], "5": [0, 2, 0, 0]}
    shoe = write_file("shoe.json", json.dumps({"cards": cards}))
    never = "".join(f'{total} = "none"\n' for total in range(8))
    rules = write_file("never.toml", f"player_draw = []\n[banker_draw]\n{never}")
    data = run_json(cli, ["odds", "--shoe", str(shoe), "--rules", str(rules)])
    check_contract(data)
    assert data["rules"] == "never" and data["cards"] == 8
    # Nobody ever draws, so the first four cards decide. Player 6 needs an ace and a five
    # (2 aces · 2 fives · 2 orders = 8); banker 0 then needs two kings (4·3 = 12; only one five
    # is left); cards five and six are any two of the remaining four (4·3 = 12).
    grid = {(t["player"], t["banker"]): t["combinations"] for t in data["totals"]}
    assert grid[6, 0] == 8 * 12 * 12


def test_human_output(cli: Cli) -> None:
    code, out, err = cli(["odds", "--decks", "8"])
    assert (code, err) == (0, "")
    assert "Shoe: 8 decks (416 cards)    Rules: punto-banco" in out
    assert "2,292,252,566,437,888" in out and "0.4585974226" in out
    assert "B 9" in out and "P 9" in out


def test_help_and_version(cli: Cli) -> None:
    code, out, _ = cli(["odds", "--help"])
    assert code == 0 and "--remove" in out and "--rules" in out
    code, out, _ = cli(["--version"])
    assert code == 0 and out.startswith("exactodds ")


ALL_BUT_FOUR = "A 2 3 4 5 6 7 8 9 T J Q K " * 3 + "A 2 3 4 5 6 7 8 9"
BAD_INPUTS: list[tuple[str, list[str], str]] = [
    ("zero decks", ["--decks", "0"], "--decks: number of decks must be a positive integer, not 0"),
    ("negative decks", ["--decks", "-3"], "--decks: number of decks must be a positive integer"),
    ("unknown rank", ["--remove", "6 Zh"], "--remove: unknown rank 'Z' in card 'Zh'"),
    ("unknown suit", ["--remove", "6x"], "--remove: unknown suit 'x' in card '6x'"),
    ("card not there", ["-d", "1", "-r", "Kd Kd"], "--remove: cannot remove Kd: no Kd left"),
    ("too many removed", ["-d", "1", "-r", ALL_BUT_FOUR], "--remove: a shoe of 4 cards is too"),
    ("too few cards", ["--shoe", "{dir}/small.toml"], "a shoe of 5 cards is too small"),
    ("missing shoe", ["--shoe", "{dir}/missing.toml"], "missing.toml: file not found"),
    ("invalid toml", ["--shoe", "{dir}/broken.toml"], "broken.toml: invalid TOML"),
    ("unknown key", ["--shoe", "{dir}/unknown.toml"], "unknown key 'deks'"),
    ("decks and ranks", ["--shoe", "{dir}/both.toml"], "give only one of decks, ranks, cards"),
    ("decks and shoe", ["-d", "8", "--shoe", "{dir}/both.toml"], "give either --decks or --shoe"),
    ("unknown rules", ["--rules", "baccarat"], "unknown rules 'baccarat'"),
    ("missing rules", ["--rules", "{dir}/nope.toml"], "nope.toml: file not found"),
    ("player draws 8", ["--rules", "{dir}/eight.toml"], "player_draw: 8 is not a total 0..7"),
    ("rules bad TOML", ["--rules", "{dir}/broken.toml"], "broken.toml: invalid TOML"),
]


@pytest.fixture
def bad_files(write_file: WriteFile) -> Path:
    write_file("small.toml", "[ranks]\nA = 3\nK = 2\n")
    write_file("broken.toml", "decks = [\n")
    write_file("unknown.toml", "deks = 8\n")
    write_file("both.toml", "decks = 8\n[ranks]\nA = 9\n")
    return write_file("eight.toml", 'player_draw = [8]\n[banker_draw]\n0 = "any"\n').parent


@pytest.mark.parametrize(("case", "args", "msg"), BAD_INPUTS, ids=[c for c, _, _ in BAD_INPUTS])
def test_bad_input_exits_2_with_one_line(
    bad_files: Path, cli: Cli, case: str, args: list[str], msg: str
) -> None:
    argv = ["odds", *(a.replace("{dir}", str(bad_files)) for a in args), "--format", "json"]
    code, out, err = cli(argv)
    assert code == 2, case
    assert out == ""
    assert err.startswith("exactodds: error: ") and err.endswith("\n")
    assert err.count("\n") == 1
    assert msg in err
    assert "Traceback" not in err


# -- as a separate process ---------------------------------------------------------------------


def test_subprocess_json() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "exactodds", "odds", "--decks", "1", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    check_contract(data)
    assert data["total_combinations"] == 52 * 51 * 50 * 49 * 48 * 47


def test_subprocess_error_has_no_traceback(write_file: WriteFile) -> None:
    shoe = str(write_file("bad.toml", "decks = 8\nremove = 'Xq'\n"))
    proc = subprocess.run(
        [sys.executable, "-m", "exactodds", "odds", "--shoe", shoe],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert (
        proc.stderr
        == f"exactodds: error: {shoe}: unknown rank 'X' in card 'Xq' (use A 2-9 T/10 J Q K)\n"
    )
