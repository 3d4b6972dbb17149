"""Exact counts of bets that read the cards themselves: ranks, suits, colours, each card's value,
``count``, sums, poker categories and offers (the card-level language of
:mod:`exactodds.language`), and of any bet given what is known of the cards by dealing position.

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
the semantics of :mod:`exactodds.language` (unbounded integers, ``none`` by
:func:`~exactodds.language.when_absent`).

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
every rank combination. :func:`~exactodds.counting.plan.work` estimates all this without
enumerating.

>>> from exactodds.language import OTHERWISE, parse_condition
>>> from exactodds.deal.shoe import Shoe
>>> suited = parse_condition("player.card1.suit == player.card2.suit")
>>> counts = row_counts([suited, OTHERWISE], Shoe.decks(8))
>>> counts.rows[0] * 415 == counts.offered * 103  # 103 of the 415 cards left share the suit
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache, reduce
from math import perm, prod
from typing import Any

import numpy as np

from exactodds.counting.bounds import Bounds, bounded
from exactodds.counting.classes import (
    _READS_FIFTH,
    _READS_SIXTH,
    NONE,
    Known,
    _act,
    _Axis,
    _subset,
)
from exactodds.counting.evaluate import _canon, _const_code, _Evaluator, _Round
from exactodds.counting.meter import Meter
from exactodds.counting.plan import _chunk, _plan, _staged
from exactodds.counting.poker import _poker_table
from exactodds.counting.sixth import sixth_by_value
from exactodds.cpus import COUNT_PROGRESS
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import PaytableError
from exactodds.language import (
    And,
    CardKind,
    Cmp,
    Condition,
    Const,
    In,
    Node,
    Not,
    Or,
    Otherwise,
    Var,
)


@dataclass(frozen=True)
class RowCounts:
    """Combinations per row in the six-card universe, and of the rounds where the bet is
    offered (all rounds: :attr:`universe`, when it has no offer)."""

    rows: tuple[int, ...]
    offered: int
    universe: int


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

    >>> from exactodds.language import OTHERWISE, parse_condition
    >>> from exactodds.deal.shoe import Shoe
    >>> nine = row_counts([parse_condition("player.card1.rank == 9"), OTHERWISE], Shoe.decks(8),
    ...                   known={"P1": [(8, 0), (8, 1), (9, 0)]})  # 9c, 9d or Tc
    >>> nine.rows[0] * 3 == nine.offered * 2
    True
    """
    if progress is None:
        progress = COUNT_PROGRESS.get()
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
    meter: Meter | None = None,
) -> tuple[RowCounts, bool]:
    """:func:`row_counts`, and whether every block was counted: with ``stop`` a row, the
    blocks stop once that row has a combination (the counts are then lower bounds); with
    ``meter``, the work done is counted there (and only its sample of blocks run)."""
    plan = _plan(conditions, shoe, tableau, offer=offer, known=known)
    if stop is not None and plan.m == 0 and len(plan.axes) > 2:
        plan = replace(plan, m=1)  # a block per first card: a worked example stops sooner
    axes, m, group, masked = plan.axes, plan.m, plan.group, plan.masked
    dtype, tail, universe, deal = plan.dtype, plan.tail, plan.universe, plan.deal
    maps = _maps(group, axes)
    subsets = {
        (j, k): _subset_as(axes[j], axes[k], dtype) for k in range(len(axes)) for j in range(k)
    }
    inner = axes[m:]
    shape = tuple(len(a) for a in inner)
    tally = _Tally(conditions, offer, masked, axes, meter)
    arrays = [{name: np.array(getattr(a, name), dtype=np.int64) for name in _NAMES} for a in axes]
    for k, a in enumerate(axes):
        arrays[k]["class"] = np.arange(len(a), dtype=np.int64)
    n = shoe.size
    staged = _staged(plan)
    by_value = (
        sixth_by_value(axes, shoe, dtype, conditions, offer) if staged and not masked else None
    )
    stabilised: dict[tuple[int, ...], Any] = {}
    prefixes = _prefixes(axes[:m], maps)
    if meter is not None:
        meter.of = len(prefixes)
        if meter.pick is not None:
            prefixes = [prefixes[i] for i in meter.pick(len(prefixes))]
    for done, (prefix, weight, fixing) in enumerate(prefixes):
        if progress is not None and done % 64 == 0:
            progress(done, len(prefixes))
        if stop is not None and tally.rows[stop]:
            return RowCounts(tuple(tally.rows), tally.offered, universe), False
        if meter is not None:
            if meter.enough is not None and meter.enough(meter):
                return RowCounts(tuple(tally.rows), tally.offered, universe), False
            meter.visited += 1
        outer = 1
        for k, c in enumerate(prefix):
            outer *= axes[k].count[c] - sum(int(subsets[j, k][prefix[j], c]) for j in range(k))
            if outer <= 0:
                break
        if outer <= 0:
            continue
        if meter is not None:
            meter.blocks += 1
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
                perms, grid = tuple(group[g] for g in fixing), axes[m:last]
                stabilised[key] = (
                    _stabiliser(perms, grid)
                    if cells.size <= _KEPT
                    else _orbits([[_acted(g, a) for a in grid] for g in perms], cells.shape)
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
        chunk, start = _chunk(len(axes[-1])), 0
        while start < len(cont):
            step = chunk >> 3 if by_value is not None and by_value.probing else chunk
            part = cont[start : start + step]
            start += step
            row, col = np.divmod(part, five.shape[1])
            sixth = classes[:m] + [c[row] for c in classes[m:]] + [col]
            for k in range(m, last + 1):
                attrs[axes[k].slot] = {
                    name: array[sixth[k]][:, None] for name, array in arrays[k].items()
                }
            if by_value is not None and by_value.on:  # the sixth card by its value first
                by_value.settle(
                    tally,
                    attrs,
                    sixth,
                    five.reshape(-1)[part],
                    base,
                    cell=row,
                    deal=deal,
                    tableau=tableau,
                )
                continue
            six = _extend(
                axes,
                last + 1,
                classes=sixth,
                subsets=subsets,
                cells=five.reshape(-1)[part][:, None],
                dtype=dtype,
            )
            attrs[5] = {name: array[None, :] for name, array in arrays[last + 1].items()}
            tally.settle(_Round(attrs, deal, tableau, both=True), six, None, base)
    if progress is not None:
        progress(len(prefixes), len(prefixes))
    return RowCounts(tuple(tally.rows), tally.offered, universe), True


@lru_cache(maxsize=64)
def _maps(group: tuple[tuple[int, ...], ...], axes: tuple[_Axis, ...]) -> list[list[list[int]]]:
    """Per suit permutation and axis, where each class goes: the same for every count of a
    worked example's search (its axes are cached), so made once."""
    return [[_acted(g, a) for a in axes] for g in group]


_acted = lru_cache(maxsize=4096)(_act)


@lru_cache(maxsize=1024)
def _subset_as(a: _Axis, b: _Axis, dtype: Any) -> Any:
    """:func:`_subset` in the block's dtype, once per pair of axes."""
    out = _subset(a, b).astype(dtype)
    out.flags.writeable = False  # shared by every count on these axes
    return out


_KEPT = 1 << 14
"""Grids of at most this many cells keep their orbit sizes across counts (a worked example's
small restricted deals); a larger one is computed once per count, as its memory is large."""


@lru_cache(maxsize=256)
def _stabiliser(fixing: tuple[tuple[int, ...], ...], axes: tuple[_Axis, ...]) -> Any:
    """:func:`_orbits` of the grid of ``axes`` under the suit permutations ``fixing``, once
    per grid (a worked example's counts meet the same grids again)."""
    out = _orbits([[_acted(g, a) for a in axes] for g in fixing], tuple(len(a) for a in axes))
    out.flags.writeable = False
    return out


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


def _three(
    node: Node, ev: _Evaluator, late: Callable[[Node], bool], bounds: Bounds | None = None
) -> tuple[Any, Any]:
    """Where ``node`` surely holds and where it surely fails, a comparison that reads a
    later card (``late``) being unknown (but for a hand's poker category: what its first two
    cards leave possible; and, with ``bounds``, for a count compared with literals: the values
    its dealt cards leave possible)."""
    if isinstance(node, Otherwise):
        return np.True_, np.False_
    if isinstance(node, Not):
        holds, fails = _three(node.item, ev, late, bounds)
        return fails, holds
    if isinstance(node, And | Or):
        parts = [_three(item, ev, late, bounds) for item in node.items]
        if isinstance(node, And):
            return reduce(np.logical_and, (h for h, _ in parts)), reduce(
                np.logical_or, (f for _, f in parts)
            )
        return reduce(np.logical_or, (h for h, _ in parts)), reduce(
            np.logical_and, (f for _, f in parts)
        )
    if late(node):
        hope = bounds.hope(node, ev) if bounds is not None else None
        return _suited_hope(node, ev) or hope or _poker_hope(node, ev)
    value = np.asarray(ev.test(node))
    return value, ~value


def _suited_hope(node: Node, ev: _Evaluator) -> tuple[Any, Any] | None:
    """Where a late ``side.suited`` surely fails: its first two cards differ in suit (late,
    its third card is the one unknown card it reads); it never surely holds. None for any
    other node."""
    if not (isinstance(node, Var) and node.name in ("player.suited", "banker.suited")):
        return None
    side = node.name.partition(".")[0]
    rnd = ev.rnd
    return np.False_, rnd.card(side, 1, "suit") != rnd.card(side, 2, "suit")


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
        meter: Meter | None = None,
    ) -> None:
        self.meter = meter
        self.conditions = conditions
        self.offer = offer
        self.rows = [0] * len(conditions)
        self.offered = 0
        self.canon = _canon([c.node for c in conditions] + ([offer.node] if offer else []))
        self.bounded = bounded([c.node for c in conditions] + ([offer.node] if offer else []))
        slot_axis = {a.slot: a for a in axes}
        self.inside = {
            position: {
                slot: np.array([c <= cards for c in slot_axis[slot].cards], dtype=bool)
                for slot in ((4,) if position == "P3" else (4, 5))
            }
            for position, cards in masked.items()
        }

    def decide(
        self,
        rnd: _Round,
        cells: Any,
        select: Any,
        scale: int,
        dealt: int,
        *,
        late: Callable[[Node], bool] | None = None,
    ) -> Any:
        """Settle the cells among ``select`` (rounds to be dealt further) whose offer and row
        the first ``dealt`` cards already decide, whatever the later cards (times ``scale``,
        the sequences of the later cards), and return the others. A condition is decided
        three-valued: a comparison reading a later card is unknown, ``and``/``or``/``not``
        combine what is known (``late``: which comparisons read what is not dealt yet, by
        default the cards after the first ``dealt``)."""
        if self.inside:  # a known third card: the later cards are read by the mask
            return select
        mark = len(rnd.cache)
        ev = _Evaluator(rnd, self.canon)
        bounds = Bounds(dealt, self.bounded) if late is None else None  # (cards dealt known)
        if late is None:
            late = _READS_FIFTH if dealt == 4 else _READS_SIXTH
        shape = cells.shape
        done = np.zeros(shape, dtype=bool)
        offered: Any = np.True_
        if self.offer is not None:
            offered, refused = _three(self.offer.node, ev, late, bounds)
            done = done | refused
        open_: Any = offered
        tested = 0
        for i, condition in enumerate(self.conditions):
            tested += 1
            holds, fails = _three(condition.node, ev, late, bounds)
            hit = np.broadcast_to(select & open_ & holds, shape)
            if hit.any():
                count = int(np.sum(cells, where=hit, initial=0))
                self.rows[i] += scale * count
                self.offered += scale * count
                done = done | hit
            open_ = open_ & fails
            if not np.any(open_):
                break
        if self.meter is not None:
            self.meter.count(rnd.cache, mark, cells, tested)
        return select & ~done

    def settle(self, rnd: _Round, cells: Any, select: Any, scale: int) -> None:
        """Add the cells (among ``select``, None for all) times ``scale`` to the rows."""
        shape = cells.shape
        mark = len(rnd.cache)
        ev = _Evaluator(rnd, self.canon)
        live = np.ones(shape, dtype=bool) if select is None else select
        if self.offer is not None:
            live = live & ev.test(self.offer.node)
        for position, inside in self.inside.items():
            live = live & _known_mask(rnd, position, inside)
        live = np.broadcast_to(live, shape)
        self.offered += scale * int(np.sum(cells, where=live, initial=0))
        unsettled = live.copy()
        tested = 0
        for i, condition in enumerate(self.conditions):
            if not unsettled.any():
                break
            tested += 1
            hit = unsettled & np.broadcast_to(ev.test(condition.node), shape)
            if hit.any():
                self.rows[i] += scale * int(np.sum(cells, where=hit, initial=0))
                unsettled &= ~hit
        if self.meter is not None:
            self.meter.count(rnd.cache, mark, cells, tested)
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
