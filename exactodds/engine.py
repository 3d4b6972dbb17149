"""The exact joint distribution of one baccarat round over the round features of SPEC §4.

Every round is counted as an ordered sequence of six cards drawn from the shoe (cards five and
six may go unused), so all counts share the universe N·(N−1)·…·(N−5).

Method. The first four cards (P, B, P, B) are enumerated by rank, with suits only where a
perfect pair can occur; this gives, per four-value sequence, the number of card sequences with
each (player pair, banker pair) kind. What happens next depends only on the *value* counts left
in the shoe, so the third-card subtree is computed once per (player total, banker total,
multiset of values removed) and shared by every first-four sequence with that key.

>>> j = joint_distribution(Shoe.decks(8))
>>> j.total
4998398275503360
>>> j.winner_counts()[Winner.BANKER]
2292252566437888
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import permutations, product
from typing import NamedTuple, TypeVar

from exactodds.shoe import RANK_VALUES, Shoe
from exactodds.tableau import BUILTIN, STOOD, Tableau

__all__ = [
    "FEATURES",
    "FEATURE_INDEX",
    "Hand",
    "Joint",
    "Outcome",
    "PairKind",
    "Winner",
    "falling",
    "feature_record",
    "joint_distribution",
]

K = TypeVar("K", bound=Hashable)


class PairKind(IntEnum):
    """What the first two cards of a hand form."""

    NONE = 0
    PAIR = 1  # same rank, different suits
    PERFECT = 2  # same rank and suit


class Winner(StrEnum):
    """Result of the round."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class Hand(NamedTuple):
    """One hand of a dealt round: two-card total, third card value (or None) and pair kind."""

    initial: int
    third: int | None
    pair_kind: PairKind

    @property
    def total(self) -> int:
        """Final total 0..9."""
        return self.initial if self.third is None else (self.initial + self.third) % 10

    @property
    def cards(self) -> int:
        """Number of cards in the hand (2 or 3)."""
        return 2 if self.third is None else 3

    @property
    def natural(self) -> bool:
        """Two-card total of 8 or 9."""
        return self.initial >= 8

    @property
    def pair(self) -> bool:
        """First two cards of equal rank (a ten and a king are not a pair)."""
        return self.pair_kind != PairKind.NONE

    @property
    def perfect_pair(self) -> bool:
        """First two cards of equal rank and suit."""
        return self.pair_kind == PairKind.PERFECT


class Outcome(NamedTuple):
    """A round as the engine distinguishes it; every SPEC §4 feature is derived from this."""

    player: Hand
    banker: Hand

    @property
    def winner(self) -> Winner:
        """Who won, or a tie."""
        p, b = self.player.total, self.banker.total
        return Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE

    @property
    def margin(self) -> int:
        """Difference of the final totals (0 on a tie)."""
        return abs(self.player.total - self.banker.total)

    @property
    def cards(self) -> int:
        """Cards used in the round (4–6)."""
        return self.player.cards + self.banker.cards


def _hand_features(side: str) -> dict[str, Callable[[Outcome], object]]:
    def hand(o: Outcome) -> Hand:
        return o.player if side == "player" else o.banker

    winner = Winner(side)
    return {
        f"{side}.total": lambda o: hand(o).total,
        f"{side}.cards": lambda o: hand(o).cards,
        f"{side}.initial": lambda o: hand(o).initial,
        f"{side}.natural": lambda o: hand(o).natural,
        f"{side}.third": lambda o: hand(o).third,
        f"{side}.pair": lambda o: hand(o).pair,
        f"{side}.perfect_pair": lambda o: hand(o).perfect_pair,
        f"{side}.wins": lambda o: o.winner == winner,
    }


FEATURES: Mapping[str, Callable[[Outcome], object]] = {
    **_hand_features("player"),
    **_hand_features("banker"),
    "winner": lambda o: o.winner.value,
    "margin": lambda o: o.margin,
    "cards": lambda o: o.cards,
}
"""Every round feature a bet may look at (SPEC §4), by name, as a function of an outcome."""

FEATURE_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(FEATURES)}
"""Position of each feature in a :func:`feature_record`."""

_GETTERS = tuple(FEATURES.values())


def feature_record(outcome: Outcome) -> tuple[object, ...]:
    """All features of an outcome as a tuple, in :data:`FEATURE_INDEX` order."""
    return tuple(get(outcome) for get in _GETTERS)


def falling(n: int, k: int) -> int:
    """Falling factorial n·(n−1)·…·(n−k+1).

    >>> falling(416, 6)
    4998398275503360
    """
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class Joint:
    """Exact joint distribution of round outcomes: integer combinations out of :attr:`total`."""

    shoe: Shoe
    tableau: Tableau
    counts: Mapping[Outcome, int] = field(repr=False, compare=False)

    @property
    def total(self) -> int:
        """Size of the six-card universe: N·(N−1)·…·(N−5)."""
        return falling(self.shoe.size, 6)

    def count(self, predicate: Callable[[Outcome], bool]) -> int:
        """Combinations of the outcomes satisfying ``predicate``."""
        return sum(n for o, n in self.counts.items() if predicate(o))

    def probability(self, predicate: Callable[[Outcome], bool]) -> Fraction:
        """Exact probability of ``predicate``."""
        return Fraction(self.count(predicate), self.total)

    def marginal(self, key: Callable[[Outcome], K]) -> dict[K, int]:
        """Combinations grouped by ``key(outcome)``."""
        out: dict[K, int] = {}
        for o, n in self.counts.items():
            k = key(o)
            out[k] = out.get(k, 0) + n
        return out

    def winner_counts(self) -> dict[Winner, int]:
        """Combinations of Banker wins, Player wins and Ties."""
        out = dict.fromkeys(Winner, 0)
        out.update(self.marginal(lambda o: o.winner))
        return out

    def totals_table(self) -> dict[tuple[int, int], int]:
        """Combinations by (player final total, banker final total)."""
        return self.marginal(lambda o: (o.player.total, o.banker.total))

    @cached_property
    def records(self) -> tuple[tuple[tuple[object, ...], int], ...]:
        """Every outcome as (:func:`feature_record`, combinations); computed once per joint."""
        return tuple((feature_record(o), n) for o, n in self.counts.items())

    def __iter__(self) -> Iterator[tuple[Outcome, int]]:
        return iter(self.counts.items())


# -- the enumeration ---------------------------------------------------------------------------

# Positions of the first four cards: 0 = player 1st, 1 = banker 1st, 2 = player 2nd, 3 = banker 2nd.


def _set_partitions(items: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _set_partitions(rest):
        out.append([(first,), *part])
        for i, block in enumerate(part):
            out.append([*part[:i], (first, *block), *part[i + 1 :]])
    return out


_PARTITIONS = _set_partitions((0, 1, 2, 3))


def _block_table(suits: tuple[int, ...], block: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Ordered suit assignments for the positions of ``block`` (all one rank), as
    (player pair kind, banker pair kind, count). Pair kinds are nonzero only when both cards
    of a hand are in the block."""
    has_p, has_b = 0 in block and 2 in block, 1 in block and 3 in block
    if not has_p and not has_b:
        return [(0, 0, falling(sum(suits), len(block)))]
    acc: dict[tuple[int, int], int] = {}
    for assign in product(range(4), repeat=len(block)):
        used = [0, 0, 0, 0]
        n = 1
        for s in assign:
            n *= suits[s] - used[s]
            used[s] += 1
        if n:
            where = dict(zip(block, assign, strict=True))
            pk = (2 if where[0] == where[2] else 1) if has_p else 0
            bk = (2 if where[1] == where[3] else 1) if has_b else 0
            acc[pk, bk] = acc.get((pk, bk), 0) + n
    return [(pk, bk, n) for (pk, bk), n in acc.items()]


def _first_four(shoe: Shoe) -> dict[tuple[int, int, int, int], dict[tuple[int, int], int]]:
    """Card sequences of the first four cards by (values at positions 0..3) and pair kinds."""
    out: dict[tuple[int, int, int, int], dict[tuple[int, int], int]] = {}
    ranks = [r for r in range(13) if shoe.counts[r] and sum(shoe.counts[r])]
    for partition in _PARTITIONS:
        tables = {
            (block, r): _block_table(shoe.counts[r], block) for block in partition for r in ranks
        }
        for assigned in permutations(ranks, len(partition)):
            combos: list[tuple[int, int, int]] = [(0, 0, 1)]
            values = [0, 0, 0, 0]
            for block, r in zip(partition, assigned, strict=True):
                combos = [
                    (pk + pk2, bk + bk2, n * n2)
                    for pk, bk, n in combos
                    for pk2, bk2, n2 in tables[block, r]
                    if n2
                ]
                for pos in block:
                    values[pos] = RANK_VALUES[r]
            if not combos:
                continue
            slot = out.setdefault((values[0], values[1], values[2], values[3]), {})
            for pk, bk, n in combos:
                slot[pk, bk] = slot.get((pk, bk), 0) + n
    return out


def _tail(
    tableau: Tableau, p_init: int, b_init: int, left: list[int], m: int
) -> list[tuple[int, int, int]]:
    """Third-card outcomes after the first four: (player third or STOOD, banker third or
    STOOD, sequences of cards five and six), from value counts ``left`` summing to ``m``."""
    if p_init >= 8 or b_init >= 8:
        return [(STOOD, STOOD, m * (m - 1))]
    if not tableau.player_draws(p_init):
        if tableau.banker_draws(b_init, STOOD):
            return [(STOOD, y, left[y] * (m - 1)) for y in range(10) if left[y]]
        return [(STOOD, STOOD, m * (m - 1))]
    out = []
    for x in range(10):
        cx = left[x]
        if not cx:
            continue
        if tableau.banker_draws(b_init, x):
            for y in range(10):
                cy = left[y] - (x == y)
                if cy > 0:
                    out.append((x, y, cx * cy))
        else:
            out.append((x, STOOD, cx * (m - 1)))
    return out


def _index(p_init: int, x: int, b_init: int, y: int) -> int:
    return (((p_init * 11 + x) * 10 + b_init) * 11 + y) * 9


@lru_cache(maxsize=64)
def joint_distribution(shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> Joint:
    """The exact joint distribution of a round dealt from ``shoe`` under ``tableau``.

    >>> j = joint_distribution(Shoe.decks(1).remove("K K K K"))
    >>> sum(j.counts.values()) == j.total
    True
    """
    values = shoe.value_counts
    m = shoe.size - 4
    groups: dict[tuple[int, int, tuple[int, ...]], dict[tuple[int, int], int]] = {}
    for (v0, v1, v2, v3), kinds in _first_four(shoe).items():
        key = ((v0 + v2) % 10, (v1 + v3) % 10, tuple(sorted((v0, v1, v2, v3))))
        slot = groups.setdefault(key, {})
        for k, n in kinds.items():
            slot[k] = slot.get(k, 0) + n
    acc = [0] * (10 * 11 * 10 * 11 * 9)
    for (p_init, b_init, removed), kinds in groups.items():
        left = list(values)
        for v in removed:
            left[v] -= 1
        kind_items = [(pk * 3 + bk, n) for (pk, bk), n in kinds.items()]
        for x, y, w in _tail(tableau, p_init, b_init, left, m):
            base = _index(p_init, x, b_init, y)
            for offset, n in kind_items:
                acc[base + offset] += n * w
    counts: dict[Outcome, int] = {}
    for index, n in enumerate(acc):
        if n:
            rest, kind_code = divmod(index, 9)
            rest, y = divmod(rest, 11)
            rest, b_init = divmod(rest, 10)
            p_init, x = divmod(rest, 11)
            pk, bk = divmod(kind_code, 3)
            counts[
                Outcome(
                    Hand(p_init, None if x == STOOD else x, PairKind(pk)),
                    Hand(b_init, None if y == STOOD else y, PairKind(bk)),
                )
            ] = n
    return Joint(shoe, tableau, counts)
