"""Exact round distributions given what is known of the cards by dealing position.

A *restriction* says, for each of the first four cards (Player 1st, Banker 1st, Player 2nd,
Banker 2nd), which cards it may be (a suit mask per rank: exactly ``9s``, any ``9``, value 0, a
group of ranks, or anything), and for each hand's third card whether it is known to be drawn and
of which ranks. :func:`conditional_counts` returns, for any split of the first-four card
sequences into *signals* (what a player sees), the exact joint distribution of the round
features within each signal, in the six-card universe of :mod:`exactodds.deal.engine`.

Method. The first four cards are enumerated by rank (13⁴ sequences at most); within a sequence,
the suits are counted per rank, by enumerating only the positions that share a rank (pairs and
perfect pairs), which is cached. What happens after the first four is a polynomial of degree
two in the numbers ``u`` of each rank they removed, so each (signal, player total, banker total,
pair kinds) class needs only the moments Σn, Σn·u, Σn·u·uᵀ of its sequences (numpy, integer
dtype; Python integers when a shoe is too large for int64), as in the engine.

>>> from exactodds.deal.shoe import Shoe
>>> from exactodds.deal.engine import joint_distribution
>>> shoe = Shoe.decks(8)
>>> [everything] = conditional_counts(shoe, Restriction())
>>> everything.total == joint_distribution(shoe).total
True
>>> dict(everything.counts) == dict(joint_distribution(shoe).counts)
True
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import perm
from typing import TYPE_CHECKING, Any

from exactodds.deal.round import Hand, Outcome, continuations, hand_code
from exactodds.deal.shoe import RANK_VALUES, RANKS, Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import ExactOddsError, naming, quote

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "ANY",
    "POSITIONS",
    "Conditional",
    "GivenError",
    "Mask",
    "Restriction",
    "conditional_counts",
    "first_four",
    "parse_given",
    "rank_mask",
    "row_counts",
    "row_layout",
]

Mask = tuple[int, ...]
"""Per rank (13 entries, :data:`~exactodds.deal.shoe.RANKS` order) the suits allowed, as bits
(bit s: suit s of :data:`~exactodds.deal.shoe.SUITS`); 0 excludes the rank."""

ANY: Mask = (15,) * 13
"""Any card."""

POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2")
"""The first four cards in dealing order."""


def rank_mask(ranks: Sequence[int] | frozenset[int]) -> Mask:
    """Any suit of the given ranks.

    >>> rank_mask([8])[8], rank_mask([8])[7]
    (15, 0)
    """
    return tuple(15 if r in ranks else 0 for r in range(13))


@dataclass(frozen=True)
class Restriction:
    """What is known of a round's cards: a :data:`Mask` per first-four position, and per hand
    whether its third card is known to be drawn and of which ranks (a third card is known by
    rank only: every suit of an allowed rank is allowed).

    ``player_third`` None: nothing known (it may or may not be drawn).
    """

    first: tuple[Mask, Mask, Mask, Mask] = (ANY, ANY, ANY, ANY)
    player_third: frozenset[int] | None = None
    banker_third: frozenset[int] | None = None


@dataclass(frozen=True)
class Conditional:
    """The rounds consistent with one signal: combinations per outcome out of :attr:`total`
    (a subset of the six-card universe)."""

    total: int
    counts: dict[Outcome, int] = field(repr=False, compare=False)


_HANDS = {
    (initial, third, kind): Hand.from_code(hand_code(initial, third, kind))
    for initial in range(10)
    for third in range(11)
    for kind in range(3)
}


@lru_cache(maxsize=4096)
def _suit_ways(
    suits: tuple[int, ...], masks: tuple[int, ...], positions: tuple[int, ...]
) -> tuple[tuple[int, int, int], ...]:
    """Ordered suit choices for the first-four ``positions`` that hold one rank (card counts
    ``suits``, allowed suits ``masks``), by (player perfect pair, banker perfect pair):
    ``((pp, bp, ways), …)``."""
    out: dict[tuple[int, int], int] = {}
    allowed = [[s for s in range(4) if m >> s & 1 and suits[s]] for m in masks]
    where = {p: i for i, p in enumerate(positions)}
    for choice in itertools.product(*allowed):
        ways = 1
        used = [0, 0, 0, 0]
        for s in choice:
            ways *= suits[s] - used[s]
            used[s] += 1
        if ways <= 0:
            continue
        pp = int(0 in where and 2 in where and choice[where[0]] == choice[where[2]])
        bp = int(1 in where and 3 in where and choice[where[1]] == choice[where[3]])
        out[pp, bp] = out.get((pp, bp), 0) + ways
    return tuple((pp, bp, n) for (pp, bp), n in sorted(out.items()))


@dataclass(frozen=True)
class FirstFour:
    """Every first-four card sequence class allowed by a restriction: ranks [M, 4], player and
    banker pair kinds (0 none, 1 pair, 2 perfect) and the number of card sequences ``n``."""

    ranks: IntArray
    pk: IntArray
    bk: IntArray
    n: IntArray


def _dtype(shoe: Shoe) -> Any:
    """int64 while every intermediate sum fits (8·N⁶ < 2⁶³), else Python integers."""
    return "int64" if 8 * shoe.size**6 < 2**62 else object


def _set_partitions(items: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    """Every partition of ``items`` into blocks (15 for four positions)."""
    if not items:
        return [[]]
    head, rest = items[0], items[1:]
    out = []
    for part in _set_partitions(rest):
        out.append([(head,), *part])
        for i in range(len(part)):
            out.append([*part[:i], (head, *part[i]), *part[i + 1 :]])
    return out


@lru_cache(maxsize=16)
def first_four(
    shoe: Shoe, masks: tuple[Mask, Mask, Mask, Mask] = (ANY, ANY, ANY, ANY)
) -> FirstFour:
    """The first-four sequence classes of ``shoe`` allowed by ``masks`` (see :class:`FirstFour`).

    Sequences are taken by which positions share a rank (the 15 partitions of four positions):
    within one, the ranks of the blocks are distinct, so the card counts multiply block by block
    (numpy over every assignment of ranks to the blocks).

    >>> ff = first_four(Shoe.decks(8))
    >>> int(ff.n.sum()) == 416 * 415 * 414 * 413
    True
    """
    import numpy as np

    dtype = _dtype(shoe)
    counts = shoe.counts
    out_ranks, out_pk, out_bk, out_n = [], [], [], []
    for blocks in _set_partitions((0, 1, 2, 3)):
        assign = np.array(list(itertools.permutations(range(13), len(blocks))), dtype=np.int64)
        # state = player perfect + 2·banker perfect; ways per state, block by block
        res = np.zeros((len(assign), 4), dtype=dtype)
        res[:, 0] = 1
        for j, block in enumerate(blocks):
            table = np.zeros((13, 4), dtype=dtype)
            for a in range(13):
                masks_a = tuple(masks[i][a] for i in block)
                for pp, bp, w in _suit_ways(counts[a], masks_a, block):
                    table[a, pp + 2 * bp] = w
            ways = table[assign[:, j]]
            new = np.zeros_like(res)
            for s1 in range(4):
                for s2 in range(4):
                    new[:, s1 | s2] += res[:, s1] * ways[:, s2]
            res = new
        ranks = np.zeros((len(assign), 4), dtype=np.int64)
        block_of = {}
        for j, block in enumerate(blocks):
            for i in block:
                ranks[:, i] = assign[:, j]
                block_of[i] = j
        p_pair, b_pair = int(block_of[0] == block_of[2]), int(block_of[1] == block_of[3])
        for state in range(4):
            keep = res[:, state] != 0
            if not keep.any():
                continue
            k = int(keep.sum())
            out_ranks.append(ranks[keep])
            out_pk.append(np.full(k, 2 if state & 1 else p_pair, dtype=np.int64))
            out_bk.append(np.full(k, 2 if state & 2 else b_pair, dtype=np.int64))
            out_n.append(res[keep, state])
    if not out_n:
        out_ranks.append(np.zeros((0, 4), dtype=np.int64))
        out_pk.append(np.zeros(0, dtype=np.int64))
        out_bk.append(np.zeros(0, dtype=np.int64))
        out_n.append(np.zeros(0, dtype=dtype))
    return FirstFour(
        np.concatenate(out_ranks),
        np.concatenate(out_pk),
        np.concatenate(out_bk),
        np.concatenate(out_n),
    )


def classes(ff: FirstFour) -> IntArray:
    """Class index (((pt·10 + bt)·3 + pk)·3 + bk) of every sequence class of ``ff``."""
    import numpy as np

    values = np.array(RANK_VALUES, dtype=np.int64)[ff.ranks]
    pt = (values[:, 0] + values[:, 2]) % 10
    bt = (values[:, 1] + values[:, 3]) % 10
    return ((pt * 10 + bt) * 3 + ff.pk) * 3 + ff.bk


@dataclass(frozen=True)
class _Cells:
    """Per class, which (player third, banker third) cells (10 = stood) a restriction allows,
    as an array [900, 11, 11] of 0/1, and the outcome of each allowed cell."""

    allowed: IntArray
    outcomes: tuple[tuple[tuple[Outcome | None, ...], ...], ...]


@lru_cache(maxsize=64)
def _cells(tableau: Tableau, p_known: bool, b_known: bool) -> _Cells:
    import numpy as np

    table = continuations(tableau)
    allowed = np.zeros((900, 11, 11), dtype=np.int64)
    outcomes: list[tuple[tuple[Outcome | None, ...], ...]] = []
    for cls in range(900):
        pt, rest = divmod(cls, 90)
        bt, rest = divmod(rest, 9)
        pk, bk = divmod(rest, 3)
        cont = table[pt][bt]
        grid: list[list[Outcome | None]] = [[None] * 11 for _ in range(11)]
        xs = range(10) if cont.player_draws else (STOOD,)
        if not (p_known and not cont.player_draws):
            for x in xs:
                ys = range(10) if cont.banker_draws[x] else (STOOD,)
                if b_known and not cont.banker_draws[x]:
                    continue
                for y in ys:
                    allowed[cls, x, y] = 1
                    grid[x][y] = Outcome(_HANDS[pt, x, pk], _HANDS[bt, y, bk])
        outcomes.append(tuple(tuple(row) for row in grid))
    return _Cells(allowed, tuple(outcomes))


def _third_matrix(ranks: frozenset[int] | None) -> IntArray:
    """[13, 10]: 1 where rank a (of value x) may be the third card."""
    import numpy as np

    out = np.zeros((13, 10), dtype=np.int64)
    for a in range(13):
        if ranks is None or a in ranks:
            out[a, RANK_VALUES[a]] = 1
    return out


def cell_counts(
    shoe: Shoe,
    ff: FirstFour,
    groups: IntArray,
    ngroups: int,
    *,
    restriction: Restriction,
    tableau: Tableau,
) -> tuple[IntArray, IntArray]:
    """Aggregate the sequence classes of ``ff`` by (group, class) (``groups[i]`` < 0: left out)
    and count their completions: (keys [K] = group·900 + class, counts [K, 11, 11] by player
    and banker third-card value, 10 = stood), exact."""
    import numpy as np

    dtype = ff.n.dtype
    keep = groups >= 0
    cls = classes(ff)[keep]
    key = groups[keep] * 900 + cls
    n = ff.n[keep]
    ranks = ff.ranks[keep]
    if not len(key):
        return np.zeros(0, dtype=np.int64), np.zeros((0, 11, 11), dtype=dtype)
    order = np.argsort(key, kind="stable")
    key, n, ranks = key[order], n[order], ranks[order]
    u = np.zeros((len(key), 13), dtype=np.int64)
    for i in range(4):
        np.add.at(u, (np.arange(len(key)), ranks[:, i]), 1)
    u = u.astype(dtype)
    keys, starts = np.unique(key, return_index=True)
    s0 = np.add.reduceat(n, starts)
    s1 = np.add.reduceat(n[:, None] * u, starts, axis=0)
    s2 = np.add.reduceat(n[:, None, None] * u[:, :, None] * u[:, None, :], starts, axis=0)
    big_r = np.array([sum(row) for row in shoe.counts], dtype=np.int64).astype(dtype)
    pm = _third_matrix(restriction.player_third).astype(dtype)
    bm = _third_matrix(restriction.banker_third).astype(dtype)
    pbm = pm * bm
    rp, rb, rpb = big_r @ pm, big_r @ bm, big_r @ pbm
    s1p, s1b, s1pb = s1 @ pm, s1 @ bm, s1 @ pbm
    s2pb = np.matmul(np.matmul(pm.T[None, :, :], s2), bm[None, :, :])
    m = shoe.size - 4
    s0c = s0[:, None, None]
    both = (
        rp[None, :, None] * rb[None, None, :] * s0c
        - rp[None, :, None] * s1b[:, None, :]
        - rb[None, None, :] * s1p[:, :, None]
        + s2pb
    )
    diag = rpb[None, :] * s0[:, None] - s1pb
    idx = np.arange(10)
    both[:, idx, idx] -= diag
    out = np.zeros((len(keys), 11, 11), dtype=dtype)
    out[:, :10, :10] = both
    out[:, :10, STOOD] = (rp[None, :] * s0[:, None] - s1p) * (m - 1)
    out[:, STOOD, :10] = (rb[None, :] * s0[:, None] - s1b) * (m - 1)
    out[:, STOOD, STOOD] = s0 * (m * (m - 1))
    cells = _cells(
        tableau, restriction.player_third is not None, restriction.banker_third is not None
    )
    out = out * cells.allowed[keys % 900].astype(dtype)
    return keys, out


def conditional_counts(
    shoe: Shoe,
    restriction: Restriction,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    signals: IntArray | None = None,
    nsignals: int = 1,
    ff: FirstFour | None = None,
) -> list[Conditional]:
    """The exact distribution of the round within each signal: ``signals[i]`` is the signal of
    the i-th sequence class of ``ff`` (default: :func:`first_four` of the restriction's masks,
    all in signal 0; negative: left out).

    >>> shoe = Shoe.decks(8)
    >>> nine = Restriction((rank_mask([8]), ANY, ANY, ANY))
    >>> [c] = conditional_counts(shoe, nine)
    >>> c.total * 13 == perm(416, 6)
    True
    """
    import numpy as np

    if ff is None:
        ff = first_four(shoe, restriction.first)
    if signals is None:
        signals = np.zeros(len(ff.n), dtype=np.int64)
    keys, cells = cell_counts(shoe, ff, signals, nsignals, restriction=restriction, tableau=tableau)
    allowed = _cells(
        tableau, restriction.player_third is not None, restriction.banker_third is not None
    )
    out = [Conditional(0, {}) for _ in range(nsignals)]
    totals = [0] * nsignals
    g_idx, xs, ys = np.nonzero(cells)
    values = cells[g_idx, xs, ys].tolist()
    key_list = keys.tolist()
    outcomes = allowed.outcomes
    for g, x, y, n in zip(g_idx.tolist(), xs.tolist(), ys.tolist(), values, strict=True):
        key = key_list[g]
        signal, cls = divmod(key, 900)
        outcome = outcomes[cls][x][y]
        assert outcome is not None
        counts = out[signal].counts
        counts[outcome] = counts.get(outcome, 0) + int(n)
        totals[signal] += int(n)
    return [Conditional(t, c.counts) for t, c in zip(totals, out, strict=True)]


def describe_mask(mask: Mask) -> str:
    """A mask in card notation: ``?``, ``9s``, ``9``, or ranks in brackets.

    >>> describe_mask(ANY), describe_mask(rank_mask([5, 6, 7, 8]))
    ('?', '[6 7 8 9]')
    """
    if mask == ANY:
        return "?"
    from exactodds.deal.shoe import SUITS

    cards = [
        RANKS[a] + ("" if m == 15 else "".join(SUITS[s] for s in range(4) if m >> s & 1))
        for a, m in enumerate(mask)
        if m
    ]
    return cards[0] if len(cards) == 1 else "[" + " ".join(cards) + "]"


def total_of(shoe: Shoe) -> int:
    """The six-card universe of ``shoe``."""
    return perm(shoe.size, 6)


@dataclass(frozen=True)
class RowLayout:
    """Where each bet's rows sit in a flat vector of row counts: bet i has rows
    ``offsets[i] … offsets[i+1]−1``; ``onehot[cls]`` [121, R] maps the cells (player third ×
    banker third, 10 = stood) of a class to the row each bet settles them on (none for a bet
    with an offer where it is not offered: its rows count the offered rounds only)."""

    offsets: tuple[int, ...]
    onehot: dict[int, IntArray] = field(repr=False, compare=False)
    rows_of: dict[Outcome, tuple[int, ...]] = field(repr=False, compare=False)

    def counts(self, joint: Any) -> list[int]:
        """Row combinations of an engine joint (or any outcome → combinations mapping)."""
        out = [0] * self.offsets[-1]
        rows_of = self.rows_of
        for outcome, n in joint.items():
            for r in rows_of[outcome]:
                if r >= 0:  # -1: a bet with an offer not offered in this round
                    out[r] += n
        return out


@lru_cache(maxsize=32)
def row_layout(tableau: Tableau, bets: tuple[Any, ...]) -> RowLayout:
    """The :class:`RowLayout` of ``bets`` (:class:`~exactodds.bets.paytable.Bet`) under
    ``tableau``."""
    import numpy as np

    from exactodds.bets.paytable import record_index
    from exactodds.deal.round import feature_record

    offsets = [0]
    for bet in bets:
        offsets.append(offsets[-1] + len(bet.rows))
    width = offsets[-1]
    cells = _cells(tableau, False, False)
    where = np.argwhere(cells.allowed.reshape(900, 121))  # [C, 2]: class, cell
    records = [
        feature_record(cells.outcomes[cls][cell // 11][cell % 11])  # type: ignore[arg-type]
        for cls, cell in where.tolist()
    ]
    index, everything = record_index(records)
    memo: dict[Any, Any] = {}
    columns = np.zeros((len(records), len(bets)), dtype=np.int64)
    present, slot = np.unique(where[:, 0], return_inverse=True)
    table = np.zeros((len(present), 121, width), dtype=np.int64)
    for i, bet in enumerate(bets):
        rows = bet.row_hits(index, everything, memo)
        offer = getattr(bet, "offer", None)
        if offer is not None:  # made only where offered: the other rounds settle no row
            offered = offer.bits(index, everything, memo)
            rows = [hits & offered for hits in rows]
        columns[:, i] = -1
        for r, hits in enumerate(rows):
            if hits:
                bits = np.frombuffer(format(hits, "b")[::-1].encode(), dtype=np.uint8) == 49
                columns[np.nonzero(bits)[0], i] = offsets[i] + r
        made = columns[:, i] >= 0
        table[slot[made], where[made, 1], columns[made, i]] = 1
    onehot = {c: table[j] for j, c in enumerate(present.tolist())}
    outcomes = [cells.outcomes[cls][cell // 11][cell % 11] for cls, cell in where.tolist()]
    rows_of = dict(zip(outcomes, map(tuple, columns.tolist()), strict=True))
    return RowLayout(tuple(offsets), onehot, rows_of)  # type: ignore[arg-type]


def row_counts(
    shoe: Shoe,
    tableau: Tableau,
    bets: tuple[Any, ...],
    *,
    restriction: Restriction,
    groups: IntArray,
    ngroups: int,
    ff: FirstFour,
) -> IntArray:
    """Combinations of every bet row (see :func:`row_layout`) within each group: [ngroups, R],
    exact (int64, or Python integers for shoes too large for it)."""
    import numpy as np

    layout = row_layout(tableau, bets)
    keys, cells = cell_counts(shoe, ff, groups, ngroups, restriction=restriction, tableau=tableau)
    dtype = cells.dtype
    width = layout.offsets[-1]
    out = np.zeros((ngroups, width), dtype=dtype)
    if not len(keys):
        return out
    flat = cells.reshape(len(keys), 121)
    cls = keys % 900
    group = keys // 900
    per_key = np.zeros((len(keys), width), dtype=dtype)
    order = np.argsort(cls, kind="stable")
    sorted_cls = cls[order]
    uniq, starts = np.unique(sorted_cls, return_index=True)
    bounds = [*starts.tolist(), len(order)]
    for i, c in enumerate(uniq.tolist()):
        rows = order[bounds[i] : bounds[i + 1]]
        onehot = layout.onehot[c]
        per_key[rows] = flat[rows] @ (onehot if dtype == onehot.dtype else onehot.astype(dtype))
    # keys are sorted, so each group's keys are contiguous
    present, first = np.unique(group, return_index=True)
    out[present] = np.add.reduceat(per_key, first, axis=0)
    return out


class GivenError(ExactOddsError):
    """A ``--given`` text that does not describe cards by dealing position."""


_TOKEN = re.compile(r"\[[^\]]*\]|[^\s\[\]]+|[\[\]]")


def _token_mask(token: str, where: str) -> Mask:
    """One known card: ``?``, ``9s`` (exactly), ``9`` (the rank), ``v0`` (a value), or a group
    of ranks ``[6 7 8 9]`` (``[^6 7 8 9]``: every other rank)."""
    from exactodds.deal.shoe import parse_card
    from exactodds.errors import CardError

    low = token.lower()
    if token == "?":
        return ANY
    if low.startswith("v") and low[1:].isdigit():  # also true of v², v٣, v③: not values
        if not low.isascii() or len(low) != 2:  # one digit: never int() of a long text
            raise GivenError(f"{where}: {quote(token, 40)} is not a value (v0 to v9)")
        return rank_mask([r for r in range(13) if RANK_VALUES[r] == int(low[1:])])
    if token.startswith("["):
        if not token.endswith("]"):
            raise GivenError(f"{where}: unclosed group {quote(token)}")
        inner = token[1:-1].strip()
        negate = inner.startswith("^")
        ranks: set[int] = set()
        for part in inner.lstrip("^").replace(",", " ").split():
            try:
                card = parse_card(part)
            except CardError as exc:
                raise GivenError(f"{where}: {exc}") from None
            if card.suit is not None:
                raise GivenError(f"{where}: a group holds ranks, not cards: {quote(part)}")
            ranks.add(card.rank)
        if not ranks:
            raise GivenError(f"{where}: empty group {quote(token)}")
        if negate:
            ranks = set(range(13)) - ranks
        return rank_mask(sorted(ranks))
    try:
        card = parse_card(token)
    except CardError as exc:
        raise GivenError(f"{where}: {exc}") from None
    if card.suit is None:
        return rank_mask([card.rank])
    return tuple((1 << card.suit) if r == card.rank else 0 for r in range(13))


@naming("given")
def parse_given(text: str) -> Restriction:
    """What is known of a round, by hand: ``P: 9s ? | B: ? ?``. Each hand lists its first two
    cards and optionally its third (then the hand is known to draw one; a third card is known
    by rank, value or group, not by suit). A card is ``?``, ``9s``, ``9``, ``v0`` (value 0: a
    ten or a face) or a group of ranks ``[6 7 8 9]`` / ``[^6 7 8 9]``.

    >>> r = parse_given("P: 9s ? | B: [6 7 8 9] ? 5")
    >>> describe_mask(r.first[0]), describe_mask(r.first[1]), sorted(r.banker_third or ())
    ('9s', '[6 7 8 9]', [4])
    >>> parse_given("P: 9 | B: ? ?")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.protection.information.GivenError: given 'P: 9 | B: ? ?': the player's hand ...
    """
    from exactodds.limits import MAX_CARD_TEXT

    where = f"given {quote(text)}"
    if len(text) > MAX_CARD_TEXT:
        raise GivenError(f"given: {len(text):,} characters is over the limit of {MAX_CARD_TEXT:,}")
    hands: dict[str, list[str]] = {}
    for part in text.split("|"):
        side, colon, rest = part.partition(":")
        key = side.strip().upper()
        if not colon or key not in ("P", "B"):
            raise GivenError(f"{where}: write the hands as 'P: 9s ? | B: ? ?'")
        if key in hands:
            raise GivenError(f"{where}: the {'player' if key == 'P' else 'banker'} hand twice")
        hands[key] = _TOKEN.findall(rest)
    if set(hands) != {"P", "B"}:
        raise GivenError(f"{where}: give both hands, 'P: … | B: …'")
    first: list[Mask] = [ANY] * 4
    thirds: dict[str, frozenset[int] | None] = {}
    for key, start, name in (("P", 0, "player"), ("B", 1, "banker")):
        tokens = hands[key]
        if len(tokens) not in (2, 3):
            raise GivenError(
                f"{where}: the {name}'s hand lists {len(tokens)} card{'s' * (len(tokens) != 1)} "
                "(give 2 or 3)"
            )
        first[start] = _token_mask(tokens[0], where)
        first[start + 2] = _token_mask(tokens[1], where)
        thirds[key] = None
        if len(tokens) == 3:
            mask = _token_mask(tokens[2], where)
            if any(m not in (0, 15) for m in mask):
                raise GivenError(
                    f"{where}: a third card is known by rank, value or group, not by suit: "
                    f"{quote(tokens[2])}"
                )
            thirds[key] = frozenset(r for r in range(13) if mask[r])
    return Restriction((first[0], first[1], first[2], first[3]), thirds["P"], thirds["B"])
