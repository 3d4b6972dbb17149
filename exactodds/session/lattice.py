"""The net result of N independent rounds of one bet, exactly or with proven bounds.

One round's net results are scaled to integers by the LCM of their denominators (Banker's 0.95
becomes 19 twentieths) and placed on a lattice ``low + step·k``; N rounds are the N-th power of
the polynomial ``Σ c_j x^(e_j)`` of the outcome counts. The power is computed coefficient by
coefficient by J. C. P. Miller's recurrence for the powers of a power series,

    k·c₀·Q_k = Σ_j ((N+1)·e_j − k)·c_j·Q_(k−e_j),

O(m) multiplications by small integers per coefficient (m: the bet's net values). Exact
(:func:`exact_power`): integers, each division exact. Bounded (:func:`bounded_power`): every
coefficient an interval of two P-bit mantissas with a binary exponent, rounded outward at each
step; the recurrence's terms are all positive up to k = (N+1)·e₁, and run from the top end of the
reversed polynomial they are all positive down to the same point from above, so a bet of up to
three net values has no subtraction anywhere (no cancellation: each coefficient keeps its P
bits, less one rounding per step). In between, for bets of four or more net values, the terms
have both signs; the interval says how much that cost, and :func:`bounded_power` refuses when
the bounds come out wider than asked.

>>> from fractions import Fraction
>>> one = Round.of([(Fraction(1), 1), (Fraction(-1), 1)])  # a fair coin
>>> exact_power(one, 3)
(1, 3, 3, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Bounds", "Round", "bounded_power", "exact_power"]


@dataclass(frozen=True)
class Round:
    """One round of a bet on an integer lattice: net result ``(low + step·e_j) / scale`` happens
    in ``counts[j]`` of ``total`` equally likely cases (counts divided by their common factor).

    >>> banker = Round.of([(Fraction(19, 20), 2292), (Fraction(0), 475), (Fraction(-1), 2230)])
    >>> banker.scale, banker.low, banker.step, banker.exponents
    (20, -20, 1, (0, 20, 39))
    """

    scale: int
    low: int
    step: int
    exponents: tuple[int, ...]
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        """All cases of one round."""
        return sum(self.counts)

    @property
    def degree(self) -> int:
        """The highest lattice exponent of one round."""
        return self.exponents[-1]

    def net(self, rounds: int, k: int) -> Fraction:
        """The net result (units) of lattice point ``k`` after ``rounds`` rounds."""
        return Fraction(rounds * self.low + self.step * k, self.scale)

    @classmethod
    def of(cls, outcomes: Iterable[tuple[Fraction, int]]) -> Round:
        """From (net result, count) pairs; equal nets merged, impossible ones dropped."""
        merged: dict[Fraction, int] = {}
        for net, count in outcomes:
            if count:
                merged[Fraction(net)] = merged.get(Fraction(net), 0) + count
        if not merged:
            raise ValueError("a bet with no possible outcome")
        scale = math.lcm(*(v.denominator for v in merged))
        nets = sorted(merged)
        scaled = [int(v * scale) for v in nets]
        low = scaled[0]
        step = math.gcd(*(s - low for s in scaled)) or 1
        common = math.gcd(*merged.values())
        return cls(
            scale,
            low,
            step,
            tuple((s - low) // step for s in scaled),
            tuple(merged[v] // common for v in nets),
        )

    def reversed(self) -> Round:
        """The mirror image (net results negated): its power read backwards is this one's."""
        top = self.degree
        pairs = sorted(zip((top - e for e in self.exponents), self.counts, strict=True))
        return Round(
            self.scale,
            -(self.low + self.step * top),
            self.step,
            tuple(e for e, _ in pairs),
            tuple(c for _, c in pairs),
        )


def exact_power(one: Round, rounds: int) -> tuple[int, ...]:
    """The counts of ``rounds`` rounds: entry k counts the cases (of ``one.total ** rounds``)
    whose net result is lattice point k (Miller's recurrence, every division exact).

    >>> pair = Round.of([(Fraction(11), 31), (Fraction(-1), 384)])
    >>> exact_power(pair, 2) == (384**2, 2 * 31 * 384, 31**2)
    True
    """
    c0 = one.counts[0]
    terms = list(zip(one.exponents[1:], one.counts[1:], strict=True))
    size = rounds * one.degree + 1
    q = [0] * size
    q[0] = c0**rounds
    n1 = rounds + 1
    for k in range(1, size):
        acc = 0
        for e, c in terms:
            if e > k:
                break
            prev = q[k - e]
            if prev:
                acc += (n1 * e - k) * c * prev
        q[k] = acc // (k * c0)
    return tuple(q)


@dataclass(frozen=True)
class Bounds:
    """Probabilities ``[lower[k], upper[k]] · 2**exponent[k]`` of every lattice point k, each
    proven to hold the exact value.

    >>> b = bounded_power(Round.of([(Fraction(1), 1), (Fraction(-1), 1)]), 2, 40)
    >>> lo, hi, e = list(b.points())[1]
    >>> Fraction(lo) * Fraction(2) ** e, Fraction(hi) * Fraction(2) ** e
    (Fraction(1, 2), Fraction(1, 2))
    """

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    exponent: tuple[int, ...]

    def points(self) -> Iterable[tuple[int, int, int]]:
        """(lower mantissa, upper mantissa, binary exponent) per lattice point."""
        return zip(self.lower, self.upper, self.exponent, strict=True)

    def fixed(self, bits: int) -> tuple[list[int], list[int]]:
        """Every bound as a multiple of 2**-bits: lower ones rounded down, upper ones up."""
        lows: list[int] = []
        highs: list[int] = []
        for lo, hi, e in self.points():
            shift = e + bits
            if shift >= 0:
                lows.append(lo << shift)
                highs.append(hi << shift)
            else:
                lows.append(lo >> -shift)
                highs.append(-((-hi) >> -shift))
        return lows, highs


Interval = tuple[int, int, int]
"""[lo, hi] · 2**e, lo and hi non-negative integers."""


def _ratio(num: int, den: int, bits: int) -> Interval:
    """num/den as an interval of ``bits``-bit mantissas."""
    shift = bits + den.bit_length() - num.bit_length()
    scaled = num << shift if shift >= 0 else num >> -shift
    if shift < 0:  # the shifted-out bits: the upper bound must cover them
        return scaled // den, -((-(scaled + 1)) // den), -shift
    return scaled // den, -((-scaled) // den), -shift


def _normal(lo: int, hi: int, e: int, bits: int) -> Interval:
    """Mantissas cut to ``bits`` bits (lower rounded down, upper up)."""
    extra = hi.bit_length() - bits
    if extra > 0:
        return lo >> extra, -((-hi) >> extra), e + extra
    return lo, hi, e


def _power(x: Interval, n: int, bits: int) -> Interval:
    """x**n by squaring, rounded outward at every step."""
    result: Interval = (1, 1, 0)
    base = x
    while n:
        if n & 1:
            result = _normal(result[0] * base[0], result[1] * base[1], result[2] + base[2], bits)
        n >>= 1
        if n:
            base = _normal(base[0] * base[0], base[1] * base[1], 2 * base[2], bits)
    return result


def _half(one: Round, rounds: int, bits: int, stop: int) -> list[Interval]:
    """Probabilities of lattice points 0..stop, as intervals, by the recurrence from the bottom
    (signed terms bounded by the side of the interval that makes them smallest or largest)."""
    c0 = one.counts[0]
    terms = list(zip(one.exponents[1:], one.counts[1:], strict=True))
    n1 = rounds + 1
    out: list[Interval] = [_power(_ratio(c0, one.total, bits + 8), rounds, bits)]
    guard = bits + 8
    for k in range(1, stop + 1):
        parts: list[tuple[int, int, int, int]] = []
        for e, c in terms:
            if e > k:
                break
            lo, hi, x = out[k - e]
            if hi:
                parts.append(((n1 * e - k) * c, lo, hi, x))
        if not parts:
            out.append((0, 0, 0))
            continue
        top = max(x + hi.bit_length() + a.bit_length() for a, _, hi, x in parts)
        base = top - guard
        s_lo = s_hi = 0
        for a, lo, hi, x in parts:
            shift = x - base
            small, large = (a * lo, a * hi) if a >= 0 else (a * hi, a * lo)
            if shift >= 0:
                s_lo += small << shift
                s_hi += large << shift
            else:
                s_lo += small >> -shift
                s_hi += -((-large) >> -shift)
        d = k * c0
        lift = bits + d.bit_length() + 2 - max(s_hi.bit_length(), 1)
        if lift > 0:
            s_lo <<= lift
            s_hi <<= lift
            base -= lift
        lo_q = max(s_lo // d, 0)
        hi_q = max(-((-s_hi) // d), 0)
        out.append(_normal(lo_q, hi_q, base, bits))
    return out


def bounded_power(one: Round, rounds: int, digits: int) -> Bounds:
    """The probabilities of ``rounds`` rounds per lattice point, each as an interval proven to
    hold it, of relative width below 10**-digits (else :class:`ArithmeticError`).

    >>> from fractions import Fraction
    >>> banker = Round.of([(Fraction(19, 20), 2292), (Fraction(0), 475), (Fraction(-1), 2230)])
    >>> b = bounded_power(banker, 30, 30)
    >>> exact = exact_power(banker, 30)
    >>> two = Fraction(2)
    >>> all(lo * two**e <= Fraction(q, banker.total**30) <= hi * two**e
    ...     for (lo, hi, e), q in zip(b.points(), exact))
    True
    """
    size = rounds * one.degree + 1
    bits = math.ceil(digits * math.log2(10)) + size.bit_length() + 24
    mirror = one.reversed()
    rising = (rounds + 1) * (one.exponents[1] if len(one.exponents) > 1 else 0)
    falling = size - 1 - (rounds + 1) * (mirror.exponents[1] if len(mirror.exponents) > 1 else 0)
    # Terms are all positive from the bottom up to ``rising`` and from the top down to
    # ``falling``. In a gap between them, each side runs towards the mean, where it grows.
    mean = rounds * sum(e * c for e, c in zip(one.exponents, one.counts, strict=True))
    mean //= one.total
    split = min(max(falling, min(rising, mean)), size - 1) if rising >= falling else mean
    forward = _half(one, rounds, bits, split)
    backward = _half(mirror, rounds, bits, size - 2 - split) if split < size - 1 else []
    lower: list[int] = []
    upper: list[int] = []
    exponent: list[int] = []
    for k in range(size):
        lo, hi, e = forward[k] if k < len(forward) else backward[size - 1 - k]
        if hi and (hi - lo) * 10**digits > lo:
            raise ArithmeticError(f"bounds of lattice point {k} wider than {digits} digits")
        lower.append(lo)
        upper.append(hi)
        exponent.append(e)
    return Bounds(tuple(lower), tuple(upper), tuple(exponent))
