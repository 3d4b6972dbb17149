"""The third cards dealt by their values first: where both hands draw, the rounds that the
first four cards and the values of the fifth and sixth cards decide are settled on value
classes, and only the others are dealt the fifth and sixth cards' finer classes (rank, suit or
colour).

Lucky 8's Banker bet reads the suits of the banker's three cards, so the fifth and sixth cards
are dealt over 40 classes (value × suit); but every row needs a banker total of 8, which their
values decide, and the banker's suitedness fails wherever its first two cards differ: most
rounds are settled on value classes, rows of one four-card cell and one value of the fifth card
merged, a few dealt at forty. Exact: a value class's sequences are the sum of its finer
classes' (the falling product's factor of a class is its count less the earlier cards inside
it, and the earlier classes, of finer or equal slots, each lie inside or outside it; the fifth
card's classes of one value lie inside the same value classes of the sixth), and a round is
settled on values only where the conditions are decided whatever the third cards' ranks, suits
and colours. Where the fifth card's class decides too much, its rows are kept apart (only the
sixth card's class unknown); where even that leaves most cells open, the fine classes at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from exactodds.counting.classes import (
    _COLOUR,
    _RANK,
    _READS_SIXTH,
    _READS_SIXTH_CLASS,
    _READS_THIRDS_CLASS,
    _SUIT,
    NONE,
    Lumped,
    _Axis,
    _axis,
    _subset,
)
from exactodds.counting.evaluate import _Round
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.language import And, Condition, Node, Not, Or, Otherwise

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
    fifth_of: Any  # per class of the fifth card, its value class
    fine_inside: tuple[Any, ...]  # per earlier axis j: [i, c] inside fine class c (bytes)
    members: Any  # [v, k]: the fine classes of value class v, -1 past the last
    value: Any  # per value class, its value
    fine: Mapping[str, Any]  # per fine class, its attributes
    on: bool = field(default=True)
    grouped: bool = field(default=True)
    probing: bool = field(default=True)  # the engine deals small chunks until a mode holds

    def settle(
        self,
        tally: _Settles,
        attrs: Mapping[int, Mapping[str, Any]],
        classes: Sequence[Any],
        cells: Any,
        scale: int,
        *,
        cell: Any,
        deal: bool,
        tableau: Tableau,
    ) -> None:
        """Settle the rounds of ``cells`` (one per row: the first four cards' ``cell`` and a
        fifth card; ``classes`` per earlier slot, scalars for the outer ones; ``attrs`` their
        attributes, a column per row) times every sixth card, times ``scale``: at the value
        level where that decides them, else at the fine classes.

        On the value level the rows of one four-card cell and one value of the fifth card are
        one (their cells summed): the sixth card's value classes lose to the fifth card by its
        value alone, and no condition decided there reads more of it."""
        mode = self.grouped, self.on
        self._settle(tally, attrs, classes, cells, scale, cell=cell, deal=deal, tableau=tableau)
        self.probing = self.on and (self.grouped, self.on) != mode

    def _settle(
        self,
        tally: _Settles,
        attrs: Mapping[int, Mapping[str, Any]],
        classes: Sequence[Any],
        cells: Any,
        scale: int,
        *,
        cell: Any,
        deal: bool,
        tableau: Tableau,
    ) -> None:
        if not len(cells):  # no four-card cell left open in this block
            return
        fifth = classes[-1]
        if self.grouped:
            key = np.asarray(cell) * len(self.count) + self.fifth_of[fifth]
        else:  # each row its own group
            key = np.arange(len(cells))
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        sizes = np.diff(np.r_[starts, len(ordered)])
        first = order[starts]  # a row of each group
        weights = np.add.reduceat(cells[order], starts)
        used: Any = 0
        for j, c in enumerate(classes):
            used = used + self.inside[j][c if np.ndim(c) == 0 else c[first]]
        vcells = weights[:, None] * (self.count - used)
        vattrs: dict[int, Mapping[str, Any]] = {
            slot: _Gathered(named, first) for slot, named in attrs.items()
        }
        if self.grouped:
            vattrs[4] = _Unread(vattrs[4])
        vattrs[5] = _Unread({"value": self.value[None, :]})
        rnd = _Round(vattrs, deal, tableau, both=True)
        late = _late if self.grouped else _READS_SIXTH_CLASS
        open_ = tally.decide(rnd, vcells, vcells != 0, scale, 6, late=late)
        groups, values = np.nonzero(np.broadcast_to(open_, vcells.shape))
        if not len(groups):
            return
        # every row of each open group, with the group's sixth value class
        counts = sizes[groups]
        ends = np.cumsum(counts)
        at = np.repeat(starts[groups] - (ends - counts), counts) + np.arange(int(ends[-1]))
        rows, values = order[at], np.repeat(values, counts)
        members = self.members[values]  # a row per open cell, a column per fine class in it
        there = members >= 0
        if self.grouped and there.sum() > _SHARE * len(cells) * len(self.count):
            self.grouped = False  # the fifth card's class decides too much: dealt apart
        elif there.sum() > _SHARE * len(cells) * len(self.fine_count):
            self.on = False
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


class _Unread(dict[str, Any]):
    """A card known by its value alone: its rank, suit and colour are NONE (the conditions
    decided on it do not read them: :func:`_late`)."""

    def __init__(self, named: Mapping[str, Any]) -> None:
        super().__init__(value=named["value"])

    def __missing__(self, name: str) -> Any:
        return np.int64(NONE)


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
    """Unknown on the value classes: a comparison reading the fifth or the sixth card's class
    (where both draw, the hands' third cards)."""
    return _READS_THIRDS_CLASS(node)


def _may_decide(node: Node) -> bool:
    """Whether the sixth card's value may decide a condition that the first five cards did
    not: some comparison in it reads the sixth card by its value alone (the others were as
    known before, or are unknown on values)."""
    if isinstance(node, Otherwise):
        return False
    if isinstance(node, Not):
        return _may_decide(node.item)
    if isinstance(node, And | Or):
        return any(_may_decide(item) for item in node.items)
    return _READS_SIXTH(node) and not _READS_SIXTH_CLASS(node)


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
    if isinstance(last.coding, Lumped) and not last.coding.values:
        return None  # no value read: nothing to settle by it
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
    inside = tuple(_subset(a, by_value).astype(np.uint8) for a in axes[:-1])
    names = ("value", "rank", "suit", "colour")
    fine = {name: np.array(getattr(last, name), dtype=np.int64) for name in names}
    fine["class"] = np.arange(len(last), dtype=np.int64)
    return SixthByValue(
        count=np.array(by_value.count, dtype=dtype),
        fine_count=np.array(last.count, dtype=dtype),
        inside=inside,
        fifth_of=inside[-1].argmax(axis=1),
        fine_inside=tuple(_subset(a, last).astype(np.uint8) for a in axes[:-1]),
        members=members,
        value=np.array(by_value.value, dtype=np.int64),
        fine=fine,
    )
