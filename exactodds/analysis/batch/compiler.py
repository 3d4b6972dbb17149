"""Compiling bets for the batch evaluator: every bet's net on every outcome of a tableau, scaled
to integers and expanded into weights over the term basis of :mod:`.basis`."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import lcm
from typing import TYPE_CHECKING, Any, Protocol

from exactodds.analysis.batch.basis import (
    K2,
    K2_ID,
    K4,
    K6,
    LOCAL_COL,
    Tail,
    TermGroup,
    add_table,
    kvec,
    pair_expansion,
    pair_kinds,
    prefixes,
    round_tails,
)
from exactodds.analysis.batch.evaluator import BatchEvaluator
from exactodds.bets.meters import figure_label
from exactodds.bets.paytable import settled_from_cards
from exactodds.deal.round import (
    Outcome,
    continuations,
    feature_record,
    hand_code,
    outcome_code,
)
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ExactOddsError

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.language import Index, Memo

    IntArray = npt.NDArray[Any]

__all__ = ["BetLike", "compile_bets"]


class BetLike(Protocol):
    """What the analysis needs of a bet: ids for reports, the max round, and its net result."""

    @property
    def id(self) -> str:
        """Short identifier (``player_pair``)."""
        ...

    @property
    def name(self) -> str:
        """Human name (``Player Pair``)."""
        ...

    @property
    def max_round(self) -> int | None:
        """Last round of a shoe on which the bet is offered, or None."""
        ...

    def net(self, outcome: Outcome) -> Fraction:
        """Net result per unit stake on ``outcome`` (11 for 11:1, 0 push, −1 lose)."""
        ...


_CACHE: dict[tuple[tuple[BetLike, ...], Tableau], BatchEvaluator] = {}


def compile_bets(bets: Sequence[BetLike], tableau: Tableau | None = None) -> BatchEvaluator:
    """Compile bets (e.g. a paytable's) once for :meth:`BatchEvaluator.evaluate`.

    Compiling evaluates every bet on every outcome (a few seconds for a full paytable), so
    results for hashable bets are kept in a small cache.
    """
    tab = tableau if tableau is not None else BUILTIN["punto-banco"]
    for bet in bets:
        if settled_from_cards(bet):
            raise ExactOddsError(
                f"bet {bet.id!r} reads the cards themselves (ranks, suits, colours, count, "
                "poker) or is offered after the deal: the batch evaluator counts value-level "
                "bets on every round only; pass it to simulate's card_bets (the card engine)"
            )
        live: tuple[str, ...] = getattr(bet, "live", ())
        if live:
            raise ExactOddsError(
                f"bet {bet.id!r} has {' and '.join(live)}: the batch evaluator counts bets "
                "settled by their rows alone (value-level bets on every round only)"
            )
    key = (tuple(bets), tab)
    try:
        hit = _CACHE.get(key)
    except TypeError:  # unhashable bets: no caching
        return _compile(bets, tab)
    if hit is None:
        hit = _compile(bets, tab)
        if len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = hit
    return hit


def _compile(bets: Sequence[BetLike], tab: Tableau) -> BatchEvaluator:
    import numpy as np

    nb = len(bets)
    tails = _tail_table(tab)
    codes, position, _ = _outcome_records(tab)
    columns = _scaled_nets(bets, codes, _outcome_bits(tab))
    scales = tuple(scale for scale, _, _ in columns)
    big = max((abs(n) for _, values, _ in columns for n in values), default=0) >= 1 << 30
    dtype: Any = object if big else np.int64
    # Every bet's scaled net by outcome (outcomes × bets, in the order of ``codes``).
    matrix = np.zeros((len(codes), nb), dtype=dtype)
    for j, (_, values, which) in enumerate(columns):
        matrix[:, j] = np.array(values, dtype=dtype)[which]
    scaled = dict(zip(codes, map(tuple, matrix.tolist()), strict=True))

    # A bet is "four" when what follows the first four cards never changes its net, and has
    # "pairs" when a pair kind does: compare the outcomes that differ only in that respect.
    same_start: list[tuple[int, int]] = []
    same_cards: list[tuple[int, int]] = []
    for (p, b), tl in tails.items():
        for pk in pair_kinds(p):
            for bk in pair_kinds(b):
                _, _, x0, y0 = tl[0]
                first = position[outcome_code(hand_code(p, x0, pk), hand_code(b, y0, bk))]
                for _, _, x, y in tl[1:]:
                    other = outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
                    same_start.append((first, position[other]))
        for _, _, x, y in tl:
            base = position[outcome_code(hand_code(p, x, 0), hand_code(b, y, 0))]
            for pk in pair_kinds(p):
                for bk in pair_kinds(b):
                    other = outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
                    same_cards.append((base, position[other]))
    four = ~_differ(matrix, same_start)
    pairs = _differ(matrix, same_cards)

    groups = []
    for is_four in (True, False):
        for has_pairs in (False, True):
            cols = tuple(j for j in range(nb) if four[j] == is_four and pairs[j] == has_pairs)
            if not cols:
                continue
            net_rows = matrix[:, list(cols)]
            groups.append(
                _compile_group(
                    cols=cols,
                    four=is_four,
                    has_pairs=has_pairs,
                    tails=tails,
                    nets={code: net_rows[i] for code, i in position.items()},
                    net_bound=int(np.abs(net_rows).max()) if len(net_rows) else 0,
                    dtype=dtype,
                )
            )
    return BatchEvaluator(
        tuple(b.id for b in bets),
        tuple(figure_label(b) for b in bets),
        tuple(b.max_round for b in bets),
        scales,
        tab,
        tuple(groups),
        scaled,
    )


def _differ(matrix: IntArray, pairs: Sequence[tuple[int, int]]) -> IntArray:
    """Per bet (column): whether the nets of some pair of outcomes (rows) differ."""
    import numpy as np

    if not pairs:
        return np.zeros(matrix.shape[1], dtype=bool)
    a, b = np.array(pairs, dtype=np.int64).T
    return np.asarray((matrix[a] != matrix[b]).any(axis=0), dtype=bool)


@lru_cache(maxsize=8)
def _tail_table(tab: Tableau) -> dict[tuple[int, int], list[Tail]]:
    """:func:`round_tails` of every (player, banker) two-card total under ``tab``."""
    table = continuations(tab)
    return {(p, b): round_tails(table[p][b]) for p in range(10) for b in range(10)}


@lru_cache(maxsize=8)
def _outcome_records(
    tab: Tableau,
) -> tuple[tuple[int, ...], dict[int, int], tuple[tuple[object, ...], ...]]:
    """Every outcome code a compiled paytable settles under ``tab``, its position, and its
    feature record (the same for every paytable: computed once per tableau)."""
    codes = tuple(
        dict.fromkeys(
            outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
            for (p, b), tl in _tail_table(tab).items()
            for _, _, x, y in tl
            for pk in pair_kinds(p)
            for bk in pair_kinds(b)
        )
    )
    records = tuple(feature_record(Outcome.from_code(c)) for c in codes)
    return codes, {code: i for i, code in enumerate(codes)}, records


@lru_cache(maxsize=8)
def _outcome_bits(tab: Tableau) -> tuple[Index, int, Memo]:
    """The records of :func:`_outcome_records` as bitsets, all of them, and the conditions
    already evaluated on them: identical conditions of any paytable compiled under ``tab``
    are evaluated once."""
    from exactodds.bets.paytable import record_index

    index, everything = record_index(_outcome_records(tab)[2])
    return index, everything, {}


def _scaled_nets(
    bets: Sequence[BetLike],
    codes: Sequence[int],
    bits: tuple[Index, int, Memo],
) -> list[tuple[int, list[int], IntArray]]:
    """Per bet: its scale (the common denominator of its nets on the outcomes ``codes``) and its
    scaled nets as ``values[which[i]]`` for outcome i.

    A paytable :class:`~exactodds.bets.paytable.Bet` is settled with its rows' bitsets
    (:meth:`~exactodds.bets.paytable.Bet.row_hits` on ``bits``, the records as bitsets): each row's
    condition is evaluated once over all outcomes, so a hostile paytable (hundreds of bets of
    hundreds of rows) compiles in seconds, not minutes (``benchmarks/rows.py``). Any other bet
    is asked outcome by outcome.
    """
    import numpy as np

    from exactodds.bets.paytable import Bet

    outcomes: list[Outcome] = []
    out = []
    for bet in bets:
        if isinstance(bet, Bet):
            hits = bet.row_hits(*bits)
            used = [r for r, hit in enumerate(hits) if hit]
            commonest = max(used, key=lambda r: hits[r].bit_count())
            which = np.full(len(codes), commonest, dtype=np.int64)
            for r in used:
                if r != commonest:
                    which[_bit_positions(hits[r])] = r
            nets = {r: bet.row_net(bet.rows[r]) for r in used}
            scale = lcm(*(n.denominator for n in nets.values()))
            values = [0] * len(bet.rows)  # a row that settles no outcome is never looked up
            for r, n in nets.items():
                values[r] = n.numerator * (scale // n.denominator)
            out.append((scale, values, which))
        else:
            outcomes = outcomes or [Outcome.from_code(c) for c in codes]
            fractions = [Fraction(bet.net(o)) for o in outcomes]
            scale = lcm(*(f.denominator for f in fractions))
            scaled = [f.numerator * (scale // f.denominator) for f in fractions]
            out.append((scale, scaled, np.arange(len(codes))))
    return out


def _bit_positions(bits: int) -> IntArray:
    """Positions of the set bits of a non-negative int, lowest first.

    >>> _bit_positions(0b101001).tolist(), _bit_positions(0).tolist()
    ([0, 3, 5], [])
    """
    import numpy as np

    raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


def _tail_weights(
    four: bool,
    tails: dict[tuple[int, int], list[Tail]],
    nets: dict[int, IntArray],
    nb: int,
    dtype: Any,
) -> dict[tuple[int, int, int, int], IntArray]:
    """Per (p, b, pk, bk): the weights of what follows the first four cards, over 2-multisets
    of the values of cards five and six (unused cards expanded over every value), or for bets
    of the first four cards only (``four``), one row (their net does not depend on the tail)."""
    import numpy as np

    tail_w: dict[tuple[int, int, int, int], IntArray] = {}
    for (p, b), tl in tails.items():
        for pk in pair_kinds(p):
            for bk in pair_kinds(b):
                if four:
                    _, _, x, y = tl[0]
                    code = outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
                    tail_w[p, b, pk, bk] = nets[code][None, :]
                    continue
                arr = np.zeros((len(K2), nb), dtype=dtype)
                for vals, wild, x, y in tl:
                    net = nets[outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))]
                    for extra in product(range(10), repeat=wild):
                        arr[K2_ID[kvec((*vals, *extra))]] += net
                tail_w[p, b, pk, bk] = arr
    return tail_w


def _compile_group(
    *,
    cols: tuple[int, ...],
    four: bool,
    has_pairs: bool,
    tails: dict[tuple[int, int], list[Tail]],
    nets: dict[int, IntArray],
    net_bound: int,
    dtype: Any,
) -> TermGroup:
    import numpy as np

    nb = len(cols)
    tail_w = _tail_weights(four, tails, nets, nb, dtype)
    add = np.array(add_table(), dtype=np.int64)
    marker_ids: dict[tuple[tuple[int, str], ...], int] = {}
    codes: list[IntArray] = []
    blocks: list[IntArray] = []
    width = len(K4) if four else len(K6)
    for p, b, pm, bm, k4, mult in prefixes():
        # Nets that ignore pair kinds are the same for every kind: no refinement needed.
        p_exp = pair_expansion(pm) if has_pairs else [("A", {0: 1})]
        b_exp = pair_expansion(bm) if has_pairs else [("A", {0: 1})]
        for alpha, cp in p_exp:
            for beta, cb in b_exp:
                markers: dict[int, str] = {}
                if alpha != "A" and pm is not None:
                    markers[pm] = alpha
                if beta != "A" and bm is not None:
                    markers[bm] = "".join(sorted(markers.get(bm, "") + beta))
                mid = marker_ids.setdefault(tuple(sorted(markers.items())), len(marker_ids))
                blk = None
                for pk, c1 in cp.items():
                    for bk, c2 in cb.items():
                        part = tail_w[p, b, pk, bk] * (c1 * c2 * mult)
                        blk = part if blk is None else blk + part
                assert blk is not None
                idx = np.array([k4]) if four else add[k4]
                codes.append(mid * width + idx)
                blocks.append(blk)
    code_arr = np.concatenate(codes)
    block_arr = np.concatenate(blocks)
    uniq, inverse = np.unique(code_arr, return_inverse=True)
    weights = np.zeros((len(uniq), nb), dtype=dtype)
    np.add.at(weights, inverse, block_arr)
    keep = np.flatnonzero((weights != 0).any(axis=1))
    uniq, weights = uniq[keep], weights[keep]
    marker_list = sorted(marker_ids, key=marker_ids.__getitem__)
    kv = K4 if four else K6
    cols_per_value = np.zeros((len(uniq), 10), dtype=np.int64)
    for t, code in enumerate(uniq.tolist()):
        mid, kid = divmod(code, width)
        mk = dict(marker_list[mid])
        for v, k in enumerate(kv[kid]):
            cols_per_value[t, v] = LOCAL_COL[mk.get(v, "P"), k]
    left_keys, left_index = np.unique(cols_per_value[:, :5], axis=0, return_inverse=True)
    right_keys, right_index = np.unique(cols_per_value[:, 5:], axis=0, return_inverse=True)
    abs_sum = int(np.abs(weights).astype(object).sum(axis=0).max()) if weights.size else 0
    return TermGroup(
        cols,
        four,
        weights,
        abs_sum,
        net_bound,
        left_keys,
        right_keys,
        left_index.reshape(-1),
        right_index.reshape(-1),
    )
