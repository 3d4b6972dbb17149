"""The card engine's staged path (the first four cards as one block, then the rounds where a
hand draws, then those where both draw; suit symmetry inside the block; poker by table) against
brute force over physical card sequences and against the general path: depleted and
suit-asymmetric shoes, offers and cards known by position."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactodds.counting.plan as plan_module
from exactodds.counting import row_counts
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import physical_cards, shoe_of
from tests.cardforce import deal, holds
from tests.test_cards import condition, small_shoe


def brute(
    rows: Sequence[str],
    shoe: Shoe,
    offer: str | None = None,
    known: Mapping[str, Collection[tuple[int, int]]] | None = None,
) -> tuple[list[int], int]:
    """Per row the physical six-card sequences it settles first, among those offered whose
    cards agree with ``known`` (a known third card also says the hand drew it)."""
    nodes = [parse_condition(r).node for r in rows] + [OTHERWISE.node]
    offer_node = parse_condition(offer).node if offer else None
    counts = [0] * len(nodes)
    offered = 0
    for seq in permutations(physical_cards(shoe), 6):
        if known and any(
            seq[i] not in known.get(p, (seq[i],)) for i, p in enumerate(["P1", "B1", "P2", "B2"])
        ):
            continue
        rnd = deal(seq)
        if known and "P3" in known and (len(rnd.player) < 3 or rnd.player[2] not in known["P3"]):
            continue
        if known and "B3" in known and (len(rnd.banker) < 3 or rnd.banker[2] not in known["B3"]):
            continue
        if offer_node is not None and not holds(offer_node, rnd):
            continue
        offered += 1
        for i, node in enumerate(nodes):
            if holds(node, rnd):
                counts[i] += 1
                break
    return counts, offered


def engine(
    rows: Sequence[str],
    shoe: Shoe,
    offer: str | None = None,
    known: Mapping[str, Collection[tuple[int, int]]] | None = None,
) -> tuple[list[int], int]:
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    got = row_counts(conditions, shoe, offer=parse_condition(offer) if offer else None, known=known)
    return list(got.rows), got.offered


SHOES = [
    # suit-symmetric: every rank in all four suits (the symmetry is used inside the block)
    shoe_of([(r, s) for r in (0, 8) for s in range(4)]),
    # depleted and asymmetric: repeated cards, suits missing for some ranks
    shoe_of([(0, 0), (0, 0), (8, 1), (12, 1), (12, 2), (4, 3), (7, 0), (9, 2)]),
    # colour-symmetric but not suit-symmetric
    shoe_of([(1, 0), (1, 3), (5, 1), (5, 2), (9, 0), (9, 1), (11, 2), (11, 3)]),
]

ROWS = [
    ["player.poker == flush and banker.poker in [flush, straight_flush]"],
    ["player.poker == pair", "banker.poker == straight", "initial.poker == two_pair"],
    ["player.suited and banker.suited", "count(round, suit == clubs) >= 3"],
    ["banker.card3.suit == player.card1.suit", "player.card3.rank == none and banker.wins"],
    ["count(round, colour == red) == 6", "player.total + banker.total == 9"],
    [  # poker categories decided by a hand's first two cards (three-valued, by hope)
        "player.poker != high_card and banker.poker in [pair, three_of_a_kind]",
        "not (banker.poker == flush) and straight == player.poker",
        "player.poker in [straight_flush] or banker.poker != pair",
    ],
]


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize("shoe", range(len(SHOES)))
def test_staged_matches_brute_force(rows: list[str], shoe: int) -> None:
    assert engine(rows, SHOES[shoe]) == brute(rows, SHOES[shoe])


@pytest.mark.parametrize("shoe", range(len(SHOES)))
def test_staged_offers_and_known_cards(shoe: int) -> None:
    s = SHOES[shoe]
    cards = sorted(set(physical_cards(s)))
    for rows, offer, known in [
        (ROWS[0], "player.initial < 6", None),
        (ROWS[2], "count(initial, colour == red) >= 1", {"P1": cards[:3]}),
        (ROWS[1], None, {"B2": cards[1:], "P3": cards[:4]}),
        (ROWS[3], None, {"B3": cards[2:5]}),
        (ROWS[4], "banker.initial <= 5", {"P3": cards[::2], "B3": cards[1::2]}),
    ]:
        assert engine(rows, s, offer, known) == brute(rows, s, offer, known), (rows, known)


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize("extra", [[], [(0, 0)]])
def test_staged_and_general_paths_agree(
    rows: list[str], extra: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On shoes of 24 and 25 cards in four suits (too many to deal by hand; the first
    symmetric, the second not) both paths agree."""
    shoe = shoe_of([(r, s) for r in (0, 4, 12) for s in range(4)] * 2 + extra)
    staged = engine(rows, shoe)
    monkeypatch.setattr(plan_module, "_STAGED", False)
    assert engine(rows, shoe) == staged


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(condition(), min_size=1, max_size=3),
    offer=st.none() | condition(first_four=True),
    shoe=small_shoe(),
    block=st.sampled_from([8, 64, 1 << 20]),
    staged=st.booleans(),
    data=st.data(),
)
def test_random_conditions_and_known_cards_match_brute_force(
    *,
    rows: list[str],
    offer: str | None,
    shoe: Shoe,
    block: int,
    staged: bool,
    data: st.DataObject,
) -> None:
    cards = sorted(set(physical_cards(shoe)))
    positions = data.draw(st.sets(st.sampled_from(["P1", "B1", "P2", "B2", "P3", "B3"])))
    known = {p: data.draw(st.sets(st.sampled_from(cards), min_size=1)) for p in positions}
    old = plan_module._CELLS, plan_module._STAGED
    plan_module._CELLS, plan_module._STAGED = block, staged
    try:
        assert engine(rows, shoe, offer, known or None) == brute(rows, shoe, offer, known)
    finally:
        plan_module._CELLS, plan_module._STAGED = old


def test_known_cards_closed_under_suits_keep_the_symmetry() -> None:
    """Cards known by rank (all four suits) leave the suit symmetry in use, and the counts
    still match brute force; a single known suit breaks it."""
    shoe = SHOES[0]  # aces and nines of every suit
    aces = [(0, s) for s in range(4)]
    nines = [(8, s) for s in range(4)]
    tableau = BUILTIN["punto-banco"]
    for rows, known in [
        (ROWS[0], {"P1": aces}),
        (ROWS[1], {"B1": nines, "P3": aces}),
        (ROWS[3], {"P2": aces + nines, "B3": nines}),
    ]:
        conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
        plan = plan_module._plan(conditions, shoe, tableau, offer=None, known=known)
        assert len(plan.group) == 24, rows
        assert engine(rows, shoe, None, known) == brute(rows, shoe, None, known), (rows, known)
    plan = plan_module._plan(
        [parse_condition(ROWS[0][0]), OTHERWISE], shoe, tableau, offer=None, known={"P1": [(0, 0)]}
    )
    assert len(plan.group) == 6  # the permutations fixing clubs


def test_big_shoes_count_in_python_integers() -> None:
    """Beyond int64 (N⁶ ≥ 2⁶³: 40 decks) the cells are Python integers: the classic main bets
    and a pair still give the value engine's combinations, and a card-level bet the same counts on
    both paths."""
    from exactodds.bets.loader import load_paytable
    from exactodds.deal.engine import joint_distribution

    shoe = Shoe.decks(40)
    assert shoe.size**6 >= 1 << 63
    joint = joint_distribution(shoe)
    for bet in load_paytable("classic").bets[:4]:  # player, banker, tie, player pair
        got = row_counts([r.when for r in bet.rows], shoe)
        assert list(got.rows) == bet.row_combinations(joint), bet.id
    rows = ["player.colour == red and banker.card3.value > 4"]
    staged = engine(rows, shoe)
    old = plan_module._STAGED
    plan_module._STAGED = False
    try:
        assert engine(rows, shoe) == staged
    finally:
        plan_module._STAGED = old


def test_the_cheaper_order_deals_the_draws_last() -> None:
    """A bet whose third card matters only on rounds without draws (a suited two-card 9)
    is planned with the draws last when the estimate says it is cheaper, and counts as brute
    force does on either plan."""
    rows = [
        "player.initial == 9 and player.suited",
        "player.initial == 9 and (player.card1.value == 0 or player.card2.value == 0)",
    ]
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    tableau = BUILTIN["punto-banco"]
    old = plan_module._LUMPS
    plan_module._LUMPS = False  # in lumps, the sixth card (value unread) is one class
    try:
        plan = plan_module._plan(conditions, Shoe.decks(8), tableau, offer=None, known=None)
    finally:
        plan_module._LUMPS = old
    assert plan_module._staged(plan)
    assert [a.slot for a in plan.axes][-2:] == [4, 5]
    for shoe in SHOES:
        assert engine(rows, shoe) == brute(rows, shoe)


def test_known_cards_of_both_colours_keep_the_colour_symmetry_apart() -> None:
    """A position known as one of two cards of different colours (Tc or Td) refines its
    classes to suits, which drops the colour bit; the suit swap c <-> d that maps the known
    cards onto themselves must still be refused where a condition reads colours (it made every
    round of this offer count 0: the worked example of issue 32)."""
    shoe = shoe_of([(9, 0), (9, 1), (1, 2), (1, 3), (9, 3), (2, 3), (3, 2), (3, 3)])
    rows = ["count(round, value != 0) != 4"]
    offer = "banker.card2.value in [0, 3] and shape(initial, colour) != [3, 1]"
    known = {"P1": [(9, 3)], "B1": [(1, 2)], "P2": [(1, 3)], "B2": [(9, 0), (9, 1)]}
    assert engine(rows, shoe, offer, known) == brute(rows, shoe, offer, known) == ([6, 6], 12)
    b2 = {"B2": known["B2"]}
    assert engine(rows, shoe, offer, b2) == brute(rows, shoe, offer, b2)
