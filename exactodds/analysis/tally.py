"""Exact sums of a simulation, per round number of the shoe and per bet, mergeable by addition.

Why: a run of millions of shoes is split into chunks dealt by different processes or machines;
each chunk's sums must add up exactly, in any order, to the run's.

Per round number ``k`` of the shoe, cards left ``N`` and bet ``j`` a :class:`Tally` holds Python
ints: the rounds dealt, the rounds on which the strategy bet, and the sums of the exact EV
numerators (over ``scale_j·(N)₆``, see :class:`~exactodds.analysis.batch.BatchResult`) of every
round and of the rounds bet, of the dealt nets where bet (scaled by ``scale_j``) and of their
squares (by ``scale_j²``). Keys (k, N) keep every sum an integer over one known denominator;
:meth:`Tally.by_round` turns them into exact fractions per round number.

Grouped sums are exact: numerators that fit in int64 are split into a high and a low 32-bit
half, each summed in int64 (at most 2³¹ terms of |x| < 2³²: no overflow) and recombined as Python
ints; larger numerators are summed as Python objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm, perm
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.analysis.streak import ShoeStreak

    IntArray = npt.NDArray[Any]

__all__ = ["CARD_SUMS", "SUMS", "CardTally", "RoundFigures", "Tally"]

SUMS = ("ev", "bet_rounds", "bet_ev", "bet_net", "bet_net2")
"""What a tally sums per (round, N) and bet: EV numerators of every round (when the strategy
evaluated every round), rounds bet, EV numerators of the rounds bet, dealt nets of the rounds bet
(scaled by the bet's scale) and their squares (by the scale squared)."""

EV, BET_ROUNDS, BET_EV, BET_NET, BET_NET2 = range(len(SUMS))
_HALF = 32
_LOW = (1 << _HALF) - 1
_MAX_ROWS = 1 << 31  # rows summed in one int64 reduction of 32-bit halves

Key = tuple[int, int]  # (round number, cards left)


@dataclass(frozen=True)
class RoundFigures:
    """One round number of the shoe, for one bet and one strategy, exact.

    >>> r = RoundFigures(3, 10, 2, Fraction(-1, 20), Fraction(1, 50), Fraction(2), Fraction(8))
    >>> r.round, r.bet_rounds / r.rounds  # the strategy bet in 2 of the 10 shoes at round 3
    (3, 0.2)
    """

    round: int
    rounds: int  # shoes that reached this round
    bet_rounds: int  # of which the strategy bet
    mean_ev: Fraction | None  # mean exact EV at this round (None: not every round evaluated)
    expected_gain: Fraction  # Σ exact EV over the rounds bet
    realized_gain: Fraction  # Σ dealt results over the rounds bet
    realized_square: Fraction  # Σ squared dealt results over the rounds bet


@dataclass
class Tally:
    """Exact integer sums of a run, keyed by (round number, cards left); merging is addition.

    ``sums[k, N]`` is an object array (len(SUMS) × bets) of Python ints (see :data:`SUMS`).

    >>> import numpy as np
    >>> num = np.array([[3], [-2], [5]])  # EV numerators of one bet in three states
    >>> t = Tally.of_rounds(
    ...     bets=1, shoes=1, rounds=np.array([1, 2, 2]), sizes=np.array([8, 7, 7]),
    ...     numerators=num, bet=num > 0, nets=np.array([[4], [-1], [-1]]), evaluated=True)
    >>> t.rounds, t.sums[2, 7][:, 0].tolist()  # round 2: bet once (EV 5/(7)₆), net −1
    ({(1, 8): 1, (2, 7): 2}, [3, 1, 5, -1, 1])
    >>> t.merge(t); t.shoes, t.rounds[2, 7], t.by_round([1])[0][1].expected_gain
    (2, 4, Fraction(1, 504))
    """

    bets: int
    shoes: int = 0
    evaluated: bool = True  # the EV of every round is known (not only of the rounds bet)
    rounds: dict[Key, int] = field(default_factory=dict)
    sums: dict[Key, IntArray] = field(default_factory=dict)
    cards: CardTally | None = None  # the card-level and offered bets, if any
    streaks: tuple[ShoeStreak, ...] = ()  # the streak bets played in the shoes, if any

    def merge(self, other: Tally) -> None:
        """Add ``other``'s sums to this tally (exact, in any order)."""
        if self.streaks and other.streaks:
            pairs = zip(self.streaks, other.streaks, strict=True)
            self.streaks = tuple(a.merge(b) for a, b in pairs)
        else:
            self.streaks = self.streaks or other.streaks
        if other.cards is not None:
            if self.cards is None:
                self.cards = CardTally(other.cards.bets, other.cards.evaluated)
            self.cards.merge(other.cards)
        self.shoes += other.shoes
        self.evaluated = self.evaluated and other.evaluated
        for k, n in other.rounds.items():
            self.rounds[k] = self.rounds.get(k, 0) + n
        for k, arr in other.sums.items():
            mine = self.sums.get(k)
            self.sums[k] = arr.copy() if mine is None else mine + arr

    def by_round(self, scales: Sequence[int]) -> list[tuple[RoundFigures, ...]]:
        """Exact figures per bet (whose nets are scaled by ``scales``) per round number.

        EV sums of one round number are brought to the lcm of their ``(N)₆`` first, so each
        figure is one fraction."""
        import numpy as np

        keys: dict[int, list[int]] = {}
        for k, n in self.sums:
            keys.setdefault(k, []).append(n)
        out: list[list[RoundFigures]] = [[] for _ in scales]
        for k in sorted(keys):
            sizes = keys[k]
            common = lcm(*(perm(n, 6) for n in sizes))
            acc = np.zeros((len(SUMS), self.bets), dtype=object)
            for n in sizes:
                m = common // perm(n, 6)
                acc = acc + self.sums[k, n] * np.array([m, 1, m, 1, 1], dtype=object)[:, None]
            rounds = sum(self.rounds[k, n] for n in sizes)
            for j, scale in enumerate(scales):
                out[j].append(
                    RoundFigures(
                        k,
                        rounds,
                        int(acc[BET_ROUNDS, j]),
                        Fraction(int(acc[EV, j]), scale * common * rounds)
                        if self.evaluated
                        else None,
                        Fraction(int(acc[BET_EV, j]), scale * common),
                        Fraction(int(acc[BET_NET, j]), scale),
                        Fraction(int(acc[BET_NET2, j]), scale * scale),
                    )
                )
        return [tuple(rows) for rows in out]

    @classmethod
    def of_rounds(
        cls,
        *,
        bets: int,
        shoes: int,
        rounds: IntArray,
        sizes: IntArray,
        numerators: IntArray,
        bet: IntArray,
        nets: IntArray,
        evaluated: bool,
    ) -> Tally:
        """The tally of dealt rounds: round numbers and cards left ``sizes`` (R), EV
        ``numerators`` (R × bets, int64 or Python ints; only read where ``bet`` unless
        ``evaluated``), the strategy's ``bet`` mask and the scaled dealt ``nets`` (R × bets)."""
        import numpy as np

        tally = cls(bets, shoes, evaluated)
        if not len(rounds):
            return tally
        if len(rounds) >= _MAX_ROWS:
            raise ValueError("too many rounds for one tally")  # chunks are far smaller
        size = int(sizes.max()) + 1
        key = rounds.astype(np.int64) * size + sizes
        order = np.argsort(key, kind="stable")
        key, bet = key[order], bet[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        keys = [divmod(int(k), size) for k in key[starts]]
        counts = np.diff(np.r_[starts, len(key)]).tolist()
        num = numerators[order]
        zero = np.zeros((), dtype=num.dtype)
        out = np.zeros((len(keys), len(SUMS), bets), dtype=object)
        if evaluated:
            out[:, EV] = _exact_sums(num, starts)
        out[:, BET_ROUNDS] = np.add.reduceat(bet.astype(np.int64), starts, axis=0)
        out[:, BET_EV] = _exact_sums(np.where(bet, num, zero), starts)
        net = np.where(bet, nets[order], 0)
        out[:, BET_NET] = _exact_sums(net, starts)
        out[:, BET_NET2] = _exact_sums(_square(net), starts)
        tally.rounds = dict(zip(keys, counts, strict=True))
        tally.sums = {k: out[i] for i, k in enumerate(keys)}
        return tally


def _square(x: IntArray) -> IntArray:
    """x² elementwise, in int64 when |x| < 2³¹ (so x² < 2⁶²), else as Python ints."""
    import numpy as np

    if x.dtype != object and (not x.size or int(np.abs(x).max()) < 1 << 31):
        return x * x
    obj = x.astype(object)
    return np.asarray(obj * obj, dtype=object)


def _exact_sums(values: IntArray, starts: IntArray) -> IntArray:
    """Column sums of the row groups starting at ``starts``, as Python ints."""
    import numpy as np

    if values.dtype == object:
        return np.asarray(np.add.reduceat(values, starts, axis=0), dtype=object)
    v = values.astype(np.int64)
    low = np.add.reduceat(v & _LOW, starts, axis=0)  # halves: each term below 2**32
    high = np.add.reduceat(v >> _HALF, starts, axis=0)
    return np.asarray(high.astype(object) * (1 << _HALF) + low.astype(object), dtype=object)


CARD_SUMS = ("dealt", "offered", "ev", "bet_rounds", "bet_ev", "bet_net", "bet_net2")
"""What a :class:`CardTally` sums per round number and bet: rounds dealt, rounds offered, exact
EVs of the offered rounds, rounds bet, exact EVs of the rounds bet, dealt nets of the rounds bet
and their squares."""

_DEALT, _OFFERED, _EV, _BET_ROUNDS, _BET_EV, _BET_NET, _BET_NET2 = range(len(CARD_SUMS))


@dataclass
class CardTally:
    """Exact sums of the card-level and offered bets of a run (whose EVs come from the card
    engine, per offered round: fractions over no common denominator), keyed by round number;
    merging is addition.

    >>> t = CardTally(1)
    >>> t.add(0, 1, offered=True, ev=Fraction(1, 3), bet=True, net=Fraction(2))
    >>> t.add(0, 1, offered=False)
    >>> t.add(0, 2, offered=True, ev=Fraction(-1, 5), bet=False, net=Fraction(-1))
    >>> t.merge(t); t.dealt()
    {1: 4, 2: 2}
    >>> [(r.round, r.rounds, r.bet_rounds, r.mean_ev, r.expected_gain) for r in t.by_round()[0]]
    [(1, 2, 2, Fraction(1, 3), Fraction(2, 3)), (2, 2, 0, Fraction(-1, 5), Fraction(0, 1))]
    """

    bets: int
    evaluated: bool = True  # the EV of every offered round is known (not only of those bet)
    sums: dict[int, list[list[Fraction]]] = field(default_factory=dict)
    work: int = 0  # the card engine's estimated work spent on the EVs (a counter's budget)

    def _row(self, k: int, j: int) -> list[Fraction]:
        rows = self.sums.get(k)
        if rows is None:
            rows = self.sums[k] = [[Fraction(0)] * len(CARD_SUMS) for _ in range(self.bets)]
        return rows[j]

    def add(
        self,
        j: int,
        k: int,
        *,
        offered: bool,
        ev: Fraction | None = None,
        bet: bool = False,
        net: Fraction | None = None,
    ) -> None:
        """One dealt round number ``k`` for bet ``j``: offered or not, and when offered its
        exact EV (None when the strategy did not bet and the tally is not ``evaluated``),
        whether the strategy bet and the dealt net of one unit."""
        row = self._row(k, j)
        row[_DEALT] += 1
        if not offered:
            return
        assert net is not None and (ev is not None or not (bet or self.evaluated))
        row[_OFFERED] += 1
        if ev is not None:
            row[_EV] += ev
        if bet:
            assert ev is not None
            row[_BET_ROUNDS] += 1
            row[_BET_EV] += ev
            row[_BET_NET] += net
            row[_BET_NET2] += net * net

    def merge(self, other: CardTally) -> None:
        """Add ``other``'s sums to this tally (exact, in any order)."""
        self.evaluated = self.evaluated and other.evaluated
        self.work += other.work
        for k, rows in other.sums.items():
            for j, sums in enumerate(rows):
                mine = self._row(k, j)
                for i, x in enumerate(sums):
                    mine[i] += x

    def dealt(self, j: int = 0) -> dict[int, int]:
        """Rounds dealt per round number (the same for every bet)."""
        return {k: int(rows[j][_DEALT]) for k, rows in sorted(self.sums.items())}

    def by_round(self) -> list[tuple[RoundFigures, ...]]:
        """Exact figures per bet per round number at which the bet was offered (``rounds``
        counts the rounds offered; ``mean_ev`` is the mean EV per offered round, None when
        only the rounds bet were evaluated)."""
        out: list[list[RoundFigures]] = [[] for _ in range(self.bets)]
        for k in sorted(self.sums):
            for j, row in enumerate(self.sums[k]):
                offered = int(row[_OFFERED])
                if not offered:
                    continue
                out[j].append(
                    RoundFigures(
                        k,
                        offered,
                        int(row[_BET_ROUNDS]),
                        row[_EV] / offered if self.evaluated else None,
                        row[_BET_EV],
                        row[_BET_NET],
                        row[_BET_NET2],
                    )
                )
        return [tuple(rows) for rows in out]
