"""Untrusted input files: the one reader's limits, and confinement of a paytable's rules file."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import load_paytable, validate_paytable
from exactodds.deal.tableau import STOOD
from exactodds.errors import InputFileError, PaytableError
from exactodds.files import parse_data, read_bytes, read_data, read_text
from exactodds.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_NESTING

RULES = 'player_draw = [0, 1, 2, 3, 4, 5]\n[banker_draw]\n0 = "any"\n1 = "any"\n2 = "any"\n'
RULES += '3 = "any"\n4 = "any"\n5 = "none"\n6 = "none"\n7 = "none"\n'
TIE = (
    '[bets.tie]\nrows = [\n  { when = "winner == tie", pays = "8:1" },\n'
    '  { when = "otherwise", pays = "lose" },\n]\n'
)


# -- the reader ------------------------------------------------------------------------------


def test_size_limit_reads_no_more_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    with path.open("wb") as handle:
        handle.truncate(100 * MAX_FILE_BYTES)
    with pytest.raises(InputFileError, match="larger than 1,048,576 bytes"):
        read_bytes(path)
    exact = tmp_path / "exact.toml"
    exact.write_bytes(b"#" * MAX_FILE_BYTES)
    assert read_data(exact).data == {}


@pytest.mark.parametrize("kind", ["directory", "fifo", "device", "missing", "symlink-to-device"])
def test_only_regular_files_are_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.toml"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)  # opened without blocking, refused before reading
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "symlink-to-device":
        path.symlink_to("/dev/zero")
    message = "file not found" if kind == "missing" else "not a regular file"
    with pytest.raises(InputFileError, match=message):
        read_data(path)


def test_text_is_utf8_and_a_bom_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(b"\xef\xbb\xbfdecks = 6\n")
    assert read_text(path)[0] == "decks = 6\n"
    assert read_data(path).data == {"decks": 6}
    path.write_bytes(b"decks = 6\n# \xc3\x28\n")
    with pytest.raises(InputFileError, match=r"not UTF-8 text \(byte 0xc3 at line 2\)"):
        read_data(path)


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("a = nan", "toml", ":1: 'nan' is not a finite number"),
        ("a = [1.5,\n -inf]", "toml", ":2: '-inf' is not a finite number"),
        ('{"a": Infinity}', "json", ":1: 'Infinity' is not a finite number"),
        ('{"a":\n NaN}', "json", ":2: 'NaN' is not a finite number"),
        ("a = " + "9" * 4301, "toml", ":1: number '9999"),
        ('{"a": -' + "9" * 31 + "}", "json", "has more than 30 digits"),
        ("a = 1_000_000_000_000_000_000_000_000_000_000", "toml", "has more than 30 digits"),
        ("a = 0b" + "1" * 200, "toml", "a: 160693804…"),
        ("a = 1e31", "toml", "exponent beyond ±30"),
        ('{"a": 0.' + "1" * 31 + "}", "json", "has more than 30 digits"),
        ("a = " + "[" * 33 + "]" * 33, "toml", ":1: nested more than 32 levels deep"),
        ("a = {b = " * 33 + "1" + "}" * 33, "toml", "nested more than 32 levels deep"),
        ("a" + ".b" * 33 + " = 1", "toml", "nested more than 32 levels deep"),
        ("[[x]]\n" * 3 + "[x" + ".y" * 40 + "]", "toml", "nested more than 32 levels deep"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "json", "nested more than 32"),
        ("[1, 2]", "json", "expected a table of keys at the top level"),
        ('{"a": "\\udc80"}', "json", "text that is not Unicode"),
        ("a = [1,\n", "toml", "invalid TOML:"),
        ('{"a": }', "json", ":1: invalid JSON: Expecting value (column 7)"),
        ('{"a": 8,\n "b": 1, "a": 1}', "json", "f: key 'a' is given twice"),
        ('a = 1\n[b]\nc = ["\\u001b[2J"]', "toml", ":3: 'b.c.0': control character '\\x1b'"),
        ('{"\\u202eA": 1}', "json", ":1: '\\u202eA': control character '\\u202e'"),
        ('a = "\\b"', "toml", ":1: 'a': control character '\\x08'"),
    ],
)
def test_limits_of_the_data(text: str, kind: str, message: str) -> None:
    with pytest.raises(InputFileError) as info:
        parse_data(text, "f", kind)
    assert message.rstrip("…") in str(info.value)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("a = " + "9" * MAX_DIGITS, "toml", int("9" * MAX_DIGITS)),
        ("a = 0.95", "toml", Fraction(19, 20)),
        ("a = 1_000.5", "toml", Fraction(2001, 2)),
        ("a = 1e30", "toml", Fraction(10**30)),
        ("a = -2.5e-3", "toml", Fraction(-1, 400)),
        ('{"a": 0.95}', "json", Fraction(19, 20)),
        ('{"a": -12}', "json", -12),
        ('a = "1e999 nan [[[[ ' + "9" * 50 + '"', "toml", "1e999 nan [[[[ " + "9" * 50),
        ("a = '''" + "[" * 100 + "'''", "toml", "[" * 100),
        ('a = """\\"""' + "{" * 100 + '"""', "toml", '"""' + "{" * 100),
        ("a = 1 # " + "[" * 100, "toml", 1),
        ('{"a": "\\"' + "[" * 100 + '"}', "json", '"' + "[" * 100),
        ('a = "tab\\tline\\nbreak \\u200f"', "toml", "tab\tline\nbreak \u200f"),
    ],
)
def test_values_within_the_limits_are_read_exactly(text: str, kind: str, value: object) -> None:
    data = parse_data(text, "f", kind)
    assert data["a"] == value and type(data["a"]) is type(value)


def test_nesting_up_to_the_limit_is_read() -> None:
    text = "a = " + "[" * MAX_NESTING + "1" + "]" * MAX_NESTING
    value = parse_data(text)["a"]
    for _ in range(MAX_NESTING):
        (value,) = value
    assert value == 1


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=30,
)


@settings(max_examples=150, deadline=2000)
@given(st.dictionaries(st.text(max_size=5), json_values, max_size=4), st.integers(0, 40))
def test_any_json_is_read_or_refused(data: dict[str, object], depth: int) -> None:
    text = json.dumps({"x": data} if depth < 2 else data)
    text = "[" * depth + text + "]" * depth if depth >= 2 else text
    try:
        parse_data(text, "f", "json")
    except InputFileError as exc:
        assert len(str(exc)) < 400


@settings(max_examples=200, deadline=2000)
@given(st.text(alphabet=st.sampled_from(list("ab=[]{}\"'.,#\n 19_-+einf:x\\")), max_size=120))
def test_any_toml_is_read_or_refused(text: str) -> None:
    with contextlib.suppress(InputFileError):
        assert isinstance(parse_data(text), dict)


# -- confinement: a paytable never makes exactodds open a file outside its folder -----------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every path exactodds opens (the reader opens files with ``os.open``; ``open`` is watched
    too), resolved."""
    seen: list[Path] = []
    real_os_open, real_open = os.open, open

    def spy_os_open(path: object, *args: object, **kwargs: object) -> int:
        seen.append(Path(str(path)).resolve())
        return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def spy_open(path: object, *args: object, **kwargs: object) -> object:
        if isinstance(path, str | Path):
            seen.append(Path(path).resolve())
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "open", spy_os_open)
    monkeypatch.setattr("builtins.open", spy_open)
    yield seen


@pytest.fixture
def game_folder(tmp_path: Path) -> Path:
    """games/ with a rules file inside, links pointing out, and a rules file outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "r.toml").write_text(RULES, encoding="utf-8")
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "in.toml").write_text(RULES, encoding="utf-8")
    (folder / "sub" / "in.toml").write_text(RULES, encoding="utf-8")
    (folder / "out.toml").symlink_to(outside / "r.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "environ.toml").symlink_to("/proc/self/environ")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    (folder / "sub" / "up.toml").symlink_to("../../outside/r.toml")
    (folder / "sub" / "back.toml").symlink_to("../in.toml")
    (folder / "dirlink").symlink_to(outside)
    return folder


def _game(folder: Path, rules: str) -> Path:
    """A paytable in ``folder`` whose rules are ``rules``."""
    game = folder / "game.toml"
    game.write_text(f"rules = {json.dumps(rules)}\n{TIE}", encoding="utf-8")
    return game


ESCAPES = [
    str(Path("/dev/zero")),
    "/dev/zero.toml",
    "/proc/self/environ",
    "/etc/passwd.toml",
    "../outside/r.toml",
    "../../outside/r.toml",
    "sub/../../outside/r.toml",
    "out.toml",
    "zero.toml",
    "environ.toml",
    "loop.toml",
    "sub/up.toml",
    "dirlink/r.toml",
    "r\x00.toml",
    "x" * 5000 + ".toml",
]


@pytest.mark.parametrize("rules", ESCAPES)
def test_rules_file_cannot_leave_the_paytable_folder(
    game_folder: Path, opened: list[Path], rules: str
) -> None:
    game = _game(game_folder, rules)
    problems = validate_paytable(game)
    with pytest.raises((PaytableError, InputFileError)):
        load_paytable(game)
    outside = [p for p in opened if not p.is_relative_to(game_folder.resolve())]
    assert problems and not outside, (problems, outside)


@pytest.mark.parametrize("rules", ["in.toml", "sub/in.toml", "sub/back.toml", "sub/../in.toml"])
def test_rules_file_inside_the_folder_is_read(
    game_folder: Path, opened: list[Path], rules: str
) -> None:
    game = _game(game_folder, rules)
    table = load_paytable(game)
    assert STOOD in table.tableau.banker[4] and STOOD not in table.tableau.banker[5]
    assert (game_folder / rules).resolve() in opened
    assert all(p.is_relative_to(game_folder.resolve()) for p in opened)


@settings(
    max_examples=120, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(["..", ".", "sub", "in.toml", "out.toml", "up.toml", "dirlink", "/"]),
        min_size=1,
        max_size=5,
    ),
    st.sampled_from([".toml", ".json", ""]),
)
def test_no_rules_path_reads_outside_the_folder(
    game_folder: Path, opened: list[Path], parts: list[str], suffix: str
) -> None:
    rules = "/".join(parts) + suffix
    game = _game(game_folder, rules)
    opened.clear()
    validate_paytable(game)
    assert all(p.is_relative_to(game_folder.resolve()) for p in opened), (rules, opened)
