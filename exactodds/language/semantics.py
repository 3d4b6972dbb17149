"""What a comparison means: the operators, and what ``none`` (a card that is not there) gives;
the one definition both evaluators (value-level :mod:`exactodds.language.evaluate` and the
card engine) use. Integers are unbounded.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from exactodds.language.nodes import Node, Sum, Var

OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def when_absent(op: str, literal: bool, both: bool) -> bool:
    """What comparison ``op`` gives when a side is ``none`` (a card that is not there): the one
    definition of ``none`` that the round-level and the card-level evaluators both use.

    Against a literal (``literal``), ``none`` is a value of its own: it equals only the literal
    ``none`` (``both``: the other side is ``none`` too) and is never ordered. Between two
    features it is false, whatever the operator: ``player.card3.rank == banker.card3.rank`` and
    ``… != …`` hold only when both hands drew (``not`` negates the whole).

    >>> [when_absent(op, True, False) for op in ("==", "!=", "<")]
    [False, True, False]
    >>> when_absent("==", True, True), when_absent("==", False, True)
    (True, False)
    >>> when_absent("!=", False, False)  # player.card3.rank != banker.card3.rank, one drew
    False
    """
    if not literal:
        return False
    if op == "==":
        return both
    if op == "!=":
        return not both
    return False


def comparison(symbol: str, literal: bool) -> Callable[[object, object], bool]:
    """The comparison ``symbol`` of two values (``literal``: one side is a literal), ``none``
    read by :func:`when_absent`."""
    op = OPS[symbol]

    def holds(a: object, b: object) -> bool:
        if a is None or b is None:
            return when_absent(symbol, literal, a is None and b is None)
        return bool(op(a, b))

    return holds


def can_be_absent(operand: Node) -> bool:
    """Whether an operand (outside ``count``) can be ``none``: a hand's third card
    (``.third``, ``.card3.…``) or a sum reading one.

    >>> from exactodds.language.condition import parse_condition
    >>> [can_be_absent(parse_condition(t).node.left) for t in ("player.third == 1",
    ...     "player.card1.value + banker.card3.value == 1", "player.total == 1")]
    [True, True, False]
    """
    if isinstance(operand, Sum):
        return any(can_be_absent(term) for _, term in operand.terms)
    return isinstance(operand, Var) and (
        operand.name.endswith(".third") or ".card3." in operand.name
    )
