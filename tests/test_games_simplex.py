"""The exact simplex against vertex enumeration on small random linear programs."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

from exactodds.games.simplex import maximize


def _by_vertices(c: list[int], a: list[list[int]], b: list[int]) -> Fraction | None:
    """max c·z over {a z <= b, z >= 0} in two variables: the best feasible intersection of two
    constraint lines (the box z <= 10 keeps it bounded); None when infeasible."""
    rows = [*a, [-1, 0], [0, -1]]
    rhs = [*b, 0, 0]
    best: Fraction | None = None
    for i, j in combinations(range(len(rows)), 2):
        (p, q), (r, s) = rows[i], rows[j]
        det = p * s - q * r
        if det == 0:
            continue
        x = Fraction(rhs[i] * s - q * rhs[j], det)
        y = Fraction(p * rhs[j] - rhs[i] * r, det)
        if all(u * x + v * y <= w for (u, v), w in zip(rows, rhs, strict=True)):
            value = c[0] * x + c[1] * y
            best = value if best is None or value > best else best
    return best


@pytest.mark.parametrize("seed", range(40))
def test_simplex_finds_the_best_vertex(seed: int) -> None:
    rng = random.Random(seed)
    c = [rng.randint(-5, 5), rng.randint(-5, 5)]
    a = [[rng.randint(-4, 4), rng.randint(-4, 4)] for _ in range(rng.randint(1, 5))]
    b = [rng.randint(-6, 8) for _ in a]
    a += [[1, 0], [0, 1]]  # bounded: z <= 10
    b += [10, 10]
    expected = _by_vertices(c, a, b)
    if expected is None:
        with pytest.raises(ValueError, match="infeasible"):
            maximize(c, a, b)
        return
    sol = maximize(c, a, b)
    assert sol.value == expected
    assert all(
        sum(u * z for u, z in zip(row, sol.point, strict=True)) <= w
        for row, w in zip(a, b, strict=True)
    )
    assert min(sol.point) >= 0 and c[0] * sol.point[0] + c[1] * sol.point[1] == sol.value
