"""Jurisdiction profiles as data, and the checks of a paytable's bets against them.

A profile is a TOML file: ``name``, ``source``, optional ``description``, and a ``[rules]`` table
whose keys are :class:`RuleKind` values. A rule is its limit (``min_rtp = "90%"``) or a table with
the limit, the citation it comes from and an exception that a failing check quotes::

    [rules.min_rtp]
    limit = "90%"
    source = "…the text of the regulation…"

Profile files are untrusted: parsed, never evaluated; every problem is reported with its file and
line, unknown keys included. Four profiles ship with exactodds (:func:`bundled_profiles`).

Every check is per bet, on the shoe and drawing rules in use (regulators do not say whether a
limit applies per bet or per game), with exact values:

- ``min_rtp`` / ``max_rtp``: the bet's RTP against the limit (``max_rtp = "100%"``: no bet
  favours the player). For a bet whose returns are rounded the RTP depends on the stake, and the
  lowest (highest) RTP over the stakes of the sheet's RTP-by-stake table is checked.
- ``top_award_max_odds = N``: the bet's largest win occurs at least once in N rounds, i.e. its
  probability is at least 1/N; ``n/a`` for a bet that never wins.
- ``payout_notation = "to"`` (or ``"for"``): the sheet states payouts in that notation only, and
  every payout has such a form (a partial loss has no "to" form). A sheet with both notations
  (``--notation both``, the default) states odds with "for" too, so it fails a "to" rule.

A failing check is ``fail`` even where the rule allows exceptions (GLI-11's top award may be
rarer when its odds are displayed): the exception is quoted in the check's note.

>>> c = check_paytable_against(load_paytable("classic"), "adm,gli-11")
>>> c.summary()
'28 checks: 18 pass, 10 fail, 0 n/a'
>>> [(k.bet, k.verdict.value) for k in c.checks if k.rule is RuleKind.MIN_RTP][:3]
[('player', 'pass'), ('banker', 'pass'), ('tie', 'fail')]
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.bundled import bundled_files, display_path
from exactodds.engine import Joint, joint_distribution
from exactodds.errors import ExactOddsError, ProfileError, elide, quote
from exactodds.files import read_data
from exactodds.limits import MAX_AWARD_ODDS, MAX_TEXT_CHARS
from exactodds.metrics import BetFigures, bet_figures, rtp_by_stake
from exactodds.numbers import exact, grouped, one_in, percent
from exactodds.payout import Notation, Payout, format_number
from exactodds.paytable import Bet, Paytable
from exactodds.paytable_loader import load_paytable  # noqa: F401 - used by the doctests
from exactodds.shoe import Shoe
from exactodds.tableau import Tableau
from exactodds.toml_lines import KeyPath, cite, toml_lines

__all__ = [
    "Check",
    "Compliance",
    "Profile",
    "Rule",
    "RuleKind",
    "Verdict",
    "bundled_profiles",
    "check_paytable_against",
    "describe_value",
    "load_profile",
    "load_profiles",
    "parse_profile",
    "run_checks",
]

MAX_RTP_LIMIT = Fraction(2)
"""Largest RTP limit (200%): a larger one is a percentage written without its ``%``."""


class RuleKind(StrEnum):
    """What a rule limits; the value is its key in a profile's ``[rules]`` table."""

    MIN_RTP = "min_rtp"
    MAX_RTP = "max_rtp"
    TOP_AWARD_MAX_ODDS = "top_award_max_odds"
    PAYOUT_NOTATION = "payout_notation"

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
}


class Verdict(StrEnum):
    """The outcome of one check: ``n/a`` when the rule says nothing about the bet (the top
    award of a bet that never wins)."""

    PASS = "pass"
    FAIL = "fail"
    NA = "n/a"


Limit = Fraction | int | Notation


@dataclass(frozen=True)
class Rule:
    """One limit of a profile, with the text it is taken from.

    ``limit`` is an exact RTP (:attr:`RuleKind.MIN_RTP`, :attr:`~RuleKind.MAX_RTP`), a number of
    rounds N (:attr:`~RuleKind.TOP_AWARD_MAX_ODDS`) or a :class:`~exactodds.payout.Notation`.

    >>> load_profile("adm").rules[0].limit
    Fraction(9, 10)
    """

    kind: RuleKind
    limit: Limit
    source: str = ""
    exception: str = ""

    @property
    def limit_text(self) -> str:
        """The limit as a sheet prints it: ``90%``, ``1 in 100,000,000``, ``to``.

        >>> [r.limit_text for p in ("mga", "gli-11", "nj") for r in load_profile(p).rules]
        ['85%', '1 in 100,000,000', 'to']
        """
        if isinstance(self.limit, Notation):
            return self.limit.value
        if self.kind is RuleKind.TOP_AWARD_MAX_ODDS:
            return f"1 in {grouped(int(self.limit))}"
        return f"{format_number(Fraction(self.limit) * 100)}%"


@dataclass(frozen=True)
class Profile:
    """A jurisdiction's rules: ``id`` is how ``--against`` names it (a bundled name, or the file
    as given), ``path`` and ``sha256`` the file read.

    >>> p = load_profile("gli-11")
    >>> p.id, p.file, [r.kind.value for r in p.rules]
    ('gli-11', 'profiles/gli-11.toml', ['top_award_max_odds'])
    """

    id: str
    name: str
    source: str
    rules: tuple[Rule, ...]
    description: str = ""
    path: Path | None = None
    sha256: str | None = field(default=None, compare=False)
    bundled: bool = False

    @property
    def file(self) -> str:
        """The file as a sheet names it: ``profiles/NAME.toml`` for a bundled profile."""
        if self.path is None:
            return ""
        return f"profiles/{self.path.name}" if self.bundled else display_path(self.path)

    def to_json(self) -> dict[str, Any]:
        """The profile as JSON-ready data (RTP limits as ``"p/q"``).

        >>> [(r["rule"], r["limit"]) for r in load_profile("adm").to_json()["rules"]]
        [('min_rtp', '9/10')]
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
                }
                for r in self.rules
            ],
        }

    @property
    def argument(self) -> str:
        """How ``--against`` names the profile from any folder: a bundled one by its name, a
        file by its path as shown on the sheet."""
        if self.path is None or self.bundled:
            return self.id
        return display_path(self.path)


@dataclass(frozen=True)
class Check:
    """One rule of one profile applied to one bet.

    ``value`` and ``limit`` are exact (an RTP, a probability against 1/N) or, for the payout
    notation, the notation used and the one required.

    >>> (k,) = check_paytable_against(load_paytable("classic"), "gli-11").for_bet("tie")
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

    >>> c = check_paytable_against(load_paytable("classic"), "mga", notation=Notation.TO)
    >>> print(c.summary())
    14 checks: 12 pass, 2 fail, 0 n/a
    >>> c.passed, c.count(Verdict.FAIL), [k.bet for k in c.failures()]
    (False, 2, ['lucky_six', 'lucky_six_3'])
    """

    profiles: tuple[Profile, ...]
    notation: Notation
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        """No check failed (``n/a`` is not a failure)."""
        return not any(c.verdict is Verdict.FAIL for c in self.checks)

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

        >>> check_paytable_against(load_paytable("classic"), "mga").to_json()["summary"]
        {'checks': 14, 'pass': 12, 'fail': 2, 'n/a': 0}
        """
        return {
            "notation": self.notation.value,
            "summary": {"checks": len(self.checks), **{v.value: self.count(v) for v in Verdict}},
            "profiles": [p.to_json() for p in self.profiles],
            "checks": [k.to_json() for k in self.checks],
        }

    def summary(self) -> str:
        """``N checks: a pass, b fail, c n/a``."""
        counts = ", ".join(f"{self.count(v)} {v.value}" for v in Verdict)
        return f"{len(self.checks)} checks: {counts}"


# -- checking --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Subject:
    """What the rules look at for one bet: its exact figures, the RTP at each stake when its
    returns are rounded, and the notation of the sheet."""

    bet: Bet
    figures: BetFigures
    stake_rtps: tuple[tuple[Fraction, Fraction], ...]
    notation: Notation


_Result = tuple[Fraction | str, Fraction | str, Verdict, str]
"""What a rule finds for a bet: value, limit, verdict, note."""


def _rtp_extreme(s: _Subject, lowest: bool) -> tuple[Fraction, str]:
    """The bet's RTP, or with rounding its lowest (highest) RTP over the stakes, and a note."""
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


def _min_rtp(rule: Rule, s: _Subject) -> _Result:
    limit = rule.limit
    assert isinstance(limit, Fraction)
    rtp, note = _rtp_extreme(s, lowest=True)
    return rtp, limit, Verdict.PASS if rtp >= limit else Verdict.FAIL, note


def _max_rtp(rule: Rule, s: _Subject) -> _Result:
    limit = rule.limit
    assert isinstance(limit, Fraction)
    rtp, note = _rtp_extreme(s, lowest=False)
    return rtp, limit, Verdict.PASS if rtp <= limit else Verdict.FAIL, note


def _top_award(rule: Rule, s: _Subject) -> _Result:
    limit = Fraction(1, int(rule.limit))
    f = s.figures
    if f.largest_win <= 0:
        return Fraction(0), limit, Verdict.NA, "the bet never wins"
    p = f.largest_win_probability
    shown = Payout(f.largest_win).stated(Notation.TO if s.notation is Notation.BOTH else s.notation)
    note = f"largest win {shown}"
    if p >= limit:
        return p, limit, Verdict.PASS, note
    return p, limit, Verdict.FAIL, f"{note}; {rule.exception}" if rule.exception else note


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


_EVALUATORS: dict[RuleKind, Callable[[Rule, _Subject], _Result]] = {
    RuleKind.MIN_RTP: _min_rtp,
    RuleKind.MAX_RTP: _max_rtp,
    RuleKind.TOP_AWARD_MAX_ODDS: _top_award,
    RuleKind.PAYOUT_NOTATION: _notation,
}


def _subject(joint: Joint, bet: Bet, notation: Notation) -> _Subject:
    figures = bet_figures(joint, bet)
    stakes: tuple[tuple[Fraction, Fraction], ...] = ()
    if bet.rounding is not None:
        stakes = tuple(rtp_by_stake(joint, bet))
    return _Subject(bet, figures, stakes, notation)


def run_checks(
    profiles: Sequence[Profile],
    joint: Joint,
    bets: Iterable[Bet],
    *,
    notation: Notation = Notation.BOTH,
) -> Compliance:
    """Check every bet against every rule of every profile, on the distribution ``joint`` (the
    shoe and rules in use), for a sheet stating payouts in ``notation``. Checks are ordered by
    profile, then rule, then bet.

    >>> table = load_paytable("classic")
    >>> c = run_checks([load_profile("mga")], joint_distribution(Shoe.decks(6)), table.bets[:3])
    >>> [(k.bet, k.verdict.value, f"{float(k.value):.4%}") for k in c.checks]
    [('player', 'pass', '98.7626%'), ('banker', 'pass', '98.9442%'), ('tie', 'pass', '85.5618%')]
    """
    subjects = [_subject(joint, bet, notation) for bet in bets]
    checks = []
    for profile in profiles:
        for rule in profile.rules:
            evaluate = _EVALUATORS[rule.kind]
            for s in subjects:
                value, limit, verdict, note = evaluate(rule, s)
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


def check_paytable_against(
    paytable: Paytable,
    against: str | Sequence[str | Profile],
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    notation: Notation = Notation.BOTH,
) -> Compliance:
    """Check every bet of ``paytable`` (on its own shoe and rules unless given) against the
    profiles ``against`` names (``"gli-11,adm"``, names, files or :class:`Profile` values).

    >>> c = check_paytable_against(load_paytable("classic"), ["adm"], shoe=Shoe.decks(6))
    >>> [k.bet for k in c.checks if k.verdict is Verdict.PASS]  # RTP at least 90%
    ['player', 'banker', 'player_bonus', 'banker_bonus']
    """
    if isinstance(against, str):
        profiles = load_profiles(against)
    else:
        profiles = tuple(p if isinstance(p, Profile) else load_profile(p) for p in against)
    joint = joint_distribution(shoe or paytable.shoe, tableau or paytable.tableau)
    return run_checks(profiles, joint, paytable.bets, notation=notation)


# -- reading profiles ------------------------------------------------------------------------------


def bundled_profiles() -> list[Path]:
    """The profiles that ship with exactodds, sorted by name.

    >>> [p.stem for p in bundled_profiles()]
    ['adm', 'gli-11', 'mga', 'nj']
    """
    return bundled_files("profiles")


def _resolve(spec: str) -> tuple[Path, bool]:
    """The file a profile name or path means, and whether it is bundled: a bare name (no folder,
    no ``.toml``) is a bundled profile, anything else a file."""
    if "/" not in spec and "\\" not in spec and not spec.endswith(".toml"):
        bundled = {p.stem: p for p in bundled_profiles()}
        if spec in bundled:
            return bundled[spec], True
        names = ", ".join(bundled)
        raise ProfileError(
            f"unknown profile {quote(spec)} (bundled: {names}; or give a .toml file)"
        )
    return Path(spec), False


def _read_profile(path: Path) -> tuple[dict[str, Any], str, bytes]:
    """The data, text and bytes of a profile file (through the bounded reader of every input)."""
    try:
        f = read_data(path)
    except ExactOddsError as exc:
        raise ProfileError(str(exc)) from None
    return f.data, f.text, f.raw


def load_profile(spec: str | Path) -> Profile:
    """Read and check a profile: a bundled name (``adm``, ``gli-11``, ``mga``, ``nj``) or a
    file; every problem is reported in one :class:`~exactodds.errors.ProfileError`.

    >>> p = load_profile("adm")
    >>> p.name, p.rules[0].kind.value, p.rules[0].limit_text
    ('Italy — ADM, card games against the bank', 'min_rtp', '90%')
    >>> load_profile("adn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ProfileError: unknown profile 'adn' (bundled: adm, gli-11, mga, nj; ...)
    """
    path, bundled = _resolve(str(spec))
    data, text, raw = _read_profile(path)
    profile, problems = parse_profile(data, str(path), text)
    if profile is None:
        rest = len(problems) - 1
        more = f" (and {rest} more problem{'s' if rest != 1 else ''} in this profile)"
        error = ProfileError(problems[0] + (more if rest else ""))
        error.problems = tuple(problems)
        raise error
    return Profile(
        path.stem if bundled else display_path(path),
        profile.name,
        profile.source,
        profile.rules,
        profile.description,
        path,
        hashlib.sha256(raw).hexdigest(),
        bundled,
    )


def load_profiles(specs: str | Iterable[str]) -> tuple[Profile, ...]:
    """The profiles of a comma-separated list (``--against gli-11,adm,my.toml``) or of names.

    >>> [p.id for p in load_profiles("gli-11, adm")]
    ['gli-11', 'adm']
    >>> load_profiles("adm,adm")
    Traceback (most recent call last):
    ...
    exactodds.errors.ProfileError: --against names profile 'adm' twice
    """
    items = [s.strip() for s in specs.split(",")] if isinstance(specs, str) else list(specs)
    if not items or any(not s for s in items):
        raise ProfileError(f"--against needs profile names or files, not {specs!r}")
    profiles = tuple(load_profile(s) for s in items)
    seen: dict[object, str] = {}
    for item, profile in zip(items, profiles, strict=True):
        # one file however it is spelt (./p.toml, p.toml, the bundled adm.toml's full path):
        # the sheet's Compliance section lists each profile's checks by its id
        for key in (profile.id, profile.path.resolve() if profile.path else None):
            if key is not None and key in seen:
                also = "" if seen[key] == item else f" ({seen[key]!r} and {item!r})"
                raise ProfileError(f"--against names profile {profile.id!r} twice{also}")
            seen[key] = item
    return profiles


_PROFILE_KEYS = ("name", "source", "description", "rules")
_RULE_KEYS = ("limit", "source", "exception")
_PERCENT = re.compile(r"^([0-9]{1,6}(?:\.[0-9]{1,20})?)\s*(%?)$")  # ASCII digits only


def parse_profile(
    data: Mapping[str, Any], origin: str = "<profile>", text: str = ""
) -> tuple[Profile | None, list[str]]:
    """Build a profile from parsed TOML data, collecting every problem (each ``FILE:LINE:``
    when ``text`` is given) instead of stopping at the first.

    >>> profile, problems = parse_profile({"name": "House", "rules": {"max_rtp": "100%"}})
    >>> profile.rules, problems
    ((Rule(kind=<RuleKind.MAX_RTP: 'max_rtp'>, limit=Fraction(1, 1), source='', exception=''),), [])
    >>> bad = {"name": "X", "rules": {"min_rtp": "90", "top_award": 1}}
    >>> for problem in parse_profile(bad)[1]:  # doctest: +ELLIPSIS
    ...     print(problem)
    <profile>: rules: min_rtp 90 is above 200%: write a percentage as '90%' or a fraction as '0.9'
    <profile>: rules: unknown rule 'top_award' (known: min_rtp, max_rtp, top_award_max_odds, ...)
    """
    problems: list[str] = []
    lines: dict[KeyPath, int] = {}

    def add(message: str, *paths: KeyPath) -> None:
        if text and not lines:  # the text is scanned for lines only to cite a problem
            lines.update(toml_lines(text))
        problems.append(f"{cite(origin, lines, *paths)}: {message}")

    for key in data:
        if key not in _PROFILE_KEYS:
            add(f"unknown key {key!r} (known: {', '.join(_PROFILE_KEYS)})", (key,))
    texts = {}
    for key in ("name", "source", "description"):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            add(f"{key!r} must be a text of at most {MAX_TEXT_CHARS} characters", (key,))
            value = ""
        texts[key] = value
    if not data.get("name"):
        add("missing 'name' (a text naming the jurisdiction)", ("name",))
    rules_data = data.get("rules")
    rules: list[Rule] = []
    if not isinstance(rules_data, Mapping) or not rules_data:
        add("no rules: add a [rules] table (min_rtp, max_rtp, top_award_max_odds, …)", ("rules",))
    else:
        for key, value in rules_data.items():
            rule = _parse_rule(str(key), value, add)
            if rule is not None:
                rules.append(rule)
    if problems:
        return None, problems
    profile = Profile(
        Path(origin).stem, texts["name"], texts["source"], tuple(rules), texts["description"]
    )
    return profile, problems


def _parse_rule(key: str, value: Any, add: Callable[..., None]) -> Rule | None:
    here: KeyPath = ("rules", key)
    try:
        kind = RuleKind(key)
    except ValueError:
        known = ", ".join(k.value for k in RuleKind)
        add(f"rules: unknown rule {key!r} (known: {known})", here)
        return None
    source = exception = ""
    limit_path = here
    if isinstance(value, Mapping):
        bad = [k for k in value if k not in _RULE_KEYS]
        for k in bad:
            add(f"rules.{key}: unknown key {k!r} (known: {', '.join(_RULE_KEYS)})", (*here, k))
        texts = []
        for k in ("source", "exception"):
            t = value.get(k, "")
            if not isinstance(t, str) or len(t) > MAX_TEXT_CHARS:
                add(
                    f"rules.{key}: {k!r} must be a text of at most {MAX_TEXT_CHARS} characters",
                    (*here, k),
                )
                t = ""
            texts.append(t)
        source, exception = texts
        if "limit" not in value:
            add(f"rules.{key}: missing 'limit'", here)
            return None
        if bad:
            return None
        value, limit_path = value["limit"], (*here, "limit")
    try:
        limit = _LIMIT_PARSERS[kind](value)
    except ProfileError as exc:
        add(f"rules: {key} {exc}", limit_path, here)
        return None
    return Rule(kind, limit, source, exception)


def _shown(value: Any) -> str:
    """A value of a profile file for a message: text as written, a number as a decimal."""
    if isinstance(value, str):
        return elide(value, 40)
    if isinstance(value, Fraction):
        return elide(format_number(value), 40)
    return quote(value, 40)


def _rtp_limit(value: Any) -> Fraction:
    """An RTP limit: ``"90%"``, ``"0.9"`` or a TOML number (decimals read exactly)."""
    if isinstance(value, str):
        match = _PERCENT.match(value.strip())
        if match is None:
            raise ProfileError(f"{_shown(value)!r} is not a percentage ('90%') or decimal ('0.9')")
        number = Fraction(match[1])
        rtp = number / 100 if match[2] else number
    elif isinstance(value, int | Fraction) and not isinstance(value, bool):
        rtp = Fraction(value)
        if rtp.denominator > 10**20:
            raise ProfileError(f"{_shown(value)} has too many decimals (at most 20)")
    else:
        raise ProfileError(f"must be a percentage like '90%' or a decimal, not {_shown(value)!r}")
    if rtp < 0:
        raise ProfileError(f"{_shown(value)} is negative")
    if rtp > MAX_RTP_LIMIT:
        raise ProfileError(
            f"{_shown(value)} is above 200%: write a percentage as '90%' or a fraction as '0.9'"
        )
    return rtp


def _odds_limit(value: Any) -> int:
    """N of "at least once in N rounds": a positive integer."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_AWARD_ODDS:
        raise ProfileError(
            f"must be a whole number of rounds from 1 to {MAX_AWARD_ODDS:.0e}, not {_shown(value)}"
        )
    return value


def _notation_limit(value: Any) -> Notation:
    if value not in (Notation.TO.value, Notation.FOR.value):
        raise ProfileError(f"must be 'to' or 'for', not {_shown(value)!r}")
    return Notation(value)


_LIMIT_PARSERS: dict[RuleKind, Callable[[Any], Limit]] = {
    RuleKind.MIN_RTP: _rtp_limit,
    RuleKind.MAX_RTP: _rtp_limit,
    RuleKind.TOP_AWARD_MAX_ODDS: _odds_limit,
    RuleKind.PAYOUT_NOTATION: _notation_limit,
}


def describe_value(check: Check) -> str:
    """A check's value as a sheet prints it (an RTP with enough places to differ from its
    limit, odds as ``1 in N``, a notation as its word).

    >>> c = check_paytable_against(load_paytable("classic"), "adm,gli-11")
    >>> [describe_value(k) for k in c.for_bet("tie")]
    ['85.6404%', '1 in 10.51']
    """
    value, limit = check.value, check.limit
    if isinstance(value, str):
        return value
    if check.rule is RuleKind.TOP_AWARD_MAX_ODDS:
        return "—" if check.verdict is Verdict.NA else one_in(value)
    places = 4
    while (
        places < 20
        and value != limit
        and percent(value, places) == percent(Fraction(limit), places)
    ):
        places += 2
    return percent(value, places)
