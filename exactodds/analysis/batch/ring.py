"""Arithmetic of the batch evaluator on numpy arrays: exact (Python ints), modulo 2⁶⁴ (uint64
wrap-around) or modulo a prime below 2³² (the moduli and the Chinese remainders that recombine
them are in :mod:`exactodds.analysis.kernel`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exactodds.analysis.kernel import Modulus

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.analysis.batch.basis import TermGroup

    IntArray = npt.NDArray[Any]

__all__ = ["Ring"]


@dataclass(frozen=True)
class Ring:
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

    def weights(self, group: TermGroup) -> IntArray:
        """The group's weights as ring elements (see :func:`kernel.weight_residues`)."""
        from exactodds.analysis.kernel import weight_residues

        if self.modulus is None:
            return group.weights.astype(object)
        return weight_residues(group.weights, self.modulus, group.col_abs_sum)
