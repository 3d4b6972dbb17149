"""Text made safe for what reads it: a spreadsheet opening a CSV file, a Markdown renderer.

Names, events and descriptions come from untrusted paytable files, so every output format
escapes them in one place (HTML uses :func:`html.escape`, JSON its own quoting).

- CSV: a cell that a spreadsheet would read as a formula — one starting with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return (OWASP "CSV injection"; :func:`formula_like`) — gets
  a leading ``'``. (XLSX text cells are stored as strings, formula-like ones with Excel's own
  quote prefix: see :mod:`exactodds.report.xlsx`.)
  Numbers are left as they are: an integer, a decimal or an exact fraction ``p/q`` (also several
  joined by ``;``, as in the sheets' ``exact`` column) cannot call a function, and a reader must
  get them back unchanged.
- Markdown: line breaks become spaces (a newline would end a table row or start a new block),
  ``|`` is escaped so it cannot split a table cell, and code spans are fenced with more
  backticks than they contain.
"""

from __future__ import annotations

import re

__all__ = ["csv_cell", "formula_like", "md_cell", "md_code", "one_line", "printable"]

_NUMBER = re.compile(
    r"[+-]?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?(?:;[+-]?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)*"
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_LINE_BREAK = re.compile(r"\r\n|[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")
_BACKTICKS = re.compile(r"`+")


def formula_like(text: str) -> bool:
    """Whether a spreadsheet would take ``text`` for a formula (numbers never are).

    >>> formula_like("=1+1"), formula_like("-Banker"), formula_like("-19/20"), formula_like("Tie")
    (True, True, False, False)
    """
    return text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text)


def csv_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs as a formula; numbers unchanged.

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("@SUM(A1)"), csv_cell("+1 to 1")
    ('\\'=HYPERLINK("http://x")', "'@SUM(A1)", "'+1 to 1")
    >>> csv_cell("-0.0123456789"), csv_cell("-19/20"), csv_cell("1/1;-43/415"), csv_cell("Tie")
    ('-0.0123456789', '-19/20', '1/1;-43/415', 'Tie')
    """
    return "'" + text if formula_like(text) else text


def printable(text: str) -> str:
    r"""``text`` with every character a terminal would not print as itself (controls, line
    breaks, bidirectional overrides) written as its Python escape: for lines on a terminal.

    >>> printable("sheets/\x1b[31mred\u202e.md"), printable("Tie — 8:1")
    ('sheets/\\x1b[31mred\\u202e.md', 'Tie — 8:1')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def one_line(text: str) -> str:
    """``text`` with every line break (``\\n``, ``\\r\\n``, ``\\r``, Unicode separators) as one
    space, so it stays inside its table row or heading.

    >>> one_line("Banker\\r\\nwins\\u2028big")
    'Banker wins big'
    """
    return _LINE_BREAK.sub(" ", text)


def md_code(text: str, *, in_table: bool = False) -> str:
    """``text`` as one Markdown code span that no backtick in it can end early.

    The fence is one backtick longer than the longest run inside, padded with spaces when the
    text starts or ends with a backtick (CommonMark). In a table, ``|`` is escaped: GitHub
    tables split cells on it even inside code, and unescape ``\\|`` there.

    >>> md_code("player_pair"), md_code("a`b"), md_code("`x`"), md_code("a|b", in_table=True)
    ('`player_pair`', '``a`b``', '`` `x` ``', '`a\\\\|b`')
    """
    text = one_line(text)
    if in_table:
        text = text.replace("|", "\\|")
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_cell(text: str) -> str:
    """Plain ``text`` for a cell of a Markdown table printed by :mod:`tabulate`: one line, ``|``
    escaped (other Markdown is left as typed: these tables are read as text too).

    >>> md_cell("Pair | Both\\nhands")
    'Pair \\\\| Both hands'
    """
    return one_line(text).replace("|", "\\|")
