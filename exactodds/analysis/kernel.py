"""Exact word arithmetic for the batch evaluator: moduli, Chinese remainders, the compiled kernel.

Why: the batch evaluator's numerators ``Σ W·term`` are exact integers of up to about 100 bits (a
1,000-deck shoe has (N)₆ ≈ 2⁹⁴ sequences), but fast code works in 64-bit words.

Method. Every step of the evaluation (falling factorials of the card counts, their products, the
weighted sum) is a polynomial in the counts with integer coefficients, so it can be carried out
in the ring of integers modulo any m: reducing modulo m commutes with + and ×. The evaluator
computes each numerator x modulo the word m₀ = 2⁶⁴ (unsigned wrap-around: free) and, only when x
may not fit in 63 bits, also modulo primes mᵢ = 2ᵏ − cᵢ, and recombines the residues with the
Chinese remainder theorem.

Exactness. x counts card sequences times a scaled net, so ``|x| ≤ B = max|net|·(N)₆`` (a bet on
the first four cards: ``max|net|·(N)₄·(N−4)₂``, the same). The moduli are pairwise coprime (2⁶⁴
and distinct odd primes) with product ``M > 2B``, so x is the unique integer of (−M/2, M/2] with
the computed residues (:func:`combine`). When ``B < 2⁶³`` the word alone suffices: the int64
view of the wrapped uint64 sum is x. Inside a prime's pass every residue is below p < 2³², so a
product of two fits in 64 bits, and the weighted sum ``Σ w·r`` is an exact int64 because the
weights are chosen with ``Σ|w|·(p−1) < 2⁶³`` (:func:`choose_moduli`, :func:`weight_residues`).
The numba kernel multiplies weights by terms in 31-bit limbs (32-bit products, several times
cheaper) where a proven bound allows it (:func:`split_limbs`): every pass modulo a prime, and
the word pass up to 1,292 cards (25 decks).

The kernel is chosen by ``EXACTODDS_KERNEL`` (:func:`kernel_name`): ``numba`` (the default when
the ``fast`` extra is installed, except for small batches; compiled on first use and cached on
disk) or ``numpy``. Both give the same integers; tests check them against each other and
against the engine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial, perm, prod
from typing import TYPE_CHECKING, Any, Protocol

from exactodds.errors import KernelError, MissingExtraError, ShoeError

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "AUTO_MIN_STATES",
    "KERNELS",
    "KERNEL_ENV",
    "WORD",
    "Modulus",
    "NumbaPlan",
    "choose_moduli",
    "combine",
    "evaluate_numba",
    "kernel_name",
    "numba_plan",
    "split_limbs",
    "weight_residues",
]

KERNEL_ENV = "EXACTODDS_KERNEL"
KERNELS = ("numba", "numpy")
_BLOCK = 128  # shoe states per pass of the numba kernel (one SIMD lane each)
TILE = 4  # terms whose weighted sum the kernel adds to an accumulator at once
_EXTRA_PRIMES = 2  # primes forced by mode="limbs", so tests exercise the recombination
_NUMBA_MODULE = "exactodds.analysis._numba_kernel"
AUTO_MIN_STATES = 512  # smallest batch that loads numba by default


# -- choice of kernel ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _numba_error() -> str | None:
    """Why numba cannot be used (None when it can). Imports numba: call only when evaluating."""
    try:
        import numba  # noqa: F401
    except ImportError as exc:
        return str(exc) or type(exc).__name__
    return None


def kernel_name(states: int | None = None) -> str:
    """The kernel to evaluate ``states`` shoe states with: ``EXACTODDS_KERNEL`` if set, else
    numba when installed, except for a small batch (under :data:`AUTO_MIN_STATES` states)
    while numba is not loaded yet: numpy does those faster than numba loads (about a second).

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {KERNEL_ENV: "numpy"}):
    ...     kernel_name()
    'numpy'
    >>> with mock.patch.dict(os.environ, {KERNEL_ENV: "cuda"}):
    ...     kernel_name()
    Traceback (most recent call last):
    ...
    exactodds.errors.KernelError: unknown EXACTODDS_KERNEL value 'cuda' (use numba or numpy)
    """
    value = os.environ.get(KERNEL_ENV, "").strip()
    if not value:
        small = states is not None and states < AUTO_MIN_STATES
        if small and _NUMBA_MODULE not in sys.modules:
            return "numpy"
        return "numba" if _numba_error() is None else "numpy"
    if value not in KERNELS:
        raise KernelError(f"unknown {KERNEL_ENV} value {value!r} (use numba or numpy)")
    if value == "numba" and (why := _numba_error()) is not None:
        raise MissingExtraError(f"{KERNEL_ENV}=numba needs numba ({why})", "fast")
    return value


# -- moduli -------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Modulus:
    """``2**bits − c``: the word 2⁶⁴ (c = 0; unsigned wrap-around) or a prime below 2³².

    >>> WORD.value == 2**64, Modulus(32, 5).value
    (True, 4294967291)
    """

    bits: int
    c: int

    @property
    def value(self) -> int:
        """The modulus as an integer."""
        return (1 << self.bits) - self.c

    @property
    def is_word(self) -> bool:
        """True for 2⁶⁴, whose residues are plain wrapped uint64 arithmetic."""
        return self.c == 0


WORD = Modulus(64, 0)


def _is_prime(n: int) -> bool:
    """Deterministic Miller–Rabin for n < 3.3·10²⁴ (bases: the first twelve primes)."""
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if n < 2:
        return False
    for b in bases:
        if n % b == 0:
            return n == b
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in bases:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def _primes(bits: int, count: int) -> tuple[Modulus, ...]:
    """The ``count`` largest primes ``2**bits − c`` (c small, so c² + c < p: see the kernel).

    >>> [m.c for m in _primes(32, 3)]
    [5, 17, 65]
    """
    out: list[Modulus] = []
    c = 1
    while len(out) < count:
        if _is_prime((1 << bits) - c):
            out.append(Modulus(bits, c))
        c += 2
    return tuple(out)


def choose_moduli(
    bound: int, weight_sum: int, terms: int, *, force: bool = False
) -> tuple[Modulus, ...]:
    """Moduli whose product exceeds ``2·bound``: the word 2⁶⁴, then primes as needed.

    ``weight_sum`` is the largest Σ|W| of a bet's weights and ``terms`` the most terms of a
    group. Primes are 2³² − c when ``weight_sum < 2³¹`` (then ``Σ|w|·(p−1) < 2⁶³`` with the
    weights themselves); otherwise the weights are reduced modulo p (``|w| ≤ p/2``) and p has
    at most ``(63 − bits(terms)) / 2`` bits, so that ``terms·(p/2)·p < 2⁶²``. ``force`` adds
    two primes even when the word suffices (tests use it to exercise the recombination).

    >>> choose_moduli(2**62, 2**21, 5005)
    (Modulus(bits=64, c=0),)
    >>> [m.c for m in choose_moduli(2**100, 2**21, 5005)]
    [0, 5, 17]
    """
    bits = 32 if weight_sum < 1 << 31 else (63 - terms.bit_length()) // 2
    out = [WORD]
    need = max(0, (2 * bound).bit_length() - 64)  # M > 2·bound once ∏p ≥ 2**need
    count = 0
    while (1 << need) > prod(m.value for m in _primes(bits, count)):
        count += 1
    count = max(count, _EXTRA_PRIMES if force else 0)
    out.extend(_primes(bits, count))
    return tuple(out)


def weight_residues(weights: IntArray, modulus: Modulus, weight_sum: int) -> IntArray:
    """Weights as uint64 for one modulus: W mod 2⁶⁴ for the word; for a prime, W itself (as the
    two's complement uint64 of an int64) when ``weight_sum·(p−1) < 2⁶³``, else W mod p in
    (−p/2, p/2]. Either way ``Σ w·r`` over residues r < p is an exact int64.

    >>> import numpy as np
    >>> w = np.array([[-1, 3]], dtype=np.int64)
    >>> weight_residues(w, WORD, 4).tolist()
    [[18446744073709551615, 3]]
    >>> weight_residues(w, Modulus(32, 5), 4).view(np.int64).tolist()
    [[-1, 3]]
    """
    import numpy as np

    as_is = modulus.is_word or weight_sum * (modulus.value - 1) < 1 << 63
    if as_is and weights.dtype == np.int64:
        return weights.view(np.uint64)  # two's complement: W mod 2**64
    if as_is:
        flat = [int(x) % (1 << 64) for x in weights.reshape(-1).tolist()]
    else:
        p = modulus.value
        flat = [((int(x) + p // 2) % p - p // 2) % (1 << 64) for x in weights.reshape(-1)]
    return np.array(flat, dtype=np.uint64).reshape(weights.shape)


def combine(residues: Sequence[IntArray], moduli: Sequence[Modulus]) -> IntArray:
    """The integers of (−M/2, M/2] with the given residues (uint64 arrays), M = ∏ moduli.

    Garner's mixed-radix digits are computed in uint64 (every product of two numbers below a
    prime p < 2³² fits), then ``x = d₀ + m₀·(d₁ + m₁·(d₂ + …))`` in Python ints.

    >>> import numpy as np
    >>> ms = choose_moduli(10**30, 1, 1)
    >>> xs = [10**29 + 7, -(10**28) - 3, -1, 0]
    >>> rs = [np.array([x % m.value for x in xs], dtype=np.uint64) for m in ms]
    >>> combine(rs, ms).tolist() == xs
    True
    """
    import numpy as np

    word = residues[0]
    if len(moduli) == 1:
        return np.asarray(word.view(np.int64).astype(object), dtype=object)
    values = [m.value for m in moduli]
    digits = [word]
    for i in range(1, len(moduli)):
        p = values[i]
        big_p = np.uint64(p)
        acc = np.zeros(word.shape, dtype=np.uint64)
        coef = 1
        for j, d in enumerate(digits):
            # (d mod p)·coef ≤ (p−1)² and acc < p: the sum stays below 2⁶⁴
            acc = (acc + (d % big_p) * np.uint64(coef)) % big_p
            coef = coef * values[j] % p
        inv = np.uint64(pow(coef, -1, p))
        r = np.asarray(residues[i], dtype=np.uint64)
        digits.append(((r + (big_p - acc)) % big_p) * inv % big_p)
    x: IntArray = digits[-1].astype(object)
    for j in range(len(digits) - 2, -1, -1):
        x = digits[j].astype(object) + values[j] * x
    m = prod(values)
    return np.asarray(np.where(x > m // 2, x - m, x), dtype=object)


# -- the numba plan -----------------------------------------------------------------------------


class GroupLike(Protocol):
    """What the plan needs of a compiled group of bets (``batch.basis.TermGroup``)."""

    @property
    def bets(self) -> tuple[int, ...]: ...
    @property
    def four(self) -> bool: ...
    @property
    def weights(self) -> IntArray: ...
    @property
    def left_keys(self) -> IntArray: ...
    @property
    def right_keys(self) -> IntArray: ...
    @property
    def left_index(self) -> IntArray: ...
    @property
    def right_index(self) -> IntArray: ...


_KINDS = ("P", "R", "S", "RR", "RS", "SS")


@dataclass(frozen=True, eq=False)
class NumbaPlan:
    """A paytable's terms as arrays for the numba kernel (built once per set of groups).

    Local factors of value v occupy rows ``v·ncol + col`` of the kernel's table, row ``one`` is
    the constant 1 and intermediate products follow: row ``one + 1 + i`` is ``pa[i]·pb[i]``.
    Term t is ``ta[t]·tb[t]``. Terms come in tiles of :data:`TILE`: tile i holds terms
    ``TILE·i …`` and entries ``tileptr[i] … tileptr[i+1]``, each a column ``colidx[e]`` and the
    tile's weights in it ``weights[TILE·e …]``, so that an accumulator is loaded and stored once
    per tile rather than once per term.
    A group's weights are shifted by ``shift·multiplicity`` on the plain terms (whose
    multiplicity-weighted sum is (N)_K) where that zeroes more of them; the kernel subtracts
    ``shift·(N)_K`` again.
    """

    value_ranks: IntArray  # (10 × 4) rank indices of each value
    value_nranks: IntArray  # (10,)
    col_kind: IntArray  # (ncol,) index into _KINDS
    col_k: IntArray  # (ncol,) cards of the value in the term
    used: IntArray  # (10·ncol,) uint8: local factor rows some product reads
    pa: IntArray  # uint64 (intermediates,)
    pb: IntArray
    ta: IntArray  # uint64 (terms,)
    tb: IntArray
    toff: IntArray  # (groups + 1,) term offsets
    tileptr: IntArray  # (tiles + 1,) entries of each tile
    colidx: IntArray  # (entries,) column within the group
    weights: tuple[int, ...]  # (entries × TILE,) exact shifted weights, tile-term-major
    shifts: tuple[int, ...]  # per output column
    outcol: IntArray  # (columns,) bet index of each group column
    coff: IntArray  # (groups + 1,) column offsets
    four: IntArray  # (groups,) uint8
    weight_sum: int  # max over columns of Σ|shifted weight|
    max_terms: int
    n_bets: int
    copies: tuple[tuple[int, int], ...]  # (bet, bet computed with the same weights)
    _residues: dict[Modulus, tuple[IntArray, IntArray, bool]] = field(
        default_factory=dict, repr=False
    )

    def residues(self, modulus: Modulus) -> tuple[IntArray, IntArray, bool]:
        """Weights and shifts for one modulus (uint64; see :func:`weight_residues`), and
        whether every weight, read as a signed integer, fits in int32."""
        import numpy as np

        hit = self._residues.get(modulus)
        if hit is None:
            vals = weight_residues(np.array(self.weights, dtype=object), modulus, self.weight_sum)
            m = 1 << 64 if modulus.is_word else modulus.value
            shifts = np.array([s % m for s in self.shifts], dtype=np.uint64)
            signed = vals.view(np.int64)
            narrow = bool(np.all((signed >= -(1 << 31)) & (signed < 1 << 31)))
            hit = self._residues[modulus] = (vals, shifts, narrow)
        return hit


_PLANS: dict[tuple[int, ...], tuple[Sequence[GroupLike], NumbaPlan]] = {}


def numba_plan(
    groups: Sequence[GroupLike],
    local_cols: Sequence[tuple[str, int]],
    value_ranks: Sequence[Sequence[int]],
    n_bets: int,
) -> NumbaPlan:
    """The kernel plan of compiled groups (cached for the last few sets of groups)."""
    key = tuple(id(g) for g in groups)
    hit = _PLANS.get(key)
    if hit is None:
        hit = (groups, _build_plan(groups, local_cols, value_ranks, n_bets))
        if len(_PLANS) >= 8:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[key] = hit
    return hit[1]


def _split(f: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Split a product of local factors (value, column) in two: values 0–4 and 5–9 when both
    occur (the halves are shared by many terms), else in the middle."""
    left = tuple(x for x in f if x[0] < 5)
    right = tuple(x for x in f if x[0] >= 5)
    if left and right:
        return left, right
    h = len(f) // 2
    return f[:h], f[h:]


def _build_plan(  # noqa: PLR0915 - flat array layout for the kernel, built in one pass
    groups: Sequence[GroupLike],
    local_cols: Sequence[tuple[str, int]],
    value_ranks: Sequence[Sequence[int]],
    n_bets: int,
) -> NumbaPlan:
    import numpy as np

    ncol = len(local_cols)
    one = 10 * ncol
    unit = local_cols.index(("P", 0))
    plain = {i: k for i, (kind, k) in enumerate(local_cols) if kind == "P"}
    memo: dict[tuple[tuple[int, int], ...], int] = {}
    pa: list[int] = []
    pb: list[int] = []

    def row(f: tuple[tuple[int, int], ...]) -> int:
        if len(f) == 1:
            return f[0][0] * ncol + f[0][1]
        hit = memo.get(f)
        if hit is None:
            a, b = _split(f)
            ra, rb = row(a), row(b)
            hit = memo[f] = one + 1 + len(pa)
            pa.append(ra)
            pb.append(rb)
        return hit

    ta: list[int] = []
    tb: list[int] = []
    toff = [0]
    tileptr = [0]
    colidx: list[int] = []
    vals: list[int] = []
    shifts: list[int] = []
    outcol: list[int] = []
    coff = [0]
    copies: list[tuple[int, int]] = []
    weight_sum = 0
    pcol = {k: i for i, k in plain.items()}
    for g in groups:
        size = 4 if g.four else 6
        nb = len(g.bets)
        terms = np.concatenate([g.left_keys[g.left_index], g.right_keys[g.right_index]], axis=1)
        rows: dict[tuple[int, ...], list[int]] = {}
        for t, w in zip(terms.tolist(), g.weights.tolist(), strict=True):
            old = rows.setdefault(tuple(t), [0] * nb)
            rows[tuple(t)] = [x + int(y) for x, y in zip(old, w, strict=True)]
        # Every plain term ∏ (n_v)_k counts K!/∏k! value sequences; together they count all
        # (N)_K sequences. Plain terms missing from the group (zero weights) are added here,
        # so that a shift by a multiple of the plain terms' multiplicities stays exact.
        for kv in combinations_with_replacement(range(10), size):
            key = tuple(pcol[kv.count(v)] for v in range(10))
            rows.setdefault(key, [0] * nb)
        mult = {
            key: factorial(size) // prod(factorial(plain[c]) for c in key)
            if all(c in plain for c in key)
            else 0
            for key in rows
        }
        group_shifts = [
            _best_shift([w[j] for w in rows.values()], list(mult.values())) for j in range(nb)
        ]
        # Bets with the same shift and shifted weights (Player and Banker Natural, Player and
        # Banker Pair: the terms are symmetric in the two hands) are computed once and copied.
        first: dict[tuple[int, ...], int] = {}
        for j in range(nb):
            col = tuple(w[j] + group_shifts[j] * mult[key] for key, w in rows.items())
            weight_sum = max(weight_sum, sum(abs(x) for x in col))
            src = first.setdefault((group_shifts[j], *col), j)
            if src != j:
                copies.append((g.bets[j], g.bets[src]))
        keep = sorted(first.values())
        nb = len(keep)
        terms_w: list[tuple[int, int, list[int]]] = []
        for key, w in rows.items():
            shifted = [w[j] + group_shifts[j] * mult[key] for j in keep]
            if not any(shifted):
                continue
            f = tuple((v, c) for v, c in enumerate(key) if c != unit)
            a, b = (row(f), one) if len(f) == 1 else (row(_split(f)[0]), row(_split(f)[1]))
            terms_w.append((a, b, shifted))
        # Tiles of TILE terms: terms with the same non-zero columns side by side, so that a
        # tile's columns are few and its weights rarely zero. Padding terms are 1·1 with weight 0.
        terms_w.sort(key=lambda t: (tuple(y == 0 for y in t[2]), t[0], t[1]))
        terms_w += [(one, one, [0] * nb)] * (-len(terms_w) % TILE)
        for i in range(0, len(terms_w), TILE):
            tile = terms_w[i : i + TILE]
            for a, b, _ in tile:
                ta.append(a)
                tb.append(b)
            for j in range(nb):
                if any(w[j] for _, _, w in tile):
                    colidx.append(j)
                    vals.extend(w[j] for _, _, w in tile)
            tileptr.append(len(colidx))
        toff.append(len(ta))
        shifts.extend(group_shifts[j] for j in keep)
        outcol.extend(g.bets[j] for j in keep)
        coff.append(len(outcol))
    ranks = np.zeros((10, 4), dtype=np.int64)
    for v, rs in enumerate(value_ranks):
        ranks[v, : len(rs)] = rs

    read = set(pa + pb + ta + tb)

    def arr(xs: Sequence[int], dtype: Any = np.int64) -> IntArray:
        return np.array(xs, dtype=dtype)

    return NumbaPlan(
        value_ranks=ranks,
        value_nranks=arr([len(rs) for rs in value_ranks]),
        col_kind=arr([_KINDS.index(kind) for kind, _ in local_cols]),
        col_k=arr([k for _, k in local_cols]),
        used=arr([r in read for r in range(one)], np.uint8),
        pa=arr(pa, np.uint64),
        pb=arr(pb, np.uint64),
        ta=arr(ta, np.uint64),
        tb=arr(tb, np.uint64),
        toff=arr(toff),
        tileptr=arr(tileptr),
        colidx=arr(colidx),
        weights=tuple(vals),
        shifts=tuple(shifts),
        outcol=arr(outcol),
        coff=arr(coff),
        four=arr([g.four for g in groups], np.uint8),
        weight_sum=weight_sum,
        max_terms=max((toff[i + 1] - toff[i] for i in range(len(groups))), default=0),
        n_bets=n_bets,
        copies=tuple(copies),
    )


def _best_shift(column: Sequence[int], mult: Sequence[int]) -> int:
    """The s making the most weights ``w + s·mult`` zero (0 unless another s zeroes more).

    Terms with mult = 0 keep their weight whatever s is; a term with mult ≠ 0 is zeroed by
    exactly one s, ``−w / mult`` if that is an integer: count those votes.
    A bet that loses its stake on most outcomes has ``w = −mult`` on many terms: s = 1.

    >>> _best_shift([-2, -4, 6, 0], [2, 4, 1, 0])
    1
    """
    votes: dict[int, int] = {0: 0}
    for w, m in zip(column, mult, strict=True):
        if m and w % m == 0:
            votes[-w // m] = votes.get(-w // m, 0) + 1
    return max(votes, key=lambda s: (votes[s], s == 0))


def split_limbs(modulus: Modulus, narrow: bool, n_max: int) -> bool:
    """Whether the kernel may multiply weights by terms in 31-bit limbs (``split`` in
    ``_numba_kernel.evaluate``): every weight fits in int32 (``narrow``) and every term residue
    is below 2⁶². For a prime that always holds (residues are below p < 2³²). For the word it
    holds when ``(N)₆ < 2⁶²`` for the largest shoe, because then no value wraps: every term
    is a product of local factors that counts ordered sequences of at most six distinct cards
    of the shoe, at most ``(N)₆`` (N ≥ 6), so its residue is the count itself.

    >>> n = max(n for n in range(1200, 1400) if perm(n, 6) < 1 << 62)
    >>> n, split_limbs(WORD, True, n), split_limbs(WORD, True, n + 1)
    (1292, True, False)
    >>> split_limbs(Modulus(32, 5), True, 10**6), split_limbs(WORD, False, 416)
    (True, False)
    """
    return narrow and (not modulus.is_word or perm(n_max, 6) < 1 << 62)


def evaluate_numba(
    plan: NumbaPlan, counts: IntArray, modulus: Modulus, *, wide: bool = False
) -> IntArray:
    """Residues modulo ``modulus`` (uint64, states × bets) of every numerator, by the kernel;
    in 31-bit limbs when :func:`split_limbs` allows and not ``wide`` (tests force both).

    For a prime p, every state must have fewer than p cards: the kernel then takes every count
    (and every n − i ≥ 0 of a falling factorial) as its own residue, with no division.
    ``shoe_counts`` allows at most 52,000 cards, far below the primes :func:`choose_moduli`
    picks (above 2²² for any group of fewer than 2¹⁸ terms); a larger state is refused here.
    """
    import numpy as np

    from exactodds.analysis import _numba_kernel

    n, ranks, suits = counts.shape
    flat = np.ascontiguousarray(counts.reshape(n, ranks * suits), dtype=np.int64)
    out = np.zeros((len(flat), plan.n_bets), dtype=np.uint64)
    if not len(flat):
        return out
    vals, shifts, narrow = plan.residues(modulus)
    n_max = int(flat.sum(axis=1).max())
    if not modulus.is_word and n_max >= modulus.value:
        prime = modulus.value
        raise ShoeError(f"a shoe state of {n_max:,} cards reaches the kernel's prime {prime}")
    split = not wide and split_limbs(modulus, narrow, n_max)
    if modulus.is_word:
        p = k = c = mask = 0
    else:
        p, k, c, mask = modulus.value, modulus.bits, modulus.c, (1 << modulus.bits) - 1
    u = np.uint64
    _numba_kernel.evaluate(
        flat,
        (u(p), u(k), u(c), u(mask)),
        plan.value_ranks,
        plan.value_nranks,
        plan.col_kind,
        plan.col_k,
        plan.used,
        plan.pa,
        plan.pb,
        plan.ta,
        plan.tb,
        plan.toff,
        plan.tileptr,
        plan.colidx,
        vals,
        shifts,
        plan.outcol,
        plan.coff,
        plan.four,
        _BLOCK,
        split,
        out,
    )
    for bet, src in plan.copies:
        out[:, bet] = out[:, src]
    return out
