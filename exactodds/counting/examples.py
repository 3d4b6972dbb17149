"""Worked examples: one round of cards that settles a bet's row, found class by class."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from exactodds.counting.classes import POSITIONS, _Axis, _axis, _needs, _norm, _rank_coding
from exactodds.counting.engine import RowCounts, _settles
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.language import (
    Condition,
)


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

    >>> from exactodds.language import OTHERWISE, parse_condition
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
    # The engine's classes (ranks lumped where only tested against literals), each of one
    # value: the cards before decide the draws, so the round dealt is a real one.
    coding = _rank_coding(nodes, True)
    fine = _norm(bits[4] | bits[5])
    axes = [
        _axis(i, _norm(b), shoe.counts, None, coding) for i, b in enumerate([*bits[:4], fine, fine])
    ]
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
