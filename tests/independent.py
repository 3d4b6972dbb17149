"""Independent hand computations of pair, perfect-pair and natural probabilities.

Closed forms from the shoe's rank × suit counts alone, to check the engine and the bundled
paytables against. Nothing here uses :mod:`exactodds.deal.engine`;
:class:`exactodds.deal.shoe.Shoe` is only the data container.

Counting convention (docs/rules.md §2): a round is an ordered sequence of cards; the first four are
Player, Banker, Player, Banker, so the Player's first two cards are positions 1 and 3 and the
Banker's positions 2 and 4. Every ordered pair (or four) of distinct positions has the same
distribution, so

* P(Player pair) = P(Banker pair) = Σ_r n_r(n_r−1) / (N(N−1)) over ranks r;
* P(both pair) = [Σ_r n_r(n_r−1)(n_r−2)(n_r−3) + Σ_{r≠s} n_r(n_r−1)·n_s(n_s−1)]
  / (N(N−1)(N−2)(N−3)) (four-card sequences: positions 1, 3 one rank and 2, 4 one rank,
  equal or not);
* P(either pair) = 2·P(Player pair) − P(both pair) (inclusion–exclusion);
* the same formulas over the 52 rank-and-suit card types give the perfect pairs.

>>> from exactodds.deal.shoe import Shoe
>>> shoe = Shoe.decks(8)
>>> player_pair_probability(shoe)
Fraction(31, 415)
>>> 12 * player_pair_probability(shoe) - 1 == -Fraction(559, 5395)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from exactodds.deal.shoe import RANK_VALUES, Shoe

__all__ = [
    "both_pairs_probability",
    "both_perfect_pairs_probability",
    "either_pair_probability",
    "either_perfect_pair_probability",
    "ev",
    "exactly_one_perfect_pair_probability",
    "natural_probability",
    "percent",
    "perfect_pair_probability",
    "player_pair_probability",
    "rank_counts",
    "type_counts",
]


def rank_counts(shoe: Shoe) -> list[int]:
    """Cards of each of the 13 ranks (suits merged)."""
    return [sum(row) for row in shoe.counts]


def type_counts(shoe: Shoe) -> list[int]:
    """Cards of each of the 52 rank-and-suit types."""
    return [n for row in shoe.counts for n in row]


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _same_pair(counts: Iterable[int]) -> int:
    """Ordered two-card sequences of one kind: Σ n(n−1)."""
    return sum(n * (n - 1) for n in counts)


def _two_pairs(counts: list[int]) -> int:
    """Ordered four-card sequences whose positions 1, 3 are one kind and 2, 4 one kind.

    Same kind for both: n(n−1)(n−2)(n−3); different kinds: the product of the two pair counts.
    """
    same = sum(_falling(n, 4) for n in counts)
    pairs = [n * (n - 1) for n in counts]
    total = sum(pairs)
    different = total * total - sum(p * p for p in pairs)
    return same + different


def player_pair_probability(shoe: Shoe) -> Fraction:
    """P(the Player's first two cards have equal rank) = P(the Banker's do).

    >>> player_pair_probability(Shoe.decks(1))
    Fraction(1, 17)
    """
    return Fraction(_same_pair(rank_counts(shoe)), _falling(shoe.size, 2))


def both_pairs_probability(shoe: Shoe) -> Fraction:
    """P(both hands' first two cards pair)."""
    return Fraction(_two_pairs(rank_counts(shoe)), _falling(shoe.size, 4))


def either_pair_probability(shoe: Shoe) -> Fraction:
    """P(at least one hand's first two cards pair), by inclusion–exclusion."""
    return 2 * player_pair_probability(shoe) - both_pairs_probability(shoe)


def perfect_pair_probability(shoe: Shoe) -> Fraction:
    """P(the Player's (or the Banker's) first two cards have equal rank and suit).

    >>> perfect_pair_probability(Shoe.decks(1))
    Fraction(0, 1)
    >>> perfect_pair_probability(Shoe.decks(8))
    Fraction(7, 415)
    """
    return Fraction(_same_pair(type_counts(shoe)), _falling(shoe.size, 2))


def both_perfect_pairs_probability(shoe: Shoe) -> Fraction:
    """P(both hands' first two cards are perfect pairs)."""
    return Fraction(_two_pairs(type_counts(shoe)), _falling(shoe.size, 4))


def either_perfect_pair_probability(shoe: Shoe) -> Fraction:
    """P(at least one hand has a perfect pair): the rule text 0 bet, paid once."""
    return 2 * perfect_pair_probability(shoe) - both_perfect_pairs_probability(shoe)


def exactly_one_perfect_pair_probability(shoe: Shoe) -> Fraction:
    """P(exactly one hand has a perfect pair): rule text 3's 25:1 case."""
    return 2 * perfect_pair_probability(shoe) - 2 * both_perfect_pairs_probability(shoe)


def natural_probability(shoe: Shoe) -> Fraction:
    """P(a hand's two-card total is 8 or 9), by enumerating ordered two-card value pairs.

    >>> natural_probability(Shoe.decks(8))
    Fraction(1022, 5395)
    """
    values = [0] * 10
    for rank, n in enumerate(rank_counts(shoe)):
        values[RANK_VALUES[rank]] += n
    hits = 0
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 >= 8:
                hits += values[a] * (values[b] - (a == b))
    return Fraction(hits, _falling(shoe.size, 2))


def ev(outcomes: Iterable[tuple[Fraction, Fraction | int]]) -> Fraction:
    """Expected net result of a bet from (probability, net per unit) pairs covering the losses
    implicitly: every probability not listed loses the stake.

    >>> ev([(Fraction(1, 2), 1)])
    Fraction(0, 1)
    """
    items = list(outcomes)
    win = sum((p * net for p, net in items), Fraction(0))
    return win - (1 - sum((p for p, _ in items), Fraction(0)))


def percent(x: Fraction, decimals: int) -> Fraction:
    """100·x rounded to ``decimals`` places (exact; ties to even), for published figures.

    >>> percent(Fraction(-559, 5395), 4) == Fraction("-10.3614")
    True
    """
    return Fraction(round(100 * x, decimals))
