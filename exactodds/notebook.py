"""Notebook display of results: small HTML tables (``_repr_html_``) and pandas DataFrames
(``to_frame()``), shared by paytables, figures, joints, comparisons and simulations.

Cells hold exact values: counts as ints, probabilities and edges as Fractions (a DataFrame's
column of Fractions has dtype ``object``). Beside each column of Fractions a DataFrame has the
same values as floats, named with :data:`FLOAT_SUFFIX` (``house_edge_float``), so that
``df.plot`` works: they are rounded copies for plotting only, every figure stays exact in its
own column. HTML cells show a Fraction as a percentage with four decimals and its exact value
in a tooltip.

>>> from fractions import Fraction
>>> html = html_table(("bet", "edge"), [("tie", Fraction(1, 8))], caption="A & B")
>>> html[:42]
'<table><caption>A &amp; B</caption><thead>'
>>> html[html.index("<tbody>") :]
'<tbody><tr><td>tie</td><td title="1/8">12.5000%</td></tr></tbody></table>'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from exactodds.errors import MissingExtraError
from exactodds.numbers import percent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FLOAT_SUFFIX", "Cell", "frame", "html_table"]

Cell = object
"""A table cell: text, an int count or an exact Fraction."""

FLOAT_SUFFIX = "_float"
"""The suffix of the float copy of a column of Fractions (for plotting only)."""


def _cell(value: Cell) -> str:
    if isinstance(value, Fraction):
        return f'<td title="{value}">{percent(value)}</td>'
    if isinstance(value, int) and not isinstance(value, bool):
        return f'<td style="text-align:right">{value:,}</td>'
    return f"<td>{escape(str(value))}</td>"


def html_table(headers: Sequence[str], rows: Iterable[Sequence[Cell]], caption: str = "") -> str:
    """An HTML table (every text escaped) for a notebook's rich display."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def frame(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> pd.DataFrame:
    """A pandas DataFrame of ``rows`` (exact cells kept as they are), each column of Fractions
    (None where a row has no value) followed by its float copy ``NAME_float`` (NaN for None);
    needs the ``pandas`` extra.

    >>> df = frame(("bet", "edge"), [("tie", Fraction(1, 8)), ("pair", None)])
    >>> list(df.columns), df.loc[0, "edge"], df["edge_float"].tolist()[0]
    (['bet', 'edge', 'edge_float'], Fraction(1, 8), 0.125)
    >>> str(df["edge_float"].dtype)
    'float64'
    """
    try:
        import pandas as pd
    except ImportError:
        raise MissingExtraError("to_frame() needs pandas", "pandas") from None
    data = [list(r) for r in rows]
    columns: dict[str, list[Any]] = {}
    for i, name in enumerate(headers):
        cells = [row[i] for row in data]
        columns[name] = cells
        if _fractions(cells):
            columns[name + FLOAT_SUFFIX] = [float("nan") if x is None else float(x) for x in cells]
    return pd.DataFrame(columns, columns=list(columns))


def _fractions(cells: Sequence[Any]) -> bool:
    """Whether a column holds Fractions (and maybe None), at least one."""
    return any(isinstance(x, Fraction) for x in cells) and all(
        x is None or (isinstance(x, Fraction | int) and not isinstance(x, bool)) for x in cells
    )
