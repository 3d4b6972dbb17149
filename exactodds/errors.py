"""One error hierarchy: every problem with user input is an :class:`ExactOddsError`.

The CLI catches this base class once and prints the message as one line (:func:`error_line`);
library users can catch the narrow subclasses. All are ``ValueError`` subclasses, as in
python-chess. Messages quote bad values with :func:`quote`, so a megabyte of garbage is shown as
its two ends.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from exactodds.escape import printable

__all__ = [
    "MAX_LINE",
    "CardError",
    "ConditionError",
    "DateError",
    "ExactOddsError",
    "InputFileError",
    "KernelError",
    "MissingExtraError",
    "OutputError",
    "PaytableError",
    "ProfileError",
    "ReportError",
    "RoundError",
    "SessionError",
    "ShoeError",
    "SimulationError",
    "TableauError",
    "about",
    "elide",
    "error_line",
    "named",
    "naming",
    "parameter",
    "quote",
    "require",
    "shorten",
]

MAX_LINE = 300
"""Longest error line the CLI prints (``exactodds: error: WHERE: WHAT``)."""


def elide(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` characters by dropping its middle (marked ``…``).

    >>> elide("abcdefghij", 5), elide("short", 10)
    ('ab…ij', 'short')
    """
    if len(text) <= width:
        return text
    head = width // 2
    return text[:head] + "…" + text[len(text) - (width - head - 1) :]


def quote(value: object, width: int = 60) -> str:
    """``repr(value)`` for a message, at most ``width`` characters (middle elided); an exact
    number (a file's decimal is read as a Fraction) as the user would write it.

    >>> quote("x" * 1000, 11), quote(10**5000)
    ("'xxxx…xxxx'", 'an integer of about 5001 digits')
    >>> quote(Fraction(5)), quote(Fraction(-3, 2)), quote(Fraction(1, 3)), quote([Fraction(1, 4)])
    ('5.0', '-1.5', '1/3', '[0.25]')
    """
    if isinstance(value, int) and value.bit_length() > 4 * width:
        return f"an integer of about {value.bit_length() * 30103 // 100000 + 1} digits"
    if isinstance(value, Fraction):
        return elide(_decimal(value, width), width)
    if type(value) in {list, dict} and len(repr(value)) < 16 * width:  # a file's array, table
        return elide(repr(_written(value, width)), width)
    return elide(repr(value), width)


class _Shown(str):
    """A text shown as is inside a repr (an exact number as the user wrote it)."""

    def __repr__(self) -> str:
        return str(self)


def _written(value: object, width: int) -> object:
    """``value`` with its exact numbers as the user would write them (for :func:`quote`)."""
    if isinstance(value, Fraction):
        return _Shown(_decimal(value, width))
    if type(value) is list:
        return [_written(v, width) for v in value]
    if type(value) is dict:
        return {k: _written(v, width) for k, v in value.items()}
    return value


def _decimal(value: Fraction, width: int) -> str:
    """A Fraction as its decimal when it terminates within ``width`` digits (``5.0``,
    ``0.25``), else ``p/q``; of a size refused by its digits, not computed."""
    n, d = value.numerator, value.denominator
    if max(n.bit_length(), d.bit_length()) > 4 * width:
        return f"a fraction of about {max(abs(n), d).bit_length() * 30103 // 100000 + 1} digits"
    twos = (d & -d).bit_length() - 1
    fives, rest = 0, d >> twos
    while rest % 5 == 0:
        fives, rest = fives + 1, rest // 5
    places = max(twos, fives)
    if rest != 1 or places > width:
        return f"{n}/{d}"
    units = abs(n) * 10**places // d
    whole, part = divmod(units, 10**places)
    sign = "-" if n < 0 else ""
    return f"{sign}{whole}.{str(part).zfill(places) if places else '0'}"


def error_line(message: str, label: str = "error", encoding: str | None = None) -> str:
    r"""The one line the CLI prints for an error: ``exactodds: error: MESSAGE``, control
    characters escaped, at most :data:`MAX_LINE` characters as written in ``encoding`` (default:
    stderr's; a character it cannot write counts as the escape written for it), a long message
    shortened between words (:func:`shorten`).

    >>> error_line("shoe.toml: bad\nvalue")
    'exactodds: error: shoe.toml: bad\\nvalue'
    >>> len(error_line("x" * 10**6)) == MAX_LINE
    True
    >>> error_line("bet 'x' — unknown", encoding="ascii")
    "exactodds: error: bet 'x' \\u2014 unknown"
    """
    if encoding is None:
        encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    prefix = f"exactodds: {label}: "
    width = MAX_LINE - len(prefix)
    mark = "…" if _writes("…", encoding) else "..."
    if len(message) > 8 * width:  # only the ends can be shown: escape no more than they need
        message = message[: 4 * width] + f" {mark} " + message[-4 * width :]
    text = printable(message)
    if not _writes(text, encoding):
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    return prefix + shorten(text, width, mark)


def _writes(text: str, encoding: str) -> bool:
    """Whether ``encoding`` writes every character of ``text`` (an unknown one: assume not)."""
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def shorten(text: str, width: int, mark: str = "…") -> str:
    """``text`` cut to at most ``width`` characters by dropping whole words from its middle
    (marked ``mark``): the start (where, which bet) and the end (the figure, "did you mean")
    stay, and a list loses names, never parts of one; a word too long for its side is cut.

    >>> shorten("known: alpha, beta, gamma, delta, epsilon; did you mean 'beta'?", 44)
    "known: alpha, beta, … did you mean 'beta'?"
    >>> shorten("abcdefghij", 5), shorten("short", 10)
    ('ab…ij', 'short')
    """
    if len(text) <= width:
        return text
    gap = f" {mark} "
    room = width - len(gap)
    if room < 8:
        return elide(text, width)
    start = len(text) - room // 2
    if text[start - 1] != " " and " " in text[start:-1]:  # mid-word: from the next word
        start = text.index(" ", start) + 1
    tail = text[start:]
    end = room - len(tail)
    if text[end] != " " and " " in text[1:end]:  # mid-word: to the end of the last whole word
        end = text.rindex(" ", 1, end)
    head = text[:end]
    return head.rstrip() + gap + tail.lstrip()


class ExactOddsError(ValueError):
    """Base class of every error raised for bad input to exactodds.

    It is a ``ValueError``, so code that already catches bad values keeps working:

    >>> from exactodds.deal.shoe import parse_card
    >>> try:
    ...     parse_card("Zs")
    ... except ValueError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ExactOddsError), exc)
    CardError True unknown rank 'Z' in card 'Zs' (use A 2-9 T/10 J Q K)

    A message about a parameter names it as the Python call does (``seed``,
    ``hands_per_hour``), and :attr:`parameters` lists the names it uses so, which the command
    line shows as its options (``--seed``): :func:`about`.
    """

    parameters: tuple[str, ...] = ()
    """The parameters the message names, by their Python names: the first time each comes in
    the message as a word of its own, it names that parameter."""


E = TypeVar("E", bound=ExactOddsError)
P = ParamSpec("P")
R = TypeVar("R")


def about(exc: E, *parameters: str) -> E:
    """``exc``, recorded as naming ``parameters`` in its message (see
    :attr:`ExactOddsError.parameters`).

    >>> about(SessionError("seed must be a non-negative integer, not -1"), "seed").parameters
    ('seed',)
    """
    exc.parameters = (*exc.parameters, *parameters)
    return exc


@contextmanager
def parameter(name: str, *kinds: type[ExactOddsError], prefix: bool = True) -> Iterator[None]:
    """Errors of the block (of ``kinds``; default: all of exactodds') named by the parameter
    whose value they are about: ``rounds: …`` (the command line shows its option; the names of
    the inner call's own parameters are dropped, as its caller does not have them); with
    ``prefix=False`` their message names it already.

    >>> with parameter("bet"):
    ...     raise SessionError("unknown bet 'x'")
    Traceback (most recent call last):
    ...
    exactodds.errors.SessionError: bet: unknown bet 'x'
    """
    caught = kinds or (ExactOddsError,)
    try:
        yield
    except caught as exc:
        if prefix:
            exc.args = (f"{name}: {exc}", *exc.args[1:])
            exc.parameters = ()
        about(exc, name)
        raise


def naming(*parameters: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function whose error messages name ``parameters`` (each first as itself, the
    value it was given after it: ``sort '6 6'``): its errors record them (:func:`about`)."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @wraps(function)
        def named_call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return function(*args, **kwargs)
            except ExactOddsError as exc:
                about(exc, *parameters)
                raise

        return named_call

    return decorate


def require(value: object, kinds: tuple[type[Any], ...], name: str) -> None:
    """Refuse a ``value`` of none of ``kinds`` for the public parameter ``name`` with a
    TypeError naming both: without it a wrong type fails deep inside, as an AttributeError about
    a name the caller never used.

    >>> require("8", (int, type(None)), "decks")
    Traceback (most recent call last):
    ...
    TypeError: decks must be int or None, not str
    """
    if not isinstance(value, kinds):
        wanted = " or ".join("None" if k is type(None) else k.__name__ for k in kinds)
        raise TypeError(f"{name} must be {wanted}, not {type(value).__name__}")


class CardError(ExactOddsError):
    """A card string could not be parsed (unknown rank or suit)."""


class ShoeError(ExactOddsError):
    """A shoe composition is invalid (negative count, too few cards, missing card)."""


class TableauError(ExactOddsError):
    """A drawing-rules (tableau) definition is invalid or unknown."""


class PaytableError(ExactOddsError):
    """A paytable file or bet definition is invalid.

    When a file has several problems, the message names the first and counts the rest;
    :attr:`problems` holds every one of them.
    """

    problems: tuple[str, ...] = ()


class RoundError(ExactOddsError):
    """A dealt round is not legal under the tableau (used when settling a given round)."""


class InputFileError(ExactOddsError):
    """An input file is missing, unreadable or not valid TOML/JSON."""


class OutputError(ExactOddsError):
    """An output file cannot be written, or would replace a file exactodds did not write."""


class ProfileError(ExactOddsError):
    """A jurisdiction profile is unknown or its file is invalid.

    Like :class:`PaytableError`, the message names the first problem of a file and counts the
    rest; :attr:`problems` holds every one of them.
    """

    problems: tuple[str, ...] = ()


FileProblems = TypeVar("FileProblems", PaytableError, ProfileError)


def first_problem(kind: type[FileProblems], problems: Sequence[str], hint: str) -> FileProblems:
    """One error for a file's problems: the first, and how many more there are (then ``hint``,
    e.g. where to see them all); every one of them in its ``problems``.

    >>> str(first_problem(ProfileError, ["a.toml:1: bad", "a.toml:2: worse"], " in this profile"))
    'a.toml:1: bad (and 1 more problem in this profile)'
    >>> first_problem(PaytableError, ["x: bad"], "").problems
    ('x: bad',)
    """
    rest = len(problems) - 1
    more = f" (and {rest} more problem{'s' if rest != 1 else ''}{hint})" if rest else ""
    error = kind(problems[0] + more)
    error.problems = tuple(problems)
    return error


class ConditionError(PaytableError):
    """A row condition does not parse or does not type-check."""


class ReportError(ExactOddsError):
    """Bad choices for ``exactodds report`` (unknown format, clashing output names, …)."""


class DateError(ReportError):
    """A ``--date`` or SOURCE_DATE_EPOCH value is not a date."""


class SimulationError(ExactOddsError):
    """Invalid simulation parameters (number of shoes, cut card, workers, seed)."""


class SessionError(ExactOddsError):
    """A session or programme option is invalid, or its figures would exceed the work budget."""


class MissingExtraError(ExactOddsError):
    """An optional extra is not installed; the message names the ``pip install`` command.

    >>> str(MissingExtraError("PDF sheets need WeasyPrint", "pdf"))
    "PDF sheets need WeasyPrint: pip install 'exactodds[pdf]'"
    """

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what}: pip install 'exactodds[{extra}]'")
        self.extra = extra


class KernelError(ExactOddsError):
    """``EXACTODDS_KERNEL`` names an unknown kernel (a known one whose extra is missing is a
    :class:`MissingExtraError`)."""


@contextmanager
def named(where: str, *kinds: type[ExactOddsError]) -> Iterator[None]:
    """Errors of the block (of ``kinds``; default: all of exactodds') named by where the bad
    value comes from: ``--remove: …``, ``FILE: …``. The error keeps its type and attributes.

    >>> with named("--cards"):
    ...     raise RoundError("banker has 4 cards; a hand has two or three")
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: --cards: banker has 4 cards; a hand has two or three
    """
    caught = kinds or (ExactOddsError,)
    try:
        yield
    except caught as exc:
        exc.args = (f"{where}: {exc}", *exc.args[1:])
        raise
