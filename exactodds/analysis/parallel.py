"""Chunks of a simulation run in parallel: a pool of local processes, or a Dask cluster (a
``LocalCluster`` on this machine or one reached by address). Each yields the tallies of a task
function applied to groups of chunks, as they finish; :mod:`~exactodds.analysis.simulate` merges
them (tallies add up in any order).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import Any, TypeVar

from more_itertools import chunked

from exactodds.analysis.scheduler import (
    CONNECT_TIMEOUT,
    WORKERS_TIMEOUT,
    one_line,
)
from exactodds.analysis.tally import Tally
from exactodds.analysis.workers import (
    quiet_children,
    signals_deferred,
    stop_pool,
    worker_context,
    worker_signals,
)
from exactodds.errors import MissingExtraError, SimulationError, about, quote

__all__ = ["NO_DASK", "dask_parts", "pool_parts", "tasks"]

J = TypeVar("J")
Task = Callable[[J, Sequence[Sequence[int]]], Tally]
"""Tallies a group of chunks of shoes for a job (a module-level function: it is pickled)."""

NO_DASK = "backend dask needs dask.distributed"

# -- local processes ----------------------------------------------------------------------------

_WORKER: dict[str, tuple[Task[Any], Any]] = {}


def _init_worker(run: Task[J], job: J, parent: int) -> None:
    worker_signals(parent)
    _WORKER["job"] = (run, job)


def _worker_task(chunks: Sequence[Sequence[int]]) -> Tally:
    run, job = _WORKER["job"]
    return run(job, chunks)


def tasks(
    chunks: Iterable[Sequence[int]], n_chunks: int, workers: int, most: int
) -> Iterator[list[Sequence[int]]]:
    """Chunks grouped into tasks of up to ``most`` chunks, merged in the worker (the parent
    then unpickles and adds fewer tallies), with about four tasks per worker at least.

    >>> [len(t) for t in tasks([range(1)] * 10, 10, workers=2, most=4)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> [len(t) for t in tasks([range(1)] * 40, 40, workers=2, most=4)]
    [4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    return chunked(chunks, max(1, min(most, n_chunks // (4 * workers))))


def pool_parts(
    run: Task[J], job: J, groups: Iterable[Sequence[Sequence[int]]], workers: int
) -> Iterator[Tally]:
    """Tallies of ``run(job, group)`` for each group of chunks from a pool of processes, as they
    finish; at most a few groups per worker are queued at a time (a run of 10⁸ shoes does not
    hold 10⁶ futures)."""
    pool = ProcessPoolExecutor(
        workers,
        mp_context=worker_context(),
        initializer=_init_worker,
        initargs=(run, job, os.getpid()),
    )
    try:
        yield from _bounded(lambda t: pool.submit(_worker_task, t), groups, 4 * workers)
    except BaseException:  # Ctrl-C, SIGTERM, an error, or the run abandoned: stop at once
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _bounded(
    submit: Callable[[Sequence[Sequence[int]]], Future[Tally]],
    items: Iterable[Sequence[Sequence[int]]],
    window: int,
) -> Iterator[Tally]:
    it = iter(items)
    pending = {submit(c) for c in islice(it, window)}
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for fut in done:
            yield fut.result()
        pending |= {submit(c) for c in islice(it, len(done))}


# -- Dask ---------------------------------------------------------------------------------------


def dask_parts(
    run: Task[J],
    job: J,
    chunks: Iterable[Sequence[int]],
    workers: int,
    scheduler: str | None,
    *,
    chunks_in_run: int,
) -> Iterator[Tally]:
    """Tallies of ``run`` on groups of chunks from a Dask cluster: a ``LocalCluster`` of
    ``workers`` processes on this machine (loopback only), or the cluster at ``scheduler``. A
    task deals several chunks and merges them in the worker; the job is sent to every worker
    once."""
    try:
        import distributed
    except ImportError:
        raise about(MissingExtraError(NO_DASK, "dask"), "backend") from None
    dd: Any = distributed  # partly typed: used through Any
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            with signals_deferred(), quiet_children():  # Ctrl-C: one line, no worker tracebacks
                cluster = dd.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                stack.enter_context(cluster)
            client = stack.enter_context(dd.Client(cluster))
        else:
            where = f"Dask scheduler at {quote(scheduler)}"
            try:
                client = stack.enter_context(
                    dd.Client(scheduler, timeout=f"{CONNECT_TIMEOUT:g}s", set_as_default=False)
                )
            except (OSError, TimeoutError, ValueError) as exc:
                raise SimulationError(f"cannot reach the {where}: {one_line(exc)}") from None
            try:
                client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise SimulationError(
                    f"the {where} has no workers (waited {WORKERS_TIMEOUT:g} s): "
                    "start some with dask worker ADDRESS"
                ) from exc
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        remote = client.scatter(job, broadcast=True)
        groups: Iterator[list[Sequence[int]] | None] = tasks(chunks, chunks_in_run, n_workers, 16)
        pending = dd.as_completed(loop=client.loop)  # the client is not the default one
        for group in islice(groups, 4 * n_workers):
            pending.add(client.submit(run, remote, group, pure=False))
        for fut in pending:
            part = fut.result()
            fut.release()
            yield part
            group = next(groups, None)
            if group is not None:
                pending.add(client.submit(run, remote, group, pure=False))
