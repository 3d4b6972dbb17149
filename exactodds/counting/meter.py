"""The work a count of the card engine did, counted rather than timed (the same on every
machine): what :mod:`exactodds.counting.probe` extrapolates from a sample of blocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

HEAVY_FEATURES = (".poker", ".colour")
"""Features whose elements cost several array operations each (counted apart: ``heavy``)."""


@dataclass
class Meter:
    """Array elements the conditions computed (``heavy``: a poker category's or a hand's
    colour), Python steps (nodes evaluated, settles), blocks run, prefixes visited and of how
    many. With ``pick``, only the prefixes it picks run (a probe's sample), until ``enough``
    says so."""

    pick: Callable[[int], Sequence[int]] | None = None
    enough: Callable[[Meter], bool] | None = None
    elements: int = 0
    heavy: int = 0
    steps: int = 0
    blocks: int = 0
    visited: int = 0
    of: int = 0

    def count(self, cache: Mapping[object, Any], mark: int, cells: Any, tested: int) -> None:
        """Count one settle of ``cells`` that tested ``tested`` conditions: the elements of
        the arrays it computed (those the round's ``cache`` gained since ``mark``) and of its
        cells, and a step per array."""
        made = list(cache.items())[mark:]
        self.steps += 1 + len(made)
        self.elements += int(np.size(cells)) * (2 + tested)
        for key, value in made:
            parts = value if isinstance(value, tuple) else (value,)
            size = sum(int(np.size(p)) for p in parts)
            if isinstance(key, str) and key.endswith(HEAVY_FEATURES):
                self.heavy += size
            else:
                self.elements += size
