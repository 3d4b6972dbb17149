"""A progressive bet's meter simulated wager by wager: the check of the long-run RTP of
:mod:`exactodds.bets.progressive` (rows drawn with their exact probabilities, amounts exact)."""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from fractions import Fraction

from exactodds.bets.progressive import JackpotPayout
from exactodds.errors import PaytableError
from exactodds.figures.metrics import BetFigures

__all__ = ["MeterRun", "simulate_meter"]


@dataclass(frozen=True)
class MeterRun:
    """A simulated meter: per cycle (from one reset of the top meter to the next) the wagers
    and the total returned to players in stakes (the open cycle at the end left out)."""

    cycles: tuple[tuple[int, Fraction], ...]

    @property
    def rtp(self) -> Fraction:
        """Total returned ÷ total wagered over the closed cycles."""
        wagers = sum(w for w, _ in self.cycles)
        paid = sum((r for _, r in self.cycles), Fraction())
        return paid / wagers if wagers else Fraction(0)


def simulate_meter(figures: BetFigures, rounds: int, seed: int) -> MeterRun:
    """Play ``rounds`` wagers of a progressive bet against its meters (rows drawn with their
    exact probabilities by :class:`random.Random`, amounts exact): each wager adds its
    increment to every meter (up to its cap), a jackpot row pays its share of the meter and
    takes it off, a 100% win resets the meter: the check of
    :attr:`~exactodds.bets.progressive.ProgressiveFigures.long_run_rtp`.
    """
    bet = figures.bet
    progressive = bet.progressive
    if progressive is None:
        raise PaytableError(f"bet {bet.id!r} is not a progressive bet")
    rng = random.Random(seed)
    total = figures.total
    bounds = []
    acc = 0
    for rf in figures.rows:
        acc += rf.combinations
        bounds.append(acc)
    meters = {m.name: m.reset for m in progressive.meters}
    top = progressive.meters[0].name
    stake = progressive.stake
    cycles: list[tuple[int, Fraction]] = []
    wagers, paid = 0, Fraction(0)
    for _ in range(rounds):
        for m in progressive.meters:
            grown = meters[m.name] + m.increment * stake
            meters[m.name] = grown if m.cap is None else min(grown, m.cap)
        k = bisect.bisect_right(bounds, rng.randrange(total))
        row = bet.rows[k]
        wagers += 1
        pays = row.pays
        if isinstance(pays, JackpotPayout):
            won = pays.share * meters[pays.level]
            paid += won
            meters[pays.level] -= won
            if pays.share == 1:
                meters[pays.level] = progressive.meter(pays.level).reset
                if pays.level == top:
                    cycles.append((wagers, paid / stake))
                    wagers, paid = 0, Fraction(0)
        else:
            paid += stake * (1 + pays.net)
    return MeterRun(tuple(cycles))
