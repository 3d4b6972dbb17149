"""The condition language of paytable rows, one job a module: :mod:`.vocabulary` (its words),
:mod:`.nodes` (the syntax tree), :mod:`.semantics` (what a comparison and ``none`` mean),
:mod:`.parser` (text to tree), :mod:`.evaluate` (value-level evaluation) and :mod:`.condition`
(:func:`~exactodds.language.condition.parse_condition`); their public names are re-exported here.

>>> from exactodds.language import parse_condition
>>> parse_condition("player.pair and not (winner == tie)").text
'player.pair and not winner == tie'
"""

from __future__ import annotations

from exactodds.errors import ConditionError
from exactodds.language.condition import (
    FIRST_FOUR,
    OTHERWISE,
    Condition,
    absent_comparisons,
    offer_reads_later,
    parse_condition,
)
from exactodds.language.evaluate import Index, Memo, Record, Test
from exactodds.language.nodes import (
    And,
    Cmp,
    Const,
    Count,
    In,
    Most,
    Node,
    Not,
    Operand,
    Or,
    Otherwise,
    Shape,
    Sum,
    Value,
    Var,
    walk,
)
from exactodds.language.semantics import can_be_absent, when_absent
from exactodds.language.vocabulary import (
    ATTRIBUTE_VALUES,
    CARD_ATTRIBUTES,
    CARD_FEATURE_KINDS,
    GROUP_CARDS,
    GROUPS,
    POKER,
    RANK_WORDS,
    SUIT_WORDS,
    CardKind,
)

__all__ = [
    "ATTRIBUTE_VALUES",
    "CARD_ATTRIBUTES",
    "CARD_FEATURE_KINDS",
    "FIRST_FOUR",
    "GROUPS",
    "GROUP_CARDS",
    "OTHERWISE",
    "POKER",
    "RANK_WORDS",
    "SUIT_WORDS",
    "And",
    "CardKind",
    "Cmp",
    "Condition",
    "ConditionError",
    "Const",
    "Count",
    "In",
    "Index",
    "Memo",
    "Most",
    "Node",
    "Not",
    "Operand",
    "Or",
    "Otherwise",
    "Record",
    "Shape",
    "Sum",
    "Test",
    "Value",
    "Var",
    "absent_comparisons",
    "can_be_absent",
    "offer_reads_later",
    "parse_condition",
    "walk",
    "when_absent",
]
