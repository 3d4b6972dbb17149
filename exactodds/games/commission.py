"""Chemin de fer with a commission on Banker wins: a bimatrix game, all its Nash equilibria.

With a commission of ``α`` on his wins the Banker gets ``1 − α`` when he wins and pays 1 when he
loses, so the game is no longer zero-sum. As in Ethier & Lee, Games 14 (2023) 63, the Player has
one choice (draw or stand on 5) and the Banker's payoff is additive over his cells, so every
equilibrium is found by the generalisation of Foster's algorithm: the Banker's best reply in a
cell changes only where his gain from drawing there, linear in the Player's probability ``x`` of
drawing, crosses zero. At ``x = 0``, ``x = 1`` and each crossing in between, the Banker's best
replies form a box (free only in the cells where he is indifferent); ``x`` is an equilibrium when
some point of that box leaves the Player indifferent (or, at 0 and 1, not wishing to move).
Each such box is searched exactly with the simplex; between crossings the Banker's reply is fixed,
so an equilibrium there would be a whole interval (reported as not unique).

>>> from exactodds.games.chemin import build_form
>>> from exactodds.games.rules import CheminRules, Model
>>> c = solve_commission(
...     build_form(Model.KEMENY_SNELL, None), CheminRules.named("free-everywhere"), Fraction(0)
... )
>>> c.unique, c.equilibria[0].draw, c.equilibria[0].player
(True, Fraction(9, 11), Fraction(-679568, 53094899))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from exactodds.deal.tableau import STOOD
from exactodds.games.chemin import Cell, Form
from exactodds.games.equilibrium import Game, Linear, polytope
from exactodds.games.rules import CheminRules, GameError

__all__ = ["CommissionSolution", "Equilibrium", "solve_commission"]


@dataclass(frozen=True)
class Equilibrium:
    """A Nash equilibrium: the Player's probability of drawing on his free hand, the Banker's
    mixed cells, and each side's expected payoff per hand (the Banker's after commission)."""

    draw: Fraction | None
    mixed: tuple[Cell, ...]
    player: Fraction
    banker: Fraction
    x: tuple[Fraction, ...]
    y: tuple[Fraction, ...]


@dataclass(frozen=True)
class CommissionSolution:
    """Every Nash equilibrium of the game with ``commission`` and whether there is only one."""

    commission: Fraction
    equilibria: tuple[Equilibrium, ...]
    unique: bool


def solve_commission(form: Form, rules: CheminRules, commission: Fraction) -> CommissionSolution:
    """The Nash equilibria of chemin de fer when the Banker pays ``commission`` on his wins."""
    if not 0 <= commission < 1:
        raise GameError(f"the commission must be at least 0 and under 100%, not {commission}")
    game = Game(form, rules)
    if len(game.free_x) > 1:
        raise GameError(
            "a commission needs a game where the Player has one choice (draw or stand on his "
            f"total of 5); this one has {len(game.free_x)}: use kemeny-snell or downton-lockwood"
        )
    i0 = game.free_x[0] if game.free_x else -1  # -1: the shoe leaves the Player no choice
    gains = {j: _banker_gain(game, j, i0, commission) for j in game.free_y}
    roots = {Fraction(0), Fraction(1)} if i0 >= 0 else {Fraction(0)}
    for c0, c1 in gains.values():
        if c1 and 0 < -c0 / c1 < 1:
            roots.add(-c0 / c1)
    points = sorted(roots)
    found: list[Equilibrium] = []
    unique = True
    for x in points:
        eq = _at(game, gains, i0, x, commission)
        if eq is not None:
            found.append(eq[0])
            unique = unique and eq[1]
    for a, b in pairwise(points):
        if _at(game, gains, i0, (a + b) / 2, commission) is not None:
            unique = False  # a whole interval of equilibria
    return CommissionSolution(commission, tuple(found), unique and len(found) == 1)


def _banker_gain(game: Game, j: int, i0: int, commission: Fraction) -> tuple[Fraction, Fraction]:
    """The Banker's gain from drawing in cell ``j`` (after commission), as ``c0 + c1·x``."""
    c0 = c1 = Fraction(0)
    stood = game.form.cells[j][1] == STOOD
    for i, b, _ in game.by_cell[j]:
        p, q = game.form.terms[i, j, b]
        v = ((1 - commission) * q - p) * (1 if b else -1)
        if i == i0:
            c0, c1 = (c0 + v, c1 - v) if stood else (c0, c1 + v)
        else:
            xi = game.pin_x[i]
            c0 += v * (1 - xi if stood else xi)
    return c0, c1


def _at(
    game: Game,
    gains: dict[int, tuple[Fraction, Fraction]],
    i0: int,
    x: Fraction,
    commission: Fraction,
) -> tuple[Equilibrium, bool] | None:
    """The equilibrium with the Player drawing with probability ``x``, if there is one, and
    whether the Banker's strategy in it is the only one."""
    best: dict[int, Fraction] = {}
    open_cells: list[int] = []
    for j, (c0, c1) in gains.items():
        g = c0 + c1 * x
        if g == 0:
            open_cells.append(j)
        else:
            best[j] = Fraction(int(g > 0))
    y = game.full_y(best)
    eqs: list[Linear] = []
    les: list[Linear] = []
    if i0 >= 0:
        gain = _player_gain(game, i0, y, set(open_cells))
        if 0 < x < 1:
            eqs.append(gain)
        else:
            les.append(gain if x == 0 else (-gain[0], {k: -v for k, v in gain[1].items()}))
    try:
        point, unique = polytope(open_cells, eqs, les)
    except ValueError:
        return None
    y = game.full_y(best | point)
    xs = list(game.pin_x)
    if i0 >= 0:
        xs[i0] = x
    player, banker = game.form.payoff(xs, y, commission)
    mixed = tuple(
        Cell(game.form.cells[j][0], game.form.cells[j][1], y[j], True)
        for j in sorted(game.free_y, key=lambda j: game.form.cells[j])
        if 0 < y[j] < 1
    )
    draw = x if i0 >= 0 else None
    return Equilibrium(draw, mixed, player, banker, tuple(xs), tuple(y)), unique


def _player_gain(game: Game, i0: int, y: list[Fraction], free: set[int]) -> Linear:
    """The Player's gain from drawing on his free hand, linear in ``y`` on ``free`` cells."""
    draw = game.player_line(i0, True, y, free)
    stand = game.player_line(i0, False, y, free)
    keys = set(draw[1]) | set(stand[1])
    zero = Fraction(0)
    return draw[0] - stand[0], {k: draw[1].get(k, zero) - stand[1].get(k, zero) for k in keys}
