"""The output formats, one enum for every renderer and every ``--format`` option.

A renderer names the formats it writes and checks its argument with :meth:`Format.check`, so
every renderer refuses an unknown format with the same one-line message.

>>> Format.check(" Markdown", (Format.MD, Format.JSON))
<Format.MD: 'md'>
>>> Format.check("xml", (Format.TEXT, Format.JSON))
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: unknown format 'xml' (use one of text, json)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from exactodds.errors import ExactOddsError
from exactodds.suggest import did_you_mean

__all__ = ["Format"]


class Format(StrEnum):
    """An output format; its value is how ``--format`` names it."""

    MD = "md"
    """Markdown (GitHub-flavoured), for people."""
    HTML = "html"
    """A self-contained HTML page."""
    CSV = "csv"
    """Comma-separated values, one record per line."""
    JSON = "json"
    """JSON, exact values as ``"p/q"`` strings."""
    PDF = "pdf"
    """A PDF file (binary; extra ``pdf``)."""
    XLSX = "xlsx"
    """An Excel workbook (binary; extra ``xlsx``)."""
    TEXT = "text"
    """Plain text for a terminal."""

    @property
    def extension(self) -> str:
        """The file name extension of a file in this format (``.md``)."""
        return f".{self.value}"

    @property
    def binary(self) -> bool:
        """Whether files in this format are bytes, not text (written only as files)."""
        return self in (Format.PDF, Format.XLSX)

    @classmethod
    def check(
        cls,
        fmt: str,
        allowed: Sequence[Format],
        error: type[ExactOddsError] = ExactOddsError,
    ) -> Format:
        """``fmt`` as one of ``allowed`` (any case, surrounding spaces ignored, ``markdown`` for
        ``md``), else ``error`` naming the choices."""
        wanted = fmt.strip().lower()
        if wanted == "markdown":
            wanted = Format.MD.value
        for candidate in allowed:
            if candidate.value == wanted:
                return candidate
        choices = [f.value for f in allowed]
        hint = did_you_mean(wanted, choices)
        raise error(f"unknown format {fmt!r} (use one of {', '.join(choices)}){hint}")
