"""Where each key, table and array element of a TOML text starts, so messages cite exact lines.

:mod:`tomllib` gives values but no positions. This scanner walks a text that :mod:`tomllib` has
already accepted and records the line of every key path: a ``[table]`` or ``[[array of
tables]]`` header, a ``key = value`` (dotted and quoted keys included) and each element of an
array, by index (``("bets", "player", "rows", 0)``). It reads the text once, left to right, with
an explicit stack for nested arrays and inline tables: linear time, no recursion.

>>> lines = toml_lines('''name = "x"
... [bets.tie]
... rows = [
...   { when = "winner == tie", pays = "8:1" },
...   { when = "otherwise",
...     pays = "lose" },
... ]
... [[bets.pair.rows]]
... when = "player.pair"
... ''')
>>> lines["name",], lines["bets", "tie"], lines["bets", "tie", "rows", 1, "pays"]
(1, 2, 6)
>>> pair = ("bets", "pair", "rows", 0)
>>> lines["bets", "pair"], lines[pair], lines[(*pair, "when")]
(8, 8, 9)
"""

from __future__ import annotations

import re
import tomllib

__all__ = ["KeyPath", "cite", "toml_lines", "toml_values"]

KeyPath = tuple[str | int, ...]
"""Keys and array indices from the document root, as :mod:`tomllib` nests the values."""

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR_END = re.compile(r"[,\]}\n#]")


def toml_lines(text: str) -> dict[KeyPath, int]:
    """Line (1-based) where each key path is defined or each array element starts.

    A table named only through longer paths (``[bets.player]`` names ``("bets",)``) gets the
    line of its first mention. ``text`` must be valid TOML; on other text the lines are a best
    effort and no error is raised.
    """
    return _Scanner(text).run()


def toml_values(text: str) -> dict[KeyPath, tuple[int, int]]:
    """Where the text of each scalar value (string, number, boolean, date) starts and ends:
    ``text[start:end]`` is the value as written, so a value can be replaced in place and
    everything else kept (the designer page's export patches payouts so). Same scan and
    conditions as :func:`toml_lines`.

    >>> text = 'a = "x]]"  # note\\n[b]\\nrows = [{ pays = "8:1" }, 3 ]\\n'
    >>> spans = toml_values(text)
    >>> [text[slice(*spans[p])] for p in [("a",), ("b", "rows", 0, "pays"), ("b", "rows", 1)]]
    ['"x]]"', '"8:1"', '3']
    """
    scanner = _Scanner(text)
    scanner.run()
    return scanner.spans


def cite(origin: str, lines: dict[KeyPath, int], *paths: KeyPath) -> str:
    """``origin:line`` of the first of ``paths`` that ``lines`` knows, else ``origin``.

    >>> lines = toml_lines("a = 1\\nb = 2\\n")
    >>> cite("game.toml", lines, ("c",), ("b",)), cite("x.toml", lines, ("c",))
    ('game.toml:2', 'x.toml')
    """
    for path in paths:
        line = lines.get(path)
        if line is not None:
            return f"{origin}:{line}"
    return origin


class _Scanner:
    def __init__(self, text: str) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.found: dict[KeyPath, int] = {}
        self.spans: dict[KeyPath, tuple[int, int]] = {}
        self.tables: dict[KeyPath, int] = {}  # array-of-tables path -> elements so far
        # open arrays [path, next index] and inline tables [path]
        self.stack: list[tuple[KeyPath, list[int] | None]] = []

    # -- characters -------------------------------------------------------------------------------

    def _move(self, j: int) -> None:
        self.line += self.s.count("\n", self.i, j)
        self.i = min(j, self.n)

    def _space(self, newlines: bool) -> None:
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c in " \t\r":
                self.i += 1
            elif c == "#":
                end = s.find("\n", self.i)
                self.i = n if end < 0 else end
            elif c == "\n" and newlines:
                self.line += 1
                self.i += 1
            else:
                return

    def _string_end(self, i: int) -> int:
        """Index just past the string starting at ``i`` (any of the four TOML string kinds)."""
        s = self.s
        quote = s[i]
        if s.startswith(quote * 3, i):
            j = i + 3
            while j < self.n:
                if quote == '"' and s[j] == "\\":
                    j += 2
                    continue
                if s.startswith(quote * 3, j):
                    j += 3
                    extra = 0
                    while extra < 2 and j < self.n and s[j] == quote:  # up to 2 quotes before
                        j, extra = j + 1, extra + 1
                    return j
                j += 1
            return self.n
        j = i + 1
        while j < self.n and s[j] != quote and s[j] != "\n":
            j += 2 if quote == '"' and s[j] == "\\" else 1
        return j + 1

    def _key(self) -> tuple[str, ...]:
        parts: list[str] = []
        while self.i < self.n:
            self._space(False)
            if self.i < self.n and self.s[self.i] in "\"'":
                end = self._string_end(self.i)
                raw = self.s[self.i : end]
                self._move(end)
                try:
                    parts.append(str(tomllib.loads(f"k = {raw}")["k"]))
                except tomllib.TOMLDecodeError:
                    parts.append(raw[1:-1])
            else:
                match = _BARE.match(self.s, self.i)
                if match is None:
                    break
                parts.append(match.group())
                self.i = match.end()
            self._space(False)
            if self.i < self.n and self.s[self.i] == ".":
                self.i += 1
                continue
            break
        return tuple(parts)

    def _record(self, path: KeyPath) -> None:
        for k in range(1, len(path)):
            self.found.setdefault(path[:k], self.line)
        self.found[path] = self.line

    # -- structure --------------------------------------------------------------------------------

    def run(self) -> dict[KeyPath, int]:
        table: KeyPath = ()
        while True:
            self._space(True)
            if self.i >= self.n:
                return self.found
            if self.s[self.i] == "[":
                table = self._header()
            else:
                self._assignment(table)

    def _header(self) -> KeyPath:
        many = self.s.startswith("[[", self.i)
        self.i += 2 if many else 1
        parts = self._key()
        self._space(False)
        self.i += 2 if many else 1
        path: KeyPath = ()
        for part in parts[:-1] if many else parts:
            path += (part,)
            if path in self.tables:  # a sub-table of the last element of an array of tables
                path += (self.tables[path] - 1,)
        if many:
            path += (parts[-1],)
            index = self.tables.get(path, 0)
            self.tables[path] = index + 1
            path += (index,)
        self._record(path)
        return path

    def _assignment(self, table: KeyPath) -> None:
        key = self._key()
        self._space(False)
        if not key or self.i >= self.n or self.s[self.i] != "=":
            end = self.s.find("\n", self.i + 1)  # not TOML: skip the line
            self.i = self.n if end < 0 else end
            return
        path = table + key
        self._record(path)
        self.i += 1
        self._value(path)
        while self.stack and self.i < self.n:
            self._space(True)
            if self.i >= self.n:
                return
            path, counter = self.stack[-1]
            c = self.s[self.i]
            if c in "]}":
                self.stack.pop()
                self.i += 1
            elif c == ",":
                self.i += 1
            elif counter is not None:  # an array element
                counter[0] += 1
                element: KeyPath = (*path, counter[0] - 1)
                self._record(element)
                self._value(element)
            else:  # a key of an inline table
                inner: KeyPath = (*path, *self._key())
                self._record(inner)
                self._space(False)
                self.i += 1  # "="
                self._value(inner)

    def _value(self, path: KeyPath) -> None:
        self._space(False)
        if self.i >= self.n:
            return
        c = self.s[self.i]
        if c == "[":
            self.stack.append((path, [0]))
            self.i += 1
        elif c == "{":
            self.stack.append((path, None))
            self.i += 1
        elif c in "\"'":
            start = self.i
            self._move(self._string_end(self.i))
            self.spans[path] = (start, self.i)
        else:
            start = self.i
            match = _SCALAR_END.search(self.s, self.i)
            self.i = self.n if match is None else match.start()
            self.spans[path] = (start, start + len(self.s[start : self.i].rstrip(" \t\r")))
