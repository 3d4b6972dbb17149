"""The card engine's enumeration plan: order of the slots, block size, staging of the draws,
and :func:`work`, its cost estimated without enumerating."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import perm, prod
from typing import Any

import numpy as np

from exactodds.counting.classes import (
    _COLOUR,
    _GROUP_SLOTS,
    _RED,
    NONE,
    POSITIONS,
    Coding,
    Known,
    Lumped,
    _act,
    _Axis,
    _axis,
    _coarsest,
    _fineness,
    _needs,
    _norm,
    _rank_coding,
    _reads_sixth,
    _symmetries,
    _unions,
)
from exactodds.counting.evaluate import _draw_tables
from exactodds.counting.lumps import Lumps, keeps, level, slot_lumps
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import PaytableError
from exactodds.language import (
    Condition,
    Most,
    Node,
    Shape,
    Var,
    walk,
)

_CELLS = 1 << 20  # cells of one numpy block
_STAGED = True  # deal the first four cards, then the draws only (tests turn it off)
_LUMPS = True  # cards in lumps where a bet names particular cards (tests turn it off)
_LUMPED_GRID = 4
"""Staged, cards in lumps: a four-card grid of up to 2^20 >> 4 cells is one block (2^20 >> 6
otherwise). Measured (``benchmarks/cards.py --named``): third cards hearts beside six clubs
and two 7♦ dealt 40 × 40 × 31 × 31 ran in 5.6 s CPU as 1,600 blocks, 4.1 s as 40: each block
reads every row three times in Python."""


def _chunk(cells: int) -> int:
    """How many rows of ``cells`` cells make one numpy block (at least one)."""
    return max(1, _CELLS // cells)


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
    plain = list(bits)  # (cards in lumps: the classes before the known cards refine them)
    # Whether a suit permutation must keep colours: read from the conditions before the known
    # cards refine the classes (a refinement to suits drops the colour bit it implies).
    reads_colour = any(b & _COLOUR for b in bits)
    coding = _rank_coding(nodes, deal or any(p in ("P3", "B3") for p in known or {}))
    sets = [frozenset(cards) for cards in (known or {}).values()]
    if not _unions(coding, sets):  # cards known by value (worked examples): lumps by value
        coding = _rank_coding(nodes, True)
        if not _unions(coding, sets):
            coding = None  # cards known apart from their lumps: every rank its own class
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
            bits[i] = _coarsest(bits[i], cards, coding)
        else:
            masked[position] = cards
            deal = True
            for s in (4,) if position == "P3" else (4, 5):
                bits[s] = _coarsest(bits[s], cards, coding)
    n = shoe.size
    big = n**6 >= 1 << 63  # the overflow guard: exact Python integers beyond int64
    colours = colour_literal or reads_colour or any(b & _COLOUR for b in bits)
    group = _symmetries(shoe, nodes, colours, colour_literal)
    if known:  # only the permutations that map each position's known cards onto themselves
        group = list(_fixing(tuple(group), (*allowed.values(), *masked.values())))
    slots = list(range(6 if deal else 4))
    orders = [sorted(slots, key=lambda s: -_fineness(bits[s]))]
    if deal and orders[0][-2:] != [4, 5]:  # the draws last: staged, if that costs less
        orders.append([*sorted(range(4), key=lambda s: -_fineness(bits[s])), 4, 5])
    tried: list[_Variant] = [(order, bits, None, group) for order in orders]
    tried += _lumped(nodes, plain, deal, group)
    plans = []
    for order, levels, lumps, perms in tried:
        arranged = _arrange(
            order, levels, shoe, allowed, deal, coding=coding, lumps=lumps, masked=masked
        )
        if arranged is None:
            continue
        axes, m = arranged
        plans.append(
            _Plan(
                axes,
                m,
                deal,
                tuple(nodes),
                tuple(perms),
                masked,
                object if big else np.int64,
                1 if deal else perm(n - 4, 2),
                perm(n, 6),
            )
        )
    return min(plans, key=lambda plan: _cells(plan, tableau)[0])


_Variant = tuple[list[int], list[int], Lumps | None, list[tuple[int, ...]]]
"""A plan tried: the order of the slots, what each reads, the lumps, the suit permutations."""


def _lumped(
    nodes: Sequence[Node], bits: list[int], deal: bool, group: Sequence[tuple[int, ...]]
) -> list[_Variant]:
    """The plans tried with cards in lumps (:mod:`~exactodds.counting.lumps`): none where
    every slot keeps its 52 cards apart (or the lumps are turned off)."""
    found = slot_lumps(nodes) if _LUMPS else None
    if found is None:
        return []
    keys, values = found
    # Values where read, and where the tableau reads them (the first five cards).
    valued = tuple(v or (deal and s < 5) for s, v in enumerate(values))
    perms = _keeping(keys, tuple(group))
    return [(order, bits, (keys, valued), perms) for order in _orders(bits, deal, keys)]


@lru_cache(maxsize=256)  # the same trees at every count a worked example makes
def _keeping(
    keys: tuple[tuple[int, ...], ...], group: tuple[tuple[int, ...], ...]
) -> list[tuple[int, ...]]:
    """The suit permutations of ``group`` that map every slot's lumps onto lumps."""
    return [g for g in group if keeps(keys, g)]


def _orders(bits: Sequence[int], deal: bool, keys: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """The enumeration orders tried with cards in lumps: the slots with the most classes
    first, and the draws last where that differs."""

    def finest(s: int) -> tuple[int, int]:
        return -len(set(keys[s])) if bits[s] else 0, -_fineness(bits[s])

    orders = [sorted(range(6 if deal else 4), key=finest)]
    if deal and orders[0][-2:] != [4, 5]:
        orders.append([*sorted(range(4), key=finest), 4, 5])
    return orders


@lru_cache(maxsize=1024)
def _fixing(
    group: tuple[tuple[int, ...], ...], sets: tuple[frozenset[tuple[int, int]], ...]
) -> tuple[tuple[int, ...], ...]:
    """The suit permutations of ``group`` that map each of the known ``sets`` onto itself."""
    perms = np.array(group, dtype=np.intp).reshape(len(group), 4)
    keeps = np.ones(len(group), dtype=bool)
    for cards in sets:
        held = np.zeros((13, 4), dtype=bool)
        held[tuple(np.array(sorted(cards), dtype=np.intp).reshape(-1, 2).T)] = True
        keeps &= (held[:, perms] == held[:, None, :]).all(axis=(0, 2))
    return tuple(g for g, keep in zip(group, keeps.tolist(), strict=True) if keep)


def _arrange(
    order: Sequence[int],
    bits: Sequence[int],
    shoe: Shoe,
    allowed: Mapping[int, frozenset[tuple[int, int]]],
    deal: bool,
    *,
    coding: Coding | None = None,
    lumps: Lumps | None = None,
    masked: Mapping[str, frozenset[tuple[int, int]]] | None = None,
) -> tuple[tuple[_Axis, ...], int] | None:
    """The axes of the slots in ``order``, each at the finest level of itself and the later
    ones (so that earlier classes nest in later ones), and how many are outer. With ``lumps``
    (:data:`~exactodds.counting.lumps.Lumps`), the classes are its lumps; None where known
    cards split them."""
    levels = {}
    codings: dict[int, Coding | Lumped | None] = {}
    for k, s in enumerate(order):
        b = 0
        for t in order[k:]:
            b |= bits[t]
        levels[s] = _norm(b)
        codings[s] = coding if lumps is None else level(lumps[0], tuple(order[k:]), lumps[1])
    if lumps is not None:
        known = [(s, cards) for s, cards in allowed.items()]
        for position, cards in (masked or {}).items():
            known += [(s, cards) for s in ((4,) if position == "P3" else (4, 5))]
        for s, cards in known:
            whole = _axis(s, levels[s], shoe.counts, None, codings[s])
            if any(not (c <= cards or c.isdisjoint(cards)) for c in whole.cards):
                return None  # known cards split a lump: the classes of the ranks instead
    axes = tuple(_axis(s, levels[s], shoe.counts, allowed.get(s), codings[s]) for s in order)
    # Outer axes are looped over in Python, inner ones form one numpy block.
    m = len(axes)
    while m > 0 and prod(len(a) for a in axes[m - 1 :]) <= _CELLS:
        m -= 1
    if _STAGED and deal and tuple(a.slot for a in axes[-2:]) == (4, 5):
        # Staged (see _staged): the block is the four-card grid, its cells where a hand draws
        # times the fifth card's classes, and so on in chunks; fewer, larger blocks.
        m = len(axes) - 2
        grid = _CELLS >> (6 if lumps is None else _LUMPED_GRID)
        while m > 0 and prod(len(a) for a in axes[m - 1 : -2]) <= max(1, grid):
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


@lru_cache(maxsize=256)
def _orbit_count(axes: Sequence[_Axis], group: Sequence[tuple[int, ...]]) -> int:
    """Sequences of classes of ``axes`` up to the suit permutations ``group`` (Burnside: the
    mean over the group of the sequences each fixes)."""
    if any(isinstance(a.coding, Lumped) for a in axes):
        return sum(
            prod(sum(1 for i, j in enumerate(_act(g, a)) if i == j) for a in axes) for g in group
        ) // len(group)
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
    return _value_shares(tuple((a.slot, a.value) for a in axes), tableau)


@lru_cache(maxsize=256)
def _value_shares(
    values: tuple[tuple[int, tuple[int, ...]], ...], tableau: Tableau
) -> tuple[float, float]:
    """:func:`_draw_shares` from each slot's class values (all it reads), once per values."""
    by_slot = {
        slot: np.bincount(np.array(value, dtype=np.int64), minlength=10) for slot, value in values
    }

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

    >>> from exactodds.language import OTHERWISE, parse_condition
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
