"""Exact-to-display number formatting: every decimal is rounded from the exact Fraction.

Floats are never used on the way: ``fixed`` rounds the Fraction itself (half to even) and
``sqrt_fixed`` uses integer square roots, so a printed digit is always the correctly rounded one.

>>> fixed(Fraction(2, 3), 4), percent(Fraction(-1, 80)), grouped(4998398275503360)
('0.6667', '-1.2500%', '4,998,398,275,503,360')
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "digits",
    "exact",
    "fixed",
    "fixed_units",
    "grouped",
    "one_in",
    "percent",
    "signed",
    "sqrt_fixed",
]


def fixed_units(units: int, places: int) -> str:
    """An integer number of units of 10^-``places`` as a decimal string.

    >>> fixed_units(-5, 3), fixed_units(12345, 2), fixed_units(7, 0)
    ('-0.005', '123.45', '7')
    """
    sign = "-" if units < 0 else ""
    text = str(abs(units)).rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}" if places else f"{sign}{text}"


def fixed(x: Fraction | int, places: int = 10) -> str:
    """``x`` rounded (half to even) to ``places`` decimals.

    >>> fixed(Fraction(-1, 3), 3), fixed(Fraction(-1, 3000), 3), fixed(12, 2)
    ('-0.333', '0.000', '12.00')
    """
    x = x if isinstance(x, int | Fraction) else Fraction(x)
    # round(x · 10^places), half to even, in integers (as Fraction.__round__, without Fractions)
    units, rest = divmod(x.numerator * 10**places, x.denominator)
    if 2 * rest > x.denominator or (2 * rest == x.denominator and units % 2):
        units += 1
    return fixed_units(units, places)


def signed(x: Fraction | int, places: int = 10) -> str:
    """Like :func:`fixed` but with an explicit ``+`` on positive values.

    >>> signed(Fraction(1, 8), 3), signed(Fraction(-1, 8), 3), signed(0, 1)
    ('+0.125', '-0.125', '0.0')
    """
    text = fixed(x, places)
    return f"+{text}" if text.strip("0.-") and not text.startswith("-") else text


def percent(x: Fraction | int, places: int = 4) -> str:
    """``x`` as a percentage with ``places`` decimals.

    >>> percent(Fraction(1057906, 100000000), 4)
    '1.0579%'
    """
    return f"{fixed(Fraction(x) * 100, places)}%"


def grouped(n: int) -> str:
    """An integer with thousands separators.

    >>> grouped(-1234567)
    '-1,234,567'
    """
    return f"{n:,}"


def sqrt_fixed(x: Fraction | int, places: int = 4) -> str:
    """The square root of a non-negative ``x`` to ``places`` decimals, by integer arithmetic.

    >>> sqrt_fixed(2, 6), sqrt_fixed(Fraction(9, 4), 2)
    ('1.414214', '1.50')
    """
    x = Fraction(x)
    if x < 0:
        raise ValueError(f"square root of a negative number {x!r}")
    scaled = x * 10 ** (2 * (places + 1))
    root = math.isqrt(scaled.numerator // scaled.denominator)
    units, last = divmod(root, 10)
    return fixed_units(units + (1 if last >= 5 else 0), places)


def one_in(p: Fraction, places: int = 2) -> str:
    """Odds of an event of probability ``p`` as ``1 in N`` (``—`` when impossible).

    >>> one_in(Fraction(1, 8)), one_in(Fraction(3, 40000)), one_in(Fraction(0))
    ('1 in 8.00', '1 in 13,333.33', '—')
    """
    if p <= 0:
        return "—"
    n = round(1 / Fraction(p) * 10**places)
    whole, frac = divmod(n, 10**places)
    tail = f".{str(frac).rjust(places, '0')}" if places else ""
    return f"1 in {whole:,}{tail}"


def exact(x: Fraction | int) -> str:
    """The exact value as ``p/q`` (always with a denominator, so consumers can split on ``/``),
    however many digits (see :func:`digits`).

    >>> exact(Fraction(-19, 20)), exact(0), len(exact(Fraction(1, 10**5000)))
    ('-19/20', '0/1', 5003)
    """
    x = Fraction(x)
    return f"{digits(x.numerator)}/{digits(x.denominator)}"


_STR_BITS = 13_000
"""Integers below 2**13000 (3,914 digits) are converted by ``str``, under the 4,300 digits
Python allows by default."""


def digits(n: int) -> str:
    """The decimal digits of ``n``, however many: Python refuses ``str()`` of an integer of
    more than 4,300 digits unless ``sys.set_int_max_str_digits`` lifts the limit for the whole
    process; :mod:`decimal` converts without it.

    >>> digits(-42), digits(10**5000) == "1" + "0" * 5000
    ('-42', True)
    """
    if n.bit_length() < _STR_BITS:
        return str(n)
    import decimal

    return str(decimal.Decimal(n))
