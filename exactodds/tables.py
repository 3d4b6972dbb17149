"""Plain-text tables: every table exactodds prints (sheets, command output) is one style, a
GitHub-flavoured Markdown pipe table laid out by :mod:`tabulate`, so it reads as text and renders
as a table.

Cells are text already formatted and escaped by the caller (:func:`~exactodds.escape.md_cell`,
:func:`~exactodds.escape.md_code`): numbers are never re-parsed (``disable_numparse``), so
``0.10`` stays ``0.10`` and an escaped ``\\|`` stays escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    from tabulate import tabulate

    body = [list(row) for row in rows]
    colalign = list(align) if align is not None else ["left"] * len(headers)
    text = tabulate(
        body or [[""] * len(headers)],  # tabulate drops the alignment of a table without rows
        headers=list(headers),
        tablefmt="pipe",
        colalign=colalign,
        disable_numparse=True,
    )
    return text if body else text.rsplit("\n", 1)[0]
