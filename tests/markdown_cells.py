"""Markdown pipe tables read back into cells: what a reader sees, whatever the padding."""

from __future__ import annotations

import re

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r":?-+:?")

Line = tuple[str, tuple[str, ...] | str]
"""``("text", line)`` outside tables, ``("row", cells)`` or ``("align", letters)`` in them."""


def _align(cell: str) -> str:
    left, right = cell.startswith(":"), cell.endswith(":")
    return "c" if left and right else "r" if right else "l" if left else "-"


def markdown_lines(text: str) -> list[Line]:
    """Every line of ``text``: table rows as their stripped cells (split on unescaped ``|``),
    separator lines as alignment letters (l, r, c, or - when unmarked), other lines as they are.

    >>> markdown_lines("x\\n| a \\\\| b |  `c` |\\n|:--|---:|")
    [('text', 'x'), ('row', ('a \\\\| b', '`c`')), ('align', ('l', 'r'))]
    """
    out: list[Line] = []
    for line in text.splitlines():
        if not line.startswith("|"):
            out.append(("text", line))
            continue
        cells = tuple(c.strip() for c in _UNESCAPED_PIPE.split(line)[1:-1])
        if cells and all(_SEPARATOR.fullmatch(c) for c in cells):
            out.append(("align", tuple(_align(c) for c in cells)))
        else:
            out.append(("row", cells))
    return out


def table_rows(text: str) -> list[tuple[str, ...]]:
    """The cells of every table row of ``text`` (headers included), in order."""
    return [c for kind, c in markdown_lines(text) if kind == "row" and isinstance(c, tuple)]


def has_cells(text: str, *cells: str) -> bool:
    """Whether some table row of ``text`` holds ``cells`` side by side (stripped, as a reader
    sees them, whatever the padding).

    >>> has_cells("| a  | b |\\n|:---|:--|\\n| x  |   |", "x", "")
    True
    """
    n = len(cells)
    return any(row[i : i + n] == cells for row in table_rows(text) for i in range(len(row) - n + 1))
