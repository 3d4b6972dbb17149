"""The headline figures of any bet (docs/rules.md §8), defined once from its outcomes: the
probability and net result per unit staked of each row. A round bet's figures
(:class:`~exactodds.figures.metrics.BetFigures`) and a streak bet's
(:class:`~exactodds.bets.streak.StreakFigures`) both derive them from here, so a consumer
reads every bet alike and the next kind of bet states only its outcomes.

>>> class Coin(ReturnFigures):
...     def outcomes(self):
...         return [(Fraction(1, 2), Fraction(1)), (Fraction(1, 2), Fraction(-1))]
>>> coin = Coin()
>>> coin.ev, coin.hit_frequency, coin.variance, coin.largest_win_probability
(Fraction(0, 1), Fraction(1, 2), Fraction(1, 1), Fraction(1, 2))
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from functools import cached_property

__all__ = ["ReturnFigures"]


class ReturnFigures:
    """EV, RTP, house edge, push probability, hit frequency, variance, largest win and its
    probability of a bet, exact, from :meth:`outcomes` (a subclass states them)."""

    def outcomes(self) -> Iterable[tuple[Fraction, Fraction]]:
        """(probability, net result per unit staked, before any fee) of each outcome; the
        probabilities sum to 1 (or to 0 for a bet never offered)."""
        raise NotImplementedError

    @cached_property
    def fee(self) -> Fraction:
        """Fee per unit staked, paid every round and never returned (0 for most bets); the
        outcomes' nets do not count it."""
        return Fraction(0)

    @cached_property
    def mean_net(self) -> Fraction:
        """Expected net result of the outcomes per unit staked, before the fee."""
        return sum((p * net for p, net in self.outcomes()), Fraction(0))

    @cached_property
    def ev(self) -> Fraction:
        """Expected net result per unit staked, the fee paid."""
        return self.mean_net - self.fee

    @cached_property
    def paid(self) -> Fraction:
        """Money paid per unit staked: the stake and the fee (a bet with a raise adds it)."""
        return 1 + self.fee

    @cached_property
    def rtp(self) -> Fraction:
        """Return to player: money returned over money paid, 1 + EV / :attr:`paid`."""
        return 1 + self.ev / self.paid

    @cached_property
    def rtp_per_stake(self) -> Fraction:
        """Money returned per unit staked, fees not counted as paid: :attr:`paid` + EV."""
        return self.paid + self.ev

    @cached_property
    def house_edge(self) -> Fraction:
        """−EV per money paid (per unit staked unless the bet has a fee), pushes counted."""
        return -self.ev / self.paid

    @cached_property
    def push_probability(self) -> Fraction:
        """Probability that the stake is returned."""
        return sum((p for p, net in self.outcomes() if net == 0), Fraction(0))

    @cached_property
    def house_edge_resolved(self) -> Fraction | None:
        """−EV per resolved bet (pushes excluded); None if the bet always pushes."""
        resolved = 1 - self.push_probability
        return None if resolved == 0 else self.house_edge / resolved

    @cached_property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins something (net > 0)."""
        return sum((p for p, net in self.outcomes() if net > 0), Fraction(0))

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the net result per unit stake."""
        square = sum((p * net**2 for p, net in self.outcomes()), Fraction(0))
        return square - self.mean_net**2

    @property
    def std_dev(self) -> float:
        """Standard deviation (for display; the exact figure is sqrt(:attr:`variance`))."""
        return math.sqrt(self.variance)

    @cached_property
    def largest_win(self) -> Fraction:
        """Largest net win per unit stake among rows that can happen (0 if none)."""
        return max((net for p, net in self.outcomes() if p), default=Fraction(0))

    @cached_property
    def largest_win_probability(self) -> Fraction:
        """Probability of the largest win (0 when nothing wins)."""
        top = self.largest_win
        return sum((p for p, net in self.outcomes() if net == top and top > 0), Fraction(0))

    @property
    def player_favourable(self) -> bool:
        """The bet has a positive expectation for the player."""
        return self.ev > 0
