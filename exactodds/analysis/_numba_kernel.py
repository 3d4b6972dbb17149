"""The batch evaluator's hot loop, compiled by numba (extra ``fast``); see :mod:`.kernel`.

Imported only when evaluating with numba. Everything is computed modulo one modulus per call:
``p == 0`` means 2⁶⁴ (plain uint64 arithmetic, which wraps), otherwise p = 2ᵏ − c is a prime
below 2³² and every value is kept reduced below p. The code is single-threaded (no
``parallel=True``): the throughput target is per core, and callers may run processes in
parallel. Compiled code is cached on disk (see :func:`_jit`).

States are processed in blocks of ``block`` states, one per SIMD lane: the block's card counts,
its local factors and their products are laid out as rows (row × lane), so every step below,
from the falling factorials of the counts to the weighted sums, is a loop over lanes that
LLVM vectorises (numba turns off SLP vectorisation: straight-line code per lane stays scalar).
``block`` is a runtime argument so that these loops are vectorised rather than fully unrolled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])
U0 = np.uint64(0)
U1 = np.uint64(1)


def _jit(signature: str | None = None, **options: Any) -> Callable[[F], F]:
    """Compile in nopython mode, releasing the GIL; with a signature, once for exactly those
    types (no specialisation per literal argument: faster to compile).

    Compiled code is cached on disk: in ``__pycache__`` beside this file, else (read-only
    install) in numba's user-wide cache directory; with neither writable, numba refuses to
    cache and the kernel is compiled in each process instead.
    """

    def wrap(f: F) -> F:
        try:
            return cast(F, numba.njit(signature, cache=True, nogil=True, **options)(f))
        except RuntimeError as exc:  # "cannot cache function …: no locator available"
            if "cannot cache" not in str(exc):
                raise
            return cast(F, numba.njit(signature, nogil=True, **options)(f))

    return wrap


_M = "UniTuple(uint64, 4)"  # the modulus (p, k, c, 2**k - 1); p = 0 means 2**64


@_jit("uint64(uint64, " + _M + ")")
def _fold(t: Any, m: Any) -> Any:
    """t mod p for t < 2²ᵏ, where ``m = (p, k, c, 2ᵏ − 1)``, p = 2ᵏ − c and c² + c < p.

    2ᵏ ≡ c (mod p), so t = h·2ᵏ + l ≡ h·c + l. After one fold t < 2ᵏ(c + 1); after the second
    t ≤ c² + 2ᵏ − 1 < 2p, so one subtraction finishes. Every step fits in 64 bits.
    """
    p, k, c, mask = m
    t = (t >> k) * c + (t & mask)
    t = (t >> k) * c + (t & mask)
    return t - p if t >= p else t


@_jit("uint64(uint64, uint64, " + _M + ")")
def _mul(a: Any, b: Any, m: Any) -> Any:
    """a·b modulo p (2⁶⁴ when p == 0)."""
    if m[0] == 0:
        return a * b
    return _fold(a * b, m)


@_jit("uint64(uint64, uint64, uint64)")
def _add(a: Any, b: Any, p: Any) -> Any:
    """a + b modulo p, for reduced a and b."""
    if p == 0:
        return a + b
    s = a + b
    return s - p if s >= p else s


@_jit("uint64(uint64, uint64, uint64)")
def _sub(a: Any, b: Any, p: Any) -> Any:
    """a − b modulo p, for reduced a and b."""
    if p == 0:
        return a - b
    return a - b if a >= b else a + (p - b)


@_jit("uint64(int64, int64)")
def _cnt(n: Any, i: Any) -> Any:
    """max(n − i, 0) as a residue: the caller ensures n < p for a prime (no reduction)."""
    return np.uint64(n - i) if n > i else U0


# Rows of the local factors' scratch table (row × lane): the constant 1; sums over the cards
# (S) and ranks (R) of one value, squared (2) and of disjoint pairs (4); two pairs of the value
# (RR, SS, RS); per rank (4 rows each) its cards' pairs and (n_r − 2)₂ − (n_r)₂; the plain
# tails (n − 2u)_k (3 × 7 rows).
_ONE, _SV, _SV2, _SV4, _RV, _RV2, _RV4, _RR, _SS, _RS = range(10)
_SAME, _REST, _TAIL = 10, 14, 18
_ROWS = _TAIL + 3 * 7


@_jit(inline="always")  # inlined by numba: see _local_factors
def _local_body(  # noqa: PLR0912, PLR0917 - one compiled loop nest; numba takes arrays positionally
    ct: Any,
    m: Any,
    ranks: Any,
    nranks: Any,
    col_kind: Any,
    col_k: Any,
    used: Any,
    buf: Any,
    t: Any,
    n: Any,
) -> None:
    """Every local factor column of every value that the plan uses (``used[v·ncol + col]``)
    for a block of states into ``buf[v·ncol + col, lane]``: the same formulas as
    ``batch.evaluator._local_table``. ``ct`` holds the block's card counts (52 rows, rank-major, ×
    lanes); for a prime every count must be below p, so that max(n − i, 0) is already reduced
    (:func:`_cnt`; the caller checks the state sizes). ``t`` (``_ROWS`` × lanes) and ``n``
    (3 × lanes: the value's count, a rank's count, the state's total, left in ``n[2]``) are
    scratch space. Each step is a loop over the lanes, which LLVM vectorises."""
    p = m[0]
    block = ct.shape[1]
    ncol = len(col_kind)
    for j in range(block):
        t[_ONE, j] = U1
        n[2, j] = 0
    for v in range(10):
        for row in range(_ONE + 1, _RR):
            for j in range(block):
                t[row, j] = U0
        for j in range(block):
            n[0, j] = 0
        for i in range(nranks[v]):
            same = _SAME + i  # Σ over the rank's cards of (n_c)₂
            for j in range(block):
                t[same, j] = U0
                n[1, j] = 0
            for s in range(4):
                q = ranks[v, i] * 4 + s
                for j in range(block):
                    a = ct[q, j]
                    n[1, j] += a
                    a2 = _mul(_cnt(a, 0), _cnt(a, 1), m)
                    t[same, j] = _add(t[same, j], a2, p)
                    t[_SV2, j] = _add(t[_SV2, j], _mul(a2, a2, m), p)
                    a4 = _mul(a2, _mul(_cnt(a, 2), _cnt(a, 3), m), m)
                    t[_SV4, j] = _add(t[_SV4, j], a4, p)
            for j in range(block):
                nr = n[1, j]
                n[0, j] += nr
                r2 = _mul(_cnt(nr, 0), _cnt(nr, 1), m)
                rest = _mul(_cnt(nr, 2), _cnt(nr, 3), m)  # (n_r − 2)₂
                t[_SV, j] = _add(t[_SV, j], t[same, j], p)
                t[_RV, j] = _add(t[_RV, j], r2, p)
                t[_RV2, j] = _add(t[_RV2, j], _mul(r2, r2, m), p)
                t[_RV4, j] = _add(t[_RV4, j], _mul(r2, rest, m), p)
                t[_REST + i, j] = _sub(rest, r2, p)  # (n_r − 2)₂ − (n_r)₂
        for j in range(block):
            n[2, j] += n[0, j]
            rv = t[_RV, j]
            sv = t[_SV, j]
            # two disjoint same-rank pairs: rv² − Σ(n_r)₂² + Σ(n_r)₄; same for cards
            t[_RR, j] = _add(_sub(_mul(rv, rv, m), t[_RV2, j], p), t[_RV4, j], p)
            t[_SS, j] = _add(_sub(_mul(sv, sv, m), t[_SV2, j], p), t[_SV4, j], p)
            t[_RS, j] = U0
        for i in range(nranks[v]):  # a same-card pair, then a same-rank pair from the cards left
            for j in range(block):
                rest = _add(t[_RV, j], t[_REST + i, j], p)
                t[_RS, j] = _add(t[_RS, j], _mul(t[_SAME + i, j], rest, m), p)
        for u in range(3):  # t[_TAIL + 7u + k] = (n − 2u)_k: the plain tail after u pairs
            row = _TAIL + 7 * u
            for j in range(block):
                t[row, j] = U1
            for k in range(1, 7 - 2 * u):
                for j in range(block):
                    t[row + k, j] = _mul(t[row + k - 1, j], _cnt(n[0, j], 2 * u + k - 1), m)
        for col in range(ncol):
            if not used[v * ncol + col]:
                continue
            kind = col_kind[col]  # P, R, S, RR, RS, SS: the pairs in front, then a plain tail
            front = _ONE if kind == 0 else _RV if kind == 1 else _SV if kind == 2 else _RR
            front = _RS if kind == 4 else _SS if kind == 5 else front
            pairs = 0 if kind == 0 else (1 if kind < 3 else 2)
            tail = _TAIL + 7 * pairs + col_k[col] - 2 * pairs
            for j in range(block):
                buf[v * ncol + col, j] = _mul(t[front, j], t[tail, j], m)


@_jit(
    "void(int64[:, ::1], "
    + _M
    + ", int64[:, ::1], int64[::1], int64[::1], int64[::1], uint8[::1], uint64[:, ::1],"
    + " uint64[:, ::1], int64[:, ::1])"
)
def _local_factors(  # noqa: PLR0917 - numba takes arrays positionally
    ct: Any,
    m: Any,
    ranks: Any,
    nranks: Any,
    col_kind: Any,
    col_k: Any,
    used: Any,
    buf: Any,
    t: Any,
    n: Any,
) -> None:
    """Every local factor that the plan uses for a block of states (see :func:`_local_body`).

    The body is inlined twice so that, in the first copy, LLVM knows that p == 0: the word's
    arithmetic then has no branches left and its loops vectorise fully (1.7× faster here).
    """
    if m[0] == 0:
        _local_body(ct, m, ranks, nranks, col_kind, col_k, used, buf, t, n)
    else:
        _local_body(ct, m, ranks, nranks, col_kind, col_k, used, buf, t, n)


@_jit()
def evaluate(  # noqa: PLR0912, PLR0915, PLR0917 - one compiled loop nest, positional arrays
    counts: Any,
    m: Any,
    ranks: Any,
    nranks: Any,
    col_kind: Any,
    col_k: Any,
    used: Any,
    pa: Any,
    pb: Any,
    ta: Any,
    tb: Any,
    toff: Any,
    tileptr: Any,
    colidx: Any,
    vals: Any,
    shifts: Any,
    outcol: Any,
    coff: Any,
    four: Any,
    block: Any,
    split: Any,
    out: Any,
) -> None:
    """Numerators modulo p of every bet for every state into ``out`` (states × bets, uint64).

    ``vals`` holds the weight residues (uint64; two's complement when negative). A weighted
    sum ``Σ w·x`` is accumulated in one of two ways (the caller chooses, see
    :func:`.kernel.evaluate_numba`):

    - wide: ``Σ w·x`` in uint64, one 64-bit multiplication per weight and term (for a prime,
      the caller chose weights with ``Σ|w|·(p−1) < 2⁶³``: the int64 view is exact);
    - ``split``: each term as two limbs ``x = x₀ + 2³¹·x₁`` with x₀ < 2³¹, and two sums
      ``A = Σ w·x₀``, ``B = Σ w·x₁``; then ``Σ w·x = A + 2³¹·B``. Valid when every weight
      and every x₁ fits in a signed 32-bit int: each product is then a 32 × 32 → 64-bit
      multiplication (``vpmuldq``, several times cheaper than a 64-bit one), exact. For
      the word the sums wrap modulo 2⁶⁴, which is all that is needed; for a prime
      |A| ≤ Σ|w|·(p−1) < 2⁶³ and |B| ≤ Σ|w| are exact int64.
    """
    p = m[0]
    n_states = counts.shape[0]
    n_groups = len(toff) - 1
    one = 10 * len(col_kind)
    width = 1
    for g in range(n_groups):
        width = max(width, coff[g + 1] - coff[g])
    buf = np.empty((one + 1 + len(pa), block), np.uint64)
    x = np.empty((4, block), np.uint64)  # the terms of one tile (wide)
    x0 = np.empty((4, block), np.int64)  # their low and high limbs (split)
    x1 = np.empty((4, block), np.int64)
    acc = np.empty((width, block), np.uint64)
    acc0 = np.empty((width, block), np.int64)
    acc1 = np.empty((width, block), np.int64)
    ff4 = np.empty(block, np.uint64)
    ff6 = np.empty(block, np.uint64)
    tail = np.empty(block, np.uint64)
    ct = np.empty((counts.shape[1], block), np.int64)
    scratch = np.empty((_ROWS, block), np.uint64)
    nn = np.empty((3, block), np.int64)
    low = np.uint64((1 << 31) - 1)
    u31 = np.uint64(31)
    two31 = np.uint64(1 << 31) if p == 0 else np.uint64(1 << 31) % p  # 2³¹ mod p
    for j in range(block):
        buf[one, j] = U1
    for s0 in range(0, n_states, block):
        ns = min(block, n_states - s0)
        for j in range(block):
            src = s0 + min(j, ns - 1)  # lanes past the last state repeat it
            for q in range(counts.shape[1]):
                ct[q, j] = counts[src, q]
        _local_factors(ct, m, ranks, nranks, col_kind, col_k, used, buf, scratch, nn)
        for j in range(block):
            n = nn[2, j]
            ff4[j] = _mul(_mul(_cnt(n, 0), _cnt(n, 1), m), _mul(_cnt(n, 2), _cnt(n, 3), m), m)
            tail[j] = _mul(_cnt(n, 4), _cnt(n, 5), m)
            ff6[j] = _mul(ff4[j], tail[j], m)
        for i in range(len(pa)):
            a = pa[i]
            b = pb[i]
            d = one + 1 + i
            if p == 0:
                for j in range(block):
                    buf[d, j] = buf[a, j] * buf[b, j]
            else:
                for j in range(block):
                    buf[d, j] = _fold(buf[a, j] * buf[b, j], m)
        for g in range(n_groups):
            c0 = coff[g]
            nc = coff[g + 1] - c0
            for col in range(nc):
                for j in range(block):
                    acc[col, j] = U0
                    acc0[col, j] = 0
                    acc1[col, j] = 0
            for tile in range(toff[g] // 4, toff[g + 1] // 4):
                for i in range(4):
                    a = ta[4 * tile + i]
                    b = tb[4 * tile + i]
                    if p == 0 and split:
                        for j in range(block):
                            t = buf[a, j] * buf[b, j]
                            x0[i, j] = np.int64(t & low)
                            x1[i, j] = np.int64(t >> u31)
                    elif split:
                        for j in range(block):
                            t = _fold(buf[a, j] * buf[b, j], m)
                            x0[i, j] = np.int64(t & low)
                            x1[i, j] = np.int64(t >> u31)
                    elif p == 0:
                        for j in range(block):
                            x[i, j] = buf[a, j] * buf[b, j]
                    else:
                        for j in range(block):
                            x[i, j] = _fold(buf[a, j] * buf[b, j], m)
                for e in range(tileptr[tile], tileptr[tile + 1]):
                    col = colidx[e]
                    if split:
                        # int32 round trips: LLVM then multiplies with vpmuldq (exact: see above)
                        v0 = np.int64(np.int32(vals[4 * e]))
                        v1 = np.int64(np.int32(vals[4 * e + 1]))
                        v2 = np.int64(np.int32(vals[4 * e + 2]))
                        v3 = np.int64(np.int32(vals[4 * e + 3]))
                        for j in range(block):
                            acc0[col, j] += (
                                np.int64(np.int32(x0[0, j])) * v0
                                + np.int64(np.int32(x0[1, j])) * v1
                                + np.int64(np.int32(x0[2, j])) * v2
                                + np.int64(np.int32(x0[3, j])) * v3
                            )
                            acc1[col, j] += (
                                np.int64(np.int32(x1[0, j])) * v0
                                + np.int64(np.int32(x1[1, j])) * v1
                                + np.int64(np.int32(x1[2, j])) * v2
                                + np.int64(np.int32(x1[3, j])) * v3
                            )
                    else:
                        w0 = vals[4 * e]
                        w1 = vals[4 * e + 1]
                        w2 = vals[4 * e + 2]
                        w3 = vals[4 * e + 3]
                        for j in range(block):
                            acc[col, j] += x[0, j] * w0 + x[1, j] * w1 + x[2, j] * w2 + x[3, j] * w3
            for col in range(nc):
                shift = shifts[c0 + col]
                bet = outcol[c0 + col]
                for j in range(ns):
                    if p == 0:
                        r = acc[col, j]
                        if split:
                            r = np.uint64(acc0[col, j]) + (np.uint64(acc1[col, j]) << u31)
                    elif split:
                        r0 = np.uint64(acc0[col, j] % np.int64(p))
                        r1 = np.uint64(acc1[col, j] % np.int64(p))
                        r = _add(r0, _mul(r1, two31, m), p)
                    else:
                        r = np.uint64(np.int64(acc[col, j]) % np.int64(p))
                    if four[g]:
                        r = _sub(r, _mul(shift, ff4[j], m), p)
                        r = _mul(r, tail[j], m)
                    else:
                        r = _sub(r, _mul(shift, ff6[j], m), p)
                    out[s0 + j, bet] = r
