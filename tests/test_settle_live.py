"""`exactodds settle` of live bets (issue 34): drawn multiplier cards, a peek's decision, fees;
hand-computed examples."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.bets.settle import settle_round
from exactodds.bets.settle_live import parse_multipliers, parse_peeks
from exactodds.errors import ExactOddsError
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
LIGHTNING = DATA / "live-lightning.toml"
PEEK = DATA / "live-peek.toml"

BANKER_WINS = "P: Kh Qs 2c | B: Ah 5d"
"""Player 0 draws a 2; banker 6 stands against it and wins 6 to 2 (Ah and 5d are Banker's)."""
TIE = "P: 7h Kc | B: 7d Qs"


@pytest.fixture(scope="module")
def lightning() -> Paytable:
    return load_paytable(LIGHTNING)


def test_banker_times_8_with_5_percent_wins_7_95(lightning: Paytable) -> None:
    # the games' rules: Banker at ×8 wins 8 less 5% of the stake, 7.95 (no fee here)
    table = replace(lightning, bets=tuple(replace(b, fee=Fraction(0)) for b in lightning.bets))
    drawn = parse_multipliers(["Ah:8 Kd:2"], table.multipliers)  # Kd is not dealt
    s = settle_round(table, BANKER_WINS, [("banker", 1)], multipliers=drawn)
    (x,) = s.settlements
    assert (x.product, x.amount, x.paid, x.returned) == (
        8,
        Fraction(795, 100),
        Fraction(1),
        Fraction(895, 100),
    )


def test_fee_counted_in_the_net(lightning: Paytable) -> None:
    drawn = parse_multipliers(["lightning: Ah:8 5d:3"], lightning.multipliers)
    s = settle_round(lightning, BANKER_WINS, [("banker", 100), ("player", 10)], multipliers=drawn)
    banker, player = s.settlements
    # ×24 on Banker's Ah and 5d: 100 × (24 − 0.05) − 20 fee
    assert (banker.product, banker.amount, banker.paid) == (24, Fraction(2375), Fraction(120))
    assert (player.amount, player.paid, player.returned) == (
        Fraction(-12),
        Fraction(12),
        Fraction(0),
    )  # a loss: stake and fee
    assert s.net == 2363


def test_fee_20_percent_push_loses_0_2(lightning: Paytable) -> None:
    s = settle_round(lightning, TIE, [("banker", 1), ("player", 1)])
    assert [(x.row.event, x.amount, x.returned) for x in s.settlements] == [
        ("Tie", Fraction(-1, 5), Fraction(1)),
        ("Tie", Fraction(-1, 5), Fraction(1)),
    ]


def test_tie_multiplies_over_the_round_and_is_capped(lightning: Paytable) -> None:
    # Tie pays 5:1 times every drawn multiplier on the round's cards: 8 × 4 × 5 = 160
    drawn = parse_multipliers(["7h:8 7d:4 Qs:5"], lightning.multipliers)
    (x,) = settle_round(lightning, TIE, [("tie", 1)], multipliers=drawn).settlements
    assert (x.product, x.amount) == (160, 5 * 160 - Fraction(1, 5))
    drawn = parse_multipliers(["7h:8 7d:8 Qs:8 Kc:8"], lightning.multipliers)
    (x,) = settle_round(lightning, TIE, [("tie", 1)], multipliers=drawn).settlements
    assert x.product == 512  # 8⁴ = 4096, capped at 512


def test_without_multipliers_none_drawn_and_said(lightning: Paytable, cli: Cli) -> None:
    (x,) = settle_round(lightning, BANKER_WINS, [("banker", 1)]).settlements
    assert (x.product, x.amount) == (1, Fraction(95, 100) - Fraction(1, 5))
    code, out, err = cli(["settle", str(LIGHTNING), "-c", BANKER_WINS, "-b", "banker=1"])
    assert (code, err) == (0, "")
    assert "Multiplier cards: none given, so none drawn" in out
    assert "fee 0.2 of 1.2 paid; net +0.75, 0.625 per money paid" in out


def test_peek_triple_and_keep(cli: Cli) -> None:
    table = load_paytable(PEEK)
    s = settle_round(table, BANKER_WINS, [("banker", 100), ("player", 10)], peeks={"banker": 3})
    banker, player = s.settlements
    assert (banker.multiple, banker.amount, banker.paid) == (
        3,
        Fraction(3 * 95 - 20),
        Fraction(320),
    )  # no fee on a raise
    assert (player.multiple, player.amount) == (1, Fraction(-12))
    code, out, _ = cli(["settle", str(PEEK), "-c", TIE, "-b", "player=10", "--peek", "double"])
    assert code == 0 and "Player: double after the peek; fee 2 of 22 paid; net -2" in out


def test_json(cli: Cli) -> None:
    argv = ["settle", str(LIGHTNING), "-c", BANKER_WINS, "-b", "banker=10", "-m", "Ah:8"]
    code, out, _ = cli([*argv, "--format", "json"])
    data = json.loads(out)
    assert code == 0 and data["multipliers"] == {"lightning": {"Ah": 8}}
    (bet,) = data["bets"]
    assert (bet["net"], bet["fee"], bet["product"], bet["paid"]) == ("155/2", "2/1", 8, "12/1")
    assert bet["net_per_paid"] == "155/24"
    code, out, _ = cli(["settle", "-c", TIE, "-b", "tie=1", "--format", "json"])
    assert "multipliers" not in json.loads(out) and "fee" not in json.loads(out)["bets"][0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-m", "Ah:7"], "--multipliers: 'Ah:7': 7 is not a multiplier of table 'lightning'"),
        (["-m", "Ah:8 Ah:2"], "Ah is drawn twice"),
        (["-m", "A:8"], "give its suit"),
        (["-m", "Ah"], "write each card with its multiplier"),
        (["-m", "Ah:nan"], "must be a whole number"),
        (["-m", "Zh:2"], "unknown rank"),
        (["-m", "other: Ah:2"], "no table 'other'"),
        (["-m", "Ah:2 Kd:2 Qs:2 Jc:2 Th:2 9s:2"], "6 card(s) for table 'lightning'"),
        (["-m", "Ah:2", "-m", "Kd:2"], "table 'lightning' is given twice"),
        (["--peek", "double"], "--peek: none of the bets placed has a peek"),
        (["--peek", "banker=sometimes"], "give keep, double, triple"),
        (["-c", TIE], "settle it on one round"),
        (["-m", "Ah:2 " * 5000], "longer than the limit of 10,000"),
        (["--peek", "tie=keep"], "--peek: none of the bets placed has a peek"),
    ],
)
def test_errors(argv: list[str], message: str, cli: Cli) -> None:
    code, out, err = cli(["settle", str(LIGHTNING), "-c", BANKER_WINS, "-b", "banker=1", *argv])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_peek_errors(cli: Cli) -> None:
    code, _, err = cli(["settle", str(PEEK), "-c", TIE, "-b", "player=1", "--peek", "4"])
    assert code == 2 and "its peek offers ×1, ×2, ×3" in err
    code, _, err = cli(["settle", str(PEEK), "-c", TIE, "-b", "player=1", "--peek", "tie=double"])
    assert code == 2 and "bet 'tie' is not placed" in err
    code, _, err = cli(["settle", "-c", TIE, "-b", "player=1", "-m", "Ah:2"])
    assert code == 2 and "the paytable has no multiplier table" in err
    with pytest.raises(ExactOddsError, match="twice"):
        parse_peeks(["keep", "double"])
