"""Live bets in the Monte Carlo check (issue 34): the multiplier cards drawn every round, the
product paid, the fee charged, a peek bet played by its optimal decision table.

Every round dealt by :func:`~exactodds.analysis.montecarlo.deal_rounds` (its physical cards) is
settled here for each live bet: its row by the card engine's evaluator on the dealt cards
(:func:`~exactodds.analysis.carddeal.dealt_rows`); each multiplier table drawn once a round by
:func:`~exactodds.bets.multipliers.draw_multipliers` (exact integer RNG, a
``random.Random(seed)`` of its own, so a seed repeats the run); the product over the row's group
as dealt by :func:`~exactodds.bets.multipliers.product_of`, the definition ``settle`` uses; a
peek's reveal rule drawn with its probability and the stake from the exact decision table
(:attr:`~exactodds.figures.peek.PeekFigures.decision_table`). The net, ``r·net(product) − fee``,
is counted by value against the bet's exact outcomes less the fee.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.bets.multipliers import (
    PEEK_POSITIONS,
    MultiplierTable,
    _pick,
    draw_multipliers,
    product_of,
)
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.round import Outcome
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.figures.metrics import BetFigures
    from exactodds.figures.peek import PeekFigures

    IntArray = npt.NDArray[Any]

__all__ = ["LivePlay", "dealt_positions", "group_positions", "live_classes"]

_NAMED = {f"{side}.card{i}": (side, i - 1) for side in ("player", "banker") for i in (1, 2, 3)}


def dealt_positions(player_draws: bool, banker_draws: bool) -> tuple[list[int], list[int]]:
    """The deal positions (0..5, in dealing order) of the player's and the banker's cards: P1 B1
    P2 B2, then the player's third card, then the banker's (the fifth card when the player
    stood).

    >>> dealt_positions(False, True)
    ([0, 2], [1, 3, 4])
    """
    player, banker = [0, 2], [1, 3]
    if player_draws:
        player.append(4)
    if banker_draws:
        banker.append(5 if player_draws else 4)
    return player, banker


def group_positions(cards: tuple[str, ...], player: list[int], banker: list[int]) -> list[int]:
    """The deal positions of a ``multiply`` group's dealt cards (a named third card only when
    dealt).

    >>> group_positions(("banker",), [0, 2, 4], [1, 3, 5])
    [1, 3, 5]
    >>> group_positions(("round",), [0, 2], [1, 3]), group_positions(("player.card3",), [0, 2], [1])
    ([0, 1, 2, 3], [])
    """
    hands = {"player": player, "banker": banker}
    if len(cards) == 1 and cards[0] in hands:
        return hands[cards[0]]
    if cards == ("initial",):
        return [0, 1, 2, 3]
    if cards == ("round",):
        return sorted(player + banker)
    out = []
    for name in cards:
        side, i = _NAMED[name]
        if i < len(hands[side]):
            out.append(hands[side][i])
    return out


def live_classes(figures: BetFigures) -> list[tuple[Fraction, Fraction]]:
    """(net result, exact probability) of a live bet, every outcome less the fee, merged by net,
    highest first: the classes a Monte Carlo check counts."""
    merged: dict[Fraction, Fraction] = {}
    for p, net in figures.outcomes():
        if p:
            key = net - figures.fee
            merged[key] = merged.get(key, Fraction(0)) + p
    return sorted(merged.items(), reverse=True)


@dataclass
class LivePlay:
    """Plays the live ``bets`` on dealt rounds and counts each bet's net results."""

    bets: Sequence[Bet]
    peeks: Sequence[PeekFigures | None]
    """Each bet's peek figures (their decision table), None for a bet without a peek."""
    tableau: Tableau
    seed: int
    seen: list[Counter[Fraction]] = field(init=False)
    _rng: random.Random = field(init=False)
    _tables: tuple[MultiplierTable, ...] = field(init=False)
    _stakes: list[list[tuple[tuple[int, ...], str, dict[tuple[int, ...], int]]]] = field(init=False)

    def __post_init__(self) -> None:
        self.seen = [Counter() for _ in self.bets]
        self._rng = random.Random(self.seed)
        used = {row.multiply.table for bet in self.bets for row in bet.rows if row.multiply}
        self._tables = tuple(sorted(used, key=lambda t: t.name))
        self._stakes = []
        for peek in self.peeks:
            rules = peek.decision_table if peek is not None else ()
            self._stakes.append(
                [
                    (
                        tuple(PEEK_POSITIONS.index(p) for p in rule.positions),
                        rule.attr,
                        {cell.shown: cell.stake for cell in rule.cells},
                    )
                    for rule in rules
                ]
            )

    def observe(self, dealt: IntArray, codes: IntArray) -> None:
        """Settle a block of dealt rounds (card codes, the j-th card of each round in row j;
        their outcome codes) and count each bet's net result."""
        from exactodds.analysis.carddeal import dealt_rows

        rows = [r.tolist() for r in dealt_rows(self.bets, dealt, self.tableau)]
        rounds = dealt.T.tolist()
        for k, (cards, code) in enumerate(zip(rounds, codes.tolist(), strict=True)):
            outcome = Outcome.from_code(code)
            hands = dealt_positions(
                outcome.player.third is not None, outcome.banker.third is not None
            )
            drawn = {t.name: draw_multipliers(t, self._rng) for t in self._tables}
            for j, bet in enumerate(self.bets):
                row = bet.rows[rows[j][k]]
                net = self.net(j, row, cards, hands, drawn)
                self.seen[j][net] += 1

    def net(
        self,
        j: int,
        row: Row,
        cards: list[int],
        hands: tuple[list[int], list[int]],
        drawn: dict[str, dict[tuple[int, int], int]],
    ) -> Fraction:
        """Bet ``j``'s net on one dealt round: the product of its row's group, the stake its
        peek plays (a reveal rule drawn), the fee."""
        bet = self.bets[j]
        product = 1
        if row.multiply is not None:
            table = row.multiply.table
            at = group_positions(row.multiply.cards, *hands)
            product = product_of(table, [divmod(cards[i], 4) for i in at], drawn[table.name])
        multiple = 1
        rules = self._stakes[j]
        if rules:
            reveals = bet.peek.reveals if bet.peek is not None else ()
            i = _pick(self._rng, tuple((n, q) for n, (_, q) in enumerate(reveals)))
            positions, attr, stakes = rules[i]
            ranks = [cards[p] // 4 for p in positions]
            shown = tuple(RANK_VALUES[r] if attr == "value" else r + 1 for r in ranks)
            multiple = stakes[shown]
        net = row.net_at(product) if product != 1 else bet.row_net(row)
        return multiple * net - bet.fee

    def classes(
        self, j: int, figures: BetFigures
    ) -> tuple[list[tuple[Fraction, Fraction]], list[int]]:
        """Bet ``j``'s classes against its exact ``figures``: each exact net result (an observed
        one the figures call impossible included, at probability 0), and the rounds that paid
        each (:func:`~exactodds.analysis.montecarlo.bet_check` reads them)."""
        exact = dict(live_classes(figures))
        nets = sorted(exact.keys() | self.seen[j].keys(), reverse=True)
        return [(net, exact.get(net, Fraction(0))) for net in nets], [self.seen[j][n] for n in nets]
