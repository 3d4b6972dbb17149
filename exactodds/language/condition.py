"""A parsed row condition (:class:`Condition`), how it is parsed (:func:`parse_condition`),
and what ``validate`` asks of it (what an offer reads, comparisons that ``none`` makes false).

Integers are unbounded (negative results compare as numbers); ``none`` is the value of a card
that is not there (a two-card hand's third card), never of arithmetic. A comparison of two
features is false when either side is ``none``; against a literal, ``none`` equals only
``none`` (see :func:`~exactodds.language.semantics.when_absent`, the one definition both
evaluators use).

Card-level features (:data:`~exactodds.language.vocabulary.CARD_FEATURE_KINDS`) name each card
of a hand in dealing order (``player.card1.rank``; ``card3`` features are ``none`` for a
two-card hand), the hand's suit and colour (``player.suited``, ``player.colour``) and poker
categories (:data:`~exactodds.language.vocabulary.POKER`). A ``card_condition`` is a condition
over one card's ``rank``, ``suit``, ``colour`` and ``value`` (an ``attr``). ``shape(GROUP,
ATTR)`` is the multiplicities of the attribute among the group's cards, from the largest
(``[3, 3]``: two ranks three times each), ``most(GROUP, ATTR)`` the largest of them (six of a
kind: ``most(round, rank) == 6``). Bets naming them are counted by :mod:`exactodds.counting`.

>>> from exactodds.language.condition import parse_condition
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

from dataclasses import dataclass
from functools import cached_property

from exactodds.deal.round import Outcome, feature_record
from exactodds.errors import ConditionError, quote
from exactodds.language.evaluate import Index, Memo, Test, compile_test, node_bits
from exactodds.language.nodes import (
    Cmp,
    Count,
    Most,
    Node,
    Otherwise,
    Shape,
    Var,
    features_of,
    is_card_level,
    node_text,
    walk,
)
from exactodds.language.parser import parse_node
from exactodds.language.semantics import can_be_absent
from exactodds.language.vocabulary import CARD_ATTRIBUTES
from exactodds.limits import MAX_CONDITION_CHARS, check_length


def absent_comparisons(condition: Condition) -> list[str]:
    """The comparisons of ``condition`` between two features that can both be ``none`` (false
    when either is: :func:`~exactodds.language.semantics.when_absent`), as text: what
    ``validate`` warns of.

    >>> absent_comparisons(parse_condition("player.card3.rank == banker.card3.rank or player.pair"))
    ['player.card3.rank == banker.card3.rank']
    >>> absent_comparisons(parse_condition("player.card3.rank == K and player.third >= 5"))
    []
    """
    return [
        node_text(node)
        for node in walk(condition.node, into_count=False)
        if isinstance(node, Cmp) and can_be_absent(node.left) and can_be_absent(node.right)
    ]


@dataclass(frozen=True)
class Condition:
    """A parsed row condition. Call it on an :class:`~exactodds.deal.round.Outcome`.

    >>> from exactodds.deal.round import Hand, PairKind
    >>> o = Outcome(Hand(9, None, PairKind.PAIR), Hand(7, None, PairKind.NONE))
    >>> parse_condition("player.pair and player.wins")(o)
    True
    """

    node: Node

    # Derived on first use: a paytable's conditions are parsed by the thousand, and most are
    # only ever evaluated as bitsets.
    @cached_property
    def test(self) -> Test:
        """The condition as a function of a :func:`~exactodds.deal.round.feature_record`."""
        return compile_test(self.node)

    @cached_property
    def features(self) -> frozenset[str]:
        """The round features the condition names."""
        return features_of(self.node)

    @cached_property
    def card_level(self) -> bool:
        """Whether the condition reads the cards themselves (ranks, suits, colours, each
        card's value, ``count``, ``+``/``-``, poker), beyond the round features of rules.md §4."""
        return is_card_level(self.node)

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
            return node_bits(self.node, index, everything, {})
        bits = memo.get(self)
        if bits is None:
            bits = memo[self] = node_bits(self.node, index, everything, memo)
        return bits

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The condition as written back in canonical form (what ``str`` gives).

        >>> parse_condition("PLAYER.PAIR  and not(winner==tie)").text
        'player.pair and not winner == tie'
        """
        return node_text(self.node)

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
    return Condition(parse_node(text))
