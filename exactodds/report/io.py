"""Writing sheets safely: every file is written to a temporary file and renamed into place.

All sheets are rendered in memory before the first file is written, so an error while computing
leaves the output directory untouched, and a failed write never leaves a half-written file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from exactodds.errors import InputFileError

__all__ = ["write_all", "write_atomic"]


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` via a temporary file in the same directory.

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


def write_all(files: Mapping[Path, str | bytes]) -> None:
    """Write every file atomically (see :func:`write_atomic`)."""
    try:
        for path, text in files.items():
            write_atomic(path, text)
    except OSError as exc:
        raise InputFileError(f"{exc.filename or 'output'}: cannot write ({exc.strerror})") from None
