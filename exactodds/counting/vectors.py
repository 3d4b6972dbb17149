"""Count vectors: per cell of a block, how many cards of a group show each value of an
attribute (packed in one uint64), computed once per block, so that every
``count(GROUP, ATTR == X)`` of a bet is a slice of it, every comparison of such a count with a
literal a bit of one comparison of the whole vector, and an ``or``/``and`` of such comparisons
one mask test per cell: a bet written with one ``count`` row per rank costs a few array
operations per block, not several per rank and row (issue 26). ``most`` and ``shape`` read
the same vector. Exact: every field holds a count of at most six cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from exactodds.language import CARD_ATTRIBUTES, And, Cmp, Const, Count, Node, Or, Var

if TYPE_CHECKING:
    from exactodds.counting.evaluate import _Round

_BINS = {"rank": 15, "suit": 5, "colour": 3, "value": 11}
"""Bins of an attribute's vector: its codes −1 (none: a slot whose class does not tell it) to
the largest, each shifted by one."""

_SWAP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
"""``c op x`` as ``x op' c``."""

_HIGH = np.uint64(sum(1 << (4 * b + 3) for b in range(15)))
"""The top bit of every four-bit field of a packed vector."""


@dataclass(frozen=True)
class Counted:
    """``count(group, attr == value)``: the bin of ``value`` in the group's ``attr`` vector."""

    group: str
    attr: str
    bin: int


@dataclass(frozen=True)
class Compared:
    """``count(group, attr == value) op literal``, the literal clamped to [−1, 7]: a count of
    at most six cards lies in [0, 6], so the comparison is unchanged (and never overflows)."""

    counted: Counted
    op: str
    literal: int

    @property
    def plane(self) -> tuple[str, str, str, int]:
        """The comparison of the whole vector this one is a slice of."""
        return self.counted.group, self.counted.attr, self.op, self.literal


def vector(rnd: _Round, group: str, attr: str) -> Any:
    """Per cell, the group's count vector of ``attr`` packed in one uint64: four bits per bin
    (bin b, the code b − 1, at bits 4b to 4b + 3), each the number of dealt cards of the group
    with that code. At most six cards and 15 bins: a field holds at most 6 and never carries
    (nor does adding at most 9 to each field, as :func:`plane_bits` does)."""

    def make() -> Any:
        out: Any = np.uint64(0)
        for dealt, get in rnd.group_cards(group):
            one = _ONES[np.asarray(get(attr)) + 1]
            out = out + (one if dealt is True else np.where(dealt, one, np.uint64(0)))
        return np.asarray(out)

    return rnd.get(("vector", group, attr), make)


_ONES = np.array([1 << (4 * b) for b in range(15)], dtype=np.uint64)
"""One card in bin b: the packed vector's unit."""


def has_vector(rnd: _Round, counted: Counted) -> bool:
    """Whether the round has made the group's vector (for comparisons that share a plane of
    it, :func:`junction`): a count or a comparison of one is then a slice; else, a count alone
    costs less counted card by card than the whole vector."""
    return ("vector", counted.group, counted.attr) in rnd.cache


def count_of(rnd: _Round, counted: Counted) -> Any:
    """The count of one bin of the group's vector, as int64."""
    shifted = vector(rnd, counted.group, counted.attr) >> np.uint64(4 * counted.bin)
    return (shifted & np.uint64(15)).astype(np.int64)


def _at_least(rnd: _Round, group: str, attr: str, c: int) -> Any:
    """Bit 4b + 3 set where bin b holds at least ``c`` cards (−1 ≤ c ≤ 8): a field plus 8 − c
    reaches 8 exactly then (at most 6 + 9 < 16, no carry)."""

    def make() -> Any:
        add = np.uint64(sum((8 - c) << (4 * b) for b in range(15)))
        return (vector(rnd, group, attr) + add) & _HIGH

    return rnd.get(("at least", group, attr, c), make)


def plane_bits(rnd: _Round, key: tuple[str, str, str, int]) -> Any:
    """Bit 4b + 3 set where bin b's count compares true (``op literal``, the literal in
    [−1, 7]): an ``or`` or an ``and`` over any bins is one mask and one test per cell."""
    group, attr, op, c = key

    def make() -> Any:
        at_least, more = _at_least(rnd, group, attr, c), _at_least(rnd, group, attr, c + 1)
        return {
            ">=": lambda: at_least,
            ">": lambda: more,
            "<": lambda: at_least ^ _HIGH,
            "<=": lambda: more ^ _HIGH,
            "==": lambda: at_least & ~more,
            "!=": lambda: (at_least & ~more) ^ _HIGH,
        }[op]()

    return rnd.get(("plane", *key), make)


def most(rnd: _Round, group: str, attr: str) -> Any:
    """The largest multiplicity of ``attr`` among the group's cards: 1 (every group holds a
    card) plus the number of k in 2…6 that some bin holds at least k cards of (bytes)."""
    out = np.ones(np.shape(vector(rnd, group, attr)), dtype=np.uint8)
    for k in range(2, 7):
        some = _at_least(rnd, group, attr, k) != 0
        if not some.any():  # nor at least k + 1
            break
        out += some
    return out


def shape_code(rnd: _Round, group: str, attr: str) -> Any:
    """The group's shape of ``attr`` as :func:`~exactodds.counting.evaluate.shape_code` codes
    it: each bin of k cards adds k·7^(k−1) (its k cards, each of multiplicity k)."""
    code = np.zeros(np.shape(vector(rnd, group, attr)), dtype=np.int32)  # ≤ 6·7⁵ < 2³¹
    for k in range(1, 7):
        at_least = _at_least(rnd, group, attr, k)
        if not at_least.any():
            break
        exactly = np.bitwise_count(at_least & ~_at_least(rnd, group, attr, k + 1))
        code += exactly.astype(np.int32) * np.int32(k * 7 ** (k - 1))
    return code


def bit(counted: Counted) -> np.uint64:
    """The bit of a bin in :func:`plane_bits`."""
    return np.uint64(1 << (4 * counted.bin + 3))


_SPECS: dict[tuple[str, int], tuple[Node, object]] = {}
"""What :func:`counted`, :func:`compared` and :func:`junction` found, by node id (the node
kept, so the id stays its own): the engine asks again at every block."""


def _spec(kind: str, node: Node, make: Any) -> Any:
    key = (kind, id(node))
    found = _SPECS.get(key)
    if found is None or found[0] is not node:
        if len(_SPECS) > 1 << 14:
            _SPECS.clear()
        found = _SPECS[key] = (node, make(node))
    return found[1]


Literal = Callable[[object, Any], int]
"""A literal's code for a feature kind (the evaluator's, passed in: it imports this module)."""


def counted(node: Node, literal: Literal) -> Counted | None:
    """The vector slice of ``count(group, attr == literal)``, None for any other node.

    >>> from exactodds.language import parse_condition
    >>> from exactodds.counting.evaluate import _const_code
    >>> counted(parse_condition("count(round, rank == K) == 2").node.left, _const_code)
    Counted(group='round', attr='rank', bin=14)
    """
    return _spec("count", node, lambda n: _counted(n, literal))  # type: ignore[no-any-return]


def _counted(node: Node, literal: Literal) -> Counted | None:
    if not (isinstance(node, Count) and isinstance(node.card, Cmp) and node.card.op == "=="):
        return None
    var, const = node.card.left, node.card.right
    if isinstance(var, Const):
        var, const = const, var
    if not (isinstance(var, Var) and var.name in _BINS and isinstance(const, Const)):
        return None
    value = const.value
    if value is None or isinstance(value, bool):
        return None
    code = literal(value, CARD_ATTRIBUTES[var.name])
    if not 0 <= code + 1 < _BINS[var.name]:
        return None
    return Counted(node.group, var.name, code + 1)


def compared(node: Node, literal: Literal) -> Compared | None:
    """The plane slice of a comparison of such a count with an integer literal, or None.

    >>> from exactodds.language import parse_condition
    >>> from exactodds.counting.evaluate import _const_code
    >>> compared(parse_condition("3 < count(round, rank == A)").node, _const_code)
    Compared(counted=Counted(group='round', attr='rank', bin=2), op='>', literal=3)
    """
    return _spec("cmp", node, lambda n: _compared(n, literal))  # type: ignore[no-any-return]


def _compared(node: Node, literal: Literal) -> Compared | None:
    if not isinstance(node, Cmp):
        return None
    op, count, const = node.op, node.left, node.right
    if isinstance(count, Const):
        op, count, const = _SWAP[op], const, count
    if not (isinstance(const, Const) and type(const.value) is int):
        return None
    found = counted(count, literal)
    if found is None:
        return None
    return Compared(found, op, max(-1, min(7, const.value)))


def junction(
    node: And | Or, literal: Literal
) -> tuple[tuple[tuple[tuple[str, str, str, int], Any], ...], Sequence[Node]]:
    """The items of an ``and``/``or`` as (plane, bit mask of their bins) for the comparisons
    that share a plane (two or more: one test of :func:`plane_bits` per cell), and the other
    items."""
    return _spec("junction", node, lambda n: _junction(n, literal))  # type: ignore[no-any-return]


def _junction(
    node: And | Or, literal: Literal
) -> tuple[tuple[tuple[tuple[str, str, str, int], Any], ...], Sequence[Node]]:
    planes: dict[tuple[str, str, str, int], list[tuple[int, Node]]] = {}
    for item in node.items:
        found = compared(item, literal)
        if found is not None:
            planes.setdefault(found.plane, []).append((found.counted.bin, item))
    rest = [item for items in planes.values() if len(items) == 1 for _, item in items]
    rest += [item for item in node.items if compared(item, literal) is None]
    grouped = tuple(
        (key, np.uint64(sum(1 << (4 * b + 3) for b in {b for b, _ in items})))
        for key, items in planes.items()
        if len(items) > 1
    )
    return grouped, rest
