"""``settle`` over several rounds (issue 27): streak bets settled on hand-worked sequences of
dealt rounds, the pay tables read off the published Banker Streak tables, hostile input; and
what ``simulate`` and ``validate`` do with streak bets."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.settle_rounds import settle_rounds
from exactodds.errors import ExactOddsError, RoundError
from tests.cli_helpers import Cli

ROOT = Path(__file__).resolve().parent.parent

# Hand-worked rounds (drawing rules checked by hand): a natural 8 or 9 for the Banker against a
# Player 0; a Player natural 8 (9 9) against a Banker 7; a tie 7 : 7, both standing.
B1, B2 = "P: K Q | B: 8 K", "P: J 10 | B: 9 Q"  # suits left out: any the shoe still has
P = "P: 9s 9h | B: Kd 7c"
T = "P: 7h Kc | B: 7d Qs"

# Pay table 1 and 2 of Banker Streak, "to one", as Wizard of Odds lists them (the source of
# paytables/banker-streak.toml): streak 4 pays 10, 9 pays 150 (table 1) or 100 (table 2), 10 pays
# 250; 3 or fewer lose.


def test_four_banker_wins_then_a_player_win_pay_the_4_streak_row() -> None:
    s = settle_rounds(load_paytable("banker-streak"), [B1, B2, B1, B2, P], [("banker_streak", 10)])
    (x,) = s.streaks  # 10 at 10 to 1
    assert (x.streak, x.round, x.row and x.row.event) == (4, 5, "4")
    assert (x.amount, x.returned, s.net) == (Fraction(100), Fraction(110), Fraction(100))


def test_nine_wins_then_a_tie_and_the_cap_of_ten() -> None:
    table = load_paytable("banker-streak")
    bets: list[tuple[str, Fraction | int | str]] = [
        ("banker_streak", 2),
        ("banker_streak_2", Fraction(1, 2)),
    ]
    nine = settle_rounds(table, [B1, B2] * 4 + [B1, T], bets)
    assert [(x.streak, x.round, x.amount) for x in nine.streaks] == [
        (9, 10, Fraction(300)),  # 2 at 150 to 1
        (9, 10, Fraction(50)),  # 1/2 at 100 to 1
    ]
    # ten Banker wins end the bet on the tenth round: the rounds after it are not read
    ten = settle_rounds(table, [B1, B2] * 5 + [P, B1], bets[:1])
    assert [(x.streak, x.round, x.amount) for x in ten.streaks] == [(10, 10, Fraction(500))]
    # a Player win on the first round: a streak of 0, which loses the stake
    lost = settle_rounds(table, [P], bets[:1])
    assert [(x.streak, x.round, x.amount) for x in lost.streaks] == [(0, 1, Fraction(-2))]


def test_a_bet_still_running_has_no_result() -> None:
    table = load_paytable("banker-streak")
    s = settle_rounds(table, [B1, B2, B1], [("banker_streak", 10)])
    (x,) = s.streaks
    assert (x.streak, x.round, x.row, x.amount) == (3, None, None, None) and s.net == 0
    # with one round, a round bet is settled on it beside the streak bet
    one = settle_rounds(table, [B1], [("banker", 20), ("banker_streak", 10)])
    assert [x.amount for x in one.settlements] == [19] and one.net == 19


def test_cli_text_and_json(cli: Cli) -> None:
    argv = ["settle", "banker-streak", "--bet", "banker_streak=10"]
    code, out, err = cli([*argv, *(a for c in (B1, B2, B1, B2, P) for a in ("--cards", c))])
    assert (code, err) == (0, "")
    assert "Round 5  P: 9s 9h | B: Kd 7c    Player wins 8 to 7." in out
    assert "| 4, ended at round 5 | 4 " in out and "wins 100" in out
    assert "Net result: +100" in out
    code, out, err = cli([*argv, "-c", B1, "-c", B2, "-c", T, "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["bets"] == [
        {"bet": "banker_streak", "name": "Banker Streak (pay table 1)", "stake": "10/1",
         "streak": 2, "settled_on_round": 3, "event": "3 or less", "pays": "lose",
         "net": "-10/1", "returns": "0/1"},
    ]  # fmt: skip
    assert [r["winner"] for r in data["rounds"]] == ["banker", "banker", "tie"]
    assert data["net"] == "-10/1" and data["file"] == "paytables/banker-streak.toml"
    code, out, _ = cli([*argv, "-c", B1, "--format", "json"])
    assert json.loads(out)["bets"][0]["net"] is None  # still running


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-c", B1, "-c", "P: 3c 2d | B: Kd 7c"], "--cards: round 2: player has 5 and must draw"),
        (["-c", B1, "-c", P, "-b", "banker=5"], "bet 'banker' is settled on one round, not on 2"),
        (["-c", B1, "-b", "banker_streek=1"], "did you mean 'banker_streak'?"),
        ([*["-c", B1] * 3, "--decks", "1"], "the 3 rounds cannot all come from one shoe"),
        (["-c", B1, "-c", " "], "give each round with --cards"),
        (["-c", B1] * 1001, "1,001 rounds, more than the limit of 1000"),
    ],
)
def test_cli_hostile_input_one_line(extra: list[str], message: str, cli: Cli) -> None:
    code, out, err = cli(["settle", "banker-streak", "-b", "banker_streak=1", *extra])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_api_errors_name_the_round() -> None:
    table = load_paytable("banker-streak")
    with pytest.raises(RoundError, match=r"^round 3: "):
        settle_rounds(table, [B1, B2, "P: K Q | B: 8"], [("banker_streak", 1)])
    with pytest.raises(ExactOddsError, match="at least one round"):
        settle_rounds(table, [], [("banker_streak", 1)])


def test_simulate_plays_streak_bets_and_validate_checks_them(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli(["simulate", "banker-streak", "--shoes", "1", "--format", "json"])
    assert code == 0 and json.loads(out)["shoes"] == 1 and err == ""
    assert list(json.loads(out)["streaks"]) == ["banker_streak", "banker_streak_2"]
    code, out, err = cli(["validate", "banker-streak"])
    assert (code, err) == (0, "") and "ok" in out
    path = tmp_path / "streak.toml"
    text = (ROOT / "paytables" / "banker-streak.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('"streak == 9"', '"streak == 11"', 1), encoding="utf-8")
    code, out, err = cli(["validate", str(path)])
    assert code == 2 and "streak.toml" in err and "can never match" in err
