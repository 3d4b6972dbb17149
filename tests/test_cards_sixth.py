"""The sixth card dealt by its value first (exactodds.counting.sixth): the rounds that the
first five cards and the sixth card's value decide are settled on its value classes, the
others on its finer classes; against brute force over physical card sequences and against the
engine with the value classes turned off."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

import exactodds.counting.engine as engine_module
import exactodds.counting.plan as plan_module
import exactodds.counting.sixth as sixth_module
from exactodds.language import parse_condition
from tests.bruteforce import shoe_of
from tests.test_cards_staged import SHOES, brute, engine

LUCKY_8_BANKER = [
    "banker.total == 8 and banker.cards == 3 and banker.suited"
    " and player.total == 8 and player.cards == 3 and player.suited",
    "banker.total == 8 and banker.cards == 3 and banker.suited",
    "banker.total == 8 and player.total == 8",
    "banker.total == 8 and not banker.wins",
    "banker.total == 8",
]

LUCKY_8_PLAYER = [
    "player.total == 8 and player.cards == 3 and player.suited"
    " and banker.total == 8 and banker.cards == 3 and banker.suited",
    "player.total == 8 and player.cards == 3 and player.suited",
    "player.total == 8 and banker.total == 8",
    "player.total == 8 and not player.wins",
    "player.total == 8",
]

ROWS: list[tuple[list[str], str | None]] = [
    (LUCKY_8_BANKER, None),
    (LUCKY_8_PLAYER, None),
    (
        [
            "banker.card3.rank == K and banker.total > 4",
            "banker.card3.colour == red and winner == tie",
        ],
        None,
    ),
    (
        [
            "banker.poker == flush and banker.card3.value == 3",
            "count(round, value == 0) >= 2 and banker.colour == mixed",
        ],
        None,
    ),
    (["banker.suited", "banker.card3.suit != none and banker.third == 2"], "banker.total >= 5"),
]


@cache
def _brute(case: int, shoe: int) -> tuple[list[int], int]:
    """Brute force of a case on a shoe of SHOES, once for the tests that share it."""
    rows, offer = ROWS[case]
    return brute(rows, SHOES[shoe], offer)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the chunks settled by value first."""
    calls: list[int] = []
    settle = sixth_module.SixthByValue.settle

    def spied(self: sixth_module.SixthByValue, *args: Any, **kwargs: Any) -> None:
        calls.append(1)
        settle(self, *args, **kwargs)

    monkeypatch.setattr(sixth_module.SixthByValue, "settle", spied)
    return calls


CASES = [(case, 1) for case in range(len(ROWS))] + [(0, 2)]
"""(rows, shoe): every case on the shoe where each is dealt by value first, Lucky 8 on all."""


@pytest.mark.parametrize(("case", "shoe"), CASES)
def test_sixth_by_value_matches_brute_force(
    case: int, shoe: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows, offer = ROWS[case]
    calls = _spy(monkeypatch)
    assert engine(rows, SHOES[shoe], offer) == _brute(case, shoe)
    assert calls, "the value classes were not used"


@pytest.mark.parametrize("case", range(len(ROWS)))
def test_sixth_by_value_and_fine_classes_agree(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 25-card shoe (too many to deal by hand, suit-asymmetric; Lucky 8's rows are
    dealt with the draws last there), with the value classes on and off."""
    rows, offer = ROWS[case]
    shoe = shoe_of([(r, s) for r in (0, 4, 9, 12) for s in range(4)] * 2 + [(0, 0)])
    calls = _spy(monkeypatch)
    by_value = engine(rows, shoe, offer)
    assert calls or case
    monkeypatch.setattr(sixth_module, "_BY_VALUE", False)
    assert engine(rows, shoe, offer) == by_value


def test_not_used_where_nothing_is_decided_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first row that reads the sixth card's rank in every comparison: no value classes."""
    calls = _spy(monkeypatch)
    rows = ["count(round, rank == K) >= 2", "banker.total == 8"]
    assert engine(rows, SHOES[0]) == brute(rows, SHOES[0])
    assert not calls
    assert sixth_module._may_decide(parse_condition(rows[1]).node)


def test_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cells as Python integers (what shoes beyond int64 use), the same counts."""
    plan = plan_module._plan

    def exact(*args: Any, **kwargs: Any) -> Any:
        return replace(plan(*args, **kwargs), dtype=object)

    rows, _ = ROWS[0]
    expected = _brute(0, 1)
    calls = _spy(monkeypatch)
    monkeypatch.setattr(engine_module, "_plan", exact)
    assert engine(rows, SHOES[1]) == expected
    assert calls


@pytest.mark.parametrize("case", [0, 1])
def test_fifth_card_dealt_apart(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the rows of one four-card cell and one value of the fifth card not merged (what
    the engine falls back to where the fifth card's class decides too much), the same counts."""
    make = sixth_module.sixth_by_value

    def apart(*args: Any, **kwargs: Any) -> Any:
        found = make(*args, **kwargs)
        if found is not None:
            found.grouped = False
        return found

    monkeypatch.setattr(engine_module, "sixth_by_value", apart)
    calls = _spy(monkeypatch)
    rows, offer = ROWS[case]
    assert engine(rows, SHOES[1], offer) == _brute(case, 1)
    assert calls


def test_a_block_with_no_open_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six aces (five of clubs) in blocks of 8 cells: a block whose four-card cells are all
    settled before the fifth card reached the value stage with nothing to settle and failed
    (found by hypothesis in tests/test_cards.py); the counts equal the brute-force dealer's."""
    from tests.test_cards import check

    monkeypatch.setattr(plan_module, "_CELLS", 8)
    shoe = shoe_of([(0, 0)] * 5 + [(0, 1)])
    check(
        [
            "player.total == 0 and (player.wins)",
            "player.total == 0",
            "count(player, colour == red) == 0 and (count(banker, colour == red) == 0)",
        ],
        shoe,
    )
