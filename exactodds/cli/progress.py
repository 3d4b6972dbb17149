"""One progress display for long jobs: on a terminal (stderr) once a job has run 2 seconds.

Shows the work done, the rate and the time left, drawn by :mod:`rich` (a dependency of typer,
imported only when a display is shown); nothing at all when stderr is not a terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from exactodds.cli.process import no_color

__all__ = ["DELAY", "counting_progress", "progress_display"]

DELAY = 2.0
"""Seconds a job runs before its progress is shown."""

Update = Callable[[int, int], None]


@contextmanager
def progress_display(label: str, unit: str) -> Iterator[Update | None]:
    """A ``(done, total)`` callback drawing a progress bar on stderr, or None when stderr is
    not a terminal.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()):
    ...     with progress_display("simulate", "shoes") as update:
    ...         print(update)
    None
    """
    if not sys.stderr.isatty():
        yield None
        return
    display = _Display(label, unit)
    try:
        yield display.update
    finally:
        display.close()


@contextmanager
def counting_progress() -> Iterator[None]:
    """Show the card engine's counts (:data:`exactodds.cpus.COUNT_PROGRESS`) on a
    progress bar while the block runs, once a count has taken :data:`DELAY` seconds, on a
    terminal only (the engine, and numpy, imported only by a command that counts)."""
    if not sys.stderr.isatty():
        yield
        return
    from exactodds.cpus import COUNT_PROGRESS

    display = _Display("counting", "blocks")
    token = COUNT_PROGRESS.set(display.update)
    try:
        yield
    finally:
        COUNT_PROGRESS.reset(token)
        display.close()


class _Display:
    """Starts a :class:`rich.progress.Progress` on the first update after :data:`DELAY`."""

    def __init__(self, label: str, unit: str) -> None:
        self.label, self.unit = label, unit
        self.start = time.monotonic()
        self.bar: Any = None
        self.task: Any = None

    def update(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        if self.bar is None:
            if elapsed < DELAY:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=Console(stderr=True, color_system=None if no_color() else "auto"),
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, rate="")
        rate = done / elapsed if elapsed > 0 else 0.0
        self.bar.update(self.task, completed=done, rate=f"{rate:,.0f} {self.unit}/s")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
