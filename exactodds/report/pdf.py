"""PDF math sheets (optional extra ``pdf``): the HTML sheet printed by WeasyPrint.

The PDF is the HTML sheet in its print style (see :mod:`exactodds.report.html`): the same
content, a page break before each bet, and the title, date, paytable SHA-256 and "Page n of N"
on every page. WeasyPrint is imported only here, when a PDF is made.

Reproducible: the PDF's creation and modification dates are the sheet's date (the HTML's
``dcterms.created``/``modified``), WeasyPrint writes no random file identifier, and every font it
embeds is stamped with the sheet's date too (:func:`font_dates`): fontTools, through which
WeasyPrint subsets fonts without HarfBuzz-Subset 4.1 and saves variable and colour fonts, stamps
a font's ``head.modified`` with the time of saving unless SOURCE_DATE_EPOCH is set, so two
prints a second apart differed inside the font stream. The same sheet gives byte-identical
PDFs in any process, at any time, with the same WeasyPrint version and fonts.

The Keywords entry records ``exactodds-sheet date=… html-sha256=…``: the date and the SHA-256 of
the HTML sheet it was printed from, so a rerun can tell an unchanged PDF without printing it
again (:func:`pdf_stamp`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from exactodds.errors import MissingExtraError, ReportError

__all__ = ["PdfStamp", "font_dates", "html_digest", "pdf_stamp", "render_pdf", "weasyprint"]

_STAMP = re.compile(rb"exactodds-sheet date=(\d{4}-\d{2}-\d{2}) html-sha256=([0-9a-f]{64})")
_STREAM = re.compile(rb"stream\r?\n(.*?)endstream", re.DOTALL)
_MAX_INFLATED = 1 << 20  # bytes inflated per stream when looking for the stamp


@dataclass(frozen=True)
class PdfStamp:
    """What an exactodds PDF records about itself: its date and the SHA-256 of its HTML."""

    date: str
    html_sha256: str


def html_digest(html: str) -> str:
    """SHA-256 of an HTML sheet (UTF-8), as the PDF printed from it records it.

    >>> html_digest("")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(html.encode("utf-8")).hexdigest()


def weasyprint() -> Any:
    """The weasyprint module, or :class:`~exactodds.errors.MissingExtraError` naming the
    ``pdf`` extra (a :class:`~exactodds.errors.ReportError` when it is installed but cannot
    load its system libraries)."""
    try:
        import weasyprint as module
    except ImportError:
        raise MissingExtraError("PDF sheets need WeasyPrint", "pdf") from None
    except OSError as exc:  # WeasyPrint is installed, Pango is not
        raise ReportError(f"PDF sheets need WeasyPrint's system libraries (Pango): {exc}") from None
    return module


def render_pdf(html: str, date: str) -> bytes:
    """Print the HTML sheet ``html`` dated ``date`` as PDF (A4, its print style).

    Raises :class:`~exactodds.errors.MissingExtraError` without the ``pdf`` extra.
    """
    module = weasyprint()
    stamp = f"exactodds-sheet date={date} html-sha256={html_digest(html)}"
    marked = html.replace("<head>", f'<head>\n<meta name="keywords" content="{stamp}">', 1)
    out = io.BytesIO()
    with font_dates(date):
        module.HTML(string=marked).write_pdf(out)
    return out.getvalue()


@contextmanager
def font_dates(date: str) -> Iterator[None]:
    """Within the block, fonts saved by fontTools are stamped with ``date`` (midnight UTC), not
    the time of saving: SOURCE_DATE_EPOCH, the reproducible-builds variable fontTools reads, is
    set to it, and restored after (a print runs in one thread).

    >>> before = os.environ.get("SOURCE_DATE_EPOCH")
    >>> with font_dates("2024-03-01"):
    ...     os.environ["SOURCE_DATE_EPOCH"]  # 2024-03-01T00:00:00Z
    '1709251200'
    >>> os.environ.get("SOURCE_DATE_EPOCH") == before
    True
    """
    day = dt.datetime.combine(dt.date.fromisoformat(date), dt.time(), dt.UTC)
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(int(day.timestamp()))
    try:
        yield
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


def pdf_stamp(data: bytes) -> PdfStamp | None:
    """The stamp of a PDF exactodds wrote (its metadata may sit in a compressed object
    stream), or None for any other file.

    >>> pdf_stamp(b"%PDF-1.7 not ours"), pdf_stamp(b"exactodds-sheet date=2024-01-01 ")
    (None, None)
    """
    if not data.startswith(b"%PDF-"):
        return None
    found = _STAMP.search(data)
    for match in () if found else _STREAM.finditer(data):
        try:
            text = zlib.decompressobj().decompress(match.group(1), _MAX_INFLATED)
        except zlib.error:
            continue
        found = _STAMP.search(text)
        if found:
            break
    if found is None:
        return None
    return PdfStamp(found.group(1).decode("ascii"), found.group(2).decode("ascii"))
