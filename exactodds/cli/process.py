"""The process around a command: its standard streams, signals and exit codes.

The CLI promises one line on stderr and exit 2 for any problem that is not a bug, whatever the
environment does to the process:

- a closed stdout is refused before any work (the sheet would be lost), a closed stderr makes
  errors silent rather than sent to stdout, and a closed stdin is left closed for good (each
  closed descriptor gets ``/dev/null``, so no file the command opens can take its number);
- a full stdout, a file-size limit (``ulimit -f``) or an I/O error while printing is an error
  naming stdout (exit 2), also when it shows only at the final flush;
- a reader that goes away (``exactodds report | head``) ends the command quietly with
  :data:`BROKEN_PIPE` (141 = 128 + SIGPIPE, what a shell reports for a process killed by it);
- SIGTERM and SIGHUP end the command as Ctrl-C does (:class:`Terminated` is a
  ``KeyboardInterrupt``, so every clean-up written for Ctrl-C runs: no ``.NAME.tmp`` file is
  left, worker processes are stopped) with exit 128 + the signal's number and one line.
"""

from __future__ import annotations

import errno
import io
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import FrameType
from typing import Any, TextIO

__all__ = [
    "BROKEN_PIPE",
    "INTERRUPTED",
    "Terminated",
    "error_stream",
    "finish_stdout",
    "guard_streams",
    "no_color",
    "received",
    "stdout_error",
    "terminating_signals",
    "whole_stdout",
]

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as shells report it)."""

BROKEN_PIPE = 128 + 13
"""Exit code when the reader of stdout went away (128 + SIGPIPE): nothing is printed."""

_STDOUT_ERRORS = frozenset(
    {errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EBADF, errno.EDQUOT, errno.EROFS}
)
"""Errors of a write to an already open stream (no file name attached)."""


def no_color(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the user asked for no styling at all: ``NO_COLOR`` set and not empty (as
    https://no-color.org says), so no colour, no bold, no escape sequence.

    >>> no_color({"NO_COLOR": "1"}), no_color({"NO_COLOR": ""}), no_color({})
    (True, False, False)
    """
    return (os.environ if environ is None else environ).get("NO_COLOR", "") != ""


_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: raised where the main thread is, like Ctrl-C's
    ``KeyboardInterrupt``, so the same clean-up runs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name (``SIGTERM``)."""
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process the signal ended."""
        return 128 + self.signum


_CLOSED: dict[int, bool] = {}
_RECEIVED: list[int] = []


def received() -> Terminated | None:
    """The termination signal that arrived while a command ran (typer turns every
    ``KeyboardInterrupt`` into exit code 130, so the CLI asks here which one it was)."""
    return Terminated(_RECEIVED[-1]) if _RECEIVED else None


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def guard_streams() -> tuple[bool, bool]:
    """Give every closed standard descriptor ``/dev/null`` (so no file opened later takes its
    number and receives the output); (stdout closed, stderr closed) as found."""
    closed = {fd: _closed(fd) for fd in (0, 1, 2)}
    for fd, was_closed in closed.items():
        if was_closed:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    _CLOSED.update(closed)
    if closed[2] and sys.stderr is None:  # print(file=None) would write to stdout
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - for good
    return closed[1], closed[2]


def error_stream() -> TextIO | None:
    """Where error lines go: stderr, or nowhere when it was closed (never stdout)."""
    if _CLOSED.get(2) or sys.stderr is None:
        return None
    return sys.stderr


def stdout_error(exc: OSError) -> str | None:
    """The message for an error writing to stdout (a full disk, a file-size limit), or None
    when ``exc`` is about something else (a named file, a network connection)."""
    if exc.filename is None and exc.errno in _STDOUT_ERRORS:
        return f"stdout: cannot write ({exc.strerror or exc})"
    return None


class _WholeWrites(io.RawIOBase):
    """Descriptor 1 written in full or not at all: a write the system cuts short (a file-size
    limit, a full disk) is continued until it fails with the reason, which Python's own
    stdout does not do (it reports the short count, which printing ignores)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            try:
                done += os.write(self._fd, view[done:])
            except BlockingIOError:  # a non-blocking stdout: wait until it takes more
                select.select([], [self._fd], [])
        return done


@contextmanager
def whole_stdout() -> Iterator[None]:
    """While the block runs, the process's own stdout writes every byte or raises (see
    :class:`_WholeWrites`); a stdout replaced by the caller (a test's capture) is left as is."""
    original: Any = sys.stdout  # Python's own TextIOWrapper on descriptor 1
    if original is None or id(original) != id(sys.__stdout__):
        yield
        return
    try:
        original.flush()
        stream = io.TextIOWrapper(
            io.BufferedWriter(_WholeWrites(original.fileno())),
            encoding=original.encoding,
            errors=original.errors,
            newline="\n",
            line_buffering=original.line_buffering,
        )
    except (OSError, ValueError, AttributeError):  # pragma: no cover - not a real descriptor
        yield
        return
    sys.stdout = stream
    try:
        yield
    finally:
        sys.stdout = original
        try:
            stream.flush()
        except OSError:
            silence_stdout()  # what is still buffered goes to /dev/null when detached
            raise
        finally:
            stream.detach()  # the descriptor stays open: it is the process's stdout


def finish_stdout() -> OSError | None:
    """Flush stdout now (an error shows here rather than at exit, where Python would only
    print a traceback-like warning); then make any later flush harmless. The error, if any."""
    stream = sys.stdout
    error: OSError | None = None
    if stream is not None:
        try:
            stream.flush()
        except OSError as exc:
            error = exc
    if error is not None:
        silence_stdout()
    return error


def silence_stdout() -> None:
    """Point descriptor 1 at ``/dev/null``: what stdout still buffers is dropped at exit
    instead of failing again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:  # pragma: no cover - no /dev/null: nothing more can be done
        pass


@contextmanager
def terminating_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread
    (only there can Python handle signals; elsewhere the block runs unchanged)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        _RECEIVED.append(signum)
        raise Terminated(signum)

    _RECEIVED.clear()
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    for sig in _SIGNALS:
        current = signal.getsignal(sig)
        if current == signal.SIG_IGN:  # nohup: the user asked for SIGHUP to be ignored
            continue
        previous[sig] = current
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)
