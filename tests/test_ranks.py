"""Brute force for :mod:`exactodds.counting.ranks`: every ordered six-card sequence of physical
cards of a small shoe, dealt and read by the independent interpreter of ``tests/cardforce.py``,
then keyed by the group's ranks or the shown cards, against the counts by rank."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactodds.counting.classes import reads_suits
from exactodds.counting.ranks import GroupRanks, ShownCards, keyed_counts
from exactodds.deal.shoe import Shoe
from exactodds.errors import PaytableError
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import card_value, shoe_of
from tests.cardforce import Dealt, dealt_rounds, group_cards, holds
from tests.test_cards import condition

ROWS = {
    "winners": ["player.wins", "winner == tie"],
    "pairs": ["player.pair", "banker.card1.rank == K or banker.card3.value > 6"],
}


def _shown(position: str, attr: str, rnd: Dealt) -> int:
    hand = rnd.player if position[0] == "P" else rnd.banker
    card = hand[int(position[1]) - 1]
    return card_value(card) if attr == "value" else card[0] + 1


def brute(
    rows: list[str], shoe: Shoe, key: GroupRanks | ShownCards
) -> Counter[tuple[int, tuple[int, ...]]]:
    nodes = [parse_condition(r).node for r in rows]
    out: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for rnd in dealt_rounds(shoe):
        row = next((i for i, n in enumerate(nodes) if holds(n, rnd)), len(nodes))
        if isinstance(key, ShownCards):
            k = tuple(_shown(p, key.attr, rnd) for p in key.positions)
        else:
            k = tuple(sorted(c[0] + 1 for c in group_cards(key.cards, rnd)))
        out[row, k] += 1
    return out


KEYS: list[GroupRanks | ShownCards] = [
    GroupRanks(("player",)),
    GroupRanks(("round",)),
    GroupRanks(("player.card1", "banker.card3")),
    ShownCards(("P1", "B2")),
    ShownCards(("B1",), "rank"),
]

SMALL = shoe_of([(0, 0), (0, 1), (12, 2), (12, 2), (4, 3), (5, 0), (7, 1), (2, 2)])


@pytest.mark.parametrize("rows", list(ROWS))
def test_keyed_counts_match_physical_sequences(rows: str) -> None:
    conditions = [parse_condition(r) for r in ROWS[rows]] + [OTHERWISE]
    got = keyed_counts(conditions, SMALL, keys=KEYS)
    for key, counts in zip(KEYS, got, strict=True):
        assert Counter({k: n for k, n in counts.counts.items() if n}) == brute(
            ROWS[rows], SMALL, key
        ), key
        assert counts.universe == sum(counts.counts.values())


@settings(max_examples=4, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=7, max_size=7))
def test_keyed_counts_on_drawn_shoes(cards: list[tuple[int, int]]) -> None:
    shoe = shoe_of(cards)
    conditions = [parse_condition(r) for r in ROWS["winners"]] + [OTHERWISE]
    key = GroupRanks(("banker",))
    (got,) = keyed_counts(conditions, shoe, keys=[key])
    assert Counter({k: n for k, n in got.counts.items() if n}) == brute(ROWS["winners"], shoe, key)


def test_suits_are_refused() -> None:
    with pytest.raises(PaytableError, match="suit or a colour"):
        keyed_counts([parse_condition("player.suited"), OTHERWISE], Shoe.decks(1), keys=[])


def test_big_shoes_count_in_python_integers() -> None:
    """30 decks: N(N−1)…(N−5) is over 2⁶², so the weights are Python integers; each row's total
    is the card engine's count (tests/test_cards_staged.py checks that one on big shoes)."""
    from exactodds.counting import row_counts

    shoe = Shoe.decks(30)
    conditions = [parse_condition(r) for r in ROWS["winners"]] + [OTHERWISE]
    (got,) = keyed_counts(conditions, shoe, keys=[GroupRanks(("player",))])
    assert got.universe >= 2**62
    expected = row_counts(conditions, shoe)
    assert [got.row_total(i) for i in range(3)] == list(expected.rows)


SEVEN = shoe_of([(0, 0), (0, 1), (12, 2), (4, 3), (5, 0), (7, 1), (9, 2)])

# Negatives, a literal far beyond int64 and absent third cards, which the grid evaluates in its
# own integer width (int8 between bets: a sum that wrapped would change these counts).
EDGES = [
    "player.total - banker.total == -3",
    "count(round, rank == K) + player.total + banker.total + margin + cards > 20",
    "player.total + 100000000000000000000000 > 100000000000000000000005",
    "player.card3.rank == none and banker.card3.value >= 0",
]


@pytest.mark.parametrize("text", EDGES)
def test_edge_literals_match_physical_sequences(text: str) -> None:
    key = GroupRanks(("round",))
    (got,) = keyed_counts([parse_condition(text), OTHERWISE], SEVEN, keys=[key])
    assert Counter({k: n for k, n in got.counts.items() if n}) == brute([text], SEVEN, key)


@settings(max_examples=8, deadline=None)
@given(condition())
def test_drawn_conditions_match_physical_sequences(text: str) -> None:
    """Conditions drawn from the grammar (tests/test_cards.py), those without suits or colours."""
    parsed = parse_condition(text)
    assume(not reads_suits([parsed]))
    key = ShownCards(("P1", "B2"), "rank")
    (got,) = keyed_counts([parsed, OTHERWISE], SEVEN, keys=[key])
    assert Counter({k: n for k, n in got.counts.items() if n}) == brute([text], SEVEN, key)
