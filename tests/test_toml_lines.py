"""toml_lines against documents whose every line we placed ourselves, and validate's citations."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import validate_paytable
from exactodds.toml_lines import KeyPath, toml_lines

# -- a generator of TOML documents that records where it put every key and element ------------

KEYS = st.sampled_from(["a", "b-1", "when", '"quo.ted"', "'lit#'", '"x\\"]"'])
STRINGS = st.sampled_from(
    [
        '"plain"',
        '"br]a{c}ke#t, \\"q\\""',
        "'lit\\eral [ ]'",
        '"""multi\nline ] }\n"" "still"""',
        "'''raw\n# not a comment\n'''",
        '""',
    ]
)
SCALARS = st.one_of(STRINGS, st.sampled_from(["1", "-2.5", "true", "1979-05-27 07:32:00Z"]))

Node = str | list["Node"] | dict[str, "Node"]
VALUES: st.SearchStrategy[Node] = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(KEYS, inner, max_size=3),
    ),
    max_leaves=12,
)


class _Writer:
    """Writes a document and the line of each key path, as :func:`toml_lines` should find."""

    def __init__(self) -> None:
        self.text = ""
        self.expected: dict[KeyPath, int] = {}

    @property
    def line(self) -> int:
        return self.text.count("\n") + 1

    def value(self, node: Node, path: KeyPath, newlines: bool) -> None:
        if isinstance(node, str):
            self.text += node
        elif isinstance(node, list):
            self.text += "["
            for i, item in enumerate(node):
                if newlines:
                    self.text += "\n  # a comment, ]\n  "
                self.expected[(*path, i)] = self.line
                self.value(item, (*path, i), newlines)
                self.text += ", "
            self.text += "\n]" if newlines else "]"
        else:
            self.text += "{ "
            for n, (key, item) in enumerate(node.items()):
                self.text += ", " if n else ""
                full = (*path, _name(key))
                self.expected[full] = self.line
                self.text += f"{key} = "
                self.value(item, full, newlines=False)  # inline tables stay on one line
            self.text += " }"


def _name(key: str) -> str:
    """The key as tomllib reads it (quotes and escapes removed)."""
    return next(iter(tomllib.loads(f"{key} = 1")))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["key", "table", "array"]), VALUES, st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_every_key_and_element_is_found_on_its_line(
    statements: list[tuple[str, Node, bool]],
) -> None:
    w = _Writer()
    statements.sort(key=lambda s: s[0] != "key")  # top-level keys before the first table
    for n, (kind, node, newlines) in enumerate(statements):
        if kind == "table":
            w.text += f"\n[t{n}.'sub section'] # header\n"
            w.expected[(f"t{n}", "sub section")] = w.line - 1
            w.expected[(f"t{n}", "sub section", "v")] = w.line
            w.text += "v = "
            w.value(node, (f"t{n}", "sub section", "v"), newlines)
        elif kind == "array":
            for i in range(2):
                w.text += f"\n[[aot{n}]]\n"
                w.expected[(f"aot{n}", i)] = w.line - 1
                w.text += "  v = "
                w.expected[(f"aot{n}", i, "v")] = w.line
                w.value(node, (f"aot{n}", i, "v"), newlines)
        else:
            w.text += f"\nk{n} = "
            w.expected[(f"k{n}",)] = w.line
            w.value(node, (f"k{n}",), newlines)
        w.text += "\n"
    w.text = "# generated\n" + w.text  # shifts every line by one
    w.expected = {k: v + 1 for k, v in w.expected.items()}
    tomllib.loads(w.text)  # the generator writes valid TOML
    found = toml_lines(w.text)
    for path, line in w.expected.items():
        assert found.get(path) == line, (path, w.text)


# -- validate cites each row's own line -------------------------------------------------------

TWO_BETS = """\
name = "Two bets, one condition"
decks = 8

[bets.first]
name = "First"
rows = [
  { when = "player.pair", pays = "11:1", event = "Pair" },
  { when = "player.pair", pays = "5:1", event = "Pair again" },
  { when = "otherwise", pays = "lose", event = "No pair" },
]

[bets.second]
name = "Second"
rows = [
  { when = "player.pair", pays = "11:1", event = "Pair" },
  # a comment
  { when = "player.pair", pays = "5:1", event = "Pair again" },
  { when = "otherwise", pays = "lose", event = "No pair" },
]

[[bets.third.rows]]
when = "player.pair"
pays = "11:1"

[[bets.third.rows]]
when = "player.pair"
pays = "lots"

[[bets.third.rows]]
when = "otherwise"
pays = "lose"
"""


def test_validate_cites_the_row_of_the_bet_not_an_earlier_same_condition(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text(TWO_BETS, encoding="utf-8")
    never = (
        "can never match, on any shoe (earlier rows take every round it names or it names an "
        "impossible round)"
    )
    assert [p.split(": ", 2)[:2] for p in validate_paytable(path)] == [
        [f"{path}:27", "bet 'third' row 2"],  # the pays key of the second [[bets.third.rows]]
        [f"{path}:8", "bet 'first' row 2 ('Pair again')"],
        [f"{path}:17", "bet 'second' row 2 ('Pair again')"],  # not line 8: same condition
    ]
    assert validate_paytable(path)[1].endswith(never)
