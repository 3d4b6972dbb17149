"""Sphinx directive ``exactodds-limits``: the table of every input limit, generated from
``exactodds/limits.py`` (name, value, and the docstring under its assignment), so the docs
cannot drift from the code."""

from __future__ import annotations

import ast
import inspect
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def limit_rows() -> list[tuple[str, int, str]]:
    """(name, value, docstring) of every ``MAX_`` constant of :mod:`exactodds.limits`, in
    source order."""
    from exactodds import limits

    tree = ast.parse(inspect.getsource(limits))
    rows = []
    body = tree.body
    for node, after in zip(body, [*body[1:], None], strict=True):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name) or not target.id.startswith("MAX_"):
            continue
        doc = ""
        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            doc = " ".join(str(after.value.value).replace("``", "").split())
        rows.append((target.id, int(getattr(limits, target.id)), doc))
    return rows


class LimitsTable(SphinxDirective):
    """The limits as a table: limit, value, what it bounds."""

    def run(self) -> list[nodes.Node]:
        rows = [("limit", "value", "what it bounds")]
        rows += [(name, f"{value:,}", doc or "-") for name, value, doc in limit_rows()]
        table = nodes.table()
        group = nodes.tgroup(cols=3)
        table += group
        for width in (25, 15, 60):
            group += nodes.colspec(colwidth=width)
        for n, cells in enumerate(rows):
            row = nodes.row()
            for k, text in enumerate(cells):
                entry = nodes.entry()
                para = nodes.paragraph()
                para += nodes.literal(text, text) if k == 0 and n else nodes.Text(text)
                entry += para
                row += entry
            if n == 0:
                group += nodes.thead("", row)
            elif n == 1:
                group += nodes.tbody("", row)
            else:
                group.children[-1] += row
        return [table]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("exactodds-limits", LimitsTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
