"""Ranks read only against literals are dealt in lumps (exactodds.counting.classes
._rank_coding): ranks that no test and no value read tells apart are one class; and cards
(rank × suit identities) that no one-card test tells apart (exactodds.counting.lumps). Against
brute force over physical card sequences, with cards known by position that respect the lumps
and that split them, and with the card lumps turned on and off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactodds.counting.lumps as lumps_module
import exactodds.counting.plan as plan_module
from exactodds.counting import work
from exactodds.counting.classes import Lumped
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, Node, parse_condition
from tests.bruteforce import shoe_of
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


# -- cards in lumps (issue 33: bets that name particular cards) -----------------------------

NAMED = [  # issue 33's two cases, as benchmarks/cards.py writes them
    [
        "count(round, rank == K and suit == hearts) >= 2",
        "count(round, rank == Q and suit == spades) >= 2",
        "count(round, rank == A and suit == diamonds) >= 2",
    ],
    [
        "player.card3.suit == hearts and banker.card3.suit == hearts "
        "and player.card1.rank == banker.card1.rank",
        "player.card3.suit == hearts and banker.card3.suit == hearts",
        "count(round, suit == clubs) == 6",
        "count(round, rank == 7 and suit == diamonds) == 2",
    ],
    [  # a value read inside count only: the sixth card's lumps still show their values
        "count(round, suit == diamonds and value >= 5) == 1",
        "banker.card3.rank == K and banker.card3.suit == hearts",
    ],
]

# Seven cards (5,040 sequences of six): the named cards twice, cards that share their rank or
# their suit, and one that shares neither; a suit-symmetric one where only hearts is named.
NAMED_SHOES = [
    shoe_of([(12, 2), (12, 2), (12, 0), (11, 3), (11, 2), (0, 1), (6, 1)]),
    shoe_of([(6, 1), (6, 1), (6, 0), (9, 2), (9, 0), (12, 2), (4, 3)]),
    shoe_of([(12, 2), (12, 2), (12, 0), (12, 1), (12, 3), (1, 2), (1, 0)]),
]


@pytest.fixture
def lumps_off() -> Iterator[None]:
    old = plan_module._LUMPS
    plan_module._LUMPS = False
    try:
        yield
    finally:
        plan_module._LUMPS = old


def both_ways(
    rows: list[str], shoe: Shoe, known: dict[str, list[tuple[int, int]]] | None = None
) -> tuple[list[int], int]:
    """The engine's counts with the card lumps on, checked equal to theirs with them off."""
    on = engine(rows, shoe, None, known)
    old = plan_module._LUMPS
    plan_module._LUMPS = False
    try:
        assert engine(rows, shoe, None, known) == on, rows
    finally:
        plan_module._LUMPS = old
    return on


@pytest.mark.parametrize(("case", "shoe"), [(0, 0), (1, 1), (0, 2), (1, 2), (2, 0)])
def test_named_cards_match_brute_force(case: int, shoe: int) -> None:
    rows = NAMED[case]
    want = brute(rows, NAMED_SHOES[shoe])
    assert want[0][0] or want[0][1]  # a row the shoe can settle
    assert both_ways(rows, NAMED_SHOES[shoe]) == want


def test_named_cards_known_cards_respecting_or_splitting_the_lumps() -> None:
    rows = NAMED[0]
    shoe = NAMED_SHOES[0]
    for known in [
        {"P1": [(12, 2)]},  # the king of hearts: a class of its own
        {"B1": [(12, 0)], "P3": [(12, 2), (11, 3)]},  # the king of clubs: inside a lump
        {"P2": [(0, 1), (6, 1)]},  # two cards of one lump (value apart: the tableau)
    ]:
        assert both_ways(rows, shoe, known) == brute(rows, shoe, None, known), known


def test_named_cards_deal_few_classes_on_eight_decks() -> None:
    """On 8 decks: two K♥, Q♠, A♦ deal 13 classes (A♦, the other aces, 2-9, Q♠, K♥, the
    other cards of value 0) and the sixth card 4 (its value unread); the third cards' hearts
    beside six clubs and two 7♦ at most 40 (the first cards' ranks are compared). The work
    estimate follows: well under a second, where it said 10¹¹ operations before."""
    tableau = BUILTIN["punto-banco"]
    shoe = Shoe.decks(8)
    sizes = []
    for rows in NAMED[:2]:
        conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
        plan = plan_module._plan(conditions, shoe, tableau, offer=None, known=None)
        sizes.append(sorted(len(a) for a in plan.axes))
        assert work(conditions, shoe) < 4 * 10**9
    assert sizes == [[4, 13, 13, 13, 13, 13], [4, 31, 31, 31, 40, 40]]


def test_lumps_respect_the_suits_named() -> None:
    """Only hearts named: the other suits may be permuted (their lumps map onto lumps), not
    hearts; suits compared with each other keep every permutation."""
    hearts = [parse_condition("count(round, rank == K and suit == hearts) >= 2").node]
    keys, _ = lumps_module.slot_lumps(hearts) or ((), ())
    assert all(lumps_module.keeps(keys, g) for g in [(0, 3, 2, 1), (1, 0, 2, 3)])
    assert not lumps_module.keeps(keys, (0, 1, 3, 2))  # hearts moved
    compared = "player.card1.suit == banker.card1.suit and count(round, rank == K) >= 2"
    conditions = [parse_condition(compared), OTHERWISE]
    plan = plan_module._plan(
        conditions, Shoe.decks(8), BUILTIN["punto-banco"], offer=None, known=None
    )
    assert len(plan.group) == 24  # suits compared with each other: every permutation kept
    assert isinstance(plan.axes[0].coding, Lumped)
    suited = lumps_module.slot_lumps([parse_condition("player.suited").node])
    assert suited is not None  # the player's cards by suit alone, the banker's one class
    assert [len(set(k)) for k in suited[0]] == [4, 1, 4, 1, 4, 1]


def test_a_wrong_lump_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The brute-force checks above can fail: lumps that merge the king of hearts with the
    king of clubs give other counts."""
    rows = NAMED[0][:1]
    shoe = NAMED_SHOES[0]
    want = brute(rows, shoe)
    assert engine(rows, shoe) == want

    def wrong(nodes: list[Node]) -> lumps_module.Lumps:
        found = lumps_module.slot_lumps(nodes)
        assert found is not None
        keys, valued = found
        merged = tuple(tuple(k[48] if c == 50 else x for c, x in enumerate(k)) for k in keys)
        return merged, valued

    monkeypatch.setattr(plan_module, "slot_lumps", wrong)
    assert engine(rows, shoe) != want


# Conditions naming rank-suit identities: one card's rank and suit inside count, a card's
# rank and suit against literals (absent third cards, none), with negative and huge literals,
# beside a rank compared with another card's.
RANKS = ["A", "2", "7", "10", "J", "Q", "K"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]


@st.composite
def named_card(draw: st.DrawFn) -> str:
    rank, suit = draw(st.sampled_from(RANKS)), draw(st.sampled_from(SUITS))
    form = draw(st.integers(0, 3))
    if form == 0:
        return f"rank == {rank} and suit == {suit}"
    if form == 1:
        return f"not (rank == {rank} or suit != {suit})"
    if form == 2:
        return f"rank in [{rank}, {draw(st.sampled_from(RANKS))}] and colour == red"
    return f"suit == {suit} and value >= {draw(st.integers(0, 9))}"


@st.composite
def named_atom(draw: st.DrawFn) -> str:
    choice = draw(st.integers(0, 4))
    literal = draw(st.sampled_from([-1, 0, 1, 2, 3, 7, 10**29]))
    if choice <= 1:
        group = draw(st.sampled_from(["round", "player", "banker", "initial"]))
        op = draw(st.sampled_from(["==", ">=", "<", "!="]))
        count = f"count({group}, {draw(named_card())})"
        if draw(st.booleans()):
            return f"{count} in [{literal}, {draw(st.integers(0, 3))}]"
        return f"{count} {op} {literal}" if draw(st.booleans()) else f"{literal} {op} {count}"
    card = f"{draw(st.sampled_from(['player', 'banker']))}.card{draw(st.integers(1, 3))}"
    if choice == 2:
        rank = draw(st.sampled_from([*RANKS, "none"]))
        suit = draw(st.sampled_from(SUITS))
        return f"{card}.rank == {rank} and {card}.suit == {suit}"
    if choice == 3:
        return f"{card}.suit != {draw(st.sampled_from(SUITS))} and {card}.rank != none"
    return "player.card1.rank == banker.card1.rank"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(
        st.tuples(named_atom(), st.sampled_from(["and", "or", "and not"]), named_atom()).map(
            lambda t: f"{t[0]} {t[1]} ({t[2]})"
        )
        | named_atom(),
        min_size=1,
        max_size=3,
    ),
    shoe=st.sampled_from(NAMED_SHOES),
)
def test_random_named_cards_match_brute_force(rows: list[str], shoe: Shoe) -> None:
    assert both_ways(rows, shoe) == brute(rows, shoe)
