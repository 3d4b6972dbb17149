"""The three-person game of baccara banque: its Nash equilibria where both Player hands draw
on 5 with the same probability ``x``, independently, each paid its own result.

The Banker's gain from drawing in a cell is quadratic in ``x``; between its roots his best
reply is fixed and a hand's gain from drawing is linear in ``x``, so an equilibrium is a root
of that line inside an interval (kept only when the Banker's reply there is checked to be the
same), or a root of the Banker's gains where some mix of his tied cells leaves both hands
indifferent. Roots that are irrational are handled exactly in ``Q(√D)``.

>>> from exactodds.deal.shoe import Shoe
>>> from exactodds.games.banque import build_banque
>>> found, complete = symmetric_equilibria(build_banque(Shoe.from_rank_counts({"T": 4, "5": 2})))
>>> [e.draw for e in found], complete
([Fraction(0, 1)], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from itertools import count, pairwise
from math import isqrt

from exactodds.games.banque import BanqueForm, cell_lines
from exactodds.games.equilibrium import Linear, polytope

__all__ = ["SymmetricEquilibrium", "symmetric_equilibria"]


@dataclass(frozen=True)
class SymmetricEquilibrium:
    """A Nash equilibrium of the three-person game where both hands draw on 5 with the same
    probability ``draw``, independently: the Banker's ``y`` and the payoffs per deal."""

    draw: Fraction
    y: tuple[Fraction, ...]
    hand: Fraction
    """Each hand's expected payoff per deal."""
    continuum: bool = False
    """Whether every ``draw`` near this one is an equilibrium too (then not unique)."""

    @property
    def banker_edge(self) -> Fraction:
        """The Banker's expected gain per Player hand."""
        return -self.hand


def _roots(quad: tuple[int, int, int]) -> tuple[list[Fraction], list[_Surd]]:
    """The roots in (0, 1) of ``a x² + b x + c`` (``quad``): rational ones, and irrational
    ones exactly."""
    a, b, c = quad
    if a == 0:
        return ([Fraction(-c, b)] if b else []), []
    disc = b * b - 4 * a * c
    r = _root(disc, 1)
    if r is not None:
        return [Fraction(-b + r, 2 * a), Fraction(-b - r, 2 * a)], []
    if disc < 0:
        return [], []
    both = (_Surd(Fraction(-b, 2 * a), Fraction(sign, 2 * a), disc) for sign in (1, -1))
    return [], [x for x in both if x.sign() > 0 and (1 - x).sign() > 0]


def _root(num: int, den: int) -> int | None:
    """The exact square root of ``num / den`` as ``r`` with ``r / den``, when rational."""
    r = isqrt(num * den) if num >= 0 else -1
    return r if r >= 0 and r * r == num * den else None


def symmetric_equilibria(form: BanqueForm) -> tuple[tuple[SymmetricEquilibrium, ...], bool]:
    """Every Nash equilibrium of the three-person game with equal, independent Player mixes
    on 5, and whether the search is complete (it is not when one may lie at an irrational
    probability, which a Fraction cannot hold, or at a switching point it cannot decide).

    The Banker's gain in a cell is quadratic in the hands' common probability ``x``; between
    its roots his best reply is fixed and a hand's gain from drawing is linear in ``x``, so
    an equilibrium is a root of that line inside an interval, or a root of the Banker's gains
    where some mix of his tied cells leaves the hands indifferent (or unwilling to move).
    """
    quads: list[tuple[int, int, int]] = []
    points = {Fraction(0), Fraction(1)}
    surds: list[_Surd] = []
    complete = True
    for c in range(len(form.cells)):
        s, d = cell_lines(form, c)
        e = [b - a for a, b in zip(s, d, strict=True)]  # by joint play: DD, DS, SD, SS
        quad = (e[0] - e[1] - e[2] + e[3], e[1] + e[2] - 2 * e[3], e[3])
        quads.append(quad)
        rational, irr = _roots(quad)
        points.update(rational)
        surds.extend(r for r in irr if all(_compare(r, t) for t in surds))
    for root in surds:
        if _at_surd(form, quads, root):
            complete = False  # an equilibrium at an irrational probability: not held
    exact = sorted(p for p in points if 0 <= p <= 1)
    found: dict[Fraction, SymmetricEquilibrium] = {}
    for x in exact:
        for eq in _at_point(form, quads, x):
            found[x] = eq
    ends: list[Fraction | _Surd] = sorted([*exact, *surds], key=cmp_to_key(_compare))
    for lo, hi in pairwise(ends):
        for eq in _in_interval(form, quads, _between(lo, hi)):
            found.setdefault(eq.draw, eq)
    return tuple(found[x] for x in sorted(found)), complete


@dataclass(frozen=True)
class _Surd:
    """``p + q·√d`` exactly (``d`` not a square): where the Banker's reply switches at an
    irrational probability.

    >>> r = _Surd(Fraction(1), Fraction(-1), 2)  # 1 - √2, a root of x² - 2x - 1
    >>> r.sign(), (r * r + r * -2 + -1).sign(), (r * r).sign(), (1 - r).sign()
    (-1, 0, 1, 1)
    >>> (r / r).sign(), (r / r + -1).sign()
    (1, 0)
    """

    p: Fraction
    q: Fraction
    d: int

    def __add__(self, o: _Surd | int) -> _Surd:
        o = self._of(o)
        return _Surd(self.p + o.p, self.q + o.q, self.d)

    def __rsub__(self, o: int) -> _Surd:
        return _Surd(o - self.p, -self.q, self.d)

    def __neg__(self) -> _Surd:
        return _Surd(-self.p, -self.q, self.d)

    def __mul__(self, o: _Surd | int) -> _Surd:
        o = self._of(o)
        return _Surd(self.p * o.p + self.q * o.q * self.d, self.p * o.q + self.q * o.p, self.d)

    def __truediv__(self, o: _Surd) -> _Surd:
        norm = o.p * o.p - o.q * o.q * self.d  # never 0: d is not a square
        return self * _Surd(o.p / norm, -o.q / norm, self.d)

    def _of(self, o: _Surd | int) -> _Surd:
        return o if isinstance(o, _Surd) else _Surd(Fraction(o), Fraction(0), self.d)

    def sign(self) -> int:
        """The exact sign."""
        a = (self.p > 0) - (self.p < 0)
        b = (self.q > 0) - (self.q < 0)
        if b in (a, 0):
            return a
        if a == 0:
            return b
        return a if self.p * self.p > self.q * self.q * self.d else b

    def bracket(self, bits: int) -> tuple[Fraction, Fraction]:
        """Rationals ``lo < self < hi`` at most ``|q| / 2**bits`` apart."""
        s = isqrt(self.d << (2 * bits))  # s / 2**bits < √d < (s + 1) / 2**bits
        a = self.p + self.q * Fraction(s, 1 << bits)
        b = self.p + self.q * Fraction(s + 1, 1 << bits)
        return min(a, b), max(a, b)

    def rebased(self, d: int) -> _Surd | None:
        """The same number written over ``√d``, when it can be (``d·self.d`` a square)."""
        m = isqrt(d * self.d)
        return _Surd(self.p, self.q * m / d, d) if m * m == d * self.d else None


def _bracket(v: Fraction | _Surd, bits: int) -> tuple[Fraction, Fraction]:
    return (v, v) if isinstance(v, Fraction) else v.bracket(bits)


def _compare(a: Fraction | _Surd, b: Fraction | _Surd) -> int:
    """The exact order of two switching points (a rational is never a surd; two surds over
    different roots are equal only when one rebases onto the other's)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    if isinstance(a, _Surd) and isinstance(b, _Surd) and (c := b.rebased(a.d)) is not None:
        return (a + -c).sign()
    for bits in count(64, 64):  # distinct: brackets narrowing around each part at last
        la, ha = _bracket(a, bits)
        lb, hb = _bracket(b, bits)
        if ha < lb:
            return -1
        if hb < la:
            return 1
    raise AssertionError("unreachable")


def _between(lo: Fraction | _Surd, hi: Fraction | _Surd) -> Fraction:
    """A rational strictly between the switching points ``lo < hi``: their midpoint when both
    are rational, else the midpoint of brackets that no longer overlap."""
    for bits in count(64, 64):
        top = _bracket(lo, bits)[1]
        bottom = _bracket(hi, bits)[0]
        if top < bottom:
            return (top + bottom) / 2
    raise AssertionError("unreachable")


def _at_surd(form: BanqueForm, quads: Sequence[tuple[int, int, int]], r: _Surd) -> bool:
    """Whether some mix of the Banker's tied cells at the irrational ``r`` leaves both hands
    indifferent on 5 (an equilibrium there); undecidable cases count as yes."""
    gaps = [(r * (r * a) + r * b + c).sign() for a, b, c in quads]
    open_cells = [c for c, g in enumerate(gaps) if g == 0 and any(quads[c])]
    y = [int(g < 0) for g in gaps]
    rows: list[tuple[_Surd, list[_Surd]]] = []
    for h, (draws, stands) in enumerate((((0, 1), (2, 3)), ((0, 2), (1, 3)))):
        const, coef = r * 0, [r * 0 for _ in open_cells]
        for ks, sign in ((draws, 1), (stands, -1)):
            for k, w in zip(ks, (r * sign, (1 - r) * sign), strict=True):
                base = form.constant[h]
                for c, (s, d) in enumerate(form.terms[k]):
                    base += d[h] if y[c] else s[h]
                for m, c in enumerate(open_cells):
                    s, d = form.terms[k][c]
                    base -= d[h] if y[c] else s[h]
                    base += s[h]
                    coef[m] = coef[m] + w * (d[h] - s[h])
                const = const + w * base
        rows.append((const, coef))
    return _solvable_in_box(rows)


def _solvable_in_box(rows: list[tuple[_Surd, list[_Surd]]]) -> bool:
    """Whether ``const + coef·y == 0`` for every row has a solution with ``0 <= y <= 1``
    (decided for up to two unknowns with a unique solution, else assumed)."""
    n = len(rows[0][1])
    if n == 0:
        return all(c.sign() == 0 for c, _ in rows)
    if n == 2:
        (c1, (a1, b1)), (c2, (a2, b2)) = rows
        det = a1 * b2 + -(a2 * b1)
        if det.sign() == 0:
            return True
        y1 = (-(c1 * b2) + c2 * b1) / det
        y2 = (-(a1 * c2) + a2 * c1) / det
        return all(v.sign() >= 0 and (1 - v).sign() >= 0 for v in (y1, y2))
    return True


def _gaps(quads: Sequence[tuple[int, int, int]], x: Fraction) -> list[Fraction]:
    return [(a * x + b) * x + c for a, b, c in quads]


def _hand_lines(
    form: BanqueForm, x: Fraction, y: list[Fraction], open_cells: set[int]
) -> list[Linear]:
    """Each hand's gain from drawing on 5 rather than standing while the other draws with
    ``x``, linear in ``y`` on ``open_cells`` (summed in integers per joint play, pure ``y``
    elsewhere)."""
    out: list[Linear] = []
    for h, (draws, stands) in enumerate((((0, 1), (2, 3)), ((0, 2), (1, 3)))):
        const, coef = Fraction(0), dict[int, Fraction]()
        for ks, sign in ((draws, 1), (stands, -1)):
            for k, p in zip(ks, (x, 1 - x), strict=True):
                w = sign * p
                if not w:
                    continue
                base = form.constant[h]
                for c, (s, d) in enumerate(form.terms[k]):
                    if c in open_cells:
                        base += s[h]
                        coef[c] = coef.get(c, Fraction(0)) + w * (d[h] - s[h])
                    else:
                        base += d[h] if y[c] == 1 else s[h] if y[c] == 0 else 0
                        if 0 < y[c] < 1:
                            const += w * (s[h] + y[c] * (d[h] - s[h]))
                const += w * base
        out.append((const, coef))
    return out


def _hand_payoff(form: BanqueForm, x: Fraction, y: Sequence[Fraction]) -> Fraction:
    z = [x * x, x * (1 - x), (1 - x) * x, (1 - x) ** 2]
    return form.hand_payoffs(z, y)[0]


def _at_point(
    form: BanqueForm, quads: Sequence[tuple[int, int, int]], x: Fraction
) -> list[SymmetricEquilibrium]:
    gaps = _gaps(quads, x)
    y = [Fraction(int(g < 0)) for g in gaps]
    open_cells = [c for c, g in enumerate(gaps) if g == 0 and any(quads[c])]
    lines = _hand_lines(form, x, y, set(open_cells))
    eqs = lines if 0 < x < 1 else []
    les = [] if 0 < x < 1 else [(-v[0], {c: -w for c, w in v[1].items()}) for v in lines]
    if x == 0:
        les = lines
    try:
        point, _ = polytope(open_cells, eqs, les)
    except ValueError:
        return []
    for c, v in point.items():
        y[c] = v
    return [SymmetricEquilibrium(x, tuple(y), _hand_payoff(form, x, y))]


def _in_interval(
    form: BanqueForm, quads: Sequence[tuple[int, int, int]], sample: Fraction
) -> list[SymmetricEquilibrium]:
    """The equilibrium, if any, where the Banker's best reply is his pure reply at
    ``sample``: there a hand's gain from drawing is linear in ``x``; its root is kept only
    when the Banker's reply there is exactly the same, with no tie (checked exactly)."""
    y = [Fraction(int(g < 0)) for g in _gaps(quads, sample)]
    g0 = _hand_lines(form, Fraction(0), y, set())[0][0]
    g1 = _hand_lines(form, Fraction(1), y, set())[0][0]
    if g0 == g1:
        if g0:
            return []
        return [SymmetricEquilibrium(sample, tuple(y), _hand_payoff(form, sample, y), True)]
    x = g0 / (g0 - g1)
    if not 0 < x < 1:
        return []
    gaps = _gaps(quads, x)
    if any(g == 0 and any(q) for g, q in zip(gaps, quads, strict=True)):
        return []  # a switching point: the point's search covers it
    if [Fraction(int(g < 0)) for g in gaps] != y:
        return []
    return [SymmetricEquilibrium(x, tuple(y), _hand_payoff(form, x, y))]
