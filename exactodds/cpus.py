"""The CPUs this process may use: how many worker processes a parallel job can run at once."""

from __future__ import annotations

import os

__all__ = ["available_cpus"]


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one).

    >>> available_cpus() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - no affinity masks (macOS, Windows)
        return os.cpu_count() or 1
