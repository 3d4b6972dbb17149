"""The parser of the condition language: text to a syntax tree, never evaluated as Python.
Bounded (digits, nesting, terms, counts) and typed; every error names the column of the
offending token and suggests a known name.

    condition  := or
    or         := and ("or" and)*
    and        := not ("and" not)*
    not        := "not" not | "(" or ")" | comparison
    comparison := sum [op sum | ["not"] "in" "[" value ("," value)* "]"] | shape
    shape      := "shape" "(" group "," attr ")" ("==" | "!=") list
                | "shape" "(" group "," attr ")" ["not"] "in" "[" list ("," list)* "]"
    list       := "[" integer ("," integer)* "]"
    sum        := operand (("+" | "-") operand)*
    operand    := feature | value | "count" "(" group "," card_condition ")"
                | "most" "(" group "," attr ")"
    value      := ["-"] integer | true | false | none | player | banker | tie | rank | suit
                | colour | mixed | poker category
    group      := player | banker | initial | round

``color`` reads as ``colour``.

>>> from exactodds.language.parser import parse_node
>>> parse_node("player.total + 1 in [8, 9]")  # doctest: +NORMALIZE_WHITESPACE
In(var=Sum(terms=((1, Var(name='player.total')), (1, Const(value=1)))), values=(8, 9),
   negated=False)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from exactodds.deal.round import FEATURE_KINDS, FeatureKind
from exactodds.errors import ConditionError, quote
from exactodds.language.nodes import (
    And,
    Cmp,
    Const,
    Count,
    In,
    Most,
    Node,
    Not,
    Operand,
    Or,
    Shape,
    Sum,
    Value,
    Var,
    node_text,
    value_text,
)
from exactodds.language.semantics import OPS
from exactodds.language.vocabulary import (
    ATTRIBUTE_VALUES,
    CARD_ATTRIBUTES,
    CARD_FEATURE_KINDS,
    GROUP_CARDS,
    GROUPS,
    POKER,
    RANK_WORDS,
    SUIT_WORDS,
    CardKind,
)
from exactodds.limits import (
    MAX_CONDITION_COUNTS,
    MAX_CONDITION_DEPTH,
    MAX_DIGITS,
    MAX_SUM_TERMS,
)
from exactodds.suggest import ALIASES, did_you_mean

_ALL_KINDS: Mapping[str, FeatureKind | CardKind] = {**FEATURE_KINDS, **CARD_FEATURE_KINDS}


# The feature kinds (exactodds.deal.round.FEATURE_KINDS), by short name for the type checks below.
_INT, _BOOL, _WINNER, _THIRD = (
    FeatureKind.INTEGER,
    FeatureKind.BOOLEAN,
    FeatureKind.WINNER,
    FeatureKind.THIRD,
)
_KNOWN = (
    "winner, margin, cards, initial.poker, count(GROUP, …), and player. or banker. "
    + ", ".join(
        name.removeprefix("player.")
        for name in ("player.total", *FEATURE_KINDS, *CARD_FEATURE_KINDS)
        if name.startswith("player.") and ".card2" not in name and ".card3" not in name
    ).replace("total, total", "total")
    + " (also card2, card3)"
)

_TOKEN = re.compile(
    r"(?P<num>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<str>\"[^\"]*\"|'[^']*')|(?P<op>==|!=|<=|>=|<|>|\(|\)|\[|\]|,|\+|-)"
)
_SPACE = re.compile(r"\s*")
_KEYWORDS = {"and", "or", "not", "in"}
_WORD_VALUES: dict[str, Value] = {
    "true": True,
    "false": False,
    "none": None,
    "player": "player",
    "banker": "banker",
    "tie": "tie",
    **{word: word for word in (*SUIT_WORDS, "red", "black", "mixed", *POKER)},
    **{word: (word.upper() if word != "t" else 10) for word in RANK_WORDS},
}


@dataclass(slots=True)
class _Token:
    kind: str  # num, name, str, op, end
    text: str
    pos: int


_NEXT = re.compile(rf"\s*(?:{_TOKEN.pattern})")  # spaces, then a token


def _tokenize(text: str) -> list[_Token]:
    """The tokens of a condition, in one linear pass (one match per token)."""
    tokens, pos = [], 0
    match = _NEXT.match
    while (m := match(text, pos)) is not None:
        kind = m.lastgroup or "op"
        start, pos = m.span(kind)
        if kind == "num" and pos - start > MAX_DIGITS:
            raise ConditionError(
                f"number {quote(m[kind], 40)} at column {start + 1} has more than "
                f"{MAX_DIGITS} digits (the limit)"
            )
        tokens.append(_Token(kind, m[kind], start))
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # \s* always matches
    if pos != len(text):
        raise ConditionError(
            f"unexpected character {text[pos]!r} at column {pos + 1} in {quote(text)}"
        )
    tokens.append(_Token("end", "", len(text)))
    return tokens


_NUMERIC = frozenset({_INT, _THIRD})

_SPELLINGS = {word: ALIASES[word] for word in ("color", "colors")}
"""Spellings read as the language's own (the US ``color``), part by part of a dotted name."""


def _spelled(name: str) -> str:
    """``name`` with each dotted part in the language's spelling (``player.color``: colour)."""
    return ".".join(_SPELLINGS.get(part, part) for part in name.split("."))


def _kind(operand: Operand, card_mode: bool) -> FeatureKind | CardKind | None:
    """The kind of values an operand takes (None for a literal); a sum reading a card that may
    be absent (``player.card3.value + 1``) takes integers or ``none``."""
    if isinstance(operand, Var):
        return (CARD_ATTRIBUTES if card_mode else _ALL_KINDS)[operand.name]
    if isinstance(operand, Sum):
        kinds = {_kind(term, card_mode) for _, term in operand.terms}
        return _THIRD if _THIRD in kinds and not card_mode else _INT
    if isinstance(operand, Count | Most):
        return _INT
    return None


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0  # parentheses and nots open: bounded before Python's recursion is
        self.card_mode = False  # inside count(GROUP, …): features are one card's
        self.counts = 0

    def error(self, message: str, tok: _Token | None = None, hint: str = "") -> ConditionError:
        tok = tok or self.tokens[self.i]
        where = "at the end" if tok.kind == "end" else f"at column {tok.pos + 1}"
        return ConditionError(f"{message} {where} of condition {quote(self.text)}{hint}")

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        tok = self.peek()
        if tok.kind in ("op", "name") and tok.text.lower() == text:
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            tok = self.peek()
            found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
            raise self.error(f"expected {text!r}, found {found}")

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise self.error("empty condition")
        node = self.parse_or()
        if self.peek().kind != "end":
            raise self.error(f"unexpected {quote(self.peek().text, 40)}")
        return node

    def parse_or(self) -> Node:
        items = [self.parse_and()]
        while self.accept("or"):
            items.append(self.parse_and())
        return _join(Or, items)

    def parse_and(self) -> Node:
        items = [self.parse_not()]
        while self.accept("and"):
            items.append(self.parse_not())
        return _join(And, items)

    def nest(self, tok: _Token) -> None:
        self.depth += 1
        if self.depth > MAX_CONDITION_DEPTH:
            raise self.error(
                f"parentheses, 'not' and 'count' nested more than {MAX_CONDITION_DEPTH} deep "
                "(the limit)",
                tok,
            )

    def parse_not(self) -> Node:
        tok = self.peek()
        if tok.kind in ("op", "name") and tok.text.lower() in ("not", "("):
            self.nest(tok)
            self.take()
            if tok.text == "(":
                node = self.parse_or()
                self.expect(")")
            else:
                node = Not(self.parse_not())
            self.depth -= 1
            return node
        return self.parse_comparison()

    def parse_count(self, tok: _Token) -> Count:
        if self.card_mode:
            raise self.error("count(…) cannot be nested in another count", tok)
        self.counts += 1
        if self.counts > MAX_CONDITION_COUNTS:
            raise self.error(f"more than {MAX_CONDITION_COUNTS} count(…) (the limit)", tok)
        self.nest(tok)
        self.expect("(")
        group = self.name_in(GROUPS, "a group", "count")
        self.expect(",")
        self.card_mode = True
        card = self.parse_or()
        self.card_mode = False
        self.expect(")")
        self.depth -= 1
        return Count(group, card)

    def parse_operand(self) -> Var | Const | Count | Most:
        tok = self.take()
        if tok.kind == "op" and tok.text == "-" and self.peek().kind == "num":
            return Const(-int(self.take().text))  # a negative literal
        if tok.kind == "num":
            return Const(int(tok.text))
        if tok.kind == "str":
            word = tok.text[1:-1].strip().lower()
            if word not in ("player", "banker", "tie"):
                raise self.error(
                    f"unknown value {quote(tok.text, 40)[1:-1]}",
                    tok,
                    did_you_mean(word, ("player", "banker", "tie")),
                )
            return Const(word)
        if tok.kind == "name":
            return self.parse_name(tok)
        found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
        if tok.kind == "op" and tok.text == "-":
            raise self.error(f"'-' before a feature: write it as a difference, found {found}", tok)
        raise self.error(f"expected a feature or a value, found {found}", tok)

    def parse_name(self, tok: _Token) -> Var | Const | Count | Most:
        """A name: a feature, a word value, ``count(…)`` or ``most(…)``; an unknown one with a
        suggestion."""
        low = _spelled(tok.text.lower())
        if low in _KEYWORDS:
            raise self.error(f"unexpected {quote(tok.text, 40)}", tok)
        if low in ("count", "most", "shape") and self.peek().text == "(":
            return self.parse_call(low, tok)
        if self.card_mode:
            if low in CARD_ATTRIBUTES:
                return Var(low)
        elif low in _ALL_KINDS:
            return Var(low)
        if low in _WORD_VALUES:
            return Const(_WORD_VALUES[low])
        if self.card_mode:
            raise self.error(
                f"unknown card feature {quote(tok.text, 40)} inside count "
                f"(known: {', '.join(CARD_ATTRIBUTES)})",
                tok,
                did_you_mean(low, [*CARD_ATTRIBUTES, *_WORD_VALUES]),
            )
        hint = did_you_mean(low, [*_ALL_KINDS, *_WORD_VALUES, "count", "most", "shape"])
        known = "" if hint else f" (known: {_KNOWN})"  # the suggestion, else the list
        raise self.error(f"unknown feature {quote(tok.text, 40)}{known}", tok, hint)

    def parse_call(self, name: str, tok: _Token) -> Count | Most:
        """``count(…)`` or ``most(…)`` as an operand (``shape(…)`` is not a number)."""
        if name == "count":
            return self.parse_count(tok)
        if name == "most":
            return Most(*self.parse_group_attr(tok))
        raise self.error(
            "shape(…) is a list of multiplicities, not a number: compare it with a list "
            "(shape(round, rank) == [3, 3]) or use most(…)",
            tok,
        )

    def parse_group_attr(self, tok: _Token) -> tuple[str, str]:
        """``(GROUP, ATTR)`` after ``most`` or ``shape``."""
        if self.card_mode:
            raise self.error(f"{tok.text.lower()}(…) cannot be inside count", tok)
        self.counts += 1
        if self.counts > MAX_CONDITION_COUNTS:
            raise self.error(
                f"more than {MAX_CONDITION_COUNTS} count(…), most(…) and shape(…) (the limit)", tok
            )
        self.expect("(")
        group = self.name_in(GROUPS, "a group", tok.text.lower())
        self.expect(",")
        attr = self.name_in(CARD_ATTRIBUTES, "a card attribute", tok.text.lower())
        self.expect(")")
        return group, attr

    def name_in(self, known: Collection[str], what: str, owner: str) -> str:
        """The next token, a name among ``known`` (in the language's spelling), else an error
        at it naming ``what`` ``owner`` needs, with the closest known name."""
        name_tok = self.take()
        name = _spelled(name_tok.text.lower())
        if name_tok.kind != "name" or name not in known:
            found = "end of text" if name_tok.kind == "end" else quote(name_tok.text, 40)
            raise self.error(
                f"{owner} needs {what} ({', '.join(known)}), found {found}",
                name_tok,
                did_you_mean(name, known) if name_tok.kind == "name" else "",
            )
        return name

    def parse_shape(self, tok: _Token) -> Shape:
        """``shape(GROUP, ATTR)`` compared with a list, or ``[not] in`` a list of lists."""
        group, attr = self.parse_group_attr(tok)
        op = self.take()
        low = op.text.lower()
        negated = low in ("!=", "not")
        if low == "not" and not self.accept("in"):
            raise self.error("expected 'in' after 'not'")
        if low in ("==", "!="):
            shapes = [self.parse_shape_list(group, attr)]
        elif low in ("in", "not"):
            self.expect("[")
            shapes = [self.parse_shape_list(group, attr)]
            while not self.accept("]"):
                self.expect(",")
                shapes.append(self.parse_shape_list(group, attr))
                if len(shapes) > MAX_SUM_TERMS:
                    raise self.error(f"a list of more than {MAX_SUM_TERMS} shapes (the limit)", op)
        else:
            found = "end of text" if op.kind == "end" else quote(op.text, 40)
            raise self.error(
                "shape(…) is compared with '==' or '!=' and a list (== [3, 3]) or with 'in' and "
                f"a list of lists (in [[4], [3, 1]]), found {found}",
                op,
            )
        return Shape(group, attr, tuple(dict.fromkeys(shapes)), negated)

    def parse_shape_list(self, group: str, attr: str) -> tuple[int, ...]:
        """One shape: ``[a, b, …]``, whole numbers from the largest that the group can have."""
        start = self.peek()
        self.expect("[")
        parts: list[int] = []
        fewest, most = GROUP_CARDS[group]
        while True:
            tok = self.take()
            if tok.kind != "num":
                found = "end of text" if tok.kind == "end" else quote(tok.text, 40)
                raise self.error(f"a shape lists whole numbers (as [3, 1]), found {found}", tok)
            parts.append(int(tok.text))
            if not 1 <= parts[-1] <= most or len(parts) > most:
                what = "parts" if len(parts) > most else f"a part {quote(tok.text, 20)}"
                raise self.error(f"{group} holds at most {most} cards: no shape has {what}", tok)
            if self.accept("]"):
                break
            self.expect(",")
        shape = tuple(parts)
        text = f"[{', '.join(map(str, shape))}]"
        if list(shape) != sorted(shape, reverse=True):
            raise self.error(
                f"a shape lists multiplicities from the largest: "
                f"{[*sorted(shape, reverse=True)]} rather than {text}",
                start,
            )
        if not fewest <= sum(shape) <= most:
            cards = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise self.error(
                f"{group} holds {cards} cards, not the {sum(shape)} of shape {text}", start
            )
        if len(shape) > ATTRIBUTE_VALUES[attr]:
            raise self.error(
                f"there are {ATTRIBUTE_VALUES[attr]} {attr}s, not the {len(shape)} of shape {text}",
                start,
            )
        return shape

    def parse_sum(self) -> Operand:
        start = self.peek()
        first = self.parse_operand()
        if not (self.peek().kind == "op" and self.peek().text in "+-"):
            return first
        terms: list[tuple[int, Var | Const | Count | Most]] = [(1, first)]
        where = [start]
        while self.peek().kind == "op" and self.peek().text in "+-":
            sign = 1 if self.take().text == "+" else -1
            where.append(self.peek())
            terms.append((sign, self.parse_operand()))
            if len(terms) > MAX_SUM_TERMS:
                raise self.error(f"a sum of more than {MAX_SUM_TERMS} terms (the limit)", start)
        for (_, term), tok in zip(terms, where, strict=True):
            kind = _kind(term, self.card_mode)
            is_int = isinstance(term, Const) and type(term.value) is int
            if kind not in _NUMERIC and not is_int:
                what = term.name if isinstance(term, Var) else node_text(term)
                raise self.error(
                    f"'+' and '-' take integers (totals, counts, values, numbers), not {what!r}",
                    tok,
                )
        return Sum(tuple(terms))

    def parse_comparison(self) -> Node:
        start = self.peek()
        if (
            start.kind == "name"
            and start.text.lower() == "shape"
            and self.tokens[self.i + 1].text == "("
        ):
            self.take()
            return self.parse_shape(start)
        left = self.parse_sum()
        tok = self.peek()
        if tok.kind == "op" and tok.text in OPS:
            self.take()
            right_tok = self.peek()
            right = self.parse_sum()
            node = Cmp(tok.text, left, right)
            self.check_cmp(node, start, tok, right_tok)
            return node
        negated = False
        if tok.kind == "name" and tok.text.lower() == "not":
            nxt = self.tokens[self.i + 1]
            if nxt.kind == "name" and nxt.text.lower() == "in":
                self.take()
                negated = True
        in_tok = self.peek()
        if self.accept("in"):
            return self.parse_in(left, negated, in_tok)
        if isinstance(left, Var):
            if _kind(left, self.card_mode) != _BOOL:
                raise self.error(
                    f"feature {left.name!r} is not true/false: compare it (e.g. {left.name} == …)",
                    start,
                )
            return left
        if isinstance(left, Const) and isinstance(left.value, bool):
            return left
        raise self.error(f"{node_text(left)!r} is not a condition", start)

    def parse_in(self, left: Operand, negated: bool, in_tok: _Token) -> Node:
        """The list of ``OPERAND [not] in [v, …]`` (a feature, a sum or a count), after the
        ``in``; errors point at the ``in`` or at the value."""
        number: int | None = None
        if isinstance(left, Const) and type(left.value) is int:
            number = left.value  # a number alone: checked as a sum of one term, then folded
            left = Sum(((1, left),))
        if isinstance(left, Const):
            raise self.error("'in' needs a feature, a sum, a count or most(…) on its left", in_tok)
        self.expect("[")
        values: list[Value] = []
        if not self.accept("]"):
            while True:
                tok = self.peek()
                operand = self.parse_operand()
                if not isinstance(operand, Const):
                    raise self.error("a list holds values, not features", tok)
                self.check_value(left, operand.value, tok)
                values.append(operand.value)
                if len(values) > MAX_SUM_TERMS:
                    raise self.error(f"a list of more than {MAX_SUM_TERMS} values", in_tok)
                if self.accept("]"):
                    break
                self.expect(",")
        if number is not None:
            return Const((number in values) != negated)
        return In(left, tuple(values), negated)

    def check_value(self, operand: Operand, value: Value, tok: _Token) -> None:
        kind = _kind(operand, self.card_mode)
        assert kind is not None
        integer = isinstance(value, int) and not isinstance(value, bool)
        ok = {
            _INT: integer,
            _BOOL: isinstance(value, bool),
            _WINNER: value in ("player", "banker", "tie"),
            _THIRD: value is None or integer,
            CardKind.RANK: value is None
            or value in ("A", "J", "Q", "K")
            or (integer and 2 <= value <= 10),  # type: ignore[operator]
            CardKind.SUIT: value is None or value in SUIT_WORDS,
            CardKind.COLOUR: value is None or value in ("red", "black"),
            CardKind.HAND_COLOUR: value in ("red", "black", "mixed"),
            CardKind.POKER: value in POKER,
        }[kind]
        if not ok:
            name = operand.name if isinstance(operand, Var) else node_text(operand)
            raise self.error(f"{name} takes {kind} values, not {value_text(value)!r}", tok)

    def check_cmp(self, node: Cmp, start: _Token, op: _Token, right: _Token) -> None:
        """Type checks of a comparison; errors point at the operator, or at the literal."""
        operands = [o for o in (node.left, node.right) if not isinstance(o, Const)]
        if not operands:
            raise self.error("a comparison needs a feature", start)
        kinds = [_kind(o, self.card_mode) for o in operands]
        names = [o.name if isinstance(o, Var) else node_text(o) for o in operands]
        if len(operands) == 2:
            if kinds[0] != kinds[1] and not (kinds[0] in _NUMERIC and kinds[1] in _NUMERIC):
                raise self.error(f"cannot compare {names[0]} with {names[1]}", op)
        else:
            const = node.right if isinstance(node.right, Const) else node.left
            assert isinstance(const, Const)
            self.check_value(operands[0], const.value, right if const is node.right else start)
        if node.op not in ("==", "!=") and set(kinds) - _NUMERIC:
            raise self.error(f"{node.op!r} needs numbers, not {names[0]}", op)
        if node.op not in ("==", "!=") and Const(None) in (node.left, node.right):
            raise self.error(f"none is not ordered: {node.op!r} needs numbers (use == none)", op)


def _join(kind: type[And] | type[Or], items: list[Node]) -> Node:
    if len(items) == 1:
        return items[0]
    flat: list[Node] = []
    for item in items:
        flat.extend(item.items if isinstance(item, kind) else (item,))
    return kind(tuple(flat))


def parse_node(text: str) -> Node:
    """The syntax tree of a condition's text (its length is bounded by the caller,
    :func:`~exactodds.language.condition.parse_condition`)."""
    return _Parser(text).parse()
