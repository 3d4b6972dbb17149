"""The equilibrium of chemin de fer from its enumerated form (see :mod:`exactodds.games.chemin`).

Linear functions of the free strategy variables are ``(const, {var: coef})`` pairs of exact
numbers; the Player maximises, the Banker minimises the Player's payoff.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactodds.deal.tableau import STOOD
from exactodds.games.chemin import Cell, Form, Info, hand_total
from exactodds.games.rules import CheminRules, GameError
from exactodds.games.simplex import maximize

__all__ = ["Cost", "Game", "Linear", "Solution", "game_value", "polytope", "solve"]

Linear = tuple[Fraction, dict[int, Fraction]]

MAX_PROGRAM = 400
"""Most variables of the Player's linear program (a bound on the work of a hostile rules
file; the bundled rules need under ten in every model)."""


@dataclass(frozen=True)
class Cost:
    """What a fixed rule costs its side per hand: against a best-replying opponent, and
    against the opponent's equilibrium strategy."""

    side: str
    rule: str
    best_reply: Fraction
    equilibrium: Fraction


@dataclass(frozen=True)
class Solution:
    """The value to the Player per hand, both sides' optimal strategies on their free
    information, whether each is the only optimal one, and the cost of common rules."""

    form: Form
    rules: CheminRules
    value: Fraction
    player: tuple[Info, ...]
    banker: tuple[Cell, ...]
    player_unique: bool
    banker_unique: bool
    costs: tuple[Cost, ...]
    x: tuple[Fraction, ...]
    y: tuple[Fraction, ...]

    def mixed_cells(self) -> list[Cell]:
        """The Banker cells where he mixes."""
        return [c for c in self.banker if 0 < c.draw < 1]

    @property
    def unique(self) -> bool:
        """Whether the equilibrium is unique."""
        return self.player_unique and self.banker_unique


class Game:
    """A form with the rules applied: free variables and the pinned ones."""

    def __init__(self, form: Form, rules: CheminRules) -> None:
        self.form = form
        self.rules = rules
        self.free_x = [i for i, h in enumerate(form.players) if hand_total(h) in rules.player_free]
        self.free_y = [
            j for j, (h, col) in enumerate(form.cells) if (hand_total(h), col) in rules.banker_free
        ]
        self.pin_x = [Fraction(int(rules.player_draws(hand_total(h)))) for h in form.players]
        self.pin_y = [
            Fraction(int(rules.banker_draws(hand_total(h), col))) for h, col in form.cells
        ]
        self.by_cell: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        self.by_player: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for (i, j, b), (p, q) in form.terms.items():
            self.by_cell[j].append((i, b, p - q))
            self.by_player[i].append((j, b, p - q))

    def stood(self, j: int) -> bool:
        return self.form.cells[j][1] == STOOD

    def cell_line(self, j: int, b: int, x: Sequence[Fraction] | None) -> Linear:
        """The Player's payoff from cell ``j`` when the Banker plays ``b`` there, as a linear
        function of the free ``x`` (or its value at ``x``)."""
        const, coef = Fraction(0), defaultdict[int, Fraction](Fraction)
        free = set(self.free_x) if x is None else set()
        for i, bb, v in self.by_cell[j]:
            if bb != b:
                continue
            if i in free:
                if self.stood(j):
                    const += v
                    coef[i] -= v
                else:
                    coef[i] += v
            else:
                xi = self.pin_x[i] if x is None else x[i]
                const += v * (1 - xi if self.stood(j) else xi)
        return const, dict(coef)

    def player_line(self, i: int, draws: bool, y: Sequence[Fraction], free: set[int]) -> Linear:
        """The Player's payoff at set ``i`` when he plays ``draws``, linear in ``y`` on
        ``free`` cells and at ``y`` elsewhere."""
        const, coef = Fraction(0), defaultdict[int, Fraction](Fraction)
        for j, b, v in self.by_player[i]:
            if self.stood(j) == draws:
                continue
            if j in free:
                if b:
                    coef[j] += v
                else:
                    const += v
                    coef[j] -= v
            else:
                const += v * (y[j] if b else 1 - y[j])
        return const, dict(coef)

    def full_x(self, values: dict[int, Fraction]) -> list[Fraction]:
        return [values.get(i, self.pin_x[i]) for i in range(len(self.pin_x))]

    def full_y(self, values: dict[int, Fraction]) -> list[Fraction]:
        return [values.get(j, self.pin_y[j]) for j in range(len(self.pin_y))]

    def against_best_banker(self, x: Sequence[Fraction]) -> Fraction:
        """The Player's payoff of ``x`` when the Banker best-replies (cell by cell)."""
        total = Fraction(self.form.natural[0] - self.form.natural[1])
        free = set(self.free_y)
        for j in range(len(self.form.cells)):
            d, s = self.cell_line(j, 1, x)[0], self.cell_line(j, 0, x)[0]
            total += min(d, s) if j in free else (d if self.pin_y[j] else s)
        return total / self.form.universe

    def against_best_player(self, y: Sequence[Fraction]) -> Fraction:
        """The Player's payoff when he best-replies to ``y``."""
        total = Fraction(self.form.natural[0] - self.form.natural[1])
        free = set(self.free_x)
        for i in range(len(self.form.players)):
            d = self.player_line(i, True, y, set())[0]
            s = self.player_line(i, False, y, set())[0]
            total += max(d, s) if i in free else (d if self.pin_x[i] else s)
        return total / self.form.universe


def game_value(form: Form, rules: CheminRules) -> Fraction:
    """The value of the game to the Player per hand alone (no strategies, no uniqueness check):
    a quarter of the work of :func:`solve`."""
    return _player_optimum(_undominated(Game(form, rules)))[0]


def solve(form: Form, rules: CheminRules) -> Solution:
    """The equilibrium of the game ``form`` under ``rules``."""
    game = Game(form, rules)
    value, x = _player_optimum(_undominated(game))
    y, banker_unique = _banker_strategies(game, x)
    x2, player_unique = _player_strategies(game, y)
    assert form.payoff(x2, y)[0] == value == form.payoff(x, y)[0], "not an equilibrium"
    player = tuple(
        Info(form.players[i], x2[i], True)
        for i in sorted(game.free_x, key=lambda i: (hand_total(form.players[i]), form.players[i]))
    )
    banker = tuple(
        Cell(form.cells[j][0], form.cells[j][1], y[j], True)
        for j in sorted(
            game.free_y,
            key=lambda j: (hand_total(form.cells[j][0]), form.cells[j][0], form.cells[j][1]),
        )
    )
    return Solution(
        form,
        rules,
        value,
        player,
        banker,
        player_unique,
        banker_unique,
        _costs(game, value, x2, y),
        tuple(x2),
        tuple(y),
    )


def _undominated(game: Game) -> Game:
    """A copy of ``game`` with strictly dominated actions removed, in turn on each side until
    none is left (Ethier & Gámez's reduction): no equilibrium plays them, and what remains is
    a small linear program."""
    reduced = copy.copy(game)
    reduced.free_x, reduced.pin_x = list(game.free_x), list(game.pin_x)
    reduced.free_y, reduced.pin_y = list(game.free_y), list(game.pin_y)
    changed = True
    while changed:
        changed = False
        for j in list(reduced.free_y):
            low, high = _range(_minus(reduced.cell_line(j, 0, None), reduced.cell_line(j, 1, None)))
            if low > 0 or high < 0:  # the Banker (minimising) draws when S - D > 0
                reduced.free_y.remove(j)
                reduced.pin_y[j] = Fraction(int(low > 0))
                changed = True
        free = set(reduced.free_y)
        for i in list(reduced.free_x):
            gain = _minus(
                reduced.player_line(i, True, reduced.pin_y, free),
                reduced.player_line(i, False, reduced.pin_y, free),
            )
            low, high = _range(gain)
            if low > 0 or high < 0:
                reduced.free_x.remove(i)
                reduced.pin_x[i] = Fraction(int(low > 0))
                changed = True
    return reduced


def _range(line: Linear) -> tuple[Fraction, Fraction]:
    """The least and greatest value of ``line`` on the unit box."""
    low = line[0] + sum(v for v in line[1].values() if v < 0)
    high = line[0] + sum(v for v in line[1].values() if v > 0)
    return low, high


def _player_optimum(game: Game) -> tuple[Fraction, list[Fraction]]:
    """The value and an optimal Player strategy: the linear program of the module docstring."""
    n = len(game.free_x)
    pos = {i: k for k, i in enumerate(game.free_x)}
    const = Fraction(game.form.natural[0] - game.form.natural[1])
    lin = [Fraction(0)] * n
    kept: list[tuple[Linear, Linear]] = []

    def fold(line: Linear) -> None:
        nonlocal const
        const += line[0]
        for i, v in line[1].items():
            lin[pos[i]] += v

    free = set(game.free_y)
    for j in range(len(game.form.cells)):
        if j not in free:
            fold(game.cell_line(j, int(game.pin_y[j]), None))
            continue
        d, s = game.cell_line(j, 1, None), game.cell_line(j, 0, None)
        d0, delta = _minus(s, d)
        low = d0 + sum(v for v in delta.values() if v < 0)
        high = d0 + sum(v for v in delta.values() if v > 0)
        if low > 0:
            fold(d)
        elif high <= 0:
            fold(s)
        else:
            kept.append((d, s))
    k = len(kept)
    if n + k > MAX_PROGRAM:
        raise GameError(
            f"the game's linear program has {n + k} variables once dominated choices are "
            f"removed, over the limit of {MAX_PROGRAM}: free fewer cells"
        )
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for i in range(n):
        rows.append([Fraction(int(c == i)) for c in range(n + k)])
        rhs.append(Fraction(1))
    for m, (d, s) in enumerate(kept):
        lower, upper = (s, d) if s[0] <= d[0] else (d, s)  # t = lower(x) - slack <= upper(x)
        fold(lower)
        row = [Fraction(0)] * (n + k)
        for i, v in lower[1].items():
            row[pos[i]] += v
        for i, v in upper[1].items():
            row[pos[i]] -= v
        row[n + m] = Fraction(-1)
        rows.append(row)
        rhs.append(upper[0] - lower[0])
    sol = maximize([*lin, *([Fraction(-1)] * k)], rows, rhs)
    x = game.full_x({i: sol.point[pos[i]] for i in game.free_x})
    return (const + sol.value) / game.form.universe, x


def _banker_strategies(game: Game, x: list[Fraction]) -> tuple[list[Fraction], bool]:
    """An optimal Banker strategy (his best replies to ``x`` that leave the Player no better
    deviation) and whether it is the only one."""
    best: dict[int, Fraction] = {}
    open_cells: list[int] = []
    for j in game.free_y:
        d, s = game.cell_line(j, 1, x)[0], game.cell_line(j, 0, x)[0]
        if d == s:
            open_cells.append(j)
        else:
            best[j] = Fraction(int(d < s))
    y = game.full_y(best)
    free = set(open_cells)
    eqs: list[Linear] = []
    les: list[Linear] = []
    for i in game.free_x:
        dd = game.player_line(i, True, y, free)
        ss = game.player_line(i, False, y, free)
        _keep_best_reply(x[i], _minus(dd, ss), eqs, les)  # the Player's gain from drawing
    point, unique = polytope(open_cells, eqs, les)
    return game.full_y(best | point), unique


def _player_strategies(game: Game, y: list[Fraction]) -> tuple[list[Fraction], bool]:
    """An optimal Player strategy (his best replies to ``y`` to which ``y`` is a best reply)
    and whether it is the only one."""
    best: dict[int, Fraction] = {}
    open_sets: list[int] = []
    for i in game.free_x:
        d = game.player_line(i, True, y, set())[0]
        s = game.player_line(i, False, y, set())[0]
        if d == s:
            open_sets.append(i)
        else:
            best[i] = Fraction(int(d > s))
    fixed = copy.copy(game)  # the Player free only where he is indifferent to y
    fixed.free_x, fixed.pin_x = open_sets, game.full_x(best)
    eqs: list[Linear] = []
    les: list[Linear] = []
    for j in game.free_y:
        diff = _minus(fixed.cell_line(j, 0, None), fixed.cell_line(j, 1, None))  # S - D
        _keep_best_reply(y[j], diff, eqs, les)
    point, unique = polytope(open_sets, eqs, les)
    return game.full_x(best | point), unique


def _keep_best_reply(p: Fraction, gain: Linear, eqs: list[Linear], les: list[Linear]) -> None:
    """The constraint that keeps a strategy playing an option with probability ``p`` a best
    reply, ``gain`` being that option's gain over the other: indifference when it mixes
    (``gain == 0``), no loss when it always plays it (``-gain <= 0``), no gain when it never
    does (``gain <= 0``)."""
    if 0 < p < 1:
        eqs.append(gain)
    elif p == 1:
        les.append(_neg(gain))
    else:
        les.append(gain)


def _minus(a: Linear, b: Linear) -> Linear:
    zero = Fraction(0)
    return a[0] - b[0], {k: a[1].get(k, zero) - b[1].get(k, zero) for k in set(a[1]) | set(b[1])}


def _neg(a: Linear) -> Linear:
    return -a[0], {k: -v for k, v in a[1].items()}


def polytope(
    names: list[int], eqs: list[Linear], les: list[Linear]
) -> tuple[dict[int, Fraction], bool]:
    """A point of {z in [0,1]^names : eqs == 0, les <= 0} and whether it is the only one;
    ``ValueError`` when there is none."""
    if not names:
        if any(line[0] != 0 for line in eqs) or any(line[0] > 0 for line in les):
            raise ValueError("the linear program is infeasible")
        return {}, True
    pos = {v: k for k, v in enumerate(names)}
    n = len(names)

    def row(line: Linear) -> list[Fraction]:
        out = [Fraction(0)] * n
        for v, c in line[1].items():
            if v in pos:
                out[pos[v]] += c
        return out

    a_ub = [[Fraction(int(c == k)) for c in range(n)] for k in range(n)]
    b_ub = [Fraction(1)] * n
    for line in les:  # a constraint that holds on the whole box is left out
        r = row(line)
        if line[0] + sum(c for c in r if c > 0) > 0:
            a_ub.append(r)
            b_ub.append(-line[0])
    eq = ([row(line) for line in eqs], [-line[0] for line in eqs])
    point = maximize([0] * n, a_ub, b_ub, eq).point
    unique = True
    for k in range(n):
        unit = [Fraction(int(c == k)) for c in range(n)]
        high = maximize(unit, a_ub, b_ub, eq).value
        low = -maximize([-u for u in unit], a_ub, b_ub, eq).value
        unique = unique and high == low
    return {v: point[pos[v]] for v in names}, unique


def _costs(game: Game, value: Fraction, x: list[Fraction], y: list[Fraction]) -> tuple[Cost, ...]:
    """The punto banco tableau and the two pure rules on 5 against optimal opponents."""
    out = []
    for rule, draws in (("always draw on 5 (punto banco)", True), ("always stand on 5", False)):
        xr = list(x)
        for i in game.free_x:
            total = hand_total(game.form.players[i])
            xr[i] = Fraction(int(draws if total == 5 else total in game.rules.base.player))
        out.append(
            Cost(
                "Player",
                rule,
                value - game.against_best_banker(xr),
                value - game.form.payoff(xr, y)[0],
            )
        )
    yr = list(y)
    for j in game.free_y:
        h, col = game.form.cells[j]
        yr[j] = Fraction(int(col in game.rules.base.banker[hand_total(h)]))
    out.append(
        Cost(
            "Banker",
            "the punto banco tableau",
            game.against_best_player(yr) - value,
            game.form.payoff(x, yr)[0] - value,
        )
    )
    return tuple(out)
