"""Jurisdiction rules, profiles and the results of checking bets against them, as data: what
:mod:`exactodds.compliance.rules` checks with and returns, and
:mod:`exactodds.compliance.profiles` reads. Every name here is re-exported by
:mod:`exactodds.compliance.rules`, their public home.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.bets.bundled import command_path, sheet_path
from exactodds.bets.payout import Notation, format_number
from exactodds.numbers import exact, grouped, one_in, percent

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
    "with_player_edge_rule",
]


class RuleKind(StrEnum):
    """What a rule limits; the value is its key in a profile's ``[rules]`` table."""

    MIN_RTP = "min_rtp"
    MAX_RTP = "max_rtp"
    TOP_AWARD_MAX_ODDS = "top_award_max_odds"
    PAYOUT_NOTATION = "payout_notation"
    PROGRESSIVE_MAX_ODDS = "progressive_max_odds"
    """Each jackpot row of a progressive bet at least once in N rounds (n/a for fixed pays)."""

    @property
    def label(self) -> str:
        """How a sheet names the rule.

        >>> RuleKind.TOP_AWARD_MAX_ODDS.label
        'Top award at least once in N rounds'
        """
        return _TITLES[self]


_TITLES = {
    RuleKind.MIN_RTP: "Minimum RTP",
    RuleKind.MAX_RTP: "Maximum RTP",
    RuleKind.TOP_AWARD_MAX_ODDS: "Top award at least once in N rounds",
    RuleKind.PAYOUT_NOTATION: "Payout odds stated",
    RuleKind.PROGRESSIVE_MAX_ODDS: "Each progressive jackpot at least once in N rounds",
}

ODDS_RULES = frozenset({RuleKind.TOP_AWARD_MAX_ODDS, RuleKind.PROGRESSIVE_MAX_ODDS})
"""The rules whose limit is N of "once in N rounds" and whose value a probability."""


class Verdict(StrEnum):
    """The outcome of one check: ``n/a`` when it could not be made (the top award of a bet
    that never wins, a streak bet that would never end on the shoe in use)."""

    PASS = "pass"
    FAIL = "fail"
    NA = "n/a"


class Outcome(StrEnum):
    """The verdict of a whole set of checks: ``fail`` when one fails, else ``incomplete`` when
    one is ``n/a`` (the set does not judge every bet: never a pass), else ``pass``."""

    PASS = "pass"
    FAIL = "fail"
    INCOMPLETE = "incomplete"


Limit = Fraction | int | Notation


@dataclass(frozen=True)
class Rule:
    """One limit of a profile, with the text it is taken from.

    ``limit`` is an exact RTP (:attr:`RuleKind.MIN_RTP`, :attr:`~RuleKind.MAX_RTP`), a number of
    rounds N (:attr:`~RuleKind.TOP_AWARD_MAX_ODDS`) or a :class:`~exactodds.bets.payout.Notation`.

    >>> from exactodds.compliance.profiles import load_profile

    >>> load_profile("adm").rules[0].limit
    Fraction(9, 10)
    """

    kind: RuleKind
    limit: Limit
    source: str = ""
    exception: str = ""
    builtin: bool = False
    """exactodds' own rule (:data:`NO_PLAYER_EDGE`), not the profile's."""

    @property
    def limit_text(self) -> str:
        """The limit as a sheet prints it: ``90%``, ``1 in 100,000,000``, ``to``.

        >>> from exactodds.compliance.profiles import load_profile

        >>> [r.limit_text for p in ("mga", "gli-11", "nj") for r in load_profile(p).rules]
        ['85%', '100%', '1 in 100,000,000', '100%', 'to', '1 in 100,000,000', '100%']
        """
        if isinstance(self.limit, Notation):
            return self.limit.value
        if self.kind in ODDS_RULES:
            return f"1 in {grouped(int(self.limit))}"
        return f"{format_number(Fraction(self.limit) * 100)}%"


NO_PLAYER_EDGE = Rule(
    RuleKind.MAX_RTP,
    Fraction(1),
    "exactodds' own rule, checked under every profile: no bet may favour the player (RTP at "
    "most 100%, house edge at least 0), unless the profile sets its own max_rtp or "
    "allow_player_edge = true, or the command gives --allow-player-edge.",
    "exactodds' own rule (--allow-player-edge allows it)",
    builtin=True,
)
"""The rule every profile read from a file carries unless it allows a player edge."""


def with_player_edge_rule(rules: tuple[Rule, ...], allow: bool) -> tuple[Rule, ...]:
    """``rules`` and :data:`NO_PLAYER_EDGE`, unless ``allow`` or a ``max_rtp`` rule of their
    own says how far a bet may favour the player.

    >>> [r.limit_text for r in with_player_edge_rule((), allow=False)]
    ['100%']
    >>> with_player_edge_rule((), allow=True)
    ()
    """
    if allow or any(r.kind is RuleKind.MAX_RTP for r in rules):
        return rules
    return (*rules, NO_PLAYER_EDGE)


@dataclass(frozen=True)
class Profile:
    """A jurisdiction's rules: ``id`` is how ``--against`` names it (a bundled name, or the file
    as given), ``path`` and ``sha256`` the file read.

    >>> from exactodds.compliance.profiles import load_profile

    >>> p = load_profile("gli-11")
    >>> p.id, p.file, [r.kind.value for r in p.rules]
    ('gli-11', 'profiles/gli-11.toml', ['top_award_max_odds', 'max_rtp'])
    """

    id: str
    name: str
    source: str
    rules: tuple[Rule, ...]
    description: str = ""
    path: Path | None = None
    sha256: str | None = field(default=None, compare=False)
    bundled: bool = False
    allow_player_edge: bool = False
    """The profile file says ``allow_player_edge = true``: no :data:`NO_PLAYER_EDGE` rule."""

    def allowing_player_edge(self) -> Profile:
        """The profile without exactodds' own :data:`NO_PLAYER_EDGE` rule
        (``--allow-player-edge``).

        >>> from exactodds.compliance.profiles import load_profile
        >>> p = load_profile("adm")
        >>> [r.kind.value for r in p.rules], [r.kind.value for r in p.allowing_player_edge().rules]
        (['min_rtp', 'max_rtp'], ['min_rtp'])
        >>> p.edge_allowed_by_option, p.allowing_player_edge().edge_allowed_by_option
        (False, True)
        """
        return replace(self, rules=tuple(r for r in self.rules if not r.builtin))

    @property
    def edge_allowed_by_option(self) -> bool:
        """Whether :data:`NO_PLAYER_EDGE` was dropped by ``--allow-player-edge`` (the file
        alone would carry it), so a rerun command must give the option again."""
        return with_player_edge_rule(self.rules, self.allow_player_edge) != self.rules

    @property
    def file(self) -> str:
        """The file as a sheet names it: ``profiles/NAME.toml`` for a bundled profile."""
        if self.path is None:
            return ""
        return f"profiles/{self.path.name}" if self.bundled else sheet_path(self.path)

    def to_json(self) -> dict[str, Any]:
        """The profile as JSON-ready data (RTP limits as ``"p/q"``).

        >>> from exactodds.compliance.profiles import load_profile

        >>> [(r["rule"], r["limit"]) for r in load_profile("adm").to_json()["rules"]]
        [('min_rtp', '9/10'), ('max_rtp', '1/1')]
        """
        return {
            "id": self.id,
            "name": self.name,
            "file": self.file,
            "sha256": self.sha256,
            "source": self.source,
            "description": self.description,
            "rules": [
                {
                    "rule": r.kind.value,
                    "limit": exact(r.limit) if isinstance(r.limit, Fraction) else r.limit,
                    "source": r.source,
                    "exception": r.exception,
                    "builtin": r.builtin,
                }
                for r in self.rules
            ],
        }

    @property
    def argument(self) -> str:
        """How ``--against`` names the profile from any folder: a bundled one by its name, a
        file by its absolute path."""
        if self.path is None or self.bundled:
            return self.id
        return command_path(self.path)


def required_notation(profiles: Iterable[Profile]) -> Notation | None:
    """The one payout notation the ``payout_notation`` rules of ``profiles`` require, or None
    when none requires one or they disagree: what a check of the math states payouts in, so
    that it does not fail on a presentation default.

    >>> from exactodds.compliance.profiles import load_profiles
    >>> required_notation(load_profiles("nj,mga")), required_notation(load_profiles("mga"))
    (<Notation.TO: 'to'>, None)
    """
    wanted = {r.limit for p in profiles for r in p.rules if isinstance(r.limit, Notation)}
    return wanted.pop() if len(wanted) == 1 else None


@dataclass(frozen=True)
class Check:
    """One rule of one profile applied to one bet.

    ``value`` and ``limit`` are exact (an RTP, a probability against 1/N) or, for the payout
    notation, the notation used and the one required.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.compliance.profiles import check_paytable_against
    >>> k = check_paytable_against(load_paytable("classic"), "gli-11").for_bet("tie")[0]
    >>> k.value == Fraction(475627426473216, 4998398275503360), k.limit, k.verdict.value
    (True, Fraction(1, 100000000), 'pass')
    >>> k.note
    'largest win 8 to 1'
    """

    profile: str
    rule: RuleKind
    bet: str
    bet_name: str
    value: Fraction | str
    limit: Fraction | str
    verdict: Verdict
    source: str
    note: str = ""

    def to_json(self) -> dict[str, str]:
        """The check as JSON-ready data: exact values as ``"p/q"``, notations as words.

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.compliance.profiles import check_paytable_against
        >>> k = check_paytable_against(load_paytable("classic"), "nj").checks[0]
        >>> {key: v for key, v in k.to_json().items() if key != "source"}  # doctest: +ELLIPSIS
        {'profile': 'nj', 'rule': 'payout_notation', 'bet': 'player', 'value': 'both', ...}
        """
        return {
            "profile": self.profile,
            "rule": self.rule.value,
            "bet": self.bet,
            "value": _json_value(self.value),
            "limit": _json_value(self.limit),
            "verdict": self.verdict.value,
            "source": self.source,
            "note": self.note,
        }


def _json_value(x: Fraction | str) -> str:
    return exact(x) if isinstance(x, Fraction) else x


@dataclass(frozen=True)
class Compliance:
    """Every check of some bets against some profiles, with the notation the sheet uses.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.compliance.profiles import check_paytable_against
    >>> c = check_paytable_against(load_paytable("classic"), "mga", notation=Notation.TO)
    >>> print(c.summary())
    28 checks: 26 pass, 2 fail, 0 n/a
    >>> c.passed, c.count(Verdict.FAIL), [k.bet for k in c.failures()]
    (False, 2, ['lucky_six', 'lucky_six_3'])
    """

    profiles: tuple[Profile, ...]
    notation: Notation
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        """Every check passed: none failed and none is ``n/a`` (:attr:`verdict` ``pass``; an
        ``n/a`` check is not a failure, but never a pass)."""
        return self.verdict is Outcome.PASS

    @property
    def verdict(self) -> Outcome:
        """``fail`` when a check fails, else ``incomplete`` when one is ``n/a``, else ``pass``.

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.compliance.profiles import check_paytable_against
        >>> check_paytable_against(load_paytable("classic"), "gli-11").verdict.value
        'pass'
        """
        return outcome_of(self.checks)

    def unjudged(self) -> list[Check]:
        """The ``n/a`` checks, in order: what makes the verdict incomplete."""
        return [c for c in self.checks if c.verdict is Verdict.NA]

    def count(self, verdict: Verdict) -> int:
        """How many checks have this verdict."""
        return sum(c.verdict is verdict for c in self.checks)

    def failures(self) -> list[Check]:
        """The failing checks, in order."""
        return [c for c in self.checks if c.verdict is Verdict.FAIL]

    def for_bet(self, bet_id: str) -> list[Check]:
        """The checks of one bet, in order."""
        return [c for c in self.checks if c.bet == bet_id]

    def to_json(self) -> dict[str, Any]:
        """The checks as JSON-ready data: notation, counts, profiles and checks.

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.compliance.profiles import check_paytable_against
        >>> check_paytable_against(load_paytable("classic"), "mga").to_json()["summary"]
        {'checks': 28, 'pass': 26, 'fail': 2, 'n/a': 0}
        """
        return {
            "notation": self.notation.value,
            "verdict": self.verdict.value,
            "summary": {"checks": len(self.checks), **{v.value: self.count(v) for v in Verdict}},
            "profiles": [p.to_json() for p in self.profiles],
            "checks": [k.to_json() for k in self.checks],
        }

    def summary(self) -> str:
        """``N checks: a pass, b fail, c n/a``."""
        counts = ", ".join(f"{self.count(v)} {v.value}" for v in Verdict)
        return f"{len(self.checks)} checks: {counts}"


def outcome_of(checks: Iterable[Check]) -> Outcome:
    """The verdict of ``checks`` together (:attr:`Compliance.verdict`).

    >>> outcome_of([]).value
    'pass'
    """
    verdicts = {c.verdict for c in checks}
    if Verdict.FAIL in verdicts:
        return Outcome.FAIL
    return Outcome.INCOMPLETE if Verdict.NA in verdicts else Outcome.PASS


def describe_value(check: Check) -> str:
    """A check's value as a sheet prints it (an RTP with enough places to differ from its
    limit, odds as ``1 in N``, a notation as its word).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.compliance.profiles import check_paytable_against
    >>> c = check_paytable_against(load_paytable("classic"), "adm,gli-11")
    >>> [describe_value(k) for k in c.for_bet("tie")]  # ADM's RTP limits, GLI-11's top award
    ['85.6404%', '85.6404%', '1 in 10.51', '85.6404%']
    """
    value, limit = check.value, check.limit
    if isinstance(value, str):
        return value
    if check.rule in ODDS_RULES:
        return "—" if check.verdict is Verdict.NA else one_in(value)
    places = 4
    while (
        places < 20
        and value != limit
        and percent(value, places) == percent(Fraction(limit), places)
    ):
        places += 2
    return percent(value, places)
