"""Fuzzing every reader: any input either succeeds or raises the project's error, within 2 s.

Inputs are drawn both as free text and as soups of the tokens each reader knows, so the
generated cases reach deep into the grammars rather than failing on the first character.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import parse_paytable, validate_paytable
from exactodds.bets.payout import parse_payout
from exactodds.cli import run
from exactodds.deal.shoe import Shoe, parse_cards
from exactodds.deal.tableau import Tableau
from exactodds.errors import MAX_LINE, ExactOddsError
from exactodds.language import parse_condition

FUZZ = settings(max_examples=100, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


def soup(tokens: list[str], max_size: int = 12, sep: str = " ") -> st.SearchStrategy[str]:
    """Texts made of known tokens (and a little noise)."""
    return st.lists(st.sampled_from(tokens) | st.text(max_size=3), max_size=max_size).map(sep.join)


def either(call: Callable[[], object]) -> None:
    """The call succeeds or raises an ExactOddsError whose message is bounded."""
    try:
        call()
    except ExactOddsError as exc:
        assert len(str(exc)) < 2000


CONDITION_TOKENS = [
    "player.total", "banker.third", "winner", "margin", "cards", "player.pair", "banker.wins",
    "==", "!=", "<", ">=", "and", "or", "not", "in", "(", ")", "[", "]", ",", "9", "0", "10",
    "none", "true", "tie", "'banker'", '"x', "otherwise", "9" * 40, "player.", ".total",
]  # fmt: skip


@FUZZ
@given(st.text(max_size=80) | soup(CONDITION_TOKENS, 16))
def test_conditions(text: str) -> None:
    either(lambda: parse_condition(text))


@FUZZ
@given(st.integers(0, 200), st.sampled_from(["(", "not ", "not ("]))
def test_deep_conditions(depth: int, opener: str) -> None:
    text = opener * depth + "player.wins" + ")" * (depth * opener.count("("))
    either(lambda: parse_condition(text))


PAYOUT_TOKENS = [
    "1", "0", "11", "0.95", "19/20", "1/0", ":", "to", "for", "less", "minus", "-", "%",
    "commission", "push", "lose", ".", "/", "9" * 31, "١",
]  # fmt: skip


@FUZZ
@given(
    st.text(max_size=40)
    | soup(PAYOUT_TOKENS, 8)
    | soup(PAYOUT_TOKENS, 8, "")
    | st.integers()
    | st.floats()
    | st.none()
    | st.lists(st.integers(), max_size=2)
)
def test_payouts(value: object) -> None:
    either(lambda: parse_payout(value))


CARD_TOKENS = ["A", "10", "T", "k", "Kd", "7h", "9♠", "6", ",", "Xq", "10z", "♥", "1"]


@FUZZ
@given(st.text(max_size=60) | soup(CARD_TOKENS, 20) | soup(CARD_TOKENS, 20, ""))
def test_card_strings(text: str) -> None:
    either(lambda: parse_cards(text))
    either(lambda: Shoe.decks(1).remove(text))


def _values() -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(10**31), 10**31)
        | st.fractions(max_denominator=10**6)
        | st.text(max_size=12)
        | st.sampled_from(["any", "none", "stood", "6 6 7h", "A", "c", "0", "7", "8:1"])
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_keys(), inner, max_size=5),
        max_leaves=12,
    )


def _keys() -> st.SearchStrategy[str]:
    known = [
        "decks", "ranks", "cards", "remove", "name", "description", "A", "K", "10", "T", "c",
        "h", "S", "player_draw", "banker_draw", "0", "1", "5", "7", "8", "rules", "bets",
        "rows", "when", "pays", "event", "max_round", "rounding", "step", "mode", "tie",
    ]  # fmt: skip
    return st.sampled_from(known) | st.text(max_size=6)


@FUZZ
@given(st.dictionaries(_keys(), _values(), max_size=6))
def test_shoe_data(data: dict[str, Any]) -> None:
    either(lambda: Shoe.from_mapping(data))


@FUZZ
@given(st.dictionaries(_keys(), _values(), max_size=6))
def test_rules_data(data: dict[str, Any]) -> None:
    either(lambda: Tableau.from_mapping(data))


ROW = st.fixed_dictionaries(
    {},
    optional={
        "when": st.sampled_from(["winner == tie", "player.pair", "otherwise", "x =="]) | _values(),
        "pays": st.sampled_from(["8:1", "push", "lose", "1:1 less 5%"]) | _values(),
        "event": _values(),
    },
)
BET = st.fixed_dictionaries(
    {"rows": st.lists(ROW, max_size=4) | _values()},
    optional={"max_round": _values(), "rounding": _values(), "name": _values()},
)


@FUZZ
@given(
    st.fixed_dictionaries(
        {"bets": st.dictionaries(st.text(max_size=8), BET, max_size=3) | _values()},
        optional={"decks": _values(), "rules": _values(), "name": _values()},
    )
)
def test_paytable_data(data: dict[str, Any]) -> None:
    table, problems = parse_paytable(data)
    assert (table is None) == bool(problems)
    assert all(isinstance(p, str) for p in problems)


@settings(
    max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["shoe.toml", "shoe.json", "rules.toml", "game.toml"]),
    st.dictionaries(_keys(), _values(), max_size=5),
)
def test_files(tmp_path: Path, name: str, data: dict[str, Any]) -> None:
    """Files written from random data (JSON, or TOML by hand) go through every file reader."""
    path = tmp_path / name
    if name.endswith(".json"):
        path.write_text(json.dumps(data, default=str), encoding="utf-8")
    else:
        path.write_text(_toml(data), encoding="utf-8")
    either(lambda: Shoe.from_file(path))
    either(lambda: Tableau.from_file(path))
    assert all(isinstance(p, str) for p in validate_paytable(path))


def _toml(data: dict[str, Any]) -> str:
    """A rough TOML rendering (invalid TOML is fine: it must be refused cleanly)."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, Fraction):
            return str(float(v))
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    return "".join(f"{json.dumps(k)} = {value(v)}\n" for k, v in data.items())


COMMANDS = [
    ["odds", "--decks"],
    ["odds", "--remove"],
    ["odds", "--rules"],
    ["odds", "--shoe"],
    ["report", "--bet", "tie", "--date"],
    ["report", "--bet"],
    ["compare", "--decks"],
    ["compare", "--tie"],
    ["compare", "--banker"],
    ["solve", "--bet", "tie", "--event", "Tie", "--target-edge"],
    ["solve", "--bet", "tie", "--event", "Tie", "--sweep", "8:9", "--step"],
    ["settle", "--cards"],
    ["settle", "--cards", "P: 9s 9h | B: Kd 7c", "--bet"],
    ["eor", "--level"],
    ["simulate", "--shoes", "1", "--cut-card"],
    ["simulate", "--shoes", "1", "--workers"],
]
OPTION_VALUES = [
    "0", "1", "-1", "8", "1001", "9" * 40, "1e3", "0x10", "nan", "", " ", "classic", "mini",
    "6 6 7h", "Xx", "8:1", "1:0", "5%", "1/20", "1,2", ",", "2024-02-30", "tie=5", "a" * 300,
]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COMMANDS), st.sampled_from(OPTION_VALUES) | st.text(max_size=20))
def test_option_values(command: list[str], value: str) -> None:
    """Every option value gives a result (exit 0) or exit 2 with one bounded line."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run([*command, value])
    assert code in (0, 2), err.getvalue()
    if code == 2:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and lines[0].startswith("exactodds: error: ")
        assert len(lines[0]) <= MAX_LINE


@pytest.mark.parametrize("value", ["Kd " * 4000, "(" * 5000, "9" * 5000])
def test_huge_option_values_are_bounded(value: str) -> None:
    for command in COMMANDS[:4]:
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = run([*command, value])
        assert code == 2 and len(err.getvalue()) <= MAX_LINE + 1


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--shoe", "a\x00b.toml"],
        ["validate", "a\x00b.toml"],
        ["report", "--out", "out\x00dir"],
        ["eor", "--plots", "p\x00lots"],
        ["simulate", "--shoes", "1", "--plots", "p\x00lots"],
        ["report", "cla\x00ssic"],
    ],
)
def test_nul_in_any_argument_is_one_line(argv: list[str]) -> None:
    """A NUL character (no file name holds one) is refused before any option is converted."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = run(argv)
    assert code == 2
    assert err.getvalue() == f"exactodds: error: argument {argv[-1]!r} contains a NUL character\n"
