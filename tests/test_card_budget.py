"""The card engine's budget: a paytable whose card-level bets would keep the engine busy for
minutes is refused up front, in one line naming its file, line and bet, how long it would take
and the option that allows it; commands that count the bets on many shoes (eor, compare,
exposure, report --protection) multiply the work first. Only decisions are checked here (no
clocks): the probe's estimates are counted work, ``benchmarks/budget.py`` measures the CPU."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exactodds.bets.budget import BudgetError, card_work, card_work_over, check_card_work
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from exactodds.limits import CPU_BUDGET
from tests.cli_helpers import Cli

SIX = "player.poker == flush and banker.poker in [flush, straight_flush]"
"""The six-card rank × suit case of ``benchmarks/cards.py``: within the budget once."""


def _bets(*conditions: str) -> str:
    return "".join(
        f'[bets.b{i}]\nname = "B{i}"\nrows = [\n'
        f'  {{ when = "{c}", pays = "99:1", event = "Hit" }},\n'
        '  { when = "otherwise", pays = "lose", event = "Miss" },\n]\n'
        for i, c in enumerate(conditions)
    )


def _table(tmp_path: Path, *conditions: str) -> Path:
    path = tmp_path / "heavy.toml"
    path.write_text('name = "Heavy"\ndecks = 8\n' + _bets(*conditions), encoding="utf-8")
    return path


def _six() -> Bet:
    """A bet on :data:`SIX` (built here: loading a paytable of it would count it, for
    minutes)."""
    rows = (
        Row(parse_condition(SIX), parse_payout("99:1"), "Hit"),
        Row(OTHERWISE, parse_payout("lose"), "Miss"),
    )
    return Bet("six", "Six", rows)


def _six_work() -> float:
    """The card engine's CPU seconds for :data:`SIX` on 8 decks (the probe's estimate)."""
    return card_work([_six()], Shoe.decks(8), BUILTIN["punto-banco"])["six"]


def test_the_benchmark_case_fits_once_and_not_many_times() -> None:
    """The six-card case is within the budget; as many copies as the budget holds and one
    more are not, nor is it on eor's 53 shoes unless the budget is raised. A colour bet costs
    a thousandth of the budget at most, a value-level bet nothing."""
    pb = BUILTIN["punto-banco"]
    cheap = card_work(load_paytable("colour-match").bets, Shoe.decks(8), pb)
    assert list(cheap) == ["colour_match"] and 0 < cheap["colour_match"] < CPU_BUDGET / 1000
    assert card_work(load_paytable("classic").bets, Shoe.decks(8), pb) == {}
    per = _six_work()
    assert card_work_over({"six": per}) is None
    copies = int(CPU_BUDGET // per) + 1
    over = card_work_over({f"b{i}": per for i in range(copies)})
    assert over is not None and over[0] == "b0" and f"{copies - 1} other card-level" in over[1]
    check_card_work([_six()], Shoe.decks(8), pb)
    pattern = r"^counting bet 'six' × 53 shoes \(its costliest row 'Hit' .*\) would take about"
    with pytest.raises(BudgetError, match=pattern):
        check_card_work([_six()], Shoe.decks(8), pb, 53)
    check_card_work([_six()], Shoe.decks(8), pb, 53, budget=per * 53 + 1)


def test_a_paytable_of_heavy_bets_is_refused_at_load(cli: Cli, tmp_path: Path) -> None:
    """Every command reads the paytable first: validate and report refuse it in one line with
    the file, the bet's line and the budget's name, before counting anything."""
    path = _table(tmp_path, "player.total == 9", *[SIX] * int(CPU_BUDGET // _six_work() + 1))
    for argv in (["validate", str(path)], ["report", str(path), "--format", "json"]):
        code, out, err = cli(argv)
        assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
        assert f"{path}:9: counting bet 'b1' (with" in err
        assert "over the budget of 30 s (--budget" in err


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["eor", "perfect-9"], "eor"),
        (["compare", "perfect-9", "--rules", "punto-banco,mini", "--decks", "6,8"], "compare"),
        (["exposure", "perfect-9", "--sort", "6 7 8 9", "--seen", "4"], "exposure"),
        (["report", "perfect-9", "--protection", "--format", "json"], "report --protection"),
    ],
)
def test_commands_counting_on_many_shoes_refuse_up_front(
    argv: list[str], command: str, cli: Cli
) -> None:
    """With a budget of just Perfect 9's sheet (one count and its worked examples), its
    paytable loads and its sheet is made, but counting it on every shoe less one card (53), on
    four variants, on 16 signals of a sort seen on four cards, or on the 44 signals of the
    protection section is refused first."""
    table = load_paytable("perfect-9")
    per = card_work(table.bets, table.shoe, table.tableau)["perfect_9"]
    sheet = card_work(table.bets, table.shoe, table.tableau, examples=True)["perfect_9"]
    assert per < sheet < 4 * per  # four counts are over it: every argv asks for more
    budget = f"{sheet:.6f}"
    assert cli(["report", "perfect-9", "--format", "json", "--budget", budget])[0] == 0
    code, out, err = cli([*argv, "--budget", budget])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert re.search(r"counting bet 'perfect_9' × [\d,]+ shoes \(its .*\) would take", err)
    assert f"over the budget of {float(budget):g} s (--budget" in err


def test_bundled_card_level_paytables_are_within_every_budget() -> None:
    """The bundled market bets pass every command's check, eor's 53 shoes included."""
    pb = BUILTIN["punto-banco"]
    for name in ("colour-match", "perfect-9", "majestic-match", "lucky-nines", "jackpot-baccarat"):
        table = load_paytable(name)
        check_card_work(table.bets, table.shoe, pb, 53)
