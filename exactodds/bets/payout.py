"""Payout notation (docs/rules.md §5), parsed exactly: ``a:b``, ``a to b``, ``a for b``, commission,
push and lose.

A :class:`Payout` is the net result per unit staked: ``11:1`` nets 11, a push 0, a loss −1.

>>> parse_payout("1:1 less 5%").net
Fraction(19, 20)
>>> parse_payout("9 for 1").net, parse_payout("1.95 for 1").net
(Fraction(8, 1), Fraction(19, 20))
>>> parse_payout("0.95:1").to_one(), parse_payout("0.95:1").for_one()
('0.95 to 1', '1.95 for 1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.errors import ExactOddsError, PaytableError, quote
from exactodds.limits import MAX_DIGITS, MAX_PAYOUT_CHARS, MAX_PAYOUT_NET, check_length

__all__ = [
    "LOSE",
    "PERCENT_RULE",
    "PUSH",
    "Notation",
    "Payout",
    "PayoutKind",
    "format_number",
    "grammar",
    "parse_number",
    "parse_payout",
    "parse_percent",
]

# ASCII digits only (``\d`` would also take Arabic-Indic and other Unicode digits), so that the
# HTML sheet's script, which parses payouts by the same grammar (:func:`grammar`), agrees.
_NUMBER = r"[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?"
_RATIO = re.compile(
    rf"^(?P<a>{_NUMBER})\s*(?P<op>:|to|for)\s*(?P<b>{_NUMBER})"
    rf"(?:\s*(?:less|minus|-)\s*(?P<c>{_NUMBER})\s*%(?:\s*commission)?)?$"
)
_WORDS = {"push": 0, "lose": -1, "loss": -1, "loses": -1}


class PayoutKind(StrEnum):
    """How a settled bet ends.

    >>> [parse_payout(t).kind.value for t in ("11:1", "push", "lose")]
    ['win', 'push', 'loss']
    >>> Payout(Fraction(-1, 2)).kind  # half the stake lost
    <PayoutKind.LOSS: 'loss'>
    """

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


class Notation(StrEnum):
    """How a sheet states payouts: "a to 1" (net win), "a for 1" (return, stake included), or
    both beside the payout as written (the default).

    >>> [parse_payout("9 for 1").stated(n) for n in Notation]
    ['8 to 1', '9 for 1', '9 for 1']
    """

    TO = "to"
    FOR = "for"
    BOTH = "both"


def parse_number(text: str) -> Fraction:
    """An exact non-negative number from ``12``, ``0.95``, ``19/20`` or ``1.5/2``.

    >>> parse_number("0.95"), parse_number("1.5/2")
    (Fraction(19, 20), Fraction(3, 4))
    >>> parse_number("1" * 31)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: number '111...111' has more than 30 digits (the limit)
    """
    body = text.strip()
    if len(body) > 4 * MAX_DIGITS or not re.fullmatch(_NUMBER, body):
        raise PaytableError(f"not a number: {quote(text)}")
    if sum(c.isdigit() for c in body) > MAX_DIGITS:
        raise PaytableError(f"number {quote(body)} has more than {MAX_DIGITS} digits (the limit)")
    numerator, _, denominator = body.partition("/")  # Fraction() refuses "1.5/2"
    if denominator and int(denominator) == 0:
        raise PaytableError(f"division by zero in {quote(text)}")
    return Fraction(numerator) / Fraction(denominator or 1)


PERCENT_RULE = "write a percentage with %, like 5% (a bare number is not read as one)"
"""The one rule of every percentage option (``--target-edge``, ``--rebate``, ``--commission``):
``5%`` is 5%; a bare ``5`` once meant 5% in one option and 500% in another, so it is refused."""


def parse_percent(text: str, what: str, signed: bool = False) -> Fraction:
    """A share from a percentage ``5%``, ``1.25%``, ``1/3%`` (and ``-0.5%`` when ``signed``),
    exact; a bare number is refused with :data:`PERCENT_RULE`, naming ``what``.

    >>> parse_percent("1.25%", "--commission"), parse_percent("-0.5 %", "--target-edge", True)
    (Fraction(1, 80), Fraction(-1, 200))
    >>> parse_percent("10", "--rebate")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: --rebate '10': write a percentage with %, like 5% (a bare ...
    """
    raw = text.strip()
    if not raw.endswith("%"):
        raise ExactOddsError(f"{what} {quote(text, 40)}: {PERCENT_RULE}")
    body = raw[:-1].strip()
    sign = -1 if signed and body[:1] == "-" else 1
    try:
        return sign * parse_number(body[1:] if sign < 0 else body) / 100
    except PaytableError as exc:
        raise ExactOddsError(f"{what} {quote(text, 40)}: {exc}") from None


def format_number(x: Fraction) -> str:
    """An exact decimal when it terminates, else ``p/q``.

    >>> format_number(Fraction(19, 20)), format_number(Fraction(1, 3)), format_number(Fraction(8))
    ('0.95', '1/3', '8')
    """
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    scaled = x * 10**places
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def grammar() -> dict[str, object]:
    """The payout notation as data, for a parser written in another language (the HTML sheet's
    script, :mod:`exactodds.report.designer`): :func:`parse_payout` lower-cases the text and
    collapses its whitespace (``str.split``), then takes one of ``words`` (net result as
    ``p/q``) or a match of ``ratio`` (a Python regular expression); ``max_chars`` bounds the
    text, ``max_digits`` each number and ``max_net`` (a decimal string) the net win.

    >>> g = grammar()
    >>> g["words"]["push"], g["max_chars"], re.match(g["ratio"], "1:1 less 5%")["c"]
    ('0/1', 100, '5')
    """
    return {
        "ratio": _RATIO.pattern,
        "words": {word: f"{net}/1" for word, net in _WORDS.items()},
        "max_chars": MAX_PAYOUT_CHARS,
        "max_digits": MAX_DIGITS,
        "max_net": str(MAX_PAYOUT_NET),
    }


@dataclass(frozen=True)
class Payout:
    """Net result per unit stake of a settled bet, with the text it was written as.

    >>> p = parse_payout("1:1 less 5%")
    >>> p.net, p.kind, str(p), p.text
    (Fraction(19, 20), <PayoutKind.WIN: 'win'>, '19:20', '1:1 less 5%')
    >>> Payout("12:1") == parse_payout("12:1"), Payout("push").net, Payout(3).net
    (True, Fraction(0, 1), Fraction(3, 1))
    >>> Payout(Fraction(-2))
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: payout -2.0 loses more than the stake
    >>> Payout("1000:0.0000000000001")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: payout '1000:0.0000000000001' wins more than the limit of ...
    """

    net: Fraction
    text: str = ""

    if TYPE_CHECKING:  # a payout text or a number is read as in a paytable file

        def __init__(self, net: Fraction | int | str, text: str = "") -> None: ...

    def __post_init__(self) -> None:
        given: object = self.net
        if isinstance(given, str):
            parsed = parse_payout(given)
            object.__setattr__(self, "net", parsed.net)
            object.__setattr__(self, "text", self.text or parsed.text)
        elif isinstance(given, int):
            object.__setattr__(self, "net", Fraction(given))
        elif not isinstance(given, Fraction):
            raise PaytableError(
                f"payout must be a text like '11:1' or a Fraction, not {quote(given)}"
            )
        if self.net < -1:
            raise PaytableError(f"payout {quote(self.text or self.net)} loses more than the stake")
        if self.net > MAX_PAYOUT_NET:
            raise PaytableError(
                f"payout {quote(self.text or self.net)} wins more than the limit of "
                f"{MAX_PAYOUT_NET:,} to 1"
            )

    @property
    def kind(self) -> PayoutKind:
        """Win (net > 0), push (net 0) or loss (net < 0)."""
        if self.net > 0:
            return PayoutKind.WIN
        return PayoutKind.PUSH if self.net == 0 else PayoutKind.LOSS

    @property
    def is_win(self) -> bool:
        """The bet wins something."""
        return self.net > 0

    @property
    def is_push(self) -> bool:
        """The stake is returned."""
        return self.net == 0

    @property
    def is_loss(self) -> bool:
        """The stake (or part of it) is lost."""
        return self.net < 0

    def to_one(self) -> str:
        """ "a to 1" form: ``11 to 1``; push and lose in words."""
        if self.is_push:
            return "push"
        if self.net == -1:
            return "lose"
        return f"{format_number(self.net)} to 1"

    def for_one(self) -> str:
        """ "a for 1" form (the return includes the stake): ``12 for 1``."""
        return f"{format_number(self.net + 1)} for 1"

    def stated(self, notation: Notation) -> str:
        """The payout as a sheet in ``notation`` states it: the "to" or "for" form (push and
        lose in words), or with :attr:`Notation.BOTH` as written in the paytable.

        >>> p = parse_payout("1:1 less 5%")
        >>> p.stated(Notation.TO), p.stated(Notation.FOR), p.stated(Notation.BOTH)
        ('0.95 to 1', '1.95 for 1', '1:1 less 5%')
        >>> PUSH.stated(Notation.FOR), LOSE.stated(Notation.TO)
        ('push', 'lose')
        """
        if notation is Notation.BOTH:
            return self.text or str(self)
        if self.is_push or self.net == -1:
            return self.to_one()
        if notation is Notation.TO and self.has_to_form:
            return self.to_one()
        return self.for_one()  # a partial loss has no "to" form

    @property
    def has_to_form(self) -> bool:
        """Whether the payout can be stated "a to 1" (or in words): a win, a push or a loss of
        the whole stake; a partial loss (half the stake back) can only be stated "for".

        >>> parse_payout("11:1").has_to_form, LOSE.has_to_form, Payout(Fraction(-1, 2)).has_to_form
        (True, True, False)
        """
        return self.net >= 0 or self.net == -1

    def __str__(self) -> str:
        """Canonical ``a:b`` text, which parses back to an equal payout."""
        if self.is_push:
            return "push"
        if self.net == -1:
            return "lose"
        if self.net < 0:
            return f"{format_number(self.net + 1)} for 1"
        return f"{self.net.numerator}:{self.net.denominator}"


PUSH = Payout(Fraction(0), "push")
LOSE = Payout(Fraction(-1), "lose")


def parse_payout(value: object) -> Payout:
    """Parse a payout written in any docs/rules.md §5 notation.

    >>> parse_payout("11:1").net, parse_payout("push").net, parse_payout("lose").net
    (Fraction(11, 1), Fraction(0, 1), Fraction(-1, 1))
    >>> parse_payout("1:2").to_one()
    '0.5 to 1'
    >>> parse_payout("-3:1")
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: cannot read payout '-3:1' (negative payouts are not allowed)
    """
    if not isinstance(value, str):
        raise PaytableError(f"payout must be a string like '11:1', not {quote(value)}")
    check_length(value, MAX_PAYOUT_CHARS, "payout", PaytableError, show=True)
    text = " ".join(value.strip().lower().split())
    if text in _WORDS:
        return Payout(Fraction(_WORDS[text]), value.strip())
    if text.startswith("-"):
        raise PaytableError(f"cannot read payout {value!r} (negative payouts are not allowed)")
    match = _RATIO.match(text)
    if match is None:
        raise PaytableError(
            f"cannot read payout {value!r} (use 'a:b', 'a to b', 'a for b', "
            "'1:1 less 5%', 'push' or 'lose')"
        )
    a, b = parse_number(match["a"]), parse_number(match["b"])
    if b == 0:
        raise PaytableError(f"cannot read payout {value!r} (division by zero)")
    ratio = a / b
    net = ratio - 1 if match["op"] == "for" else ratio
    if net < 0:
        raise PaytableError(f"payout {value!r} returns less than the stake on a win")
    if match["c"] is not None:
        commission = parse_number(match["c"])
        if commission > 100:
            raise PaytableError(f"commission in payout {value!r} is over 100%")
        net *= 1 - commission / 100
    return Payout(net, value.strip())
