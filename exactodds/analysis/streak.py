"""Streak bets dealt from real shoes: the one-shoe model of a streak bet's sheet and the play of
``exactodds simulate``, both by :data:`SHOE_RULE` (the bet and its exact independent-rounds
model are :mod:`exactodds.bets.streak`'s).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from exactodds.bets.streak import StreakBet, settle_hits
from exactodds.deal.round import Outcome, feature_record
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.language import Condition

if TYPE_CHECKING:
    from exactodds.analysis.dealing import DealtRounds

IntList = list[int]

__all__ = ["SHOE_RULE", "ShoeStreak", "play_streak_chunk", "play_streak_shoe", "simulate_streak"]


@dataclass(frozen=True)
class ShoeStreak:
    """A streak bet dealt from real shoes: the bets settled, their total net result and void
    bets, with per-shoe sums that merge by addition (chunks, workers, Dask) into the figures
    and a normal confidence range over shoes (the ratio estimator).

    >>> from exactodds.bets.streak import parse_streak_bet
    >>> bet = parse_streak_bet("b", {"streak": "banker.wins", "rows": [
    ...     {"when": "streak >= 1", "pays": "1:1"}, {"when": "otherwise", "pays": "lose"}]})
    >>> one = ShoeStreak.of_shoe(bet, (2, Fraction(0), 0), seed=1, cut_card=14)
    >>> two = one.merge(ShoeStreak.of_shoe(bet, (1, Fraction(1), 1), seed=1, cut_card=14))
    >>> two.shoes, two.bets, two.void, two.rtp
    (2, 3, 1, Fraction(4, 3))
    """

    bet: StreakBet
    shoes: int
    seed: int
    cut_card: int
    bets: int
    net: Fraction
    void: int = 0
    """Bets still running after the next shoe's rounds too: void, the stake returned."""
    bets2: int = 0
    """Σ over shoes of (bets settled)², and below Σ (net)² and Σ bets × net: the range."""
    net2: Fraction = Fraction()
    cross: Fraction = Fraction()

    @classmethod
    def of_shoe(
        cls, bet: StreakBet, played: tuple[int, Fraction, int], *, seed: int, cut_card: int
    ) -> ShoeStreak:
        """One shoe's (bets settled, net, void) of :func:`play_streak_shoe`."""
        count, net, void = played
        return cls(bet, 1, seed, cut_card, count, net, void, count * count, net * net, count * net)

    def merge(self, other: ShoeStreak) -> ShoeStreak:
        """The two runs' shoes together (exact sums: any order gives the same figures)."""
        return replace(
            self,
            shoes=self.shoes + other.shoes,
            bets=self.bets + other.bets,
            net=self.net + other.net,
            void=self.void + other.void,
            bets2=self.bets2 + other.bets2,
            net2=self.net2 + other.net2,
            cross=self.cross + other.cross,
        )

    @property
    def rtp(self) -> Fraction | None:
        """Observed return per unit staked over every bet settled; None when no bet was
        settled (a condition that never fails: the bet is never made), not a made-up 100%."""
        return 1 + self.net / self.bets if self.bets else None

    @property
    def house_edge(self) -> Fraction | None:
        """Observed −net per bet settled; None when no bet was settled."""
        return -self.net / self.bets if self.bets else None

    @property
    def range_99(self) -> tuple[float, float] | None:
        """The 99% range of the RTP (low, high), no lower than 0 (no bet returns less than
        nothing, whatever the normal approximation of a few shoes says); None when no bet was
        settled.

        >>> from exactodds.bets.streak import parse_streak_bet
        >>> bet = parse_streak_bet("b", {"streak": "banker.wins", "max_streak": 3, "rows": [
        ...     {"when": "streak >= 1", "pays": "1:1"}, {"when": "otherwise", "pays": "lose"}]})
        >>> none = ShoeStreak(bet, 2000, 1, 14, 0, Fraction())
        >>> none.rtp, none.house_edge, none.range_99, none.covers(Fraction(1))
        (None, None, None, False)
        >>> few = ShoeStreak.of_shoe(bet, (2, Fraction(-2), 0), seed=1, cut_card=14)
        >>> few.merge(ShoeStreak.of_shoe(bet, (2, Fraction(2), 0), seed=1, cut_card=14)).range_99
        (0.0, 2.821...)
        """
        if self.rtp is None:
            return None
        mid = float(self.rtp)
        return max(0.0, mid - self.half_width), mid + self.half_width

    @property
    def sum_sq(self) -> float:
        """Σ over shoes of (net − mean × bets)², from the merged sums (a float: a statistic)."""
        mean = self.net / self.bets if self.bets else Fraction()
        return float(self.net2 - 2 * mean * self.cross + mean * mean * self.bets2)

    @property
    def half_width(self) -> float:
        """Half the 99% range of the RTP (z = 2.5758, ratio estimator over shoes)."""
        return 2.5758 * math.sqrt(max(self.sum_sq, 0.0)) / self.bets if self.bets else math.inf

    def covers(self, rtp: Fraction) -> bool:
        """Whether ``rtp`` lies inside the 99% range (never when no bet was settled)."""
        return self.rtp is not None and abs(float(rtp - self.rtp)) <= self.half_width


SHOE_RULE = (
    "in each shoe the bet is made after the first round its condition fails, and again as soon "
    "as each bet is settled (by a round the condition fails, or on reaching max_streak); a bet "
    "still running when the shoe ends goes on over the rounds of the next shoe and counts in "
    "the shoe where it was made (void, the stake returned, only if it outlasts that shoe too)"
)
"""How a streak bet is played in dealt shoes (:func:`play_streak_shoe`), in one sentence."""


def play_streak_shoe(
    bet: StreakBet, hits: Sequence[bool], following: Callable[[], Sequence[bool]]
) -> tuple[int, Fraction, int]:
    """Play ``bet`` at every chance in one shoe whose rounds met its condition or not
    (``hits``), by :data:`SHOE_RULE`; ``following()``: the next shoe's, read only when a bet
    is still running at the end. Returns (bets settled, their net, bets void).

    >>> from exactodds.bets.streak import parse_streak_bet
    >>> bet = parse_streak_bet("b", {"streak": "banker.wins", "rows": [
    ...     {"when": "streak >= 2", "pays": "5:1"}, {"when": "otherwise", "pays": "lose"}]})
    >>> T, F = True, False
    >>> play_streak_shoe(bet, [T, F, T, T, F, F, T], lambda: [T, F])  # 2 won, 1 lost, 1 won
    (3, Fraction(9, 1), 0)
    """
    first = next((i for i, hit in enumerate(hits) if not hit), len(hits))
    pos, count, net, void = first + 1, 0, Fraction(), 0
    later = _later(following)
    while pos < len(hits):
        settled = settle_hits(bet, itertools.chain(itertools.islice(hits, pos, None), later))
        if settled is None:  # it outlasted the next shoe too
            return count, net, void + 1
        streak, row = settled
        count, net = count + 1, net + row.pays.net
        pos += streak if streak == bet.max_streak else streak + 1
    return count, net, void


def _later(following: Callable[[], Sequence[bool]]) -> Iterator[bool]:
    """The next shoe's rounds, dealt when first read."""
    yield from following()


class _Holds(dict[int, bool]):
    """Whether an outcome code meets a condition, each code tested once when first asked.

    >>> from exactodds.deal.round import Hand, PairKind
    >>> from exactodds.language import parse_condition
    >>> holds = _Holds(parse_condition("banker.wins"))
    >>> holds[Outcome(Hand(2, None, PairKind.NONE), Hand(9, None, PairKind.NONE)).code], len(holds)
    (True, 1)
    """

    def __init__(self, condition: Condition) -> None:
        super().__init__()
        self.test = condition.test

    def __missing__(self, code: int) -> bool:
        self[code] = hit = bool(self.test(feature_record(Outcome.from_code(code))))
        return hit


def play_streak_chunk(
    bets: Sequence[StreakBet],
    shoe: Shoe,
    tableau: Tableau,
    indices: Sequence[int],
    *,
    seed: int,
    cut_card: int,
    dealt: DealtRounds | None = None,
) -> list[ShoeStreak]:
    """Each of ``bets`` played by :data:`SHOE_RULE` in shoes ``indices`` of a run (dealt by
    :func:`~exactodds.analysis.dealing.deal_shoes`, or their rounds ``dealt``), each bet in
    its own :class:`ShoeStreak` over those shoes. The next shoe of the run is dealt from the
    same seed when a bet runs past a chunk's last shoe."""
    import numpy as np

    from exactodds.analysis.dealing import deal_shoes

    def rounds(part: DealtRounds, n: int) -> list[IntList]:
        edges = np.searchsorted(part.shoe, np.arange(n + 1)).tolist()
        return [part.codes[a:b].tolist() for a, b in itertools.pairwise(edges)]

    if dealt is None:
        dealt = deal_shoes(shoe, tableau, seed, indices, cut_card)
    codes = rounds(dealt, len(indices))

    @cache
    def after(i: int) -> IntList:
        if i + 1 < len(codes):
            return codes[i + 1]
        return rounds(deal_shoes(shoe, tableau, seed, [indices[i] + 1], cut_card), 1)[0]

    out = []
    for bet in bets:
        holds = _Holds(bet.condition)
        total = ShoeStreak(bet, 0, seed, cut_card, 0, Fraction())
        for i, shoe_codes in enumerate(codes):

            def following(i: int = i, holds: _Holds = holds) -> list[bool]:
                return [holds[c] for c in after(i)]

            hits = [holds[c] for c in shoe_codes]
            played = play_streak_shoe(bet, hits, following)
            total = total.merge(ShoeStreak.of_shoe(bet, played, seed=seed, cut_card=cut_card))
        out.append(total)
    return out


def simulate_streak(
    bet: StreakBet, shoe: Shoe, tableau: Tableau, shoes: int, *, seed: int, cut_card: int = 14
) -> ShoeStreak:
    """Deal ``shoes`` shoes (:func:`~exactodds.analysis.dealing.deal_shoes`, shoe procedure of
    docs/rules.md §7) and play the streak bet in each by :data:`SHOE_RULE`: the one-shoe model
    of the sheet, and the same play as ``exactodds simulate``'s."""
    total = ShoeStreak(bet, 0, seed, cut_card, 0, Fraction())
    chunk = max(1, 500 * 416 // shoe.size)  # 500 eight-deck shoes' cards at a time: the memory
    for start in range(0, shoes, chunk):
        indices = list(range(start, min(shoes, start + chunk)))
        (part,) = play_streak_chunk([bet], shoe, tableau, indices, seed=seed, cut_card=cut_card)
        total = total.merge(part)
    return total
