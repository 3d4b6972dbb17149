"""Exact linear programming over :class:`~fractions.Fraction`: a dense two-phase simplex.

Our own rather than ``sympy.solvers.simplex``: the games' programs are small once dominated cells
are folded away (tens of variables), but their coefficients are integers of 20-30 digits;
a plain tableau over Fractions with Bland's rule (no cycling on the many degenerate vertices of
these games) is exact, needs no extra dependency and solves them in milliseconds.

>>> # maximise x + y subject to x + 2y <= 4, 3x + y <= 6, x, y >= 0
>>> sol = maximize([1, 1], [[1, 2], [3, 1]], [4, 6])
>>> sol.value, sol.point
(Fraction(14, 5), (Fraction(8, 5), Fraction(6, 5)))
>>> maximize([1], [[-1]], [-1])  # x >= 1, max x: unbounded
Traceback (most recent call last):
...
ValueError: the linear program is unbounded
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Solution", "maximize"]

Number = int | Fraction


@dataclass(frozen=True)
class Solution:
    """An optimal vertex: its objective value and point."""

    value: Fraction
    point: tuple[Fraction, ...]


def maximize(
    c: Sequence[Number],
    a_ub: Sequence[Sequence[Number]],
    b_ub: Sequence[Number],
    eq: tuple[Sequence[Sequence[Number]], Sequence[Number]] | None = None,
) -> Solution:
    """Maximise ``c·z`` subject to ``a_ub z <= b_ub``, ``a_eq z == b_eq`` (``eq``) and ``z >= 0``.

    Raises ``ValueError`` when the program is infeasible or unbounded.

    >>> maximize([1, 0], [[1, 1]], [1], eq=([[1, -1]], [0])).point
    (Fraction(1, 2), Fraction(1, 2))
    >>> maximize([1], [[1]], [1], eq=([[1]], [2]))
    Traceback (most recent call last):
    ...
    ValueError: the linear program is infeasible
    """
    n = len(c)
    table, basis, artificial = _tableau(n, a_ub, b_ub, eq)
    width = len(table[0]) - 1 if table else n
    if artificial:
        phase1 = [Fraction(-1) if j in artificial else Fraction(0) for j in range(width)]
        if _run(table, basis, phase1, width) < 0:
            raise ValueError("the linear program is infeasible")
        _drive_out(table, basis, artificial, width)
    allowed = [j for j in range(width) if j not in artificial]
    cost = [Fraction(c[j]) if j < n else Fraction(0) for j in range(width)]
    value = _run(table, basis, cost, width, allowed)
    point = [Fraction(0)] * width
    for i, j in enumerate(basis):
        point[j] = table[i][-1]
    return Solution(value, tuple(point[:n]))


def _tableau(
    n: int,
    a_ub: Sequence[Sequence[Number]],
    b_ub: Sequence[Number],
    eq: tuple[Sequence[Sequence[Number]], Sequence[Number]] | None,
) -> tuple[list[list[Fraction]], list[int], set[int]]:
    """The starting tableau: ``n`` variables, a slack per inequality, an artificial variable
    per equality and per row with a negative right-hand side; its basis and artificials."""
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    kinds: list[str] = []
    for row, b in zip(a_ub, b_ub, strict=True):
        rows.append([Fraction(v) for v in row])
        rhs.append(Fraction(b))
        kinds.append("le")
    if eq is not None:
        for row, b in zip(eq[0], eq[1], strict=True):
            rows.append([Fraction(v) for v in row])
            rhs.append(Fraction(b))
            kinds.append("eq")
    m = len(rows)
    slack_of: dict[int, int] = {}
    col = n
    for i, kind in enumerate(kinds):
        if kind == "le":
            slack_of[i] = col
            col += 1
    art_of: dict[int, int] = {}
    for i in range(m):
        if kinds[i] == "eq" or rhs[i] < 0:
            art_of[i] = col
            col += 1
    width = col
    table: list[list[Fraction]] = []
    basis: list[int] = []
    for i in range(m):
        line = rows[i] + [Fraction(0)] * (width - n)
        if i in slack_of:
            line[slack_of[i]] = Fraction(1)
        b = rhs[i]
        if b < 0:
            line = [-v for v in line]
            b = -b
        if i in art_of:
            line[art_of[i]] = Fraction(1)
            basis.append(art_of[i])
        else:
            basis.append(slack_of[i])
        table.append([*line, b])
    return table, basis, set(art_of.values())


def _run(
    table: list[list[Fraction]],
    basis: list[int],
    cost: list[Fraction],
    width: int,
    allowed: list[int] | None = None,
) -> Fraction:
    """Pivot to an optimum of ``cost`` (Bland's rule); the optimal value."""
    columns = list(range(width)) if allowed is None else allowed
    while True:
        reduced = {
            j: cost[j] - sum(cost[b] * table[i][j] for i, b in enumerate(basis) if cost[b])
            for j in columns
        }
        entering = next((j for j in columns if reduced[j] > 0 and j not in basis), None)
        if entering is None:
            return sum((cost[b] * table[i][-1] for i, b in enumerate(basis)), Fraction(0))
        best: tuple[Fraction, int] | None = None
        leave = -1
        for i, line in enumerate(table):
            if line[entering] > 0:
                ratio = line[-1] / line[entering]
                key = (ratio, basis[i])
                if best is None or key < best:
                    best, leave = key, i
        if best is None:
            raise ValueError("the linear program is unbounded")
        _pivot(table, basis, leave, entering)


def _pivot(table: list[list[Fraction]], basis: list[int], row: int, col: int) -> None:
    line = table[row]
    p = line[col]
    table[row] = line = [v / p for v in line]
    for i, other in enumerate(table):
        if i != row and other[col]:
            f = other[col]
            table[i] = [a - f * b for a, b in zip(other, line, strict=True)]
    basis[row] = col


def _drive_out(
    table: list[list[Fraction]], basis: list[int], artificial: set[int], width: int
) -> None:
    """Pivot artificial variables (at zero after phase 1) out of the basis where possible;
    a row where none can leave is redundant and is dropped."""
    i = 0
    while i < len(table):
        if basis[i] in artificial:
            col = next((j for j in range(width) if j not in artificial and table[i][j] != 0), None)
            if col is None:
                del table[i]
                del basis[i]
                continue
            _pivot(table, basis, i, col)
        i += 1
