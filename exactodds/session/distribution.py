"""The distribution of a flat unit bet's net result over N independent rounds: exact Fractions,
or (beyond :data:`~exactodds.limits.EXACT_SESSION_ROUNDS` rounds) every probability between two
proven bounds, and the figures read from it (P(ahead), percentiles, the expected loss).

>>> from fractions import Fraction as F
>>> coin = SessionDistribution.compute([(F(1), 1), (F(-1), 1)], 4)
>>> coin.exact, [str(p.lower) for p in coin.probabilities]
(True, ['1/16', '1/4', '3/8', '1/4', '1/16'])
>>> coin.p_ahead.exact, coin.percentile(F(1, 2))
(Fraction(5, 16), Range(lower=Fraction(0, 1), upper=Fraction(0, 1)))
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from exactodds.session.lattice import Bounds, Round, bounded_power, exact_power

__all__ = ["INDEPENDENT_NOTE", "PERCENTILES", "Range", "SessionDistribution"]

INDEPENDENT_NOTE = (
    "Rounds are independent, each dealt from the full shoe (a continuous shuffler, and the "
    "model of published analyses). Rounds dealt from one shoe are not independent: "
    "exactodds simulate deals them."
)
"""What every session output says of its model: independent rounds, not one shoe."""

PERCENTILES: tuple[Fraction, ...] = tuple(
    Fraction(p, 100) for p in (1, 5, 10, 25, 50, 75, 90, 95, 99)
)
"""The percentiles of the net result every session output gives."""


@dataclass(frozen=True)
class Range:
    """A figure known to lie in ``[lower, upper]``; exact when the two are equal.

    >>> Range.of(Fraction(1, 3)).exact, Range(Fraction(0), Fraction(1)).exact
    (Fraction(1, 3), None)
    """

    lower: Fraction
    upper: Fraction

    @classmethod
    def of(cls, value: Fraction | int) -> Range:
        """The exact figure ``value``."""
        return cls(Fraction(value), Fraction(value))

    @property
    def exact(self) -> Fraction | None:
        """The value when known exactly, else None."""
        return self.lower if self.lower == self.upper else None

    def map(self, scale: Fraction, shift: Fraction = Fraction(0)) -> Range:
        """``shift + scale·x`` for x in the range (ends swapped for a negative scale)."""
        a, b = shift + scale * self.lower, shift + scale * self.upper
        return Range(min(a, b), max(a, b))


@dataclass(frozen=True)
class SessionDistribution:
    """The net result (units) of ``rounds`` rounds at one unit: ``one`` is a round on the
    integer lattice; ``lower[k]/denominator ≤ P(point k) ≤ upper[k]/denominator``, equal when
    ``exact``. ``digits``: the relative precision of each bound when not exact."""

    one: Round
    rounds: int
    lower: tuple[int, ...]
    upper: tuple[int, ...]
    denominator: int
    exact: bool
    digits: int | None = None
    bounds: Bounds | None = None
    """Each probability's bounds with their own binary exponents (relative precision, also in
    the far tails, where the fixed scale of ``lower`` and ``upper`` rounds them to 0)."""

    @classmethod
    def compute(
        cls,
        outcomes: Iterable[tuple[Fraction, int]],
        rounds: int,
        *,
        exact: bool = True,
        digits: int = 30,
    ) -> SessionDistribution:
        """From one round's (net result, count) pairs: exact, or bounded to ``digits``
        significant digits per probability (raises :class:`ArithmeticError` when the bounds
        cannot be proven that tight)."""
        one = Round.of(outcomes)
        if exact:
            counts = exact_power(one, rounds)
            return cls(one, rounds, counts, counts, one.total**rounds, True)
        bounds = bounded_power(one, rounds, digits)
        bits = max(-e for e in bounds.exponent) + 1  # a fixed scale holding every bound
        bits = min(bits, math.ceil(digits * math.log2(10)) * 2 + 64)
        lows, highs = bounds.fixed(bits)
        return cls(one, rounds, tuple(lows), tuple(highs), 1 << bits, False, digits, bounds)

    @property
    def size(self) -> int:
        """Lattice points (possible and impossible net results between the extremes)."""
        return len(self.lower)

    def net(self, k: int) -> Fraction:
        """The net result of lattice point ``k``."""
        return self.one.net(self.rounds, k)

    @cached_property
    def probabilities(self) -> tuple[Range, ...]:
        """Each lattice point's probability (exact or bounded)."""
        if self.bounds is None:
            return tuple(Range.of(Fraction(c, self.denominator)) for c in self.lower)
        return tuple(Range(_binary(lo, e), _binary(hi, e)) for lo, hi, e in self.bounds.points())

    def outcomes(self) -> list[tuple[Fraction, Range]]:
        """(net result, probability) of every possible net result, lowest first."""
        return [(self.net(k), p) for k, p in enumerate(self.probabilities) if p.upper]

    def _first(self, condition: int) -> int:
        """The first lattice point of net result above (1) or at least (0) zero."""
        o = self.one
        # net(k) = (rounds·low + step·k) / scale; > 0 iff step·k > −rounds·low
        edge = -self.rounds * o.low
        return max(0, edge // o.step + 1) if condition else max(0, -(-edge // o.step))

    def _sum(self, ks: Iterable[int], weights: Sequence[int] | None = None) -> Range:
        lo = hi = 0
        for k in ks:
            w = 1 if weights is None else weights[k]
            lo += w * self.lower[k]
            hi += w * self.upper[k]
        return Range(Fraction(lo, self.denominator), Fraction(hi, self.denominator))

    @cached_property
    def p_ahead(self) -> Range:
        """P(net result > 0)."""
        return self._clip(self._sum(range(self._first(1), self.size)))

    @cached_property
    def p_even(self) -> Range:
        """P(net result = 0)."""
        edge = -self.rounds * self.one.low
        if edge % self.one.step or not 0 <= edge // self.one.step < self.size:
            return Range.of(0)
        return self._sum([edge // self.one.step])

    @cached_property
    def p_behind(self) -> Range:
        """P(net result < 0)."""
        return self._clip(self._sum(range(min(self._first(0), self.size))))

    @cached_property
    def expected_loss(self) -> Range:
        """E[max(0, −net)]: the expected net loss of a session (what a loss rebate returns a
        share of)."""
        o = self.one
        stop = min(self._first(0), self.size)
        # −net(k)·scale = −(rounds·low + step·k) ≥ 0 for k below stop: integer weights
        weights = [-(self.rounds * o.low + o.step * k) for k in range(stop)]
        total = self._sum(range(stop), weights)
        return Range(total.lower / o.scale, total.upper / o.scale)

    @staticmethod
    def _clip(r: Range) -> Range:
        return Range(max(r.lower, Fraction(0)), min(r.upper, Fraction(1)))

    @cached_property
    def _cumulative(self) -> tuple[list[int], list[int]]:
        lows: list[int] = []
        highs: list[int] = []
        lo = hi = 0
        for a, b in zip(self.lower, self.upper, strict=True):
            lo += a
            hi += b
            lows.append(lo)
            highs.append(hi)
        return lows, highs

    def percentile(self, alpha: Fraction) -> Range:
        """The ``alpha`` quantile of the net result: the least net x with P(net ≤ x) ≥ alpha
        (a range of nets only where the bounds cannot tell which point it is).

        >>> from fractions import Fraction as F
        >>> d = SessionDistribution.compute([(F(1), 1), (F(-1), 3)], 2)  # 9/16, 6/16, 1/16
        >>> [d.percentile(p).exact for p in (F(9, 16), F(1, 2), F(99, 100))]
        [Fraction(-2, 1), Fraction(-2, 1), Fraction(2, 1)]
        """
        lows, highs = self._cumulative
        target = alpha * self.denominator
        first = min(bisect_left(highs, target), self.size - 1)  # both are non-decreasing
        last = min(bisect_left(lows, target), self.size - 1)
        return Range(self.net(first), self.net(last))

    @cached_property
    def percentiles(self) -> tuple[tuple[Fraction, Range], ...]:
        """(level, quantile) at each of :data:`PERCENTILES`."""
        return tuple((p, self.percentile(p)) for p in PERCENTILES)

    def bins(self, count: int = 24) -> list[tuple[Fraction, Fraction, Range]]:
        """The distribution in at most ``count`` bins of consecutive net results: (lowest net,
        highest net, probability), bins of probability below 10^-12 at either end left out
        (their mass stays in the figures)."""
        support = [k for k in range(self.size) if self.upper[k]]
        tiny = self.denominator // 10**12
        inner = [k for k in support if self.upper[k] > tiny] or support
        first, last = inner[0], inner[-1]
        width = max(1, -(-(last - first + 1) // count))
        out: list[tuple[Fraction, Fraction, Range]] = []
        for start in range(first, last + 1, width):
            ks = [k for k in range(start, min(start + width, last + 1)) if self.upper[k]]
            if ks:
                out.append((self.net(ks[0]), self.net(ks[-1]), self._sum(ks)))
        return out


def _binary(mantissa: int, exponent: int) -> Fraction:
    """mantissa · 2**exponent, exactly."""
    if exponent >= 0:
        return Fraction(mantissa << exponent)
    return Fraction(mantissa, 1 << -exponent)
