"""The condition language: parsing, round trips, type checks, semantics, safety."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import (
    FEATURE_INDEX,
    FEATURE_KINDS,
    Hand,
    Outcome,
    PairKind,
    feature_record,
)
from exactodds.deal.shoe import Shoe
from exactodds.errors import ExactOddsError, PaytableError
from exactodds.language import (
    OTHERWISE,
    And,
    Cmp,
    Condition,
    Const,
    In,
    Node,
    Not,
    Or,
    Var,
    parse_condition,
)

INTS = [n for n, k in FEATURE_KINDS.items() if k == "integer"]
BOOLS = [n for n, k in FEATURE_KINDS.items() if k == "true/false"]
THIRDS = [n for n, k in FEATURE_KINDS.items() if k == "0-9 or none"]
OPS = ["==", "!=", "<", "<=", ">", ">="]


def _atoms() -> st.SearchStrategy[Node]:
    ints = st.builds(
        Cmp, st.sampled_from(OPS), st.sampled_from(INTS).map(Var), st.integers(0, 9).map(Const)
    )
    bools = st.sampled_from(BOOLS).map(Var)
    thirds = st.builds(
        Cmp,
        st.sampled_from(["==", "!="]),
        st.sampled_from(THIRDS).map(Var),
        st.one_of(st.none(), st.integers(0, 9)).map(Const),
    )
    winner = st.builds(
        Cmp,
        st.sampled_from(["==", "!="]),
        st.just(Var("winner")),
        st.sampled_from(["player", "banker", "tie"]).map(Const),
    )
    member = st.builds(
        In,
        st.sampled_from(INTS).map(Var),
        st.lists(st.integers(0, 9), min_size=1, max_size=4).map(tuple),
        st.booleans(),
    )
    return st.one_of(ints, bools, thirds, winner, member)


def _flatten(kind: type[And] | type[Or], items: list[Node]) -> Node:
    flat: list[Node] = []
    for item in items:
        flat.extend(item.items if isinstance(item, kind) else (item,))
    return kind(tuple(flat))


trees = st.recursive(
    _atoms(),
    lambda sub: st.one_of(
        sub.map(Not),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: _flatten(And, xs)),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: _flatten(Or, xs)),
    ),
    max_leaves=8,
)


def _reference(node: Node, o: Outcome) -> bool:
    """An independent evaluator of the syntax tree, written directly against Outcome."""

    def value(n: object) -> object:
        if isinstance(n, Const):
            return n.value
        if not isinstance(n, Var):  # card-level operands: tests/cardforce.py is their reference
            raise NotImplementedError(f"no round-level reference for {n!r}")
        side, _, attr = n.name.partition(".")
        if not attr:
            return o.winner.value if side == "winner" else getattr(o, side)
        hand = o.player if side == "player" else o.banker
        if attr == "wins":
            return o.winner.value == side
        return getattr(hand, attr)

    if isinstance(node, Var):
        return bool(value(node))
    if isinstance(node, Cmp):
        a, b = value(node.left), value(node.right)
        features = not isinstance(node.left, Const) and not isinstance(node.right, Const)
        if features and (a is None or b is None):
            return False  # two features, one a third card not drawn (docs/paytables.md)
        if node.op == "==":
            return a == b
        if node.op == "!=":
            return a != b
        if a is None or b is None:
            return False
        return bool({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op])  # type: ignore[operator]
    if isinstance(node, In):
        return (value(node.var) in node.values) != node.negated
    if isinstance(node, Not):
        return not _reference(node.item, o)
    if isinstance(node, And):
        return all(_reference(i, o) for i in node.items)
    if isinstance(node, Or):
        return any(_reference(i, o) for i in node.items)
    raise AssertionError(node)


OUTCOMES = list(joint_distribution(Shoe.decks(2)).counts)


@settings(max_examples=300, deadline=None)
@given(trees)
def test_generated_conditions_round_trip(tree: Node) -> None:
    cond = parse_condition(str(parse_condition(_text_of(tree))))
    assert cond.node == tree


@settings(max_examples=150, deadline=None)
@given(trees, st.sampled_from(OUTCOMES))
def test_compiled_condition_agrees_with_reference_evaluator(tree: Node, o: Outcome) -> None:
    cond = parse_condition(_text_of(tree))
    assert cond(o) == _reference(tree, o)


NUMERIC = [Var(n) for n in INTS + THIRDS]
pair_trees = st.recursive(
    st.one_of(
        _atoms(),
        st.builds(Cmp, st.sampled_from(OPS), st.sampled_from(NUMERIC), st.sampled_from(NUMERIC)),
    ),
    lambda sub: st.one_of(
        sub.map(Not),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: _flatten(And, xs)),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: _flatten(Or, xs)),
    ),
    max_leaves=6,
)
SAMPLE = OUTCOMES[::7]  # 2,017 outcomes spread over the joint: keeps the test fast
RECORDS = [feature_record(o) for o in SAMPLE]
INDEX: dict[str, dict[object, int]] = {name: {} for name in FEATURE_INDEX}
for _j, _record in enumerate(RECORDS):
    for _name, _i in FEATURE_INDEX.items():
        INDEX[_name][_record[_i]] = INDEX[_name].get(_record[_i], 0) | 1 << _j


@settings(max_examples=100, deadline=None)
@given(pair_trees)
def test_bitset_evaluation_agrees_with_reference_evaluator(tree: Node) -> None:
    """All records at once (as bitsets) give the same answer as each record alone."""
    expected = sum(1 << j for j, o in enumerate(SAMPLE) if _reference(tree, o))
    assert Condition(tree).bits(INDEX, (1 << len(SAMPLE)) - 1) == expected


def _text_of(tree: Node) -> str:
    return str(Condition(tree))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("player.totl == 9", "unknown feature 'player.totl'"),
        ("player.total == ", "expected a feature or a value, found end of text at the end"),
        ("player.total = 9", "unexpected character '=' at column 14"),
        ("player.total == true", "player.total takes integer values, not 'true'"),
        ("winner == 3", "winner takes player/banker/tie values, not '3'"),
        ("player.pair == 1", "player.pair takes true/false values"),
        ("player.total", "feature 'player.total' is not true/false"),
        ("winner > tie", "'>' needs numbers"),
        ("(player.pair", "expected ')'"),
        ("player.pair and", "expected a feature or a value"),
        ("", "empty condition"),
        ("7 == 7", "a comparison needs a feature"),
        ("player.total in [1, player.cards]", "a list holds values, not features"),
        ("player.pair banker.pair", "unexpected 'banker.pair' at column 13"),
        ("__import__('os').system('true')", "unexpected character '.' at column 17"),
    ],
)
def test_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(PaytableError) as info:
        parse_condition(text)
    assert message in str(info.value)


def test_otherwise_and_word_values() -> None:
    assert parse_condition("otherwise") is OTHERWISE
    assert parse_condition("winner == 'banker'") == parse_condition("winner == banker")
    o = Outcome(Hand(5, 3, PairKind.NONE), Hand(7, None, PairKind.PERFECT))
    assert parse_condition("player.third == 3 and banker.third == none")(o)
    assert parse_condition("banker.perfect_pair and banker.pair and player.cards == 3")(o)
    assert parse_condition("player.total > banker.total")(o)  # 8 > 7
    assert not parse_condition("player.third > banker.third")(o)  # none is not ordered
    assert parse_condition("margin == 1 and cards == 5 and winner == player")(o)


@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_project_errors(text: str) -> None:
    with contextlib.suppress(ExactOddsError):
        parse_condition(text)


def test_file_text_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for text in (
        f"__import__('os').system('touch {marker}')",
        f"open('{marker}', 'w')",
        "exec('1')",
    ):
        with pytest.raises(PaytableError):
            parse_condition(text)
    assert not marker.exists()
