"""What a bet's conditions read, the classes of cards each slot is enumerated over, and the
suit permutations that leave a count unchanged (the card engine's axes)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from exactodds.deal.round import FEATURE_KINDS
from exactodds.deal.shoe import RANK_VALUES, Shoe
from exactodds.language import (
    SUIT_WORDS,
    Condition,
    Const,
    Count,
    Most,
    Node,
    Shape,
    Var,
    walk,
)

POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2", "P3", "B3")
"""Dealing positions: the first four cards, then the player's and the banker's third card."""

Known = Mapping[str, Collection[tuple[int, int]]]
"""What is known of the cards by dealing position: position (:data:`POSITIONS`) → the cards it
may hold, as (rank index into :data:`~exactodds.deal.shoe.RANKS`, suit index 0–3). A card known
exactly is one card; by rank, four; by value or a group of ranks, all of their cards. A known
P3 or B3 also says that the hand drew that card."""

NONE = -1
_RANK, _SUIT, _COLOUR = 1, 2, 4
_ATTR_BITS = {"rank": _RANK, "suit": _SUIT, "colour": _COLOUR, "value": 0}
_HAND_SLOTS = {"player": (0, 2, 4), "banker": (1, 3, 4, 5), "initial": (0, 1, 2, 3)}
_GROUP_SLOTS = {**_HAND_SLOTS, "round": (0, 1, 2, 3, 4, 5)}
_RED = (False, True, True, False)  # c d h s

# -- what a condition reads --------------------------------------------------------------------


_BY_TREES: dict[tuple[object, ...], tuple[tuple[Node, ...], Any]] = {}
"""Results of :func:`_by_trees`, by the ids of the trees (the trees kept, so ids stay theirs)."""


def _by_trees(name: str, make: Callable[[tuple[Node, ...]], Any], nodes: Iterable[Node]) -> Any:
    """``make(nodes)`` once for the same tree objects: a bet's rows are read again at every
    count a worked example makes, and walking long rows is then a large part of the time."""
    trees = tuple(nodes)
    key = (name, *map(id, trees))
    found = _BY_TREES.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], trees, strict=True)):
        if len(_BY_TREES) > 1024:
            _BY_TREES.clear()
        found = _BY_TREES[key] = (trees, make(trees))
    return found[1]


def _needs(nodes: Iterable[Node]) -> tuple[list[int], bool, bool]:
    """Per slot the attributes read (bits), whether cards five and six matter, and whether a
    colour literal (red/black) is named."""
    bits, deal, colour_literal = _by_trees("needs", _read_needs, nodes)
    return list(bits), deal, colour_literal


def _read_needs(nodes: Iterable[Node]) -> tuple[tuple[int, ...], bool, bool]:  # noqa: PLR0912 - one walk, a case per node type
    """:func:`_needs`, walking the trees."""
    bits = [0] * 6
    deal = False
    colour_literal = False

    def mark(slots: Iterable[int], b: int) -> None:
        for s in slots:
            bits[s] |= b

    for root in nodes:
        for node in walk(root, into_count=False):
            if isinstance(node, Const) and node.value in ("red", "black"):
                colour_literal = True
            if isinstance(node, Count):
                inner = 0
                for n in walk(node.card):
                    if isinstance(n, Var):
                        inner |= _ATTR_BITS[n.name]
                    if isinstance(n, Const) and n.value in ("red", "black"):
                        colour_literal = True
                mark(_GROUP_SLOTS[node.group], inner)
                deal |= node.group != "initial"
                continue
            if isinstance(node, Most | Shape):
                mark(_GROUP_SLOTS[node.group], _ATTR_BITS[node.attr])
                deal |= node.group != "initial"
                continue
            if not isinstance(node, Var):
                continue
            name = node.name
            side, _, rest = name.partition(".")
            if name in FEATURE_KINDS:
                if rest == "pair":
                    mark(_HAND_SLOTS[side][:2], _RANK)
                elif rest == "perfect_pair":
                    mark(_HAND_SLOTS[side][:2], _RANK | _SUIT)
                elif rest not in ("initial", "natural"):
                    deal = True
            elif rest.startswith("card"):
                card, attr = rest.split(".")
                i = int(card[4])
                slots = _HAND_SLOTS[side][i - 1 :] if i == 3 else (_HAND_SLOTS[side][i - 1],)
                mark(slots, _ATTR_BITS[attr])
                deal |= i == 3
            elif rest == "suited":
                mark(_HAND_SLOTS[side], _SUIT)
                deal = True
            elif rest == "colour":
                mark(_HAND_SLOTS[side], _COLOUR)
                deal = True
            elif rest == "poker":
                mark(_HAND_SLOTS[side], _RANK | _SUIT)
                deal |= side != "initial"
    return tuple(bits), deal, colour_literal


def _norm(b: int) -> int:
    return b & ~_COLOUR if b & _SUIT else b


def _fineness(b: int) -> int:
    b = _norm(b)
    return 2 * bool(b & _RANK) + 2 * bool(b & _SUIT) + bool(b & _COLOUR)


def _reads_sixth(node: Node) -> bool:
    """Whether a condition reads the banker's third card when both hands draw (the sixth
    card): what the first five cards do not decide."""
    for n in walk(node, into_count=False):
        if isinstance(n, Count | Most | Shape) and n.group in ("banker", "round"):
            return True
        if isinstance(n, Var):
            side, _, rest = n.name.partition(".")
            if n.name in ("winner", "margin") or rest == "wins":
                return True
            if side == "banker" and (
                rest in ("total", "third", "suited", "colour", "poker") or rest.startswith("card3")
            ):
                return True
    return False


def _reads_fifth(node: Node) -> bool:
    """Whether a condition reads a card after the first four (what they do not decide)."""
    return _needs([node])[1]


_READS_FIFTH = cache(_reads_fifth)
_READS_SIXTH = cache(_reads_sixth)


# -- classes of cards --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Axis:
    """One slot's classes: per class its count and what it shows (NONE where not told)."""

    slot: int
    bits: int
    count: tuple[int, ...]
    value: tuple[int, ...]
    rank: tuple[int, ...]  # 1..13
    suit: tuple[int, ...]
    colour: tuple[int, ...]  # 1 red, 0 black
    cards: tuple[frozenset[tuple[int, int]], ...]

    def __len__(self) -> int:
        return len(self.count)


def _key(bits: int, r: int, s: int) -> tuple[int, int, int, int]:
    return (
        RANK_VALUES[r],
        r + 1 if bits & _RANK else NONE,
        s if bits & _SUIT else NONE,
        int(_RED[s]) if bits & (_SUIT | _COLOUR) else NONE,
    )


@lru_cache(maxsize=256)
def _axis(
    slot: int,
    bits: int,
    counts: Sequence[Sequence[int]],
    allowed: frozenset[tuple[int, int]] | None,
) -> _Axis:
    groups: dict[tuple[int, int, int, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(counts):
        for s, n in enumerate(row):
            if n and (allowed is None or (r, s) in allowed):
                groups.setdefault(_key(bits, r, s), []).append((r, s))
    keys = sorted(groups)
    return _Axis(
        slot,
        bits,
        tuple(sum(counts[r][s] for r, s in groups[k]) for k in keys),
        tuple(k[0] for k in keys),
        tuple(k[1] for k in keys),
        tuple(k[2] for k in keys),
        tuple(k[3] for k in keys),
        tuple(frozenset(groups[k]) for k in keys),
    )


def _coarsest(bits: int, allowed: frozenset[tuple[int, int]]) -> int:
    """The coarsest refinement of ``bits`` whose classes ``allowed`` is a union of."""
    for extra in (0, _COLOUR, _RANK, _SUIT, _RANK | _COLOUR, _RANK | _SUIT):
        b = _norm(bits | extra)
        classes: dict[tuple[int, int, int, int], set[bool]] = {}
        for r in range(13):
            for s in range(4):
                classes.setdefault(_key(b, r, s), set()).add((r, s) in allowed)
        if all(len(v) == 1 for v in classes.values()):
            return b
    return _RANK | _SUIT


def _subset(a: _Axis, b: _Axis) -> np.ndarray:
    """[i, j]: class i of the finer axis ``a`` lies inside class j of ``b``."""
    out = np.ones((len(a), len(b)), dtype=bool)
    out &= np.equal.outer(np.array(a.value), np.array(b.value))
    if b.bits & _RANK:
        out &= np.equal.outer(np.array(a.rank), np.array(b.rank))
    if b.bits & _SUIT:
        out &= np.equal.outer(np.array(a.suit), np.array(b.suit))
    elif b.bits & _COLOUR:
        out &= np.equal.outer(np.array(a.colour), np.array(b.colour))
    return out


def _symmetries(
    shoe: Shoe, nodes: Sequence[Node], colours: bool, colour_literal: bool
) -> list[tuple[int, ...]]:
    """Suit permutations under which the shoe and the conditions are unchanged."""
    named = _by_trees("suits", _named_suits, nodes)
    columns = list(zip(*shoe.counts, strict=True))  # per suit, the count of each rank
    out = []
    for g in itertools.permutations(range(4)):
        if any(g[s] != s for s in named):
            continue
        if any(columns[g[s]] != columns[s] for s in range(4)):
            continue
        if colours:
            keeps = all(_RED[g[s]] == _RED[s] for s in range(4))
            swaps = all(_RED[g[s]] != _RED[s] for s in range(4))
            if not (keeps or (swaps and not colour_literal)):
                continue
        out.append(g)
    return out


def _named_suits(nodes: Iterable[Node]) -> frozenset[int]:
    """The suits the conditions name (walked once per trees, :func:`_by_trees`)."""
    return frozenset(
        SUIT_WORDS.index(n.value)
        for root in nodes
        for n in walk(root)
        if isinstance(n, Const) and n.value in SUIT_WORDS
    )


def _act(g: tuple[int, ...], axis: _Axis) -> list[int]:
    """Where each class of ``axis`` goes under the suit permutation ``g``."""
    index = {cards: i for i, cards in enumerate(axis.cards)}
    return [index[frozenset((r, g[s]) for r, s in cards)] for cards in axis.cards]


def reads_suits(conditions: Iterable[Condition]) -> bool:
    """Whether the conditions read a suit or a colour anywhere (so a round must give suits)."""
    bits, _, colour_literal = _needs([c.node for c in conditions])
    return colour_literal or any(b & (_SUIT | _COLOUR) for b in bits)
