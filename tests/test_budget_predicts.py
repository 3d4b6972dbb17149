"""Budgets that predict (issue 25): each command's estimate of the card engine's work follows
what it counts (the shoe used, known cards, the shoe as dealt, the shoes less a card), so it
neither accepts what runs for minutes nor refuses what runs in a second. Figures are estimates
and exact counts of work, never timings (``benchmarks/budget.py`` measures the CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactodds.bets.budget import (
    BudgetError,
    card_work,
    check_card_rounds,
    check_removal_work,
)
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.cli_helpers import Cli

PB = BUILTIN["punto-banco"]
KINGS = "count(round, rank == K and suit == hearts) >= 2"


def _bet(when: str) -> Bet:
    return Bet("x", "X", (Row(parse_condition(when), parse_payout("30:1"), "A"),
                          Row(OTHERWISE, parse_payout("lose"), "B")))  # fmt: skip


def _file(tmp_path: Path, when: str) -> Path:
    path = tmp_path / "kings.toml"
    path.write_text(
        f'[bets.x]\nrows = [\n  {{ when = "{when}", pays = "30:1" }},\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    return path


def test_a_bet_over_the_budget_is_refused_but_settles_a_round(cli: Cli, tmp_path: Path) -> None:
    """Two kings of hearts in the round (its 8-deck count took 51 s of CPU before ranks were
    dealt in lumps; about 7 s now), with the budget just below its estimate: validate refuses
    it and says how to allow it; settling one round counts nothing and is never refused."""
    estimate = card_work([_bet(KINGS)], Shoe.decks(8), PB)["x"]
    path = _file(tmp_path, KINGS)
    code, out, err = cli(["validate", str(path), "--budget", f"{estimate * 0.99:.6f}"])
    assert (code, out) == (2, "") and "allows it)" in err and "(--budget " in err
    code, out, err = cli(
        ["settle", str(path), "--cards", "P: Kh Kh | B: 9c 9d", "--bet", "x=1", "--format", "json"]
    )
    assert code == 0, err
    assert '"net": "30/1"' in out  # two kings of hearts: 30:1


def test_known_cards_are_in_the_estimate() -> None:
    """A known card breaks the suit symmetry the whole shoe's estimate relies on."""
    from exactodds.protection.exposure import given_known

    bet = _bet("player.suited and banker.suited")
    whole = card_work([bet], Shoe.decks(8), PB)["x"]
    given = card_work([bet], Shoe.decks(8), PB, given_known("P: Kh ? | B: ? ?"))["x"]
    assert given != whole


def test_a_simulation_is_weighed_on_the_shoe_as_it_is_dealt() -> None:
    """Lucky Nines over 8 one-deck shoes (6.6 s forced) was once refused, its EVs all weighed
    as on a full deck; the deck empties as it is dealt and its EVs get cheaper. Perfect 9
    (suits: no ranks in lumps) over 8 one-deck shoes passes, over 8 eight-deck shoes not."""
    perfect = load_paytable("perfect-9", counted=False)
    check_card_rounds(perfect.bets, Shoe.decks(1), PB, 8, 14)
    with pytest.raises(BudgetError):
        check_card_rounds(perfect.bets, Shoe.decks(8), PB, 8, 14)


def test_eor_weighs_the_shoes_less_a_card() -> None:
    """One card gone breaks the suit symmetry: eor's 53 counts are weighed on the shoe less
    a card (Perfect 9, which reads suits, costs more than its full-shoe count there)."""
    from exactodds.counting.probe import probe_count

    table = load_paytable("perfect-9", counted=False)
    rows = [r.when for r in table.bets[0].rows]
    full = probe_count(rows, Shoe.decks(8), PB, force=True).seconds
    less = card_work(table.bets, Shoe.decks(8).remove("Ac"), PB)["perfect_9"]
    assert less > full
    check_removal_work(table.bets, Shoe.decks(8), PB, budget=less * 54)
    with pytest.raises(BudgetError, match="× 53 shoes"):
        check_removal_work(table.bets, Shoe.decks(8), PB, budget=less * 50)


def test_eor_of_offered_bets_indexes_each_shoe_once() -> None:
    """Offered value-level bets: every bet's EV on each shoe less a card reads that shoe's
    index of rounds once (bet by bet it was rebuilt per bet and shoe: 49 s for insurance)."""
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.bets.records import _record_index

    offer = parse_condition("player.initial >= 0")
    bets = [
        Bet(f"b{i}", "B", (Row(parse_condition(f"player.total == {i}"), parse_payout("8:1"), "A"),
                           Row(OTHERWISE, parse_payout("lose"), "B")), offer=offer)
        for i in range(20)
    ]  # fmt: skip
    ranks = {r: 2 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9")}
    shoe = Shoe.from_mapping({"ranks": ranks})  # 18 cards: 19 shoes, more than the cache holds
    _record_index.cache_clear()
    result = effect_of_removal(bets, shoe, PB)
    assert len(result.ev) == 20 and _record_index.cache_info().misses <= 19
