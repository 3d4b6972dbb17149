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
    RANK_WORDS,
    SUIT_WORDS,
    Cmp,
    Condition,
    Const,
    Count,
    In,
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


def _reads_sixth_class(node: Node) -> bool:
    """Whether a condition reads the sixth card's rank, suit or colour (its value aside): what
    the first five cards and the sixth card's value do not decide. Cautious: any banker feature
    but the round's, its first two cards' and its third card's value counts as read."""
    return _reads_third_class(node, ("banker",))


def _reads_thirds_class(node: Node) -> bool:
    """Whether a condition reads the rank, suit or colour of a hand's third card (where both
    draw, the fifth and sixth cards; their values aside)."""
    return _reads_third_class(node, ("player", "banker"))


def _reads_third_class(node: Node, sides: tuple[str, ...]) -> bool:
    """Whether a condition reads the rank, suit or colour of the third card of a hand of
    ``sides`` (cautious: any feature of the hand but the round's, its first two cards' and its
    third card's value counts as read)."""
    for n in walk(node, into_count=False):
        if isinstance(n, Count) and (n.group == "round" or n.group in sides):
            if any(isinstance(v, Var) and v.name != "value" for v in walk(n.card)):
                return True
        elif isinstance(n, Most | Shape) and (n.group == "round" or n.group in sides):
            if n.attr != "value":
                return True
        elif isinstance(n, Var):
            side, _, rest = n.name.partition(".")
            if (
                side in sides
                and n.name not in FEATURE_KINDS
                and rest != "card3.value"
                and not rest.startswith(("card1.", "card2."))
            ):
                return True
    return False


def _reads_fifth(node: Node) -> bool:
    """Whether a condition reads a card after the first four (what they do not decide)."""
    return _needs([node])[1]


_READS_FIFTH = cache(_reads_fifth)
_READS_SIXTH = cache(_reads_sixth)
_READS_SIXTH_CLASS = cache(_reads_sixth_class)
_READS_THIRDS_CLASS = cache(_reads_thirds_class)


Coding = tuple[tuple[int, ...], tuple[int, ...]]
"""Per rank index, the value and the rank index that classes of cards show (see
:func:`_rank_coding`)."""

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_TESTS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _rank_coding(nodes: Iterable[Node], deal: bool) -> Coding | None:
    """Where conditions read a card's rank only against literals (``rank == 9``, ``rank in
    [J, Q, K]``), ranks that every such test and (where read) the value cannot tell apart
    are one class: the per-rank (value, rank index) classes show, each lump shown as its
    least rank. Values where neither the tableau (``deal``) nor a condition reads them are
    not told apart (0). None where a rank is read otherwise (compared with another card's,
    in a pair, a poker category, a shape) or no two ranks merge. Lucky Nines' suits inside
    ``count`` then deal nines × suits and the rest × suits, not 52 classes a card."""
    return _by_trees(f"coding {deal}", lambda trees: _read_coding(trees, deal), nodes)  # type: ignore[no-any-return]


def _read_coding(nodes: Iterable[Node], deal: bool) -> Coding | None:  # noqa: PLR0912 - a case per node type
    """:func:`_rank_coding`, walking the trees."""
    tests: set[tuple[str, tuple[int, ...]]] = set()
    tested = 0  # ranks read against literals, and all the ranks read: equal, or no coding
    read = 0
    values = deal
    for root in nodes:
        for node in walk(root):
            if isinstance(node, Cmp | In):
                sides = [node.var] if isinstance(node, In) else [node.left, node.right]
                if not any(isinstance(v, Var) and _is_rank(v.name) for v in sides):
                    continue
                if isinstance(node, In):
                    op, consts = "in", node.values
                else:
                    op, other = node.op, node.right
                    if isinstance(node.left, Const):
                        op, other = _FLIP[node.op], node.left
                    if not isinstance(other, Const):
                        return None  # a rank against another card's (or a sum)
                    consts = (other.value,)
                codes = tuple(sorted({_rank_code(c) for c in consts if c is not None}))
                tests.add((op, codes))  # (none against a card that is there: never true)
                tested += 1
            elif isinstance(node, Most | Shape):
                if node.attr == "rank":
                    return None
                values |= node.attr == "value"
            elif isinstance(node, Var):
                name = node.name
                if _is_rank(name):
                    read += 1
                elif name.endswith((".pair", ".perfect_pair", ".poker")):
                    return None
                elif not (
                    name in ("suit", "colour") or name.endswith((".suit", ".colour", ".suited"))
                ):
                    values = True  # a value, a total, a natural, the winner...
    if read != tested:
        return None  # a rank read otherwise (in a sum, as a truth value)
    lumps: dict[tuple[object, ...], int] = {}
    ranks = []
    for r in range(13):
        outcome = tuple(
            (r + 1 in codes) if op == "in" else any(_TESTS[op](r + 1, c) for c in codes)
            for op, codes in sorted(tests)
        )
        ranks.append(lumps.setdefault((RANK_VALUES[r] if values else 0, outcome), r))
    if len(lumps) == 13:
        return None
    return tuple(RANK_VALUES[r] if values else 0 for r in range(13)), tuple(ranks)


def _rank_code(value: object) -> int:
    """A rank literal as its number (A 1 … K 13), as the engine codes ranks."""
    return RANK_WORDS[value.lower()] if isinstance(value, str) else int(value)  # type: ignore[call-overload]


def _is_rank(name: str) -> bool:
    return name == "rank" or name.endswith(".rank")


def _unions(coding: Coding | None, sets: Iterable[frozenset[tuple[int, int]]]) -> bool:
    """Whether each set of cards is a union of the finest classes of ``coding`` (a card's:
    the cards of its suit whose rank is in its lump)."""
    if coding is None:
        return True
    _, ranks = coding
    return all(
        (x, s) in cards
        for cards in sets
        for r, s in cards
        for x in range(13)
        if ranks[x] == ranks[r]
    )


# -- classes of cards --------------------------------------------------------------------------


@dataclass(frozen=True)
class Lumped:
    """Classes given card by card (made by :mod:`exactodds.counting.lumps`): cards with equal
    ``key[4 * rank index + suit]`` are one class at a slot whose attributes are read at all,
    values apart where ``values``; where nothing but the value is read, classes by value (or
    one class). A class shows the value, rank, suit and colour of its least card: every test
    the conditions make at that slot gives the same answer for each of its cards."""

    values: bool
    key: tuple[int, ...]


def _lumped_key(bits: int, r: int, s: int, lumped: Lumped) -> tuple[int, int]:
    return (RANK_VALUES[r] if lumped.values else 0, lumped.key[4 * r + s] if bits else NONE)


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
    coding: Coding | Lumped | None = None

    def __len__(self) -> int:
        return len(self.count)


def _key(bits: int, r: int, s: int, coding: Coding | None = None) -> tuple[int, int, int, int]:
    if coding is not None:
        values, ranks = coding
        return (
            values[r],
            ranks[r] + 1 if bits & _RANK else NONE,
            s if bits & _SUIT else NONE,
            int(_RED[s]) if bits & (_SUIT | _COLOUR) else NONE,
        )
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
    coding: Coding | Lumped | None = None,
) -> _Axis:
    if isinstance(coding, Lumped):
        return _lumped_axis(slot, bits, counts, allowed, coding)
    groups: dict[tuple[int, int, int, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(counts):
        for s, n in enumerate(row):
            if n and (allowed is None or (r, s) in allowed):
                groups.setdefault(_key(bits, r, s, coding), []).append((r, s))
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
        coding,
    )


def _lumped_axis(
    slot: int,
    bits: int,
    counts: Sequence[Sequence[int]],
    allowed: frozenset[tuple[int, int]] | None,
    lumped: Lumped,
) -> _Axis:
    """:func:`_axis` over the classes of ``lumped``, each shown as its least card."""
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(counts):
        for s, n in enumerate(row):
            if n and (allowed is None or (r, s) in allowed):
                groups.setdefault(_lumped_key(bits, r, s, lumped), []).append((r, s))
    keys = sorted(groups)
    least = [min(groups[k]) for k in keys]
    return _Axis(
        slot,
        bits,
        tuple(sum(counts[r][s] for r, s in groups[k]) for k in keys),
        tuple(RANK_VALUES[r] for r, _ in least),  # a test inside count may read it
        tuple(r + 1 if bits & _RANK else NONE for r, _ in least),
        tuple(s if bits & _SUIT else NONE for _, s in least),
        tuple(int(_RED[s]) if bits & (_SUIT | _COLOUR) else NONE for _, s in least),
        tuple(frozenset(groups[k]) for k in keys),
        lumped,
    )


@lru_cache(maxsize=4096)  # worked examples ask again for the same known cards
def _coarsest(bits: int, allowed: frozenset[tuple[int, int]], coding: Coding | None = None) -> int:
    """The coarsest refinement of ``bits`` whose classes ``allowed`` is a union of (with
    ``coding``, :data:`_RANK` | :data:`_SUIT` even where it is not: see :func:`_unions`)."""
    for extra in (0, _COLOUR, _RANK, _SUIT, _RANK | _COLOUR, _RANK | _SUIT):
        b = _norm(bits | extra)
        classes: dict[tuple[int, int, int, int], set[bool]] = {}
        for r in range(13):
            for s in range(4):
                classes.setdefault(_key(b, r, s, coding), set()).add((r, s) in allowed)
        if all(len(v) == 1 for v in classes.values()):
            return b
    return _RANK | _SUIT


@lru_cache(maxsize=4096)  # the same axes at every count a worked example makes
def _subset(a: _Axis, b: _Axis) -> np.ndarray:
    """[i, j]: class i of the finer axis ``a`` lies inside class j of ``b``."""
    if isinstance(a.coding, Lumped) or isinstance(b.coding, Lumped):
        # Classes nest (a plan's levels refine each other): inside where they meet.
        return np.array([[not x.isdisjoint(y) for y in b.cards] for x in a.cards], dtype=bool)
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


@lru_cache(maxsize=4096)  # the same axes at every count a worked example makes
def _act(g: tuple[int, ...], axis: _Axis) -> list[int]:
    """Where each class of ``axis`` goes under the suit permutation ``g``."""
    index = {cards: i for i, cards in enumerate(axis.cards)}
    return [index[frozenset((r, g[s]) for r, s in cards)] for cards in axis.cards]


def reads_suits(conditions: Iterable[Condition]) -> bool:
    """Whether the conditions read a suit or a colour anywhere (so a round must give suits)."""
    bits, _, colour_literal = _needs([c.node for c in conditions])
    return colour_literal or any(b & (_SUIT | _COLOUR) for b in bits)
