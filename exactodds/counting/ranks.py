"""Exact counts of a bet's rows split by a key of the dealt cards' ranks: the ranks of a card
group (what a multiplier product depends on) or the shown first-four cards (what a peek decides
on).

Method. Every ordered six-card sequence is enumerated by rank (13⁶ cells, one block per first
card), each cell weighted by its physical sequences Π (cards of the rank left): the falling
product of the rank counts. Cards five and six are enumerated even where no hand draws them, so
every count shares the universe N·(N−1)·…·(N−5) of :func:`~exactodds.counting.row_counts`. The
rows are the card engine's conditions, evaluated on the grid with its semantics
(:mod:`exactodds.counting.evaluate`). Suits are not enumerated, so a condition that reads a suit
or a colour is refused: within a rank, the suits of a round's cards are an exchangeable draw of
that rank's cards, which is how :mod:`exactodds.bets.multipliers` recovers identities.

>>> from exactodds.language import OTHERWISE, parse_condition
>>> from exactodds.deal.shoe import Shoe
>>> nine = parse_condition("player.initial == 9")
>>> (by_first,) = keyed_counts([nine, OTHERWISE], Shoe.decks(8), keys=[ShownCards(("P1",))])
>>> by_first.counts[0, (9,)] * 416 * 415 == by_first.universe * 32 * 128  # a 9, then a 0
True
>>> (0, (5,)) in by_first.counts  # a 5 first never makes 9 of two... unless a 4 follows
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import perm
from typing import Any

import numpy as np

from exactodds.counting.classes import NONE, reads_suits
from exactodds.counting.evaluate import _Evaluator, _Round
from exactodds.deal.shoe import RANK_VALUES, Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import PaytableError
from exactodds.language import Condition, Otherwise

__all__ = ["GroupRanks", "KeyedCounts", "ShownCards", "keyed_counts"]

POSITIONS: Mapping[str, int] = {"P1": 0, "B1": 1, "P2": 2, "B2": 3}
"""The first four cards by name and slot (dealing order)."""

_BASE = 14
"""Digits of a key code: ranks 1–13 and values 0–9, with 0 for a card not dealt in a group."""

_CARDS = 6


@dataclass(frozen=True)
class GroupRanks:
    """Key: the ranks (1–13, ascending) of the dealt cards of a group (``player``, ``banker``,
    ``initial``, ``round``) or of named cards (``player.card1`` … ``banker.card3``)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class ShownCards:
    """Key: an attribute (``value`` 0–9 or ``rank`` 1–13) of each of these first-four cards
    (``P1 B1 P2 B2``), in the order given."""

    positions: tuple[str, ...]
    attr: str = "value"


Key = GroupRanks | ShownCards
Raw = Mapping[int, Mapping[str, Any]]
"""Each slot's attributes, small integers (rank 1–13, value 0–9)."""


@dataclass(frozen=True)
class KeyedCounts:
    """Combinations of the six-card universe by (row index, key)."""

    counts: Mapping[tuple[int, tuple[int, ...]], int]
    universe: int

    def row_total(self, row: int) -> int:
        """Combinations the row settles, whatever the key."""
        return sum(n for (i, _), n in self.counts.items() if i == row)


def keyed_counts(
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    keys: Sequence[Key],
) -> tuple[KeyedCounts, ...]:
    """Per key, the combinations of each (row, key value): the row is the first condition that
    holds (the last one ``otherwise``), the key as :class:`GroupRanks` or :class:`ShownCards`.

    >>> from exactodds.language import OTHERWISE, parse_condition
    >>> from exactodds.deal.shoe import Shoe
    >>> wins = parse_condition("player.wins")
    >>> (k,) = keyed_counts([wins, OTHERWISE], Shoe.decks(1), keys=[GroupRanks(("player",))])
    >>> k.counts[0, (1, 1, 1)] > 0  # three aces: 3, the player wins against a banker 0
    True
    """
    if reads_suits(conditions):
        raise PaytableError(
            "a row that reads a suit or a colour cannot be multiplied or peeked at yet "
            "(multipliers and peeks are counted by rank)"
        )
    for key in keys:
        _check(key)
    n = [sum(row) for row in shoe.counts]
    size = shoe.size
    universe = perm(size, _CARDS)
    exact = universe < 2**62  # every weight and every sum is at most the universe
    totals: list[dict[int, int]] = [{} for _ in keys]
    for slots, weight, shape in _grid(tuple(n), size, tableau, exact):
        rnd = _Round({s: _Wide(attrs) for s, attrs in slots.items()}, True, tableau)
        row = _rows(conditions, rnd, shape)
        for out, key in zip(totals, keys, strict=True):
            code = row * _BASE**_CARDS + _key_code(key, rnd, slots, shape)
            _accumulate(out, code, weight)
    return tuple(
        KeyedCounts(
            {(c // _BASE**_CARDS, _decode(key, c % _BASE**_CARDS)): int(w) for c, w in t.items()},
            universe,
        )
        for t, key in zip(totals, keys, strict=True)
    )


_VALUES = np.asarray(RANK_VALUES, dtype=np.int8)


@lru_cache(maxsize=2)
def _grid(
    n: tuple[int, ...], size: int, tableau: Tableau, exact: bool
) -> tuple[tuple[dict[int, dict[str, Any]], Any, tuple[int, ...]], ...]:
    """The stages' slot attributes (small integers), weights and shape, kept for the next bet
    counted on the same shoe (a sheet counts several)."""
    out = []
    for ranks, weight, cards in _stages(n, size, tableau, exact):
        slots = {
            s: {
                "rank": (ranks[s] + 1).astype(np.int8) if s < cards else np.int8(0),
                "value": _VALUES[ranks[s]] if s < cards else np.int8(0),
                "suit": np.int8(NONE),
                "colour": np.int8(NONE),
            }
            for s in range(_CARDS)
        }
        out.append((slots, weight, weight.shape))
    return tuple(out)


class _Wide(dict[str, Any]):
    """A slot's attributes as int64 on first read: kept small between bets, evaluated wide so
    no sum a condition writes can wrap."""

    def __init__(self, attrs: Mapping[str, Any]) -> None:
        super().__init__()
        self.attrs = attrs

    def __missing__(self, name: str) -> Any:
        wide = self[name] = np.asarray(self.attrs[name]).astype(np.int64)
        return wide


def _stages(
    n: Sequence[int], size: int, tableau: Tableau, exact: bool
) -> Iterator[tuple[list[Any], Any, int]]:
    """(rank arrays of the dealt slots, weights, cards dealt) of the rounds of four, five and
    six cards: a round of four cards stands for its (N−4)(N−5) ways to go on, one of five for
    its N−5."""
    dtype: Any = np.int64 if exact else object
    counts = np.asarray(n, dtype=dtype)
    grid = np.indices((13,) * 4).reshape(4, -1)
    ranks = [grid[s] for s in range(4)]
    weight = _falling(ranks, counts, np.ones(grid.shape[1], dtype=dtype))
    live = weight != 0
    ranks, weight = [r[live] for r in ranks], weight[live]
    stood, first, second = _draws(ranks, tableau)
    yield [r[stood] for r in ranks], weight[stood] * ((size - 4) * (size - 5)), 4
    five = first | second
    ranks, weight = _extend([r[five] for r in ranks], weight[five], counts)
    _, _, both = _draws(ranks, tableau)
    yield [r[~both] for r in ranks], weight[~both] * (size - 5), 5
    ranks, weight = _extend([r[both] for r in ranks], weight[both], counts)
    yield ranks, weight, 6


def _draws(ranks: Sequence[Any], tableau: Tableau) -> tuple[Any, Any, Any]:
    """Masks of the rounds (by their dealt slots) where nobody draws, where the player or the
    banker draws a fifth card, and where both draw (known once slot five is dealt)."""
    slots = {
        s: {"value": _VALUES[ranks[s]] if s < len(ranks) else np.int8(0)} for s in range(_CARDS)
    }
    rnd = _Round(slots, True, tableau)
    pd = np.broadcast_to(rnd.pd, ranks[0].shape)
    if len(ranks) == 4:
        alone = np.broadcast_to(_banker_alone(rnd), ranks[0].shape) & ~pd
        return ~pd & ~alone, pd, alone
    bd = np.broadcast_to(rnd.bd, ranks[0].shape)
    return ~pd & ~bd, pd & ~bd, pd & bd


def _banker_alone(rnd: _Round) -> Any:
    """Whether the banker draws when the player stood (read without a fifth card)."""
    from exactodds.counting.evaluate import _draw_tables
    from exactodds.deal.tableau import STOOD

    return _draw_tables(rnd.tableau)[1][rnd.pt, rnd.bt, STOOD]


def _falling(ranks: Sequence[Any], counts: Any, weight: Any) -> Any:
    """``weight`` times, per slot, the cards of its rank left after the earlier slots."""
    for s in range(len(ranks)):
        earlier = sum((ranks[t] == ranks[s]).astype(np.int64) for t in range(s))
        weight = weight * np.maximum(counts[ranks[s]] - earlier, 0)
    return weight


def _extend(ranks: Sequence[Any], weight: Any, counts: Any) -> tuple[list[Any], Any]:
    """Every cell followed by each of the 13 ranks, weighted by the cards of it left."""
    cells = len(weight)
    out = [np.repeat(r, 13) for r in ranks]
    new = np.tile(np.arange(13, dtype=np.int64), cells)
    earlier = sum((r == new).astype(np.int64) for r in out)
    weight = np.repeat(weight, 13) * np.maximum(counts[new] - earlier, 0)
    live = weight != 0
    return [r[live] for r in [*out, new]], weight[live]


def _axis(i: int) -> tuple[int, ...]:
    out = [1] * (_CARDS - 1)
    out[i] = 13
    return tuple(out)


def _check(key: Key) -> None:
    if isinstance(key, ShownCards):
        bad = [p for p in key.positions if p not in POSITIONS]
        if bad or not key.positions or key.attr not in ("value", "rank"):
            raise PaytableError(f"cannot show {' '.join(key.positions)!r} by {key.attr!r}")
    elif not key.cards:
        raise PaytableError("a multiplied group needs a card")


def _rows(conditions: Sequence[Condition], rnd: _Round, shape: tuple[int, ...]) -> Any:
    """The index of the first condition that holds, per cell."""
    row = np.full(shape, len(conditions) - 1, dtype=np.int64)
    ev = _Evaluator(rnd)
    for i in range(len(conditions) - 1, -1, -1):
        node = conditions[i].node
        if isinstance(node, Otherwise):
            row[...] = i
            continue
        row = np.where(np.broadcast_to(ev.test(node), shape), i, row)
    return row


def _key_code(key: Key, rnd: _Round, raw: Raw, shape: tuple[int, ...]) -> Any:
    if isinstance(key, ShownCards):
        code = np.zeros(shape, dtype=np.int64)
        for i, p in enumerate(key.positions):
            attr = np.broadcast_to(raw[POSITIONS[p]][key.attr], shape).astype(np.int64)
            code = code + attr * _BASE**i
        return code
    cards = _group_ranks(key, rnd, raw, shape)
    stacked = np.sort(np.stack(cards), axis=0)
    code = np.zeros(shape, dtype=np.int64)
    for i in range(stacked.shape[0]):
        code = code + stacked[i].astype(np.int64) * _BASE**i
    return code


def _group_ranks(key: GroupRanks, rnd: _Round, raw: Raw, shape: tuple[int, ...]) -> list[Any]:
    """Each card of the group: its rank where dealt, 0 where not (read from the small raw
    attributes: only compared and sorted)."""

    def rank(slot: int, dealt: Any = True) -> Any:
        return np.broadcast_to(np.where(dealt, raw[slot]["rank"], 0), shape)

    def third(side: str) -> Any:
        if side == "player":
            return rank(4, rnd.pd)
        return np.broadcast_to(np.where(rnd.bd, np.where(rnd.pd, rank(5), rank(4)), 0), shape)

    cards = {
        "player.card1": lambda: rank(0),
        "player.card2": lambda: rank(2),
        "player.card3": lambda: third("player"),
        "banker.card1": lambda: rank(1),
        "banker.card2": lambda: rank(3),
        "banker.card3": lambda: third("banker"),
    }
    groups = {
        "player": ("player.card1", "player.card2", "player.card3"),
        "banker": ("banker.card1", "banker.card2", "banker.card3"),
        "initial": ("player.card1", "banker.card1", "player.card2", "banker.card2"),
        "round": tuple(cards),
    }
    names = [c for name in key.cards for c in groups.get(name, (name,))]
    return [cards[c]() for c in names]


def _accumulate(out: dict[int, int], codes: Any, weights: Any) -> None:
    """Add each code's weights into ``out`` (exact: int64 sums bounded by the universe)."""
    if not len(codes):
        return
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    weights = weights[order]
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    sums = np.add.reduceat(weights, starts)
    for c, w in zip(codes[starts].tolist(), sums.tolist(), strict=True):
        out[c] = out.get(c, 0) + int(w)


def _decode(key: Key, code: int) -> tuple[int, ...]:
    digits = []
    for _ in range(_CARDS):
        digits.append(code % _BASE)
        code //= _BASE
    if isinstance(key, ShownCards):
        return tuple(digits[: len(key.positions)])
    return tuple(d for d in digits if d)
