"""Value-level evaluation of a condition tree: as a test of one
:func:`~exactodds.deal.round.feature_record`, and over many records at once as bitsets. Card-level
trees are refused here (the card engine counts them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from exactodds.deal.round import FEATURE_INDEX
from exactodds.errors import ConditionError, quote
from exactodds.language.nodes import (
    And,
    Cmp,
    Const,
    In,
    Node,
    Not,
    Operand,
    Or,
    Otherwise,
    Var,
    is_card_level,
    node_text,
)
from exactodds.language.semantics import comparison

Record = Sequence[object]
Test = Callable[[Record], bool]


def _operand(node: Operand) -> Callable[[Record], object]:
    assert isinstance(node, Var | Const)  # sums and counts are card-level
    if isinstance(node, Var):
        index = FEATURE_INDEX[node.name]
        return lambda r: r[index]
    value = node.value
    return lambda r: value


def compile_test(node: Node) -> Test:
    if is_card_level(node):
        raise ConditionError(
            f"condition {quote(node_text(node))} reads the cards: "
            "it is evaluated by exactodds.counting"
        )
    if isinstance(node, Otherwise):
        return lambda r: True
    if isinstance(node, Var):
        index = FEATURE_INDEX[node.name]
        return lambda r: bool(r[index])
    if isinstance(node, Const):
        value = bool(node.value)
        return lambda r: value
    if isinstance(node, Cmp):
        literal = isinstance(node.left, Const) or isinstance(node.right, Const)
        left, right = _operand(node.left), _operand(node.right)
        holds = comparison(node.op, literal)
        return lambda r: holds(left(r), right(r))
    if isinstance(node, In):
        assert isinstance(node.var, Var)  # sums and counts are card-level
        index, values, negated = FEATURE_INDEX[node.var.name], frozenset(node.values), node.negated
        return lambda r: (r[index] in values) != negated
    if isinstance(node, Not):
        inner = compile_test(node.item)
        return lambda r: not inner(r)
    assert isinstance(node, And | Or)
    tests = [compile_test(i) for i in node.items]
    if isinstance(node, And):
        return lambda r: all(t(r) for t in tests)
    return lambda r: any(t(r) for t in tests)


# -- evaluation over many records at once ---------------------------------------------------
#
# A set of records is a Python int used as a bitset (bit i: record i). ``index`` maps each feature
# to {value: bitset of the records with that value}; a condition is evaluated once per distinct
# value (or pair of values) of the features it names, with the same comparisons as ``test``, and
# combined with &, | and ^. The work grows with the size of the condition, not with the records.

Index = Mapping[str, Mapping[object, int]]

Memo = dict[object, int]
"""Bitsets of conditions and comparisons already evaluated on one index (keyed by the
:class:`~exactodds.language.condition.Condition` or the comparison node): identical
conditions and comparisons, however often a paytable repeats them, are evaluated once per
index."""


def node_bits(node: Node, index: Index, everything: int, memo: Memo) -> int:
    if isinstance(node, Otherwise | Const):
        return everything if isinstance(node, Otherwise) or node.value else 0
    if isinstance(node, Var | In | Cmp):  # the leaves: a loop over the values of features
        bits = memo.get(node)
        if bits is None:
            bits = memo[node] = _leaf_bits(node, index)
        return bits
    if isinstance(node, Not):
        return everything ^ node_bits(node.item, index, everything, memo)
    assert isinstance(node, And | Or)
    parts = [node_bits(item, index, everything, memo) for item in node.items]
    out = parts[0]
    for part in parts[1:]:
        out = out & part if isinstance(node, And) else out | part
    return out


def _leaf_bits(node: Var | In | Cmp, index: Index) -> int:
    if isinstance(node, Var):
        return _union(bits for v, bits in index[node.name].items() if v)
    if isinstance(node, In):
        assert isinstance(node.var, Var)  # sums and counts are card-level
        values, negated = frozenset(node.values), node.negated
        return _union(bits for v, bits in index[node.var.name].items() if (v in values) != negated)
    left, right = node.left, node.right
    holds = comparison(node.op, isinstance(left, Const) or isinstance(right, Const))
    if isinstance(left, Var) and isinstance(right, Var):
        return _union(
            a_bits & b_bits
            for a, a_bits in index[left.name].items()
            for b, b_bits in index[right.name].items()
            if holds(a, b)
        )
    if isinstance(left, Var) and isinstance(right, Const):
        return _union(bits for v, bits in index[left.name].items() if holds(v, right.value))
    assert isinstance(right, Var) and isinstance(left, Const)
    return _union(bits for v, bits in index[right.name].items() if holds(left.value, v))


def _union(parts: Iterable[int]) -> int:
    out = 0
    for part in parts:
        out |= part
    return out
