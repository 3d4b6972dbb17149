"""Plain-text tables: every table exactodds prints (sheets, command output) is one style, a
GitHub-flavoured Markdown pipe table laid out by :mod:`tabulate`, so it reads as text and renders
as a table.

Cells are text already formatted and escaped by the caller (:func:`~exactodds.escape.md_cell`,
:func:`~exactodds.escape.md_code`): numbers are never re-parsed (``disable_numparse``), so
``0.10`` stays ``0.10`` and an escaped ``\\|`` stays escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Literal

__all__ = ["Align", "pipe_table"]

Align = Literal["left", "right", "center"]


def pipe_table(
    rows: Iterable[Sequence[str]], headers: Sequence[str], align: Sequence[Align] | None = None
) -> str:
    """``rows`` under ``headers`` as a pipe table, each column aligned as ``align`` says (left
    by default), the alignment shown in the separator line; no trailing newline.

    >>> print(pipe_table([["Tie", "8:1"], ["Pair \\\\| Both", "0.10"]], ["Bet", "Pays"],
    ...                  ["left", "right"]))
    | Bet          |   Pays |
    |:-------------|-------:|
    | Tie          |    8:1 |
    | Pair \\| Both |   0.10 |
    >>> print(pipe_table([], ["A", "B"], ["left", "center"]))  # no rows: still aligned
    | A   |  B  |
    |:----|:---:|
    """
    body = [list(row) for row in rows]
    if _plain(body, headers):
        return _pipe_table(body, headers, align or ["left"] * len(headers))
    from tabulate import tabulate

    colalign = list(align) if align is not None else ["left"] * len(headers)
    text = tabulate(
        body or [[""] * len(headers)],  # tabulate drops the alignment of a table without rows
        headers=list(headers),
        tablefmt="pipe",
        colalign=colalign,
        disable_numparse=True,
    )
    return text if body else text.rsplit("\n", 1)[0]


def _plain(body: list[list[str]], headers: Sequence[str]) -> bool:
    """Whether every cell is printable ASCII on one line, in rows as long as the headers: then
    :func:`_pipe_table` lays the table out exactly as :mod:`tabulate` does, in a tenth of the
    time (a sheet of 240 bets holds 200,000 cells)."""
    width = len(headers)
    return all(len(row) == width for row in body) and all(
        cell.isascii() and cell.isprintable() for row in (headers, *body) for cell in row
    )


_PAD: dict[Align, Callable[[str, int], str]] = {
    "left": str.ljust,
    "right": str.rjust,
    "center": lambda s, w: f"{s:^{w}}",  # as tabulate: an odd space goes to the right
}
_RULE = {"left": ":{}-", "right": "-{}:", "center": ":{}:"}


def _pipe_table(body: list[list[str]], headers: Sequence[str], align: Sequence[Align]) -> str:
    """:mod:`tabulate`'s pipe table of plain cells (see :func:`_plain`): cells stripped, each
    column as wide as its widest cell and at least its header plus 2, padded by one space.

    >>> print(_pipe_table([[" a ", "True"]], ["Event", "N"], ["left", "center"]))
    | Event   |  N   |
    |:--------|:----:|
    | a       | True |
    """
    columns = [[cell.strip() for cell in column] for column in zip(*body, strict=True)] or [
        []
    ] * len(headers)
    widths = [
        max([len(h) + 2, *map(len, column)]) for h, column in zip(headers, columns, strict=True)
    ]
    pads = [_PAD[a] for a in align]
    rule = "|".join(_RULE[a].format("-" * w) for a, w in zip(align, widths, strict=True))
    lines = [_row(headers, widths, pads), f"|{rule}|"]
    lines += (_row(row, widths, pads) for row in zip(*columns, strict=True))
    return "\n".join(lines if body else lines[:2])


def _row(cells: Sequence[str], widths: list[int], pads: list[Callable[[str, int], str]]) -> str:
    return (
        "| "
        + " | ".join(pad(cell, w) for cell, w, pad in zip(cells, widths, pads, strict=True))
        + " |"
    )
