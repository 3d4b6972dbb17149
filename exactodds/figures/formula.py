"""The house edge of a bet as an exact rational function of the number of decks ``d``.

Why it is one: in a full shoe of ``d`` decks each of the 52 card kinds (rank and suit) appears
``d`` times. A round is an ordered sequence of six cards, and the sequences showing given card
kinds number Π (d)ₘ over the distinct kinds (m: how often the kind appears, (d)ₘ the falling
factorial) — a polynomial of degree 6 in ``d`` without a constant term. So every combination
count is a polynomial of degree ≤ 6 in ``d``, so is the universe (52d)₆, and so is the house
edge times the universe, Σ −net · count. Seven deck counts fix such a polynomial: sympy
interpolates it exactly from the engine's counts at d = 1 … 7 and cancels it against (52d)₆;
the result is then checked against the engine at d = 8 and 12, which the derivation did not use.
Pair bets fit too: a pair needs two cards of one rank, d(d − 1)-type terms that simply vanish at
d = 1 for a perfect pair. A bet with an offer is figured per offered round: its offered
combinations are such a polynomial too, interpolated the same way, and take the universe's place.
A bet with random multipliers fits as well (the expected product given the dealt cards depends
only on how often each card kind repeats in the group, not on ``d``), and a fee divides the edge
by a constant; a peek does not (the optimal raise switches with ``d``): it is refused.

The limit d → ∞ (cards drawn with replacement) is the ratio of the leading coefficients.

>>> from exactodds.bets.loader import load_paytable
>>> pair = edge_formulas(load_paytable("classic"), bet_ids=["player_pair"])[0]
>>> pair.text(), pair(8), pair.limit  # docs/rules.md §9: 10.3614% at 8 decks
('(4d + 11) / (52d − 1)', Fraction(43, 415), Fraction(1, 13))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.bets.paytable import Bet, Paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import PaytableError, require
from exactodds.figures.metrics import bet_figures

__all__ = [
    "CHECKED_AT",
    "DERIVED_FROM",
    "EdgeFormula",
    "FormulaCheckError",
    "edge_formulas",
    "polynomial_text",
]

DERIVED_FROM: tuple[int, ...] = tuple(range(1, 8))
"""Deck counts whose exact house edges fix the formula (7 points for degree ≤ 6)."""

CHECKED_AT: tuple[int, ...] = (8, 12)
"""Deck counts the formula is checked at against the engine (not used to derive it)."""

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class FormulaCheckError(ArithmeticError):
    """A derived formula disagrees with the engine at a check point: a bug, never bad input."""


@dataclass(frozen=True)
class EdgeFormula:
    """House edge of one bet on a full shoe of ``d`` decks: numerator(d) / denominator(d).

    Coefficients are integers in ascending powers of ``d`` (index k holds the coefficient of
    dᵏ), in lowest terms: no common polynomial factor, coefficients without a common divisor, the
    denominator's leading coefficient positive.

    >>> f = EdgeFormula("player_pair", "Player Pair", (11, 4), (-1, 52))
    >>> f(8), f.limit, f.expression
    (Fraction(43, 415), Fraction(1, 13), '(4*d + 11)/(52*d - 1)')
    """

    bet_id: str
    name: str
    numerator: tuple[int, ...]
    denominator: tuple[int, ...]

    def __call__(self, decks: int) -> Fraction:
        """The exact house edge on ``decks`` full decks."""
        return Fraction(_horner(self.numerator, decks), _horner(self.denominator, decks))

    @property
    def limit(self) -> Fraction:
        """The house edge as d → ∞ (cards drawn with replacement), exact."""
        if not any(self.numerator) or len(self.numerator) < len(self.denominator):
            return Fraction(0)
        if len(self.numerator) > len(self.denominator):  # pragma: no cover - edges are bounded
            raise FormulaCheckError(f"bet {self.bet_id!r}: house edge unbounded in d")
        return Fraction(self.numerator[-1], self.denominator[-1])

    @property
    def expression(self) -> str:
        """The formula in sympy syntax (``sympy.sympify`` reads it back)."""
        return f"({polynomial_text(self.numerator)})/({polynomial_text(self.denominator)})"

    def text(self) -> str:
        """The formula for people: the numerator expanded, the denominator factored over the
        integers (sympy).

        >>> EdgeFormula("x", "X", (0, 3), (4, 2, 0, 2)).text()
        '3d / (2(d + 1)(d² − d + 2))'
        """
        import sympy

        d = sympy.Symbol("d")
        content, factors = sympy.factor_list(_expr(self.denominator, d), d)
        items = [] if content == 1 else [str(content)]
        for factor, multiplicity in factors:
            coefficients = _coefficients(factor, d)
            body = polynomial_text(coefficients, pretty=True)
            if _terms(coefficients) > 1:
                body = f"({body})"
            items.append(body + _power(multiplicity))
        num = polynomial_text(self.numerator, pretty=True)
        if not items:
            return num
        den = items[0] if len(items) == 1 else "(" + "".join(items) + ")"
        return f"({num}) / {den}" if _terms(self.numerator) > 1 else f"{num} / {den}"

    def to_json(self) -> dict[str, Any]:
        """Exact coefficients as strings (ascending powers of d), the sympy expression, the
        limit as ``"p/q"``, and the deck counts it was derived from and checked at."""
        return {
            "id": self.bet_id,
            "name": self.name,
            "numerator": [str(c) for c in self.numerator],
            "denominator": [str(c) for c in self.denominator],
            "expression": self.expression,
            "limit": f"{self.limit.numerator}/{self.limit.denominator}",
            "derived_from": list(DERIVED_FROM),
            "checked_at": list(CHECKED_AT),
        }


def _horner(coefficients: Sequence[int], x: int) -> int:
    out = 0
    for c in reversed(coefficients):
        out = out * x + c
    return out


def _terms(coefficients: Sequence[int]) -> int:
    return sum(1 for c in coefficients if c)


def _power(k: int) -> str:
    return "" if k == 1 else str(k).translate(_SUPERSCRIPT)


def polynomial_text(coefficients: Sequence[int], variable: str = "d", pretty: bool = False) -> str:
    """An integer polynomial (ascending coefficients) highest power first: sympy syntax, or
    with ``pretty`` as people write it.

    >>> polynomial_text((-1, 0, 52)), polynomial_text((-1, 0, 52), pretty=True)
    ('52*d**2 - 1', '52d² − 1')
    >>> polynomial_text((0, -1)), polynomial_text(()), polynomial_text((7,), pretty=True)
    ('-d', '0', '7')
    """
    terms: list[tuple[bool, str]] = []
    for k in range(len(coefficients) - 1, -1, -1):
        c = coefficients[k]
        if not c:
            continue
        size = abs(c)
        if k == 0:
            body = str(size)
        else:
            power = variable if k == 1 else variable + (_power(k) if pretty else f"**{k}")
            body = power if size == 1 else f"{size}{'' if pretty else '*'}{power}"
        terms.append((c < 0, body))
    if not terms:
        return "0"
    minus = "−" if pretty else "-"
    out = (minus if terms[0][0] else "") + terms[0][1]
    for negative, body in terms[1:]:
        out += f" {minus if negative else '+'} {body}"
    return out


def _expr(coefficients: Sequence[int], d: Any) -> Any:
    return sum((c * d**k for k, c in enumerate(coefficients)), 0 * d)


def _coefficients(expr: Any, d: Any) -> tuple[int, ...]:
    """Integer coefficients of a sympy polynomial in ``d``, ascending."""
    import sympy

    coeffs = sympy.Poly(expr, d).all_coeffs()[::-1]
    return tuple(int(c) for c in coeffs)


def _lowest_terms(num: Any, den: Any, d: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Integer coefficient tuples of num/den: denominators cleared, common divisor removed,
    the denominator's leading coefficient positive."""
    import sympy

    p = sympy.Poly(num, d, domain="QQ").all_coeffs()[::-1]
    q = sympy.Poly(den, d, domain="QQ").all_coeffs()[::-1]
    rationals = [Fraction(int(c.p), int(c.q)) for c in (*p, *q)]
    scale = math.lcm(*(c.denominator for c in rationals))
    ints = [int(c * scale) for c in rationals]
    divisor = math.gcd(*ints) or 1
    if ints[-1] < 0:
        divisor = -divisor
    ints = [c // divisor for c in ints]
    return _strip(tuple(ints[: len(p)])), _strip(tuple(ints[len(p) :]))


def _strip(coefficients: tuple[int, ...]) -> tuple[int, ...]:
    """The coefficients without trailing zeros, the constant term kept.

    >>> _strip((0, 3, 0, 0)), _strip((0, 0))
    ((0, 3), (0,))
    """
    from more_itertools import rstrip

    return coefficients[:1] + tuple(rstrip(coefficients[1:], lambda c: c == 0))


def _house_edges(bets: Sequence[Bet], tableau: Tableau, decks: int) -> list[tuple[Fraction, int]]:
    """Each bet's house edge on ``decks`` decks and the combinations it is per: the whole
    universe, or the offered rounds for a bet with an offer."""
    joint = joint_distribution(Shoe.decks(decks), tableau)
    return [(f.house_edge, f.total) for f in (bet_figures(joint, bet) for bet in bets)]


def edge_formulas(
    paytable: Paytable, tableau: Tableau | None = None, bet_ids: Sequence[str] | None = None
) -> tuple[EdgeFormula, ...]:
    """The house edge of each bet of ``paytable`` (or of ``bet_ids``) as a function of the
    number of decks, under ``tableau`` (default: the paytable's); derived at
    :data:`DERIVED_FROM` and checked at :data:`CHECKED_AT` (:class:`FormulaCheckError` if a
    check fails).

    >>> from exactodds.bets.loader import load_paytable
    >>> tie = edge_formulas(load_paytable("classic"), bet_ids=["tie"])[0]
    >>> from exactodds.numbers import percent
    >>> percent(tie(8)), percent(tie(6)), percent(tie.limit)  # rules.md §9: 14.3596% on 8 decks
    ('14.3596%', '14.4382%', '14.1170%')
    """
    require(paytable, (Paytable,), "paytable")
    require(tableau, (Tableau, type(None)), "tableau")
    import sympy

    rules = tableau or paytable.tableau
    bets = (
        paytable.bets
        if bet_ids is None
        else tuple(paytable.round_bet(b, "the edge formula") for b in bet_ids)
    )
    for bet in bets:
        if bet.peek is not None:  # the optimal raise switches with d: no one rational function
            raise PaytableError(
                f"bet {bet.id!r} has a peek: its optimal play changes with the number of decks, "
                "so its house edge has no formula in d (leave the bet out)"
            )
    edges = {n: _house_edges(bets, rules, n) for n in (*DERIVED_FROM, *CHECKED_AT)}
    d = sympy.Symbol("d")
    universe = sympy.expand(sympy.prod([52 * d - i for i in range(6)]))
    out = []
    for i, bet in enumerate(bets):
        # A bet with an offer has its figures per offered round: its edge is Σ −net·count over
        # the offered combinations, both polynomials of degree ≤ 6 in d like the universe.
        offered = universe
        if bet.offer is not None:
            offered = sympy.interpolate([(n, edges[n][i][1]) for n in DERIVED_FROM], d)
        points = []
        for n in DERIVED_FROM:
            y = edges[n][i][0] * edges[n][i][1]
            points.append((n, sympy.Rational(y.numerator, y.denominator)))
        numerator = sympy.interpolate(points, d)
        num, den = sympy.fraction(sympy.cancel(numerator / offered))
        formula = EdgeFormula(bet.id, bet.name, *_lowest_terms(num, den, d))
        for n in CHECKED_AT:
            if formula(n) != edges[n][i][0]:
                raise FormulaCheckError(
                    f"bet {bet.id!r}: the deck-count formula gives {formula(n)} at {n} decks, "
                    f"the engine {edges[n][i][0]}"
                )
        out.append(formula)
    return tuple(out)
