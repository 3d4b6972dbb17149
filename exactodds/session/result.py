"""``session(...)``: a flat unit bet over N independent rounds and the programmes around it, as
one result for the command line, notebooks and sheets.

>>> s = session("classic", "banker", 10, bankroll=3, rebate=Fraction(1, 10))
>>> s.exact, s.distribution.p_ahead.exact > s.distribution.p_behind.exact
(True, False)
>>> s.p_ruin.exact > 0, s.edge_after_rebate.exact < s.figures.house_edge
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.errors import ExactOddsError, SessionError, about, parameter, quote
from exactodds.session.distribution import INDEPENDENT_NOTE, Range, SessionDistribution
from exactodds.session.lattice import Round

if TYPE_CHECKING:
    import pandas as pd

    from exactodds.bets.game import GameChoice
    from exactodds.bets.paytable import Paytable
    from exactodds.figures.metrics import BetFigures
    from exactodds.session.programme import DeadChip, TheoWin
    from exactodds.session.work import SessionWork

__all__ = ["INDEPENDENT_NOTE", "MAX_DIGITS", "MIN_DIGITS", "Session", "bet_session", "session"]

MIN_DIGITS = 10
MAX_DIGITS = 100
"""Significant digits the bounds of a long session may be asked for."""


@dataclass(frozen=True)
class Session:
    """A session's figures: the bet's per-round figures, the exact (or bounded) distribution of
    the net result, and the programme figures asked for (None where not asked)."""

    paytable: str
    shoe: str
    tableau: str
    figures: BetFigures
    rounds: int
    distribution: SessionDistribution
    bankroll: Fraction | None = None
    p_ruin: Range | None = None
    rebate: Fraction | None = None
    edge_after_rebate: Range | None = None
    dead_chip: DeadChip | None = None
    theo: TheoWin | None = None

    @property
    def exact(self) -> bool:
        """Whether the distribution and the figures read from it are exact Fractions (else
        proven bounds; the risk of ruin may be bounded on its own when its work is large)."""
        return self.distribution.exact

    @property
    def bet(self) -> str:
        """The bet's id."""
        return self.figures.bet.id

    @property
    def expected(self) -> Fraction:
        """Expected net result of the session (units): rounds × EV."""
        return self.rounds * self.figures.ev

    @property
    def variance(self) -> Fraction:
        """Variance of the session's net result: rounds × the per-round variance."""
        return self.rounds * self.figures.variance

    @property
    def hold_range(self) -> tuple[Range, Range]:
        """The house's win over the session (units at one unit a round) that holds with
        probability at least 95%: minus the 97.5% and the 2.5% quantiles of the net result."""
        d = self.distribution
        high, low = d.percentile(Fraction(39, 40)), d.percentile(Fraction(1, 40))
        return high.map(Fraction(-1)), low.map(Fraction(-1))

    def _table(self) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
        if self.exact:
            rows: list[tuple[object, ...]] = [
                (net, p.lower) for net, p in self.distribution.outcomes()
            ]
            return ("net", "probability"), rows
        rows = [(net, p.lower, p.upper) for net, p in self.distribution.outcomes()]
        return ("net", "probability_lower", "probability_upper"), rows

    def to_frame(self) -> pd.DataFrame:
        """The distribution of the net result as a DataFrame of exact values (extra
        ``pandas``): one row per possible net result."""
        from exactodds.notebook import frame

        return frame(*self._table())

    def _repr_html_(self) -> str:
        """The distribution in at most 24 groups of net results, exact (bounds where it is
        bounded), for notebooks, as every result's small table (:mod:`exactodds.notebook`); the
        page with the figures and a chart is ``exactodds session … --format html``."""
        from exactodds.bets.payout import format_number
        from exactodds.notebook import html_table

        rows: list[tuple[object, ...]] = []
        for low, high, p in self.distribution.bins():
            net = (
                format_number(low)
                if low == high
                else f"{format_number(low)} to {format_number(high)}"
            )
            rows.append((net, p.lower) if self.exact else (net, p.lower, p.upper))
        headers: tuple[str, ...] = ("net result (units)", "probability")
        if not self.exact:
            headers = ("net result (units)", "probability at least", "probability at most")
        return html_table(headers, rows, repr(self)[1:-1] + f"; {INDEPENDENT_NOTE}")

    def __repr__(self) -> str:
        from exactodds.numbers import percent

        d = self.distribution
        ahead = percent(d.p_ahead.lower)
        kind = "exact" if self.exact else f"bounds to {d.digits} digits"
        return f"<Session {self.bet} × {self.rounds:,}: P(ahead) {ahead} ({kind})>"


def _number(
    value: Fraction | int | str | None, what: str, low: Fraction, high: Fraction, share: bool
) -> Fraction | None:
    """An exact number from the API or the command line (``"12.5"``; a ``share`` given as text
    is a percentage, ``"10%"``: a bare number is refused), from ``low`` to ``high``; anything else a
    :class:`SessionError` quoting it."""
    if value is None:
        return None
    from exactodds.bets.payout import format_number

    shown = (
        (format_number(low * 100), format_number(high * 100))
        if share
        else (format_number(low), f"{int(high):,}")
    )
    unit = "%" if share else ""
    span = f"{shown[0]}{unit} to {shown[1]}{unit}"
    if isinstance(value, bool) or not isinstance(value, Fraction | int | str):
        raise about(SessionError(f"{what} {quote(value)}: give an exact number from {span}"), what)
    number: Fraction | None = None
    if isinstance(value, str):
        from exactodds.bets.payout import parse_number
        from exactodds.errors import PaytableError

        if share:  # a share as text is a percentage: "10%" (PERCENT_RULE)
            from exactodds.bets.payout import parse_percent

            try:
                number = parse_percent(value, what)
            except ExactOddsError as exc:  # the command line names its option
                raise about(SessionError(str(exc)), what) from None
        else:
            try:
                number = parse_number(value.strip())
            except PaytableError:
                number = None
    else:
        number = Fraction(value)
    if number is None or not low <= number <= high:
        raise about(SessionError(f"{what} {quote(value)}: give a number from {span}"), what)
    return number


def session(
    paytable: Paytable | str | None,
    bet: str,
    rounds: int,
    *,
    bankroll: Fraction | int | str | None = None,
    rebate: Fraction | int | str | None = None,
    dead_chips: bool = False,
    commission: Fraction | int | str | None = None,
    hands_per_hour: Fraction | int | str | None = None,
    average_bet: Fraction | int | str | None = None,
    digits: int = 30,
    game: GameChoice | None = None,
    output: str | None = None,
) -> Session:
    """The session of ``rounds`` flat unit bets on ``bet`` (each offered round for a bet with an
    offer), rounds independent, on the paytable's shoe and rules (or ``game``'s).

    ``rebate`` and ``commission`` are shares: a number (``Fraction(1, 10)``) or a percentage as
    text (``"10%"``; a bare number as text is refused). Up to
    :data:`~exactodds.limits.EXACT_SESSION_ROUNDS` rounds the figures are exact; beyond, each
    probability lies between bounds proven to ``digits`` significant digits. ``output``: the
    format it will be written in (``"json"``, …), counted in the work estimate checked before
    any work (:func:`~exactodds.session.work.check_session_work`).
    """
    from exactodds.limits import MAX_SESSION_ROUNDS

    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise about(
            SessionError(f"rounds {quote(rounds)}: give a whole number of rounds, 1 or more"),
            "rounds",
        )
    if rounds > MAX_SESSION_ROUNDS:
        from exactodds.limits import check_count

        with parameter("rounds", prefix=False):
            check_count(rounds, MAX_SESSION_ROUNDS, "rounds", SessionError)
    if not MIN_DIGITS <= digits <= MAX_DIGITS:
        message = f"digits {digits}: must be from {MIN_DIGITS} to {MAX_DIGITS}"
        raise about(SessionError(message), "digits")
    one, big = Fraction(1), Fraction(10**12)
    cash = _number(bankroll, "bankroll", one, big, share=False)
    share = _number(rebate, "rebate", Fraction(0), one, share=True)
    paid = _number(commission, "commission", Fraction(0), one, share=True)
    pace = _number(hands_per_hour, "hands_per_hour", one, Fraction(10**4), share=False)
    stake = _number(average_bet, "average_bet", Fraction(1, 100), big, share=False)
    if paid is not None and not dead_chips:
        message = "commission applies to dead chips: add dead_chips"
        raise about(SessionError(message), "commission", "dead_chips")
    if (pace is None) != (stake is None):
        message = "hands_per_hour and average_bet go together (theoretical win)"
        raise about(SessionError(message), "hands_per_hour", "average_bet")
    figures, table, shoe, tableau = _figures(paytable, bet, game)
    from exactodds.session.programme import dead_chip, edge_after_rebate, theo_win

    outcomes, work = _planned(figures, rounds, cash, digits, output)
    chip = dead_chip(figures, paid) if dead_chips else None
    dist = _distribution(outcomes, rounds, digits, work, figures.bet.id)
    ruin = None
    if cash is not None:
        ruin = _ruin(dist, rounds, _solvent(figures, cash), digits)
    after = None
    if share is not None:
        after = edge_after_rebate(figures, rounds, dist.expected_loss, share)
    theo = None
    if pace is not None and stake is not None:
        net_range = (dist.percentile(Fraction(1, 40)), dist.percentile(Fraction(39, 40)))
        theo = theo_win(figures, rounds, pace, stake, net_range)
    return Session(
        table, shoe, tableau, figures, rounds, dist, cash, ruin, share, after, chip, theo
    )


def bet_session(
    figures: BetFigures, rounds: int, names: tuple[str, str, str], digits: int = 30
) -> Session:
    """The session of a bet whose per-round figures are computed already (a math sheet's
    ``--session`` section): the distribution, and the dead-chip figures where dead chips apply.
    ``names``: the paytable's name, the shoe's and the rules'."""
    from exactodds.session.programme import dead_chip, dead_chips_apply

    if not figures.total:
        raise SessionError(f"{figures.bet.id}: the bet is never offered on this shoe")
    outcomes, work = _planned(figures, rounds, None, digits, None)
    chip = dead_chip(figures) if dead_chips_apply(figures) is None else None
    dist = _distribution(outcomes, rounds, digits, work, figures.bet.id)
    return Session(*names, figures, rounds, dist, dead_chip=chip)


def _figures(
    paytable: Paytable | str | None, bet: str, game: GameChoice | None
) -> tuple[BetFigures, str, str, str]:
    """The bet's per-round figures on the chosen shoe and rules (card work budgeted)."""
    from exactodds.bets.budget import check_card_work
    from exactodds.bets.game import GameChoice
    from exactodds.bets.loader import load_paytable
    from exactodds.deal.engine import joint_distribution
    from exactodds.figures.metrics import bet_figures

    chosen = game or GameChoice()
    # judged on the shoe and rules it is counted on (--decks, --remove, --shoe, --rules)
    table = (
        load_paytable(paytable, chosen, counted=False)
        if paytable is None or isinstance(paytable, str)
        else paytable
    )
    shoe, tableau = chosen.resolve(table)
    with parameter("bet"):
        the_bet = table.round_bet(bet, "session")
    check_card_work([the_bet], shoe, tableau)
    figures = bet_figures(joint_distribution(shoe, tableau), the_bet)
    if not figures.total:
        raise about(SessionError(f"bet {bet}: the bet is never offered on this shoe"), "bet")
    return figures, table.name, shoe.describe(), tableau.name


def _distribution(
    outcomes: list[tuple[Fraction, int]], rounds: int, digits: int, work: SessionWork, bet: str
) -> SessionDistribution:
    """The distribution as :func:`~exactodds.session.work.session_work` planned it (and
    checked its work): exact, bounded, or bounded and exact where the bounds fail."""
    if work.exact:
        return SessionDistribution.compute(outcomes, rounds)
    try:
        return SessionDistribution.compute(outcomes, rounds, exact=False, digits=digits)
    except ArithmeticError:
        if work.method == "bounded, else exact":
            return SessionDistribution.compute(outcomes, rounds)
    raise about(
        SessionError(
            f"rounds {rounds:,}: {bet} has {len(Round.of(outcomes).exponents)} net results a "
            f"round and its bounds cannot be proven to {digits} digits over this many rounds (the "
            "exact distribution would exceed the work budget); use fewer rounds"
        ),
        "rounds",
    )


def _planned(
    figures: BetFigures, rounds: int, bankroll: Fraction | None, digits: int, fmt: str | None
) -> tuple[list[tuple[Fraction, int]], SessionWork]:
    """The bet's outcomes and the session's work, refused over its limits before any work."""
    from exactodds.session.work import check_session_work, session_work

    outcomes = round_outcomes(figures)
    floor = None if bankroll is None else _solvent(figures, bankroll)
    work = session_work(Round.of(outcomes), rounds, floor, digits, fmt)
    check_session_work(work, figures.bet.id, digits)
    return outcomes, work


def _ruin(dist: SessionDistribution, rounds: int, bankroll: Fraction, digits: int) -> Range:
    """The risk of ruin: exact with an exact distribution and little work, else bounded."""
    from exactodds.limits import EXACT_RUIN_WORK
    from exactodds.session.ruin import ruin_probability, ruin_work

    exact = dist.exact and ruin_work(dist.one, rounds, bankroll) <= EXACT_RUIN_WORK
    return ruin_probability(dist.one, rounds, bankroll, None if exact else digits)


def round_outcomes(figures: BetFigures) -> list[tuple[Fraction, int]]:
    """One round's (net result, count) pairs of a flat unit base stake: the rows' combinations,
    or for a live bet its exact outcomes (every multiplier product; a peek's optimal raises)
    less the fee, their probabilities as counts over one common denominator.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.figures.metrics import bet_figures
    >>> table = load_paytable("tests/data/live-peek.toml")
    >>> tie = bet_figures(joint_distribution(table.shoe), table.bet("tie"))
    >>> round_outcomes(tie) == [(r.net, r.combinations) for r in tie.rows]
    True
    """
    if not figures.bet.live:
        return [(r.net, r.combinations) for r in figures.rows]
    pairs = [(p, net - figures.fee) for p, net in figures.outcomes() if p]
    whole = math.lcm(*(p.denominator for p, _ in pairs))
    return [(net, int(p * whole)) for p, net in pairs]


def _solvent(figures: BetFigures, bankroll: Fraction) -> Fraction:
    """The bankroll as the ruin programme reads it (ruined below one unit): a bet that takes
    more than one unit a round (the fee; a peek's largest raise) is ruined below that much,
    so its bankroll is shifted down by the excess; refused when it cannot pay one round."""
    bet = figures.bet
    need = max((1, *(bet.peek.raises if bet.peek else ()))) + bet.fee
    if bankroll < need:
        from exactodds.bets.payout import format_number

        message = (
            f"bankroll {quote(bankroll)}: {bet.id} takes up to {format_number(need)} units a "
            "round (stake, largest raise and fee)"
        )
        raise about(SessionError(message), "bankroll")
    return bankroll - (need - 1)
