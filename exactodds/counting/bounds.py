"""A count compared with literals, decided before its last cards are dealt: the count ends
between what its cards dealt so far give and that plus its cards still to come (two 7♦ among
six cards fail where none is among the first five), so the rounds where every value between
gives one answer are settled early (the card engine's three-valued decisions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from exactodds.counting.classes import _FLIP, _by_trees
from exactodds.counting.evaluate import _const_code, _Evaluator
from exactodds.counting.vectors import counted
from exactodds.deal.round import FeatureKind
from exactodds.language import Cmp, Const, Count, In, Node, walk


@dataclass(frozen=True)
class Bounds:
    """What the engine knows at a stage: the cards ``dealt`` (4, or 5 where both hands draw)
    and the ids of the comparisons to bound (:func:`bounded`)."""

    dealt: int
    ids: frozenset[int]

    def hope(self, node: Node, ev: _Evaluator) -> tuple[Any, Any] | None:
        """:func:`_count_hope` of ``node`` where it is to be bounded, else None."""
        return _count_hope(node, ev, self.dealt) if id(node) in self.ids else None


def _count_hope(node: Node, ev: _Evaluator, dealt: int) -> tuple[Any, Any] | None:
    """Where a late ``count(...)`` compared with literals surely holds and surely fails: the
    count ends between what its cards dealt so far (the first four; with ``dealt`` 5, where
    both hands draw, the player's third too) give and that plus its cards still to come, and
    the comparison is decided where every value between gives the same answer. None for any
    other node (or ``dealt`` 0: what is dealt not known)."""
    if dealt not in (4, 5):
        return None
    if isinstance(node, In):
        count, tests = node.var, [("==", Const(v)) for v in node.values]
    elif isinstance(node, Cmp):
        count, const, op = node.left, node.right, node.op
        if isinstance(count, Const):
            count, const, op = const, count, _FLIP[op]
        if not isinstance(const, Const):
            return None
        tests = [(op, const)]
    else:
        return None
    if not isinstance(count, Count):
        return None
    rnd = ev.rnd
    cards = rnd.group_cards(count.group)
    # group_cards lists a hand's first two cards, then its third (the player's, dealt fifth,
    # is known at five cards: only rounds where both draw are dealt further).
    player = [True, True, dealt == 5]
    known = {"initial": [True] * 4, "player": player, "banker": [True, True, False]}
    dealt_cards = known.get(count.group, [*player, True, True, False])
    later = dealt_cards.count(False)
    known_cards = [c for c, k in zip(cards, dealt_cards, strict=True) if k]
    # The first four cards first (their sum has their block's shape), the fifth card last.
    known_cards.sort(key=lambda card: card[0] is not True)
    low: Any = 0  # at most six cards: bytes
    for mask, get in known_cards:
        low = low + (np.asarray(ev.test(count.card, get)) & mask).astype(np.int8)
    holds: Any = np.True_
    fails: Any = np.True_
    monotone = isinstance(node, Cmp) and node.op not in ("==", "!=")
    for extra in range(later + 1):
        if monotone and 0 < extra < later:
            continue  # decided by the least and the greatest count alone
        value = (low + extra, 0, np.False_)
        truth: Any = np.False_
        for op, const in tests:
            literal = ev.operand(const, FeatureKind.INTEGER, None)
            truth = truth | ev.compare(op, value, literal, True)
        if isinstance(node, In) and node.negated:
            truth = ~truth
        holds, fails = holds & truth, fails & ~truth
    return holds, fails


_SLICES = 4
"""Most counts of one attribute (``count(round, suit == clubs) == 6``) bounded in a bet: each
is a slice of a count vector, cheap to read at the end, and bounding them costs a few array
operations per count and stage: Lucky Match written with 52 such comparisons took 0.74 s CPU
bounded, 0.22 s not; issue 33's hearts beside six clubs and two 7♦ 3.6 s bounded, 4.9 s not."""


def bounded(nodes: Sequence[Node]) -> frozenset[int]:
    """The ids of the comparisons of a count with literals that :func:`_count_hope` decides:
    every count of a test naming more than one attribute (a named card), and those of one
    attribute where a bet has at most :data:`_SLICES` of them (once per trees: a worked
    example counts the same trees many times)."""
    return _by_trees("bounded", _read_bounded, nodes)  # type: ignore[no-any-return]


def _read_bounded(nodes: Sequence[Node]) -> frozenset[int]:
    """:func:`bounded`, walking the trees."""
    found: dict[Node, Count] = {}
    for root in nodes:
        for n in walk(root, into_count=False):
            if isinstance(n, Cmp | In) and (count := _count_of(n)) is not None:
                found[n] = count
    slices = {n for n, count in found.items() if counted(count, _const_code) is not None}
    keep = set(found) if len(slices) <= _SLICES else set(found) - slices
    return frozenset(id(n) for root in nodes for n in walk(root, into_count=False) if n in keep)


def _count_of(node: Cmp | In) -> Count | None:
    """The count a comparison reads against literals, or None."""
    if isinstance(node, In):
        return node.var if isinstance(node.var, Count) else None
    for a, b in ((node.left, node.right), (node.right, node.left)):
        if isinstance(a, Count) and isinstance(b, Const):
            return a
    return None
