"""A small evaluator, with exact fractions, for the spreadsheet formulas exactodds writes in XLSX
workbooks: numbers, cell references (``B5``, ``'tie'!B13``) and ranges, + - * / and ``>``,
strings, and the functions SUM, SUMIF, MAX, IF and SQRT. Anything else is refused, so a test
also proves the workbook keeps to that subset.

A square root is kept exact as a :class:`Surd` (``a + b·√r``); the spreadsheet computes it in
doubles, which the workbook says where it uses one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["FUNCTIONS", "Book", "Surd", "Value", "surd", "tokens"]


@dataclass(frozen=True)
class Surd:
    """``a + b·√r`` with ``b`` ≠ 0 and ``r`` > 0, exact."""

    a: Fraction
    b: Fraction
    r: Fraction

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * math.sqrt(self.r)


Value = Fraction | Surd | str | bool


def surd(a: Fraction, b: Fraction, r: Fraction) -> Fraction | Surd:
    """``a + b·√r``, a fraction when there is no root."""
    return a if b == 0 or r == 0 else Surd(Fraction(a), Fraction(b), Fraction(r))


def _parts(x: Value) -> tuple[Fraction, Fraction, Fraction]:
    if isinstance(x, Surd):
        return x.a, x.b, x.r
    assert isinstance(x, Fraction), x
    return x, Fraction(0), Fraction(0)


def _add(x: Value, y: Value, sign: int) -> Value:
    (a, b, r), (c, d, s) = _parts(x), _parts(y)
    assert b == 0 or d == 0 or r == s, (x, y)  # one root at most
    return surd(a + sign * c, b + sign * d, r or s)


def _mul(x: Value, y: Value) -> Value:
    if isinstance(x, Surd):
        x, y = y, x
    assert isinstance(x, Fraction), (x, y)
    a, b, r = _parts(y)
    return surd(x * a, x * b, r)


def _div(x: Value, y: Value) -> Value:
    assert isinstance(y, Fraction) and y != 0, (x, y)
    return _mul(1 / y, x)


_TOKEN = re.compile(
    r"\s*(?:(?P<ref>(?:'(?:[^']|'')+'!)?[A-Z]{1,3}[0-9]+)|(?P<number>[0-9]+(?:\.[0-9]+)?)"
    r'|(?P<string>"[^"]*")|(?P<name>[A-Z]+)\(|(?P<op>[-+*/>(),:]))'
)


def tokens(formula: str) -> list[tuple[str, str]]:
    """The formula's tokens (kind, text), or AssertionError for anything outside the subset."""
    body, out, at = formula.removeprefix("="), [], 0
    while at < len(body):
        m = _TOKEN.match(body, at)
        assert m is not None and m.end() > at, f"not in the subset: {formula!r} at {at}"
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind)))
        at = m.end()
    return out


def _sum(values: list[Value]) -> Value:
    total: Value = Fraction(0)
    for v in values:
        total = _add(total, v, 1)
    return total


def _sumif(keys: list[Value], criterion: Value, values: list[Value]) -> Value:
    if criterion == ">0":
        picked = [v for k, v in zip(keys, values, strict=True) if _positive(k)]
    else:
        picked = [v for k, v in zip(keys, values, strict=True) if k == criterion]
    return _sum(picked)


def _positive(x: Value) -> bool:
    assert isinstance(x, Fraction), x
    return x > 0


def _max(*groups: Value | list[Value]) -> Value:
    values = [v for g in groups for v in (g if isinstance(g, list) else [g])]
    assert values and all(isinstance(v, Fraction) for v in values), values
    return max(values)  # type: ignore[type-var]


def _if(condition: Value, yes: Value, no: Value) -> Value:
    assert isinstance(condition, bool), condition
    return yes if condition else no


def _sqrt(x: Value) -> Value:
    assert isinstance(x, Fraction) and x >= 0, x
    return surd(Fraction(0), Fraction(1), x)


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "SUM": lambda *groups: _sum([v for g in groups for v in g]),
    "SUMIF": _sumif,
    "MAX": _max,
    "IF": _if,
    "SQRT": _sqrt,
}


class Book:
    """Evaluates the formula cells of an openpyxl workbook (loaded with its formulas). A number
    cell stands for the exact ``p/q`` text exactodds writes beside it (checked to agree), an
    integer for itself; ``evaluated`` records every formula cell computed."""

    def __init__(self, book: Any) -> None:
        self.book = book
        self.evaluated: dict[tuple[str, str], Value] = {}

    def cell(self, sheet: str, ref: str) -> Value:
        key = (sheet, ref)
        if key in self.evaluated:
            return self.evaluated[key]
        ws = self.book[sheet]
        value = ws[ref].value
        if isinstance(value, str) and value.startswith("="):
            result = self.formula(sheet, value)
            self.evaluated[key] = result
            return result
        if isinstance(value, bool) or value is None:
            raise AssertionError(f"{sheet}!{ref} is {value!r}")
        if isinstance(value, int):
            return Fraction(value)
        if isinstance(value, str):
            return value
        beside = ws.cell(ws[ref].row, ws[ref].column + 1).value
        exact = Fraction(beside)
        assert abs(float(exact) - value) <= 1e-12 * max(1.0, abs(value)), (sheet, ref)
        return exact

    def formula(self, sheet: str, formula: str) -> Value:
        """The value of ``formula`` on ``sheet``."""
        return _Parser(self, sheet, tokens(formula)).run()


class _Parser:
    """compare := sum ['>' sum]; sum := term {(+|-) term}; term := unary {(*|/) unary};
    unary := '-' unary | primary; primary := number | string | ref [':' ref] | NAME(args) |
    '(' compare ')'."""

    def __init__(self, book: Book, sheet: str, items: list[tuple[str, str]]) -> None:
        self.book, self.sheet, self.items, self.at = book, sheet, items, 0

    def peek(self) -> tuple[str, str]:
        return self.items[self.at] if self.at < len(self.items) else ("end", "")

    def take(self, text: str | None = None) -> tuple[str, str]:
        item = self.peek()
        assert text is None or item[1] == text, (item, text)
        self.at += 1
        return item

    def run(self) -> Value:
        value = self.compare()
        assert self.peek()[0] == "end", self.items
        return value

    def compare(self) -> Value:
        left = self.sum()
        if self.peek()[1] == ">":
            self.take()
            right = self.sum()
            assert isinstance(left, Fraction) and isinstance(right, Fraction)
            return left > right
        return left

    def sum(self) -> Value:
        value = self.term()
        while self.peek()[1] in ("+", "-"):
            sign = 1 if self.take()[1] == "+" else -1
            value = _add(value, self.term(), sign)
        return value

    def term(self) -> Value:
        value = self.unary()
        while self.peek()[1] in ("*", "/"):
            op = self.take()[1]
            right = self.unary()
            value = _mul(value, right) if op == "*" else _div(value, right)
        return value

    def unary(self) -> Value:
        if self.peek()[1] == "-":
            self.take()
            return _mul(Fraction(-1), self.unary())
        value = self.primary()
        assert not isinstance(value, list), "a range outside a function"
        return value

    def primary(self) -> Value | list[Value]:
        kind, text = self.take()
        if kind == "number":
            return Fraction(text)
        if kind == "string":
            return text[1:-1]
        if kind == "ref":
            return self.reference(text)
        if kind == "name":
            assert text in FUNCTIONS, f"function {text} is not in the subset"
            args: list[Value | list[Value]] = []
            while self.peek()[1] != ")":
                args.append(self.argument())
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
            return FUNCTIONS[text](*args)
        assert text == "(", (kind, text)
        value = self.compare()
        self.take(")")
        return value

    def argument(self) -> Value | list[Value]:
        kind = self.peek()[0]
        following = self.items[self.at + 1] if self.at + 1 < len(self.items) else ("end", "")
        if kind == "ref" and following[1] == ":":
            return self.primary()
        return self.compare()

    def reference(self, text: str) -> Value | list[Value]:
        sheet, ref = self.sheet, text
        if "!" in text:
            quoted, ref = text.rsplit("!", 1)
            sheet = quoted[1:-1].replace("''", "'")
        if self.peek()[1] != ":":
            return self.book.cell(sheet, ref)
        self.take(":")
        _, last = self.take()
        ws = self.book.book[sheet]
        first, end = ws[ref], ws[last]
        assert first.column == end.column, (ref, last)
        rows = range(first.row, end.row + 1)
        return [self.book.cell(sheet, f"{first.column_letter}{r}") for r in rows]


def rows_under(ws: Any, header: str) -> list[Any]:
    """The rows of ``ws`` under the row whose first cell is ``header``, up to a blank row."""
    body = list(ws.iter_rows())
    start = next(i for i, r in enumerate(body) if r[0].value == header)
    out = []
    for r in body[start + 1 :]:
        if r[0].value is None:
            break
        out.append(r)
    return out
