"""The market side bets of issue 16 item 5 against their published figures.

tests/data/market_edges.toml holds each bet's published house edge (and, where the source
prints them, its combination counts or per-offer probabilities), each with its "# Source:" line.
tests/market_independent.py computes the same figures by its own enumeration over card types;
here it is checked against the published figures (8 decks) and against a brute force over every
ordered sequence of distinct physical cards of small random shoes (hypothesis).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.deal.shoe import Shoe
from tests.bruteforce import outcome_winner, physical_cards, play_round
from tests.market_independent import (
    Card,
    colour_match_counts,
    edge,
    insurance_offer,
    jackpot_counts,
    lucky_nines_counts,
    majestic_match_counts,
    perfect_9_counts,
    poker_category,
)

DATA = Path(__file__).parent / "data" / "market_edges.toml"
PUBLISHED: dict[str, dict[str, dict[str, Any]]] = tomllib.loads(DATA.read_text(encoding="utf-8"))

Counts = tuple[dict[str, int], int]

# Each bundled bet: (the independent counter, the cards it reads, its pays to 1 by event).
PAYS: dict[tuple[str, str], tuple[Callable[[Shoe], Counts], int, dict[str, Fraction]]] = {
    ("colour-match", "colour_match"): (
        colour_match_counts,
        4,
        {"Four cards of one colour": Fraction(6)},
    ),
    ("perfect-9", "perfect_9"): (
        perfect_9_counts,
        2,
        {"Suited 9": Fraction(20), "Unsuited 9": Fraction(10), "9 with a ten or face": Fraction(5)},
    ),
    ("majestic-match", "majestic_player"): (
        majestic_match_counts,
        2,
        {"Suited king and queen": Fraction(25), "Suited": Fraction(5, 2)},
    ),
    ("majestic-match", "majestic_banker"): (
        majestic_match_counts,
        2,
        {"Suited king and queen": Fraction(25), "Suited": Fraction(5, 2)},
    ),
    ("lucky-nines", "lucky_nines"): (
        lucky_nines_counts,
        4,
        {
            "Four nines": Fraction(1000),
            "Three nines of one suit": Fraction(500),
            "Three nines": Fraction(35),
            "Two nines of one suit": Fraction(16),
            "Two nines": Fraction(5),
            "Nine of diamonds": Fraction(2),
            "One nine": Fraction(1),
        },
    ),
    ("jackpot-baccarat", "jackpot"): (
        jackpot_counts,
        4,
        {
            "Mini royal": Fraction(250),
            "Four of a kind": Fraction(75),
            "Straight flush": Fraction(50),
            "Three of a kind": Fraction(15),
            "Flush": Fraction(10),
            "Straight": Fraction(5),
            "Two pair": Fraction(4),
            "Pair of aces": Fraction(2),
            "Pair of tens to kings": Fraction(0),
        },
    ),
}
FIGURES = sorted(PAYS)
INSURANCE = sorted(PUBLISHED["insurance"])


@cache
def eight_deck_counts(paytable: str, bet: str) -> Counts:
    counter, _, _ = PAYS[paytable, bet]
    return counter(Shoe.decks(8))


def independent_edge(paytable: str, bet: str, shoe: Shoe) -> Fraction:
    """The bet's exact house edge on ``shoe`` by tests/market_independent.py."""
    counter, _, pays = PAYS[paytable, bet]
    counts, total = eight_deck_counts(paytable, bet) if shoe == Shoe.decks(8) else counter(shoe)
    return edge(counts, total, pays)


def insurance_figures(shoe: Shoe, player: int, banker: int) -> Counts:
    return insurance_offer(shoe, lambda p, b: (p, b) == (player, banker))


def insurance_ev(shoe: Shoe, entry: dict[str, Any]) -> Fraction:
    counts, total = insurance_figures(shoe, entry["player"], entry["banker"])
    return -edge(counts, total, {"Player wins": Fraction(entry["pays"]), "Tie": Fraction(0)})


def rounded(x: Fraction, text: str) -> Fraction:
    """``x`` rounded to as many decimals as the published ``text`` has."""
    decimals = len(text.partition(".")[2])
    return Fraction(round(x, decimals))


# -- the data file --------------------------------------------------------------------------------


def test_every_figure_has_its_source_line() -> None:
    """Each [PAYTABLE.BET] table is preceded by a comment block holding a "# Source:" line."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    headers = [i for i, line in enumerate(lines) if re.match(r"^\[[\w-]+\.\w+\]$", line)]
    assert len(headers) == len(FIGURES) + len(INSURANCE)
    for i in headers:
        j = i - 1
        block = []
        while j >= 0 and lines[j].startswith("#"):
            block.append(lines[j])
            j -= 1
        assert any(line.startswith("# Source: ") for line in block), lines[i]
    assert {(p, b) for p in PUBLISHED for b in PUBLISHED[p] if p != "insurance"} == set(FIGURES)


# -- independent figures against the published ones (8 decks) ------------------------------------


@pytest.mark.parametrize(("paytable", "bet"), FIGURES)
def test_independent_edge_reproduces_the_published_edge(paytable: str, bet: str) -> None:
    entry = PUBLISHED[paytable][bet]
    exact = independent_edge(paytable, bet, Shoe.decks(8))
    assert round(100 * exact, entry["decimals"]) == Fraction(entry["percent"])


@pytest.mark.parametrize(
    ("paytable", "bet"), [f for f in FIGURES if "combinations" in PUBLISHED[f[0]][f[1]]]
)
def test_independent_counts_are_the_published_combinations(paytable: str, bet: str) -> None:
    _, k, _ = PAYS[paytable, bet]
    counts, total = eight_deck_counts(paytable, bet)
    orders = 24 if k == 4 else 2  # ordered sequences of k distinct cards per combination
    published = PUBLISHED[paytable][bet]["combinations"]
    assert {e: counts.get(e, 0) // orders for e in published} == published
    assert all(counts.get(e, 0) % orders == 0 for e in published)
    assert total // orders == (416 * 415 // 2 if k == 2 else 416 * 415 * 414 * 413 // 24)


@pytest.mark.parametrize("bet", INSURANCE)
def test_independent_insurance_reproduces_the_published_offer(bet: str) -> None:
    entry = PUBLISHED["insurance"][bet]
    counts, total = insurance_figures(Shoe.decks(8), entry["player"], entry["banker"])
    for event, key in (
        ("Player wins", "player_win"),
        ("Banker wins", "banker_win"),
        ("Tie", "tie"),
    ):
        assert rounded(Fraction(counts[event], total), entry[key]) == Fraction(entry[key]), key
    assert rounded(insurance_ev(Shoe.decks(8), entry), entry["ev"]) == Fraction(entry["ev"])


# -- the independent calculator against physical cards ------------------------------------------

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def small_shoe(cards: list[tuple[int, int]]) -> Shoe:
    rows = [[0, 0, 0, 0] for _ in range(13)]
    for rank, suit in cards:
        rows[rank][suit] += 1
    return Shoe(tuple((a, b, c, d) for a, b, c, d in rows))


def physical_events(
    shoe: Shoe, k: int, classify: Callable[[tuple[Card, ...]], str | None]
) -> Counter[str]:
    """Events over every ordered k-sequence of distinct physical cards (positions in deal
    order: Player, Banker, Player, Banker)."""
    cards = [(RANK_NAMES[r], SUIT_NAMES[s]) for r, s in physical_cards(shoe)]
    out: Counter[str] = Counter()
    for seq in permutations(cards, k):
        event = classify(seq)
        if event is not None:
            out[event] += 1
    return out


def _colour(seq: tuple[Card, ...]) -> str | None:
    reds = sum(s in ("diamonds", "hearts") for _, s in seq)
    return "Four cards of one colour" if reds in (0, 4) else None


def _nine_total(seq: tuple[Card, ...]) -> str | None:
    value = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0}
    a, b = (value.get(r, int(r) if r.isdigit() else 0) for r, _ in seq[0:3:2])
    if (a + b) % 10 != 9:
        return None
    if 0 in (a, b):
        return "9 with a ten or face"
    return "Suited 9" if seq[0][1] == seq[2][1] else "Unsuited 9"


def _majestic(seq: tuple[Card, ...]) -> str | None:
    (r1, s1), (r2, s2) = seq[0], seq[2]
    if s1 != s2:
        return None
    return "Suited king and queen" if {r1, r2} == {"K", "Q"} else "Suited"


def _nines(seq: tuple[Card, ...]) -> str | None:
    suits = [s for r, s in seq if r == "9"]
    same = len(set(suits)) == 1
    names = {4: "Four nines", 3: "Three nines", 2: "Two nines"}
    if len(suits) in (2, 3):
        return names[len(suits)] + (" of one suit" if same else "")
    if len(suits) == 4:
        return names[4]
    if len(suits) == 1:
        return "Nine of diamonds" if suits[0] == "diamonds" else "One nine"
    return None


# The Player's first two cards are positions 0 and 2 of the deal: the two-card counters read
# "a hand's first two cards", and every pair of positions has the same law, so the physical
# check uses the Player's.
PHYSICAL: dict[
    str, tuple[Callable[[Shoe], Counts], int, Callable[[tuple[Card, ...]], str | None]]
] = {
    "colour": (colour_match_counts, 4, _colour),
    "perfect_9": (perfect_9_counts, 3, _nine_total),
    "majestic": (majestic_match_counts, 3, _majestic),
    "nines": (lucky_nines_counts, 4, _nines),
    "poker": (jackpot_counts, 4, poker_category),
}

CARD = st.tuples(st.integers(0, 12), st.integers(0, 3))
# Small shoes rich in nines, kings and queens, so that the rare events happen.
BIASED = st.one_of(CARD, st.sampled_from([(8, 0), (8, 1), (8, 2), (12, 1), (11, 1), (9, 1)]))


@settings(max_examples=25, deadline=None)
@given(cards=st.lists(BIASED, min_size=6, max_size=9), name=st.sampled_from(sorted(PHYSICAL)))
def test_independent_counts_match_physical_cards(cards: list[tuple[int, int]], name: str) -> None:
    shoe = small_shoe(cards)
    counter, k, classify = PHYSICAL[name]
    counts, total = counter(shoe)
    physical = physical_events(shoe, k, classify)
    size = len(cards)
    if k == 3:  # counted over positions 0..2; the counter's universe is two cards
        physical = Counter({e: n // (size - 2) for e, n in physical.items()})
        assert total == size * (size - 1)
    else:
        assert total == size * (size - 1) * (size - 2) * (size - 3)
    assert {e: n for e, n in counts.items() if n} == dict(physical)


@settings(max_examples=10, deadline=None)
@given(
    cards=st.lists(CARD, min_size=6, max_size=8),
    player=st.integers(0, 7),
    banker=st.integers(0, 9),
)
def test_independent_insurance_matches_physical_rounds(
    cards: list[tuple[int, int]], player: int, banker: int
) -> None:
    shoe = small_shoe(cards)
    counts, total = insurance_figures(shoe, player, banker)
    expected: Counter[str] = Counter()
    for seq in permutations(physical_cards(shoe), 6):
        outcome = play_round(seq)
        if (outcome.player.initial, outcome.banker.initial) != (player, banker):
            continue
        winner = outcome_winner(outcome).name
        expected[{"PLAYER": "Player wins", "BANKER": "Banker wins", "TIE": "Tie"}[winner]] += 1
    assert {e: n for e, n in counts.items() if n} == dict(expected)
    assert total == sum(expected.values())


def test_poker_ranking_examples() -> None:
    """Hand-checked categories (the ace plays high and low; a suited pair is a flush)."""

    def hand(text: str) -> tuple[Card, ...]:
        suit = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
        return tuple((t[:-1], suit[t[-1]]) for t in text.split())

    assert poker_category(hand("Ah Kh Qh Jh")) == "Mini royal"
    assert poker_category(hand("Ah 2h 3h 4h")) == "Straight flush"
    assert poker_category(hand("Ac Kh Qh Jh")) == "Straight"
    assert poker_category(hand("Qc Kh Ah 2h")) == "Nothing"
    assert poker_category(hand("5h 5h 9h Kh")) == "Flush"
    assert poker_category(hand("5h 5h 5h Kh")) == "Three of a kind"
    assert poker_category(hand("5h 5c 5d 5h")) == "Four of a kind"
    assert poker_category(hand("10h 10c 3d 4h")) == "Pair of tens to kings"
    assert poker_category(hand("9h 9c 3d 4h")) == "Pair of twos to nines"
    assert poker_category(hand("9h 9c 3d 3h")) == "Two pair"
