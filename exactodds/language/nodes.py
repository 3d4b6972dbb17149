"""The syntax tree of a condition: immutable node dataclasses, the canonical text of a node,
and the walks over a tree (the features it names, whether it reads the cards).

>>> from exactodds.language.nodes import Cmp, Const, Var, node_text, walk
>>> node = Cmp(">=", Var("player.total"), Const(8))
>>> node_text(node), [type(n).__name__ for n in walk(node)]
('player.total >= 8', ['Cmp', 'Var', 'Const'])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Union

from exactodds.deal.round import FEATURE_INDEX

Value = int | bool | str | None


# -- syntax tree ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Var:
    """A feature reference such as ``player.total``."""

    name: str


@dataclass(frozen=True)
class Const:
    """A literal value."""

    value: Value


@dataclass(frozen=True)
class Count:
    """``count(group, card)``: how many cards of ``group`` satisfy ``card`` (a condition over
    one card's ``rank``, ``suit``, ``colour`` and ``value``)."""

    group: str
    card: Node


@dataclass(frozen=True)
class Most:
    """``most(group, attr)``: the largest multiplicity of ``attr`` (rank, suit, colour or value)
    among the cards of ``group`` (4 for four of a kind)."""

    group: str
    attr: str


@dataclass(frozen=True)
class Shape:
    """``shape(group, attr) == [3, 3]`` (or ``in [[…], …]``): the multiplicities of ``attr``
    among the cards of ``group``, sorted from the largest, are one of ``shapes`` (none of them
    when ``negated``)."""

    group: str
    attr: str
    shapes: tuple[tuple[int, ...], ...]
    negated: bool = False


@dataclass(frozen=True)
class Sum:
    """Integer operands added and subtracted: ``terms`` are (+1 or −1, operand)."""

    terms: tuple[tuple[int, Var | Const | Count | Most], ...]


Operand = Union[Var, Const, Count, Most, Sum]  # noqa: UP007


@dataclass(frozen=True)
class Cmp:
    """A comparison ``left op right``."""

    op: str
    left: Operand
    right: Operand


@dataclass(frozen=True)
class In:
    """Membership ``var in [values]`` (or ``not in``); ``var`` is a feature, a sum or a
    count."""

    var: Operand
    values: tuple[Value, ...]
    negated: bool = False


@dataclass(frozen=True)
class Not:
    """Negation."""

    item: Node


@dataclass(frozen=True)
class And:
    """Conjunction of two or more items (never nested directly in another ``And``)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    """Disjunction of two or more items (never nested directly in another ``Or``)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Otherwise:
    """Matches every outcome; only valid as the last row of a bet."""


Node = Union[Var, Const, Count, Most, Shape, Sum, Cmp, In, Not, And, Or, Otherwise]  # noqa: UP007


def value_text(v: Value) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def node_text(node: Node) -> str:
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Const):
        return value_text(node.value)
    if isinstance(node, Count):
        return f"count({node.group}, {node_text(node.card)})"
    if isinstance(node, Most):
        return f"most({node.group}, {node.attr})"
    if isinstance(node, Shape):
        lists = [f"[{', '.join(map(str, shape))}]" for shape in node.shapes]
        head = f"shape({node.group}, {node.attr})"
        if len(lists) == 1:
            return f"{head} {'!=' if node.negated else '=='} {lists[0]}"
        return f"{head} {'not in' if node.negated else 'in'} [{', '.join(lists)}]"
    if isinstance(node, Sum):
        first, *rest = node.terms
        return " ".join(
            [
                node_text(first[1]),
                *(f"{'-' if sign < 0 else '+'} {node_text(t)}" for sign, t in rest),
            ]
        )
    if isinstance(node, Cmp):
        return f"{node_text(node.left)} {node.op} {node_text(node.right)}"
    if isinstance(node, In):
        inner = ", ".join(value_text(v) for v in node.values)
        return f"{node_text(node.var)} {'not in' if node.negated else 'in'} [{inner}]"
    if isinstance(node, Not):
        inner = node_text(node.item)
        return f"not ({inner})" if isinstance(node.item, And | Or) else f"not {inner}"
    if isinstance(node, And):
        return " and ".join(
            f"({node_text(i)})" if isinstance(i, Or) else node_text(i) for i in node.items
        )
    if isinstance(node, Or):
        return " or ".join(node_text(i) for i in node.items)
    return "otherwise"


def walk(node: Node, *, into_count: bool = True) -> Iterator[Node]:
    """Every node of a tree; the inner conditions of ``count`` too unless ``into_count`` is off
    (the card engine reads those per card, not per round)."""
    yield node
    if isinstance(node, Cmp):
        yield from walk(node.left, into_count=into_count)
        yield from walk(node.right, into_count=into_count)
    elif isinstance(node, In):
        yield from walk(node.var, into_count=into_count)
        yield from (Const(value) for value in node.values)  # literals named in the list
    elif isinstance(node, Not):
        yield from walk(node.item, into_count=into_count)
    elif isinstance(node, And | Or):
        for item in node.items:
            yield from walk(item, into_count=into_count)
    elif isinstance(node, Count):
        if into_count:
            yield from walk(node.card)
    elif isinstance(node, Sum):
        for _, term in node.terms:
            yield from walk(term, into_count=into_count)


def is_card_level(node: Node) -> bool:
    return any(
        isinstance(n, Count | Sum | Most | Shape)
        or (isinstance(n, Var) and n.name not in FEATURE_INDEX)
        for n in walk(node)
    )


def features_of(node: Node) -> frozenset[str]:
    if isinstance(node, Var):
        return frozenset({node.name})
    if isinstance(node, Sum):
        return frozenset().union(*(features_of(t) for _, t in node.terms))
    if isinstance(node, Cmp):
        return features_of(node.left) | features_of(node.right)
    if isinstance(node, In):
        return features_of(node.var)
    if isinstance(node, Not):
        return features_of(node.item)
    if isinstance(node, And | Or):
        return frozenset().union(*(features_of(i) for i in node.items))
    return frozenset()
