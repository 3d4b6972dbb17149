"""Files in and out: one reader of untrusted TOML/JSON input files, one atomic writer.

Every input file (paytable, rules, shoe) is read by :func:`read_data`: regular files only, at most
:data:`~exactodds.limits.MAX_FILE_BYTES`, UTF-8 (a byte-order mark is skipped), nesting at most
:data:`~exactodds.limits.MAX_NESTING` deep (checked on the text before a recursive parser sees
it), numbers finite with at most :data:`~exactodds.limits.MAX_DIGITS` digits, and decimals read
as exact :class:`~fractions.Fraction` values, never floats. A file that breaks a limit is refused
with an :class:`~exactodds.errors.InputFileError` naming the file and, where it can, the line.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp, "shoe.toml")
...     _ = path.write_text("decks = 6\\nrounding = { step = 0.01 }\\n", encoding="utf-8")
...     data = read_data(path)
...     bad = Path(tmp, "bad.json")
...     _ = bad.write_text('{"decks": NaN}', encoding="utf-8")
...     try:
...         read_data(bad)
...     except InputFileError as exc:
...         error = str(exc).replace(tmp, "DIR")
>>> data.data, len(data.raw), len(data.sha256)
({'decks': 6, 'rounding': {'step': Fraction(1, 100)}}, 37, 64)
>>> error
"DIR/bad.json:1: 'NaN' is not a finite number (nan and infinity are not allowed)"
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.errors import InputFileError, elide, quote
from exactodds.limits import MAX_DIGITS, MAX_EXPONENT, MAX_FILE_BYTES, MAX_NESTING

__all__ = [
    "DataFile",
    "names_file",
    "parse_data",
    "read_bytes",
    "read_data",
    "read_text",
    "write_atomic",
]


# -- reading --------------------------------------------------------------------------------------


def names_file(text: str) -> bool:
    """Whether ``text`` is the path of something that exists; a name the system refuses
    (too long, a NUL) names nothing, so the caller reads it as a name instead of failing.

    >>> names_file("/"), names_file("x" * 5000)
    (True, False)
    """
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never more are read).

    The file is opened without blocking and checked with ``fstat`` on the open descriptor, so a
    FIFO, a device such as ``/dev/zero`` or a directory is refused before anything is read.

    >>> read_bytes("/dev/zero")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: /dev/zero: not a regular file (a character device)
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(f"{path}: file not found") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read file ({exc.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise InputFileError(f"{quote(str(path))}: not a file name") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(f"{path}: not a regular file ({_kind(mode)})")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read file ({exc.strerror})") from None
    finally:
        os.close(fd)
    if size > limit:
        raise InputFileError(f"{path}: file is larger than {limit:,} bytes (the limit)")
    return b"".join(chunks)


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def read_text(path: str | Path) -> tuple[str, bytes]:
    """The UTF-8 text of an input file (a leading byte-order mark dropped) and its bytes.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".toml") as handle:
    ...     _ = handle.write(b"\\xef\\xbb\\xbfname = 'x'\\n\\xff")
    ...     handle.flush()
    ...     try:
    ...         read_text(handle.name)
    ...     except InputFileError as exc:
    ...         print(str(exc).split(": ", 1)[1])
    not UTF-8 text (byte 0xff at line 2)
    """
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputFileError(
            f"{path}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at line {line})"
        ) from None
    return text.removeprefix("\ufeff"), raw


@dataclass(frozen=True)
class DataFile:
    """An input file as read: its path, parsed data, text (for line numbers) and bytes."""

    path: Path
    data: dict[str, Any]
    text: str
    raw: bytes

    @property
    def sha256(self) -> str:
        """SHA-256 of the file's bytes (hex), as printed on sheets."""
        return hashlib.sha256(self.raw).hexdigest()


def read_data(path: str | Path, kind: str | None = None) -> DataFile:
    """Read a TOML or JSON input file within every limit (``kind`` "toml" or "json"; by
    default JSON for a ``.json`` name, TOML otherwise)."""
    p = Path(path)
    text, raw = read_text(p)
    fmt = kind or ("json" if p.suffix.lower() == ".json" else "toml")
    return DataFile(p, parse_data(text, str(path), fmt), text, raw)


def parse_data(text: str, origin: str = "<data>", kind: str = "toml") -> dict[str, Any]:
    """Parse TOML or JSON text within the limits of :func:`read_data`.

    >>> parse_data('{"a": [1, 2.5]}', kind="json")
    {'a': [1, Fraction(5, 2)]}
    >>> parse_data("a = " + "[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: <data>:1: nested more than 32 levels deep (the limit)
    >>> parse_data("decks = 0x" + "f" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: <data>: decks: 146150...975 has more than 30 digits (the limit)
    """
    _prescan(text, origin, kind)
    number = _Numbers(text, origin)
    try:
        if kind == "json":
            data: Any = json.loads(
                text,
                parse_float=number.decimal,
                parse_int=number.integer,
                parse_constant=number.constant,
                object_pairs_hook=number.table,
            )
        else:
            data = tomllib.loads(text, parse_float=number.decimal)
    except json.JSONDecodeError as exc:
        raise InputFileError(
            f"{origin}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r" \(at line (\d+), column (\d+)\)$", str(exc))
        if at is None:
            raise InputFileError(f"{origin}: invalid TOML: {exc}") from None
        message = str(exc)[: at.start()]
        raise InputFileError(
            f"{origin}:{at[1]}: invalid TOML: {message} (column {at[2]})"
        ) from None
    except InputFileError:
        raise
    except (ValueError, RecursionError) as exc:  # a parser limit the scan did not foresee
        raise InputFileError(f"{origin}: cannot parse ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise InputFileError(f"{origin}: expected a table of keys at the top level")
    _check_values(data, origin, text)
    return data


# The text is scanned once, linearly, before parsing: strings and comments are skipped, brackets
# counted, and runs of too many digits found. Python's TOML and JSON parsers recurse once per
# level of nesting and convert integers of any length, so both are bounded here first.
_SCAN = {
    "toml": re.compile(
        r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"'
        r"|'[^'\n]*'|#[^\n]*|(?P<open>[\[{])|(?P<close>[\]}])"
        rf"|(?<![\w.+-])[+-]?(?P<digits>(?:[0-9]_?){{{MAX_DIGITS + 1},}})"
    ),
    "json": re.compile(
        r'"(?:[^"\\]|\\[\s\S])*"|(?P<open>[\[{])|(?P<close>[\]}])'
        rf"|(?<![\w.+-])-?(?P<digits>[0-9]{{{MAX_DIGITS + 1},}})"
    ),
}


def _prescan(text: str, origin: str, kind: str) -> None:
    depth, line, last = 0, 1, 0
    for m in _SCAN[kind].finditer(text):
        group = m.lastgroup
        if group is None:
            continue
        if group == "open":
            depth += 1
            if depth > MAX_NESTING:
                line += text.count("\n", last, m.start())
                raise InputFileError(
                    f"{origin}:{line}: nested more than {MAX_NESTING} levels deep (the limit)"
                )
        elif group == "close":
            depth = max(0, depth - 1)
        else:  # a run of more digits than allowed
            line += text.count("\n", last, m.start())
            raise InputFileError(
                f"{origin}:{line}: number {quote(m['digits'], 40)} has more than "
                f"{MAX_DIGITS} digits (the limit)"
            )


_DECIMAL = re.compile(r"[+-]?([0-9_]*)(?:\.([0-9_]*))?(?:[eE]([+-]?[0-9_]+))?")


class _Numbers:
    """Parser hooks: decimals as exact fractions, every number finite and bounded."""

    def __init__(self, text: str, origin: str) -> None:
        self.text = text
        self.origin = origin

    def refuse(self, literal: str, what: str) -> InputFileError:
        at = re.search(rf"(?<![\w\"'.]){re.escape(literal)}(?![\w\"'])", self.text)
        line = f":{self.text.count(chr(10), 0, at.start()) + 1}" if at else ""
        return InputFileError(f"{self.origin}{line}: {quote(literal, 40)} {what}")

    def decimal(self, literal: str) -> Fraction:
        m = _DECIMAL.fullmatch(literal) if len(literal) < 4 * MAX_DIGITS else None
        if m is None:
            if literal.lstrip("+-").lower() in ("nan", "inf", "infinity"):
                raise self.refuse(
                    literal, "is not a finite number (nan and infinity are not allowed)"
                )
            raise self.refuse(literal, f"is not a number of at most {MAX_DIGITS} digits")
        digits = len((m[1] or "").replace("_", "")) + len((m[2] or "").replace("_", ""))
        exponent = int(m[3].replace("_", "")) if m[3] else 0
        if digits > MAX_DIGITS or abs(exponent) > MAX_EXPONENT:
            raise self.refuse(
                literal,
                f"has more than {MAX_DIGITS} digits or an exponent beyond ±{MAX_EXPONENT}",
            )
        return Fraction(literal.replace("_", ""))

    def integer(self, literal: str) -> int:
        if len(literal.lstrip("-")) > MAX_DIGITS:
            raise self.refuse(literal, f"has more than {MAX_DIGITS} digits (the limit)")
        return int(literal)

    def constant(self, literal: str) -> Any:
        raise self.refuse(literal, "is not a finite number (nan and infinity are not allowed)")

    def table(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """A JSON object, refused when it names a key twice (TOML refuses that too; JSON
        parsers would silently keep the last value, so a file could say two things)."""
        table: dict[str, Any] = {}
        for key, value in pairs:
            if key in table:
                raise InputFileError(f"{self.origin}: key {quote(key, 40)} is given twice")
            table[key] = value
        return table


# Control characters a terminal, an XML reader (XLSX) or a bidirectional text renderer would act
# on: C0 controls except tab and line breaks, DEL, C1 controls, and the bidirectional embeddings,
# overrides and isolates ("Trojan Source"). Text from an input file is printed on sheets and on
# the terminal, so such characters are refused where they are read.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _check_values(data: dict[str, Any], origin: str, text: str = "") -> None:
    """Refuse data nested deeper than the limit (TOML dotted keys nest without brackets),
    integers of more than the digits allowed (TOML hexadecimal, octal, binary), text that
    is not Unicode (JSON escapes of lone surrogates, which no output could print) and text with
    control characters (:data:`_CONTROL`; tabs and line breaks are allowed)."""
    for key, value in data.items():
        for where, item, nesting in _walk(value, str(key), 0):
            if (isinstance(item, str) and not _unicode(item)) or not _unicode(where):
                raise InputFileError(
                    f"{origin}: {elide(repr(where), 60)}: text that is not Unicode "
                    "(a lone surrogate escape)"
                )
            control = _CONTROL.search(where) or (
                _CONTROL.search(item) if isinstance(item, str) else None
            )
            if control is not None:
                raise InputFileError(
                    f"{origin}{_line_of(text, control[0])}: {elide(repr(where), 60)}: control "
                    f"character {control[0]!r} in text (a terminal or spreadsheet would act on it)"
                )
            if nesting > MAX_NESTING:
                raise InputFileError(
                    f"{origin}: {elide(where, 60)}: nested more than {MAX_NESTING} levels "
                    "deep (the limit)"
                )
            if isinstance(item, int) and abs(item) >= 10**MAX_DIGITS:
                raise InputFileError(
                    f"{origin}: {elide(where, 60)}: {quote(item)} has more than "
                    f"{MAX_DIGITS} digits (the limit)"
                )


def _line_of(text: str, char: str) -> str:
    """``:LINE`` of the first place ``text`` writes ``char``, raw or as an escape (``\\u001b``,
    ``\\U0000001B``, ``\\b``, ``\\f``); empty if it cannot be found.

    >>> _line_of('a = 1\\nb = "\\\\u001B"', "\\x1b"), _line_of("a = 1", "\\x07")
    (':2', '')
    """
    short = {"\b": r"|\\b", "\f": r"|\\f"}.get(char, "")
    code = ord(char)
    found = re.search(rf"{re.escape(char)}|\\u{code:04x}|\\U{code:08x}{short}", text, re.I)
    return f":{text.count(chr(10), 0, found.start()) + 1}" if found else ""


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _walk(value: Any, key: str, nesting: int) -> Iterator[tuple[str, Any, int]]:
    """(dotted key, value, containers around it) of every value below ``value``; stops
    descending past the nesting limit, so the recursion is bounded by the limit too."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        yield key, value, nesting
        return
    if nesting >= MAX_NESTING:
        yield key, value, nesting + 1
        return
    for k, v in items:
        yield from _walk(v, f"{key}.{k}", nesting + 1)


# -- writing --------------------------------------------------------------------------------------


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` via a temporary file in the same directory,
    renamed into place: a reader never sees a half-written file, a failure leaves none behind.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> write_atomic(d / "a.md", "hello\\n")
    >>> (d / "a.md").read_text(), sorted(p.name for p in d.iterdir())
    ('hello\\n', ['a.md'])
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
