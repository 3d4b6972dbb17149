"""The progressive figures of a bet's exact figures (:class:`~exactodds.bets.progressive.
ProgressiveFigures`: its figures as linear functions of the meters), and what compliance rules
read of them.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.figures.metrics import bet_figures
>>> from exactodds.deal.engine import joint_distribution
>>> table = load_paytable("dragon-dragon")
>>> p = progressive_figures(bet_figures(joint_distribution(table.shoe), table.bet("dragon_dragon")))
>>> p.rtp_at(p.break_even_meter) == 1, p.rtp_at_reset == p.rtp_at(p.meters[0].reset)
(True, True)
"""

from __future__ import annotations

from fractions import Fraction

from exactodds.bets.paytable import Bet
from exactodds.bets.progressive import (
    JackpotPayout,
    JackpotRow,
    ProgressiveFigures,
    amount_text,
    bet_at_meters,
)
from exactodds.errors import PaytableError
from exactodds.figures.metrics import BetFigures

__all__ = ["checked_meters", "jackpot_rows", "progressive_figures", "top_jackpot"]


def progressive_figures(figures: BetFigures) -> ProgressiveFigures | None:
    """The progressive figures of a bet's exact figures (None for a bet with fixed pays).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.figures.metrics import paytable_figures
    >>> progressive_figures(paytable_figures(load_paytable("classic"))[0]) is None
    True
    """
    bet = figures.bet
    if bet.progressive is None:
        return None
    fixed = Fraction(0)
    jackpots = []
    for row, rf in zip(bet.rows, figures.rows, strict=True):
        if isinstance(row.pays, JackpotPayout):
            jackpots.append(JackpotRow(row.event, row.pays.level, row.pays.share, rf.probability))
        else:
            fixed += rf.probability * (1 + rf.net)
    return ProgressiveFigures(bet, bet.progressive, fixed, tuple(jackpots))


# -- what compliance rules read ------------------------------------------------------------------


def jackpot_rows(figures: BetFigures) -> list[tuple[Fraction, str]]:
    """(probability, event) of every row paying a jackpot (none for fixed pays): what the rule
    on the odds of each progressive jackpot reads."""
    p = progressive_figures(figures)
    return [] if p is None else [(j.probability, j.event) for j in p.jackpots]


def top_jackpot(figures: BetFigures) -> tuple[Fraction, str]:
    """(probability, events) of winning the whole top meter: a progressive bet's top award.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.figures.metrics import bet_figures
    >>> table = load_paytable("dragon-dragon")
    >>> top_jackpot(bet_figures(joint_distribution(table.shoe), table.bet("dragon_dragon")))
    (Fraction(24273, 20661368533), 'Six of a kind')
    """
    p = progressive_figures(figures)
    if p is None:
        raise PaytableError(f"bet {figures.bet.id!r} is not a progressive bet")
    top = p.meters[0].name
    events = [j.event for j in p.jackpots if j.level == top and j.share == 1]
    return p.jackpot_probability, ", ".join(events) or "no row pays all of it"


def checked_meters(figures: BetFigures) -> list[tuple[str, Bet]]:
    """Where compliance rules are stated for a progressive bet: (where, the bet paying at
    that meter) at the reset and, when there is one, at the break-even meter of the top
    meter (where its RTP is exactly 100%)."""
    p = progressive_figures(figures)
    bet = figures.bet
    if p is None:
        return [("", bet)]
    top = p.meters[0]
    out = [(f"at the reset meter {amount_text(top.reset)}", bet)]
    even = p.break_even_meter
    if even is not None and even > 0:
        at = bet_at_meters(bet, {top.name: even})
        out.append((f"at the break-even meter {amount_text(even)}", at))
    return out
