"""Risk of ruin: the probability that a player with a bankroll of B units, betting one unit a
round, has less than one unit after some round of the N, the last included (the trip ruin of the
gambling literature; the absorbing boundary of a dynamic programme over the bankroll, exact or
with a proven bound).

>>> from fractions import Fraction as F
>>> from exactodds.session.lattice import Round
>>> coin = Round.of([(F(1), 1), (F(-1), 1)])
>>> ruin_probability(coin, 3, F(1))  # ruined after round 1 (1/2) or after W L L (1/8)
Range(lower=Fraction(5, 8), upper=Fraction(5, 8))
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactodds.session.distribution import Range
from exactodds.session.lattice import Round

__all__ = ["ruin_probability", "ruin_work"]


def _threshold(one: Round, t: int, bankroll: Fraction) -> int:
    """The least lattice point after round t with B + net ≥ 1 (solvent)."""
    # B + (t·low + step·k)/scale ≥ 1  ⇔  step·k ≥ (1 − B)·scale − t·low
    return max(0, math.ceil(((1 - bankroll) * one.scale - t * one.low) / one.step))


def ruin_work(one: Round, rounds: int, bankroll: Fraction) -> int:
    """An upper bound of the states the programme updates (its work, for the budget)."""
    if rounds < 1:
        return 0
    top = _threshold(one, rounds, bankroll)
    return rounds * min(top, (rounds - 1) * one.degree + 1) * len(one.exponents)


def ruin_probability(
    one: Round, rounds: int, bankroll: Fraction, digits: int | None = None
) -> Range:
    """P(the bankroll falls below one unit after some round t ≤ ``rounds``), from ``bankroll``
    ≥ 1 units: exact, or with ``digits`` an interval of width about 10**-digits (each step
    rounded down in fixed point; the upper end adds the largest mass the roundings can have
    lost).

    >>> from fractions import Fraction as F
    >>> pair = Round.of([(F(11), 1), (F(-1), 11)])
    >>> ruin_probability(pair, 3, F(2)).exact == F(11, 12) ** 2
    True
    >>> r = ruin_probability(pair, 3, F(2), digits=20)
    >>> r.lower <= F(11, 12) ** 2 <= r.upper, float(r.upper - r.lower) < 1e-20
    (True, True)
    """
    if rounds < 1:
        return Range.of(0)
    safe = _threshold(one, rounds, bankroll)  # at or above it, no round can ruin
    terms = list(zip(one.exponents, one.counts, strict=True))
    total = one.total
    if digits is None:
        bits = 0
        weights = {0: 1}
    else:
        bits = math.ceil(digits * math.log2(10)) + ruin_work(one, rounds, bankroll).bit_length() + 8
        weights = {0: 1 << bits}
    ruined = 0
    floors = 0
    for t in range(1, rounds + 1):
        moved: dict[int, int] = {}
        for k, w in weights.items():
            for e, c in terms:
                j = k + e
                if j < safe:
                    moved[j] = moved.get(j, 0) + w * c
        if digits is None:
            ruined *= total
        else:
            floors += len(moved)
            moved = {j: w // total for j, w in moved.items()}
        edge = _threshold(one, t, bankroll)
        ruined += sum(w for j, w in moved.items() if j < edge)
        weights = {j: w for j, w in moved.items() if j >= edge and w}
    if digits is None:
        return Range.of(Fraction(ruined, total**rounds))
    scale = 1 << bits
    return Range(Fraction(ruined, scale), min(Fraction(ruined + floors, scale), Fraction(1)))
