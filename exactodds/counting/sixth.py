"""The sixth card dealt by its value first: where both hands draw, the rounds that the first
five cards and the sixth card's value decide are settled on the value classes (ten), and only
the others are dealt the sixth card's finer classes (rank, suit or colour).

Lucky 8's Banker bet reads the suits of the banker's three cards, so the sixth card is dealt
over 40 classes (value × suit); but every row needs a banker total of 8, which the sixth
card's value alone decides: most rounds are settled at ten classes, a few dealt at forty.
Exact: a value class's sequences are the sum of its finer classes' (the falling product's
factor of a class is its count less the earlier cards inside it, and the earlier classes, of
finer or equal slots, each lie inside or outside it), and a round is settled at the value
level only where the conditions are decided whatever its rank, suit and colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from exactodds.conditions import And, Condition, Node, Not, Or, Otherwise
from exactodds.counting.classes import (
    _COLOUR,
    _RANK,
    _READS_SIXTH_CLASS,
    _SUIT,
    NONE,
    _Axis,
    _axis,
    _subset,
)
from exactodds.counting.evaluate import _Round
from exactodds.shoe import Shoe
from exactodds.tableau import Tableau

_BY_VALUE = True  # the sixth card by its value first (benchmarks and tests turn it off)
_SHARE = 0.5
"""Beyond this share of the sixth card's fine cells still open after the value classes, the
value classes cost more than they save: later blocks deal the fine classes at once."""


class _Settles(Protocol):
    def decide(
        self,
        rnd: _Round,
        cells: Any,
        select: Any,
        scale: int,
        dealt: int,
        *,
        late: Any = None,
    ) -> Any: ...

    def settle(self, rnd: _Round, cells: Any, select: Any, scale: int) -> None: ...


@dataclass
class SixthByValue:
    """The sixth slot's value classes beside its fine ones, and whether to use them (on until
    a chunk leaves more than :data:`_SHARE` of its fine cells open)."""

    count: Any  # per value class, its cards (the cells' dtype)
    fine_count: Any  # per fine class
    inside: tuple[Any, ...]  # per earlier axis j: [i, v] class i inside value class v (bytes)
    fine_inside: tuple[Any, ...]  # per earlier axis j: [i, c] inside fine class c (bytes)
    members: Any  # [v, k]: the fine classes of value class v, -1 past the last
    value: Any  # per value class, its value
    fine: Mapping[str, Any]  # per fine class, its attributes
    on: bool = field(default=True)

    def settle(
        self,
        tally: _Settles,
        attrs: Mapping[int, Mapping[str, Any]],
        classes: Sequence[Any],
        cells: Any,
        scale: int,
        *,
        deal: bool,
        tableau: Tableau,
    ) -> None:
        """Settle the rounds of ``cells`` (one per row of the earlier slots' ``classes``,
        scalars for the outer ones; ``attrs`` those slots' attributes, a column per row) times
        every sixth card, times ``scale``: at the value level where that decides them, else
        at the fine classes."""
        used: Any = 0
        for j, c in enumerate(classes):
            used = used + self.inside[j][c]
        vcells = cells[:, None] * (self.count - used)
        vattrs = dict(attrs)
        vattrs[5] = {
            "value": self.value[None, :],
            **{name: np.int64(NONE) for name in ("rank", "suit", "colour", "class")},
        }
        rnd = _Round(vattrs, deal, tableau, both=True)
        open_ = tally.decide(rnd, vcells, vcells != 0, scale, 6, late=_late)
        rows, values = np.nonzero(np.broadcast_to(open_, vcells.shape))
        members = self.members[values]  # a row per open cell, a column per fine class in it
        there = members >= 0
        if there.sum() > _SHARE * vcells.shape[0] * len(self.fine_count):
            self.on = False
        if not len(rows):
            return
        fine = np.where(there, members, 0)
        used = 0
        for j, c in enumerate(classes):
            used = used + self.fine_inside[j][c if np.ndim(c) == 0 else c[rows][:, None], fine]
        six = cells[rows][:, None] * (self.fine_count[fine] - used) * there
        fattrs: dict[int, Mapping[str, Any]] = {
            slot: _Gathered(named, rows) for slot, named in attrs.items()
        }
        fattrs[5] = _Gathered(self.fine, fine)
        tally.settle(_Round(fattrs, deal, tableau, both=True), six, None, scale)


class _Gathered(dict[str, Any]):
    """A slot's attributes at some cells: each gathered on first use (most are never read)."""

    def __init__(self, named: Mapping[str, Any], at: Any) -> None:
        super().__init__()
        self.named, self.at = named, at

    def __missing__(self, name: str) -> Any:
        a = self.named[name]
        # a column per row of the earlier slots, or a value per class of the sixth slot; a
        # scalar is the same at every cell
        found = a[self.at] if np.ndim(a) else a
        self[name] = found
        return found


def _late(node: Node) -> bool:
    """Unknown on the value classes: a comparison reading the sixth card's class."""
    return _READS_SIXTH_CLASS(node)


def _may_decide(node: Node) -> bool:
    """Whether a condition may be decided without the sixth card's rank, suit and colour:
    some comparison in it does not read them."""
    if isinstance(node, Otherwise):
        return True
    if isinstance(node, Not):
        return _may_decide(node.item)
    if isinstance(node, And | Or):
        return any(_may_decide(item) for item in node.items)
    return not _READS_SIXTH_CLASS(node)


def sixth_by_value(
    axes: Sequence[_Axis],
    shoe: Shoe,
    dtype: Any,
    conditions: Sequence[Condition],
    offer: Condition | None,
) -> SixthByValue | None:
    """The value classes of the last axis (the sixth card's) for :class:`SixthByValue`, or
    None when that axis is by value already or nothing could be settled by them: neither the
    offer nor the first row (which every round reads first) may be decided by value."""
    last = axes[-1]
    if not _BY_VALUE or not last.bits & (_RANK | _SUIT | _COLOUR):
        return None
    if not _may_decide(conditions[0].node) and not (offer and _may_decide(offer.node)):
        return None
    by_value = _axis(last.slot, 0, shoe.counts, None, last.coding)
    if len(by_value) >= len(last):
        return None
    of = [next(v for v, cards in enumerate(by_value.cards) if c <= cards) for c in last.cards]
    width = max(of.count(v) for v in range(len(by_value)))
    members = np.full((len(by_value), width), -1, dtype=np.int64)
    for v in range(len(by_value)):
        mine = [c for c, w in enumerate(of) if w == v]
        members[v, : len(mine)] = mine
    names = ("value", "rank", "suit", "colour")
    fine = {name: np.array(getattr(last, name), dtype=np.int64) for name in names}
    fine["class"] = np.arange(len(last), dtype=np.int64)
    return SixthByValue(
        count=np.array(by_value.count, dtype=dtype),
        fine_count=np.array(last.count, dtype=dtype),
        inside=tuple(_subset(a, by_value).astype(np.uint8) for a in axes[:-1]),
        fine_inside=tuple(_subset(a, last).astype(np.uint8) for a in axes[:-1]),
        members=members,
        value=np.array(by_value.value, dtype=np.int64),
        fine=fine,
    )
