"""Ranks read only against literals are dealt in lumps (exactodds.counting.classes
._rank_coding): ranks that no test and no value read tells apart are one class. Against brute
force over physical card sequences, with cards known by position that respect the lumps and
that split them."""

from __future__ import annotations

import pytest

import exactodds.counting.plan as plan_module
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.test_cards_staged import SHOES, brute, engine

ROWS = [
    # Lucky Nines' shape: values unread, nines x suits and the rest x suits
    ["count(initial, rank == 9 and suit == clubs) == 1", "count(initial, rank == 9) >= 2"],
    # values read (the tableau): lumps inside a value only
    [
        "player.card1.rank in [J, Q, K] and player.total == 8",
        "count(round, rank in [10, J, Q, K] and colour == red) >= 2",
    ],
    ["banker.card3.rank != none and 5 == banker.card2.rank", "player.card3.rank == none"],
]


@pytest.mark.parametrize(("case", "shoe"), [(0, 1), (0, 2), (1, 1), (2, 1)])
def test_lumped_ranks_match_brute_force(case: int, shoe: int) -> None:
    rows = ROWS[case]
    assert engine(rows, SHOES[shoe]) == brute(rows, SHOES[shoe])


def test_known_cards_respecting_or_splitting_the_lumps() -> None:
    s = SHOES[1]  # aces, nines, kings, fives, eights, tens; depleted, suit-asymmetric
    for known in [
        {"P1": [(8, 1)]},  # the nine of diamonds: a class of its own
        {"B1": [(0, 0)]},  # the ace of clubs: inside the lump of the other clubs
        {"P2": [(12, 1), (12, 2)], "B2": [(8, 2), (0, 0), (12, 1)]},
    ]:
        assert engine(ROWS[0], s, None, known) == brute(ROWS[0], s, None, known), known


def test_lucky_nines_deals_three_classes_a_card() -> None:
    """On 8 decks each of the four cards is dealt over the nine of clubs, the other nines and
    the rest (cards in lumps; 8 classes with ranks in lumps alone); a rank compared with
    another card's keeps the ranks apart (13 ranks x clubs or not, not 52)."""
    tableau = BUILTIN["punto-banco"]
    nines = [parse_condition(r) for r in ROWS[0]] + [OTHERWISE]
    plan = plan_module._plan(nines, Shoe.decks(8), tableau, offer=None, known=None)
    assert [len(a) for a in plan.axes] == [3, 3, 3, 3]
    text = "player.card1.rank == banker.card1.rank and player.card1.suit == clubs"
    pair = [parse_condition(text), OTHERWISE]
    plan = plan_module._plan(pair, Shoe.decks(8), tableau, offer=None, known=None)
    assert max(len(a) for a in plan.axes) == 26
    old = plan_module._LUMPS
    plan_module._LUMPS = False
    try:
        plan = plan_module._plan(nines, Shoe.decks(8), tableau, offer=None, known=None)
        assert [len(a) for a in plan.axes] == [8, 8, 8, 8]
        plan = plan_module._plan(pair, Shoe.decks(8), tableau, offer=None, known=None)
        assert max(len(a) for a in plan.axes) == 52
    finally:
        plan_module._LUMPS = old


def test_values_kept_where_read() -> None:
    """The same trees lump ranks of different values only where values are not read (no
    tableau): worked examples and dealt bets keep them apart."""
    from exactodds.counting.classes import _rank_coding

    nodes = [parse_condition(r).node for r in ROWS[0]]
    apart, merged = _rank_coding(nodes, True), _rank_coding(nodes, False)
    assert apart is not None and merged is not None
    assert apart[1][12] != apart[1][0] and merged[1][12] == merged[1][0]  # K and A
