"""`exactodds solve`: exact payouts for a target house edge, plugged back into the metrics."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds import Shoe, Winner, joint_distribution
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Bet, Paytable
from exactodds.errors import ExactOddsError, PaytableError
from exactodds.figures.metrics import bet_figures
from exactodds.figures.solve import parse_edge, parse_sweep, solve_payout, sweep
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
CLASSIC = DATA / "designer_classic.toml"


def edge_with(table: Paytable, bet_id: str, row: int, net: Fraction) -> Fraction:
    """House edge from the metrics module with one row's payout replaced (independent path)."""
    bet = table.round_bet(bet_id)
    rows = list(bet.rows)
    rows[row] = replace(rows[row], pays=Payout(net, f"{net} to 1"))
    changed = Bet(bet.id, bet.name, tuple(rows), bet.max_round, bet.rounding)
    joint = joint_distribution(table.shoe, table.tableau)
    return bet_figures(joint, changed).house_edge


def test_player_pair_break_even_from_pair_probability() -> None:
    table = load_paytable(CLASSIC)
    s = solve_payout(table, "player_pair", "Player pair")
    # 8 decks: the second card pairs the first with probability (32-1)/(416-1)
    p = Fraction(31, 415)
    assert s.line.probability == p
    assert s.break_even == (1 - p) / p == Fraction(384, 31)
    assert s.current == 11 and s.current_edge == Fraction(43, 415)
    assert edge_with(table, "player_pair", 0, s.break_even) == 0


@pytest.mark.parametrize("target", ["5%", "5.0 %", "10/2%", Fraction(1, 20)])
def test_target_edge_plugged_back_is_exact(target: str | Fraction) -> None:
    table = load_paytable(CLASSIC)
    s = solve_payout(table, "player_pair", "Player pair", target)
    assert s.target == Fraction(1, 20)
    assert s.payout == Fraction(1453, 124)
    assert edge_with(table, "player_pair", 0, s.payout) == Fraction(1, 20)


def test_tie_and_player_bonus_solutions() -> None:
    table = load_paytable(CLASSIC)
    joint = joint_distribution(Shoe.decks(8))
    p_tie = Fraction(joint.winner_counts()[Winner.TIE], joint.total)
    tie = solve_payout(table, "tie", "tie", "-1%")  # labels match case-insensitively
    assert tie.break_even == (1 - p_tie) / p_tie
    assert edge_with(table, "tie", 0, tie.payout or Fraction(0)) == Fraction(-1, 100)

    bonus = solve_payout(table, "player_bonus", "Win by 9", "2%")
    assert bonus.payout is not None
    assert edge_with(table, "player_bonus", 2, bonus.payout) == Fraction(1, 50)
    # docs/rules.md §9: win by 9 happens in 18,409,431,764,992 of the 8-deck universe
    assert bonus.line.probability == Fraction(18_409_431_764_992, joint.total)


def test_sweep_matches_metrics() -> None:
    table = load_paytable(CLASSIC)
    s = solve_payout(table, "player_pair", "#1")
    rows = sweep(s, parse_sweep("10:13"))
    assert [x for x, _ in rows] == [10, 11, 12, 13]
    for x, edge in rows:
        assert edge == edge_with(table, "player_pair", 0, x)
        assert edge == 1 - (x + 1) * Fraction(31, 415)
    assert rows[-1][1] < 0 < rows[-2][1]
    assert parse_sweep("1:2", "0.25") == [1, Fraction(5, 4), Fraction(3, 2), Fraction(7, 4), 2]


def test_parse_edge_and_sweep_errors() -> None:
    assert parse_edge("1.5%") == Fraction(3, 200)
    for bad in ("", "abc", "5%%", "1/0", "0x10"):
        with pytest.raises(ExactOddsError):
            parse_edge(bad)
    for bad in ("8", "9:8", "a:b", "0:100000"):
        with pytest.raises(ExactOddsError):
            parse_sweep(bad)


def test_unknown_bet_event_and_impossible_event() -> None:
    table = load_paytable(CLASSIC)
    with pytest.raises(PaytableError, match=r"unknown bet id 'pair' \(known: player, banker, tie"):
        solve_payout(table, "pair", "x")
    with pytest.raises(
        PaytableError, match=r"no event 'Pair' \(events: 'Player pair', 'No pair'\)"
    ):
        solve_payout(table, "player_pair", "Pair")
    # one card of each rank: no pair can be dealt, so its payout cannot be solved
    shoe = Shoe.from_rank_counts({r: 1 for r in "A23456789TJQK"})
    with pytest.raises(ExactOddsError, match="probability 0"):
        solve_payout(table, "player_pair", "Player pair", "5%", joint=joint_distribution(shoe))
    with pytest.raises(ExactOddsError, match="out of reach"):
        solve_payout(table, "player", "Player wins", "200%")


def test_cli_text_and_json(cli: Cli) -> None:
    argv = ["solve", str(CLASSIC), "--bet", "player_pair", "--event", "Player pair"]
    code, out, err = cli([*argv, "--target-edge", "5%", "--sweep", "11:12"])
    assert (code, err) == (0, "")
    assert "1453/124 to 1" in out and "≈ 11.717742 to 1" in out and "≈ 12.717742 for 1" in out
    assert "384/31 to 1 (= 415/31 for 1)" in out
    assert "|       11 to 1 |     10.3614% | 43/415  |" in out

    code, out, _ = cli([*argv, "-t", "5%", "--json", "--sweep", "13:13"])
    data = json.loads(out)
    assert data["payout"] == "1453/124" and data["break_even_payout"] == "384/31"
    assert data["sweep"] == [{"payout": "13/1", "house_edge": "-19/415"}]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bet", "nope", "--event", "x"], "unknown bet id 'nope' (known: player, banker, tie"),
        (["--bet", "tie", "--event", "Draw"], "bet 'tie' has no event 'Draw' (events: 'Tie'"),
        (["--bet", "tie", "--event", "Tie", "-t", "five%"], "house edge 'five%': not a number"),
        (["--bet", "tie", "--event", "Tie", "-t", "0.05"], "house edge '0.05': write a percentage"),
        (["--bet", "tie", "--event", "Tie", "--sweep", "9"], "sweep '9' must be A:B"),
        (["--event", "Tie"], "missing option '--bet'"),
        (["--bet", "tie"], "missing option '--event'"),
    ],
)
def test_cli_errors(argv: list[str], message: str, cli: Cli) -> None:
    code, out, err = cli(["solve", str(CLASSIC), *argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_help_has_example(cli: Cli) -> None:
    code, out, _ = cli(["solve", "--help"])
    assert code == 0 and "exactodds solve classic --bet player_pair" in out
