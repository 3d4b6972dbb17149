"""Conditions evaluated over a block of card sequences at once (integer numpy grids), and on
one round's dealt cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, reduce
from typing import Any

import numpy as np

from exactodds.counting import vectors
from exactodds.counting.classes import _HAND_SLOTS, _RED, NONE, _by_trees
from exactodds.counting.poker import _poker
from exactodds.counting.vectors import (
    bit,
    compared,
    count_of,
    counted,
    has_vector,
    junction,
    plane_bits,
)
from exactodds.deal.round import FEATURE_KINDS, FeatureKind, continuations
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import ConditionError
from exactodds.language import (
    CARD_ATTRIBUTES,
    CARD_FEATURE_KINDS,
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
    walk,
    when_absent,
)

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

    def most(self, group: str, attr: str) -> Any:
        """The largest multiplicity of ``attr`` among the cards of ``group``."""
        return self.get(("most", group, attr), lambda: vectors.most(self, group, attr))

    def shape_code(self, group: str, attr: str) -> Any:
        """The group's shape of ``attr`` as one integer, :func:`shape_code` of the multiset of
        multiplicities (a card of multiplicity m adds 7^(m−1): each digit ≤ 6 < 7)."""
        return self.get(("shape", group, attr), lambda: vectors.shape_code(self, group, attr))

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
    a.literal`` where both are there, :func:`~exactodds.language.when_absent` elsewhere: the
    semantics of :mod:`exactodds.language`, with unbounded integers.

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
            slice_ = counted(node, _const_code) if card is None else None
            if slice_ is not None and has_vector(self.rnd, slice_):  # a slice of it
                return count_of(self.rnd, slice_), 0, np.False_
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
            if card is None:
                return self._junction(node)
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
        plane = compared(node, _const_code) if card is None else None
        if plane is not None and has_vector(self.rnd, plane.counted):  # a slice of a plane
            return (plane_bits(self.rnd, plane.plane) & bit(plane.counted)) != 0
        lk, rk = self.kind(node.left, card), self.kind(node.right, card)
        left = self.operand(node.left, lk or rk, card)
        right = self.operand(node.right, rk or lk, card)
        literal = isinstance(node.left, Const) or isinstance(node.right, Const)
        return self.compare(node.op, left, right, literal)

    def _junction(self, node: And | Or) -> Any:
        """An ``and``/``or`` of round-level items: the comparisons of counts that share a
        plane of the count vectors as one test of its bits (:mod:`~exactodds.counting.vectors`)."""
        grouped, rest = junction(node, _const_code)
        every = isinstance(node, And)
        parts = [
            (bits & mask) == mask if every else (bits & mask) != 0
            for bits, mask in ((plane_bits(self.rnd, key), mask) for key, mask in grouped)
        ]
        parts += [self.test(item) for item in rest]
        combine = np.logical_and if isinstance(node, And) else np.logical_or
        return reduce(combine, parts)


def holds_for_cards(
    condition: Condition,
    cards: Sequence[tuple[int, int]],
    tableau: Tableau = BUILTIN["punto-banco"],
) -> bool:
    """Whether ``condition`` holds for one round dealt from ``cards`` (rank index, suit index)
    in dealing order (4 to 6 cards: the six-card slots; missing ones are never read).

    >>> from exactodds.language import parse_condition
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
