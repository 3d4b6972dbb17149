"""Cards in lumps: the classes of the 52 rank × suit identities that a bet's tests cannot tell
apart at each slot, for bets that name particular cards (``count(round, rank == K and suit ==
hearts)``). A card's test inside ``count`` and a card's rank, suit or colour compared with
literals are read as one truth value per card; an attribute read otherwise (compared with
another card's, a pair, a poker category, suitedness, a shape) keeps its values apart at the
slots that read it. Two cards are then one class at a slot when every test read there (or at a
later slot: classes nest) agrees on them and, where values are read, their values are equal.
So K♥ is a class of its own, and the other cards of value 0 are one class, where the only test
is ``rank == K and suit == hearts``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from exactodds.counting.classes import (
    _COLOUR,
    _GROUP_SLOTS,
    _HAND_SLOTS,
    _RANK,
    _RED,
    _SUIT,
    Lumped,
    _by_trees,
)
from exactodds.counting.evaluate import _Evaluator, _Round
from exactodds.deal.round import FEATURE_KINDS
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import BUILTIN
from exactodds.language import (
    And,
    Cmp,
    Const,
    Count,
    In,
    Most,
    Node,
    Not,
    Or,
    Shape,
    Sum,
    Var,
)

_ATTRS = {"rank": _RANK, "suit": _SUIT, "colour": _COLOUR, "value": 0}

SlotReads = tuple[tuple[int, frozenset[Node]], ...]
"""Per slot: the attributes read exactly (bits) and the one-card tests read there."""


Lumps = tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]
"""Per slot, per card (4 · rank index + suit), a class key; and per slot, whether a condition
reads its card's value (the tableau aside)."""


def slot_lumps(nodes: Iterable[Node]) -> Lumps | None:
    """Per slot, per card (4 · rank index + suit), a class key: equal keys where no test read
    at that slot tells the cards apart (values aside); and per slot whether a condition reads
    its value. None where every slot keeps all 52 cards apart anyway."""
    return _by_trees("lumps", _read_lumps, nodes)  # type: ignore[no-any-return]


def _read_lumps(nodes: Sequence[Node]) -> Lumps | None:
    reads, values = _reads(nodes)
    keys = []
    for exact, tests in reads:
        columns = [_outcomes(t) for t in sorted(tests, key=repr)]
        ids: dict[tuple[object, ...], int] = {}
        key = []
        for card in range(52):
            r, s = divmod(card, 4)
            parts = (
                r if exact & _RANK else -1,
                s if exact & _SUIT else (int(_RED[s]) if exact & _COLOUR else -1),
                *(c[card] for c in columns),
            )
            key.append(ids.setdefault(parts, len(ids)))
        keys.append(tuple(key))
    if all(len(set(k)) == 52 for k in keys):
        return None
    return tuple(keys), values


_VALUES = {
    "total": (0, 1, 2, 3, 4, 5),
    "initial": (0, 1, 2, 3),
    "natural": (0, 1, 2, 3),
    "third": (4, 5),
}
"""The slots whose values a feature of a hand reads (cautious: either hand's)."""


def _reads(nodes: Iterable[Node]) -> tuple[SlotReads, tuple[bool, ...]]:
    """What each slot reads: attributes read exactly (bits) and one-card tests; and per slot
    whether its value is read (a value, a total, the winner...; the tableau aside)."""
    reader = _Reader()
    for root in nodes:
        reader.visit(root)
    pairs = zip(reader.exact, reader.tests, strict=True)
    return tuple((e, frozenset(t)) for e, t in pairs), tuple(reader.valued)


class _Reader:
    """One walk of the trees for :func:`_reads`."""

    def __init__(self) -> None:
        self.exact = [0] * 6
        self.tests: list[set[Node]] = [set() for _ in range(6)]
        self.valued = [False] * 6

    def mark(self, slots: Iterable[int], bits: int = 0, test: Node | None = None) -> None:
        for s in slots:
            self.exact[s] |= bits
            if test is not None:
                self.tests[s].add(test)

    def value(self, slots: Iterable[int]) -> None:
        for s in slots:
            self.valued[s] = True

    def literal_test(self, node: Cmp | In) -> bool:
        """A card's rank, suit or colour against literals: one test of that card."""
        if isinstance(node, In):
            var, ok = node.var, True
        else:
            var, other = node.left, node.right
            if isinstance(var, Const):
                var, other = other, var
            ok = isinstance(other, Const)
        found = _card_slots(var.name) if ok and isinstance(var, Var) else None
        if found is None or found[1] == "value":
            return False
        slots, attr = found
        plain = Var(attr)
        if isinstance(node, In):
            test: Node = In(plain, node.values, node.negated)
        elif isinstance(node.left, Var):
            test = Cmp(node.op, plain, node.right)
        else:
            test = Cmp(node.op, node.left, plain)
        self.mark(slots, test=test)
        return True

    def visit(self, node: Node) -> None:
        if isinstance(node, Count):
            self.mark(_GROUP_SLOTS[node.group], test=node.card)
        elif isinstance(node, Most | Shape):
            self.mark(_GROUP_SLOTS[node.group], _ATTRS[node.attr])
            if node.attr == "value":
                self.value(_GROUP_SLOTS[node.group])
        elif isinstance(node, Cmp | In):
            if not self.literal_test(node):
                for part in [node.var] if isinstance(node, In) else [node.left, node.right]:
                    self.visit(part)
        elif isinstance(node, Sum):
            for _, term in node.terms:
                self.visit(term)
        elif isinstance(node, Not):
            self.visit(node.item)
        elif isinstance(node, And | Or):
            for item in node.items:
                self.visit(item)
        elif isinstance(node, Var):
            self.feature(node.name)

    def feature(self, name: str) -> None:
        """A feature read other than against literals: a card's attribute exactly; a pair,
        poker category, suitedness or hand colour, the attributes they compare."""
        found = _card_slots(name)
        side, _, rest = name.partition(".")
        if found is not None:
            slots, attr = found
            self.mark(slots, _ATTRS[attr])
            if attr == "value":
                self.value(slots)
        elif rest in _COMPARES:
            first_two = rest in ("pair", "perfect_pair")
            self.mark(_HAND_SLOTS[side][:2] if first_two else _HAND_SLOTS[side], _COMPARES[rest])
        else:  # a total, a natural, the winner, the cards dealt...
            self.value(_VALUES.get(rest, range(6)))


_COMPARES = {
    "pair": _RANK,
    "perfect_pair": _RANK | _SUIT,
    "poker": _RANK | _SUIT,
    "suited": _SUIT,
    "colour": _COLOUR,
}
"""Features of a hand that compare its cards' attributes with each other."""


def _card_slots(name: str) -> tuple[tuple[int, ...], str] | None:
    """The slots a card feature (``player.card3.suit``) may be dealt at, and its attribute."""
    side, _, rest = name.partition(".")
    if name in FEATURE_KINDS or not rest.startswith("card"):
        return None
    card, attr = rest.split(".")
    i = int(card[4])
    return (_HAND_SLOTS[side][i - 1 :] if i == 3 else (_HAND_SLOTS[side][i - 1],)), attr


_CARDS = {
    "value": np.array([RANK_VALUES[c // 4] for c in range(52)], dtype=np.int64),
    "rank": np.array([c // 4 + 1 for c in range(52)], dtype=np.int64),
    "suit": np.array([c % 4 for c in range(52)], dtype=np.int64),
    "colour": np.array([int(_RED[c % 4]) for c in range(52)], dtype=np.int64),
}


@lru_cache(maxsize=4096)
def _outcomes(test: Node) -> tuple[bool, ...]:
    """A one-card test on each of the 52 cards, by the card engine's own evaluator."""
    rnd = _Round({}, False, BUILTIN["punto-banco"])
    out: Any = _Evaluator(rnd).test(test, _CARDS.__getitem__)
    return tuple(bool(x) for x in np.broadcast_to(np.asarray(out), (52,)))


@lru_cache(maxsize=1024)  # the same levels at every count a worked example makes
def level(
    keys: tuple[tuple[int, ...], ...], slots: tuple[int, ...], values: tuple[bool, ...]
) -> Lumped:
    """The classes of a slot dealt before ``slots`` (itself among them): the cards that no
    slot of them tells apart (``values``: per slot, whether its value is read)."""
    ids: dict[tuple[int, ...], int] = {}
    chosen = tuple(slots)
    return Lumped(
        any(values[s] for s in chosen),
        tuple(ids.setdefault(tuple(keys[s][c] for s in chosen), len(ids)) for c in range(52)),
    )


def keeps(keys: Sequence[tuple[int, ...]], g: Sequence[int]) -> bool:
    """Whether the suit permutation ``g`` maps every slot's classes onto classes."""
    for key in keys:
        image: dict[int, int] = {}
        for c in range(52):
            r, s = divmod(c, 4)
            if image.setdefault(key[c], key[4 * r + g[s]]) != key[4 * r + g[s]]:
                return False
        if len(set(image.values())) != len(image):
            return False
    return True
