"""docs/rules.md §8 figures against a direct computation over physical card sequences.

For small shoes every ordered six-card sequence is dealt by the brute-force dealer and the bet
settled by a plain-Python rule; EV, variance, hit frequency, push probability and largest win
are then averaged over sequences, independently of the engine and of row aggregation.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import permutations

import pytest

from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome, Winner
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import bet_figures, rtp_by_stake, unrounded
from tests.bruteforce import outcome_winner, physical_cards, play_round


def _player(o: Outcome) -> Fraction:
    w = outcome_winner(o)
    return Fraction({Winner.PLAYER: 1, Winner.TIE: 0, Winner.BANKER: -1}[w])


def _banker(o: Outcome) -> Fraction:
    w = outcome_winner(o)
    return {Winner.BANKER: Fraction(19, 20), Winner.TIE: Fraction(0)}.get(w, Fraction(-1))


def _tie(o: Outcome) -> Fraction:
    return Fraction(8 if outcome_winner(o) == Winner.TIE else -1)


def _player_bonus(o: Outcome) -> Fraction:
    p = (o.player.initial + (o.player.third or 0)) % 10
    b = (o.banker.initial + (o.banker.third or 0)) % 10
    natural = o.player.initial >= 8 and o.player.third is None
    if natural and p > b:
        return Fraction(1)
    if natural and p == b:
        return Fraction(0)
    table = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
    return Fraction(table[p - b]) if p - b in table else Fraction(-1)


def _perfect_pair(o: Outcome) -> Fraction:
    return Fraction(25 if o.player.perfect_pair or o.banker.perfect_pair else -1)


RULES: dict[str, Callable[[Outcome], Fraction]] = {
    "player": _player,
    "banker": _banker,
    "tie": _tie,
    "player_bonus": _player_bonus,
    "perfect_pair": _perfect_pair,
}

SHOES = {
    "nine mixed": Shoe.from_mapping(
        {
            "cards": {
                "A": [1, 0, 0, 0],
                "6": [2, 0, 0, 0],
                "9": [1, 1, 0, 0],
                "K": [2, 0, 0, 0],
                "3": [0, 0, 1, 0],
            }
        }
    ),
    "nine with pairs": Shoe.from_mapping(
        {
            "cards": {
                "8": [2, 0, 0, 0],
                "2": [1, 1, 0, 0],
                "T": [1, 0, 0, 1],
                "5": [0, 2, 0, 0],
                "7": [0, 0, 1, 0],
            }
        }
    ),
}


@pytest.mark.parametrize("shoe_name", SHOES)
@pytest.mark.parametrize("bet_id", RULES)
def test_figures_equal_sequence_averages(shoe_name: str, bet_id: str) -> None:
    shoe = SHOES[shoe_name]
    bet = load_paytable(next(p for p in bundled_paytables() if p.stem == "classic")).round_bet(
        bet_id
    )
    nets = [RULES[bet_id](play_round(seq)) for seq in permutations(physical_cards(shoe), 6)]
    n = len(nets)
    ev = sum(nets, Fraction(0)) / n
    figures = bet_figures(joint_distribution(shoe), bet)
    assert figures.total == n
    assert figures.ev == ev
    assert figures.rtp == 1 + ev and figures.house_edge == -ev
    assert figures.variance == sum((x - ev) ** 2 for x in nets) / n
    assert figures.hit_frequency == Fraction(sum(x > 0 for x in nets), n)
    assert figures.push_probability == Fraction(sum(x == 0 for x in nets), n)
    top = max(nets)
    if top > 0:
        assert figures.largest_win == top
        assert figures.largest_win_probability == Fraction(nets.count(top), n)
    resolved = sum(x != 0 for x in nets)
    assert figures.house_edge_resolved == (-sum(nets, Fraction(0)) / resolved if resolved else None)
    assert figures.player_favourable == (ev > 0)


def test_rounded_bet_rtp_by_stake_matches_per_stake_rounding() -> None:
    touch = load_paytable(next(p for p in bundled_paytables() if p.stem == "touch"))
    banker = touch.round_bet("banker")
    joint = joint_distribution(touch.shoe)
    plain = bet_figures(joint, unrounded(banker)).rtp
    table = dict(rtp_by_stake(joint, banker))
    wins = joint.winner_counts()
    p_win, p_tie = (
        Fraction(wins[Winner.BANKER], joint.total),
        Fraction(wins[Winner.TIE], joint.total),
    )
    for stake, rtp in table.items():
        cents = stake * 100 * Fraction(195, 100)  # a win returns 1.95 × stake, in cents
        paid = Fraction(cents.numerator // cents.denominator, 100)  # rounded down to the cent
        assert rtp == p_win * paid / stake + p_tie
        assert (rtp == plain) == (stake * 100 % 20 == 0)  # 1.95 × stake is whole cents


def test_unrounded_keeps_the_offer_of_a_rounded_offered_bet() -> None:
    """A rounded, offered Banker (0.95:1 to the cent, offered when player.initial <= 3): its
    unrounded RTP is per offered round, summed here from the joint's records by hand (it was
    98.9421%, the bet without its offer, against 132.0336%)."""
    from dataclasses import replace

    from exactodds.deal.round import FEATURE_INDEX
    from exactodds.language import parse_condition

    touch = load_paytable("touch")
    offered = replace(touch.round_bet("banker"), offer=parse_condition("player.initial <= 3"))
    plain = unrounded(offered)
    assert plain.rounding is None and plain.offer == offered.offer
    joint = joint_distribution(touch.shoe)
    initial, winner = FEATURE_INDEX["player.initial"], FEATURE_INDEX["winner"]
    seen = [(str(r[winner]), n) for r, n in joint.records if r[initial] in range(4)]
    total = sum(n for _, n in seen)
    back = {"banker": Fraction(195, 100), "tie": Fraction(1), "player": Fraction(0)}
    rtp = sum((back[w] * n for w, n in seen), Fraction(0)) / total
    assert bet_figures(joint, plain).rtp == rtp
    assert f"{float(rtp):.4%}" == "132.0336%"
