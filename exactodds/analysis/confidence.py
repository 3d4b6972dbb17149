"""Confidence ranges of the return over N rounds and the volatility index (PAR-sheet practice).

By the normal approximation, the average return of N independent rounds lies within
``RTP ± z·SD/√N`` with probability about the confidence level, where SD is the exact standard
deviation of one round's net result per unit stake and z the two-sided normal quantile of the
level. The volatility index is ``VI = z₉₀·SD``.

These figures are irrational, so they are printed as decimals, but never computed in floats: the
RTP and variance are exact fractions, each z-value is a 40-digit constant (an interval of width
10⁻⁴⁰ around the true quantile), square roots are integer square roots, and every bound is
enclosed in an interval of exact fractions that is narrowed until both of its ends round to the
same printed digits. So every printed digit is the correctly rounded one.

>>> r = ConfidenceRange(1000, Fraction(95, 100), Fraction(1, 2), Fraction(1, 4))  # SD 1/2
>>> r.low(6), r.high(6)  # 0.5 ∓ 1.959963984540054… × 0.5 / √1000
('0.469010', '0.530990')
>>> volatility_index(Fraction(1, 4), 10)  # z₉₀ / 2
'0.8224268135'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from exactodds.bets.payout import format_number
from exactodds.numbers import fixed_units

__all__ = [
    "LEVELS",
    "ROUNDS",
    "Z_DIGITS",
    "ConfidenceRange",
    "confidence_ranges",
    "fixed_z_sqrt",
    "level_label",
    "volatility_index",
]

Z_DIGITS: dict[Fraction, str] = {
    Fraction(90, 100): "1.6448536269514727148638489079916321360831",
    Fraction(95, 100): "1.9599639845400542355245944305205515279555",
    Fraction(99, 100): "2.5758293035489007609785767486038141173060",
}
"""Two-sided normal quantiles z = Φ⁻¹(1 − (1 − level)/2), truncated to 40 decimals (computed
with mpmath at 60 digits as √2·erfinv(level); the tests check them against Φ)."""

LEVELS: tuple[Fraction, ...] = tuple(Z_DIGITS)
"""Confidence levels of the ranges on a sheet: 90%, 95% and 99%."""

ROUNDS: tuple[int, ...] = tuple(10**k for k in range(3, 9))
"""Numbers of rounds of the ranges on a sheet: 10³ to 10⁸."""

VI_LEVEL = Fraction(90, 100)
"""The volatility index uses the two-sided 90% quantile."""

_Z_PLACES = 40
_MAX_GUARD = 30  # beyond this, the 40-digit z-values could no longer decide a digit


def level_label(level: Fraction) -> str:
    """A confidence level as a percentage: ``90%``.

    >>> level_label(Fraction(95, 100)), level_label(Fraction(999, 1000))
    ('95%', '99.9%')
    """
    return f"{format_number(level * 100)}%"


def _z_interval(level: Fraction) -> tuple[Fraction, Fraction]:
    """Exact fractions enclosing the quantile of ``level``."""
    try:
        digits = Z_DIGITS[level]
    except KeyError:
        known = ", ".join(level_label(v) for v in Z_DIGITS)
        raise ValueError(f"no z-value for level {level_label(level)} (known: {known})") from None
    low = Fraction(digits)
    return low, low + Fraction(1, 10**_Z_PLACES)


def fixed_z_sqrt(
    center: Fraction, sign: int, level: Fraction, radicand: Fraction, places: int
) -> str:
    """``center + sign·z·√radicand`` correctly rounded to ``places`` decimals, where z is the
    quantile of ``level`` (``sign`` is +1 or −1, ``radicand`` ≥ 0).

    The value is enclosed between exact fractions (z and the square root each bounded below and
    above) that are narrowed with more guard digits until both ends round alike.

    >>> fixed_z_sqrt(Fraction(0), 1, Fraction(95, 100), Fraction(1), 12)
    '1.959963984540'
    >>> fixed_z_sqrt(Fraction(1), -1, Fraction(99, 100), Fraction(0), 3)  # no spread: exact
    '1.000'
    """
    if radicand < 0:
        raise ValueError(f"square root of a negative number {radicand!r}")
    if radicand == 0:
        return fixed_units(round(center * 10**places), places)
    z_low, z_high = _z_interval(level)
    guard = 8
    while guard <= _MAX_GUARD:
        k = places + guard
        scaled = radicand * 10 ** (2 * k)
        root_low = math.isqrt(scaled.numerator // scaled.denominator)  # ≤ √scaled < root_low + 1
        spread_low = z_low * root_low / 10**k
        spread_high = z_high * (root_low + 1) / 10**k
        if sign > 0:
            ends = (center + spread_low, center + spread_high)
        else:
            ends = (center - spread_high, center - spread_low)
        first, last = (round(end * 10**places) for end in ends)
        if first == last:
            return fixed_units(first, places)
        guard += 8
    raise ArithmeticError(f"cannot round z·√{radicand} to {places} places with 40-digit z-values")


@dataclass(frozen=True)
class ConfidenceRange:
    """The range the average return of ``rounds`` rounds stays in with probability ``level``
    (normal approximation): ``rtp ± z·√(variance/rounds)``.

    >>> r = ConfidenceRange(10**6, Fraction(99, 100), Fraction(98, 100), Fraction(1))
    >>> r.low(6), r.high(6), r.low_percent(4)  # 0.98 ∓ 2.5758… / 1000
    ('0.977424', '0.982576', '97.7424%')
    """

    rounds: int
    level: Fraction
    rtp: Fraction
    variance: Fraction

    def low(self, places: int) -> str:
        """The lower bound as a decimal fraction of the stake."""
        return fixed_z_sqrt(self.rtp, -1, self.level, self.variance / self.rounds, places)

    def high(self, places: int) -> str:
        """The upper bound as a decimal fraction of the stake."""
        return fixed_z_sqrt(self.rtp, 1, self.level, self.variance / self.rounds, places)

    def low_percent(self, places: int) -> str:
        """The lower bound as a percentage."""
        return self._percent(-1, places)

    def high_percent(self, places: int) -> str:
        """The upper bound as a percentage."""
        return self._percent(1, places)

    def _percent(self, sign: int, places: int) -> str:
        spread = self.variance * 10**4 / self.rounds
        return f"{fixed_z_sqrt(self.rtp * 100, sign, self.level, spread, places)}%"


def confidence_ranges(
    rtp: Fraction,
    variance: Fraction,
    rounds: Iterable[int] = ROUNDS,
    levels: Iterable[Fraction] = LEVELS,
) -> tuple[ConfidenceRange, ...]:
    """The ranges for every number of rounds (outer) and level (inner), in that order.

    >>> [(r.rounds, level_label(r.level)) for r in confidence_ranges(Fraction(1), 1, [10, 20])]
    [(10, '90%'), (10, '95%'), (10, '99%'), (20, '90%'), (20, '95%'), (20, '99%')]
    """
    levels = tuple(levels)
    return tuple(
        ConfidenceRange(n, level, rtp, Fraction(variance)) for n in rounds for level in levels
    )


def volatility_index(variance: Fraction, places: int) -> str:
    """``z₉₀·SD`` to ``places`` decimals, SD the square root of the exact ``variance``.

    >>> volatility_index(Fraction(1), 6)
    '1.644854'
    """
    return fixed_z_sqrt(Fraction(0), 1, VI_LEVEL, Fraction(variance), places)
