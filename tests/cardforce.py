"""An independent reading of card-level conditions, for the brute-force checks of
:mod:`exactodds.counting`: every round is dealt card by card from physical cards, and a condition's
tree is interpreted here in plain Python over those cards (ranks by symbol, suits by letter,
poker hands by counting ranks), sharing nothing with the engine but the parsed tree.

>>> from exactodds.language import parse_condition
>>> cards = [(4, 0), (12, 1), (0, 0), (11, 1)]  # P: 5c Ac = 6 stands, B: Kd Qd = 0 draws
>>> rnd = deal(cards + [(4, 2), (5, 3)])
>>> holds(parse_condition("player.suited and count(banker, rank in [K, Q]) == 2").node, rnd)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, permutations

from exactodds.deal.shoe import RANKS, Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.language import (
    And,
    Cmp,
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
)
from tests.bruteforce import PhysicalCard, card_value, physical_cards

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS = ("diamonds", "hearts")
RANK_OF_LITERAL = {"A": "A", "J": "J", "Q": "Q", "K": "K", 10: "T"} | {
    n: str(n) for n in range(2, 10)
}

# Best first, per number of cards (the documented rankings, written out again).
RANKING = {
    4: [
        "four_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "flush",
        "straight",
        "two_pair",
        "pair",
        "high_card",
    ],
    3: ["straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"],
    2: ["straight_flush", "pair", "straight", "flush", "high_card"],
}


@dataclass
class Dealt:
    """One round: each hand's physical cards, in dealing order."""

    player: list[PhysicalCard]
    banker: list[PhysicalCard]


def deal(seq: Sequence[PhysicalCard], tableau: Tableau = BUILTIN["punto-banco"]) -> Dealt:
    """Deal a round from the top of ``seq`` (six cards) by the tableau's data."""
    p = [seq[0], seq[2]]
    b = [seq[1], seq[3]]
    rest = iter(seq[4:])
    pt = (card_value(p[0]) + card_value(p[1])) % 10
    bt = (card_value(b[0]) + card_value(b[1])) % 10
    if pt < 8 and bt < 8:
        third = None
        if pt in tableau.player:
            p.append(next(rest))
            third = card_value(p[2])
        if (STOOD if third is None else third) in tableau.banker[bt]:
            b.append(next(rest))
    return Dealt(p, b)


def _total(cards: list[PhysicalCard]) -> int:
    return sum(card_value(c) for c in cards) % 10


def _card(card: PhysicalCard | None) -> dict[str, object]:
    if card is None:
        return {"rank": None, "suit": None, "colour": None, "value": None}
    suit = SUIT_NAMES[card[1]]
    return {
        "rank": RANKS[card[0]],
        "suit": suit,
        "colour": "red" if suit in RED_SUITS else "black",
        "value": card_value(card),
    }


def poker(cards: list[PhysicalCard]) -> str:
    """The poker category of 2–4 cards, by counting ranks (ace high or low in a straight)."""
    ranks = [c[0] + 1 for c in cards]  # A=1 .. K=13
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight = False
    if counts[0] == 1:
        for seq in (sorted(ranks), sorted(14 if r == 1 else r for r in ranks)):
            straight |= all(b - a == 1 for a, b in pairwise(seq))
    found = {
        "four_of_a_kind": counts[0] == 4,
        "straight_flush": straight and flush,
        "three_of_a_kind": counts[0] == 3,
        "flush": flush,
        "straight": straight,
        "two_pair": counts[:2] == [2, 2],
        "pair": counts[0] == 2 and counts[1:2] != [2],
        "high_card": True,
    }
    return next(name for name in RANKING[len(cards)] if found[name])


def feature(name: str, rnd: Dealt) -> object:  # noqa: PLR0912 - one case per feature, as the rules read
    """A feature's value in plain Python (ranks as symbols, suits by name)."""
    pt, bt = _total(rnd.player), _total(rnd.banker)
    if name == "winner":
        return "player" if pt > bt else "banker" if bt > pt else "tie"
    if name == "margin":
        return abs(pt - bt)
    if name == "cards":
        return len(rnd.player) + len(rnd.banker)
    side, _, rest = name.partition(".")
    if side == "initial":
        return poker([rnd.player[0], rnd.banker[0], rnd.player[1], rnd.banker[1]])
    hand = rnd.player if side == "player" else rnd.banker
    other = rnd.banker if side == "player" else rnd.player
    if rest == "total":
        return _total(hand)
    if rest == "cards":
        return len(hand)
    if rest == "initial":
        return _total(hand[:2])
    if rest == "natural":
        return _total(hand[:2]) >= 8
    if rest == "third":
        return card_value(hand[2]) if len(hand) == 3 else None
    if rest == "pair":
        return hand[0][0] == hand[1][0]
    if rest == "perfect_pair":
        return hand[0] == hand[1]
    if rest == "wins":
        return _total(hand) > _total(other)
    if rest.startswith("card"):
        i = int(rest[4]) - 1
        return _card(hand[i] if i < len(hand) else None)[rest.split(".")[1]]
    if rest == "suited":
        return len({c[1] for c in hand}) == 1
    if rest == "colour":
        colours = {_card(c)["colour"] for c in hand}
        return colours.pop() if len(colours) == 1 else "mixed"
    if rest == "poker":
        return poker(hand)
    raise AssertionError(name)


def _literal(value: object, other: object) -> object:
    """A literal as the plain value it is compared with (ranks to their symbol)."""
    if isinstance(other, str) and other in RANKS and not isinstance(value, bool):
        return RANK_OF_LITERAL.get(value, value)
    return value


def _group(name: str, rnd: Dealt) -> list[PhysicalCard]:
    """A ``count`` group's dealt cards, or one named card (``player.card3``: none if not dealt)."""
    if "." in name:
        side, card = name.split(".")
        hand = rnd.player if side == "player" else rnd.banker
        i = int(card[4]) - 1
        return hand[i : i + 1]
    return {
        "player": rnd.player,
        "banker": rnd.banker,
        "initial": [rnd.player[0], rnd.banker[0], rnd.player[1], rnd.banker[1]],
        "round": rnd.player + rnd.banker,
    }[name]


def group_cards(names: Sequence[str], rnd: Dealt) -> list[PhysicalCard]:
    """The dealt cards of groups and named cards together (a multiplied row's ``multiply``)."""
    return [card for name in names for card in _group(name, rnd)]


def shape(group: str, attr: str, rnd: Dealt) -> list[int]:
    """How many cards of the group show each value of ``attr``, from the largest."""
    return sorted(Counter(_card(c)[attr] for c in _group(group, rnd)).values(), reverse=True)


def _operand(node: Node, rnd: Dealt, card: dict[str, object] | None) -> object:
    if isinstance(node, Var):
        return card[node.name] if card is not None else feature(node.name, rnd)
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Count):
        return sum(holds(node.card, rnd, _card(c)) for c in _group(node.group, rnd))
    if isinstance(node, Most):
        return shape(node.group, node.attr, rnd)[0]
    if isinstance(node, Sum):  # Python integers; no value when a card read is not there
        values = [(sign, _operand(term, rnd, card)) for sign, term in node.terms]
        if any(v is None for _, v in values):
            return None
        return sum(sign * int(v) for sign, v in values)  # type: ignore[call-overload]
    raise AssertionError(node)


def _compare(op: str, a: object, b: object, literal: bool) -> bool:
    """``a op b``; ``none`` (a card not there) equals only a literal ``none``, is never
    ordered, and makes a comparison of two features false (docs/paytables.md)."""
    if a is None or b is None:
        if not literal:
            return False
        return {"==": a is b, "!=": a is not b}.get(op, False)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    return bool(
        {
            "<": a < b,  # type: ignore[operator]
            "<=": a <= b,  # type: ignore[operator]
            ">": a > b,  # type: ignore[operator]
            ">=": a >= b,  # type: ignore[operator]
        }[op]
    )


def holds(node: Node, rnd: Dealt, card: dict[str, object] | None = None) -> bool:
    """Whether a condition tree holds of a dealt round (or of one card, inside count)."""
    if isinstance(node, Otherwise):
        return True
    if isinstance(node, Not):
        return not holds(node.item, rnd, card)
    if isinstance(node, And):
        return all(holds(i, rnd, card) for i in node.items)
    if isinstance(node, Or):
        return any(holds(i, rnd, card) for i in node.items)
    if isinstance(node, Const):
        return bool(node.value)
    if isinstance(node, Var):
        return bool(_operand(node, rnd, card))
    if isinstance(node, Shape):
        found = tuple(shape(node.group, node.attr, rnd)) in node.shapes
        return found != node.negated
    if isinstance(node, In):
        value = _operand(node.var, rnd, card)
        found = any(
            value == _literal(v, value) and (v is None) == (value is None) for v in node.values
        )
        return found != node.negated
    assert isinstance(node, Cmp)
    a, b = _operand(node.left, rnd, card), _operand(node.right, rnd, card)
    if isinstance(node.left, Const):
        a = _literal(a, b)
    if isinstance(node.right, Const):
        b = _literal(b, a)
    return _compare(node.op, a, b, isinstance(node.left, Const) or isinstance(node.right, Const))


@lru_cache(maxsize=8)
def dealt_rounds(shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> tuple[Dealt, ...]:
    """Every ordered six-sequence of distinct physical cards of ``shoe``, dealt."""
    return tuple(deal(seq, tableau) for seq in permutations(physical_cards(shoe), 6))


def brute_rows(
    rows: Sequence[Node],
    shoe: Shoe,
    offer: Node | None = None,
    tableau: Tableau = BUILTIN["punto-banco"],
) -> tuple[list[int], int]:
    """Per row, the ordered six-card sequences of physical cards it settles first (among the
    offered ones), and the offered sequences."""
    counts = [0] * len(rows)
    offered = 0
    for rnd in dealt_rounds(shoe, tableau):
        if offer is not None and not holds(offer, rnd):
            continue
        offered += 1
        for i, row in enumerate(rows):
            if holds(row, rnd):
                counts[i] += 1
                break
    return counts, offered
