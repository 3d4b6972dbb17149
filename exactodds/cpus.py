"""What a long computation runs with: the CPUs this process may use (how many worker processes a
parallel job can run at once), the CPU budget and the card engine's progress callback in force.
Light to import: the CLI sets both for every command without loading the engine (numpy)."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextvars import ContextVar

__all__ = ["BUDGET_IN_FORCE", "COUNT_PROGRESS", "available_cpus"]

BUDGET_IN_FORCE: ContextVar[float | None] = ContextVar("exactodds_budget", default=None)
"""The CPU budget in seconds in force (:func:`exactodds.bets.budget.spending`, a command's
``--budget``); None: ``EXACTODDS_BUDGET`` or the default."""

COUNT_PROGRESS: ContextVar[Callable[[int, int], None] | None] = ContextVar(
    "exactodds_count_progress", default=None
)
"""The ``progress`` of every :func:`~exactodds.counting.row_counts` not given one (the CLI's
progress bar)."""


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one).

    >>> available_cpus() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - no affinity masks (macOS, Windows)
        return os.cpu_count() or 1
