"""The term basis of the batch evaluator: value-count vectors, the first four cards' value
sequences, what follows them under a tableau, and the Möbius expansion of pair kinds.

A compiled bet is integer weights over terms; a term is a product over the ten card values of
one local factor column (:data:`LOCAL_COLS`) per value (see :mod:`exactodds.analysis.batch`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from exactodds.deal.round import Continuation
from exactodds.deal.shoe import RANK_VALUES, RANKS
from exactodds.deal.tableau import STOOD

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

VALUE_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(len(RANKS)) if RANK_VALUES[r] == v) for v in range(10)
)
MULTI_RANK = tuple(len(rs) > 1 for rs in VALUE_RANKS)

# Local factor columns per value: (kind, k). P = plain (n)_k; R / S = one same-rank / same-card
# pair among the k cards; RR / RS / SS = two such pairs (player's and banker's) of this value.
LOCAL_COLS: tuple[tuple[str, int], ...] = (
    *(("P", k) for k in range(7)),
    *(("R", k) for k in range(2, 7)),
    *(("S", k) for k in range(2, 7)),
    *(("RR", k) for k in range(4, 7)),
    *(("RS", k) for k in range(4, 7)),
    *(("SS", k) for k in range(4, 7)),
)
LOCAL_COL = {c: i for i, c in enumerate(LOCAL_COLS)}


def kvecs(total: int) -> tuple[tuple[int, ...], ...]:
    """All value-count vectors (10 entries) summing to ``total``."""
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 9:
            out.append((*prefix, left))
            return
        for k in range(left, -1, -1):
            rec((*prefix, k), left - k)

    rec((), total)
    return tuple(out)


K6 = kvecs(6)
K4 = kvecs(4)
K2 = kvecs(2)
K6_ID = {k: i for i, k in enumerate(K6)}
K4_ID = {k: i for i, k in enumerate(K4)}
K2_ID = {k: i for i, k in enumerate(K2)}


def kvec(values: Iterable[int]) -> tuple[int, ...]:
    out = [0] * 10
    for v in values:
        out[v] += 1
    return tuple(out)


@lru_cache(maxsize=1)
def prefixes() -> tuple[tuple[int, int, int | None, int | None, int, int], ...]:
    """First-four value sequences grouped by (player total, banker total, player pair value or
    None, banker pair value or None, 4-multiset id), with the number of sequences."""
    acc: dict[tuple[int, int, int | None, int | None, int], int] = {}
    for v0, v1, v2, v3 in product(range(10), repeat=4):
        key = (
            (v0 + v2) % 10,
            (v1 + v3) % 10,
            v0 if v0 == v2 else None,
            v1 if v1 == v3 else None,
            K4_ID[kvec((v0, v1, v2, v3))],
        )
        acc[key] = acc.get(key, 0) + 1
    return tuple((*k, n) for k, n in acc.items())


@lru_cache(maxsize=1)
def add_table() -> tuple[tuple[int, ...], ...]:
    """id of (4-multiset + 2-multiset) as a 6-multiset, indexed [k4 id][k2 id]."""
    return tuple(
        tuple(K6_ID[tuple(a + b for a, b in zip(k4, k2, strict=True))] for k2 in K2) for k4 in K4
    )


Tail = tuple[tuple[int, ...], int, int, int]  # (values of cards 5–6 used, wildcards, x, y)


def round_tails(cont: Continuation) -> list[Tail]:
    """What follows the first four cards (a continuation of the round module): the third-card
    values, how many of cards five and six are unused (wildcards), and the player/banker third
    card or STOOD."""
    out: list[Tail] = []
    for x in cont.player_thirds:
        used = () if x == STOOD else (x,)
        if cont.banker_draws[x]:
            out.extend(((*used, y), 1 - len(used), x, y) for y in range(10))
        else:
            out.append((used, 2 - len(used), x, STOOD))
    return out


def pair_kinds(total: int) -> tuple[int, ...]:
    """Pair kinds a hand with this two-card total can have (a pair has an even total)."""
    return (0,) if total % 2 else (0, 1, 2)


def pair_expansion(v: int | None) -> list[tuple[str, dict[int, int]]]:
    """Möbius expansion of a hand's pair kind: (marker, {pair kind: coefficient}).

    Cards 1 and 3 of different values: always no pair. Same value of one rank: a pair, perfect
    when also same suit (``S``). Same value of several ranks (ten to king): ``R`` = same rank."""
    if v is None:
        return [("A", {0: 1})]
    if not MULTI_RANK[v]:
        return [("A", {1: 1}), ("S", {2: 1, 1: -1})]
    return [("A", {0: 1}), ("R", {1: 1, 0: -1}), ("S", {2: 1, 1: -1})]


@dataclass(frozen=True, eq=False)
class TermGroup:
    """Bets sharing one term basis: integer weights over terms, and how to build the terms."""

    bets: tuple[int, ...]  # column of each bet in the evaluator's order
    four: bool  # terms are 4-card multisets; results are multiplied by (N−4)₂
    weights: IntArray  # (terms × bets) int64 or object
    col_abs_sum: int  # max over bets of Σ|W|
    net_bound: int  # max over bets of |scaled net|: |Σ W·term| ≤ net_bound·(N)_K
    left_keys: IntArray  # (distinct left halves × 5) local column per value 0..4
    right_keys: IntArray  # (distinct right halves × 5) local column per value 5..9
    left_index: IntArray  # (terms,)
    right_index: IntArray  # (terms,)
