"""Worked examples: for each paytable row, one round that settles on it and what 100 returns.

A lab checks a paytable by hand, so each row that can occur gets one round in ``settle``'s
notation, chosen by a fixed rule that favours short, readable rounds:

1. **The round** is the first, in this order, of the outcomes the shoe can deal under the
   tableau that settle on the row: fewest hands with a pair, then fewest perfect pairs (a pair
   appears only where the row needs one), fewest cards, the lowest player hand (two-card total,
   then third card: none before 0–9), the lowest banker hand likewise, and a pair on the
   player's hand before one on the banker's.
2. **Its cards** are chosen in deal order (P1 B1 P2 B2, then third cards), each the first card
   the shoe still holds in this order: a card not yet in the round before a repeat; then by rank
   — a hand's first card the rank of its two-card total (K, Q, J, T for 0) and then A–9, K, Q,
   J, T; its second card the rank that makes the total (K, Q, J, T for a ten-value card, the
   same rank for a pair); a third card the rank of its value — then by suit c, d, h, s starting
   from the card's deal position (P1 c, B1 d, P2 h, B2 s, fifth card c, sixth d). A choice
   that leaves the rest of the round impossible with the cards left is replaced by the next:
   a complete depth-first search.

A card-level row (one reading ranks, suits or colours) is settled by the cards themselves, so
its example is found by :func:`exactodds.counting.example_round` instead: position by position in
deal order, the first card with which some round still settles on the row, preferring a card
not yet in the round of a rank its hand does not hold yet (a card repeats only where the row
needs it, as in a perfect pair: ``P: 9c 9h | B: 9d 9s`` for four nines, not ``9c 9c 9c 9c``).

The outcomes are those with combinations in the exact joint distribution of this shoe, and an
outcome with combinations is dealt by some cards of the shoe, which the search, trying every
card that fits each position, finds. So a row has an example exactly when it has combinations:
a row that never occurs with the shoe has none. Each example is dealt again as ``settle``
deals it (:func:`~exactodds.bets.settle.check_round`: legal, and its cards in the shoe) and
settled by :func:`~exactodds.bets.settle.settle_bet` (offered, on its own row); a round that
is not is an error, never a sheet's example.

>>> from exactodds.bets.loader import load_paytable
>>> banker = load_paytable("classic").bet("banker")
>>> for row, ex in zip(banker.rows, row_examples(banker, Shoe.decks(8), BUILTIN["punto-banco"])):
...     print(f"{row.event:<12} {ex.cards:<24} returns {ex.returns}")
Banker wins  P: Kc Qh | B: 8d Ks      returns 195
Tie          P: 6c Kh | B: 6d Ks      returns 100
Player wins  P: 7c Kh | B: 6d Ks      returns 0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import add, itemgetter
from typing import Any

from exactodds.bets.payout import format_number
from exactodds.bets.paytable import Bet, record_index
from exactodds.bets.settle import Settlement, check_round, format_round_cards, settle_bet
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import HAND_CODES, Hand, Outcome, PairKind, Side
from exactodds.deal.shoe import RANK_VALUES, SUITS, Card, Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import RoundError
from exactodds.language import Index, Memo
from exactodds.numbers import exact

__all__ = [
    "EXAMPLE_RULE",
    "EXAMPLE_STAKE",
    "Example",
    "example_cards",
    "example_stake",
    "round_order_key",
    "row_examples",
]

EXAMPLE_STAKE = Fraction(100)
"""The stake whose return each example states."""


def example_stake(bet: Bet) -> Fraction:
    """The stake a bet's worked examples are placed with: :data:`EXAMPLE_STAKE`, or a progressive
    bet's fixed wager (its jackpot pays the meter for that wager, never a multiple of it).

    >>> from exactodds.bets.loader import load_paytable
    >>> example_stake(load_paytable("classic").bets[0]), example_stake(
    ...     load_paytable("dragon-dragon").bets[-1])
    (Fraction(100, 1), Fraction(1, 1))
    """
    return EXAMPLE_STAKE if bet.progressive is None else bet.progressive.stake


EXAMPLE_RULE = (
    "Worked examples: each row's example is the first round, in this order, that the shoe can "
    "deal and that settles on the row — fewest hands with a pair, fewest perfect pairs, fewest "
    "cards, then the lowest player hand and the lowest banker hand (two-card total, then third "
    "card) — dealt with the first cards the shoe holds in a fixed preference (cards not yet in "
    "the round; a hand's total as its first card, completed by a ten-value card K, Q, J or T; "
    "suits c, d, h, s from the card's deal position), as set out in full in the module "
    "exactodds.figures.worked_examples."
)
"""The selection rule in one sentence, for the sheets' Method section."""


@dataclass(frozen=True)
class Example:
    """A round in ``settle``'s notation and what :data:`EXAMPLE_STAKE` returns on it, stake
    included, after the bet's rounding (a lose returns 0, a push the stake).

    >>> Example("P: 9s 9h | B: Kd 7c", Fraction(1200)).returns - EXAMPLE_STAKE  # 11:1 won
    Fraction(1100, 1)
    """

    cards: str
    returns: Fraction
    stake: Fraction = EXAMPLE_STAKE
    """What was staked (:func:`example_stake`)."""
    product: int | None = None
    """The product of multipliers the example assumes on a multiplied row: 1, no multiplier
    card on the row's group (None for a row that is not multiplied)."""
    fee: Fraction = Fraction(0)
    """The fee paid on the stake besides it, never returned (0 for a bet without a fee)."""
    kept: bool = False
    """A peek bet's example: the stake is kept, not raised."""

    @property
    def assumes(self) -> str:
        """What :attr:`returns` assumes beyond the cards ("" for an ordinary bet).

        >>> Example("P: 7c Kh | B: 6d Ks", Fraction(200), product=1, fee=Fraction(20)).assumes
        'product 1 (no multiplier card on the group); fee 20 paid besides the stake, not returned'
        """
        parts = []
        if self.product is not None:
            parts.append(
                f"product {self.product} (no multiplier card on the group)"
                if self.product == 1
                else f"product {self.product}"
            )
        if self.fee:
            parts.append(f"fee {format_number(self.fee)} paid besides the stake, not returned")
        if self.kept:
            parts.append("the stake kept, not raised")
        return "; ".join(parts)

    def to_json(self) -> dict[str, str | int]:
        """JSON-ready, exact values as ``"p/q"`` (``product``, ``fee`` and a peek's ``raise``, 1,
        only where they apply).

        >>> Example("P: 9s 9h | B: Kd 7c", Fraction(1200)).to_json()
        {'cards': 'P: 9s 9h | B: Kd 7c', 'stake': '100/1', 'returns': '1200/1'}
        >>> Example("P: 7c Kh | B: 6d Ks", Fraction(200), product=1, fee=Fraction(20)).to_json()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'cards': 'P: 7c Kh | B: 6d Ks', 'stake': '100/1', 'returns': '200/1', 'product': 1,
         'fee': '20/1'}
        """
        out: dict[str, str | int] = {
            "cards": self.cards,
            "stake": exact(self.stake),
            "returns": exact(self.returns),
        }
        if self.product is not None:
            out["product"] = self.product
        if self.fee:
            out["fee"] = exact(self.fee)
        if self.kept:
            out["raise"] = 1
        return out


# -- 1. the order of outcomes ------------------------------------------------------------------


def round_order_key(outcome: Outcome) -> tuple[int, ...]:
    """The outcome's place in the order examples are chosen by (smaller first).

    >>> from exactodds.deal.round import Hand, PairKind
    >>> plain = Outcome(Hand(7, None, PairKind.NONE), Hand(6, None, PairKind.NONE))
    >>> paired = Outcome(Hand(6, None, PairKind.PAIR), Hand(6, None, PairKind.NONE))
    >>> drawn = Outcome(Hand(0, 7, PairKind.NONE), Hand(6, None, PairKind.NONE))
    >>> sorted([paired, drawn, plain], key=round_order_key) == [plain, drawn, paired]
    True
    """
    p, b = outcome
    return (
        (p.pair_kind != PairKind.NONE) + (b.pair_kind != PairKind.NONE),
        (p.pair_kind == PairKind.PERFECT) + (b.pair_kind == PairKind.PERFECT),
        outcome.cards,
        *_hand_order(p),
        *_hand_order(b),
        2 - p.pair_kind,
        2 - b.pair_kind,
    )


def _hand_order(hand: Hand) -> tuple[int, int]:
    return hand.initial, -1 if hand.third is None else hand.third


# round_order_key as one int, the sum of a player part and a banker part, so that a shoe's
# ~14,000 outcomes are ordered by C-level map and sort (~10 ms) rather than a Python loop.
_HAND_SLOTS = 11 * 10  # _hand_order values: initial 0-9 × third -1..9
_KIND_SLOTS = 9  # (2 - player kind) · 3 + (2 - banker kind)
_CARD_SLOTS = 7  # cards 4-6


@lru_cache(maxsize=1)
def _order_parts() -> tuple[dict[Hand, int], dict[Hand, int]]:
    player: dict[Hand, int] = {}
    banker: dict[Hand, int] = {}
    for code in range(HAND_CODES):
        hand = Hand.from_code(code)
        kind = hand.pair_kind
        initial, third = _hand_order(hand)
        slot = initial * 11 + third + 1
        pairs = (kind != PairKind.NONE) * 3 + (kind == PairKind.PERFECT)  # · (pairs, perfect)
        head = (pairs * _CARD_SLOTS + hand.cards) * _HAND_SLOTS * _HAND_SLOTS * _KIND_SLOTS
        player[hand] = head + slot * _HAND_SLOTS * _KIND_SLOTS + (2 - kind) * 3
        banker[hand] = head + slot * _KIND_SLOTS + (2 - kind)
    return player, banker


@lru_cache(maxsize=8)
def _in_order(joint: Joint) -> tuple[tuple[Outcome, ...], tuple[tuple[object, ...], ...]]:
    """The outcomes with combinations, in :func:`round_order_key` order, and their feature
    records."""
    player, banker = _order_parts()
    outcomes = list(joint.counts)
    keep = [n > 0 for n in joint.counts.values()]
    keys = list(
        map(
            add,
            map(player.__getitem__, map(itemgetter(0), outcomes)),
            map(banker.__getitem__, map(itemgetter(1), outcomes)),
        )
    )
    order = [i for i in sorted(range(len(outcomes)), key=keys.__getitem__) if keep[i]]
    records = joint.records
    return (
        tuple(map(outcomes.__getitem__, order)),
        tuple(map(itemgetter(0), map(records.__getitem__, order))),
    )


@lru_cache(maxsize=8)
def _ordered_bits(joint: Joint) -> tuple[Index, int, Memo]:
    """The records of :func:`_in_order` as bitsets (bit j: the j-th outcome in that order), all
    of them, and the conditions already evaluated on them (shared by every bet)."""
    index, everything = record_index(_in_order(joint)[1])
    return index, everything, {}


def _first_per_row(bet: Bet, joint: Joint) -> dict[int, int]:
    """Row index → position in :func:`_in_order` of the first outcome settling on that row,
    for every row with combinations: the lowest record of the row's bitset."""
    index, everything, memo = _ordered_bits(joint)
    hits = bet.row_hits(index, everything, memo)
    if bet.offer is not None:  # a round where the bet is offered
        offered = bet.offer.bits(index, everything, memo)
        hits = [hit & offered for hit in hits]
    return {row: (hit & -hit).bit_length() - 1 for row, hit in enumerate(hits) if hit}


def _card_example(
    bet: Bet, row: int, shoe: Shoe, tableau: Tableau, memo: dict[object, Any]
) -> tuple[list[Card], list[Card]] | None:
    """Cards of a round settling a card-level ``bet`` on ``row`` (and offering it), from
    :func:`exactodds.counting.example_round`; None when no round does."""
    from exactodds.counting import example_round

    conditions = [r.when for r in bet.rows]
    found = example_round(conditions, row, shoe, tableau, offer=bet.offer, memo=memo)
    if found is None:
        return None
    player = [Card(*found[p]) for p in ("P1", "P2", "P3") if p in found]
    banker = [Card(*found[p]) for p in ("B1", "B2", "B3") if p in found]
    return player, banker


# -- 2. the cards of an outcome ----------------------------------------------------------------

_TEN_RANKS = (12, 11, 10, 9)  # K Q J T
_RANK_ORDER = (*range(9), *_TEN_RANKS)  # A 2 … 9 K Q J T


def _ranks_of(value: int) -> tuple[int, ...]:
    return _TEN_RANKS if value == 0 else (value - 1,)


def _first_ranks(total: int, kind: PairKind) -> tuple[int, ...]:
    """Ranks that can open a hand of this two-card total and pair kind, in preference order."""
    own = _ranks_of(total)
    out = []
    for rank in (*own, *(r for r in _RANK_ORDER if r not in own)):
        value = RANK_VALUES[rank]
        same = (total - value) % 10 == value
        if same if kind != PairKind.NONE else not same or value == 0:
            out.append(rank)
    return tuple(out)


_DEAL: tuple[tuple[Side, int], ...] = (("player", 0), ("banker", 0), ("player", 1), ("banker", 1))


class _Search:
    """The depth-first search of rule 2 for one outcome on one shoe."""

    def __init__(self, outcome: Outcome, shoe: Shoe) -> None:
        self.hands = {"player": outcome.player, "banker": outcome.banker}
        self.positions = list(_DEAL)
        self.positions += [
            (side, 2) for side in ("player", "banker") if self.hands[side].third is not None
        ]
        self.left = [list(row) for row in shoe.counts]
        self.values = list(shoe.value_counts)
        self.cards: dict[Side, list[Card]] = {"player": [], "banker": []}

    def _candidates(self, depth: int) -> Iterator[Card]:
        """The cards the shoe still holds that fit this position, in rule 2's order."""
        side, i = self.positions[depth]
        hand, held = self.hands[side], self.cards[side]
        suits: Sequence[int] = range(len(SUITS))
        if i == 0:
            ranks = _first_ranks(hand.initial, hand.pair_kind)
        elif i == 1:
            first = held[0]
            if hand.pair_kind == PairKind.NONE:
                value = (hand.initial - first.value) % 10
                ranks = tuple(r for r in _ranks_of(value) if r != first.rank)
            else:
                ranks = (first.rank,)
                same = hand.pair_kind == PairKind.PERFECT
                suits = [s for s in range(len(SUITS)) if (s == first.suit) == same]
        else:
            assert hand.third is not None
            ranks = _ranks_of(hand.third)
        suits = sorted(suits, key=lambda s: (s - depth) % len(SUITS))
        dealt = {(c.rank, c.suit) for c in (*self.cards["player"], *self.cards["banker"])}
        left = self.left
        for again in (False, True):  # cards not yet in the round first
            for r in ranks:
                for s in suits:
                    if left[r][s] > 0 and ((r, s) in dealt) == again:
                        yield Card(r, s)

    def _feasible(self, depth: int) -> bool:
        """Whether the cards left hold enough of each value the later positions need (those
        whose value is already known)."""
        need = [0] * 10
        for side, i in self.positions[depth:]:
            hand, held = self.hands[side], self.cards[side]
            if i == 2 and hand.third is not None:
                need[hand.third] += 1
            elif i == 1 and held:
                need[(hand.initial - held[0].value) % 10] += 1
        return all(n <= have for n, have in zip(need, self.values, strict=True))

    def run(self, depth: int = 0) -> bool:
        if depth == len(self.positions):
            return True
        side = self.positions[depth][0]
        for card in self._candidates(depth):
            assert card.suit is not None
            self.left[card.rank][card.suit] -= 1
            self.values[card.value] -= 1
            self.cards[side].append(card)
            if self._feasible(depth + 1) and self.run(depth + 1):
                return True
            self.cards[side].pop()
            self.values[card.value] += 1
            self.left[card.rank][card.suit] += 1
        return False


@lru_cache(maxsize=4096)
def example_cards(
    outcome: Outcome, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The player's and banker's cards that rule 2 deals ``outcome`` with from ``shoe``; they
    are dealt again under ``tableau`` by :func:`~exactodds.bets.settle.check_round` (legal, in the
    shoe) and must give ``outcome`` (a round the tableau cannot deal is refused).

    >>> from exactodds.deal.round import Hand, PairKind
    >>> o = Outcome(Hand(6, None, PairKind.PERFECT), Hand(0, 6, PairKind.NONE))
    >>> format_round_cards(*example_cards(o, Shoe.decks(8)))
    'P: 3c 3c | B: Kd Qs 6c'
    >>> format_round_cards(*example_cards(o, Shoe.decks(8).remove("3c 3c 3c 3c 3c 3c 3c")))
    'P: 3d 3d | B: Kd Qs 6c'
    >>> example_cards(o, Shoe.decks(1))
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: no cards of 1 deck (52 cards) deal this round
    >>> natural = Outcome(Hand(8, None, PairKind.NONE), Hand(0, 6, PairKind.NONE))
    >>> example_cards(natural, Shoe.decks(8))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: player has a natural 8, so the deal stops: the banker cannot ...
    """
    search = _Search(outcome, shoe)
    if not search.run():
        raise RoundError(f"no cards of {shoe.describe()} deal this round")
    player, banker = tuple(search.cards["player"]), tuple(search.cards["banker"])
    if check_round((player, banker), tableau, shoe).outcome != outcome:
        raise RoundError(f"{format_round_cards(player, banker)} deals another round")
    return player, banker


# -- the examples of a bet ---------------------------------------------------------------------


def row_examples(
    bet: Bet, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> tuple[Example | None, ...]:
    """Per row of ``bet``: its worked example on ``shoe`` under ``tableau``, or None for a row
    that never occurs with this shoe.

    >>> from exactodds.bets.loader import load_paytable
    >>> perfect = load_paytable("classic").bet("perfect_pair")
    >>> [ex and ex.cards for ex in row_examples(perfect, Shoe.decks(1))]  # no identical cards
    [None, None, None, 'P: Kc Qh | B: 8d Ks']
    >>> [ex.cards for ex in row_examples(perfect, Shoe.decks(8))][:2]
    ['P: Kc Kc | B: 4d 4d', 'P: Kc Kc | B: 8d Ks']
    """
    out: list[Example | None] = []
    if bet.card_level:
        memo: dict[object, Any] = {}
        for i in range(len(bet.rows)):
            found = _card_example(bet, i, shoe, tableau, memo)
            out.append(None if found is None else _settled(bet, i, found, shoe, tableau))
        return tuple(out)
    joint = joint_distribution(shoe, tableau)
    outcomes, _ = _in_order(joint)
    first = _first_per_row(bet, joint)
    for i in range(len(bet.rows)):
        at = first.get(i)
        if at is None:
            out.append(None)
            continue
        out.append(_settled(bet, i, example_cards(outcomes[at], shoe, tableau), shoe, tableau))
    return tuple(out)


def _settled(
    bet: Bet,
    row: int,
    cards: tuple[Sequence[Card], Sequence[Card]],
    shoe: Shoe,
    tableau: Tableau,
) -> Example:
    """The example of ``row`` dealt with these cards, after ``settle``'s own reading of them
    (:func:`~exactodds.bets.settle.settle_bet`: a legal round of the shoe, offered, on the
    row): a round that is not one is an error, never a sheet's example."""
    text = format_round_cards(*cards)
    try:
        settled = settle_bet(bet, check_round(cards, tableau, shoe))
    except RoundError as exc:
        raise RoundError(f"worked example {text} of bet {bet.id!r}: {exc}") from None
    if settled is not bet.rows[row]:
        raise RoundError(
            f"worked example {text} of bet {bet.id!r} settles on {settled.event!r}, "
            f"not {bet.rows[row].event!r}"
        )
    stake = example_stake(bet)
    returned = Settlement(bet, stake, bet.rows[row]).returned
    product = None if bet.rows[row].multiply is None else 1  # the row's net at product 1
    return Example(text, returned, stake, product, stake * bet.fee, bet.peek is not None)
