"""Per-round EV of card-level and offered bets on a depleted shoe (the card engine on the cards
left) against brute force over physical card sequences (tests/cardforce.py), and the work
budget that bounds how many such EVs a simulation may ask for."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.analysis.cardround import card_round_ev
from exactodds.bets.budget import BudgetError, check_card_rounds
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Card, Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import physical_cards, shoe_of
from tests.cardforce import brute_rows

PB = BUILTIN["punto-banco"]


def make_bet(rows: list[tuple[str, str]], offer: str | None = None) -> Bet:
    """A bet of (condition, payout) rows, losing otherwise."""
    parsed = tuple(Row(parse_condition(w), parse_payout(p), w) for w, p in rows)
    return Bet(
        "b",
        "b",
        (*parsed, Row(OTHERWISE, parse_payout("lose"), "other")),
        offer=parse_condition(offer) if offer else None,
    )


def brute_ev(bet: Bet, shoe: Shoe) -> Fraction | None:
    """EV per offered round by dealing every ordered six-card sequence of physical cards."""
    counts, offered = brute_rows(
        [r.when.node for r in bet.rows], shoe, bet.offer.node if bet.offer else None
    )
    if not offered:
        return None
    return sum((n * bet.row_net(r) for n, r in zip(counts, bet.rows, strict=True)), Fraction(0)) / (
        offered
    )


def depleted(left: str) -> Shoe:
    """One deck after every card but ``left`` was dealt (the shoe a late round sees)."""
    full = Shoe.decks(1)
    dealt = physical_cards(full.remove(left))
    return full.remove([Card(r, s) for r, s in dealt])


BETS = [
    make_bet([("player.colour == red", "3:1"), ("banker.suited", "1:1")]),
    make_bet([("count(initial, rank == K) >= 2", "5:1")]),
    make_bet(
        [("player.total > banker.total", "2:1")],
        offer="count(initial, colour == red) == 2",
    ),
    make_bet([("banker.card3.rank != none", "1:2")], offer="player.initial < banker.initial"),
]


@pytest.mark.parametrize("bet", BETS)
def test_round_ev_on_a_depleted_shoe_matches_brute_force(bet: Bet) -> None:
    shoe = depleted("Ac Ad Kh Kc 9s 9c 5d 4s")
    assert shoe.size == 8
    assert card_round_ev(bet, shoe) == brute_ev(bet, shoe)


def test_round_ev_is_none_when_the_offer_cannot_hold() -> None:
    bet = make_bet([("player.wins", "1:1")], offer="count(initial, colour == red) == 4")
    shoe = depleted("Ac Kc Qs 9s 9c 5s 4s 2d")  # one red card: never four
    assert card_round_ev(bet, shoe) is None is brute_ev(bet, shoe)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=6, max_size=8, unique=True
    ),
    which=st.integers(0, len(BETS) - 1),
)
def test_round_ev_matches_brute_force_on_drawn_shoes(
    cards: list[tuple[int, int]], which: int
) -> None:
    shoe = shoe_of(cards)
    assert card_round_ev(BETS[which], shoe) == brute_ev(BETS[which], shoe)


def test_budget_weighs_each_bet_by_the_engines_work_estimate() -> None:
    from exactodds.bets.budget import (
        _CARD_SETTLE_WORK,
        _EV_FIXED_WORK,
        CARD_OPS_PER_SECOND,
        bet_work,
        card_round_work,
        dealing_shoes,
        expected_rounds,
    )
    from exactodds.bets.loader import load_paytable

    shoe = Shoe.decks(8)
    cheap = make_bet([("count(initial, colour == red) == 4", "6:1")])
    dear = make_bet([("player.poker == flush and banker.poker == flush", "50:1")])
    offered = make_bet(
        [("player.wins", "2:1")], offer="player.initial == 0 and banker.initial == 5"
    )
    (c_share, c_work), (d_share, d_work), (o_share, _) = card_round_work(
        [cheap, dear, offered], shoe
    )
    dealing = dealing_shoes(shoe)  # the mean over the shoe as it is dealt
    total = sum(bet_work(cheap, s, PB) for s in dealing)
    assert c_work == total // len(dealing) + _EV_FIXED_WORK  # an EV: a count, and planning
    assert c_share == d_share == 1 and c_work * 100 < d_work
    # the share of rounds offered, exact from the engine (the value-level joint agrees)
    insurance = load_paytable("insurance").round_bet("player_0_v_5")
    joint = joint_distribution(shoe, PB)
    assert o_share == Fraction(insurance.offered(joint), joint.total)
    check_card_rounds([], shoe, PB, 10**6, 14)  # no card-level bet: no card-engine work
    check_card_rounds([cheap], shoe, PB, 2, 14)
    with pytest.raises(BudgetError) as refused:
        check_card_rounds([cheap, dear], shoe, PB, 1, 14)
    message = str(refused.value)
    assert "\n" not in message and "over the budget of 30 s (--budget" in message
    assert "(the costliest 'b')" in message and "not one shoe fits" in message
    # the cheap bet alone: the most shoes the budget allows, from its estimate, and one more
    per_shoe = expected_rounds(1, shoe.size, 14) * (c_work + _CARD_SETTLE_WORK)
    most = 30 * CARD_OPS_PER_SECOND // per_shoe
    check_card_rounds([cheap], shoe, PB, most, 14)
    with pytest.raises(BudgetError, match=rf"at most {most:,} shoes fit$"):
        check_card_rounds([cheap], shoe, PB, most + 1, 14)
    # seconds spent besides (dealing) are shared by the shoes, not taken from one shoe's
    shoes = 10 * most
    fit = 30 * CARD_OPS_PER_SECOND // (per_shoe + Fraction(20) * CARD_OPS_PER_SECOND / shoes)
    assert 0 < fit < most
    with pytest.raises(BudgetError, match=rf"at most {fit:,} shoes fit$"):
        check_card_rounds([cheap], shoe, PB, shoes, 14, extra=20.0)
