"""Dask scheduler addresses: checked before any work, reached within a bounded time.

``simulate --backend dask --scheduler ADDRESS`` accepts ``tcp://HOST:PORT`` (or ``HOST:PORT``):
the one transport exactodds sets up (``tls://`` needs certificates it has no option for, ``ucx://``
and ``inproc://`` are not for a cluster reached by address). Before Dask itself connects, a probe
of its own opens the port within :data:`CONNECT_TIMEOUT` seconds and reads the greeting a Dask
scheduler sends first (a framed message whose sizes add up), within the same time: a closed port,
a silent listener, an HTTP server or one that answers garbage is refused in one line naming the
address, instead of Dask retrying for 25 s, waiting for ever, or reading a garbage length as the
size of a message to allocate.
"""

from __future__ import annotations

import re
import socket
import struct
import time

from exactodds.errors import SimulationError, parameter, quote

__all__ = ["CONNECT_TIMEOUT", "WORKERS_TIMEOUT", "check_address", "one_line", "probe_scheduler"]

CONNECT_TIMEOUT = 10.0
"""Seconds to connect to a scheduler and read its greeting (each, at most)."""

WORKERS_TIMEOUT = 30.0
"""Seconds to wait for a scheduler without workers to get one."""

_MAX_GREETING = 1 << 20
"""Largest greeting accepted (a scheduler's is a few hundred bytes)."""

_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>[0-9]{1,5}))?"
)


def check_address(address: str) -> tuple[str, int]:
    """(host, port) of a scheduler address, refused unless it is ``tcp://HOST:PORT`` (the
    scheme may be left out; the port defaults to Dask's 8786).

    >>> check_address("tcp://10.0.0.1:8786"), check_address("localhost")
    (('10.0.0.1', 8786), ('localhost', 8786))
    >>> check_address("ucx://10.0.0.1:8786")
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: scheduler 'ucx://10.0.0.1:8786': scheme 'ucx' is not \
supported (use tcp://HOST:PORT)
    """
    with parameter("scheduler", prefix=False):
        return _address(address)


def _address(address: str) -> tuple[str, int]:
    """:func:`check_address`, its messages naming the scheduler first."""
    where = f"scheduler {quote(address)}"
    m = _ADDRESS.fullmatch(address.strip())
    if m is None:
        raise SimulationError(f"{where}: not an address like tcp://HOST:PORT")
    scheme = (m["scheme"] or "tcp").lower()
    if scheme != "tcp":
        raise SimulationError(
            f"{where}: scheme {quote(scheme)} is not supported (use tcp://HOST:PORT)"
        )
    port = int(m["port"] or 8786)
    if not 0 < port < 65536:
        raise SimulationError(f"{where}: port {port} is not 1..65535")
    return m["host"].strip("[]"), port


def probe_scheduler(address: str, timeout: float | None = None) -> None:
    """Refuse ``address`` unless a Dask scheduler answers there within ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`; see the module docstring)."""
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    host, port = check_address(address)
    where = f"Dask scheduler at {quote(address)}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            deadline = time.monotonic() + timeout
            head = _read(conn, 8, deadline)
            (size,) = struct.unpack("<Q", head)
            if not 8 <= size <= _MAX_GREETING:
                raise _NotDask
            body = _read(conn, size, deadline)
            (frames,) = struct.unpack_from("<Q", body)
            if not 1 <= frames <= 64 or 8 * (frames + 1) > size:
                raise _NotDask
            lengths = struct.unpack_from(f"<{frames}Q", body, 8)
            if not size <= 8 * (frames + 1) + sum(lengths) <= _MAX_GREETING:
                raise _NotDask  # (frames past the first message's size may follow it)
    except _NotDask:
        raise SimulationError(f"{where}: the server there does not speak Dask") from None
    except _Silent:
        raise SimulationError(
            f"{where}: no greeting within {timeout:g} s (not a Dask scheduler, or overloaded)"
        ) from None
    except TimeoutError:
        raise SimulationError(f"{where}: no connection within {timeout:g} s") from None
    except OSError as exc:
        raise SimulationError(f"cannot reach the {where}: {exc.strerror or exc}") from None


class _NotDask(Exception):
    pass


class _Silent(Exception):
    pass


def _read(conn: socket.socket, size: int, deadline: float) -> bytes:
    """Exactly ``size`` bytes before ``deadline``, else :class:`_Silent` (nothing or too
    little came) or :class:`_NotDask` (the server closed the connection)."""
    parts: list[bytes] = []
    got = 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Silent
        conn.settimeout(left)
        try:
            chunk = conn.recv(min(size - got, 1 << 16))
        except TimeoutError:
            raise _Silent from None
        if not chunk:
            raise _NotDask
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line, at most 200 characters (Dask's span several).

    >>> one_line(OSError("Timed out\\n  trying to connect"))
    'Timed out trying to connect'
    """
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"
