"""A count compared with literals, decided before its last cards are dealt: the count ends
between what its cards dealt so far give and that plus its cards still to come (two 7♦ among
six cards fail where none is among the first five), so the rounds where every value between
gives one answer are settled early (the card engine's three-valued decisions)."""

from __future__ import annotations

from typing import Any

import numpy as np

from exactodds.counting.classes import _FLIP
from exactodds.counting.evaluate import _Evaluator
from exactodds.deal.round import FeatureKind
from exactodds.language import Cmp, Const, Count, In, Node


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
