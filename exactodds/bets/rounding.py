"""How a bet's returns are rounded to a step (a cent, a whole unit), as data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

__all__ = ["Rounding", "RoundingMode"]


class RoundingMode(StrEnum):
    """How a return is rounded to the rounding step.

    >>> [Rounding(Fraction(1, 2), m).apply(Fraction(5, 4)) for m in RoundingMode]  # 2.5 steps
    [Fraction(1, 1), Fraction(3, 2), Fraction(1, 1)]
    >>> [Rounding(Fraction(1, 2), m).apply(Fraction(7, 4)) for m in RoundingMode]  # 3.5 steps
    [Fraction(3, 2), Fraction(2, 1), Fraction(2, 1)]
    """

    DOWN = "down"
    HALF_UP = "half-up"
    HALF_EVEN = "half-even"


@dataclass(frozen=True)
class Rounding:
    """Returns are rounded to a multiple of ``step`` (e.g. a cent) in ``mode``.

    >>> r = Rounding(Fraction(1, 100), RoundingMode.DOWN)
    >>> r.apply(Fraction("0.195")), r.apply(Fraction("0.585"))
    (Fraction(19, 100), Fraction(29, 50))
    """

    step: Fraction
    mode: RoundingMode = RoundingMode.DOWN

    def apply(self, amount: Fraction) -> Fraction:
        """``amount`` rounded to a multiple of the step."""
        units = amount / self.step
        floor = units.numerator // units.denominator
        rest = units - floor
        if self.mode is RoundingMode.DOWN or rest < Fraction(1, 2):
            whole = floor
        elif rest > Fraction(1, 2) or self.mode is RoundingMode.HALF_UP:
            whole = floor + 1
        else:
            whole = floor + (floor % 2)
        return whole * self.step
