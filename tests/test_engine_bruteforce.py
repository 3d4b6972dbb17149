"""The engine against independent brute force (tests/bruteforce.py) on the whole joint
distribution, plus exact symmetries and hand-computed counts for full shoes."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from math import perm
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome, PairKind, Winner
from exactodds.deal.shoe import RANKS, Shoe, parse_card
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from tests.bruteforce import (
    PhysicalCard,
    outcome_winner,
    physical_joint,
    play_round,
    shoe_of,
    weighted_joint,
)

WEIRD_TOML = """
name = "weird"
description = "Nothing like a real game: odd player totals draw, banker rows scattered."
player_draw = [0, 2, 4, 6, 7]
[banker_draw]
0 = "none"
1 = ["stood"]
2 = [0, 9]
3 = "any"
4 = ["stood", 1, 3, 5]
5 = [8]
6 = "any"
7 = ["stood", 0]
"""

WEIRD = Tableau.from_mapping(tomllib.loads(WEIRD_TOML))
TABLEAUX = [BUILTIN["punto-banco"], BUILTIN["mini"], BUILTIN["pronto"], WEIRD]
TABLEAU_IDS = [t.name for t in TABLEAUX]


def cards(text: str) -> list[PhysicalCard]:
    """Physical cards from a string like 'Ac Ac Kd' (every card needs a suit)."""
    out = []
    for token in text.split():
        card = parse_card(token)
        assert card.suit is not None
        out.append((card.rank, card.suit))
    return out


TINY_SHOES = {
    "six-cards-perfect-pairs": "Ac Ac Ad Ks Ks 5h",
    "six-identical": "7h 7h 7h 7h 7h 7h",
    "tens-and-faces-only": "Tc Tc Jd Qh Ks Ks Kh",
    "one-suit-only": "Ac 2c 3c 4c 5c 6c 7c 8c",
    "naturals-and-fours": "4c 4d 4h 4s 9s 9s 8d 8c",
    "low-cards-many-draws": "2c 2c 3d 3d 2h Ac Ad Th",
    "mixed-nine": "5s 5s 5d 6c Tc Kc 9h 3h 3h",
    "unbalanced-suits": "Qd Qd Qd Qc 7s 7s 2s 6h Ah",
}


@pytest.mark.parametrize("tableau", TABLEAUX, ids=TABLEAU_IDS)
@pytest.mark.parametrize("text", TINY_SHOES.values(), ids=TINY_SHOES.keys())
def test_engine_equals_physical_brute_force(text: str, tableau: Tableau) -> None:
    shoe = shoe_of(cards(text))
    joint = joint_distribution(shoe, tableau)
    expected = physical_joint(shoe, tableau)
    assert dict(joint.counts) == expected
    assert joint.total == sum(expected.values()) == perm(len(cards(text)), 6)


def test_tiny_shoes_exercise_every_pair_kind() -> None:
    """The grid above is not toothless: it contains perfect pairs, pairs and naturals."""
    seen: set[object] = set()
    for text in TINY_SHOES.values():
        for o in physical_joint(shoe_of(cards(text))):
            seen.update({o.player.pair_kind, o.banker.pair_kind, o.player.natural, o.cards})
    assert {PairKind.NONE, PairKind.PAIR, PairKind.PERFECT, True, False, 4, 5, 6} <= seen


def test_weird_tableau_from_file_is_the_same(tmp_path: Path) -> None:
    path = tmp_path / "weird.toml"
    path.write_text(WEIRD_TOML, encoding="utf-8")
    assert Tableau.from_file(path) == WEIRD
    assert 7 in WEIRD.player and 5 not in WEIRD.player
    assert 8 in WEIRD.banker[5] and STOOD not in WEIRD.banker[5]


def test_brute_forces_agree_with_each_other() -> None:
    for text in list(TINY_SHOES.values())[:4]:
        shoe = shoe_of(cards(text))
        for tableau in TABLEAUX:
            assert weighted_joint(shoe, tableau) == physical_joint(shoe, tableau)


# -- somewhat larger shoes, by card type with multiplicities -------------------------------------

LARGER_SHOES = {
    # one deck, 39 cards removed: 13 cards, every rank once, all suits present unevenly
    "one-deck-13-left": shoe_of(cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc")),
    # one deck less 36 cards: 16 left, with pairs of ranks in different suits
    "one-deck-16-left": shoe_of(cards("Ac Ad 3h 3s 5c 5d 6h 7s 8c 8d 9h Ts Jc Qd Kh Ks")),
    # two decks of A, 4, 9, T, K in clubs and diamonds only: 20 cards, many perfect pairs
    "two-decks-five-ranks-two-suits": Shoe(
        tuple((2, 2, 0, 0) if RANKS[r] in "A49TK" else (0, 0, 0, 0) for r in range(13))
    ),
    # three decks of 5s and 8s: 24 cards
    "three-decks-fives-eights": Shoe(
        tuple((3, 3, 3, 3) if RANKS[r] in "58" else (0, 0, 0, 0) for r in range(13))
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("tableau", TABLEAUX, ids=TABLEAU_IDS)
@pytest.mark.parametrize("shoe", LARGER_SHOES.values(), ids=LARGER_SHOES.keys())
def test_engine_equals_weighted_brute_force(shoe: Shoe, tableau: Tableau) -> None:
    assert dict(joint_distribution(shoe, tableau).counts) == weighted_joint(shoe, tableau)


def test_larger_shoe_sizes() -> None:
    assert [s.size for s in LARGER_SHOES.values()] == [13, 16, 20, 24]


# -- random small shoes and random tableaux (hypothesis) -----------------------------------------

physical = st.tuples(st.sampled_from([0, 1, 4, 8, 9, 12]), st.integers(0, 3))
random_shoes = st.lists(physical, min_size=6, max_size=8)
random_tableaux = st.builds(
    lambda p, b: Tableau("random", p, b),
    st.frozensets(st.integers(0, 7)),
    st.tuples(*[st.frozensets(st.integers(0, STOOD)) for _ in range(8)]),
)


@settings(max_examples=40, deadline=None, database=None)
@given(random_shoes, st.sampled_from(TABLEAUX))
def test_engine_equals_brute_force_on_random_shoes(
    physical_cards: list[PhysicalCard], tableau: Tableau
) -> None:
    shoe = shoe_of(physical_cards)
    assert dict(joint_distribution(shoe, tableau).counts) == physical_joint(shoe, tableau)


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(physical, min_size=6, max_size=7), random_tableaux)
def test_engine_equals_brute_force_on_random_tableaux(
    physical_cards: list[PhysicalCard], tableau: Tableau
) -> None:
    shoe = shoe_of(physical_cards)
    assert dict(joint_distribution(shoe, tableau).counts) == physical_joint(shoe, tableau)


@settings(max_examples=15, deadline=None, database=None)
@given(
    st.lists(st.tuples(st.sampled_from([0, 8, 9, 12]), st.integers(0, 3)), min_size=6, max_size=11),
    st.sampled_from(TABLEAUX),
)
def test_engine_equals_weighted_brute_force_on_random_multideck_shoes(
    physical_cards: list[PhysicalCard], tableau: Tableau
) -> None:
    """Several cards of one rank and suit (multi-deck shoes) of A, 9, T and K, whose values
    make naturals, pairs of zeros of different ranks and four-of-a-rank rounds likely."""
    shoe = shoe_of(physical_cards)
    assert dict(joint_distribution(shoe, tableau).counts) == weighted_joint(shoe, tableau)


# -- derived features agree with the hand-dealt round ----------------------------------------------


def test_outcome_properties_match_hand_computation() -> None:
    shoe = shoe_of(cards(TINY_SHOES["mixed-nine"]))
    for outcome in physical_joint(shoe, WEIRD):
        assert outcome.winner == outcome_winner(outcome)
        assert outcome.cards == 4 + (outcome.player.third is not None) + (
            outcome.banker.third is not None
        )


def test_play_round_by_hand_examples() -> None:
    pb = BUILTIN["punto-banco"]
    # P: 2+3=5 draws an 8 -> 3; B: 4+0=4 stands on a player 8 and wins 4 to 3.
    o = play_round(cards("2c 4d 3h Ks 8c 9d"), pb)
    assert (o.player.total, o.banker.third, o.winner) == (3, None, Winner.BANKER)
    # B: 3 draws on any player third card but an 8: here a 9 (3 + 9 = 2) after a player 4.
    o = play_round(cards("2c 3d 2h Ks 9c 9d"), pb)
    assert (o.player.total, o.banker.third, o.banker.total) == (3, 9, 2)
    # Mini: player 6+A=7 stands; banker 4 stands after a player stand (draws under Punto Banco).
    o_mini = play_round(cards("6c 4d Ah Ks 5c 9d"), BUILTIN["mini"])
    o_pb = play_round(cards("6c 4d Ah Ks 5c 9d"), pb)
    assert o_mini.banker.third is None and o_pb.banker.third == 5


# -- full shoes: symmetries and hand-computed counts ------------------------------------------


def _natural_pairs(values: tuple[int, ...]) -> int:
    """Ordered pairs of distinct cards whose two-card total is 8 or 9."""
    return sum(
        values[a] * (values[b] - (a == b))
        for a in range(10)
        for b in range(10)
        if (a + b) % 10 >= 8
    )


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_full_shoe_symmetries(decks: int) -> None:
    shoe = Shoe.decks(decks)
    joint = joint_distribution(shoe)
    n = shoe.size
    total = perm(n, 6)
    assert joint.total == sum(joint.counts.values()) == total
    p_nat = joint.count(lambda o: o.player.natural)
    b_nat = joint.count(lambda o: o.banker.natural)
    assert p_nat == b_nat
    p_pair = joint.count(lambda o: o.player.pair)
    assert p_pair == joint.count(lambda o: o.banker.pair)
    p_perfect = joint.count(lambda o: o.player.perfect_pair)
    assert p_perfect == joint.count(lambda o: o.banker.perfect_pair)
    # Hand computations: second card of the hand matches the first card's rank (4d-1 of the
    # n-1 others) or its rank and suit (d-1 of them); naturals by value counts.
    assert Fraction(p_pair, total) == Fraction(4 * decks - 1, n - 1)
    assert Fraction(p_perfect, total) == Fraction(decks - 1, n - 1)
    assert Fraction(p_nat, total) == Fraction(_natural_pairs(shoe.value_counts), n * (n - 1))
    # A natural in either hand ends the deal after four cards.
    assert joint.count(lambda o: (o.player.natural or o.banker.natural) and o.cards != 4) == 0


def test_one_deck_has_no_perfect_pairs() -> None:
    joint = joint_distribution(Shoe.decks(1))
    assert all(o.player.pair_kind != PairKind.PERFECT for o, n in joint if n)
    assert all(isinstance(n, int) and n > 0 for _, n in joint)


def test_outcome_keys_are_engine_types() -> None:
    joint = joint_distribution(shoe_of(cards(TINY_SHOES["mixed-nine"])))
    for o in joint.counts:
        assert isinstance(o, Outcome)
        assert o.player.third is None or 0 <= o.player.third <= 9
