"""The card engine's progress callback in force, light to import: the CLI sets it for a
progress bar on a terminal without importing the engine (and numpy) for a cheap command."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

__all__ = ["COUNT_PROGRESS"]

COUNT_PROGRESS: ContextVar[Callable[[int, int], None] | None] = ContextVar(
    "exactodds_count_progress", default=None
)
"""The ``progress`` of every :func:`~exactodds.counting.row_counts` not given one (the CLI's
progress bar)."""
