"""Exact EV of every bet of a paytable for many shoe states at once.

Why: shoe-depth questions (effect of removal, card counting, simulated shoes) need the exact EV
for tens of thousands of shoe states; the recursive engine takes a fraction of a second per state.

Method. A round is an ordered sequence of six cards (SPEC §2). The number of sequences with a
given sequence of card *values* is ∏ᵥ (nᵥ)ₖᵥ (falling factorials of the value counts, kᵥ = how
often value v occurs), which depends only on the value multiset. Pair kinds add a refinement on the
first four cards: when cards 1 and 3 (or 2 and 4) have the same value v, the count of sequences
where they also share the rank (``R``) or the rank and suit (``S``) is R_v·(nᵥ−2)ₖᵥ₋₂ with
R_v = Σ_{rank r of value v} (n_r)₂, S_v = Σ_{card c of value v} (n_c)₂, and for two such pairs of
one value a closed form of degree four. A bet's net on an outcome with pair kinds is rewritten by
Möbius inversion on "no relation ⊇ same rank ⊇ same rank and suit", so every bet becomes

    count·net = Σ_terms W[term, bet] · ∏ᵥ local_v[term](state)

with integer weights ``W`` (nets scaled by the bet's common denominator). A paytable is compiled
once: bets that look only at the first four cards (naturals, pairs) use the 4-card multisets times
(N−4)₂; bets that never look at pair kinds skip the refinement. Evaluation builds the term matrix
for a block of states (products of per-value local factors, split in two halves) and multiplies
it with ``W``. Exactness in 64-bit words (:mod:`~exactodds.analysis.kernel`): the exact result is
a count times a scaled net, at most ``max|net|·(N)₆``; when that is below 2⁶³ everything is
computed in ``uint64``, exact modulo 2⁶⁴, so the ``int64`` view is the exact value. Larger
shoes (above about 25 decks) are also computed modulo primes below 2³² and recombined by the
Chinese remainder theorem. The hot loop runs in numba when installed (``EXACTODDS_KERNEL``
chooses), else in numpy; both give the same integers.

>>> from exactodds.round import Outcome
>>> from fractions import Fraction
>>> class Tie:
...     id, name, max_round = "tie", "Tie", None
...     def net(self, o: Outcome) -> Fraction:
...         return Fraction(8) if o.winner == "tie" else Fraction(-1)
>>> ev = compile_bets([Tie()]).evaluate([Shoe.decks(8)]).ev(0, "tie")
>>> f"{float(-ev):.4%}"  # SPEC §9
'14.3596%'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import lcm, perm
from typing import TYPE_CHECKING, Any, Protocol

from exactodds.analysis.kernel import WORD, Modulus
from exactodds.errors import ShoeError
from exactodds.limits import MAX_DECKS, MAX_SHOE_CARDS
from exactodds.round import (
    Continuation,
    Outcome,
    continuations,
    feature_record,
    hand_code,
    outcome_code,
)
from exactodds.shoe import MIN_CARDS, RANK_VALUES, RANKS, SUITS, Shoe
from exactodds.tableau import BUILTIN, STOOD, Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.conditions import Index, Memo

    IntArray = npt.NDArray[Any]

__all__ = [
    "BatchEvaluator",
    "BatchResult",
    "BetLike",
    "compile_bets",
    "shoe_counts",
]


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


# -- static structure ---------------------------------------------------------------------------

_VALUE_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(len(RANKS)) if RANK_VALUES[r] == v) for v in range(10)
)
_MULTI_RANK = tuple(len(rs) > 1 for rs in _VALUE_RANKS)

# Local factor columns per value: (kind, k). P = plain (n)_k; R / S = one same-rank / same-card
# pair among the k cards; RR / RS / SS = two such pairs (player's and banker's) of this value.
_LOCAL_COLS: tuple[tuple[str, int], ...] = (
    *(("P", k) for k in range(7)),
    *(("R", k) for k in range(2, 7)),
    *(("S", k) for k in range(2, 7)),
    *(("RR", k) for k in range(4, 7)),
    *(("RS", k) for k in range(4, 7)),
    *(("SS", k) for k in range(4, 7)),
)
_COL = {c: i for i, c in enumerate(_LOCAL_COLS)}
_BLOCK = 256


def _kvecs(total: int) -> tuple[tuple[int, ...], ...]:
    """All value-count vectors (10 entries) summing to ``total``."""
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 9:
            out.append((*prefix, left))
            return
        for k in range(left, -1, -1):
            rec((*prefix, k), left - k)

    rec((), total)
    return tuple(out)


_K6 = _kvecs(6)
_K4 = _kvecs(4)
_K2 = _kvecs(2)
_K6_ID = {k: i for i, k in enumerate(_K6)}
_K4_ID = {k: i for i, k in enumerate(_K4)}
_K2_ID = {k: i for i, k in enumerate(_K2)}


def _kvec(values: Iterable[int]) -> tuple[int, ...]:
    out = [0] * 10
    for v in values:
        out[v] += 1
    return tuple(out)


@lru_cache(maxsize=1)
def _prefixes() -> tuple[tuple[int, int, int | None, int | None, int, int], ...]:
    """First-four value sequences grouped by (player total, banker total, player pair value or
    None, banker pair value or None, 4-multiset id), with the number of sequences."""
    acc: dict[tuple[int, int, int | None, int | None, int], int] = {}
    for v0, v1, v2, v3 in product(range(10), repeat=4):
        key = (
            (v0 + v2) % 10,
            (v1 + v3) % 10,
            v0 if v0 == v2 else None,
            v1 if v1 == v3 else None,
            _K4_ID[_kvec((v0, v1, v2, v3))],
        )
        acc[key] = acc.get(key, 0) + 1
    return tuple((*k, n) for k, n in acc.items())


@lru_cache(maxsize=1)
def _add_table() -> tuple[tuple[int, ...], ...]:
    """id of (4-multiset + 2-multiset) as a 6-multiset, indexed [k4 id][k2 id]."""
    return tuple(
        tuple(_K6_ID[tuple(a + b for a, b in zip(k4, k2, strict=True))] for k2 in _K2) for k4 in _K4
    )


Tail = tuple[tuple[int, ...], int, int, int]  # (values of cards 5–6 used, wildcards, x, y)


def _tails(cont: Continuation) -> list[Tail]:
    """What follows the first four cards (a continuation of the round module): the third-card
    values, how many of cards five and six are unused (wildcards), and the player/banker third
    card or STOOD."""
    out: list[Tail] = []
    for x in cont.player_thirds:
        used = () if x == STOOD else (x,)
        if cont.banker_draws[x]:
            out.extend(((*used, y), 1 - len(used), x, y) for y in range(10))
        else:
            out.append((used, 2 - len(used), x, STOOD))
    return out


def _kinds(total: int) -> tuple[int, ...]:
    """Pair kinds a hand with this two-card total can have (a pair has an even total)."""
    return (0,) if total % 2 else (0, 1, 2)


def _expansion(v: int | None) -> list[tuple[str, dict[int, int]]]:
    """Möbius expansion of a hand's pair kind: (marker, {pair kind: coefficient}).

    Cards 1 and 3 of different values: always no pair. Same value of one rank: a pair, perfect
    when also same suit (``S``). Same value of several ranks (ten to king): ``R`` = same rank."""
    if v is None:
        return [("A", {0: 1})]
    if not _MULTI_RANK[v]:
        return [("A", {1: 1}), ("S", {2: 1, 1: -1})]
    return [("A", {0: 1}), ("R", {1: 1, 0: -1}), ("S", {2: 1, 1: -1})]


# -- compiled form ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Group:
    """Bets sharing one term basis: integer weights over terms, and how to build the terms."""

    bets: tuple[int, ...]  # column of each bet in the evaluator's order
    four: bool  # terms are 4-card multisets; results are multiplied by (N−4)₂
    weights: IntArray  # (terms × bets) int64 or object
    col_abs_sum: int  # max over bets of Σ|W|
    net_bound: int  # max over bets of |scaled net|: |Σ W·term| ≤ net_bound·(N)_K
    left_keys: IntArray  # (distinct left halves × 5) local column per value 0..4
    right_keys: IntArray  # (distinct right halves × 5) local column per value 5..9
    left_index: IntArray  # (terms,)
    right_index: IntArray  # (terms,)


@dataclass(frozen=True, eq=False)
class BatchEvaluator:
    """A paytable compiled for fast exact evaluation over many shoe states.

    The EV of bet ``j`` in a state of ``N`` cards is ``numerator / (scales[j]·(N)₆)``.
    """

    bet_ids: tuple[str, ...]
    bet_names: tuple[str, ...]
    max_rounds: tuple[int | None, ...]
    scales: tuple[int, ...]
    tableau: Tableau
    groups: tuple[_Group, ...] = field(repr=False)
    # Every bet's net on each outcome (by outcome code), times the bet's scale (exact integers).
    nets: dict[int, tuple[int, ...]] = field(repr=False, default_factory=dict)
    # "auto"; "limbs" forces the multi-word path (residues modulo 2**64 and two primes,
    # recombined by CRT) and "object" Python ints, both exact and slower (for tests).
    mode: str = "auto"

    @property
    def terms(self) -> int:
        """Total number of terms over all groups (a measure of the work per state)."""
        return sum(len(g.left_index) for g in self.groups)

    def evaluate(self, states: Sequence[Shoe] | IntArray) -> BatchResult:
        """Exact EV of every bet for every state (shoes, or an int array states × 13 × 4).

        Runs the kernel :func:`~exactodds.analysis.kernel.kernel_name` chooses: numba when
        installed (``EXACTODDS_KERNEL=numba|numpy`` forces one); same integers either way.
        """
        from exactodds.analysis import kernel

        counts = shoe_counts(states)
        sizes = counts.sum(axis=(1, 2))
        if self.mode == "object":
            numer = _numpy_residues(self.groups, counts, sizes, len(self.bet_ids), None)
        else:
            n_max = int(sizes.max()) if len(sizes) else 0
            bound = max((g.net_bound for g in self.groups), default=0) * perm(n_max, 6)
            force = self.mode == "limbs"
            if kernel.kernel_name(len(counts)) == "numba":
                plan = kernel.numba_plan(self.groups, _LOCAL_COLS, _VALUE_RANKS, len(self.bet_ids))
                moduli = kernel.choose_moduli(bound, plan.weight_sum, plan.max_terms, force=force)
                residues = [kernel.evaluate_numba(plan, counts, m) for m in moduli]
            else:
                weight_sum = max((g.col_abs_sum for g in self.groups), default=0)
                terms = max((len(g.left_index) for g in self.groups), default=0)
                moduli = kernel.choose_moduli(bound, weight_sum, terms, force=force)
                residues = [
                    _numpy_residues(self.groups, counts, sizes, len(self.bet_ids), m)
                    for m in moduli
                ]
            numer = kernel.combine(residues, moduli)
        return BatchResult(self.bet_ids, tuple(sizes.tolist()), numer, self.scales, self.max_rounds)


@dataclass(frozen=True, eq=False)
class BatchResult:
    """EVs of many states: ``ev(i, bet) = numerators[i, j] / (scales[j]·(sizes[i])₆)``."""

    bet_ids: tuple[str, ...]
    sizes: tuple[int, ...]
    numerators: IntArray  # (states × bets) object array of Python ints
    scales: tuple[int, ...]
    max_rounds: tuple[int | None, ...] = ()

    def __len__(self) -> int:
        return len(self.sizes)

    def column(self, bet: int | str) -> int:
        """Column index of a bet given by id or index."""
        return self.bet_ids.index(bet) if isinstance(bet, str) else bet

    def denominator(self, state: int, bet: int | str) -> int:
        """Common denominator of the EV numerator of ``bet`` in ``state``."""
        return self.scales[self.column(bet)] * perm(self.sizes[state], 6)

    def ev(self, state: int, bet: int | str) -> Fraction:
        """Exact EV per unit stake of ``bet`` in state ``state``."""
        j = self.column(bet)
        return Fraction(int(self.numerators[state, j]), self.denominator(state, j))

    def evs(self, state: int) -> dict[str, Fraction]:
        """Every bet's exact EV in one state, by bet id."""
        return {b: self.ev(state, j) for j, b in enumerate(self.bet_ids)}

    def positive(self) -> IntArray:
        """Boolean array (states × bets): the player has the edge (EV > 0)."""
        import numpy as np

        return np.asarray(self.numerators > 0, dtype=bool)

    def int64_numerators(self) -> IntArray | None:
        """The numerators as an int64 array, or None when one does not fit (never rounded).

        >>> import numpy as np
        >>> r = BatchResult(("x",), (8, 8), np.array([[3], [-2**63]], dtype=object), (1,))
        >>> r.int64_numerators().dtype.name, BatchResult(("x",), (8,),
        ...     np.array([[2**63]], dtype=object), (1,)).int64_numerators()
        ('int64', None)
        """
        import numpy as np

        try:
            return np.asarray(self.numerators, dtype=np.int64)
        except OverflowError:
            return None


def _over_limit(state: int) -> str:
    return f"shoe state {state} has over {MAX_SHOE_CARDS:,} cards: the limit is {MAX_DECKS:,} decks"


def shoe_counts(states: Sequence[Shoe] | IntArray) -> IntArray:
    """Shoe states as an ``int64`` array (states × 13 × 4), checked like :class:`Shoe` (at most
    ``MAX_SHOE_CARDS`` cards each: the kernel relies on counts far below its primes)."""
    import numpy as np

    if isinstance(states, np.ndarray):
        arr = np.asarray(states)
        if arr.ndim != 3 or arr.shape[1:] != (len(RANKS), len(SUITS)):
            raise ShoeError(f"shoe states must have shape (n, 13, 4), not {arr.shape!r}")
        if not np.issubdtype(arr.dtype, np.integer):
            raise ShoeError(f"shoe state counts must be integers, not {arr.dtype!r}")
        arr = arr.astype(np.int64, copy=False)
        if len(arr) and arr.min() < 0:
            i = int(np.argwhere(arr < 0)[0][0])
            raise ShoeError(f"shoe state {i} has a negative count")
    else:
        arr = np.array([s.counts for s in states], dtype=np.int64).reshape(-1, 13, 4)
    flat = arr.reshape(len(arr), len(RANKS) * len(SUITS))
    if len(arr) and flat.max() > MAX_SHOE_CARDS:  # then the sums below cannot overflow
        i = int(np.argwhere(flat > MAX_SHOE_CARDS)[0][0])
        raise ShoeError(_over_limit(i))
    sizes = flat.sum(axis=1)
    big = np.flatnonzero(sizes > MAX_SHOE_CARDS)
    if len(big):
        raise ShoeError(_over_limit(int(big[0])))
    small = np.flatnonzero(sizes < MIN_CARDS)
    if len(small):
        i = int(small[0])
        raise ShoeError(
            f"shoe state {i} has {int(sizes[i])} cards: a round needs at least {MIN_CARDS}"
        )
    return arr


# -- evaluation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ring:
    """numpy arithmetic, exact (Python ints: ``modulus`` None) or modulo a :class:`Modulus`:
    2⁶⁴ is uint64 wrap-around, a prime p < 2³² keeps every value reduced below p.

    ``small``: the modulus is 2⁶⁴ and every value (a count of at most six cards: at most
    (N)₆ < 2⁶²) is exact in int64, which needs no conversions."""

    modulus: Modulus | None
    small: bool = False

    @property
    def dtype(self) -> Any:
        """The array dtype of ring elements."""
        import numpy as np

        return object if self.modulus is None else np.int64 if self.small else np.uint64

    def _reduce(self, x: IntArray) -> IntArray:
        import numpy as np

        if self.modulus is None or self.modulus.is_word:
            return x
        return x % np.uint64(self.modulus.value)

    def lift(self, n: IntArray) -> IntArray:
        """Non-negative exact integers (int64) as ring elements."""
        import numpy as np

        if self.modulus is None:
            return n.astype(object)
        return n if self.small else self._reduce(n.astype(np.uint64))

    def mul(self, a: IntArray, b: IntArray) -> IntArray:
        """a·b (for a prime, both below p < 2³², so the uint64 product is exact)."""
        return self._reduce(a * b)

    def add(self, a: IntArray, b: IntArray) -> IntArray:
        """a + b."""
        return self._reduce(a + b)

    def sub(self, a: IntArray, b: IntArray) -> IntArray:
        """a − b (for a prime, a + (p − b) stays positive)."""
        import numpy as np

        if self.modulus is None or self.modulus.is_word:
            return a - b
        return self._reduce(a + (np.uint64(self.modulus.value) - b))

    def total(self, x: IntArray, axis: int | tuple[int, ...]) -> IntArray:
        """Sum along ``axis`` (at most 16 reduced values: no overflow)."""
        return self._reduce(x.sum(axis=axis))

    def fallings(self, n: IntArray, k: int) -> list[IntArray]:
        """Falling factorials [(n)₀, (n)₁, …, (n)ₖ] elementwise, 0 when n < k (n: int64,
        may be negative)."""
        import numpy as np

        out = [self.lift(np.ones_like(n))]
        for i in range(k):
            out.append(self.mul(out[-1], self.lift(np.maximum(n - i, 0))))
        return out

    def imul(self, a: IntArray, b: IntArray) -> None:
        """a ← a·b in place."""
        import numpy as np

        np.multiply(a, b, out=a)
        if self.modulus is not None and not self.modulus.is_word:
            np.remainder(a, np.uint64(self.modulus.value), out=a)

    def weights(self, group: _Group) -> IntArray:
        """The group's weights as ring elements (see :func:`kernel.weight_residues`)."""
        from exactodds.analysis.kernel import weight_residues

        if self.modulus is None:
            return group.weights.astype(object)
        return weight_residues(group.weights, self.modulus, group.col_abs_sum)


def _local_table(counts: IntArray, ring: _Ring) -> IntArray:
    """Per state, per value, every local factor column (states × 10 × len(_LOCAL_COLS))."""
    import numpy as np

    out = np.zeros((len(counts), 10, len(_LOCAL_COLS)), dtype=ring.dtype)
    for v, ranks in enumerate(_VALUE_RANKS):
        a = counts[:, list(ranks), :]  # states × ranks × suits
        nr = a.sum(axis=2)
        n = nr.sum(axis=1)
        _, _, a2, _, a4 = ring.fallings(a, 4)
        _, _, r2, _, r4 = ring.fallings(nr, 4)
        sv = ring.total(a2, (1, 2))
        rv = ring.total(r2, 1)
        # two disjoint same-rank (same-card) pairs: rv² − Σ(n_r)₂² + Σ(n_r)₄
        rr = ring.add(
            ring.sub(ring.mul(rv, rv), ring.total(ring.mul(r2, r2), 1)), ring.total(r4, 1)
        )
        ss = ring.add(
            ring.sub(ring.mul(sv, sv), ring.total(ring.mul(a2, a2), (1, 2))), ring.total(a4, (1, 2))
        )
        rest = ring.add(ring.sub(rv[:, None], r2), ring.fallings(nr - 2, 2)[2])
        rs = ring.total(ring.mul(ring.total(a2, 2), rest), 1)
        front = {"R": rv, "S": sv, "RR": rr, "RS": rs, "SS": ss}
        # (n − used)_j for the cards left after ``used`` cards of pairs: P uses none
        tails = {used: ring.fallings(n - used, 6 - used) for used in (0, 2, 4)}
        for i, (kind, k) in enumerate(_LOCAL_COLS):
            used = 0 if kind == "P" else len(kind) * 2
            tail = tails[used][k - used]
            out[:, v, i] = tail if kind == "P" else ring.mul(front[kind], tail)
    return out


def _group_numerators(group: _Group, local: IntArray, ring: _Ring, weights: IntArray) -> IntArray:
    """Σ_terms W·term for one group and a block of states, as ring elements."""
    import numpy as np

    def half(keys: IntArray, offset: int, index: IntArray) -> IntArray:
        tab = np.take(local[:, offset, :], keys[:, 0], axis=1)
        for v in range(1, 5):
            ring.imul(tab, np.take(local[:, offset + v, :], keys[:, v], axis=1))
        return np.take(tab, index, axis=1)

    # C-contiguous (states × terms) so that the matrix product runs at full speed.
    terms = half(group.left_keys, 0, group.left_index)
    ring.imul(terms, half(group.right_keys, 5, group.right_index))
    if ring.small:
        terms = terms.view(np.uint64)  # unsigned: wrap-around is defined, no overflow trap
    total: IntArray = terms @ weights
    if ring.modulus is None or ring.modulus.is_word:
        return total  # exact, or exact modulo 2**64 (uint64 wraps)
    # Residues below p times weights with Σ|w|·(p−1) < 2**63: the wrapped uint64 sum, read as
    # int64, is the exact signed sum.
    return (total.view(np.int64) % ring.modulus.value).astype(np.uint64)


def _numpy_residues(
    groups: Sequence[_Group],
    counts: IntArray,
    sizes: IntArray,
    n_bets: int,
    modulus: Modulus | None,
) -> IntArray:
    """Every numerator for every state, exact (``modulus`` None) or modulo ``modulus``."""
    import numpy as np

    n_max = int(sizes.max()) if len(sizes) else 0
    ring = _Ring(modulus, modulus == WORD and perm(n_max, 6) < 1 << 62)
    weights = [ring.weights(g) for g in groups]
    out = np.zeros((len(counts), n_bets), dtype=object if modulus is None else np.uint64)
    for start in range(0, len(counts), _BLOCK):
        block = counts[start : start + _BLOCK]
        local = _local_table(block, ring)
        tail = ring.fallings(sizes[start : start + _BLOCK] - 4, 2)[2][:, None]  # (N−4)₂
        if ring.small:
            tail = tail.view(np.uint64)  # like the sums below
        for group, w in zip(groups, weights, strict=True):
            res = _group_numerators(group, local, ring, w)
            out[start : start + len(block), list(group.bets)] = (
                ring.mul(res, tail) if group.four else res
            )
    return out


# -- compilation --------------------------------------------------------------------------------


_CACHE: dict[tuple[tuple[BetLike, ...], Tableau], BatchEvaluator] = {}


def compile_bets(bets: Sequence[BetLike], tableau: Tableau | None = None) -> BatchEvaluator:
    """Compile bets (e.g. a paytable's) once for :meth:`BatchEvaluator.evaluate`.

    Compiling evaluates every bet on every outcome (a few seconds for a full paytable), so
    results for hashable bets are kept in a small cache.
    """
    tab = tableau if tableau is not None else BUILTIN["punto-banco"]
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
        for pk in _kinds(p):
            for bk in _kinds(b):
                _, _, x0, y0 = tl[0]
                first = position[outcome_code(hand_code(p, x0, pk), hand_code(b, y0, bk))]
                for _, _, x, y in tl[1:]:
                    other = outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
                    same_start.append((first, position[other]))
        for _, _, x, y in tl:
            base = position[outcome_code(hand_code(p, x, 0), hand_code(b, y, 0))]
            for pk in _kinds(p):
                for bk in _kinds(b):
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
        tuple(b.name for b in bets),
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
    """:func:`_tails` of every (player, banker) two-card total under ``tab``."""
    table = continuations(tab)
    return {(p, b): _tails(table[p][b]) for p in range(10) for b in range(10)}


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
            for pk in _kinds(p)
            for bk in _kinds(b)
        )
    )
    records = tuple(feature_record(Outcome.from_code(c)) for c in codes)
    return codes, {code: i for i, code in enumerate(codes)}, records


@lru_cache(maxsize=8)
def _outcome_bits(tab: Tableau) -> tuple[Index, int, Memo]:
    """The records of :func:`_outcome_records` as bitsets, all of them, and the conditions
    already evaluated on them: identical conditions of any paytable compiled under ``tab``
    are evaluated once."""
    from exactodds.paytable import record_index

    index, everything = record_index(_outcome_records(tab)[2])
    return index, everything, {}


def _scaled_nets(
    bets: Sequence[BetLike],
    codes: Sequence[int],
    bits: tuple[Index, int, Memo],
) -> list[tuple[int, list[int], IntArray]]:
    """Per bet: its scale (the common denominator of its nets on the outcomes ``codes``) and its
    scaled nets as ``values[which[i]]`` for outcome i.

    A paytable :class:`~exactodds.paytable.Bet` is settled with its rows' bitsets
    (:meth:`~exactodds.paytable.Bet.row_hits` on ``bits``, the records as bitsets): each row's
    condition is evaluated once over all outcomes, so a hostile paytable (hundreds of bets of
    hundreds of rows) compiles in seconds, not minutes (``benchmarks/rows.py``). Any other bet
    is asked outcome by outcome.
    """
    import numpy as np

    from exactodds.paytable import Bet

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


def _compile_group(
    *,
    cols: tuple[int, ...],
    four: bool,
    has_pairs: bool,
    tails: dict[tuple[int, int], list[Tail]],
    nets: dict[int, IntArray],
    net_bound: int,
    dtype: Any,
) -> _Group:
    import numpy as np

    nb = len(cols)
    # Per (p, b, pk, bk): the weights of what follows the first four cards, over 2-multisets of
    # the values of cards five and six (unused cards expanded over every value), or for bets
    # of the first four cards only, one row (their net does not depend on the tail).
    tail_w: dict[tuple[int, int, int, int], IntArray] = {}
    for (p, b), tl in tails.items():
        for pk in _kinds(p):
            for bk in _kinds(b):
                if four:
                    _, _, x, y = tl[0]
                    code = outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))
                    tail_w[p, b, pk, bk] = nets[code][None, :]
                    continue
                arr = np.zeros((len(_K2), nb), dtype=dtype)
                for vals, wild, x, y in tl:
                    net = nets[outcome_code(hand_code(p, x, pk), hand_code(b, y, bk))]
                    for extra in product(range(10), repeat=wild):
                        arr[_K2_ID[_kvec((*vals, *extra))]] += net
                tail_w[p, b, pk, bk] = arr
    add = np.array(_add_table(), dtype=np.int64)
    marker_ids: dict[tuple[tuple[int, str], ...], int] = {}
    codes: list[IntArray] = []
    blocks: list[IntArray] = []
    width = len(_K4) if four else len(_K6)
    for p, b, pm, bm, k4, mult in _prefixes():
        # Nets that ignore pair kinds are the same for every kind: no refinement needed.
        p_exp = _expansion(pm) if has_pairs else [("A", {0: 1})]
        b_exp = _expansion(bm) if has_pairs else [("A", {0: 1})]
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
    kv = _K4 if four else _K6
    cols_per_value = np.zeros((len(uniq), 10), dtype=np.int64)
    for t, code in enumerate(uniq.tolist()):
        mid, kid = divmod(code, width)
        mk = dict(marker_list[mid])
        for v, k in enumerate(kv[kid]):
            cols_per_value[t, v] = _COL[mk.get(v, "P"), k]
    left_keys, left_index = np.unique(cols_per_value[:, :5], axis=0, return_inverse=True)
    right_keys, right_index = np.unique(cols_per_value[:, 5:], axis=0, return_inverse=True)
    abs_sum = int(np.abs(weights).astype(object).sum(axis=0).max()) if weights.size else 0
    return _Group(
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
