"""The hand computations of tests/independent.py against a physical brute force.

The brute force deals every ordered four-card sequence of distinct physical cards
(``itertools.permutations``) from a tiny shoe — the definition of the counting universe — so
the closed forms used as references elsewhere are themselves tested.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from fractions import Fraction
from itertools import permutations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.deal.shoe import RANK_VALUES, Shoe, parse_cards
from tests.independent import (
    both_pairs_probability,
    both_perfect_pairs_probability,
    either_pair_probability,
    either_perfect_pair_probability,
    exactly_one_perfect_pair_probability,
    natural_probability,
    percent,
    perfect_pair_probability,
    player_pair_probability,
)

Card = tuple[int, int]  # (rank index, suit index)
Four = tuple[Card, Card, Card, Card]
PUBLISHED = tomllib.loads(
    (Path(__file__).parent / "data" / "published_8_decks.toml").read_text(encoding="utf-8"),
    parse_float=Fraction,
)


def shoe_from(cards: list[Card]) -> Shoe:
    """The Shoe holding exactly these physical cards."""
    rows = [[0, 0, 0, 0] for _ in range(13)]
    for rank, suit in cards:
        rows[rank][suit] += 1
    return Shoe(tuple((a, b, c, d) for a, b, c, d in rows))


def physical(text: str) -> list[Card]:
    """Physical cards from a card string whose every card has a suit."""
    out = []
    for card in parse_cards(text):
        assert card.suit is not None
        out.append((card.rank, card.suit))
    return out


def brute(cards: list[Card], event: Callable[[Four], bool]) -> Fraction:
    """P(event) over every ordered four-card sequence of distinct physical cards.
    Positions: 0 = Player 1st, 1 = Banker 1st, 2 = Player 2nd, 3 = Banker 2nd."""
    hits = total = 0
    for seq in permutations(cards, 4):
        total += 1
        hits += event(seq)
    return Fraction(hits, total)


def p_pair(s: Four) -> bool:
    return s[0][0] == s[2][0]


def b_pair(s: Four) -> bool:
    return s[1][0] == s[3][0]


def p_perfect(s: Four) -> bool:
    return s[0] == s[2]


def b_perfect(s: Four) -> bool:
    return s[1] == s[3]


def p_natural(s: Four) -> bool:
    return (RANK_VALUES[s[0][0]] + RANK_VALUES[s[2][0]]) % 10 >= 8


def b_natural(s: Four) -> bool:
    return (RANK_VALUES[s[1][0]] + RANK_VALUES[s[3][0]]) % 10 >= 8


SMALL_SHOES = [
    # duplicates for perfect pairs, ten and king (not a pair), naturals 9 (A8), 8 (99, 8K)
    "Ac Ac Ad 8c 8c Ks Qs Th 9d 9d",
    # four cards of one type: the n(n-1)(n-2)(n-3) term of both-pairs
    "5h 5h 5h 5h 3c Kd",
    # no pair possible at all
    "Ac 2c 3c 4c 5c 6c 7c",
    # unbalanced: many tens of mixed ranks and suits
    "Tc Tc Td Jc Jh Qs Ks Ks 4d",
]


def check_all(cards: list[Card]) -> None:
    shoe = shoe_from(cards)
    assert player_pair_probability(shoe) == brute(cards, p_pair) == brute(cards, b_pair)
    assert both_pairs_probability(shoe) == brute(cards, lambda s: p_pair(s) and b_pair(s))
    assert either_pair_probability(shoe) == brute(cards, lambda s: p_pair(s) or b_pair(s))
    assert perfect_pair_probability(shoe) == brute(cards, p_perfect) == brute(cards, b_perfect)
    assert both_perfect_pairs_probability(shoe) == brute(
        cards, lambda s: p_perfect(s) and b_perfect(s)
    )
    assert either_perfect_pair_probability(shoe) == brute(
        cards, lambda s: p_perfect(s) or b_perfect(s)
    )
    assert exactly_one_perfect_pair_probability(shoe) == brute(
        cards, lambda s: p_perfect(s) != b_perfect(s)
    )
    assert natural_probability(shoe) == brute(cards, p_natural) == brute(cards, b_natural)


def test_small_shoes_match_physical_brute_force() -> None:
    for text in SMALL_SHOES:
        check_all(physical(text))


def test_small_shoes_are_not_degenerate() -> None:
    # the first shoe exercises every formula with a non-trivial value
    shoe = shoe_from(physical(SMALL_SHOES[0]))
    for f in (
        both_pairs_probability,
        both_perfect_pairs_probability,
        natural_probability,
        exactly_one_perfect_pair_probability,
    ):
        assert 0 < f(shoe) < 1
    # a perfect pair is a pair: the formulas keep the inclusion
    assert perfect_pair_probability(shoe) < player_pair_probability(shoe)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 3)),
        min_size=6,
        max_size=8,
    ).map(lambda cards: [*cards[:3], *cards])  # force repeated physical types
)
def test_random_small_shoes_match_physical_brute_force(cards: list[Card]) -> None:
    check_all(cards[:9])


def test_eight_deck_player_pair_matches_published_edge() -> None:
    published = PUBLISHED["house_edge"]["player_pair"]
    edge = 1 - 12 * player_pair_probability(Shoe.decks(8))
    assert percent(edge, published["decimals"]) == Fraction(published["percent"])


def test_full_shoes_by_hand() -> None:
    # one deck: 3 of the 51 remaining cards pair the first; no perfect pair is possible
    one = Shoe.decks(1)
    assert player_pair_probability(one) == Fraction(3, 51)
    assert perfect_pair_probability(one) == 0
    assert both_perfect_pairs_probability(one) == 0
    # six decks: 23 of 311 cards pair the first, 5 of 311 pair it perfectly
    six = Shoe.decks(6)
    assert player_pair_probability(six) == Fraction(23, 311)
    assert perfect_pair_probability(six) == Fraction(5, 311)
