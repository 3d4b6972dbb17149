"""Worker processes that die with their parent and leave Ctrl-C to it.

A worker of ``simulate --workers N`` (a process pool) or of a local Dask cluster must not outlive
the command, however it ends: Ctrl-C, SIGTERM, SIGHUP or SIGKILL of the parent. So each worker

- asks the kernel for a signal when its parent dies (Linux ``PR_SET_PDEATHSIG``; elsewhere a
  thread that watches the parent's process id and ends the worker when it changes);
- ignores SIGINT: a terminal sends Ctrl-C to the whole process group, and only the parent
  should answer it (with one line), not every worker with a traceback;
- takes SIGTERM and SIGHUP with their default action (a forked worker would otherwise inherit
  the parent's handlers and raise in the middle of a task);
- starts with those signals blocked until it has set them (:func:`worker_context`), so one
  that lands just after the fork cannot run the parent's handler in the worker.

The parent, when interrupted, kills its workers (:func:`stop_pool`) instead of waiting for
their tasks to finish.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = [
    "die_with_parent",
    "quiet_children",
    "signals_deferred",
    "stop_pool",
    "worker_context",
    "worker_signals",
]

_PR_SET_PDEATHSIG = 1

_TERMINATING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that end a command (the parent answers them; a worker ignores or dies)."""


def die_with_parent(parent: int | None = None) -> None:
    """End this process when its parent (``parent``, the process id the parent gave; default:
    the current parent) dies (see the module docstring)."""
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux") and _prctl_deathsig(signal.SIGKILL):
        if os.getppid() != parent:  # the parent died before the request was made
            os._exit(1)
        return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _prctl_deathsig(sig: int) -> bool:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc with prctl
        return False


def _watch_parent(parent: int) -> None:  # pragma: no cover - platforms without prctl
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def worker_signals(parent: int | None = None) -> None:
    """A worker's signals: SIGINT ignored, SIGTERM and SIGHUP at their default action, and
    death with the parent (``parent``: its process id, as the parent saw it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # blocked since the fork (worker_context)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _TERMINATING)
    die_with_parent(parent)


def worker_context(method: str | None = None) -> Any:
    """The :mod:`multiprocessing` context ``method`` (default: the platform's), whose processes
    start with :data:`_TERMINATING` blocked until :func:`worker_signals` has set them. A
    signal landing just after a fork would otherwise run the parent's handler in the worker:
    a traceback on the terminal, and a worker that survives SIGTERM."""
    import multiprocessing

    base = multiprocessing.get_context(method)
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        return base

    class Process(base.Process):  # type: ignore[name-defined,misc]
        def start(self) -> None:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, _TERMINATING)
            try:
                super().start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    return type("WorkerContext", (type(base),), {"Process": Process})()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its pending tasks cancelled and its worker processes killed (the tasks
    they run are lost: the command is ending).

    Every child this process started is killed, not only those in the pool's table: a signal
    that lands between a worker's fork and its entry in that table leaves a worker only
    :mod:`multiprocessing` knows, waiting for work, and the interpreter would join it at exit
    (the command hung after its one line)."""
    import multiprocessing

    processes = {id(p): p for p in (getattr(pool, "_processes", None) or {}).values()}
    processes.update((id(p), p) for p in multiprocessing.active_children())
    for process in processes.values():
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            process.join(5)


@contextlib.contextmanager
def quiet_children() -> Iterator[None]:
    """Processes started while the block runs (a Dask cluster's workers, which Dask starts
    itself) get ``/dev/null`` as their stderr: Ctrl-C from a terminal reaches the whole process
    group, and each worker would print its traceback; this process answers with one line.
    Their errors still reach this process through Dask."""
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - no descriptor left: start them as they are
        yield
        return
    sys.stderr.flush()
    os.dup2(null, 2)
    os.close(null)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP that arrive while the block runs take effect when it ends
    (their handler then runs): a Dask cluster interrupted half-built cannot be closed cleanly
    and prints tracebacks at exit. In other threads the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    previous: dict[int, Any] = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        handler = signal.getsignal(sig) if sig is not None else None
        if sig is not None and callable(handler):
            previous[sig] = handler
            signal.signal(sig, lambda signum, frame: got.append(signum))
    try:
        yield
    except Exception:
        if not got:
            raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if got:
        previous[got[0]](got[0], None)  # raises KeyboardInterrupt or Terminated
