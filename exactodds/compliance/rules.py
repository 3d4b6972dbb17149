"""Jurisdiction profiles as data, and the checks of a paytable's bets against them.

The data (:class:`Profile`, :class:`Rule`, :class:`Check`, :class:`Compliance`…) is defined in
:mod:`exactodds.compliance.model` and re-exported here; this module checks bets with it.

A profile is a TOML file: ``name``, ``source``, optional ``description``, and a ``[rules]`` table
whose keys are :class:`RuleKind` values. A rule is its limit (``min_rtp = "90%"``) or a table with
the limit, the citation it comes from and an exception that a failing check quotes::

    [rules.min_rtp]
    limit = "90%"
    source = "…the text of the regulation…"

Profile files are untrusted: :mod:`exactodds.compliance.profiles` reads them as the paytable loader
reads paytables (parsed, never evaluated; every problem reported with its file and line, unknown
keys included). Four profiles ship with exactodds.

Every check is per bet, on the shoe and drawing rules in use (regulators do not say whether a
limit applies per bet or per game), with exact values:

- ``min_rtp`` / ``max_rtp``: the bet's RTP against the limit (``max_rtp = "100%"``: no bet
  favours the player). For a bet whose returns are rounded the RTP depends on the stake, and the
  lowest (highest) RTP over the stakes of the sheet's RTP-by-stake table is checked.
- ``top_award_max_odds = N``: the bet's largest win occurs at least once in N rounds, i.e. its
  probability is at least 1/N; ``n/a`` for a bet that never wins.
- ``payout_notation = "to"`` (or ``"for"``): the sheet states payouts in that notation only, and
  every payout has such a form (a partial loss has no "to" form). A sheet with both notations
  (``--notation both``) states odds with "for" too, so it fails a "to" rule.

A bet with a fee, multipliers or a peek (issue 34) is judged on its exact figures: its RTP is
money returned over money paid (the stake, the fee and, for a peek under the optimal raise, the
raises), and its top award is the largest win over the products of its multipliers (GLI-11
§4.8.2 on the top multiplied award) with that product's exact probability. A live bet whose
figures cannot be counted (a multiplied bet with an offer) has every check ``n/a``.

A streak bet is judged on its figures with independent rounds (each from the full shoe,
:func:`~exactodds.bets.streak.streak_figures`): its RTP per bet placed, and its top award's
probability per bet placed. A check that cannot be made (a streak bet that would never end on
the shoe in use, the top award of a bet that never wins) is ``n/a``, and any ``n/a`` makes the
verdict :attr:`Compliance.verdict` ``incomplete``: never a pass.

Besides a profile's own rules, every profile read by :mod:`exactodds.compliance.profiles` carries
exactodds' own rule :data:`NO_PLAYER_EDGE`: no bet may favour the player (RTP at most 100%, i.e.
house edge at least 0), unless the profile has a ``max_rtp`` of its own or says
``allow_player_edge = true``, or the command gives ``--allow-player-edge``
(:meth:`Profile.allowing_player_edge`).

A failing check is ``fail`` even where the rule allows exceptions (GLI-11's top award may be
rarer when its odds are displayed): the exception is quoted in the check's note.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.compliance.profiles import check_paytable_against
>>> c = check_paytable_against(load_paytable("classic"), "adm,gli-11")
>>> c.summary()
'56 checks: 46 pass, 10 fail, 0 n/a'
>>> [(k.bet, k.verdict.value) for k in c.checks if k.rule is RuleKind.MIN_RTP][:3]
[('player', 'pass'), ('banker', 'pass'), ('tie', 'fail')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactodds.bets.payout import Notation, Payout, format_number
from exactodds.bets.paytable import Bet
from exactodds.bets.streak import StreakBet, StreakFigures, streak_figures
from exactodds.compliance.model import (
    NO_PLAYER_EDGE,
    ODDS_RULES,
    Check,
    Compliance,
    Limit,
    Outcome,
    Profile,
    Rule,
    RuleKind,
    Verdict,
    describe_value,
    outcome_of,
    required_notation,
    with_player_edge_rule,
)
from exactodds.deal.engine import Joint
from exactodds.errors import PaytableError
from exactodds.figures.metrics import BetFigures, bet_figures, rtp_by_stake
from exactodds.figures.progressive import checked_meters, jackpot_rows, top_jackpot

__all__ = [
    "NO_PLAYER_EDGE",
    "ODDS_RULES",
    "Check",
    "Compliance",
    "Limit",
    "Outcome",
    "Profile",
    "Rule",
    "RuleKind",
    "Verdict",
    "describe_value",
    "outcome_of",
    "required_notation",
    "run_checks",
    "with_player_edge_rule",
]


# -- checking --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Subject:
    """What the rules look at for one bet: its exact figures, the RTP at each stake when its
    returns are rounded, and the notation of the sheet."""

    bet: Bet | StreakBet
    figures: BetFigures | StreakFigures | None
    """None when the bet's figures could not be computed (:attr:`unjudged` says why)."""
    stake_rtps: tuple[tuple[Fraction, Fraction], ...]
    notation: Notation
    meter: str = ""
    """Where the figures are: for a progressive bet, the meter (``at the reset meter 25,000``);
    for a streak bet, ``rounds independent``."""
    unjudged: str = ""
    """Why no rule can judge the bet (its checks are ``n/a``), or empty."""

    @property
    def progressive(self) -> bool:
        """The bet pays a progressive jackpot."""
        return isinstance(self.bet, Bet) and self.bet.progressive is not None


_Result = tuple[Fraction | str, Fraction | str, Verdict, str]
"""What a rule finds for a bet: value, limit, verdict, note."""


def _rtp_extreme(s: _Subject, lowest: bool) -> tuple[Fraction, str]:
    """The bet's RTP, or with rounding its lowest (highest) RTP over the stakes, and a note."""
    assert s.figures is not None
    if not s.stake_rtps:
        return s.figures.rtp, ""
    sign = 1 if lowest else -1  # the extreme RTP, at the smallest stake that gives it
    stake, rtp = min(s.stake_rtps, key=lambda sr: (sign * sr[1], sr[0]))
    first, last = s.stake_rtps[0][0], s.stake_rtps[-1][0]
    word = "lowest" if lowest else "highest"
    return rtp, (
        f"{word} RTP over stakes {format_number(first)} to {format_number(last)} "
        f"(returns rounded): at stake {format_number(stake)}"
    )


def _paid_note(s: _Subject) -> str:
    """What a live bet's RTP is per (issue 34): the money paid, its fee and raises included,
    under the optimal raise for a peek; empty for an ordinary bet.

    >>> from exactodds.bets.loader import load_paytable
    >>> bet = load_paytable("tests/data/live-peek.toml").round_bet("player")
    >>> _paid_note(_Subject(bet, None, (), Notation.TO))
    'RTP per money paid (stake, 20% fee and raises), under the optimal raise'
    """
    if not isinstance(s.bet, Bet) or not s.bet.live:
        return ""
    paid = ["stake"]
    if s.bet.fee:
        paid.append(f"{format_number(s.bet.fee * 100)}% fee")
    if s.bet.peek is not None:
        return f"RTP per money paid ({', '.join(paid)} and raises), under the optimal raise"
    return f"RTP per money paid ({' and '.join(paid)})" if s.bet.fee else ""


def _joined(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def _min_rtp(rule: Rule, s: _Subject) -> _Result:
    limit = rule.limit
    assert isinstance(limit, Fraction)
    rtp, note = _rtp_extreme(s, lowest=True)
    note = _joined(_paid_note(s), note)
    return rtp, limit, Verdict.PASS if rtp >= limit else Verdict.FAIL, note


def _max_rtp(rule: Rule, s: _Subject) -> _Result:
    limit = rule.limit
    assert isinstance(limit, Fraction)
    rtp, note = _rtp_extreme(s, lowest=False)
    note = _joined(_paid_note(s), note)
    if rtp <= limit:
        return rtp, limit, Verdict.PASS, note
    return rtp, limit, Verdict.FAIL, "; ".join(t for t in (note, rule.exception) if t)


def _top_award(rule: Rule, s: _Subject) -> _Result:
    limit = Fraction(1, int(rule.limit))
    f = s.figures
    if isinstance(f, BetFigures) and s.progressive:  # the top award: the top meter's jackpot
        p, event = top_jackpot(f)
        note = f"top award: the jackpot ({event})"
        if p >= limit:
            return p, limit, Verdict.PASS, note
        return p, limit, Verdict.FAIL, f"{note}; {rule.exception}" if rule.exception else note
    assert f is not None
    if f.largest_win <= 0:
        return Fraction(0), limit, Verdict.NA, "the bet never wins"
    p = f.largest_win_probability
    shown = Payout(f.largest_win).stated(Notation.TO if s.notation is Notation.BOTH else s.notation)
    note = f"largest win {shown}" + _live_award(s)
    if isinstance(s.bet, StreakBet):
        note += " (probability per bet placed)"
    if p >= limit:
        return p, limit, Verdict.PASS, note
    return p, limit, Verdict.FAIL, f"{note}; {rule.exception}" if rule.exception else note


def _live_award(s: _Subject) -> str:
    """How a live bet's top award is reached: the row and the product of multipliers that pay
    it (the award the game advertises, e.g. 512:1), or a peek's raise; empty otherwise."""
    f = s.figures
    if not isinstance(f, BetFigures):
        return ""
    if f.peek is not None:
        return " per base stake, raised under the optimal play"
    top = [
        (m, r.event) for r in f.rows for m, q in r.products if q and r.net_at(m) == f.largest_win
    ]
    if not top:
        return ""
    m, event = max(top)
    return f" ({event} at ×{m}: the top multiplied award)"


def _notation(rule: Rule, s: _Subject) -> _Result:
    wanted = rule.limit
    assert isinstance(wanted, Notation)
    used = s.notation
    if used is not wanted:
        words = {Notation.BOTH: '"to" and "for"', Notation.TO: '"to"', Notation.FOR: '"for"'}
        note = (
            f"the sheet states payouts with {words[used]} (--notation {used.value}); "
            f"use --notation {wanted.value}"
        )
        return used.value, wanted.value, Verdict.FAIL, note
    if wanted is Notation.TO:
        partial = [row for row in s.bet.rows if not row.pays.has_to_form]
        if partial:
            events = ", ".join(f"{row.event!r} ({row.pays.for_one()})" for row in partial)
            note = f"a partial loss has no 'to' form: {events}"
            return used.value, wanted.value, Verdict.FAIL, note
    return used.value, wanted.value, Verdict.PASS, ""


def _progressive_odds(rule: Rule, s: _Subject) -> _Result | None:
    """The least likely jackpot row of a progressive bet; not checked on fixed pays."""
    limit = Fraction(1, int(rule.limit))
    if not isinstance(s.figures, BetFigures) or not s.progressive:
        return None
    rows = jackpot_rows(s.figures)
    if not rows:
        return None
    p, event = min(rows)
    verdict = Verdict.PASS if p >= limit else Verdict.FAIL
    return p, limit, verdict, f"least likely jackpot: {event} (of {len(rows)} jackpot rows)"


_EVALUATORS: dict[RuleKind, Callable[[Rule, _Subject], _Result | None]] = {
    RuleKind.MIN_RTP: _min_rtp,
    RuleKind.MAX_RTP: _max_rtp,
    RuleKind.TOP_AWARD_MAX_ODDS: _top_award,
    RuleKind.PAYOUT_NOTATION: _notation,
    RuleKind.PROGRESSIVE_MAX_ODDS: _progressive_odds,
}


def _streak_subject(joint: Joint, bet: StreakBet, notation: Notation) -> _Subject:
    """What the rules look at for a streak bet: its figures with independent rounds, each
    dealt from the full shoe of ``joint``; none (every check ``n/a``) when they do not exist
    on that shoe (the bet would never end)."""
    try:
        figures = streak_figures(bet, joint.shoe, joint.tableau)
    except PaytableError as exc:  # the condition holds on every round of this shoe
        return _Subject(bet, None, (), notation, unjudged=str(exc))
    return _Subject(bet, figures, (), notation, "rounds independent")


def _subjects(joint: Joint, bet: Bet, notation: Notation) -> list[_Subject]:
    """What the rules look at for ``bet``: its figures; for a progressive bet, at the reset
    meter and at the break-even meter (:func:`~exactodds.figures.progressive.checked_meters`)."""
    try:
        figures = bet_figures(joint, bet)
    except PaytableError as exc:
        if not bet.live:
            raise
        # a live bet its figures cannot count (a multiplied bet with an offer): never judged
        return [_Subject(bet, None, (), notation, unjudged=str(exc))]
    stakes: tuple[tuple[Fraction, Fraction], ...] = ()
    if bet.rounding is not None:
        stakes = tuple(rtp_by_stake(joint, bet))
    if bet.progressive is None:
        return [_Subject(bet, figures, stakes, notation)]
    return [
        _Subject(bet, bet_figures(joint, at), stakes, notation, where)
        for where, at in checked_meters(figures)
    ]


def run_checks(
    profiles: Sequence[Profile],
    joint: Joint,
    bets: Iterable[Bet],
    *,
    notation: Notation = Notation.BOTH,
    streaks: Iterable[StreakBet] = (),
) -> Compliance:
    """Check every bet and every streak bet against every rule of every profile, on the
    distribution ``joint`` (the shoe and rules in use), for a sheet stating payouts in
    ``notation``. Checks are ordered by profile, then rule, then bet (streak bets last).

    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.compliance.profiles import load_profile
    >>> from exactodds.deal.shoe import Shoe
    >>> table = load_paytable("classic")
    >>> c = run_checks([load_profile("mga")], joint_distribution(Shoe.decks(6)), table.bets[:3])
    >>> [(k.bet, k.verdict.value, f"{float(k.value):.4%}") for k in c.checks][:3]  # min_rtp
    [('player', 'pass', '98.7626%'), ('banker', 'pass', '98.9442%'), ('tie', 'pass', '85.5618%')]
    """
    subjects = [s for bet in bets for s in _subjects(joint, bet, notation)]
    subjects += [_streak_subject(joint, bet, notation) for bet in streaks]
    checks = []
    for profile in profiles:
        for rule in profile.rules:
            evaluate = _EVALUATORS[rule.kind]
            for s in subjects:
                result = _unjudged(rule, s) if s.unjudged else evaluate(rule, s)
                if result is None:  # the rule does not apply to the bet
                    continue
                value, limit, verdict, note = result
                if s.meter:
                    note = f"{s.meter}: {note}" if note else s.meter
                checks.append(
                    Check(
                        profile.id,
                        rule.kind,
                        s.bet.id,
                        s.bet.name,
                        value,
                        limit,
                        verdict,
                        rule.source or profile.source,
                        note,
                    )
                )
    return Compliance(tuple(profiles), notation, tuple(checks))


def _unjudged(rule: Rule, s: _Subject) -> _Result | None:
    """The ``n/a`` check of a bet no rule can judge (none for a rule that does not apply)."""
    if rule.kind is RuleKind.PROGRESSIVE_MAX_ODDS and not s.progressive:
        return None
    limit: Fraction | str
    if isinstance(rule.limit, Notation):
        limit = rule.limit.value
    elif rule.kind in ODDS_RULES:
        limit = Fraction(1, int(rule.limit))
    else:
        limit = Fraction(rule.limit)
    return "n/a", limit, Verdict.NA, f"not judged: {s.unjudged}"
