"""The exact joint distribution of one baccarat round over the round features of docs/rules.md §4.

Every round is counted as an ordered sequence of six cards drawn from the shoe (cards five and
six may go unused), so all counts share the universe N·(N−1)·…·(N−5).

Method (details above ``_pair_tables``). The first four cards are counted by value, with the
player/banker pair kinds split off by closed forms in the per-rank suit counts, so suits cost
nothing. What happens next is a polynomial of degree two in the values the first four removed,
so each class (player total, banker total, pair kinds) needs only three moments of its
first-four sequences, not one subtree per sequence. Who draws after the first four is read from
the round module's continuation table (:func:`~exactodds.deal.round.continuations`). The 8-deck
joint takes ~20 ms.

>>> j = joint_distribution(Shoe.decks(8))
>>> j.total
4998398275503360
>>> j.winner_counts()[Winner.BANKER]
2292252566437888
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import perm
from typing import TYPE_CHECKING, TypeVar

from exactodds.deal.round import Hand, Outcome, Winner, continuations, feature_record, hand_code
from exactodds.deal.shoe import RANK_VALUES, Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import require

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Joint", "joint_distribution", "winners_of"]

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Joint:
    """Exact joint distribution of round outcomes: integer combinations out of :attr:`total`.

    >>> j = joint_distribution(Shoe.decks(8))
    >>> j.probability(lambda o: o.player.pair)  # 13·32·31 / (416·415)
    Fraction(31, 415)
    """

    shoe: Shoe
    tableau: Tableau
    counts: Mapping[Outcome, int] = field(repr=False, compare=False)

    @property
    def total(self) -> int:
        """Size of the six-card universe: N·(N−1)·…·(N−5)."""
        return perm(self.shoe.size, 6)

    def count(self, predicate: Callable[[Outcome], bool]) -> int:
        """Combinations of the outcomes satisfying ``predicate``."""
        return sum(n for o, n in self.counts.items() if predicate(o))

    def probability(self, predicate: Callable[[Outcome], bool]) -> Fraction:
        """Exact probability of ``predicate``."""
        return Fraction(self.count(predicate), self.total)

    def marginal(self, key: Callable[[Outcome], K]) -> Counter[K]:
        """Combinations grouped by ``key(outcome)``.

        >>> j = joint_distribution(Shoe.decks(8))
        >>> j.marginal(lambda o: o.winner) == j.winner_counts()  # by outcome, by final totals
        True
        """
        out: Counter[K] = Counter()
        for o, n in self.counts.items():
            out[key(o)] += n
        return out

    def winner_counts(self) -> dict[Winner, int]:
        """Combinations of Banker wins, Player wins and Ties (from :meth:`totals_table`)."""
        return winners_of(self.totals_table())

    def totals_table(self) -> dict[tuple[int, int], int]:
        """Combinations by (player final total, banker final total).

        Inlined (no per-outcome properties) because the CLI calls it on every run.
        """
        out: dict[tuple[int, int], int] = {}
        for ((p0, p3, _), (b0, b3, _)), n in self.counts.items():
            key = (p0 if p3 is None else (p0 + p3) % 10, b0 if b3 is None else (b0 + b3) % 10)
            out[key] = out.get(key, 0) + n
        return out

    def __repr__(self) -> str:
        """One line: shoe, tableau and the size of the universe.

        >>> joint_distribution(Shoe.decks(8))
        <Joint 8 decks (416 cards), punto-banco: 4,998,398,275,503,360 card sequences>
        """
        return f"<Joint {self.shoe.describe()}, {self.tableau.name}: {self.total:,} card sequences>"

    def _winners(self) -> list[tuple[str, int, Fraction]]:
        return [(w.value, n, Fraction(n, self.total)) for w, n in self.winner_counts().items()]

    def _repr_html_(self) -> str:
        """Banker, Player and Tie: combinations and probability, for notebooks."""
        from exactodds.notebook import html_table

        caption = f"{self.shoe.describe()}, {self.tableau.name}: {self.total:,} card sequences"
        return html_table(("winner", "combinations", "probability"), self._winners(), caption)

    def to_frame(self) -> pd.DataFrame:
        """Combinations and probability by (player total, banker total) as a DataFrame
        (extra ``pandas``)."""
        from exactodds.notebook import frame

        rows = [
            (p, b, n, Fraction(n, self.total)) for (p, b), n in sorted(self.totals_table().items())
        ]
        return frame(("player_total", "banker_total", "combinations", "probability"), rows)

    @cached_property
    def records(self) -> tuple[tuple[tuple[object, ...], int], ...]:
        """Every outcome as (:func:`feature_record`, combinations); computed once per joint."""
        return tuple((feature_record(o), n) for o, n in self.counts.items())

    def __iter__(self) -> Iterator[tuple[Outcome, int]]:
        return iter(self.counts.items())


# -- the enumeration ---------------------------------------------------------------------------
#
# Notation: V[v] cards of value v in the shoe, m = N − 4 cards left after the first four. The
# first four cards are P1 B1 P2 B2 with values v0 v1 v2 v3; pt = v0 + v2 and bt = v1 + v3
# (mod 10), so within a class (pt, bt) a first-four value sequence is fixed by (v0, v1).
#
# 1. First four, by pair kinds. Without suits, sequences with values v0..v3 number
#    V[v0]·(V[v1]−[v1=v0])·… (G). A player pair of rank a and kind k (pair / perfect) has
#    K_a[k] ordered suit choices; whatever the player holds, the banker's non-pair count
#    depends only on ranks, so every (player kind, banker kind) count is a short closed form
#    in per-value sums of K_a (see _pair_tables); "no pair, no pair" is G minus the rest.
# 2. Cards five and six. With r the values removed by the first four, the third-card weights
#    are polynomials of degree ≤ 2 in r: (V[x]−r_x)(V[y]−[x=y]−r_y), (V[x]−r_x)(m−1), m(m−1).
#    So each class (pt, bt, kinds) needs only the moments S0 = Σn, S1 = Σn·r, S2 = Σn·r·rᵀ of
#    its first-four sequences, and those are accumulated ten values at a time.


def _pair_tables(
    shoe: Shoe,
) -> tuple[list[list[int]], list[list[int]], list[list[list[int]]], list[int]]:
    """Per value v and pair kind k (1 pair, 2 perfect): ``kp[v][k]`` = Σ_a K_a[k] over ranks a
    of value v (ordered two-card pairs of rank a of kind k); ``kd[v][k]`` = Σ_a K_a[k]·D_a with
    D_a = R_a(R_a−1) − (R_a−2)(R_a−3), the fall in rank-a pairs once two rank-a cards are gone;
    ``kk[v][pk][bk]`` = Σ_a (B_a[pk,bk] − K_a[pk]·K_a[bk]) with B_a the four-cards-of-rank-a
    count by both kinds; ``q[v]`` = Σ_a R_a(R_a−1)."""
    kp = [[0, 0, 0] for _ in range(10)]
    kd = [[0, 0, 0] for _ in range(10)]
    kk = [[[0, 0, 0] for _ in range(3)] for _ in range(10)]
    q = [0] * 10
    for rank, suits in enumerate(shoe.counts):
        r = sum(suits)
        if r < 2:
            continue
        v = RANK_VALUES[rank]
        two = r * (r - 1)
        rest = (r - 2) * (r - 3)
        perfect = sum(c * (c - 1) for c in suits)
        kinds = (0, two - perfect, perfect)
        q[v] += two
        # Four cards of rank a: both perfect, one perfect (either hand), neither.
        both = (
            perfect * perfect
            - sum((c * (c - 1)) ** 2 for c in suits)
            + sum(c * (c - 1) * (c - 2) * (c - 3) for c in suits)
        )
        one = perfect * rest - both
        block = ((0, 0, 0), (0, two * rest - both - 2 * one, one), (0, one, both))
        for pk in (1, 2):
            kp[v][pk] += kinds[pk]
            kd[v][pk] += kinds[pk] * (two - rest)
            for bk in (1, 2):
                kk[v][pk][bk] += block[pk][bk] - kinds[pk] * kinds[bk]
    return kp, kd, kk, q


class _Moments:
    """Moments of the first-four sequences of one class (pt, bt, kinds), kept as row sums over
    v0, column sums over v1 and the cross term Σ n·p·bᵀ (p, b: values the player / banker
    removed), from which S0, S1, S2 follow."""

    __slots__ = ("cols", "cross", "rows")

    def __init__(self, cross: bool) -> None:
        self.rows = [0] * 10
        self.cols = [0] * 10
        self.cross = [[0] * 10 for _ in range(10)] if cross else None

    def add_row(self, pt: int, bt: int, v0: int, vec: list[int]) -> None:
        """Add sequences with player first card v0 and banker first card v1, counts vec[v1]."""
        self.rows[v0] += sum(vec)
        self.cols = [a + b for a, b in zip(self.cols, vec, strict=True)]
        if self.cross is not None:
            nb = [vec[y] + vec[(bt - y) % 10] for y in range(10)]
            for x in (v0, (pt - v0) % 10):
                self.cross[x] = [a + b for a, b in zip(self.cross[x], nb, strict=True)]

    def add_col(self, pt: int, bt: int, v1: int, vec: list[int]) -> None:
        """Add sequences with banker first card v1 and player first card v0, counts vec[v0]."""
        self.cols[v1] += sum(vec)
        self.rows = [a + b for a, b in zip(self.rows, vec, strict=True)]
        if self.cross is not None:
            pn = [vec[x] + vec[(pt - x) % 10] for x in range(10)]
            for y in (v1, (bt - v1) % 10):
                for x in range(10):
                    self.cross[x][y] += pn[x]

    def add_one(self, v0: int, v1: int, n: int) -> None:
        """Add n sequences where the player holds two v0 and the banker two v1."""
        self.rows[v0] += n
        self.cols[v1] += n
        if self.cross is not None:
            self.cross[v0][v1] += 4 * n

    def subtract(self, other: _Moments) -> None:
        """Remove another class's sequences (they were counted here too)."""
        self.rows = [a - b for a, b in zip(self.rows, other.rows, strict=True)]
        self.cols = [a - b for a, b in zip(self.cols, other.cols, strict=True)]
        if self.cross is not None and other.cross is not None:
            self.cross = [
                [a - b for a, b in zip(ra, rb, strict=True)]
                for ra, rb in zip(self.cross, other.cross, strict=True)
            ]

    def s0_s1(self, pt: int, bt: int) -> tuple[int, list[int]]:
        rows, cols = self.rows, self.cols
        s1 = [rows[x] + rows[(pt - x) % 10] + cols[x] + cols[(bt - x) % 10] for x in range(10)]
        return sum(rows), s1

    def s2(self, pt: int, bt: int) -> list[list[int]]:
        assert self.cross is not None
        rows, cols, cross = self.rows, self.cols, self.cross
        out = []
        for x in range(10):
            px, bx = (pt - x) % 10, (bt - x) % 10
            rx, cx = rows[x] + rows[px], cols[x] + cols[bx]
            line = [cross[x][y] + cross[y][x] for y in range(10)]
            line[x] += rx + cx
            line[px] += rx
            line[bx] += cx
            out.append(line)
        return out


_HANDS = {
    (initial, third, kind): Hand.from_code(hand_code(initial, third, kind))
    for initial in range(10)
    for third in range(11)
    for kind in range(3)
}


def winners_of(table: dict[tuple[int, int], int]) -> dict[Winner, int]:
    """Combinations of Banker wins, Player wins and Ties in a :meth:`Joint.totals_table`
    (which ``odds`` computes once for both).

    >>> winners_of({(9, 8): 3, (0, 0): 2, (1, 7): 5})[Winner.BANKER]
    5
    """
    out = dict.fromkeys(Winner, 0)
    for (p, b), n in table.items():
        out[Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE] += n
    return out


@lru_cache(maxsize=64)
def joint_distribution(  # noqa: PLR0912, PLR0915 - the hot loop, kept whole for speed
    shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> Joint:
    """The exact joint distribution of a round dealt from ``shoe`` under ``tableau``.

    >>> j = joint_distribution(Shoe.decks(1).remove("K K K K"))
    >>> sum(j.counts.values()) == j.total
    True
    """
    require(shoe, (Shoe,), "shoe")
    require(tableau, (Tableau,), "tableau")
    vals = shoe.value_counts
    m = shoe.size - 4
    kp, kd, kk, q = _pair_tables(shoe)
    table = continuations(tableau)
    acc: dict[tuple[int, int, int, int], _Moments] = {}

    def moments(pt: int, bt: int, pk: int, bk: int) -> _Moments:
        key = (pt, bt, pk, bk)
        found = acc.get(key)
        if found is None:
            found = acc[key] = _Moments(table[pt][bt].player_draws)
        return found

    # All first-four sequences by value (G), whatever their pair kinds.
    for v0 in range(10):
        for v2 in range(10):
            head = vals[v0] * (vals[v2] - (v0 == v2))
            if head <= 0:
                continue
            left = list(vals)
            left[v0] -= 1
            left[v2] -= 1
            pt = (v0 + v2) % 10
            for bt in range(10):
                vec = [
                    head * left[v1] * (left[(bt - v1) % 10] - (2 * v1 % 10 == bt))
                    for v1 in range(10)
                ]
                if any(vec):
                    moments(pt, bt, 0, 0).add_row(pt, bt, v0, vec)
    # Player pairs (v0 = v2 = v) with a banker non-pair, and the mirror image.
    for v in range(10):
        if not kp[v][1] and not kp[v][2]:
            continue
        left = list(vals)
        left[v] -= 2
        both = 2 * v % 10
        for k in (1, 2):
            if not kp[v][k]:
                continue
            for other in range(10):
                player_vec = [
                    kp[v][k] * left[w] * (left[(other - w) % 10] - (2 * w % 10 == other))
                    - (2 * w % 10 == other) * (kp[v][k] * q[w] - (w == v) * kd[v][k])
                    for w in range(10)
                ]
                if any(player_vec):
                    moments(both, other, k, 0).add_row(both, other, v, player_vec)
                    moments(other, both, 0, k).add_col(other, both, v, player_vec)
    # Both hands pairs.
    for v in range(10):
        for w in range(10):
            for pk in (1, 2):
                for bk in (1, 2):
                    n = kp[v][pk] * kp[w][bk] + (v == w) * kk[v][pk][bk]
                    if n:
                        moments(2 * v % 10, 2 * w % 10, pk, bk).add_one(v, w, n)
    for (pt, bt, pk, bk), mom in list(acc.items()):
        if pk or bk:
            moments(pt, bt, 0, 0).subtract(mom)
    counts: dict[Outcome, int] = {}
    hands = _HANDS
    pair = tuple.__new__  # Outcome(p, b) without the NamedTuple constructor's overhead
    two_more = m * (m - 1)
    for (pt, bt, pk, bk), mom in acc.items():
        s0, s1 = mom.s0_s1(pt, bt)
        if not s0:
            continue
        cont = table[pt][bt]
        if not cont.player_draws:
            stood_p = hands[pt, STOOD, pk]
            if cont.banker_draws[STOOD]:
                for y in range(10):
                    n = (vals[y] * s0 - s1[y]) * (m - 1)
                    if n:
                        counts[pair(Outcome, (stood_p, hands[bt, y, bk]))] = n
            else:
                counts[pair(Outcome, (stood_p, hands[bt, STOOD, bk]))] = s0 * two_more
        else:
            s2 = mom.s2(pt, bt)
            b_hands = [hands[bt, y, bk] for y in range(11)]
            for x in range(10):
                p_hand = hands[pt, x, pk]
                vx, s1x = vals[x], s1[x]
                if cont.banker_draws[x]:
                    s2x = s2[x]
                    for y in range(10):
                        vy = vals[y] - (x == y)
                        n = vx * (vy * s0 - s1[y]) - vy * s1x + s2x[y]
                        if n:
                            counts[pair(Outcome, (p_hand, b_hands[y]))] = n
                else:
                    n = (vx * s0 - s1x) * (m - 1)
                    if n:
                        counts[pair(Outcome, (p_hand, b_hands[STOOD]))] = n
    return Joint(shoe, tableau, counts)
