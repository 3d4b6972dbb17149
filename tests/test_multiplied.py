"""A multiplied bet's figures against brute force: every ordered six-card sequence of physical
cards of a small shoe, dealt and read by the independent interpreter of ``tests/cardforce.py``;
the product over the group's concrete card identities from the multiplier table (whose product
distribution ``tests/test_multipliers.py`` checks against every drawn set of identities)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.multipliers import MultiplierTable, Multiply, Repeat
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import bet_figures
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import shoe_of
from tests.cardforce import dealt_rounds, group_cards, holds

TABLE = MultiplierTable(
    "lightning",
    ((1, Fraction(1, 3)), (2, Fraction(2, 3))),
    ((2, Fraction(1, 2)), (5, Fraction(1, 2))),
    cap=20,
)


def brute(bet: Bet, shoe: Shoe) -> dict[Fraction, Fraction]:
    """{net before the fee: probability} over every physical sequence and every product."""
    rounds = dealt_rounds(shoe)
    out: defaultdict[Fraction, Fraction] = defaultdict(Fraction)
    for rnd in rounds:
        row = next(r for r in bet.rows if r.when is OTHERWISE or holds(r.when.node, rnd))
        if row.multiply is None:
            out[row.pays.net] += 1
            continue
        cards = group_cards(row.multiply.cards, rnd)
        multiplicities = tuple(Counter(cards).values())
        for m, q in row.multiply.table.product_distribution(multiplicities).items():
            out[row.pays.net * m - row.commission] += q
    return {net: Fraction(n) / len(rounds) for net, n in out.items() if n}


def figures_distribution(bet: Bet, shoe: Shoe) -> dict[Fraction, Fraction]:
    f = bet_figures(joint_distribution(shoe), bet)
    out: defaultdict[Fraction, Fraction] = defaultdict(Fraction)
    for p, net in f.outcomes():
        out[net] += p
    return {net: Fraction(p) for net, p in out.items() if p}


ROUND = ("round",)


def lightning_bet(group: tuple[str, ...], table: MultiplierTable = TABLE) -> Bet:
    rows = (
        Row(
            parse_condition("player.wins"),
            parse_payout("1:1"),
            "Player wins",
            Multiply(table, group),
            Fraction(1, 20),
        ),
        Row(
            parse_condition("winner == tie"),
            parse_payout("8:1"),
            "Tie",
            Multiply(table, ("round",)),
        ),
        Row(OTHERWISE, parse_payout("lose"), "Banker wins"),
    )
    return Bet("x", "X", rows, fee=Fraction(1, 5))


SMALL = shoe_of([(0, 0), (0, 0), (12, 2), (12, 2), (4, 3), (5, 0), (12, 1)])


@pytest.mark.parametrize(
    "group", [("player",), ("banker",), ("initial",), ("player.card1", "banker.card3")]
)
def test_multiplied_figures_match_every_sequence(group: tuple[str, ...]) -> None:
    bet = lightning_bet(group)
    assert figures_distribution(bet, SMALL) == brute(bet, SMALL)


def test_repeat_once_and_the_fee() -> None:
    bet = lightning_bet(("player",), replace(TABLE, repeat=Repeat.ONCE, cap=None))
    assert figures_distribution(bet, SMALL) == brute(bet, SMALL)
    f = bet_figures(joint_distribution(SMALL), bet)
    expected = sum(p * net for net, p in brute(bet, SMALL).items())
    assert f.ev == expected - Fraction(1, 5)
    assert f.paid == Fraction(6, 5) and f.rtp == (f.paid + f.ev) / f.paid


@settings(max_examples=3, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([0, 4, 8, 12]), st.integers(0, 1)), min_size=7, max_size=7)
)
def test_multiplied_figures_on_drawn_shoes(cards: list[tuple[int, int]]) -> None:
    shoe = shoe_of(cards)
    bet = lightning_bet(("round",))
    assert figures_distribution(bet, shoe) == brute(bet, shoe)


def test_one_card_one_value_by_hand() -> None:
    """One multiplier card valued 2, one deck (no identity twice in a round): each of the
    group's cards is drawn with probability 1/52 and at most one is, so a player win's mean
    product is 1 + E[player's cards | player wins]/52, read from the value engine's joint."""
    table = MultiplierTable("one", ((1, Fraction(1)),), ((2, Fraction(1)),))
    rows = (
        Row(parse_condition("player.wins"), parse_payout("1:1"), "P", Multiply(table, ("player",))),
        Row(OTHERWISE, parse_payout("lose"), "Other"),
    )
    joint = joint_distribution(Shoe.decks(1))
    win = bet_figures(joint, Bet("p", "P", rows)).rows[0]
    wins = joint.probability(lambda o: o.player.total > o.banker.total)
    three = joint.probability(
        lambda o: o.player.total > o.banker.total and o.player.third is not None
    )
    cards = (2 * wins + three) / wins
    assert sum(m * q for m, q in win.products) == 1 + cards / 52
    assert dict(win.products) == {1: 1 - cards / 52, 2: cards / 52}
