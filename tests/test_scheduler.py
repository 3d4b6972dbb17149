"""Dask scheduler addresses through the CLI: only tcp:// accepted, and a server on 127.0.0.1
that is not a Dask scheduler (silent, HTTP, garbage, closed) refused in one line naming the
address, within the probe's timeout (shortened here; the listeners are local threads)."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from exactodds.analysis import scheduler
from tests.cli_helpers import Cli

pytest.importorskip("distributed")

Answer = Callable[[socket.socket], None]


def _silent(conn: socket.socket) -> None:
    conn.recv(1)  # until the client gives up


def _http(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    conn.recv(1)


def _garbage(conn: socket.socket) -> None:
    conn.sendall(b"\xff" * 4096)  # a "message size" of 2**64 - 1
    conn.recv(1)


def _closing(conn: socket.socket) -> None:
    conn.close()


@pytest.fixture
def listener() -> Iterator[Callable[[Answer], str]]:
    """``listener(answer)``: the tcp:// address of a local server answering every
    connection with ``answer``."""
    sockets: list[socket.socket] = []

    def start(answer: Answer) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        sockets.append(server)

        def serve() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                with conn, contextlib.suppress(OSError):
                    answer(conn)

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for server in sockets:
        server.close()


def _simulate(cli: Cli, address: str) -> tuple[int, str, str]:
    return cli(["simulate", "classic", "--shoes", "2", "--backend", "dask", "--scheduler", address])


@pytest.mark.parametrize(
    ("answer", "needle"),
    [
        (_silent, "no greeting within 0.5 s"),
        (_http, "the server there does not speak Dask"),
        (_garbage, "the server there does not speak Dask"),
        (_closing, "the server there does not speak Dask"),
    ],
)
def test_a_server_that_is_not_dask_is_refused(
    answer: Answer,
    needle: str,
    listener: Callable[[Answer], str],
    cli: Cli,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scheduler, "CONNECT_TIMEOUT", 0.5)
    address = listener(answer)
    code, out, err = _simulate(cli, address)
    assert (code, out) == (2, "")
    assert err == f"exactodds: error: Dask scheduler at {address!r}: {needle}" + (
        " (not a Dask scheduler, or overloaded)\n" if answer is _silent else "\n"
    )


def test_a_closed_port_is_refused_at_once(cli: Cli) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    port = server.getsockname()[1]
    server.close()  # nothing listens there now
    code, _, err = _simulate(cli, f"tcp://127.0.0.1:{port}")
    assert code == 2
    assert err.startswith(
        f"exactodds: error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:{port}'"
    )


@pytest.mark.parametrize("address", ["ucx://127.0.0.1:8786", "tls://127.0.0.1:8786", "inproc://x"])
def test_unsupported_schemes_are_refused(address: str, cli: Cli) -> None:
    code, _, err = _simulate(cli, address)
    assert code == 2 and err.count("\n") == 1
    assert f"--scheduler {address!r}: scheme" in err and "use tcp://HOST:PORT" in err


@pytest.mark.parametrize("address", ["tcp://", "tcp://host:99999", "tcp://a b:1"])
def test_malformed_addresses_are_refused(address: str, cli: Cli) -> None:
    code, _, err = _simulate(cli, address)
    assert code == 2 and err.startswith(f"exactodds: error: --scheduler {address!r}: ")
