"""Exact counts of bets that read the cards themselves: ranks, suits, colours, each card's value,
``count``, sums, poker categories and offers (the card-level language of
:mod:`exactodds.conditions`), and of any bet given what is known of the cards by dealing position.

Method. The six card slots of the counting universe (P1 B1 P2 B2, then the fifth and sixth card)
are each enumerated over the coarsest partition of the 52 cards that the bet's conditions can
tell apart *at that slot*: values only where nothing else is read, value × colour for a colour,
rank × suit at worst; slots five and six are skipped (a factor (N−4)(N−5)) when the bet reads
only the first four cards. Slots are enumerated finest first, so every earlier card's class lies
inside or outside a later card's class, and the number of physical card sequences of a sequence
of classes is the falling product Π (count of the class − earlier cards inside it). Permutations
of the suits that leave the shoe and every suit or colour the bet names unchanged count once,
with their orbit's size (Burnside-free: the sum over a class prefix is invariant). The inner
slots are evaluated as one integer numpy grid (int64, with a guard that switches to exact Python
integers for shoes whose N⁶ does not fit); the conditions are compiled to array operations with
the semantics of :mod:`exactodds.conditions` (unbounded integers, ``none`` by
:func:`~exactodds.conditions.when_absent`).

Draws. Cards five and six are read only by a hand that draws, so when they are the last two
axes and inside the block, the block is dealt in stages: the first four cards' grid settles the
rounds where no hand draws (times (N−4)(N−5)); only its cells where a hand draws are extended by
the fifth card's classes, settling those where one hand draws (times N−5); only those where both
draw are extended by the sixth; a round whose offer and row the cards so far decide, whatever
the later cards (three-valued: a comparison reading a later card is unknown, but for a hand's
poker category, among those its first two cards leave possible), is settled without them. Of
the finest-first order and the first four slots then the draws, the plan with the fewer
estimated cells is used. Inside the four-card grid, the suit permutations that fix the prefix
count each orbit of cells once, with its size. Poker categories are looked up in a table of
every rank combination. :func:`work` estimates all this without enumerating.

>>> from exactodds.conditions import OTHERWISE, parse_condition
>>> from exactodds.shoe import Shoe
>>> suited = parse_condition("player.card1.suit == player.card2.suit")
>>> counts = row_counts([suited, OTHERWISE], Shoe.decks(8))
>>> counts.rows[0] * 415 == counts.offered * 103  # 103 of the 415 cards left share the suit
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache, reduce
from math import perm, prod
from typing import Any

import numpy as np

from exactodds.conditions import (
    CARD_ATTRIBUTES,
    CARD_FEATURE_KINDS,
    FIRST_FOUR,
    POKER,
    SUIT_WORDS,
    And,
    CardKind,
    Cmp,
    Condition,
    Const,
    Count,
    In,
    Most,
    Node,
    Not,
    Or,
    Otherwise,
    Shape,
    Sum,
    Var,
    can_be_absent,
    offer_reads_later,
    walk,
    when_absent,
)
from exactodds.errors import ConditionError, PaytableError
from exactodds.round import FEATURE_KINDS, FeatureKind, continuations
from exactodds.shoe import RANK_VALUES, Shoe
from exactodds.tableau import BUILTIN, STOOD, Tableau

__all__ = [
    "FIRST_FOUR",
    "POSITIONS",
    "Known",
    "RowCounts",
    "example_round",
    "holds_for_cards",
    "offer_reads_later",
    "poker_category",
    "reads_suits",
    "round_slots",
    "row_counts",
    "work",
]

POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2", "P3", "B3")
"""Dealing positions: the first four cards, then the player's and the banker's third card."""

Known = Mapping[str, Collection[tuple[int, int]]]
"""What is known of the cards by dealing position: position (:data:`POSITIONS`) → the cards it
may hold, as (rank index into :data:`~exactodds.shoe.RANKS`, suit index 0–3). A card known
exactly is one card; by rank, four; by value or a group of ranks, all of their cards. A known
P3 or B3 also says that the hand drew that card."""

NONE = -1
_RANK, _SUIT, _COLOUR = 1, 2, 4
_ATTR_BITS = {"rank": _RANK, "suit": _SUIT, "colour": _COLOUR, "value": 0}
_HAND_SLOTS = {"player": (0, 2, 4), "banker": (1, 3, 4, 5), "initial": (0, 1, 2, 3)}
_GROUP_SLOTS = {**_HAND_SLOTS, "round": (0, 1, 2, 3, 4, 5)}
_RED = (False, True, True, False)  # c d h s
_CELLS = 1 << 20  # cells of one numpy block
_STAGED = True  # deal the first four cards, then the draws only (tests turn it off)


@dataclass(frozen=True)
class RowCounts:
    """Combinations per row in the six-card universe, and of the rounds where the bet is
    offered (all rounds: :attr:`universe`, when it has no offer)."""

    rows: tuple[int, ...]
    offered: int
    universe: int


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


# -- poker -------------------------------------------------------------------------------------

_ORDER = {
    2: ("straight_flush", "pair", "straight", "flush", "high_card"),
    3: ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"),
    4: (
        "four_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "flush",
        "straight",
        "two_pair",
        "pair",
        "high_card",
    ),
}
"""Poker rankings by number of cards, best first. Four cards: Four Card Poker's (four of a kind
above a straight flush, three of a kind above a flush above a straight above two pair); three
cards: Three Card Poker's (a straight above a flush); two cards, for which no casino game
publishes a ranking: the same principle of rarity, on one deck straight flush 52 of 1,326 pairs
of cards, pair 78, straight 156, flush 260, high card 780. Conditions compare categories only
for equality, so the order decides only a hand that makes two: a straight flush (not a straight
or a flush), identical cards of several decks (a pair, not a flush). An ace is high or low in a
straight (A-2-3, Q-K-A), never both (no K-A-2)."""


def poker_category(ranks: Sequence[Any], suits: Sequence[Any]) -> Any:
    """The poker category (index into :data:`~exactodds.conditions.POKER`) of 2–4 cards given
    by rank number (1–13) and suit arrays; elementwise on numpy arrays.

    >>> [POKER[int(poker_category(r, s))] for r, s in [((1, 13, 12, 11), (0, 0, 0, 0)),
    ...     ((9, 9, 9, 2), (0, 0, 0, 0)), ((2, 3, 1), (0, 1, 2)), ((5, 5), (3, 3))]]
    ['straight_flush', 'three_of_a_kind', 'straight', 'pair']
    """
    k = len(ranks)
    r = [np.asarray(x) for x in ranks]
    equal = sum(
        ((r[i] == r[j]).astype(np.int64) for i in range(k) for j in range(i + 1, k)), np.int64(0)
    )
    flush = np.ones(np.broadcast(*r).shape, dtype=bool)
    for s in suits[1:]:
        flush = flush & (np.asarray(s) == np.asarray(suits[0]))
    lo, hi = reduce(np.minimum, r), reduce(np.maximum, r)
    high = [np.where(x == 1, 14, x) for x in r]
    lo14, hi14 = reduce(np.minimum, high), reduce(np.maximum, high)
    straight = (equal == 0) & ((hi - lo == k - 1) | (hi14 - lo14 == k - 1))
    tests = {
        "four_of_a_kind": equal == 6,
        "straight_flush": straight & flush,
        "three_of_a_kind": equal == 3,
        "flush": flush,
        "straight": straight,
        "two_pair": equal == 2,
        "pair": equal == 1,
        "high_card": np.ones_like(flush),
    }
    out = np.full(flush.shape, POKER.index("high_card"), dtype=np.int64)
    for name in reversed(_ORDER[k]):
        out = np.where(tests[name], POKER.index(name), out)
    return out


@cache
def _poker_table(k: int) -> np.ndarray:
    """:func:`poker_category` of every ``k`` ranks (0 for none: a hand of two cards when the
    third is none), flush or not, indexed by ``_poker``: one gather per cell instead of the
    pairwise comparisons."""
    ranks = np.indices((14,) * k).reshape(k, -1)
    out = np.empty((ranks.shape[1], 2), dtype=np.int8)
    for flush in (0, 1):
        suits = [np.zeros_like(ranks[0])] * k if flush else [np.arange(ranks.shape[1]) % 2]
        suits += [np.zeros_like(ranks[0]) if flush else 1 - suits[0]] * (k - len(suits))
        cards = poker_category(list(ranks), suits)
        if k == 3:  # a third rank of 0 (none): the first two cards alone
            two = poker_category(list(ranks[:2]), suits[:2])
            cards = np.where(ranks[2] == 0, two, cards)
        out[:, flush] = cards
    return out.reshape(-1)


def _poker(ranks: Sequence[Any], suits: Sequence[Any]) -> Any:
    """The poker category of 3 cards (the third rank none: 2 cards) or 4, elementwise, by
    :func:`_poker_table`."""
    index: Any = 0
    for r in ranks:
        index = index * 14 + np.maximum(r, 0)
    flush = np.asarray(suits[1]) == np.asarray(suits[0])
    for s, r in zip(suits[2:], ranks[2:], strict=True):
        same = np.asarray(s) == np.asarray(suits[0])
        flush = flush & (same | (np.asarray(r) == NONE)) if len(ranks) == 3 else flush & same
    return _poker_table(len(ranks))[index * 2 + flush]


# -- evaluation on a grid ----------------------------------------------------------------------


class _Round:
    """The features of every cell of a block of card sequences, computed on first use."""

    def __init__(
        self,
        slots: Mapping[int, Mapping[str, Any]],
        deal: bool,
        tableau: Tableau,
        *,
        both: bool = False,
    ) -> None:
        self.slots = slots
        self.deal = deal
        self.tableau = tableau
        self.cache: dict[object, Any] = {}
        if both:  # every cell is a round where both hands draw: cards five and six as dealt
            self.cache["pd"] = self.cache["bd"] = np.True_
            for name in ("value", "rank", "suit", "colour"):
                self.cache["player", "third", name] = slots[4][name]
                self.cache["banker", "third", name] = slots[5][name]

    def attr(self, slot: int, name: str) -> Any:
        return self.slots[slot][name]

    def get(self, key: object, make: Callable[[], Any]) -> Any:
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = make()
        return found

    # the deal
    @property
    def pt(self) -> Any:
        return self.get("pt", lambda: (self.attr(0, "value") + self.attr(2, "value")) % 10)

    @property
    def bt(self) -> Any:
        return self.get("bt", lambda: (self.attr(1, "value") + self.attr(3, "value")) % 10)

    @property
    def pd(self) -> Any:
        return self.get("pd", lambda: _draw_tables(self.tableau)[0][self.pt, self.bt])

    @property
    def bd(self) -> Any:
        def make() -> Any:
            col = np.where(self.pd, self.attr(4, "value"), STOOD)
            return _draw_tables(self.tableau)[1][self.pt, self.bt, col]

        return self.get("bd", make)

    def third(self, side: str, name: str) -> Any:
        """An attribute of a hand's third card (NONE when it has two)."""

        def make() -> Any:
            if side == "player":
                return np.where(self.pd, self.attr(4, name), NONE)
            card = np.where(self.pd, self.attr(5, name), self.attr(4, name))
            return np.where(self.bd, card, NONE)

        return self.get((side, "third", name), make)

    def card(self, side: str, i: int, name: str) -> Any:
        if i == 3:
            return self.third(side, name)
        return self.attr(_HAND_SLOTS[side][i - 1], name)

    def total(self, side: str) -> Any:
        def make() -> Any:
            first = self.pt if side == "player" else self.bt
            third = self.third(side, "value")
            return np.where(third >= 0, (first + third) % 10, first)

        return self.get((side, "total"), make)

    def drew(self, side: str) -> Any:
        return self.pd if side == "player" else self.bd

    def feature(self, name: str) -> Any:
        return self.get(name, lambda: self._feature(name))

    def _feature(self, name: str) -> Any:  # noqa: PLR0912 - one case per feature name
        side, _, rest = name.partition(".")
        if name == "winner":
            p, b = self.total("player"), self.total("banker")
            return np.where(p > b, 0, np.where(b > p, 1, 2))
        if name == "margin":
            return np.abs(self.total("player") - self.total("banker"))
        if name == "cards":
            return 4 + self.pd.astype(np.int64) + self.bd.astype(np.int64)
        if rest == "total":
            return self.total(side)
        if rest == "cards":
            return 2 + self.drew(side).astype(np.int64)
        if rest == "initial":
            return self.pt if side == "player" else self.bt
        if rest == "natural":
            return (self.pt if side == "player" else self.bt) >= 8
        if rest == "third":
            return self.third(side, "value")
        if rest in ("pair", "perfect_pair"):
            a, b = _HAND_SLOTS[side][:2]
            same = self.attr(a, "rank") == self.attr(b, "rank")
            if rest == "perfect_pair":
                same = same & (self.attr(a, "suit") == self.attr(b, "suit"))
            return same
        if rest == "wins":
            return self.feature("winner") == (0 if side == "player" else 1)
        if rest.startswith("card"):
            card, attr = rest.split(".")
            return self.card(side, int(card[4]), attr)
        if rest == "suited":
            first = self.card(side, 1, "suit")
            third = self.card(side, 3, "suit")
            return (first == self.card(side, 2, "suit")) & ((third == NONE) | (third == first))
        if rest == "colour":
            red = self.card(side, 1, "colour") + self.card(side, 2, "colour")
            third = self.card(side, 3, "colour")
            red = red + np.maximum(third, 0)
            n = 2 + (third >= 0)
            return np.where(red == n, 1, np.where(red == 0, 0, 2))
        if rest == "poker":
            if side == "initial":
                slots = (0, 1, 2, 3)
                return _poker(
                    [self.attr(s, "rank") for s in slots], [self.attr(s, "suit") for s in slots]
                )
            ranks = [self.card(side, i, "rank") for i in (1, 2, 3)]
            suits = [self.card(side, i, "suit") for i in (1, 2, 3)]
            return _poker(ranks, suits)
        raise ConditionError(f"unknown feature {name!r}")  # pragma: no cover - parser checks

    def multiplicities(self, group: str, attr: str) -> list[Any]:
        """Per card of ``group``, how many of the group's cards share its ``attr`` (itself
        included; 0 where the card is not dealt): what ``shape`` and ``most`` read."""

        def make() -> list[Any]:
            cards = [(dealt, get(attr)) for dealt, get in self.group_cards(group)]
            same: dict[tuple[int, int], Any] = {}
            for i, j in itertools.combinations(range(len(cards)), 2):
                both = np.logical_and(cards[i][0], cards[j][0])
                same[i, j] = same[j, i] = (cards[i][1] == cards[j][1]) & both
            shape = np.broadcast_shapes(*(np.shape(x) for card in cards for x in card))
            out = []
            for i, (dealt, _) in enumerate(cards):
                m = np.ones(shape, dtype=np.int8)  # at most six cards: bytes
                for j in range(len(cards)):
                    if j != i:
                        m += same[i, j]
                if dealt is not True:
                    m *= dealt
                out.append(m)
            return out

        return self.get(("mult", group, attr), make)  # type: ignore[no-any-return]

    def most(self, group: str, attr: str) -> Any:
        """The largest multiplicity of ``attr`` among the cards of ``group``."""
        return self.get(
            ("most", group, attr), lambda: reduce(np.maximum, self.multiplicities(group, attr))
        )

    def shape_code(self, group: str, attr: str) -> Any:
        """The group's shape of ``attr`` as one integer, :func:`shape_code` of the multiset of
        multiplicities (a card of multiplicity m adds 7^(m−1): each digit ≤ 6 < 7)."""

        def make() -> Any:
            powers = np.array([0, *(7**k for k in range(6))], dtype=np.int32)  # 6·7⁵ < 2³¹
            return reduce(np.add, (powers[m] for m in self.multiplicities(group, attr)))

        return self.get(("shape", group, attr), make)

    def group_cards(self, group: str) -> list[tuple[Any, Callable[[str], Any]]]:
        """(dealt mask, attribute getter) of every card slot of a ``count`` group. A card's
        getter is one object per round, whatever the group (the evaluator keeps a condition
        on one card under it)."""

        def slot(s: int) -> Callable[[str], Any]:
            return self.get(("slot", s), lambda: lambda a: self.attr(s, a))  # type: ignore[no-any-return]

        def banker_third() -> Callable[[str], Any]:
            return lambda a: np.where(self.pd, self.attr(5, a), self.attr(4, a))

        if group == "initial":
            return [(True, slot(s)) for s in (0, 1, 2, 3)]
        out: list[tuple[Any, Callable[[str], Any]]] = []
        if group in ("player", "round"):
            out += [(True, slot(0)), (True, slot(2)), (self.pd, slot(4))]
        if group in ("banker", "round"):
            out += [(True, slot(1)), (True, slot(3))]
            out.append((self.bd, self.get("banker third", banker_third)))
        return out


@cache
def _draw_tables(tableau: Tableau) -> tuple[np.ndarray, np.ndarray]:
    table = continuations(tableau)
    pd = np.array([[c.player_draws for c in row] for row in table], dtype=bool)
    bd = np.array([[c.banker_draws for c in row] for row in table], dtype=bool)
    return pd, bd


def shape_code(shape: Sequence[int]) -> int:
    """A shape (multiplicities from the largest) as the integer :meth:`_Round.shape_code`
    gives: each part p is p cards of multiplicity p, each adding 7^(p−1).

    >>> shape_code([3, 3]), shape_code([2, 2, 1, 1]), shape_code([6])
    (294, 30, 100842)
    """
    return sum(part * 7 ** (part - 1) for part in shape)


def _const_code(value: object, kind: FeatureKind | CardKind | None) -> int:
    """A literal as the integer code its feature uses."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return int(value)
    if kind is CardKind.RANK:
        return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(value, value)  # type: ignore[call-overload, no-any-return]
    if kind is CardKind.SUIT:
        return SUIT_WORDS.index(str(value))
    if kind in (CardKind.COLOUR, CardKind.HAND_COLOUR):
        return {"black": 0, "red": 1, "mixed": 2}[str(value)]
    if kind is CardKind.POKER:
        return POKER.index(str(value))
    if kind is FeatureKind.WINNER:
        return ("player", "banker", "tie").index(str(value))
    assert isinstance(value, int)
    return value


_CMP = {
    "==": np.equal,
    "!=": np.not_equal,
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
}


_BOUND = 1 << 20
"""Beyond every feature side of a comparison: each operand that is not a literal lies in
[−1, 13] (codes, values, totals, counts and ``most`` of at most six cards), a sum has at most
:data:`~exactodds.limits.MAX_SUM_TERMS` terms a side, so |left − right| ≤ 2 · 64 · 13 < 2¹¹.
The literals of a comparison are moved to one side as an exact Python integer and clamped to
±``_BOUND``: the comparison is unchanged and int64 never wraps, however large the literals."""


def _as_int(values: Any) -> Any:
    """Integer arrays (or scalars) as int64, so differences never wrap or fail on booleans."""
    values = np.asarray(values)
    return values if values.dtype == np.int64 else values.astype(np.int64)


def _never(mask: Any) -> bool:
    """Whether an absent mask is the constant false (the operand is always there)."""
    return isinstance(mask, np.bool_) and not mask


_KINDS: Mapping[str, FeatureKind | CardKind] = {**FEATURE_KINDS, **CARD_FEATURE_KINDS}


def _canon(nodes: Iterable[Node]) -> dict[int, int]:
    """For every node of the trees (id → id), the id of the first equal node: equal counts,
    comparisons and conditions in different rows share one evaluation (:class:`_Evaluator`).
    Each node is hashed here once, not at every block (nor at every count of the same trees)."""
    return _by_trees("canon", _read_canon, nodes)  # type: ignore[no-any-return]


def _read_canon(nodes: Iterable[Node]) -> dict[int, int]:
    """:func:`_canon`, hashing the trees."""
    first: dict[Node, Node] = {}
    return {
        id(n): id(first.setdefault(n, n))
        for root in nodes
        for n in walk(root)
        if not isinstance(n, Const)  # literals are not kept (walk makes those of a list)
    }


class _Evaluator:
    """A condition tree as numpy arrays over a :class:`_Round` (or one card inside count).

    An operand is evaluated as (features, literal, absent): an int64 array of the sum of its
    features (codes for ranks, suits, colours, categories), the exact sum of its literals, and
    where it is ``none``. A comparison ``a op b`` is ``a.features − b.features op b.literal −
    a.literal`` where both are there, :func:`~exactodds.conditions.when_absent` elsewhere: the
    semantics of :mod:`exactodds.conditions`, with unbounded integers.

    Each round-level node is evaluated once per round (kept in the round's cache under its
    ``canon`` id, :func:`_canon`): a count, comparison or condition that many rows share is
    computed once per block of cells, however many rows name it."""

    def __init__(self, rnd: _Round, canon: Mapping[int, int] | None = None) -> None:
        self.rnd = rnd
        self.canon = canon or {}

    def operand(
        self, node: Node, kind: FeatureKind | CardKind | None, card: Callable[[str], Any] | None
    ) -> tuple[Any, int, Any]:
        """(features, literal, absent) of an operand (see the class), once per round."""
        if card is not None or isinstance(node, Const | Var):
            return self._operand(node, kind, card)
        key = ("operand", self.canon.get(id(node), id(node)))
        found = self.rnd.cache.get(key)
        if found is None:
            found = self.rnd.cache[key] = self._operand(node, kind, card)
        return found

    def test(self, node: Node, card: Callable[[str], Any] | None = None) -> Any:
        if isinstance(node, Const | Otherwise):
            return self._test(node, card)
        key = ("test", self.canon.get(id(node), id(node)), id(card))  # card: the round's getter
        found = self.rnd.cache.get(key)
        if found is None:
            found = self.rnd.cache[key] = self._test(node, card)
        return found

    def kind(
        self, operand: Node, card: Callable[[str], Any] | None
    ) -> FeatureKind | CardKind | None:
        if isinstance(operand, Var):
            if card is not None:
                return CARD_ATTRIBUTES[operand.name]
            return _KINDS[operand.name]
        if isinstance(operand, Count | Most | Sum):
            return FeatureKind.INTEGER
        return None

    def _operand(
        self, node: Node, kind: FeatureKind | CardKind | None, card: Callable[[str], Any] | None
    ) -> tuple[Any, int, Any]:
        if isinstance(node, Const):
            if node.value is None:
                return 0, 0, np.True_
            return 0, _const_code(node.value, kind), np.False_
        if isinstance(node, Var):
            if card is not None:  # one dealt card inside count: always there
                return card(node.name), 0, np.False_
            value = self.rnd.feature(node.name)
            absent = value == NONE if can_be_absent(node) else np.False_
            return value, 0, absent
        if isinstance(node, Count):
            total: Any = 0
            for dealt, get in self.rnd.group_cards(node.group):
                total = total + (self.test(node.card, get) & dealt).astype(np.int64)
            return total, 0, np.False_
        if isinstance(node, Most):
            return self.rnd.most(node.group, node.attr), 0, np.False_
        if isinstance(node, Sum):
            features: Any = 0
            literal, absent = 0, np.False_
            for sign, term in node.terms:
                f, c, a = self.operand(term, FeatureKind.INTEGER, card)
                f = _as_int(f) if not isinstance(f, int) else f
                features = features + f if sign > 0 else features - f
                literal += sign * c
                absent = absent | a
            return features, literal, absent
        raise ConditionError(f"not an operand: {node!r}")  # pragma: no cover

    def compare(
        self, op: str, left: tuple[Any, int, Any], right: tuple[Any, int, Any], literal: bool
    ) -> Any:
        """``left op right`` of two evaluated operands (``literal``: a side is a literal)."""
        (lf, lc, la), (rf, rc, ra) = left, right
        features = lf if isinstance(rf, int) and rf == 0 else _as_int(lf) - _as_int(rf)
        bound = max(-_BOUND, min(_BOUND, rc - lc))
        out = _CMP[op](features, bound)
        if _never(la) and _never(ra):
            return np.asarray(out)
        one, both = when_absent(op, literal, False), when_absent(op, literal, True)
        out = np.where(la | ra, one, out)
        if both != one:
            out = np.where(la & ra, both, out)
        return np.asarray(out)

    def _test(self, node: Node, card: Callable[[str], Any] | None) -> Any:
        if isinstance(node, Otherwise):
            return np.bool_(True)
        if isinstance(node, Const):
            return np.bool_(bool(node.value))
        if isinstance(node, Var):
            return np.asarray(self.operand(node, None, card)[0]).astype(bool)
        if isinstance(node, Not):
            return ~np.asarray(self.test(node.item, card))
        if isinstance(node, And | Or):
            out = self.test(node.items[0], card)
            for item in node.items[1:]:
                part = self.test(item, card)
                out = (out & part) if isinstance(node, And) else (out | part)
            return out
        if isinstance(node, Shape):
            code = self.rnd.shape_code(node.group, node.attr)
            found = np.isin(code, [shape_code(shape) for shape in node.shapes])
            return ~found if node.negated else found
        if isinstance(node, In):  # one == per value, against a literal
            kind = self.kind(node.var, card)
            value = self.operand(node.var, kind, card)
            hit = reduce(
                np.logical_or,
                (
                    self.compare("==", value, self.operand(Const(v), kind, card), True)
                    for v in set(node.values)
                ),
                np.False_,
            )
            return ~hit if node.negated else hit
        assert isinstance(node, Cmp)
        lk, rk = self.kind(node.left, card), self.kind(node.right, card)
        left = self.operand(node.left, lk or rk, card)
        right = self.operand(node.right, rk or lk, card)
        literal = isinstance(node.left, Const) or isinstance(node.right, Const)
        return self.compare(node.op, left, right, literal)


# -- the enumeration ---------------------------------------------------------------------------


def _symmetries(
    shoe: Shoe, nodes: Sequence[Node], colours: bool, colour_literal: bool
) -> list[tuple[int, ...]]:
    """Suit permutations under which the shoe and the conditions are unchanged."""
    named = {
        SUIT_WORDS.index(n.value)
        for root in nodes
        for n in walk(root)
        if isinstance(n, Const) and n.value in SUIT_WORDS
    }
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


def _act(g: tuple[int, ...], axis: _Axis) -> list[int]:
    """Where each class of ``axis`` goes under the suit permutation ``g``."""
    index = {cards: i for i, cards in enumerate(axis.cards)}
    return [index[frozenset((r, g[s]) for r, s in cards)] for cards in axis.cards]


@dataclass(frozen=True)
class _Plan:
    """How :func:`row_counts` enumerates: the axes (outer ones looped over in Python, the
    rest one numpy block), the suit permutations used, the third cards known."""

    axes: tuple[_Axis, ...]
    m: int
    deal: bool
    nodes: tuple[Node, ...]
    group: tuple[tuple[int, ...], ...]
    masked: Mapping[str, frozenset[tuple[int, int]]]
    dtype: Any
    tail: int
    universe: int


def _plan(
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau,
    *,
    offer: Condition | None,
    known: Known | None,
) -> _Plan:
    if shoe.size < 6:
        raise PaytableError(f"a shoe of {shoe.size} cards cannot deal a round (6 needed)")
    nodes = [c.node for c in conditions] + ([offer.node] if offer is not None else [])
    bits, deal, colour_literal = _needs(nodes)
    allowed: dict[int, frozenset[tuple[int, int]]] = {}
    masked: dict[str, frozenset[tuple[int, int]]] = {}
    for position, given in (known or {}).items():
        if position not in POSITIONS:
            raise PaytableError(
                f"unknown dealing position {position!r} (known: {', '.join(POSITIONS)})"
            )
        cards = frozenset(given)
        i = POSITIONS.index(position)
        if i < 4:
            allowed[i] = cards
            bits[i] = _coarsest(bits[i], cards)
        else:
            masked[position] = cards
            deal = True
            for s in (4,) if position == "P3" else (4, 5):
                bits[s] = _coarsest(bits[s], cards)
    n = shoe.size
    big = n**6 >= 1 << 63  # the overflow guard: exact Python integers beyond int64
    colours = colour_literal or any(b & _COLOUR for b in bits)
    group = _symmetries(shoe, nodes, colours, colour_literal)
    if known:  # only the permutations that map each position's known cards onto themselves
        sets = [*allowed.values(), *masked.values()]
        group = [
            g
            for g in group
            if all(frozenset((r, g[s]) for r, s in cards) == cards for cards in sets)
        ]
    slots = list(range(6 if deal else 4))
    orders = [sorted(slots, key=lambda s: -_fineness(bits[s]))]
    if deal and orders[0][-2:] != [4, 5]:  # the draws last: staged, if that costs less
        orders.append([*sorted(range(4), key=lambda s: -_fineness(bits[s])), 4, 5])
    plans = []
    for order in orders:
        axes, m = _arrange(order, bits, shoe, allowed, deal)
        plans.append(
            _Plan(
                axes,
                m,
                deal,
                tuple(nodes),
                tuple(group),
                masked,
                object if big else np.int64,
                1 if deal else perm(n - 4, 2),
                perm(n, 6),
            )
        )
    return min(plans, key=lambda plan: _cells(plan, tableau)[0])


def _arrange(
    order: Sequence[int],
    bits: Sequence[int],
    shoe: Shoe,
    allowed: Mapping[int, frozenset[tuple[int, int]]],
    deal: bool,
) -> tuple[tuple[_Axis, ...], int]:
    """The axes of the slots in ``order``, each at the finest level of itself and the later
    ones (so that earlier classes nest in later ones), and how many are outer."""
    levels = {}
    for k, s in enumerate(order):
        b = 0
        for t in order[k:]:
            b |= bits[t]
        levels[s] = _norm(b)
    axes = tuple(_axis(s, levels[s], shoe.counts, allowed.get(s)) for s in order)
    # Outer axes are looped over in Python, inner ones form one numpy block.
    m = len(axes)
    while m > 0 and prod(len(a) for a in axes[m - 1 :]) <= _CELLS:
        m -= 1
    if _STAGED and deal and tuple(a.slot for a in axes[-2:]) == (4, 5):
        # Staged (see _staged): the block is the four-card grid, its cells where a hand draws
        # times the fifth card's classes, and so on in chunks; fewer, larger blocks.
        m = len(axes) - 2
        while m > 0 and prod(len(a) for a in axes[m - 1 : -2]) <= max(1, _CELLS >> 6):
            m -= 1
    return axes, m


_CELL_COST = 8
"""Numpy operations per cell that do not depend on the conditions (weights, masks, sums)."""
_BLOCK_COST = 20_000
"""The Python overhead of one block, in cell operations (about 0.2 ms)."""
_POKER_COST = 4
"""Operations per cell of a poker category (a table index from the ranks, a flush test)."""
_HAND_COST = 24
"""Operations per cell of a hand's colour (each of its cards compared, its third card looked
up where the hand drew), counted once per feature as the engine computes it once; measured:
``player.colour`` ran at 1.8·10⁸ a second counted as one operation, 7·10⁸ with this."""
_SUITED_COST = 4
"""The same for a hand's suitedness, which costs much less than its colour: measured by
``benchmarks/budget.py`` (Perfect 9 and two suited hands ran 4 to 25 times faster than their
estimate with the colour's cost)."""
_PAIR_COST = 4
"""Operations per cell and pair of a group's cards for its multiplicities (``shape``/``most``;
once per group and attribute, as the engine computes them once): measured, ``shape(round,
rank)`` ran at 1.1·10⁸ a second without this, ``most(round, colour)`` at 1.8·10⁸."""


def _staged(plan: _Plan) -> bool:
    """Whether :func:`row_counts` deals the first four cards, then the draws only: slots five
    and six are read and are the last two axes, both inside the numpy block."""
    axes = plan.axes
    return (
        _STAGED
        and plan.deal
        and plan.m <= len(axes) - 2
        and (axes[-2].slot, axes[-1].slot) == (4, 5)
    )


def _orbit_count(axes: Sequence[_Axis], group: Sequence[tuple[int, ...]]) -> int:
    """Sequences of classes of ``axes`` up to the suit permutations ``group`` (Burnside: the
    mean over the group of the sequences each fixes)."""
    kinds = [
        (
            [a.suit.count(suit) for suit in range(4)],
            sum(1 for suit, colour in zip(a.suit, a.colour, strict=True) if suit == NONE != colour),
            a.colour.count(NONE),
        )
        for a in axes
    ]
    fixed = 0
    for g in group:
        keeps = all(_RED[g[s]] == _RED[s] for s in range(4))
        term = 1
        for suits, colours, plain in kinds:
            term *= sum(n for s, n in enumerate(suits) if g[s] == s) + colours * keeps + plain
        fixed += term
    return fixed // len(group)


def _draw_shares(axes: Sequence[_Axis], tableau: Tableau) -> tuple[float, float]:
    """The shares of four-class sequences (P1 B1 P2 B2) where a hand draws, and of those
    extended by a fifth class where both draw (classes weighted alike, not by cards): what
    the staged path extends."""
    by_slot = {a.slot: np.bincount(np.array(a.value, dtype=np.int64), minlength=10) for a in axes}

    def totals(x: Any, y: Any) -> Any:
        out = np.zeros(10)
        for v in range(10):
            out += x[v] * np.roll(y, v)
        return out

    pd, bd = _draw_tables(tableau)
    pairs = np.outer(totals(by_slot[0], by_slot[2]), totals(by_slot[1], by_slot[3]))
    fifth = by_slot[4] / max(1, int(by_slot[4].sum()))
    draws = float((pairs * (pd | bd[:, :, STOOD])).sum())
    both = float((pairs * pd * (bd[:, :, :10] * fifth).sum(axis=2)).sum())
    whole = max(1.0, float(pairs.sum()))
    return draws / whole, both / whole


def work(
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    offer: Condition | None = None,
    known: Known | None = None,
) -> int:
    """An estimate of :func:`row_counts`' work for these inputs, without enumerating, in
    *cell operations*: the numpy cells it evaluates times the operations per cell (a fixed
    cost plus one per node of the conditions, more for a poker category), plus a fixed cost
    per block. Cells: per block of the outer axes (one per orbit under the suit permutations,
    counted by Burnside's lemma), the inner grid; where the draws are dealt apart, the
    four-card grid, then its orbits' cells where a hand draws times the fifth card's classes
    and where both draw times the fifth's and sixth's (none when no condition reads the
    sixth card; all of them otherwise, though the first cards may decide some: the estimate
    is then an upper bound). One core does roughly 10⁹ cell
    operations a second (``benchmarks/cards.py`` prints the rate).

    >>> from exactodds.conditions import OTHERWISE, parse_condition
    >>> colour = [parse_condition("player.colour == red"), OTHERWISE]
    >>> poker = [parse_condition("player.poker == flush and banker.poker == flush"), OTHERWISE]
    >>> work(colour, Shoe.decks(8)) < 10**8 < 10**9 < work(poker, Shoe.decks(8))
    True
    """
    plan = _plan(conditions, shoe, tableau, offer=offer, known=known)
    nodes = [c.node for c in conditions] + ([offer.node] if offer is not None else [])
    # Each distinct subexpression once: a paytable repeats them row after row (Lucky Nines
    # reads 117 nodes, 41 distinct), and the measured rates follow the distinct ones
    # (``benchmarks/budget.py``).
    read = list({repr(n): n for root in nodes for n in walk(root)}.values())
    hands = {n.name for n in read if isinstance(n, Var) and n.name.endswith(".colour")}
    suited = {n.name for n in read if isinstance(n, Var) and n.name.endswith(".suited")}
    shapes = {(n.group, n.attr) for n in read if isinstance(n, Most | Shape)}
    per_cell = (
        _CELL_COST
        + sum(_POKER_COST if isinstance(n, Var) and n.name.endswith(".poker") else 1 for n in read)
        + _HAND_COST * len(hands)
        + _SUITED_COST * len(suited)
        + _PAIR_COST
        * sum(len(_GROUP_SLOTS[g]) * (len(_GROUP_SLOTS[g]) - 1) // 2 for g, _ in shapes)
    )
    cells, blocks = _cells(plan, tableau)
    return cells * per_cell + blocks * _BLOCK_COST


def _cells(plan: _Plan, tableau: Tableau) -> tuple[int, int]:
    """The cells and the blocks (three per prefix when staged) :func:`row_counts` evaluates
    for ``plan``, estimated: exact but for the shares of draws, taken over classes, and for
    the rounds that the first cards decide (not dealt further): an upper bound there."""
    axes, m = plan.axes, plan.m
    blocks = _orbit_count(axes[:m], plan.group)
    if not _staged(plan):
        return blocks * prod(len(a) for a in axes[m:]), blocks
    four = _orbit_count(axes[:-2], plan.group)
    draws, both = _draw_shares(axes, tableau)
    if not plan.masked and not any(_reads_sixth(node) for node in plan.nodes):
        both = 0.0  # the first five cards decide every round: none is dealt a sixth
    fifth, sixth = len(axes[-2]), len(axes[-1])
    cells = blocks * prod(len(a) for a in axes[m:-2]) + int(four * fifth * (draws + both * sixth))
    return cells, 3 * blocks


def row_counts(
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    offer: Condition | None = None,
    known: Known | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RowCounts:
    """Combinations of the rounds each condition settles first (rows of a bet, the last one
    ``otherwise``), among the rounds where ``offer`` holds and the cards agree with ``known``.

    ``offered`` counts those rounds; ``universe`` is N·(N−1)·…·(N−5). ``progress(done, of)``
    is called after each block of cells.

    >>> from exactodds.conditions import OTHERWISE, parse_condition
    >>> from exactodds.shoe import Shoe
    >>> nine = row_counts([parse_condition("player.card1.rank == 9"), OTHERWISE], Shoe.decks(8),
    ...                   known={"P1": [(8, 0), (8, 1), (9, 0)]})  # 9c, 9d or Tc
    >>> nine.rows[0] * 3 == nine.offered * 2
    True
    """
    return _row_counts(conditions, shoe, tableau, offer=offer, known=known, progress=progress)[0]


def _settles(
    conditions: Sequence[Condition],
    row: int,
    shoe: Shoe,
    tableau: Tableau,
    *,
    offer: Condition | None,
    known: Known,
) -> tuple[RowCounts, bool]:
    """Whether some round agreeing with ``known`` settles on ``row`` first (``rows[row]``
    nonzero): :func:`row_counts`, stopped at the first block that gives the row a combination
    (a worked example asks only this, and most rows find one in the first blocks), and whether
    it counted every block (the counts are then exact, else they are lower bounds)."""
    return _row_counts(conditions, shoe, tableau, offer=offer, known=known, stop=row)


def _row_counts(  # noqa: PLR0912, PLR0915 - the engine's loop over deals, kept whole for speed
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau,
    *,
    offer: Condition | None,
    known: Known | None,
    progress: Callable[[int, int], None] | None = None,
    stop: int | None = None,
) -> tuple[RowCounts, bool]:
    """:func:`row_counts`, and whether every block was counted: with ``stop`` a row, the
    blocks stop once that row has a combination (the counts are then lower bounds)."""
    plan = _plan(conditions, shoe, tableau, offer=offer, known=known)
    axes, m, group, masked = plan.axes, plan.m, plan.group, plan.masked
    dtype, tail, universe, deal = plan.dtype, plan.tail, plan.universe, plan.deal
    maps = [[_act(g, a) for a in axes] for g in group]
    subsets = {
        (j, k): _subset(axes[j], axes[k]).astype(dtype) for k in range(len(axes)) for j in range(k)
    }
    inner = axes[m:]
    shape = tuple(len(a) for a in inner)
    tally = _Tally(conditions, offer, masked, axes)
    arrays = [{name: np.array(getattr(a, name), dtype=np.int64) for name in _NAMES} for a in axes]
    for k, a in enumerate(axes):
        arrays[k]["class"] = np.arange(len(a), dtype=np.int64)
    n = shoe.size
    staged = _staged(plan)
    stabilised: dict[tuple[int, ...], Any] = {}
    prefixes = _prefixes(axes[:m], maps)
    for done, (prefix, weight, fixing) in enumerate(prefixes):
        if progress is not None and done % 64 == 0:
            progress(done, len(prefixes))
        if stop is not None and tally.rows[stop]:
            return RowCounts(tuple(tally.rows), tally.offered, universe), False
        outer = 1
        for k, c in enumerate(prefix):
            outer *= axes[k].count[c] - sum(int(subsets[j, k][prefix[j], c]) for j in range(k))
            if outer <= 0:
                break
        if outer <= 0:
            continue
        attrs: dict[int, dict[str, Any]] = {s: dict(_PLACEHOLDER) for s in range(6)}
        for k in range(m):
            attrs[axes[k].slot] = {name: array[prefix[k]] for name, array in arrays[k].items()}
        if not staged:
            cells = _block(axes, m, stop=len(axes), prefix=prefix, subsets=subsets, dtype=dtype)
            for k in range(m, len(axes)):
                line = _line(len(shape), k - m)
                attrs[axes[k].slot] = {
                    name: array.reshape(line) for name, array in arrays[k].items()
                }
            tally.settle(_Round(attrs, deal, tableau), cells, None, weight * outer * tail)
            continue
        # Staged: the first four cards as one block, then only the rounds where a hand draws
        # are extended by the fifth card, and only those where both draw by the sixth.
        base = weight * outer
        last = len(axes) - 2
        cells = _block(axes, m, stop=last, prefix=prefix, subsets=subsets, dtype=dtype)
        if len(fixing) > 1 and last > m:
            key = fixing
            if key not in stabilised:
                stabilised[key] = _orbits(
                    [[maps[g][k] for k in range(m, last)] for g in fixing], cells.shape
                )
            cells = cells * stabilised[key]
        for k in range(m, last):
            line = _line(last - m, k - m)
            attrs[axes[k].slot] = {name: array.reshape(line) for name, array in arrays[k].items()}
        rnd = _Round(attrs, deal, tableau)
        pd, bd = rnd.pd, rnd.bd
        tally.settle(rnd, cells, ~pd & ~bd, base * perm(n - 4, 2))
        draws = np.broadcast_to(pd | bd, cells.shape) & (cells != 0)
        draws = np.flatnonzero(tally.decide(rnd, cells, draws, base * perm(n - 4, 2), 4))
        if not len(draws):
            continue
        classes: list[Any] = [prefix[k] for k in range(m)]
        if cells.ndim:
            classes += list(np.unravel_index(draws, cells.shape))
        w4 = cells.reshape(-1)[draws]
        five = _extend(axes, last, classes=classes, subsets=subsets, cells=w4[:, None], dtype=dtype)
        for k in range(m, last):
            attrs[axes[k].slot] = {
                name: array[classes[k]][:, None] for name, array in arrays[k].items()
            }
        attrs[4] = {name: array[None, :] for name, array in arrays[last].items()}
        rnd = _Round(attrs, deal, tableau)
        both = np.broadcast_to(rnd.pd & rnd.bd, five.shape)
        tally.settle(rnd, five, ~both, base * (n - 5))
        cont = np.flatnonzero(tally.decide(rnd, five, both & (five != 0), base * (n - 5), 5))
        if not len(cont):
            continue
        chunk = max(1, _CELLS // len(axes[-1]))
        for start in range(0, len(cont), chunk):
            part = cont[start : start + chunk]
            row, col = np.divmod(part, five.shape[1])
            sixth = classes[:m] + [c[row] for c in classes[m:]] + [col]
            six = _extend(
                axes,
                last + 1,
                classes=sixth,
                subsets=subsets,
                cells=five.reshape(-1)[part][:, None],
                dtype=dtype,
            )
            for k in range(m, last + 1):
                attrs[axes[k].slot] = {
                    name: array[sixth[k]][:, None] for name, array in arrays[k].items()
                }
            attrs[5] = {name: array[None, :] for name, array in arrays[last + 1].items()}
            tally.settle(_Round(attrs, deal, tableau, both=True), six, None, base)
    if progress is not None:
        progress(len(prefixes), len(prefixes))
    return RowCounts(tuple(tally.rows), tally.offered, universe), True


def _prefixes(
    axes: Sequence[_Axis], maps: Sequence[Sequence[Sequence[int]]]
) -> list[tuple[tuple[int, ...], int, tuple[int, ...]]]:
    """The prefixes (classes of the outer axes) to loop over, each with its weight and the suit
    permutations fixing it: one per orbit under the permutations (its least member, weighted
    by the orbit's size), all of them with weight 1 when no permutation but the identity."""
    shape = tuple(len(a) for a in axes)
    total = prod(shape)
    everything = tuple(range(len(maps)))
    if not axes or len(maps) == 1:  # the identity alone
        return [(p, 1, everything) for p in itertools.product(*(range(n) for n in shape))]
    tables = [[np.array(g[k], dtype=np.int64) for k in range(len(axes))] for g in maps]
    out = []
    step = 1 << 16
    for start in range(0, total, step):
        flat = np.arange(start, min(start + step, total), dtype=np.int64)
        grid = np.unravel_index(flat, shape)
        images = np.stack(
            [
                np.ravel_multi_index(tuple(t[k][grid[k]] for k in range(len(axes))), shape)
                for t in tables
            ]
        )
        least = np.flatnonzero(images.min(axis=0) == flat)
        images = images[:, least]
        ordered = np.sort(images, axis=0)
        sizes = 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)
        fixed = images == flat[least]
        for i, f in enumerate(flat[least].tolist()):
            prefix = tuple(int(c) for c in np.unravel_index(f, shape))
            out.append((prefix, int(sizes[i]), tuple(np.flatnonzero(fixed[:, i]).tolist())))
    return out


_NAMES = ("value", "rank", "suit", "colour")
_PLACEHOLDER: Mapping[str, Any] = {
    "value": np.int64(0),
    "rank": np.int64(NONE),
    "suit": np.int64(NONE),
    "colour": np.int64(NONE),
    "class": np.int64(0),
}
"""The attributes of a slot not dealt (or not read): masked wherever a condition reads it."""


def _block(
    axes: Sequence[_Axis],
    m: int,
    *,
    stop: int,
    prefix: Sequence[int],
    subsets: Mapping[tuple[int, int], Any],
    dtype: Any,
) -> Any:
    """The dense grid of card sequences of axes ``m`` to ``stop`` after ``prefix``."""
    shape = tuple(len(a) for a in axes[m:stop])
    cells = np.ones(shape, dtype=dtype)
    for i, axis in enumerate(axes[m:stop]):
        k = m + i
        rem = np.array(axis.count, dtype=dtype).reshape(_line(len(shape), i))
        for j in range(k):
            sub = subsets[j, k]
            if j < m:
                rem = rem - sub[prefix[j]].reshape(_line(len(shape), i))
            else:
                rem = rem - sub.reshape(_plane(len(shape), j - m, i, sub.shape))
        cells = cells * rem
    return cells


def _extend(
    axes: Sequence[_Axis],
    k: int,
    *,
    classes: Sequence[Any],
    subsets: Mapping[tuple[int, int], Any],
    cells: Any,
    dtype: Any,
) -> Any:
    """Cells (a column, one per sequence of ``classes`` of axes before ``k``) extended
    by every class of axis ``k``: the falling product's next factor. The earlier cards inside
    each class (at most five) are summed in bytes, then taken from its count."""
    used: Any = 0
    for j in range(k):  # each matrix is at most 52 × 52 classes
        used = used + np.asarray(subsets[j, k], dtype=np.uint8)[classes[j]]
    return cells * (np.array(axes[k].count, dtype=dtype) - used)


def _orbits(maps: Sequence[Sequence[Sequence[int]]], shape: tuple[int, ...]) -> Any:
    """Per cell of a grid, the size of its orbit under the suit permutations ``maps`` (class
    maps per axis) if it is its orbit's first cell, else 0: summing a function invariant under
    them over the grid is summing it times this over the first cells."""
    grid = np.indices(shape).reshape(len(shape), -1)
    images = np.stack(
        [
            np.ravel_multi_index(tuple(np.array(g[i])[grid[i]] for i in range(len(shape))), shape)
            for g in maps
        ]
    )
    first = images.min(axis=0) == np.arange(images.shape[1])
    ordered = np.sort(images, axis=0)
    size = 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)
    return np.where(first, size, 0).reshape(shape)


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


def _three(node: Node, ev: _Evaluator, late: Callable[[Node], bool]) -> tuple[Any, Any]:
    """Where ``node`` surely holds and where it surely fails, a comparison that reads a
    later card (``late``) being unknown (but for a hand's poker category: what its first two
    cards leave possible)."""
    if isinstance(node, Otherwise):
        return np.True_, np.False_
    if isinstance(node, Not):
        holds, fails = _three(node.item, ev, late)
        return fails, holds
    if isinstance(node, And | Or):
        parts = [_three(item, ev, late) for item in node.items]
        if isinstance(node, And):
            return reduce(np.logical_and, (h for h, _ in parts)), reduce(
                np.logical_or, (f for _, f in parts)
            )
        return reduce(np.logical_or, (h for h, _ in parts)), reduce(
            np.logical_and, (f for _, f in parts)
        )
    if late(node):
        return _poker_hope(node, ev)
    value = np.asarray(ev.test(node))
    return value, ~value


@cache
def _poker_hopes() -> np.ndarray:
    """[r1, r2, suited]: the poker categories (a bit each) that a hand whose first two cards
    have ranks r1, r2 and are (1) or are not (0) of one suit may end with, whatever its third
    card (or none): a superset, the shoe ignored."""
    table = _poker_table(3)
    out = np.zeros((14, 14, 2), dtype=np.int64)
    for r1, r2, suited in itertools.product(range(14), range(14), (0, 1)):
        mask = 1 << int(table[((r1 * 14 + r2) * 14) * 2 + suited])
        for r3 in range(1, 14):
            for flush in range(suited + 1):
                mask |= 1 << int(table[((r1 * 14 + r2) * 14 + r3) * 2 + flush])
        out[r1, r2, suited] = mask
    return out


def _poker_hope(node: Node, ev: _Evaluator) -> tuple[Any, Any]:
    """Where a late comparison of a hand's poker category with literals surely holds and
    surely fails, from the categories its first two cards leave possible; unknown (nowhere)
    for any other late comparison. Late, the hand's third card is the one unknown card it
    reads."""
    unknown = (np.False_, np.False_)
    var: Node
    const: Node
    if isinstance(node, In):
        var, values, negated = node.var, node.values, node.negated
    elif isinstance(node, Cmp) and node.op in ("==", "!="):
        var, const = node.left, node.right
        if isinstance(var, Const):
            var, const = const, var
        if not isinstance(const, Const):
            return unknown
        values, negated = (const.value,), node.op == "!="
    else:
        return unknown
    if not (isinstance(var, Var) and var.name in ("player.poker", "banker.poker")):
        return unknown
    side = var.name.partition(".")[0]
    rnd = ev.rnd
    r1, r2 = (np.maximum(rnd.card(side, i, "rank"), 0) for i in (1, 2))
    suited = rnd.card(side, 1, "suit") == rnd.card(side, 2, "suit")
    hopes = _poker_hopes()[r1, r2, suited.astype(np.int64)]
    wanted = sum(1 << _const_code(v, CardKind.POKER) for v in set(values))
    holds, fails = (hopes & ~wanted) == 0, (hopes & wanted) == 0
    return (fails, holds) if negated else (holds, fails)


class _Tally:
    """Combinations per row and offered, summed over blocks of cells."""

    def __init__(
        self,
        conditions: Sequence[Condition],
        offer: Condition | None,
        masked: Mapping[str, frozenset[tuple[int, int]]],
        axes: Sequence[_Axis],
    ) -> None:
        self.conditions = conditions
        self.offer = offer
        self.rows = [0] * len(conditions)
        self.offered = 0
        self.canon = _canon([c.node for c in conditions] + ([offer.node] if offer else []))
        slot_axis = {a.slot: a for a in axes}
        self.inside = {
            position: {
                slot: np.array([c <= cards for c in slot_axis[slot].cards], dtype=bool)
                for slot in ((4,) if position == "P3" else (4, 5))
            }
            for position, cards in masked.items()
        }

    def decide(self, rnd: _Round, cells: Any, select: Any, scale: int, dealt: int) -> Any:
        """Settle the cells among ``select`` (rounds to be dealt further) whose offer and row
        the first ``dealt`` cards already decide, whatever the later cards (times ``scale``,
        the sequences of the later cards), and return the others. A condition is decided
        three-valued: a comparison reading a later card is unknown, ``and``/``or``/``not``
        combine what is known."""
        if self.inside:  # a known third card: the later cards are read by the mask
            return select
        ev = _Evaluator(rnd, self.canon)
        late = _READS_FIFTH if dealt == 4 else _READS_SIXTH
        shape = cells.shape
        done = np.zeros(shape, dtype=bool)
        offered: Any = np.True_
        if self.offer is not None:
            offered, refused = _three(self.offer.node, ev, late)
            done = done | refused
        open_: Any = offered
        for i, condition in enumerate(self.conditions):
            holds, fails = _three(condition.node, ev, late)
            hit = np.broadcast_to(select & open_ & holds, shape)
            if hit.any():
                count = int(np.sum(cells, where=hit, initial=0))
                self.rows[i] += scale * count
                self.offered += scale * count
                done = done | hit
            open_ = open_ & fails
            if not np.any(open_):
                break
        return select & ~done

    def settle(self, rnd: _Round, cells: Any, select: Any, scale: int) -> None:
        """Add the cells (among ``select``, None for all) times ``scale`` to the rows."""
        shape = cells.shape
        ev = _Evaluator(rnd, self.canon)
        live = np.ones(shape, dtype=bool) if select is None else select
        if self.offer is not None:
            live = live & ev.test(self.offer.node)
        for position, inside in self.inside.items():
            live = live & _known_mask(rnd, position, inside)
        live = np.broadcast_to(live, shape)
        self.offered += scale * int(np.sum(cells, where=live, initial=0))
        unsettled = live.copy()
        for i, condition in enumerate(self.conditions):
            if not unsettled.any():
                break
            hit = unsettled & np.broadcast_to(ev.test(condition.node), shape)
            if hit.any():
                self.rows[i] += scale * int(np.sum(cells, where=hit, initial=0))
                unsettled &= ~hit
        if unsettled.any() and np.any(cells, where=unsettled):
            raise PaytableError("no row matches some rounds (the last row must be 'otherwise')")


def _line(ndim: int, i: int) -> tuple[int, ...]:
    return tuple(-1 if d == i else 1 for d in range(ndim))


def _plane(ndim: int, j: int, i: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(shape[0] if d == j else shape[1] if d == i else 1 for d in range(ndim))


def _known_mask(rnd: _Round, position: str, inside: Mapping[int, Any]) -> Any:
    """Cells where the hand drew a third card inside the known cards (known P3 or B3)."""

    def at(slot: int) -> Any:
        return inside[slot][rnd.attr(slot, "class")]

    if position == "P3":
        return rnd.pd & at(4)
    return rnd.bd & np.where(rnd.pd, at(5), at(4))


def holds_for_cards(
    condition: Condition,
    cards: Sequence[tuple[int, int]],
    tableau: Tableau = BUILTIN["punto-banco"],
) -> bool:
    """Whether ``condition`` holds for one round dealt from ``cards`` (rank index, suit index)
    in dealing order (4 to 6 cards: the six-card slots; missing ones are never read).

    >>> from exactodds.conditions import parse_condition
    >>> suited_eight = parse_condition("player.suited and player.total == 8")
    >>> holds_for_cards(suited_eight, [(2, 0), (9, 1), (4, 0), (9, 2)])  # P: 3c 5c, B: Td Th
    True
    """
    attrs: dict[int, dict[str, Any]] = {}
    for s in range(6):
        if s < len(cards):
            r, u = cards[s]
            attrs[s] = {
                "value": np.int64(RANK_VALUES[r]),
                "rank": np.int64(r + 1),
                "suit": np.int64(u),
                "colour": np.int64(int(_RED[u])),
            }
        else:
            attrs[s] = {
                "value": np.int64(0),
                "rank": np.int64(NONE),
                "suit": np.int64(NONE),
                "colour": np.int64(NONE),
            }
    rnd = _Round(attrs, True, tableau)
    return bool(_Evaluator(rnd).test(condition.node))


def round_slots(
    player: Sequence[tuple[int, int]], banker: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """A round's cards in the six-card slots: P1 B1 P2 B2, then the player's third card if
    any, then the banker's.

    >>> round_slots([(0, 0), (1, 0)], [(2, 0), (3, 0), (4, 0)])  # banker drew, player stood
    [(0, 0), (2, 0), (1, 0), (3, 0), (4, 0)]
    """
    return [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]


def reads_suits(conditions: Iterable[Condition]) -> bool:
    """Whether the conditions read a suit or a colour anywhere (so a round must give suits)."""
    bits, _, colour_literal = _needs([c.node for c in conditions])
    return colour_literal or any(b & (_SUIT | _COLOUR) for b in bits)


def example_round(
    conditions: Sequence[Condition],
    row: int,
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    offer: Condition | None = None,
    memo: dict[object, Any] | None = None,
) -> dict[str, tuple[int, int]] | None:
    """A round settling on ``row`` first (and offering the bet), as position → card (rank
    index, suit index), or None when no round of ``shoe`` does.

    Position by position (deal order), the first class of cards the conditions can tell apart
    there with which some round still settles on the row is kept, in this order: cards not yet
    in the round of a rank its hand does not hold yet, then cards not yet in the round, then
    any (so a card repeats only where the row needs it, as in a perfect pair); within each, by
    value, rank (K Q J T) and suit from the position (P1 c, B1 d, P2 h, B2 s), halving groups of
    one value and rank, then the group's classes, at each exact count. Then each position takes
    a card of its class in the same order, the shoe's counts allowing. ``memo`` keeps the
    counts for the other rows of the same bet.

    >>> from exactodds.conditions import OTHERWISE, parse_condition
    >>> nines = [parse_condition("count(initial, rank == 9) == 4"), OTHERWISE]
    >>> four = example_round(nines, 0, Shoe.decks(8))  # 9c 9d 9h 9s: four cards, no repeat
    >>> sorted(four.items())
    [('B1', (8, 1)), ('B2', (8, 3)), ('P1', (8, 0)), ('P2', (8, 2))]
    >>> example_round(nines, 0, Shoe.decks(1)) == four
    True
    """

    cache: dict[object, Any] = {} if memo is None else memo

    def count(known: Mapping[str, frozenset[tuple[int, int]]]) -> int:
        """Nonzero when a round agreeing with ``known`` settles on the row: from the bet's
        counts on ``known`` (exact, or lower bounds where :func:`_settles` stopped early and
        the row has one), else counted by :func:`_settles` until the row has one."""
        key = frozenset(known.items())
        found: tuple[RowCounts, bool] | None = cache.get(key)
        if found is None or not (found[1] or found[0].rows[row]):
            found = cache[key] = _settles(conditions, row, shoe, tableau, offer=offer, known=known)
        return found[0].rows[row]

    if not count({}):
        return None
    nodes = [c.node for c in conditions] + ([offer.node] if offer is not None else [])
    bits, _, _ = _needs(nodes)
    fine = _norm(bits[4] | bits[5])
    axes = [_axis(i, _norm(b), shoe.counts, None) for i, b in enumerate([*bits[:4], fine, fine])]
    banned: dict[str, frozenset[tuple[int, int]]] = {}
    best = tried = _assign(_example_classes(axes, count, banned), shoe)
    for _ in range(_RETRIES):  # a card comes again: try without it where it first comes (the
        again = _repeated(tried)  # choice is made position by position, without looking ahead)
        if tried is None or again is None:
            break
        banned[again] = banned.get(again, frozenset()) | {tried[again]}
        tried = _assign(_example_classes(axes, count, banned), shoe) or None
        if tried is not None and _repeats(tried) < _repeats(best):
            best = tried
    return best


def _repeats(cards: Mapping[str, tuple[int, int]] | None) -> int:
    """How many cards of a round are one dealt before."""
    return 0 if cards is None else len(cards) - len(set(cards.values()))


_RETRIES = 2
"""Rounds :func:`example_round` tries again when a card comes twice in its first choice."""


def _repeated(cards: Mapping[str, tuple[int, int]] | None) -> str | None:
    """The position where a card that comes again later first comes, or None.

    >>> _repeated({"P1": (12, 0), "B1": (12, 1), "P2": (12, 0)})
    'P1'
    """
    seen = list((cards or {}).values())
    return next((at for at, c in (cards or {}).items() if seen.count(c) > 1), None)


_Counter = Callable[[Mapping[str, frozenset[tuple[int, int]]]], int]
"""Combinations of a round settling on the row, given what is known by position."""


def _example_classes(
    axes: Sequence[_Axis], count: _Counter, banned: Mapping[str, frozenset[tuple[int, int]]]
) -> dict[str, frozenset[tuple[int, int]]]:
    """Per position in deal order, the first class (by :func:`_preference`) with which some
    round still settles on the row (whole classes, so that the counts keep the suit symmetry,
    less the ``banned`` cards of the position); {} when no round does without them."""
    known: dict[str, frozenset[tuple[int, int]]] = {}
    chosen: dict[str, tuple[int, int]] = {}  # each position's first card, for the preference
    for i, position in enumerate(POSITIONS):

        def holds(cards: frozenset[tuple[int, int]], at: str = position) -> bool:
            return bool(count({**known, at: cards}))

        axis = axes[i]
        if position in banned:
            cards = [c - banned[position] for c in axis.cards]
            axis = replace(axis, cards=tuple(cards))  # (classes emptied are skipped)
            if not holds(frozenset().union(*cards)):
                return {}
        elif i >= 4 and not holds(frozenset().union(*axis.cards)):
            continue  # the hand draws no third card on such rounds
        key = _preference(position, chosen)
        known[position] = _example_class(axis, key, holds)
        chosen[position] = min(known[position], key=key)
    return known


def _preference(
    position: str, chosen: Mapping[str, tuple[int, int]]
) -> Callable[[tuple[int, int]], tuple[int, int, int]]:
    """The order in which an example prefers cards at ``position`` after the cards ``chosen``:
    a card not yet in the round of a rank its hand does not hold yet (0), one not yet in the
    round (1), any (2); then by rank, K Q J T first; then by suit from the position (P1 c,
    B1 d, P2 h, B2 s, P3 c, B3 d).

    >>> key = _preference("P2", {"P1": (12, 0), "B1": (12, 1)})  # Kc, Kd
    >>> sorted([(12, 1), (12, 2), (11, 0), (12, 0)], key=key)  # Qc, Kh, then Kc, Kd (dealt)
    [(11, 0), (12, 2), (12, 0), (12, 1)]
    """
    used = set(chosen.values())
    ranks = {r for at, (r, _) in chosen.items() if at[0] == position[0]}
    i = POSITIONS.index(position)

    def key(card: tuple[int, int]) -> tuple[int, int, int]:
        r, s = card
        tier = 2 if card in used else 1 if r in ranks else 0
        return tier, -r, (s - i) % 4

    return key


def _example_class(
    axis: _Axis,
    key: Callable[[tuple[int, int]], tuple[int, int, int]],
    holds: Callable[[frozenset[tuple[int, int]]], bool],
) -> frozenset[tuple[int, int]]:
    """The first class of ``axis`` with which the row holds, the row holding with the axis as
    a whole: by the preference ``key`` of the class's best card (whole classes, so that the
    counts keep the suit symmetry). Groups of one tier, value and rank are halved first (each
    nearly every suit: cheaper counts), then the group's classes."""
    groups: dict[tuple[int, int, int], list[frozenset[tuple[int, int]]]] = {}
    for k, cards in enumerate(axis.cards):
        if not cards:
            continue
        tier = min(map(key, cards))[0]
        groups.setdefault((tier, axis.value[k], -axis.rank[k]), []).append(cards)
    kept = [sorted(groups[g], key=lambda c: min(map(key, c))) for g in sorted(groups)]
    while len(kept) > 1:
        half = kept[: len(kept) // 2]
        kept = (
            half if holds(frozenset().union(*(c for g in half for c in g))) else kept[len(half) :]
        )
    classes = kept[0]
    while len(classes) > 1:
        first = classes[: len(classes) // 2]
        classes = first if holds(frozenset().union(*first)) else classes[len(first) :]
    return classes[0]


def _assign(
    known: Mapping[str, frozenset[tuple[int, int]]], shoe: Shoe
) -> dict[str, tuple[int, int]] | None:
    """A card of each position's class, the shoe's counts allowing (a small backtracking), each
    the first in :func:`_preference`'s order after the cards before it, a card that is the
    only one of another position's class last."""
    left = [list(row) for row in shoe.counts]
    out: dict[str, tuple[int, int]] = {}
    positions = list(known)
    only = {at: next(iter(cards)) for at, cards in known.items() if len(cards) == 1}

    def place(k: int) -> bool:
        if k == len(positions):
            return True
        at = positions[k]
        taken = {c for other, c in only.items() if other != at}  # the one card of a position
        key = _preference(at, out)
        for r, s in sorted(known[at], key=lambda c: (c in taken, key(c))):
            if left[r][s]:
                left[r][s] -= 1
                out[at] = (r, s)
                if place(k + 1):
                    return True
                del out[at]
                left[r][s] += 1
        return False

    return out if place(0) else None
