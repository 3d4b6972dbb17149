"""One suggestion helper: "did you mean …" for every unknown name a user types.

Features of the condition language, values (``heart``), paytable keys, bet ids, profile names
and command options all go through :func:`suggestion`, so a misspelling gets the same kind of
hint wherever it is typed. Known aliases (the US ``color`` for ``colour``, ``=`` for ``==``)
come first; otherwise the closest known spelling by :func:`difflib.get_close_matches`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

__all__ = ["ALIASES", "did_you_mean", "suggestion"]

ALIASES: Mapping[str, str] = {
    "color": "colour",
    "colors": "colours",
    "=": "==",
    "<>": "!=",
    "&&": "and",
    "||": "or",
    "!": "not",
    "heart": "hearts",
    "diamond": "diamonds",
    "club": "clubs",
    "spade": "spades",
    "h": "hearts",  # the suit letters of cards (9h): a condition names suits in words
    "d": "diamonds",
    "c": "clubs",
    "s": "spades",
}
"""Spellings users type for a known one: checked before the fuzzy match."""

_MAX_LENGTH = 100  # longer names get no fuzzy search (difflib is quadratic in the length)


def _aliased(name: str) -> str:
    """``name`` with each dotted part aliased (``player.card1.color`` → ``…colour``)."""
    if name in ALIASES:
        return ALIASES[name]
    parts = name.split(".")
    return ".".join(ALIASES.get(part, part) for part in parts)


def suggestion(name: str, known: Iterable[str]) -> str | None:
    """The known spelling closest to ``name``, or ``None`` when none is close.

    >>> suggestion("player.card1.color", ["player.card1.colour", "player.card1.rank"])
    'player.card1.colour'
    >>> suggestion("=", ["==", "!="])
    '=='
    >>> suggestion("player.totl", ["player.total", "banker.total"])
    'player.total'
    >>> suggestion("zzz", ["player.total"]) is None
    True
    """
    choices = list(dict.fromkeys(known))
    aliased = _aliased(name)
    if aliased != name and aliased in choices:
        return aliased
    if not name or len(name) > _MAX_LENGTH:
        return None
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'X'?"`` to append to an error message, or ``""`` when nothing is close.

    >>> "unknown suit 'heart'" + did_you_mean("heart", ["hearts", "spades"])
    "unknown suit 'heart'; did you mean 'hearts'?"
    >>> did_you_mean("qqq", ["hearts"])
    ''
    """
    best = suggestion(name, known)
    return f"; did you mean {best!r}?" if best is not None else ""
