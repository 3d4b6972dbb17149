"""Progressive bets (issue 27): the published Dragon Dragon figures, the meter figures against
independent computations, the long-run model against a simulated meter, the sheets, and hostile
values of every new key."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from exactodds.analysis.meter import simulate_meter
from exactodds.bets.loader import load_paytable, parse_paytable
from exactodds.bets.paytable import Paytable
from exactodds.bets.progressive import JackpotPayout, bet_at_meters, parse_row_payout
from exactodds.compliance.profiles import check_paytable_against
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.errors import PaytableError
from exactodds.figures.metrics import BetFigures, bet_figures
from exactodds.figures.progressive import progressive_figures
from tests.cli_helpers import Cli

# Source: Wizard of Odds, "Dragon Dragon Baccarat Progressive" (last updated January 20, 2019),
# https://wizardofodds.com/games/baccarat/side-bets/dragon-dragon/ — return table for $1 and $2
# bets on eight decks: combinations per row, probabilities 0.00000117 and 0.00007024 of the two
# jackpot rows, fixed-pay return 0.318146 + x + y.
DD_COMBINATIONS = {
    "Six of a kind": 5_872_124_160,
    "Five of a kind": 351_070_863_360,
    "Double three of a kind": 616_417_689_600,
    "Four of a kind": 12_273_961_559_040,
    "Three of a kind out of four cards": 32_896_683_048_960,
    "Loser": 4_952_254_270_218_240,
}
DD_TOTAL = 4_998_398_275_503_360
DD_FIXED_RETURN = "0.318146"


@cache
def dragon_dragon() -> BetFigures:
    table = load_paytable("dragon-dragon")
    return bet_figures(
        joint_distribution(table.shoe, table.tableau), table.round_bet("dragon_dragon")
    )


def test_dragon_dragon_reproduces_the_published_return_table() -> None:
    f = dragon_dragon()
    found: dict[str, int] = {}
    for row in f.rows:  # the source's one double-three row is written as four
        event = row.event.split(" (lower rank")[0]
        found[event] = found.get(event, 0) + row.combinations
    assert found == DD_COMBINATIONS
    assert f.total == DD_TOTAL
    p = progressive_figures(f)
    assert p is not None
    assert f"{float(p.rtp_fixed):.6f}" == DD_FIXED_RETURN
    assert [f"{float(j.probability):.8f}" for j in p.jackpots] == ["0.00000117", "0.00007024"]


def test_slope_break_even_and_reset_against_independent_sums() -> None:
    f = dragon_dragon()
    p = progressive_figures(f)
    assert p is not None
    six, five = DD_COMBINATIONS["Six of a kind"], DD_COMBINATIONS["Five of a kind"]
    # by hand: the jackpot rows' probabilities weighted by their shares, per unit of stake 1
    assert p.rtp_per_meter == Fraction(six, DD_TOTAL) + Fraction(five, DD_TOTAL) / 10
    fixed = Fraction(250 * 616_417_689_600 + 50 * 12_273_961_559_040, DD_TOTAL) + Fraction(
        25 * 32_896_683_048_960, DD_TOTAL
    )
    assert p.rtp_fixed == fixed
    assert p.break_even_meter is not None
    assert p.rtp_at(p.break_even_meter) == 1
    # the sheet's figures are at the reset meter: the same bet paid at the reset
    assert p.rtp_at_reset == f.rtp == fixed + p.rtp_per_meter * 10_000
    # any meter: the bet with fixed pays at that meter, through the generic engine
    joint = joint_distribution(Shoe.decks(8))
    at = bet_figures(joint, bet_at_meters(f.bet, {"jackpot": p.break_even_meter}))
    assert at.rtp == p.rtp_at(p.break_even_meter) == 1
    assert p.jackpot_rounds == Fraction(DD_TOTAL, six)
    assert p.long_run_rtp == fixed + Fraction(1, 10) + 10_000 * Fraction(six, DD_TOTAL)


SMALL = {
    "name": "Meter check",
    "bets": {
        "pairs": {
            "stake": 2,
            "progressive": {"reset": 40, "increment": "5%", "reserve": "1%"},
            "rows": [
                {"when": "player.pair and banker.pair", "pays": "jackpot", "event": "Both"},
                {"when": "player.pair", "pays": "25% of jackpot", "event": "Player"},
                {"when": "banker.pair", "pays": "3 for 1", "event": "Banker"},
                {"when": "otherwise", "pays": "lose", "event": "None"},
            ],
        }
    },
}


@cache
def small() -> Paytable:
    table, problems = parse_paytable(SMALL)
    assert table is not None, problems
    return table


def test_long_run_model_agrees_with_a_simulated_meter() -> None:
    table = small()
    f = bet_figures(joint_distribution(table.shoe), table.round_bet("pairs"))
    p = progressive_figures(f)
    assert p is not None
    run = simulate_meter(f, 40_000, seed=27)
    # regenerative cycles (reset to reset) are independent: ratio estimator and its error
    n = sum(w for w, _ in run.cycles)
    estimate = run.rtp
    spread = math.sqrt(sum(float(y - estimate * w) ** 2 for w, y in run.cycles)) / n
    assert len(run.cycles) > 100
    assert abs(float(estimate - p.long_run_rtp)) < 4 * spread
    # and it is not the fixed-meter return: the model matters
    assert abs(float(p.rtp_at_reset - p.long_run_rtp)) > 8 * spread


NAMED = {
    "bets": {
        "x": {
            "stake": 5,
            "progressive": {
                "major": {"reset": 1000, "increment": "2%", "cap": 5000},
                "mini": {"reset": "50.50", "increment": "1%"},
            },
            "rows": [
                {"when": "player.pair and banker.pair", "pays": "major jackpot"},
                {"when": "player.pair", "pays": "50% of mini jackpot"},
                {"when": "otherwise", "pays": "lose"},
            ],
        }
    }
}


def test_named_meters_and_shares() -> None:
    table, problems = parse_paytable(NAMED)
    assert table is not None, problems
    bet = table.round_bet("x")
    f = bet_figures(joint_distribution(table.shoe), bet)
    p = progressive_figures(f)
    assert p is not None
    both, player = f.rows[0].probability, f.rows[1].probability
    assert p.slope("major") == both / 5 and p.slope("mini") == player / 2 / 5
    assert bet.rows[1].pays.net == Fraction(101, 4) / 5 - 1  # half of 50.50, for 5
    assert p.break_even("mini") is not None
    assert p.rtp_at(p.break_even("mini"), "mini") == 1  # type: ignore[arg-type]


def test_a_written_paytable_reads_back_with_its_meters() -> None:
    from exactodds.bets.paytable_toml import load_text, paytable_toml

    table, _ = parse_paytable(NAMED)
    assert table is not None
    assert load_text(paytable_toml(table)).bets == table.bets
    assert load_text(paytable_toml(small())).bets == small().bets


def test_jackpot_payout_text() -> None:
    pays = parse_row_payout(" 12.5 %  of  Jackpot ")
    assert isinstance(pays, JackpotPayout) and pays.share == Fraction(1, 8)
    assert parse_row_payout("11:1").net == 11
    with pytest.raises(PaytableError, match="jackpot share"):
        parse_row_payout("0% of jackpot")


def test_sheets_state_the_meter_figures_in_every_format(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(
        'name = "Small"\n[bets.pairs]\nstake = 2\n'
        'progressive = { reset = 40, increment = "5%" }\nrows = [\n'
        '  { when = "player.pair and banker.pair", pays = "jackpot", event = "Both" },\n'
        '  { when = "otherwise", pays = "lose", event = "None" },\n]\n',
        encoding="utf-8",
    )
    table = load_paytable(path)
    f = bet_figures(joint_distribution(table.shoe), table.round_bet("pairs"))
    p = progressive_figures(f)
    assert p is not None and p.break_even_meter is not None
    code, out, err = cli(["report", str(path), "--format", "json", "--date", "2024-01-01"])
    assert code == 0, err
    data = json.loads(out)["bets"][0]["progressive"]
    assert Fraction(data["break_even_meter"]) == p.break_even_meter
    assert Fraction(data["rtp_per_meter"]) == p.rtp_per_meter
    assert Fraction(data["jackpot_rows"][0]["probability"]) == f.rows[0].probability
    code, out, err = cli(["report", str(path), "--format", "md", "--date", "2024-01-01"])
    assert code == 0, err
    assert "Break-even meter (RTP 100%)" in out and "Long-run RTP" in out
    code, out, err = cli(["report", str(path), "--format", "csv", "--date", "2024-01-01"])
    assert code == 0, err
    assert "figure,break_even_meter" in out


HOSTILE = [
    ("stake = 0", 'progressive = { reset = 100, increment = "6%" }', "jackpot", "stake must be"),
    ("stake = 5", 'progressive = { reset = 100, increment = "150%" }', "jackpot", "increment"),
    ("stake = 5", 'progressive = { reset = nan, increment = "6%" }', "jackpot", "nan"),
    ("stake = 5", 'progressive = { reset = 1.5, increment = "6%" }', "jackpot", "reset must be"),
    ("stake = 5", 'progressive = { reset = 100, increment = "6%", cap = 50 }', "jackpot", "cap"),
    ("stake = 5", 'progressive = { reset = 10000000000000, increment = "1%" }', "jackpot", "reset"),
    ("stake = 5", 'progressive = { reset = 100, increment = "60%", reserve = "40%" }', "jackpot",
     "together"),
    ("stake = 5", 'progressive = { reset = 100, increment = "6%" }', "10% of mjor jackpot",
     "unknown jackpot level"),
    ("stake = 5", 'progressive = { reset = 100, incremnt = "6%" }', "jackpot", "did you mean"),
    ("", 'progressive = { reset = 100, increment = "6%" }', "jackpot", "needs a stake"),
    ("", "", "jackpot", "declares no progressive"),
    ("stake = 5", "", "11:1", "stake is for a progressive bet"),
    ("stake = 5", 'progressive = { reset = 100, increment = "6%" }', "11:1", "no row pays"),
    ("stake = 5", 'progressive = { reset = 100, increment = "6%" }', "0% of jackpot", "share"),
    ("stake = 5", 'progressive = { reset = 100, increment = "6%" }\nrounding = { step = "1" }',
     "jackpot", "rounding"),
    ("stake = 5", 'progressive = "big"', "jackpot", "progressive must be"),
]  # fmt: skip


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_values_get_one_line_and_exit_2(
    cli: Cli, tmp_path: Path, case: tuple[str, str, str, str]
) -> None:
    stake, progressive, pays, needle = case
    path = tmp_path / "h.toml"
    path.write_text(
        f'[bets.x]\n{stake}\n{progressive}\nrows = [ {{ when = "player.pair", pays = "{pays}" }}, '
        '{ when = "otherwise", pays = "lose" } ]\n',
        encoding="utf-8",
    )
    code, out, err = cli(["validate", str(path)])
    assert code == 2, (out, err)
    (line,) = err.strip().splitlines()
    assert line.startswith("exactodds: error: ") and needle in line, line


def test_compliance_reads_jackpot_rows_at_the_reset_and_break_even(tmp_path: Path) -> None:
    table = load_paytable("dragon-dragon")
    house = tmp_path / "house.toml"
    house.write_text(
        'name = "House"\n[rules]\nprogressive_max_odds = 100_000\nmin_rtp = "85%"\n',
        encoding="utf-8",
    )
    c = check_paytable_against(table, ["nj", "gli-11", str(house)])
    found = [
        (Path(k.profile).stem, k.rule.value, k.value, k.verdict.value, k.note) for k in c.checks
    ]
    six = Fraction(DD_COMBINATIONS["Six of a kind"], DD_TOTAL)
    reset, even = "at the reset meter 10,000.00", "at the break-even meter 83,168.48"
    top = "top award: the jackpot (Six of a kind)"
    own = {(x[0], x[3], x[4]) for x in found if x[1] == "max_rtp"}  # exactodds' own rule
    assert own == {(p, "pass", w) for p in ("nj", "gli-11", "house") for w in (reset, even)}
    assert [x for x in found if x[1] not in ("payout_notation", "max_rtp")] == [
        ("nj", "progressive_max_odds", six, "pass",
         f"{reset}: least likely jackpot: Six of a kind (of 2 jackpot rows)"),
        ("nj", "progressive_max_odds", six, "pass",
         f"{even}: least likely jackpot: Six of a kind (of 2 jackpot rows)"),
        ("gli-11", "top_award_max_odds", six, "pass", f"{reset}: {top}"),
        ("gli-11", "top_award_max_odds", six, "pass", f"{even}: {top}"),
        ("house", "progressive_max_odds", six, "fail",
         f"{reset}: least likely jackpot: Six of a kind (of 2 jackpot rows)"),
        ("house", "progressive_max_odds", six, "fail",
         f"{even}: least likely jackpot: Six of a kind (of 2 jackpot rows)"),
        ("house", "min_rtp", dragon_dragon().rtp, "fail", reset),
        ("house", "min_rtp", Fraction(1), "pass", even),
    ]  # fmt: skip
