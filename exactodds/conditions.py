"""The condition language of paytable rows: a tiny expression grammar over round features.

Conditions are parsed into an immutable syntax tree and compiled to closures; file text is
never evaluated as Python.

    condition  := or
    or         := and ("or" and)*
    and        := not ("and" not)*
    not        := "not" not | "(" or ")" | comparison
    comparison := sum [op sum | ["not"] "in" "[" value ("," value)* "]"] | shape
    shape      := "shape" "(" group "," attr ")" ("==" | "!=") list
                | "shape" "(" group "," attr ")" ["not"] "in" "[" list ("," list)* "]"
    list       := "[" integer ("," integer)* "]"
    sum        := operand (("+" | "-") operand)*
    operand    := feature | value | "count" "(" group "," card_condition ")"
                | "most" "(" group "," attr ")"
    value      := ["-"] integer | true | false | none | player | banker | tie | rank | suit
                | colour | mixed | poker category
    group      := player | banker | initial | round

Integers are unbounded (negative results compare as numbers); ``none`` is the value of a card
that is not there (a two-card hand's third card), never of arithmetic. A comparison of two
features is false when either side is ``none``; against a literal, ``none`` equals only
``none`` (see :func:`when_absent`, the one definition both evaluators use). ``color`` reads as
``colour``.

Card-level features (:data:`CARD_FEATURE_KINDS`) name each card of a hand in dealing order
(``player.card1.rank``; ``card3`` features are ``none`` for a two-card hand), the hand's suit
and colour (``player.suited``, ``player.colour``) and poker categories (:data:`POKER`). A
``card_condition`` is a condition over one card's ``rank``, ``suit``, ``colour`` and ``value``
(an ``attr``). ``shape(GROUP, ATTR)`` is the multiplicities of the attribute among the group's
cards, from the largest (``[3, 3]``: two ranks three times each), ``most(GROUP, ATTR)`` the
largest of them (six of a kind: ``most(round, rank) == 6``). Bets naming them are counted by
:mod:`exactodds.cards`.

>>> c = parse_condition("player.pair and not (winner == tie)")
>>> str(c), sorted(c.features)
('player.pair and not winner == tie', ['player.pair', 'winner'])
>>> sorted(parse_condition("banker.wins and banker.total == 6 and banker.cards in [2]").features)
['banker.cards', 'banker.total', 'banker.wins']
>>> c = parse_condition("count(initial, rank == 9 and suit == diamonds) + player.total >= 2")
>>> c.text, c.card_level
('count(initial, rank == 9 and suit == diamonds) + player.total >= 2', True)
>>> parse_condition("SHAPE(round, rank) in [[3,3]] and most(player, suit) == 3").text
'shape(round, rank) == [3, 3] and most(player, suit) == 3'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Union

from exactodds.errors import ConditionError, quote
from exactodds.limits import (
    MAX_CONDITION_CHARS,
    MAX_CONDITION_COUNTS,
    MAX_CONDITION_DEPTH,
    MAX_DIGITS,
    MAX_SUM_TERMS,
    check_length,
)
from exactodds.round import FEATURE_INDEX, FEATURE_KINDS, FeatureKind, Outcome, feature_record
from exactodds.suggest import ALIASES, did_you_mean

__all__ = [
    "CARD_ATTRIBUTES",
    "CARD_FEATURE_KINDS",
    "FIRST_FOUR",
    "GROUPS",
    "OTHERWISE",
    "POKER",
    "RANK_WORDS",
    "SUIT_WORDS",
    "CardKind",
    "Condition",
    "ConditionError",
    "Count",
    "Index",
    "Memo",
    "Most",
    "Shape",
    "Sum",
    "absent_comparisons",
    "can_be_absent",
    "offer_reads_later",
    "parse_condition",
    "walk",
    "when_absent",
]


class CardKind(StrEnum):
    """The values of card-level features (besides FeatureKind's integers and true/false)."""

    RANK = "ranks (A 2 3 4 5 6 7 8 9 10 J Q K, T for 10) or none"
    SUIT = "suits (clubs diamonds hearts spades) or none"
    COLOUR = "colours (red black) or none"
    HAND_COLOUR = "red/black/mixed"
    POKER = "poker categories"


RANK_WORDS: Mapping[str, int] = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13}
"""Rank words (any case) and their rank numbers: A is 1, 2–10 are themselves, J Q K 11–13."""

SUIT_WORDS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in the shoe's suit order (c, d, h, s); hearts and diamonds are red."""

POKER: tuple[str, ...] = (
    "four_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "flush",
    "straight",
    "two_pair",
    "pair",
    "high_card",
)
"""Poker categories of a hand's cards (:func:`exactodds.cards.poker_category` ranks them)."""

GROUPS: Mapping[str, str] = {
    "player": "the player's cards",
    "banker": "the banker's cards",
    "initial": "the first four cards",
    "round": "every card dealt",
}
"""The card groups ``count(GROUP, …)``, ``shape`` and ``most`` read."""

GROUP_CARDS: Mapping[str, tuple[int, int]] = {
    "player": (2, 3),
    "banker": (2, 3),
    "initial": (4, 4),
    "round": (4, 6),
}
"""The fewest and the most cards of each group (what a ``shape`` may add up to)."""

CARD_ATTRIBUTES: Mapping[str, FeatureKind | CardKind] = {
    "rank": CardKind.RANK,
    "suit": CardKind.SUIT,
    "colour": CardKind.COLOUR,
    "value": FeatureKind.THIRD,
}
"""What one card shows, inside ``count(GROUP, …)`` and after ``player.card1.``."""

ATTRIBUTE_VALUES: Mapping[str, int] = {"rank": 13, "suit": 4, "colour": 2, "value": 10}
"""How many values each card attribute takes (how many parts a ``shape`` of it may have)."""

CARD_FEATURE_KINDS: Mapping[str, FeatureKind | CardKind] = {
    **{
        f"{side}.card{i}.{attr}": kind
        for side in ("player", "banker")
        for i in (1, 2, 3)
        for attr, kind in CARD_ATTRIBUTES.items()
    },
    **{f"{side}.suited": FeatureKind.BOOLEAN for side in ("player", "banker")},
    **{f"{side}.colour": CardKind.HAND_COLOUR for side in ("player", "banker")},
    **{f"{group}.poker": CardKind.POKER for group in ("player", "banker", "initial")},
}
"""Card-level features, read from the cards themselves (counted by :mod:`exactodds.cards`)."""

_ALL_KINDS: Mapping[str, FeatureKind | CardKind] = {**FEATURE_KINDS, **CARD_FEATURE_KINDS}


# The feature kinds (exactodds.round.FEATURE_KINDS), by short name for the type checks below.
_INT, _BOOL, _WINNER, _THIRD = (
    FeatureKind.INTEGER,
    FeatureKind.BOOLEAN,
    FeatureKind.WINNER,
    FeatureKind.THIRD,
)
_KNOWN = (
    "winner, margin, cards, initial.poker, count(GROUP, …), and player. or banker. "
    + ", ".join(
        name.removeprefix("player.")
        for name in ("player.total", *FEATURE_KINDS, *CARD_FEATURE_KINDS)
        if name.startswith("player.") and ".card2" not in name and ".card3" not in name
    ).replace("total, total", "total")
    + " (also card2, card3)"
)

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

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _value_text(v: Value) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _text(node: Node) -> str:
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Const):
        return _value_text(node.value)
    if isinstance(node, Count):
        return f"count({node.group}, {_text(node.card)})"
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
            [_text(first[1]), *(f"{'-' if sign < 0 else '+'} {_text(t)}" for sign, t in rest)]
        )
    if isinstance(node, Cmp):
        return f"{_text(node.left)} {node.op} {_text(node.right)}"
    if isinstance(node, In):
        inner = ", ".join(_value_text(v) for v in node.values)
        return f"{_text(node.var)} {'not in' if node.negated else 'in'} [{inner}]"
    if isinstance(node, Not):
        inner = _text(node.item)
        return f"not ({inner})" if isinstance(node.item, And | Or) else f"not {inner}"
    if isinstance(node, And):
        return " and ".join(f"({_text(i)})" if isinstance(i, Or) else _text(i) for i in node.items)
    if isinstance(node, Or):
        return " or ".join(_text(i) for i in node.items)
    return "otherwise"


# -- compilation ---------------------------------------------------------------------------------

Record = Sequence[object]
Test = Callable[[Record], bool]


def _operand(node: Operand) -> Callable[[Record], object]:
    assert isinstance(node, Var | Const)  # sums and counts are card-level
    if isinstance(node, Var):
        index = FEATURE_INDEX[node.name]
        return lambda r: r[index]
    value = node.value
    return lambda r: value


def _compile(node: Node) -> Test:
    if _is_card_level(node):
        raise ConditionError(
            f"condition {quote(_text(node))} reads the cards: it is evaluated by exactodds.cards"
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
        holds = _holds(node.op, literal)
        return lambda r: holds(left(r), right(r))
    if isinstance(node, In):
        assert isinstance(node.var, Var)  # sums and counts are card-level
        index, values, negated = FEATURE_INDEX[node.var.name], frozenset(node.values), node.negated
        return lambda r: (r[index] in values) != negated
    if isinstance(node, Not):
        inner = _compile(node.item)
        return lambda r: not inner(r)
    assert isinstance(node, And | Or)
    tests = [_compile(i) for i in node.items]
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
:class:`Condition` or the comparison node): identical conditions and comparisons, however
often a paytable repeats them, are evaluated once per index."""


def _bits(node: Node, index: Index, everything: int, memo: Memo) -> int:
    if isinstance(node, Otherwise | Const):
        return everything if isinstance(node, Otherwise) or node.value else 0
    if isinstance(node, Var | In | Cmp):  # the leaves: a loop over the values of features
        bits = memo.get(node)
        if bits is None:
            bits = memo[node] = _leaf_bits(node, index)
        return bits
    if isinstance(node, Not):
        return everything ^ _bits(node.item, index, everything, memo)
    assert isinstance(node, And | Or)
    parts = [_bits(item, index, everything, memo) for item in node.items]
    out = parts[0]
    for part in parts[1:]:
        out = out & part if isinstance(node, And) else out | part
    return out


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


def _holds(symbol: str, literal: bool) -> Callable[[object, object], bool]:
    """The comparison ``symbol`` of two values (``literal``: one side is a literal), ``none``
    read by :func:`when_absent`."""
    op = _OPS[symbol]

    def holds(a: object, b: object) -> bool:
        if a is None or b is None:
            return when_absent(symbol, literal, a is None and b is None)
        return bool(op(a, b))

    return holds


def _leaf_bits(node: Var | In | Cmp, index: Index) -> int:
    if isinstance(node, Var):
        return _union(bits for v, bits in index[node.name].items() if v)
    if isinstance(node, In):
        assert isinstance(node.var, Var)  # sums and counts are card-level
        values, negated = frozenset(node.values), node.negated
        return _union(bits for v, bits in index[node.var.name].items() if (v in values) != negated)
    left, right = node.left, node.right
    holds = _holds(node.op, isinstance(left, Const) or isinstance(right, Const))
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


def _is_card_level(node: Node) -> bool:
    return any(
        isinstance(n, Count | Sum | Most | Shape)
        or (isinstance(n, Var) and n.name not in FEATURE_INDEX)
        for n in walk(node)
    )


def _features(node: Node) -> frozenset[str]:
    if isinstance(node, Var):
        return frozenset({node.name})
    if isinstance(node, Sum):
        return frozenset().union(*(_features(t) for _, t in node.terms))
    if isinstance(node, Cmp):
        return _features(node.left) | _features(node.right)
    if isinstance(node, In):
        return _features(node.var)
    if isinstance(node, Not):
        return _features(node.item)
    if isinstance(node, And | Or):
        return frozenset().union(*(_features(i) for i in node.items))
    return frozenset()


def can_be_absent(operand: Node) -> bool:
    """Whether an operand (outside ``count``) can be ``none``: a hand's third card
    (``.third``, ``.card3.…``) or a sum reading one.

    >>> [can_be_absent(parse_condition(t).node.left) for t in ("player.third == 1",
    ...     "player.card1.value + banker.card3.value == 1", "player.total == 1")]
    [True, True, False]
    """
    if isinstance(operand, Sum):
        return any(can_be_absent(term) for _, term in operand.terms)
    return isinstance(operand, Var) and (
        operand.name.endswith(".third") or ".card3." in operand.name
    )


def absent_comparisons(condition: Condition) -> list[str]:
    """The comparisons of ``condition`` between two features that can both be ``none`` (false
    when either is: :func:`when_absent`), as text: what ``validate`` warns of.

    >>> absent_comparisons(parse_condition("player.card3.rank == banker.card3.rank or player.pair"))
    ['player.card3.rank == banker.card3.rank']
    >>> absent_comparisons(parse_condition("player.card3.rank == K and player.third >= 5"))
    []
    """
    return [
        _text(node)
        for node in walk(condition.node, into_count=False)
        if isinstance(node, Cmp) and can_be_absent(node.left) and can_be_absent(node.right)
    ]


@dataclass(frozen=True)
class Condition:
    """A parsed row condition. Call it on an :class:`~exactodds.round.Outcome`.

    >>> from exactodds.round import Hand, PairKind
    >>> o = Outcome(Hand(9, None, PairKind.PAIR), Hand(7, None, PairKind.NONE))
    >>> parse_condition("player.pair and player.wins")(o)
    True
    """

    node: Node

    # Derived on first use: a paytable's conditions are parsed by the thousand, and most are
    # only ever evaluated as bitsets.
    @cached_property
    def test(self) -> Test:
        """The condition as a function of a :func:`~exactodds.round.feature_record`."""
        return _compile(self.node)

    @cached_property
    def features(self) -> frozenset[str]:
        """The round features the condition names."""
        return _features(self.node)

    @cached_property
    def card_level(self) -> bool:
        """Whether the condition reads the cards themselves (ranks, suits, colours, each
        card's value, ``count``, ``+``/``-``, poker), beyond the round features of rules.md §4."""
        return _is_card_level(self.node)

    @cached_property
    def _hash(self) -> int:
        return hash(self.node)

    def __hash__(self) -> int:  # the tree is hashed once, not at every lookup
        return self._hash

    def __reduce__(self) -> tuple[type[Condition], tuple[Node]]:
        """Pickled as its tree alone (the derived functions and the hash, which differs
        between processes, are derived again)."""
        return Condition, (self.node,)

    def __call__(self, outcome: Outcome) -> bool:
        return self.test(feature_record(outcome))

    def bits(self, index: Index, everything: int, memo: Memo | None = None) -> int:
        """The records matching the condition, as a bitset, from ``index`` (feature → value →
        bitset of the records with that value) and ``everything`` (all records). ``memo``
        (see :data:`Memo`) keeps the results on this index for the next conditions.

        >>> index = {"player.third": {8: 0b001, None: 0b010, 2: 0b100}}
        >>> bin(parse_condition("player.third in [8, 9] or player.third == none").bits(index, 7))
        '0b11'
        >>> memo: Memo = {}
        >>> texts = ("player.third >= 8", "not player.third>=8")
        >>> [bin(parse_condition(t).bits(index, 7, memo)) for t in texts]
        ['0b1', '0b110']
        >>> len(memo)  # the comparison once, and each condition
        3
        """
        if memo is None:
            return _bits(self.node, index, everything, {})
        bits = memo.get(self)
        if bits is None:
            bits = memo[self] = _bits(self.node, index, everything, memo)
        return bits

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The condition as written back in canonical form (what ``str`` gives).

        >>> parse_condition("PLAYER.PAIR  and not(winner==tie)").text
        'player.pair and not winner == tie'
        """
        return _text(self.node)

    @property
    def is_otherwise(self) -> bool:
        """Whether this is the catch-all ``otherwise``."""
        return isinstance(self.node, Otherwise)


OTHERWISE = Condition(Otherwise())
"""The catch-all condition of a bet's last row."""

FIRST_FOUR = frozenset(
    {
        "player.initial",
        "banker.initial",
        "player.natural",
        "banker.natural",
        "player.pair",
        "banker.pair",
        "player.perfect_pair",
        "banker.perfect_pair",
        "initial.poker",
        *(
            f"{side}.card{i}.{a}"
            for side in ("player", "banker")
            for i in (1, 2)
            for a in CARD_ATTRIBUTES
        ),
    }
)
"""Features the first four cards decide (what an ``offer`` may read, with ``count(initial, …)``)."""


def offer_reads_later(condition: Condition) -> list[str]:
    """What ``condition`` reads beyond the first four cards (an offer may not), as text.

    >>> from exactodds.conditions import parse_condition
    >>> offer_reads_later(parse_condition("player.initial == 0 and count(round, rank == 9) > 0"))
    ['count(round, …)']
    """
    out: list[str] = []
    for node in walk(condition.node):
        if isinstance(node, Var) and node.name in CARD_ATTRIBUTES:
            continue  # one card's feature, inside count
        if isinstance(node, Var) and node.name not in FIRST_FOUR and node.name not in out:
            out.append(node.name)
        elif isinstance(node, Count | Most | Shape) and node.group != "initial":
            out.append(f"{type(node).__name__.lower()}({node.group}, …)")
    return out


# -- parsing ------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<num>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<str>\"[^\"]*\"|'[^']*')|(?P<op>==|!=|<=|>=|<|>|\(|\)|\[|\]|,|\+|-)"
)
_SPACE = re.compile(r"\s*")
_KEYWORDS = {"and", "or", "not", "in"}
_WORD_VALUES: dict[str, Value] = {
    "true": True,
    "false": False,
    "none": None,
    "player": "player",
    "banker": "banker",
    "tie": "tie",
    **{word: word for word in (*SUIT_WORDS, "red", "black", "mixed", *POKER)},
    **{word: (word.upper() if word != "t" else 10) for word in RANK_WORDS},
}


@dataclass(slots=True)
class _Token:
    kind: str  # num, name, str, op, end
    text: str
    pos: int


_NEXT = re.compile(rf"\s*(?:{_TOKEN.pattern})")  # spaces, then a token


def _tokenize(text: str) -> list[_Token]:
    """The tokens of a condition, in one linear pass (one match per token)."""
    tokens, pos = [], 0
    match = _NEXT.match
    while (m := match(text, pos)) is not None:
        kind = m.lastgroup or "op"
        start, pos = m.span(kind)
        if kind == "num" and pos - start > MAX_DIGITS:
            raise ConditionError(
                f"number {quote(m[kind], 40)} at column {start + 1} has more than "
                f"{MAX_DIGITS} digits (the limit)"
            )
        tokens.append(_Token(kind, m[kind], start))
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # \s* always matches
    if pos != len(text):
        raise ConditionError(
            f"unexpected character {text[pos]!r} at column {pos + 1} in {quote(text)}"
        )
    tokens.append(_Token("end", "", len(text)))
    return tokens


_NUMERIC = frozenset({_INT, _THIRD})

_SPELLINGS = {word: ALIASES[word] for word in ("color", "colors")}
"""Spellings read as the language's own (the US ``color``), part by part of a dotted name."""


def _spelled(name: str) -> str:
    """``name`` with each dotted part in the language's spelling (``player.color``: colour)."""
    return ".".join(_SPELLINGS.get(part, part) for part in name.split("."))


def _kind(operand: Operand, card_mode: bool) -> FeatureKind | CardKind | None:
    """The kind of values an operand takes (None for a literal); a sum reading a card that may
    be absent (``player.card3.value + 1``) takes integers or ``none``."""
    if isinstance(operand, Var):
        return (CARD_ATTRIBUTES if card_mode else _ALL_KINDS)[operand.name]
    if isinstance(operand, Sum):
        kinds = {_kind(term, card_mode) for _, term in operand.terms}
        return _THIRD if _THIRD in kinds and not card_mode else _INT
    if isinstance(operand, Count | Most):
        return _INT
    return None


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0  # parentheses and nots open: bounded before Python's recursion is
        self.card_mode = False  # inside count(GROUP, …): features are one card's
        self.counts = 0

    def error(self, message: str, tok: _Token | None = None, hint: str = "") -> ConditionError:
        tok = tok or self.tokens[self.i]
        where = "at the end" if tok.kind == "end" else f"at column {tok.pos + 1}"
        return ConditionError(f"{message} {where} of condition {quote(self.text)}{hint}")

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        tok = self.peek()
        if tok.kind in ("op", "name") and tok.text.lower() == text:
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            tok = self.peek()
            found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
            raise self.error(f"expected {text!r}, found {found}")

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise self.error("empty condition")
        node = self.parse_or()
        if self.peek().kind != "end":
            raise self.error(f"unexpected {quote(self.peek().text, 40)}")
        return node

    def parse_or(self) -> Node:
        items = [self.parse_and()]
        while self.accept("or"):
            items.append(self.parse_and())
        return _join(Or, items)

    def parse_and(self) -> Node:
        items = [self.parse_not()]
        while self.accept("and"):
            items.append(self.parse_not())
        return _join(And, items)

    def nest(self, tok: _Token) -> None:
        self.depth += 1
        if self.depth > MAX_CONDITION_DEPTH:
            raise self.error(
                f"parentheses, 'not' and 'count' nested more than {MAX_CONDITION_DEPTH} deep "
                "(the limit)",
                tok,
            )

    def parse_not(self) -> Node:
        tok = self.peek()
        if tok.kind in ("op", "name") and tok.text.lower() in ("not", "("):
            self.nest(tok)
            self.take()
            if tok.text == "(":
                node = self.parse_or()
                self.expect(")")
            else:
                node = Not(self.parse_not())
            self.depth -= 1
            return node
        return self.parse_comparison()

    def parse_count(self, tok: _Token) -> Count:
        if self.card_mode:
            raise self.error("count(…) cannot be nested in another count", tok)
        self.counts += 1
        if self.counts > MAX_CONDITION_COUNTS:
            raise self.error(f"more than {MAX_CONDITION_COUNTS} count(…) (the limit)", tok)
        self.nest(tok)
        self.expect("(")
        group_tok = self.take()
        group = group_tok.text.lower()
        if group_tok.kind != "name" or group not in GROUPS:
            found = "end of text" if group_tok.kind == "end" else quote(group_tok.text, 40)
            raise self.error(
                f"count needs a group ({', '.join(GROUPS)}), found {found}",
                group_tok,
                did_you_mean(group, GROUPS) if group_tok.kind == "name" else "",
            )
        self.expect(",")
        self.card_mode = True
        card = self.parse_or()
        self.card_mode = False
        self.expect(")")
        self.depth -= 1
        return Count(group, card)

    def parse_operand(self) -> Var | Const | Count | Most:
        tok = self.take()
        if tok.kind == "op" and tok.text == "-" and self.peek().kind == "num":
            return Const(-int(self.take().text))  # a negative literal
        if tok.kind == "num":
            return Const(int(tok.text))
        if tok.kind == "str":
            word = tok.text[1:-1].strip().lower()
            if word not in ("player", "banker", "tie"):
                raise self.error(
                    f"unknown value {quote(tok.text, 40)[1:-1]}",
                    tok,
                    did_you_mean(word, ("player", "banker", "tie")),
                )
            return Const(word)
        if tok.kind == "name":
            return self.parse_name(tok)
        found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
        if tok.kind == "op" and tok.text == "-":
            raise self.error(f"'-' before a feature: write it as a difference, found {found}", tok)
        raise self.error(f"expected a feature or a value, found {found}", tok)

    def parse_name(self, tok: _Token) -> Var | Const | Count | Most:
        """A name: a feature, a word value, ``count(…)`` or ``most(…)``; an unknown one with a
        suggestion."""
        low = _spelled(tok.text.lower())
        if low in _KEYWORDS:
            raise self.error(f"unexpected {quote(tok.text, 40)}", tok)
        if low in ("count", "most", "shape") and self.peek().text == "(":
            return self.parse_call(low, tok)
        if self.card_mode:
            if low in CARD_ATTRIBUTES:
                return Var(low)
        elif low in _ALL_KINDS:
            return Var(low)
        if low in _WORD_VALUES:
            return Const(_WORD_VALUES[low])
        if self.card_mode:
            raise self.error(
                f"unknown card feature {quote(tok.text, 40)} inside count "
                f"(known: {', '.join(CARD_ATTRIBUTES)})",
                tok,
                did_you_mean(low, [*CARD_ATTRIBUTES, *_WORD_VALUES]),
            )
        hint = did_you_mean(low, [*_ALL_KINDS, *_WORD_VALUES, "count", "most", "shape"])
        known = "" if hint else f" (known: {_KNOWN})"  # the suggestion, else the list
        raise self.error(f"unknown feature {quote(tok.text, 40)}{known}", tok, hint)

    def parse_call(self, name: str, tok: _Token) -> Count | Most:
        """``count(…)`` or ``most(…)`` as an operand (``shape(…)`` is not a number)."""
        if name == "count":
            return self.parse_count(tok)
        if name == "most":
            return Most(*self.parse_group_attr(tok))
        raise self.error(
            "shape(…) is a list of multiplicities, not a number: compare it with a list "
            "(shape(round, rank) == [3, 3]) or use most(…)",
            tok,
        )

    def parse_group_attr(self, tok: _Token) -> tuple[str, str]:
        """``(GROUP, ATTR)`` after ``most`` or ``shape``."""
        if self.card_mode:
            raise self.error(f"{tok.text.lower()}(…) cannot be inside count", tok)
        self.counts += 1
        if self.counts > MAX_CONDITION_COUNTS:
            raise self.error(
                f"more than {MAX_CONDITION_COUNTS} count(…), most(…) and shape(…) (the limit)", tok
            )
        self.expect("(")
        names = []
        for known, what in ((GROUPS, "a group"), (CARD_ATTRIBUTES, "a card attribute")):
            name_tok = self.take()
            name = _spelled(name_tok.text.lower())
            if name_tok.kind != "name" or name not in known:
                found = "end of text" if name_tok.kind == "end" else quote(name_tok.text, 40)
                raise self.error(
                    f"{tok.text.lower()} needs {what} ({', '.join(known)}), found {found}",
                    name_tok,
                    did_you_mean(name, known) if name_tok.kind == "name" else "",
                )
            names.append(name)
            self.expect("," if len(names) == 1 else ")")
        return names[0], names[1]

    def parse_shape(self, tok: _Token) -> Shape:
        """``shape(GROUP, ATTR)`` compared with a list, or ``[not] in`` a list of lists."""
        group, attr = self.parse_group_attr(tok)
        op = self.take()
        low = op.text.lower()
        negated = low in ("!=", "not")
        if low == "not" and not self.accept("in"):
            raise self.error("expected 'in' after 'not'")
        if low in ("==", "!="):
            shapes = [self.parse_shape_list(group, attr)]
        elif low in ("in", "not"):
            self.expect("[")
            shapes = [self.parse_shape_list(group, attr)]
            while not self.accept("]"):
                self.expect(",")
                shapes.append(self.parse_shape_list(group, attr))
                if len(shapes) > MAX_SUM_TERMS:
                    raise self.error(f"a list of more than {MAX_SUM_TERMS} shapes (the limit)", op)
        else:
            found = "end of text" if op.kind == "end" else quote(op.text, 40)
            raise self.error(
                "shape(…) is compared with '==' or '!=' and a list (== [3, 3]) or with 'in' and "
                f"a list of lists (in [[4], [3, 1]]), found {found}",
                op,
            )
        return Shape(group, attr, tuple(dict.fromkeys(shapes)), negated)

    def parse_shape_list(self, group: str, attr: str) -> tuple[int, ...]:
        """One shape: ``[a, b, …]``, whole numbers from the largest that the group can have."""
        start = self.peek()
        self.expect("[")
        parts: list[int] = []
        fewest, most = GROUP_CARDS[group]
        while True:
            tok = self.take()
            if tok.kind != "num":
                found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
                raise self.error(f"a shape lists whole numbers (as [3, 1]), found {found}", tok)
            parts.append(int(tok.text))
            if not 1 <= parts[-1] <= most or len(parts) > most:
                what = "parts" if len(parts) > most else f"a part {quote(tok.text, 20)}"
                raise self.error(f"{group} holds at most {most} cards: no shape has {what}", tok)
            if self.accept("]"):
                break
            self.expect(",")
        shape = tuple(parts)
        text = f"[{', '.join(map(str, shape))}]"
        if list(shape) != sorted(shape, reverse=True):
            raise self.error(
                f"a shape lists multiplicities from the largest: "
                f"{[*sorted(shape, reverse=True)]} rather than {text}",
                start,
            )
        if not fewest <= sum(shape) <= most:
            cards = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise self.error(
                f"{group} holds {cards} cards, not the {sum(shape)} of shape {text}", start
            )
        if len(shape) > ATTRIBUTE_VALUES[attr]:
            raise self.error(
                f"there are {ATTRIBUTE_VALUES[attr]} {attr}s, not the {len(shape)} of shape {text}",
                start,
            )
        return shape

    def parse_sum(self) -> Operand:
        start = self.peek()
        first = self.parse_operand()
        if not (self.peek().kind == "op" and self.peek().text in "+-"):
            return first
        terms: list[tuple[int, Var | Const | Count | Most]] = [(1, first)]
        where = [start]
        while self.peek().kind == "op" and self.peek().text in "+-":
            sign = 1 if self.take().text == "+" else -1
            where.append(self.peek())
            terms.append((sign, self.parse_operand()))
            if len(terms) > MAX_SUM_TERMS:
                raise self.error(f"a sum of more than {MAX_SUM_TERMS} terms (the limit)", start)
        for (_, term), tok in zip(terms, where, strict=True):
            kind = _kind(term, self.card_mode)
            is_int = isinstance(term, Const) and type(term.value) is int
            if kind not in _NUMERIC and not is_int:
                what = term.name if isinstance(term, Var) else _text(term)
                raise self.error(
                    f"'+' and '-' take integers (totals, counts, values, numbers), not {what!r}",
                    tok,
                )
        return Sum(tuple(terms))

    def parse_comparison(self) -> Node:
        start = self.peek()
        if (
            start.kind == "name"
            and start.text.lower() == "shape"
            and self.tokens[self.i + 1].text == "("
        ):
            self.take()
            return self.parse_shape(start)
        left = self.parse_sum()
        tok = self.peek()
        if tok.kind == "op" and tok.text in _OPS:
            self.take()
            right_tok = self.peek()
            right = self.parse_sum()
            node = Cmp(tok.text, left, right)
            self.check_cmp(node, start, tok, right_tok)
            return node
        negated = False
        if tok.kind == "name" and tok.text.lower() == "not":
            nxt = self.tokens[self.i + 1]
            if nxt.kind == "name" and nxt.text.lower() == "in":
                self.take()
                negated = True
        in_tok = self.peek()
        if self.accept("in"):
            return self.parse_in(left, negated, in_tok)
        if isinstance(left, Var):
            if _kind(left, self.card_mode) != _BOOL:
                raise self.error(
                    f"feature {left.name!r} is not true/false: compare it (e.g. {left.name} == …)",
                    start,
                )
            return left
        if isinstance(left, Const) and isinstance(left.value, bool):
            return left
        raise self.error(f"{_text(left)!r} is not a condition", start)

    def parse_in(self, left: Operand, negated: bool, in_tok: _Token) -> Node:
        """The list of ``OPERAND [not] in [v, …]`` (a feature, a sum or a count), after the
        ``in``; errors point at the ``in`` or at the value."""
        if isinstance(left, Const):
            raise self.error("'in' needs a feature, a sum, a count or most(…) on its left", in_tok)
        self.expect("[")
        values: list[Value] = []
        if not self.accept("]"):
            while True:
                tok = self.peek()
                operand = self.parse_operand()
                if not isinstance(operand, Const):
                    raise self.error("a list holds values, not features", tok)
                self.check_value(left, operand.value, tok)
                values.append(operand.value)
                if len(values) > MAX_SUM_TERMS:
                    raise self.error(f"a list of more than {MAX_SUM_TERMS} values", in_tok)
                if self.accept("]"):
                    break
                self.expect(",")
        return In(left, tuple(values), negated)

    def check_value(self, operand: Operand, value: Value, tok: _Token) -> None:
        kind = _kind(operand, self.card_mode)
        assert kind is not None
        integer = isinstance(value, int) and not isinstance(value, bool)
        ok = {
            _INT: integer,
            _BOOL: isinstance(value, bool),
            _WINNER: value in ("player", "banker", "tie"),
            _THIRD: value is None or integer,
            CardKind.RANK: value is None
            or value in ("A", "J", "Q", "K")
            or (integer and 2 <= value <= 10),  # type: ignore[operator]
            CardKind.SUIT: value is None or value in SUIT_WORDS,
            CardKind.COLOUR: value is None or value in ("red", "black"),
            CardKind.HAND_COLOUR: value in ("red", "black", "mixed"),
            CardKind.POKER: value in POKER,
        }[kind]
        if not ok:
            name = operand.name if isinstance(operand, Var) else _text(operand)
            raise self.error(f"{name} takes {kind} values, not {_value_text(value)!r}", tok)

    def check_cmp(self, node: Cmp, start: _Token, op: _Token, right: _Token) -> None:
        """Type checks of a comparison; errors point at the operator, or at the literal."""
        operands = [o for o in (node.left, node.right) if not isinstance(o, Const)]
        if not operands:
            raise self.error("a comparison needs a feature", start)
        kinds = [_kind(o, self.card_mode) for o in operands]
        names = [o.name if isinstance(o, Var) else _text(o) for o in operands]
        if len(operands) == 2:
            if kinds[0] != kinds[1] and not (kinds[0] in _NUMERIC and kinds[1] in _NUMERIC):
                raise self.error(f"cannot compare {names[0]} with {names[1]}", op)
        else:
            const = node.right if isinstance(node.right, Const) else node.left
            assert isinstance(const, Const)
            self.check_value(operands[0], const.value, right if const is node.right else start)
        if node.op not in ("==", "!=") and set(kinds) - _NUMERIC:
            raise self.error(f"{node.op!r} needs numbers, not {names[0]}", op)
        if node.op not in ("==", "!=") and Const(None) in (node.left, node.right):
            raise self.error(f"none is not ordered: {node.op!r} needs numbers (use == none)", op)


def _join(kind: type[And] | type[Or], items: list[Node]) -> Node:
    if len(items) == 1:
        return items[0]
    flat: list[Node] = []
    for item in items:
        flat.extend(item.items if isinstance(item, kind) else (item,))
    return kind(tuple(flat))


def parse_condition(text: str) -> Condition:
    """Parse a row condition (``otherwise`` gives :data:`OTHERWISE`).

    >>> parse_condition("player.totl == 9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ConditionError: unknown feature 'player.totl' at column 1 ...; did you mean ...
    """
    if not isinstance(text, str):
        raise ConditionError(f"condition must be a string, not {quote(text)}")
    check_length(text, MAX_CONDITION_CHARS, "condition", ConditionError, show=True)
    if text.strip().lower() == "otherwise":
        return OTHERWISE
    return Condition(_Parser(text).parse())
