"""Reading jurisdiction profiles, as :mod:`exactodds.bets.loader` reads paytables: a bundled
name or a file (one resolver, :func:`exactodds.bets.bundled.resolve`), parsed and checked with every
problem cited by file and line, reported as the first problem and how many more.

The profile format and the checks are in :mod:`exactodds.compliance.rules`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.bets.bundled import bundled_files, display_path, resolve
from exactodds.bets.payout import Notation, format_number
from exactodds.bets.paytable import Paytable
from exactodds.compliance.rules import (
    Compliance,
    Limit,
    Profile,
    Rule,
    RuleKind,
    run_checks,
    with_player_edge_rule,
)
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import (
    ExactOddsError,
    ProfileError,
    about,
    elide,
    first_problem,
    quote,
    require,
)
from exactodds.files import read_data
from exactodds.limits import MAX_AWARD_ODDS, MAX_TEXT_CHARS, too_long
from exactodds.suggest import did_you_mean
from exactodds.toml_lines import KeyPath, cite, toml_lines

__all__ = [
    "MAX_RTP_LIMIT",
    "bundled_profiles",
    "check_paytable_against",
    "load_profile",
    "load_profiles",
    "parse_profile",
]

MAX_RTP_LIMIT = Fraction(2)
"""Largest RTP limit (200%): a larger one is a percentage written without its ``%``."""


def bundled_profiles() -> list[Path]:
    """The profiles that ship with exactodds, sorted by name.

    >>> [p.stem for p in bundled_profiles()]
    ['adm', 'gli-11', 'mga', 'nj']
    """
    return bundled_files("profiles")


def _read_profile(path: Path) -> tuple[dict[str, Any], str, bytes]:
    """The data, text and bytes of a profile file (through the bounded reader of every input)."""
    try:
        f = read_data(path)
    except ExactOddsError as exc:
        raise ProfileError(str(exc)) from None
    return f.data, f.text, f.raw


def load_profile(spec: str | Path) -> Profile:
    """Read and check a profile: a file or a bundled name (``adm``, ``gli-11``, ``mga``, ``nj``),
    resolved as paytables are; every problem is reported in one
    :class:`~exactodds.errors.ProfileError`.

    >>> p = load_profile("adm")
    >>> p.name, p.rules[0].kind.value, p.rules[0].limit_text
    ('Italy — ADM, card games against the bank', 'min_rtp', '90%')
    >>> load_profile("adn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ProfileError: adn: file not found (bundled profiles: ...); did you mean 'adm'?
    """
    path, bundled = resolve("profiles", spec, ProfileError)
    data, text, raw = _read_profile(path)
    profile, problems = parse_profile(data, str(path), text)
    if profile is None:
        raise first_problem(ProfileError, problems, " in this profile")
    return Profile(
        path.stem if bundled else display_path(path),
        profile.name,
        profile.source,
        profile.rules,
        profile.description,
        path,
        hashlib.sha256(raw).hexdigest(),
        bundled,
        profile.allow_player_edge,
    )


def load_profiles(specs: str | Iterable[str]) -> tuple[Profile, ...]:
    """The profiles of a comma-separated list (``--against gli-11,adm,my.toml``) or of names.

    >>> [p.id for p in load_profiles("gli-11, adm")]
    ['gli-11', 'adm']
    >>> load_profiles("adm,adm")
    Traceback (most recent call last):
    ...
    exactodds.errors.ProfileError: against names profile 'adm' twice
    """
    items = [s.strip() for s in specs.split(",")] if isinstance(specs, str) else list(specs)
    if not items or any(not s for s in items):
        message = f"against needs profile names or files, not {specs!r}"
        raise about(ProfileError(message), "against")
    profiles = tuple(load_profile(s) for s in items)
    seen: dict[object, str] = {}
    for item, profile in zip(items, profiles, strict=True):
        # one file however it is spelt (./p.toml, p.toml, the bundled adm.toml's full path):
        # the sheet's Compliance section lists each profile's checks by its id
        for key in (profile.id, profile.path.resolve() if profile.path else None):
            if key is not None and key in seen:
                also = "" if seen[key] == item else f" ({seen[key]!r} and {item!r})"
                message = f"against names profile {profile.id!r} twice{also}"
                raise about(ProfileError(message), "against")
            seen[key] = item
    return profiles


_PROFILE_KEYS = ("name", "source", "description", "allow_player_edge", "rules")
_RULE_KEYS = ("limit", "source", "exception")
_PERCENT = re.compile(r"^([0-9]{1,6}(?:\.[0-9]{1,20})?)\s*(%?)\Z")  # ASCII digits only


def parse_profile(
    data: Mapping[str, Any], origin: str = "<profile>", text: str = ""
) -> tuple[Profile | None, list[str]]:
    """Build a profile from parsed TOML data, collecting every problem (each ``FILE:LINE:``
    when ``text`` is given) instead of stopping at the first. Its rules end with exactodds'
    own :data:`~exactodds.compliance.rules.NO_PLAYER_EDGE` unless it has a ``max_rtp`` rule or says
    ``allow_player_edge = true``.

    >>> profile, problems = parse_profile({"name": "House", "rules": {"max_rtp": "100%"}})
    >>> profile.rules == (Rule(RuleKind.MAX_RTP, Fraction(1)),), problems  # its own max_rtp only
    (True, [])
    >>> bad = {"name": "X", "rules": {"min_rtp": "90", "top_award": 1}}
    >>> for problem in parse_profile(bad)[1]:  # doctest: +ELLIPSIS
    ...     print(problem)
    <profile>: rules: min_rtp 90 is above 200%: write a percentage as '90%' or a fraction as '0.9'
    <profile>: rules: unknown rule 'top_award' (known: ...); did you mean 'top_award_max_odds'?
    """
    problems: list[str] = []
    lines: dict[KeyPath, int] = {}

    def add(message: str, *paths: KeyPath) -> None:
        if text and not lines:  # the text is scanned for lines only to cite a problem
            lines.update(toml_lines(text))
        problems.append(f"{cite(origin, lines, *paths)}: {message}")

    for key in data:
        if key not in _PROFILE_KEYS:
            hint = did_you_mean(str(key), _PROFILE_KEYS)
            add(f"unknown key {key!r} (known: {', '.join(_PROFILE_KEYS)}){hint}", (key,))
    texts = {}
    for key in ("name", "source", "description"):
        value = data.get(key, "")
        problem = _text_problem(value, repr(key))
        if problem is not None:
            add(problem, (key,))
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
    allow = data.get("allow_player_edge", False)
    if not isinstance(allow, bool):
        add(
            f"'allow_player_edge' must be true or false, not {_shown(allow)!r}",
            ("allow_player_edge",),
        )
    if problems:
        return None, problems
    profile = Profile(
        Path(origin).stem,
        texts["name"],
        texts["source"],
        with_player_edge_rule(tuple(rules), allow),
        texts["description"],
        allow_player_edge=allow,
    )
    return profile, problems


def _text_problem(value: Any, what: str) -> str | None:
    """What is wrong with a text of a profile (not a text, or too long), else None."""
    if not isinstance(value, str):
        return f"{what} must be a text, not {_shown(value)!r}"
    return too_long(value, MAX_TEXT_CHARS, what)


def _parse_rule(key: str, value: Any, add: Callable[..., None]) -> Rule | None:
    here: KeyPath = ("rules", key)
    try:
        kind = RuleKind(key)
    except ValueError:
        kinds = [k.value for k in RuleKind]
        add(
            f"rules: unknown rule {key!r} (known: {', '.join(kinds)}){did_you_mean(key, kinds)}",
            here,
        )
        return None
    source = exception = ""
    limit_path = here
    if isinstance(value, Mapping):
        bad = [k for k in value if k not in _RULE_KEYS]
        for k in bad:
            hint = did_you_mean(str(k), _RULE_KEYS)
            add(
                f"rules.{key}: unknown key {k!r} (known: {', '.join(_RULE_KEYS)}){hint}", (*here, k)
            )
        texts = []
        for k in ("source", "exception"):
            t = value.get(k, "")
            problem = _text_problem(t, f"rules.{key}: {k!r}")
            if problem is not None:
                add(problem, (*here, k))
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
    RuleKind.PROGRESSIVE_MAX_ODDS: _odds_limit,
}


def check_paytable_against(
    paytable: Paytable,
    against: str | Sequence[str | Profile],
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    notation: Notation = Notation.BOTH,
) -> Compliance:
    """Check every bet of ``paytable``, streak bets included (on its own shoe and rules unless
    given) against the profiles ``against`` names (``"gli-11,adm"``, names, files or
    :class:`Profile` values).

    >>> from exactodds.compliance.rules import Verdict
    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.shoe import Shoe
    >>> c = check_paytable_against(load_paytable("classic"), ["adm"], shoe=Shoe.decks(6))
    >>> [k.bet for k in c.checks if k.verdict is Verdict.PASS][:4]  # RTP at least 90%
    ['player', 'banker', 'player_bonus', 'banker_bonus']
    >>> c.count(Verdict.FAIL)  # RTP below 90% (no bet favours the player)
    10
    """
    require(paytable, (Paytable,), "paytable")
    require(shoe, (Shoe, type(None)), "shoe")
    require(tableau, (Tableau, type(None)), "tableau")
    if isinstance(against, str):
        profiles = load_profiles(against)
    else:
        profiles = tuple(p if isinstance(p, Profile) else load_profile(p) for p in against)
    joint = joint_distribution(shoe or paytable.shoe, tableau or paytable.tableau)
    return run_checks(profiles, joint, paytable.bets, notation=notation, streaks=paytable.streaks)
