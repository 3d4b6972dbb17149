"""``simulate --backend dask --scheduler tcp://HOST:PORT`` against a real cluster (issue 33): a
``dask scheduler`` and two ``dask worker`` processes started on 127.0.0.1 as a user starts them,
on ports chosen free, always torn down. The run gives the same JSON as the local backend on the
same seed (it failed with "internal error: ValueError: No clients found")."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.cli_helpers import Cli

distributed = pytest.importorskip("distributed")

START_TIMEOUT = 30.0
"""Seconds the scheduler and workers may take to start on a loaded machine (bounded wait)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Kill the cluster's processes and reap them (nothing of the run is kept)."""
    for p in processes:
        p.kill()
    for p in processes:
        p.wait(timeout=10)


@pytest.fixture
def cluster() -> Iterator[str]:
    """The tcp:// address of a scheduler with two workers, each its own process, started
    together (a worker retries until the scheduler listens)."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]
    scheduler = ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    worker = ["worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny"]
    commands = [scheduler, [*worker, "--no-dashboard"], [*worker, "--no-dashboard"]]
    processes = []
    try:
        for command in commands:
            processes.append(
                subprocess.Popen(
                    [*dask, *command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not _listening(port):
            assert all(p.poll() is None for p in processes), "a dask process exited"
            assert time.monotonic() < deadline, "the dask scheduler did not start"
            time.sleep(0.05)
        with distributed.Client(address, timeout="10s", set_as_default=False) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield address
    finally:
        _stop(processes)


def test_simulate_on_a_real_cluster_gives_the_local_figures(cli: Cli, cluster: str) -> None:
    argv = ["simulate", "punto-banco", "--decks", "1", "--shoes", "2", "--seed", "7", "-f", "json"]
    code, local, err = cli(argv)
    assert code == 0, err
    code, remote, err = cli([*argv, "--backend", "dask", "--scheduler", cluster])
    assert (code, err) == (0, "")
    assert remote == local
