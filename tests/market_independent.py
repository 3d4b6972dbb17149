"""Independent exact figures of the bundled market side bets (paytables/ of issue 16 item 5).

Each function counts, for one bet, the ordered sequences of the cards that bet reads (the
first two Player cards, the first four cards, or the whole round for the insurance), grouped by
the bet's event names, straight from the shoe's rank × suit counts. Nothing here uses
:mod:`exactodds.deal.engine`, the condition language or the paytable loader: the poker ranking, the
suits, colours and the Punto Banco drawing rules are written out again by hand, so that the
bundled paytables run through the library can be checked against it.

Counting convention (rules.md §2): the round is an ordered sequence of cards, dealt Player, Banker,
Player, Banker (positions 0 and 2 are the Player's first two cards, 1 and 3 the Banker's); every
ordered k-sequence of distinct physical cards is equally likely, so the number of sequences
whose card types are t1 … tk is the falling product n_t1 · (n_t2 − [t2 = t1]) · …, and the
probability of an event on the first k cards is its sequence count over N·(N−1)·…·(N−k+1).

>>> from exactodds.deal.shoe import Shoe
>>> counts, total = colour_match_counts(Shoe.decks(1))
>>> counts["Four cards of one colour"], total  # 2 · 26·25·24·23 of 52·51·50·49
(717600, 6497400)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import factorial

from exactodds.deal.shoe import Shoe

__all__ = [
    "Card",
    "colour_match_counts",
    "edge",
    "insurance_offer",
    "jackpot_counts",
    "lucky_nines_counts",
    "majestic_match_counts",
    "perfect_9_counts",
    "poker_category",
]

# Rank symbols in the order of Shoe.counts rows and each rank's baccarat value, written out
# here again (not imported) so that a mistake in the library's tables cannot hide.
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_VALUE = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}
_SUITS = ("clubs", "diamonds", "hearts", "spades")  # the order of Shoe.counts columns
_RED = {"diamonds", "hearts"}
# Poker order of the ranks, ace high (A-2-3-4 is handled as the low straight).
_HIGH = {
    r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
}

Card = tuple[str, str]
"""A card type: (rank symbol, suit name)."""


def _types(shoe: Shoe) -> list[tuple[Card, int]]:
    """Every card type of the shoe with its number of cards (types with none left skipped)."""
    return [
        ((_RANKS[r], _SUITS[s]), n)
        for r, row in enumerate(shoe.counts)
        for s, n in enumerate(row)
        if n
    ]


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _size(shoe: Shoe) -> int:
    return sum(sum(row) for row in shoe.counts)


def _ordered(shoe: Shoe, k: int) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every ordered k-tuple of card types with its number of physical sequences."""
    types = _types(shoe)
    for combo in product(range(len(types)), repeat=k):
        weight = 1
        seen: Counter[int] = Counter()
        for i in combo:
            weight *= types[i][1] - seen[i]
            seen[i] += 1
        if weight:
            yield tuple(types[i][0] for i in combo), weight


def _unordered(shoe: Shoe, k: int) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every multiset of k card types with its number of *ordered* physical sequences
    (k! / Π m! arrangements of the multiset, times the falling product of each type's count)."""
    types = _types(shoe)
    for combo in combinations_with_replacement(range(len(types)), k):
        weight = factorial(k)
        for i, m in Counter(combo).items():
            weight = weight * _falling(types[i][1], m) // factorial(m)
        if weight:
            yield tuple(types[i][0] for i in combo), weight


def edge(counts: Mapping[str, int], total: int, pays: Mapping[str, Fraction]) -> Fraction:
    """House edge (−EV per unit staked) of a bet paying ``pays[event]`` to 1 on the events of
    ``counts`` (out of ``total`` equally likely sequences), a push for a pay of 0, and losing
    the stake on every sequence of an event not in ``pays``."""
    won = sum((pays[e] * counts.get(e, 0) for e in pays), Fraction(0))
    lost = total - sum(counts.get(e, 0) for e in pays)
    return -(won - lost) / total


# -- colour: Colour Match ----------------------------------------------------------------------


def colour_match_counts(shoe: Shoe) -> tuple[dict[str, int], int]:
    """The first four cards all red or all black: (R)_4 + (B)_4 ordered sequences of (N)_4."""
    red = sum(n for (_, suit), n in _types(shoe) if suit in _RED)
    black = _size(shoe) - red
    return {"Four cards of one colour": _falling(red, 4) + _falling(black, 4)}, _falling(
        _size(shoe), 4
    )


# -- suited: Perfect 9 Bonus -------------------------------------------------------------------


def perfect_9_counts(shoe: Shoe) -> tuple[dict[str, int], int]:
    """The Player's first two cards totalling 9: with a ten or face (5:1), else suited (20:1)
    or not (10:1)."""
    counts: Counter[str] = Counter()
    for (a, b), w in _ordered(shoe, 2):
        if (_VALUE[a[0]] + _VALUE[b[0]]) % 10 != 9:
            continue
        if _VALUE[a[0]] == 0 or _VALUE[b[0]] == 0:
            counts["9 with a ten or face"] += w
        elif a[1] == b[1]:
            counts["Suited 9"] += w
        else:
            counts["Unsuited 9"] += w
    return dict(counts), _falling(_size(shoe), 2)


# -- rank and suit: Majestic Match -------------------------------------------------------------


def majestic_match_counts(shoe: Shoe) -> tuple[dict[str, int], int]:
    """A hand's first two cards of one suit: a king and a queen (25:1), or any (5:2)."""
    counts: Counter[str] = Counter()
    for (a, b), w in _ordered(shoe, 2):
        if a[1] != b[1]:
            continue
        if {a[0], b[0]} == {"K", "Q"}:
            counts["Suited king and queen"] += w
        else:
            counts["Suited"] += w
    return dict(counts), _falling(_size(shoe), 2)


# -- nines: Lucky Nines ------------------------------------------------------------------------


def lucky_nines_counts(shoe: Shoe) -> tuple[dict[str, int], int]:
    """Nines among the first four cards (Red Rock pay table events)."""
    nines = [n for (rank, _), n in _types(shoe) if rank == "9"]
    suits = [suit for (rank, suit), _ in _types(shoe) if rank == "9"]
    others = _size(shoe) - sum(nines)
    # classes: each suit's nines, then "not a nine"; ordered 4-sequences of classes.
    sizes = [*nines, others]
    counts: Counter[str] = Counter()
    for combo in product(range(len(sizes)), repeat=4):
        weight = 1
        seen: Counter[int] = Counter()
        for i in combo:
            weight *= sizes[i] - seen[i]
            seen[i] += 1
        if not weight:
            continue
        nine_suits = [suits[i] for i in combo if i < len(nines)]
        k, one_suit = len(nine_suits), len(set(nine_suits)) == 1
        if k == 4:
            event = "Four nines"
        elif k == 3:
            event = "Three nines of one suit" if one_suit else "Three nines"
        elif k == 2:
            event = "Two nines of one suit" if one_suit else "Two nines"
        elif k == 1:
            event = "Nine of diamonds" if nine_suits[0] == "diamonds" else "One nine"
        else:
            continue
        counts[event] += weight
    return dict(counts), _falling(_size(shoe), 4)


# -- four-card poker: Jackpot Baccarat ---------------------------------------------------------


def _straight(ranks: list[str]) -> bool:
    """Four distinct ranks in sequence, the ace high (J-Q-K-A) or low (A-2-3-4)."""
    if len(set(ranks)) != 4:
        return False
    high = sorted(_HIGH[r] for r in ranks)
    low = sorted(-1 if r == "A" else _HIGH[r] for r in ranks)
    return any(h == list(range(h[0], h[0] + 4)) for h in (high, low))


def poker_category(cards: tuple[Card, ...]) -> str:
    """The Jackpot Baccarat category of four cards (its ranking, best first: mini royal
    (A-K-Q-J of one suit), four of a kind, straight flush, three of a kind, flush (four cards
    of one suit, pairs allowed), straight, two pair, pair, nothing)."""
    ranks = [r for r, _ in cards]
    flush = len({s for _, s in cards}) == 1
    shape = sorted(Counter(ranks).values(), reverse=True)
    straight = _straight(ranks)
    if flush and sorted(ranks) == sorted(["A", "K", "Q", "J"]):
        return "Mini royal"
    if shape[0] == 4:
        return "Four of a kind"
    if flush and straight:
        return "Straight flush"
    if shape[0] == 3:
        return "Three of a kind"
    if flush:
        return "Flush"
    if straight:
        return "Straight"
    if shape[:2] == [2, 2]:
        return "Two pair"
    if shape[0] == 2:
        pair = next(r for r, m in Counter(ranks).items() if m == 2)
        if pair == "A":
            return "Pair of aces"
        if pair in ("10", "J", "Q", "K"):
            return "Pair of tens to kings"
        return "Pair of twos to nines"
    return "Nothing"


def jackpot_counts(shoe: Shoe) -> tuple[dict[str, int], int]:
    """The poker category of the first four cards, by every multiset of four card types."""
    counts: Counter[str] = Counter()
    for cards, w in _unordered(shoe, 4):
        counts[poker_category(cards)] += w
    return dict(counts), _falling(_size(shoe), 4)


# -- insurance after four cards: Player win insurance ------------------------------------------

_PLAYER_DRAWS = {0, 1, 2, 3, 4, 5}
# Punto Banco (rules.md §3): banker two-card total -> player third-card values on which it draws;
# "stood" when the Player did not draw.
_BANKER_DRAWS: dict[int, set[int | str]] = {
    0: {*range(10), "stood"},
    1: {*range(10), "stood"},
    2: {*range(10), "stood"},
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9, "stood"},
    4: {2, 3, 4, 5, 6, 7, "stood"},
    5: {4, 5, 6, 7, "stood"},
    6: {6, 7},
    7: set(),
}


def insurance_offer(  # noqa: PLR0912 - the deal written out as the rules read, on purpose
    shoe: Shoe, offered: Callable[[int, int], bool]
) -> tuple[dict[str, int], int]:
    """Among the rounds whose first four cards make ``offered(player_total, banker_total)``
    true, the ordered six-card sequences by winner ("Player wins", "Tie", "Banker wins"), and
    their total (the offer's own universe). Values only matter, so the cards are grouped by
    value (0–9) and every round is dealt by the Punto Banco tableau written out above."""
    values = [0] * 10
    for (rank, _), n in _types(shoe):
        values[_VALUE[rank]] += n
    size = _size(shoe)
    counts: Counter[str] = Counter()
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        p, b = (p1 + p2) % 10, (b1 + b2) % 10
        if not offered(p, b):
            continue
        left = list(values)
        weight = 1
        for v in (p1, b1, p2, b2):
            weight *= left[v]
            left[v] -= 1
        if not weight:
            continue
        rest = size - 4  # cards five and six are counted (docs/rules.md §2) even when unused
        if p >= 8 or b >= 8:
            outcomes = [(p, b, weight * rest * (rest - 1))]
        else:
            outcomes = []
            p_thirds: list[tuple[int | None, int]] = (
                [(v, left[v]) for v in range(10)] if p in _PLAYER_DRAWS else [(None, 1)]
            )
            for p3, wp in p_thirds:
                if not wp:
                    continue
                after = list(left)
                if p3 is not None:
                    after[p3] -= 1
                final_p = p if p3 is None else (p + p3) % 10
                column: int | str = "stood" if p3 is None else p3
                # cards still to count after the player's third: one or two
                if column in _BANKER_DRAWS[b]:
                    for b3 in range(10):
                        if not after[b3]:
                            continue
                        spare = 1 if p3 is not None else rest - 1
                        outcomes.append((final_p, (b + b3) % 10, weight * wp * after[b3] * spare))
                else:
                    unused = rest - (1 if p3 is not None else 0)
                    spare = unused if p3 is not None else unused * (unused - 1)
                    outcomes.append((final_p, b, weight * wp * spare))
        for fp, fb, w in outcomes:
            event = "Player wins" if fp > fb else "Banker wins" if fb > fp else "Tie"
            counts[event] += w
    return dict(counts), sum(counts.values())
