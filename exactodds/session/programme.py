"""The programmes casinos run around a bet, exactly: dead (non-negotiable) chips with a rolling
commission, loss rebates, and the theoretical win an operator plans a table with
(docs/programmes.md).

>>> from exactodds.figures.metrics import paytable_figures
>>> from exactodds.bets.loader import load_paytable
>>> banker = paytable_figures(load_paytable("classic"))[1]
>>> chip = dead_chip(banker, Fraction(1, 100))
>>> f"{float(chip.wagers_per_chip):.4f}", f"{float(chip.edge_per_chip):.4%}"
('2.2409', '2.3707%')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.errors import SessionError, about
from exactodds.figures.metrics import BetFigures
from exactodds.session.distribution import Range

__all__ = ["DeadChip", "TheoWin", "dead_chip", "edge_after_rebate", "theo_win"]


@dataclass(frozen=True)
class DeadChip:
    """A dead chip on one bet: bet until it loses, wins paid in cash at the bet's payout,
    pushes bet again. Per chip bought: the wagers it makes (1/P(loss)) and the house's gain
    (the per-bet edge × wagers, by Wald's identity), and after a rolling ``commission`` paid on
    the dead chips bought."""

    wagers_per_chip: Fraction
    edge_per_chip: Fraction
    commission: Fraction | None = None

    @property
    def edge_after_commission(self) -> Fraction | None:
        """The house's gain per chip bought less the commission (None without one)."""
        return None if self.commission is None else self.edge_per_chip - self.commission

    @property
    def edge_per_wager_after_commission(self) -> Fraction | None:
        """The same per unit wagered with dead chips (None without a commission)."""
        after = self.edge_after_commission
        return None if after is None else after / self.wagers_per_chip


def dead_chips_apply(figures: BetFigures) -> str | None:
    """Why dead chips do not apply to the bet (None when they do): a dead chip is lost whole,
    so the bet must lose sometimes, and only ever the whole stake.

    >>> from exactodds.figures.metrics import paytable_figures
    >>> from exactodds.bets.loader import load_paytable
    >>> [dead_chips_apply(f) for f in paytable_figures(load_paytable("classic"))[:2]]
    [None, None]
    """
    if figures.bet.live:
        return f"it has {' and '.join(figures.bet.live)} (a dead chip is a plain stake, lost whole)"
    nets = {r.net for r in figures.rows if r.combinations}
    partial = sorted(n for n in nets if n < 0 and n != -1)
    if partial:
        return f"it loses {-partial[0]} of the stake on some rounds (a dead chip is lost whole)"
    if -1 not in nets:
        return "it never loses (a dead chip is bet until it loses)"
    return None


def dead_chip(figures: BetFigures, commission: Fraction | None = None) -> DeadChip:
    """The dead-chip figures of a bet (:class:`SessionError` where dead chips do not apply)."""
    why = dead_chips_apply(figures)
    if why is not None:
        raise about(SessionError(f"dead_chips: {figures.bet.id} {why}"), "dead_chips")
    loss = sum((r.probability for r in figures.rows if r.net == -1), Fraction(0))
    wagers = 1 / loss
    return DeadChip(wagers, figures.house_edge * wagers, commission)


def edge_after_rebate(
    figures: BetFigures, rounds: int, expected_loss: Range, rebate: Fraction
) -> Range:
    """The house edge per unit wagered when ``rebate`` of the net session loss is returned:
    (rounds·edge − rebate·E[max(0, −net)]) / rounds, per money paid (a fee or a raise counted,
    as the house edge is).

    >>> from exactodds.figures.metrics import paytable_figures
    >>> from exactodds.bets.loader import load_paytable
    >>> tie = paytable_figures(load_paytable("classic"))[2]
    >>> one = edge_after_rebate(tie, 1, Range.of(tie.rows[1].probability), Fraction(1, 10))
    >>> one.exact == tie.house_edge - tie.rows[1].probability / 10
    True
    """
    return expected_loss.map(-rebate / (rounds * figures.paid), figures.house_edge)


@dataclass(frozen=True)
class TheoWin:
    """The theoretical win: hands per hour × average bet × house edge, and the range of the
    house's win (hold) over the session that holds it with probability at least 95%."""

    hands_per_hour: Fraction
    average_bet: Fraction
    per_hour: Fraction
    hold_low: Range
    hold_high: Range
    rounds: int

    @property
    def hours(self) -> Fraction:
        """The session's length at this pace."""
        return self.rounds / self.hands_per_hour

    @property
    def hold_percent(self) -> tuple[Range, Range]:
        """The hold range as a share of the amount wagered."""
        handle = self.rounds * self.average_bet
        return self.hold_low.map(1 / handle), self.hold_high.map(1 / handle)


def theo_win(
    figures: BetFigures,
    rounds: int,
    hands_per_hour: Fraction,
    average_bet: Fraction,
    net_range: tuple[Range, Range],
) -> TheoWin:
    """Theoretical win and the 95% hold range, from the 2.5% and 97.5% quantiles of the
    player's net result (``net_range``) at one unit."""
    low, high = net_range
    return TheoWin(
        hands_per_hour,
        average_bet,
        hands_per_hour * average_bet * figures.house_edge,
        high.map(-average_bet),
        low.map(-average_bet),
        rounds,
    )
