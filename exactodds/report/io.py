"""Writing sheets safely: every file is written to a temporary file and renamed into place.

All sheets are rendered in memory before the first file is written, so an error while computing
leaves the output directory untouched, and a failed write never leaves a half-written file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from exactodds.errors import OutputError
from exactodds.files import write_atomic

__all__ = ["write_all", "write_atomic"]


def write_all(files: Mapping[Path, str | bytes]) -> None:
    """Write every file atomically (see :func:`write_atomic`)."""
    for path, text in files.items():
        try:
            write_atomic(path, text)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror})") from None
