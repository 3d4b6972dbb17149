"""The batch evaluator's hot loop, compiled by numba (extra ``fast``); see :mod:`.kernel`.

Imported only when evaluating with numba. Everything is computed modulo one modulus per call:
``p == 0`` means 2⁶⁴ (plain uint64 arithmetic, which wraps), otherwise p = 2ᵏ − c is a prime
below 2³² and every value is kept reduced below p. The code is single-threaded (no
``parallel=True``): the throughput target is per core, and callers may run processes in
parallel. Compiled code is cached on disk (see :func:`_jit`).

States are processed in blocks of ``block`` states, one per SIMD lane: the local factors of a
block are laid out as rows of ``buf`` (row × lane), so every product and weighted sum below is a
loop over lanes that LLVM vectorises. ``block`` is a runtime argument so that these loops are
vectorised rather than fully unrolled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])
U0 = np.uint64(0)
U1 = np.uint64(1)


def _jit(signature: str | None = None) -> Callable[[F], F]:
    """Compile in nopython mode, releasing the GIL; with a signature, once for exactly those
    types (no specialisation per literal argument: faster to compile).

    Compiled code is cached on disk: in ``__pycache__`` beside this file, else (read-only
    install) in numba's user-wide cache directory; with neither writable, numba refuses to
    cache and the kernel is compiled in each process instead.
    """

    def wrap(f: F) -> F:
        try:
            return cast(F, numba.njit(signature, cache=True, nogil=True)(f))
        except RuntimeError as exc:  # "cannot cache function …: no locator available"
            if "cannot cache" not in str(exc):
                raise
            return cast(F, numba.njit(signature, nogil=True)(f))

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


@_jit("uint64(int64, uint64)")
def _count(n: Any, p: Any) -> Any:
    """A card count (int64; negative means none left) as a reduced residue (no division
    unless the count reaches p)."""
    if n <= 0:
        return U0
    u = np.uint64(n)
    return u % p if p != 0 and u >= p else u


@_jit("uint64(int64, int64, " + _M + ")")
def _falling(n: Any, kk: Any, m: Any) -> Any:
    """(n)_kk modulo p; 0 when n < kk."""
    out = U1
    for i in range(kk):
        out = _mul(out, _count(n - i, m[0]), m)
    return out


@_jit(
    "void(int64[::1], "
    + _M
    + ", int64[:, ::1], int64[::1], int64[::1], int64[::1], uint8[::1], uint64[:, ::1], int64,"
    + " uint64[:, ::1])"
)
def _local_factors(  # noqa: PLR0917 - numba takes arrays positionally
    cnt: Any,
    m: Any,
    ranks: Any,
    nranks: Any,
    col_kind: Any,
    col_k: Any,
    used: Any,
    buf: Any,
    lane: Any,
    work: Any,
) -> None:
    """Every local factor column of every value of one state (``cnt``: 52 counts, rank-major)
    that the plan uses (``used[v·ncol + col]``) into ``buf[v·ncol + col, lane]``: the same
    formulas as ``batch._local_table``. ``work`` (at least 4 × 7) is scratch space."""
    ncol = len(col_kind)
    p = m[0]
    for v in range(10):
        n = 0
        sv = U0  # Σ over cards c of this value of (n_c)₂: ordered same-card pairs
        rv = U0  # Σ over ranks r of (n_r)₂: ordered same-rank pairs
        sv2 = U0  # Σ (n_c)₂²
        sv4 = U0  # Σ (n_c)₄
        rv2 = U0
        rv4 = U0
        for i in range(nranks[v]):
            r = ranks[v, i]
            nr = 0
            same = U0  # Σ over the rank's cards of (n_c)₂
            for s in range(4):
                a = cnt[r * 4 + s]
                nr += a
                a2 = _falling(a, 2, m)
                same = _add(same, a2, p)
                sv2 = _add(sv2, _mul(a2, a2, m), p)
                sv4 = _add(sv4, _mul(a2, _falling(a - 2, 2, m), m), p)
            sv = _add(sv, same, p)
            n += nr
            r2 = _falling(nr, 2, m)
            rv = _add(rv, r2, p)
            rv2 = _add(rv2, _mul(r2, r2, m), p)
            rv4 = _add(rv4, _mul(r2, _falling(nr - 2, 2, m), m), p)
            work[3, i] = same
            work[3, 4 + i] = _sub(_falling(nr - 2, 2, m), r2, p)  # (n_r − 2)₂ − (n_r)₂
        # two disjoint same-rank pairs: rv² − Σ(n_r)₂² + Σ(n_r)₄; same for cards
        rr = _add(_sub(_mul(rv, rv, m), rv2, p), rv4, p)
        ss = _add(_sub(_mul(sv, sv, m), sv2, p), sv4, p)
        rs = U0  # a same-card pair, then a same-rank pair from the cards left
        for i in range(nranks[v]):
            rs = _add(rs, _mul(work[3, i], _add(rv, work[3, 4 + i], p), m), p)
        # work[u, j] = (n − 2u)_j: the plain tail after u pairs
        for u in range(3):
            f = U1
            work[u, 0] = f
            for j in range(1, 7 - 2 * u):
                f = _mul(f, _count(n - 2 * u - j + 1, p), m)
                work[u, j] = f
        for col in range(ncol):
            if not used[v * ncol + col]:
                continue
            kind = col_kind[col]  # P, R, S, RR, RS, SS: the pairs in front, then a plain tail
            front = U1 if kind == 0 else rv if kind == 1 else sv if kind == 2 else rr
            front = rs if kind == 4 else ss if kind == 5 else front
            pairs = 0 if kind == 0 else (1 if kind < 3 else 2)
            buf[v * ncol + col, lane] = _mul(front, work[pairs, col_k[col] - 2 * pairs], m)


@_jit()
def evaluate(  # noqa: PLR0917 - numba takes arrays positionally
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
    work = np.empty((4, 8), np.uint64)
    low = np.uint64((1 << 31) - 1)
    u31 = np.uint64(31)
    two31 = _count(1 << 31, p)  # 2³¹ mod p
    for j in range(block):
        buf[one, j] = U1
    for s0 in range(0, n_states, block):
        ns = min(block, n_states - s0)
        for j in range(block):
            src = s0 + min(j, ns - 1)  # lanes past the last state repeat it
            _local_factors(counts[src], m, ranks, nranks, col_kind, col_k, used, buf, j, work)
            n = 0
            for q in range(counts.shape[1]):
                n += counts[src, q]
            ff4[j] = _falling(n, 4, m)
            ff6[j] = _falling(n, 6, m)
            tail[j] = _falling(n - 4, 2, m)
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
