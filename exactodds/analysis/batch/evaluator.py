"""Evaluating compiled bets: the exact EV of every bet for many shoe states, block by block
(the terms of :mod:`.basis` as products of per-value local factors, times the weights)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import perm
from typing import TYPE_CHECKING, Any

from exactodds.analysis.batch.basis import LOCAL_COLS, VALUE_RANKS, TermGroup
from exactodds.analysis.batch.ring import Ring
from exactodds.analysis.kernel import WORD, Modulus
from exactodds.deal.shoe import MIN_CARDS, RANKS, SUITS, Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import ShoeError
from exactodds.limits import MAX_DECKS, MAX_SHOE_CARDS

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = ["BatchEvaluator", "BatchResult", "numpy_residues", "shoe_counts"]

_BLOCK = 256
"""States per block: a block's term matrix stays small."""


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
    groups: tuple[TermGroup, ...] = field(repr=False)
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
            numer = numpy_residues(self.groups, counts, sizes, len(self.bet_ids), None)
        else:
            n_max = int(sizes.max()) if len(sizes) else 0
            bound = max((g.net_bound for g in self.groups), default=0) * perm(n_max, 6)
            force = self.mode == "limbs"
            if kernel.kernel_name(len(counts)) == "numba":
                plan = kernel.numba_plan(self.groups, LOCAL_COLS, VALUE_RANKS, len(self.bet_ids))
                moduli = kernel.choose_moduli(bound, plan.weight_sum, plan.max_terms, force=force)
                residues = [kernel.evaluate_numba(plan, counts, m) for m in moduli]
            else:
                weight_sum = max((g.col_abs_sum for g in self.groups), default=0)
                terms = max((len(g.left_index) for g in self.groups), default=0)
                moduli = kernel.choose_moduli(bound, weight_sum, terms, force=force)
                residues = [
                    numpy_residues(self.groups, counts, sizes, len(self.bet_ids), m) for m in moduli
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


def _local_table(counts: IntArray, ring: Ring) -> IntArray:
    """Per state, per value, every local factor column (states × 10 × len(LOCAL_COLS))."""
    import numpy as np

    out = np.zeros((len(counts), 10, len(LOCAL_COLS)), dtype=ring.dtype)
    for v, ranks in enumerate(VALUE_RANKS):
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
        for i, (kind, k) in enumerate(LOCAL_COLS):
            used = 0 if kind == "P" else len(kind) * 2
            tail = tails[used][k - used]
            out[:, v, i] = tail if kind == "P" else ring.mul(front[kind], tail)
    return out


def _group_numerators(group: TermGroup, local: IntArray, ring: Ring, weights: IntArray) -> IntArray:
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


def numpy_residues(
    groups: Sequence[TermGroup],
    counts: IntArray,
    sizes: IntArray,
    n_bets: int,
    modulus: Modulus | None,
) -> IntArray:
    """Every numerator for every state, exact (``modulus`` None) or modulo ``modulus``."""
    import numpy as np

    n_max = int(sizes.max()) if len(sizes) else 0
    ring = Ring(modulus, modulus == WORD and perm(n_max, 6) < 1 << 62)
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
