"""Baccara banque: one Banker against two Player hands, cards dealt with replacement, solved
exactly as a two-person zero-sum game between the Banker and the two hands acting as a team.

Each Player hand sees its own total and draws on 0-4, stands on 6-7 and chooses on 5; the
Banker sees his total and each hand's state (a natural, stood, or its face-up third card) and
plays one decision, free in every cell, against both; his payoff is minus the sum of the two
hands' +1/-1/0. The team's pure strategies are its four joint choices on 5 (left, right); its
mix ``z`` over them may be correlated. The Banker's best reply decomposes cell by cell, so the
team's problem is the linear program ``max C(z) + Σ_c t_c``, ``t_c <= draw_c(z)``,
``t_c <= stand_c(z)``, ``Σ z = 1`` (exact simplex over Fractions). Whether the team's optimum
is two independent, equal mixes, and whether those with the Banker's optimum are a Nash
equilibrium of the three-person game (no hand gains alone, by its own result), is checked
exactly.

On a tiny shoe (the infinite shoe's figures are in docs/games.md):

>>> s = solve_banque(build_banque(Shoe.from_rank_counts({"T": 2, "5": 2, "7": 2})))
>>> s.value, [str(v) for v in s.joint], s.unique, s.nash, s.mixed_cells()
(Fraction(-40, 19683), ['0', '0', '0', '1'], True, True, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD
from exactodds.games.chemin import _value_counts as value_counts
from exactodds.games.equilibrium import MAX_PROGRAM, Linear, polytope
from exactodds.games.equilibrium import _keep_best_reply as keep_best_reply
from exactodds.games.rules import GameError
from exactodds.games.simplex import maximize

__all__ = [
    "JOINT",
    "NATURAL",
    "BanqueCell",
    "BanqueForm",
    "BanqueSolution",
    "build_banque",
    "cell_lines",
    "solve_banque",
    "state_name",
]

NATURAL = -1
"""A hand's state when it holds a natural (settled at once; the Banker plays the other)."""

PLAYER_DRAWS = frozenset(range(5))
"""Player totals that always draw; 5 is his choice, 6-7 always stand."""

PLAYER_FREE = 5
"""The Player total where each hand chooses (on its total alone, not on the other hand's
natural, which it could see: a modelling choice of this module)."""

JOINT: tuple[tuple[bool, bool], ...] = ((True, True), (True, False), (False, True), (False, False))
"""The team's pure strategies: (left hand draws on 5, right hand draws on 5)."""

STATES: tuple[int, ...] = (NATURAL, STOOD, *range(10))


def state_name(state: int) -> str:
    """A hand's state as the Banker sees it: ``natural``, ``stood`` or its third card."""
    return "natural" if state == NATURAL else "stood" if state == STOOD else str(state)


CellKey = tuple[int, int, int]  # (Banker total, left hand's state, right hand's state)


@dataclass(frozen=True)
class BanqueForm:
    """The enumerated deal, in card sequences of nine cards out of :attr:`universe`:
    ``constant[h]`` is hand ``h``'s net wins settled by naturals, and ``terms[k][c]`` the
    net wins of (left, right) when the team plays ``JOINT[k]`` and the Banker stands (index 0)
    or draws (1) in cell ``cells[c]``."""

    universe: int
    shoe_text: str
    constant: tuple[int, int]
    cells: tuple[CellKey, ...]
    terms: tuple[tuple[tuple[tuple[int, int], tuple[int, int]], ...], ...]

    def hand_payoffs(self, z: Sequence[Fraction], y: Sequence[Fraction]) -> tuple[Fraction, ...]:
        """(left, right) expected payoff per deal of the team's joint mix ``z`` and the
        Banker's draw probabilities ``y``."""
        out = []
        for h in (0, 1):
            total = Fraction(self.constant[h]) * sum(z, Fraction(0))
            for k, zk in enumerate(z):
                if zk:
                    total += zk * sum(
                        (1 - yc) * s[h] + yc * d[h]
                        for yc, (s, d) in zip(y, self.terms[k], strict=True)
                    )
            out.append(total / self.universe)
        return tuple(out)


def _two_card_totals(counts: Sequence[int]) -> list[int]:
    """Ordered two-card sequences (with replacement) by total."""
    out = [0] * 10
    for a, na in enumerate(counts):
        for b, nb in enumerate(counts):
            out[(a + b) % 10] += na * nb
    return out


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def build_banque(shoe: Shoe | None) -> BanqueForm:
    """Enumerate the deal by card values, with replacement, in the proportions of ``shoe``
    (``None``: one deck's, the infinite shoe)."""
    counts = value_counts(shoe)
    n = sum(counts)
    if n == 0:
        raise GameError("the shoe has no cards")
    two = _two_card_totals(counts)
    deal = _Deal(counts)
    for bt in range(10):
        for ta in range(10):
            for tb in range(10):
                w = two[bt] * two[ta] * two[tb]
                if w:
                    deal.deal(bt, ta, tb, w)
    cells = tuple(deal.index)
    terms = tuple(
        tuple(
            ((r[0], r[1]), (r[2], r[3]))
            for r in (a.get(c, [0, 0, 0, 0]) for c in range(len(cells)))
        )
        for a in deal.acc
    )
    text = "infinite shoe" if shoe is None else shoe.describe()
    constant = (deal.constant[0], deal.constant[1])
    return BanqueForm(n**9, f"{text}, with replacement", constant, cells, terms)


class _Deal:
    """The enumeration's state: the cells found and each joint play's sums so far."""

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts = counts
        self.n = n = sum(counts)
        # a Player's final f against a Banker on bt: net wins over the Banker's slot (n cards)
        self.stand = [[n * _sign(f, bt) for f in range(10)] for bt in range(10)]
        self.draw = [
            [sum(c * _sign(f, (bt + b) % 10) for b, c in enumerate(counts)) for f in range(10)]
            for bt in range(10)
        ]
        self.index: dict[CellKey, int] = {}
        self.acc: list[dict[int, list[int]]] = [{} for _ in JOINT]
        self.constant = [0, 0]

    def outcomes(self, t: int, draws5: bool) -> list[tuple[int, int, int]]:
        """(state, final total, weight over one card slot) of a hand on ``t``."""
        if t >= 8:
            return [(NATURAL, t, self.n)]
        if t in PLAYER_DRAWS or (t == PLAYER_FREE and draws5):
            return [(c, (t + c) % 10, w) for c, w in enumerate(self.counts) if w]
        return [(STOOD, t, self.n)]

    def deal(self, bt: int, ta: int, tb: int, w: int) -> None:
        """The rest of a deal of weight ``w`` (out of ``n**6``) once the three hands are
        dealt: the hands' plays of each joint strategy and both Banker actions."""
        n3 = w * self.n**3
        if bt >= 8 or (ta >= 8 and tb >= 8):
            self.constant[0] += n3 * _sign(ta, bt)
            self.constant[1] += n3 * _sign(tb, bt)
            return
        for h, t in ((0, ta), (1, tb)):
            if t >= 8:  # a natural against a Banker without one
                self.constant[h] += n3
        groups: dict[tuple[bool, bool], list[int]] = {}
        for k, (left, right) in enumerate(JOINT):  # joint plays that differ here
            groups.setdefault((left and ta == PLAYER_FREE, right and tb == PLAYER_FREE), []).append(
                k
            )
        stand, draw = self.stand[bt], self.draw[bt]
        for (left, right), ks in groups.items():
            for sa, fa, wa in self.outcomes(ta, left):
                for sb, fb, wb in self.outcomes(tb, right):
                    c = self.index.setdefault((bt, sa, sb), len(self.index))
                    ww = w * wa * wb
                    add = [0, 0, 0, 0]
                    for h, (s, f) in enumerate(((sa, fa), (sb, fb))):
                        if s != NATURAL:
                            add[h] = ww * stand[f]
                            add[2 + h] = ww * draw[f]
                    for k in ks:
                        row = self.acc[k].setdefault(c, [0, 0, 0, 0])
                        for m in range(4):
                            row[m] += add[m]


@dataclass(frozen=True)
class BanqueCell:
    """A Banker cell (his total, the left and right hands' states) and his draw probability."""

    total: int
    left: int
    right: int
    draw: Fraction

    def __str__(self) -> str:
        return f"{self.total} v {state_name(self.left)}, {state_name(self.right)}"


@dataclass(frozen=True)
class BanqueSolution:
    """The team game's solution and the three-person checks.

    ``value`` is the two hands' expected payoff per deal (the Banker's edge per hand is
    ``-value / 2``); ``joint`` the team's optimal mix over :data:`JOINT`; ``player_draw`` the
    probability with which each hand draws on 5 when that mix is two equal, independent ones
    (else ``None``); ``nash`` whether those with the Banker's ``y`` are a Nash equilibrium of
    the three-person game (each hand paid its own result).
    """

    form: BanqueForm
    value: Fraction
    joint: tuple[Fraction, ...]
    y: tuple[Fraction, ...]
    team_unique: bool
    banker_unique: bool
    player_draw: Fraction | None
    nash: bool
    deviation: tuple[Fraction, Fraction] | None
    """With independent mixes: a hand's own payoff per deal drawing, and standing, on 5
    against the others' optimum."""

    @property
    def banker_edge(self) -> Fraction:
        """The Banker's expected gain per Player hand."""
        return -self.value / 2

    @property
    def unique(self) -> bool:
        """Whether the team game's equilibrium is unique."""
        return self.team_unique and self.banker_unique

    def cell(self, c: int) -> BanqueCell:
        """Cell ``c`` with the Banker's draw probability."""
        return BanqueCell(*self.form.cells[c], self.y[c])

    def mixed_cells(self) -> list[BanqueCell]:
        """The cells where the Banker mixes, by total and states."""
        out = [self.cell(c) for c, v in enumerate(self.y) if 0 < v < 1]
        return sorted(out, key=lambda b: (b.total, STATES.index(b.left), STATES.index(b.right)))


def cell_lines(form: BanqueForm, c: int) -> tuple[list[int], list[int]]:
    """The team's net wins in cell ``c`` by joint play: Banker standing, Banker drawing."""
    return (
        [sum(form.terms[k][c][0]) for k in range(len(JOINT))],
        [sum(form.terms[k][c][1]) for k in range(len(JOINT))],
    )


def solve_banque(form: BanqueForm) -> BanqueSolution:
    """The exact solution of the team game, and the three-person checks."""
    nk = len(JOINT)
    base = [Fraction(sum(form.constant))] * nk
    kept: list[int] = []
    idle: list[int] = []
    for c in range(len(form.cells)):
        s, d = cell_lines(form, c)
        if s == d:
            idle.append(c)
        if all(a <= b for a, b in zip(s, d, strict=True)):
            base = [v + a for v, a in zip(base, s, strict=True)]  # the Banker stands
        elif all(b <= a for a, b in zip(s, d, strict=True)):
            base = [v + b for v, b in zip(base, d, strict=True)]  # the Banker draws
        else:
            kept.append(c)
    if nk + len(kept) > MAX_PROGRAM:
        raise GameError(
            f"the game's linear program has {nk + len(kept)} variables once dominated choices "
            f"are removed, over the limit of {MAX_PROGRAM}"
        )
    # t_c = lower_c(z) - slack_c, with lower - slack <= upper; z sums to 1
    obj = list(base) + [Fraction(-1)] * len(kept)
    rows: list[list[Fraction]] = []
    for m, c in enumerate(kept):
        s, d = cell_lines(form, c)
        lower, upper = (s, d) if s[0] <= d[0] else (d, s)
        for k in range(nk):
            obj[k] += lower[k]
        row = [Fraction(lower[k] - upper[k]) for k in range(nk)] + [Fraction(0)] * len(kept)
        row[nk + m] = Fraction(-1)
        rows.append(row)
    eq = ([[Fraction(1)] * nk + [Fraction(0)] * len(kept)], [Fraction(1)])
    zero = [Fraction(0)] * len(kept)
    sol = maximize(obj, rows, zero, eq)
    value = sol.value / form.universe
    z = list(sol.point[:nk])
    y, banker_unique = _banker(form, z, sol.value, idle)
    z, team_unique = _team(form, y, sol.value, z)
    draw, nash, deviation = _three_person(form, z, y)
    return BanqueSolution(
        form, value, tuple(z), tuple(y), team_unique, banker_unique, draw, nash, deviation
    )


def _payoff_line(form: BanqueForm, k: int, open_cells: set[int], y: list[Fraction]) -> Linear:
    """The team's net wins under ``JOINT[k]``, linear in ``y`` on ``open_cells``."""
    const, coef = Fraction(sum(form.constant)), {}
    for c, (s, d) in enumerate(form.terms[k]):
        if c in open_cells:
            const += sum(s)
            coef[c] = Fraction(sum(d) - sum(s))
        else:
            const += sum(s) + y[c] * (sum(d) - sum(s))
    return const, coef


def _draw_gain(form: BanqueForm, z: Sequence[Fraction], c: int) -> Fraction:
    """The team's gain under the mix ``z`` when the Banker draws in cell ``c`` rather than
    stands (he draws when it is negative)."""
    s, d = cell_lines(form, c)
    return sum((zk * (b - a) for zk, a, b in zip(z, s, d, strict=True)), Fraction(0))


def _banker(
    form: BanqueForm, z: list[Fraction], best: Fraction, idle: list[int]
) -> tuple[list[Fraction], bool]:
    """An optimal Banker strategy (best replies to ``z`` leaving the team no better joint
    play) and whether it is the only one; idle cells (no action matters) stand."""
    y = [Fraction(0)] * len(form.cells)
    skip = set(idle)
    open_cells: list[int] = []
    for c in range(len(form.cells)):
        if c in skip:
            continue
        gap = _draw_gain(form, z, c)
        if gap == 0:
            open_cells.append(c)
        else:
            y[c] = Fraction(int(gap < 0))
    eqs: list[Linear] = []
    les: list[Linear] = []
    for k in range(len(JOINT)):
        const, coef = _payoff_line(form, k, set(open_cells), y)
        (eqs if z[k] else les).append((const - best, coef))
    pinned = _unique_solution(
        [[line[1].get(c, Fraction(0)) for c in open_cells] for line in eqs],
        [-line[0] for line in eqs],
    )
    if pinned is not None and all(0 <= v <= 1 for v in pinned):
        point, unique = dict(zip(open_cells, pinned, strict=True)), True  # an optimum exists
    else:
        point, unique = polytope(open_cells, eqs, les)
    for c, v in point.items():
        y[c] = v
    return y, unique


def _team(
    form: BanqueForm, y: list[Fraction], best: Fraction, z: list[Fraction]
) -> tuple[list[Fraction], bool]:
    """An optimal team mix (best replies to ``y`` to which ``y`` is a best reply) and whether
    it is the only one; a cell whose condition holds for every mix is left out. When the
    equalities alone pin a point, that is the optimal ``z`` found and it is unique."""
    support = [k for k in range(len(JOINT)) if _payoff_line(form, k, set(), y)[0] == best]
    eqs: list[Linear] = [(Fraction(-1), dict.fromkeys(support, Fraction(1)))]
    les: list[Linear] = []
    for c in range(len(form.cells)):
        s, d = cell_lines(form, c)
        gain = {k: Fraction(s[k] - d[k]) for k in support}  # the Banker's gain if he draws
        if any(gain.values()):
            keep_best_reply(y[c], (Fraction(0), gain), eqs, les)
    rows = [[line[1].get(k, Fraction(0)) for k in support] for line in eqs]
    if _unique_solution(rows, [-line[0] for line in eqs]) is not None:
        return z, True  # the equalities pin one point: the optimal z
    point, unique = polytope(support, eqs, les)
    return [point.get(k, Fraction(0)) for k in range(len(JOINT))], unique


def _unique_solution(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The solution of ``rows · v = rhs`` when there is exactly one (exact elimination)."""
    n = len(rows[0]) if rows else 0
    table = [[*r, b] for r, b in zip(rows, rhs, strict=True)]
    rank = 0
    for col in range(n):
        pivot = next((i for i in range(rank, len(table)) if table[i][col]), None)
        if pivot is None:
            return None  # a free direction, or no unknown pinned
        table[rank], table[pivot] = table[pivot], table[rank]
        lead = table[rank][col]
        table[rank] = [v / lead for v in table[rank]]
        for i in range(len(table)):
            if i != rank and table[i][col]:
                f = table[i][col]
                table[i] = [a - f * b for a, b in zip(table[i], table[rank], strict=True)]
        rank += 1
    if n == 0 or any(row[-1] for row in table[rank:]):
        return None
    return [table[i][-1] for i in range(n)]


def _three_person(
    form: BanqueForm, z: list[Fraction], y: list[Fraction]
) -> tuple[Fraction | None, bool, tuple[Fraction, Fraction] | None]:
    """Whether ``z`` is two equal independent mixes (each hand's draw probability on 5) and
    whether those with ``y`` are a Nash equilibrium of the three-person game."""
    dd, ds, sd, ss = z
    x = dd + ds
    if ds != sd or dd * ss != ds * sd:
        return None, False, None
    # the left hand alone draws (or stands) on 5, the right keeps its mix x; its own payoff
    drawing = form.hand_payoffs([x, 1 - x, Fraction(0), Fraction(0)], y)[0]
    standing = form.hand_payoffs([Fraction(0), Fraction(0), x, 1 - x], y)[0]
    right_d = form.hand_payoffs([x, Fraction(0), 1 - x, Fraction(0)], y)[1]
    right_s = form.hand_payoffs([Fraction(0), x, Fraction(0), 1 - x], y)[1]
    hands_ok = all(
        (d == s) if 0 < x < 1 else (d >= s if x == 1 else s >= d)
        for d, s in ((drawing, standing), (right_d, right_s))
    )
    gaps = [_draw_gain(form, z, c) for c in range(len(form.cells))]
    banker_ok = not any(
        (gap < 0 and y[c] != 1) or (gap > 0 and y[c] != 0) for c, gap in enumerate(gaps)
    )
    return x, hands_ok and banker_ok, (drawing, standing)
