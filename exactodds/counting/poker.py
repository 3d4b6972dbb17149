"""Poker categories of a hand's cards, ranked and tabulated over every rank combination."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, reduce
from typing import Any

import numpy as np

from exactodds.counting.classes import NONE
from exactodds.language import POKER

# -- poker -------------------------------------------------------------------------------------

_ORDER = {
    2: ("straight_flush", "pair", "straight", "flush", "high_card"),
    3: ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"),
    4: POKER,  # every category: Four Card Poker's ranking (the vocabulary's order)
}
"""Poker rankings by number of cards, best first. Four cards: Four Card Poker's (four of a kind
above a straight flush, three of a kind above a flush above a straight above two pair); three
cards: Three Card Poker's (a straight above a flush); two cards, for which no casino game
publishes a ranking: the same principle of rarity, on one deck straight flush 52 of 1,326 pairs
of cards, pair 78, straight 156, flush 260, high card 780. Conditions compare categories only
for equality, so the order decides only a hand that makes two: a straight flush (not a straight
or a flush), identical cards of several decks (a pair, not a flush). An ace is high or low in a
straight (A-2-3, Q-K-A), never both (no K-A-2)."""


def poker_category(ranks: Sequence[Any], suits: Sequence[Any]) -> Any:
    """The poker category (index into :data:`~exactodds.language.POKER`) of 2–4 cards given
    by rank number (1–13) and suit arrays; elementwise on numpy arrays.

    >>> [POKER[int(poker_category(r, s))] for r, s in [((1, 13, 12, 11), (0, 0, 0, 0)),
    ...     ((9, 9, 9, 2), (0, 0, 0, 0)), ((2, 3, 1), (0, 1, 2)), ((5, 5), (3, 3))]]
    ['straight_flush', 'three_of_a_kind', 'straight', 'pair']
    """
    k = len(ranks)
    r = [np.asarray(x) for x in ranks]
    equal = sum(
        ((r[i] == r[j]).astype(np.int64) for i in range(k) for j in range(i + 1, k)), np.int64(0)
    )
    flush = np.ones(np.broadcast(*r).shape, dtype=bool)
    for s in suits[1:]:
        flush = flush & (np.asarray(s) == np.asarray(suits[0]))
    lo, hi = reduce(np.minimum, r), reduce(np.maximum, r)
    high = [np.where(x == 1, 14, x) for x in r]
    lo14, hi14 = reduce(np.minimum, high), reduce(np.maximum, high)
    straight = (equal == 0) & ((hi - lo == k - 1) | (hi14 - lo14 == k - 1))
    tests = {
        "four_of_a_kind": equal == 6,
        "straight_flush": straight & flush,
        "three_of_a_kind": equal == 3,
        "flush": flush,
        "straight": straight,
        "two_pair": equal == 2,
        "pair": equal == 1,
        "high_card": np.ones_like(flush),
    }
    out = np.full(flush.shape, POKER.index("high_card"), dtype=np.int64)
    for name in reversed(_ORDER[k]):
        out = np.where(tests[name], POKER.index(name), out)
    return out


@cache
def _poker_table(k: int) -> np.ndarray:
    """:func:`poker_category` of every ``k`` ranks (0 for none: a hand of two cards when the
    third is none), flush or not, indexed by ``_poker``: one gather per cell instead of the
    pairwise comparisons."""
    ranks = np.indices((14,) * k).reshape(k, -1)
    out = np.empty((ranks.shape[1], 2), dtype=np.int8)
    for flush in (0, 1):
        suits = [np.zeros_like(ranks[0])] * k if flush else [np.arange(ranks.shape[1]) % 2]
        suits += [np.zeros_like(ranks[0]) if flush else 1 - suits[0]] * (k - len(suits))
        cards = poker_category(list(ranks), suits)
        if k == 3:  # a third rank of 0 (none): the first two cards alone
            two = poker_category(list(ranks[:2]), suits[:2])
            cards = np.where(ranks[2] == 0, two, cards)
        out[:, flush] = cards
    return out.reshape(-1)


def _poker(ranks: Sequence[Any], suits: Sequence[Any]) -> Any:
    """The poker category of 3 cards (the third rank none: 2 cards) or 4, elementwise, by
    :func:`_poker_table`."""
    index: Any = 0
    for r in ranks:
        index = index * 14 + np.maximum(r, 0)
    flush = np.asarray(suits[1]) == np.asarray(suits[0])
    for s, r in zip(suits[2:], ranks[2:], strict=True):
        same = np.asarray(s) == np.asarray(suits[0])
        flush = flush & (same | (np.asarray(r) == NONE)) if len(ranks) == 3 else flush & same
    return _poker_table(len(ranks))[index * 2 + flush]
