"""Independent brute-force enumerators of a baccarat round, to check the engine against.

Nothing here reuses the engine's method: the rounds are dealt card by card by plain,
hand-written baccarat logic that reads a tableau's data only (its player draw set and banker
matrix, not :mod:`exactodds.deal.round`'s reading of it), and results are keyed exactly like
:class:`exactodds.deal.round.Outcome` so the whole joint distribution can be compared with ``==``.

* :func:`physical_joint` walks every ordered sequence of six *distinct physical cards*
  (``itertools.permutations``) — the definition of the universe itself. Tiny shoes only.
* :func:`weighted_joint` walks every ordered six-sequence of card *types* (rank, suit) and
  weights it by the falling product of the type counts — the same universe, grouped, for
  somewhat larger shoes with repeated cards.

>>> from exactodds import Shoe
>>> shoe = Shoe.decks(1).remove("A 2 3 4 5 6 7 8 9 T J Q K " * 3 + "A 2 3 4 5 6 7")
>>> shoe.size
6
>>> j = physical_joint(shoe)
>>> sum(j.values()) == 6 * 5 * 4 * 3 * 2 * 1 == sum(weighted_joint(shoe).values())
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import permutations

from exactodds.deal.round import Hand, Outcome, PairKind, Winner
from exactodds.deal.shoe import RANKS, Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau

__all__ = [
    "PhysicalCard",
    "card_value",
    "outcome_winner",
    "physical_cards",
    "physical_joint",
    "play_round",
    "shoe_of",
    "weighted_joint",
]

PhysicalCard = tuple[int, int]
"""A card as (rank index into ``RANKS``, suit index 0..3)."""

_FACE_VALUE = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 0,
    "J": 0,
    "Q": 0,
    "K": 0,
}


def card_value(card: PhysicalCard) -> int:
    """Baccarat value of a card, written out by rank symbol (not the engine's table).

    >>> card_value((0, 3)), card_value((8, 0)), card_value((9, 1)), card_value((12, 2))
    (1, 9, 0, 0)
    """
    return _FACE_VALUE[RANKS[card[0]]]


def physical_cards(shoe: Shoe) -> list[PhysicalCard]:
    """Every physical card of ``shoe``, duplicates listed separately.

    >>> len(physical_cards(Shoe.decks(2)))
    104
    """
    return [
        (rank, suit)
        for rank, row in enumerate(shoe.counts)
        for suit, n in enumerate(row)
        for _ in range(n)
    ]


def _pair_kind(first: PhysicalCard, second: PhysicalCard) -> PairKind:
    if first[0] != second[0]:
        return PairKind.NONE
    return PairKind.PERFECT if first[1] == second[1] else PairKind.PAIR


def play_round(cards: Sequence[PhysicalCard], tableau: Tableau = BUILTIN["punto-banco"]) -> Outcome:
    """Deal one round from the top of ``cards`` (at least six) and say what happened.

    Deal order Player, Banker, Player, Banker; then the Player's third card if the tableau says
    so, then the Banker's. A two-card 8 or 9 in either hand stops the deal.

    >>> o = play_round([(4, 0), (9, 0), (0, 1), (9, 1), (8, 0), (5, 0)])  # P 5+A, B T+T
    >>> o.player, o.banker  # player 6 stands; banker 0 draws the next card (a 9)
    (Hand(initial=6, third=None, pair_kind=<PairKind.NONE: 0>), \
Hand(initial=0, third=9, pair_kind=<PairKind.PAIR: 1>))
    """
    deck = iter(cards)
    p1, b1, p2, b2 = next(deck), next(deck), next(deck), next(deck)
    player_total = (card_value(p1) + card_value(p2)) % 10
    banker_total = (card_value(b1) + card_value(b2)) % 10
    player_third: int | None = None
    banker_third: int | None = None
    natural = player_total in (8, 9) or banker_total in (8, 9)
    if not natural:
        if player_total in tableau.player:
            player_third = card_value(next(deck))
        column = STOOD if player_third is None else player_third
        if column in tableau.banker[banker_total]:
            banker_third = card_value(next(deck))
    return Outcome(
        Hand(player_total, player_third, _pair_kind(p1, p2)),
        Hand(banker_total, banker_third, _pair_kind(b1, b2)),
    )


def outcome_winner(outcome: Outcome) -> Winner:
    """Winner computed from the final totals by hand (mod 10 of the hand's cards)."""
    p = outcome.player.initial + (outcome.player.third or 0)
    b = outcome.banker.initial + (outcome.banker.third or 0)
    p, b = p % 10, b % 10
    if p > b:
        return Winner.PLAYER
    if b > p:
        return Winner.BANKER
    return Winner.TIE


def physical_joint(shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> dict[Outcome, int]:
    """Joint distribution by dealing every ordered six-sequence of distinct physical cards."""
    counts: Counter[Outcome] = Counter()
    for seq in permutations(physical_cards(shoe), 6):
        counts[play_round(seq, tableau)] += 1
    return dict(counts)


def weighted_joint(  # noqa: PLR0912 - the deal written out as the rules read, on purpose
    shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> dict[Outcome, int]:
    """Joint distribution over ordered six-sequences of (rank, suit) types, each weighted by
    the number of physical card sequences it stands for: c₁·(c₂−[same type as 1st])·…

    Every one of the six positions is looped over (no shortcut for unused cards); the round
    state is worked out as soon as the cards that decide it are known, to keep it fast.
    """
    types = [(r, s) for r, row in enumerate(shoe.counts) for s, n in enumerate(row) if n]
    left = [shoe.counts[r][s] for r, s in types]
    value = [card_value(t) for t in types]
    idx = range(len(types))
    acc: Counter[tuple[int, int, int, int, int, int]] = Counter()
    for a in idx:  # player 1st
        wa = left[a]
        if not wa:
            continue
        left[a] -= 1
        for b in idx:  # banker 1st
            wb = wa * left[b]
            if not wb:
                continue
            left[b] -= 1
            for c in idx:  # player 2nd
                wc = wb * left[c]
                if not wc:
                    continue
                left[c] -= 1
                pt = (value[a] + value[c]) % 10
                pk = int(_pair_kind(types[a], types[c]))
                for d in idx:  # banker 2nd
                    wd = wc * left[d]
                    if not wd:
                        continue
                    left[d] -= 1
                    bt = (value[b] + value[d]) % 10
                    bk = int(_pair_kind(types[b], types[d]))
                    natural = pt >= 8 or bt >= 8
                    p_draws = not natural and pt in tableau.player
                    for e in idx:  # fifth card
                        we = wd * left[e]
                        if not we:
                            continue
                        left[e] -= 1
                        p3 = value[e] if p_draws else -1
                        b_draws = not natural and (STOOD if p3 < 0 else p3) in tableau.banker[bt]
                        for f in idx:  # sixth card
                            wf = we * left[f]
                            if not wf:
                                continue
                            if not b_draws:
                                b3 = -1
                            elif p_draws:
                                b3 = value[f]
                            else:
                                b3 = value[e]
                            acc[pt, p3, pk, bt, b3, bk] += wf
                        left[e] += 1
                    left[d] += 1
                left[c] += 1
            left[b] += 1
        left[a] += 1
    return {
        Outcome(
            Hand(pt, None if p3 < 0 else p3, PairKind(pk)),
            Hand(bt, None if b3 < 0 else b3, PairKind(bk)),
        ): n
        for (pt, p3, pk, bt, b3, bk), n in acc.items()
    }


def shoe_of(cards: Iterable[PhysicalCard]) -> Shoe:
    """A shoe holding exactly ``cards`` (rank index, suit index).

    >>> shoe_of([(0, 0)] * 3 + [(12, 3)] * 3).size
    6
    """
    rows = [[0, 0, 0, 0] for _ in RANKS]
    for rank, suit in cards:
        rows[rank][suit] += 1
    return Shoe(tuple((a, b, c, d) for a, b, c, d in rows))
