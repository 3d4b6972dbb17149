"""Tableaux: the built-in rules cell by cell (rules.md §3), as the round module reads them, custom
files, and every invalid case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Action, banker_action, player_action
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau, load_tableau
from exactodds.errors import ExactOddsError, InputFileError, TableauError
from tests.conftest import WriteFile

PB = BUILTIN["punto-banco"]

# rules.md §3 as written there: banker total -> player third-card values on which the banker draws.
PB_THIRD = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}

PB_TOML = """
name = "my-rules"
player_draw = [0, 1, 2, 3, 4, 5]
[banker_draw]
0 = "any"
1 = "any"
2 = "any"
3 = ["stood", 0, 1, 2, 3, 4, 5, 6, 7, 9]
4 = ["stood", 2, 3, 4, 5, 6, 7]
5 = ["stood", 4, 5, 6, 7]
6 = [6, 7]
7 = "none"
"""


def player_draws(t: Tableau, total: int) -> bool:
    return player_action(t, total) is Action.DRAW


def banker_draws(t: Tableau, total: int, third: int | None) -> bool:
    return banker_action(t, total, third) is Action.DRAW


def rules_of(t: Tableau) -> tuple[frozenset[int], tuple[frozenset[int], ...]]:
    return t.player, t.banker


@pytest.mark.parametrize("name", ["punto-banco", "mini", "pronto"])
def test_player_rule_is_the_same_everywhere(name: str) -> None:
    t = BUILTIN[name]
    assert [total for total in range(10) if player_draws(t, total)] == [0, 1, 2, 3, 4, 5]
    assert [player_action(t, total) for total in (8, 9)] == [Action.NATURAL] * 2


def test_punto_banco_cell_by_cell() -> None:
    for total in range(8):
        for third in range(10):
            assert banker_draws(PB, total, third) == (third in PB_THIRD[total]), (total, third)
        assert banker_draws(PB, total, None) == (total <= 5)
    assert banker_action(PB, 8, None) is banker_action(PB, 9, 0) is Action.NATURAL


def test_mini_cell_by_cell() -> None:
    mini = BUILTIN["mini"]
    for total in range(8):
        for third in range(10):
            assert banker_draws(mini, total, third) == (third in PB_THIRD[total])
        # rules.md §3, decision: after a player stand the banker draws on 0-3 and stands on 4-7.
        assert banker_draws(mini, total, None) == (total <= 3)


def test_pronto_cell_by_cell() -> None:
    pronto = BUILTIN["pronto"]
    for total in range(8):
        for third in [*range(10), None]:
            assert banker_draws(pronto, total, third) == (total <= 4)


def test_stood_is_the_matrix_column_of_a_player_stand() -> None:
    assert [STOOD in row for row in PB.banker] == [True] * 6 + [False] * 2
    assert [v in PB.banker[3] for v in range(10)] == [True] * 8 + [False, True]


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("punto-banco", "punto-banco"),
        ("Punto_Banco", "punto-banco"),
        ("standard", "punto-banco"),
        ("puntobanco", "punto-banco"),
        ("MINI", "mini"),
        ("pronto", "pronto"),
        (None, "punto-banco"),
    ],
)
def test_load_builtin(spec: str | None, name: str) -> None:
    assert load_tableau(spec) is BUILTIN[name]
    assert load_tableau(BUILTIN[name]) is BUILTIN[name]


def test_unknown_rules_name() -> None:
    with pytest.raises(TableauError) as exc:
        load_tableau("baccarat")
    assert str(exc.value) == (
        "unknown rules 'baccarat': use one of punto-banco, mini, pronto or a TOML file"
    )
    with pytest.raises(TableauError, match="unknown rules 'chemin-de-fer'"):
        Tableau.named("chemin-de-fer")


def test_custom_file_describing_punto_banco_equals_builtin(write_file: WriteFile) -> None:
    path = write_file("my-rules.toml", PB_TOML)
    custom = load_tableau(str(path))
    assert custom.name == "my-rules"
    assert rules_of(custom) == rules_of(PB)
    shoe = Shoe.decks(1).remove("A 2 3 K K")
    assert joint_distribution(shoe, custom).counts == joint_distribution(shoe, PB).counts


def test_custom_file_json_and_default_name(write_file: WriteFile) -> None:
    data = {
        "player_draw": [0, 1, 2, 3, 4, 5],
        "banker_draw": {str(t): ("any" if t <= 4 else "none") for t in range(8)},
    }
    custom = Tableau.from_file(write_file("fast.json", json.dumps(data)))
    assert custom.name == "fast"
    assert rules_of(custom) == rules_of(BUILTIN["pronto"])


def test_custom_player_may_draw_on_six_and_seven(write_file: WriteFile) -> None:
    text = PB_TOML.replace("[0, 1, 2, 3, 4, 5]", "[6, 7]").replace('"none"', '"always"')
    custom = Tableau.from_file(write_file("odd.toml", text))
    assert [t for t in range(8) if player_draws(custom, t)] == [6, 7]
    assert banker_draws(custom, 7, 0) and banker_draws(custom, 7, None)


BASE = PB_TOML.replace('name = "my-rules"\n', "")

BAD_TABLEAUX = [
    ("missing player_draw", BASE.replace("player_draw = [0, 1, 2, 3, 4, 5]\n", ""),
     "rules 'r': missing 'player_draw' (list of totals 0..7)"),
    ("missing banker_draw", "player_draw = [0]\n",
     "rules 'r': missing 'banker_draw' table for totals 0..7"),
    ("missing row 7", BASE.replace('7 = "none"\n', ""),
     "rules 'r': banker_draw is missing total 7"),
    ("missing row 3", BASE.replace('3 = ["stood", 0, 1, 2, 3, 4, 5, 6, 7, 9]\n', ""),
     "rules 'r': banker_draw is missing total 3"),
    ("row 8", BASE + '8 = "any"\n',
     "rules 'r': banker_draw key '8' is not a banker total 0..7"),
    ("player draw 8", BASE.replace("[0, 1, 2, 3, 4, 5]", "[0, 1, 2, 3, 4, 5, 8]"),
     "rules 'r': player_draw: 8 is not a total 0..7"),
    ("player draw negative", BASE.replace("[0, 1, 2, 3, 4, 5]", "[-1]"),
     "rules 'r': player_draw: -1 is not a total 0..7"),
    ("player draw not a list", BASE.replace("[0, 1, 2, 3, 4, 5]", '"0-5"'),
     "rules 'r': player_draw must be a list of totals, not '0-5'"),
    ("player draw boolean", BASE.replace("[0, 1, 2, 3, 4, 5]", "[true]"),
     "rules 'r': player_draw: True is not a total 0..7"),
    ("third card 10", BASE.replace("6 = [6, 7]", "6 = [6, 10]"),
     "rules 'r': banker_draw.6: 10 is not a third-card value 0..9 or 'stood'"),
    ("misspelled stood", BASE.replace('["stood", 4', '["stod", 4'),
     "rules 'r': banker_draw.5: 'stod' is not a third-card value 0..9 or 'stood'"),
    ("bad word", BASE.replace('7 = "none"', '7 = "sometimes"'),
     "rules 'r': banker_draw.7: 'sometimes' is not a list, 'any' or 'none'"),
    ("row not a list", BASE.replace('7 = "none"', "7 = 5"),
     "rules 'r': banker_draw.7 must be a list of values 0..9 and 'stood', not 5"),
    ("banker_draw not a table", "player_draw = [0]\nbanker_draw = [1, 2]\n",
     "rules 'r': 'banker_draw' must be a table with keys 0..7"),
    ("unknown key", "drawing = 1\n" + BASE,
     "unknown key 'drawing' in rules (expected ['banker_draw', 'description', 'name', "
     "'player_draw'])"),
    ("name not a string", "name = 5\n" + BASE, "rules name must be a string, not 5"),
    ("description not a string", "description = [1]\n" + BASE,
     "rules 'r': description must be a string, not [1]"),
    ("total given twice", BASE + '" 7" = "any"\n',
     "rules 'r': banker_draw total ' 7' is given twice"),
    ("invalid TOML", "player_draw = [0, 1", "invalid TOML: "),
]  # fmt: skip


@pytest.mark.parametrize(("case", "text", "msg"), BAD_TABLEAUX, ids=[c for c, _, _ in BAD_TABLEAUX])
def test_bad_tableau_file(write_file: WriteFile, case: str, text: str, msg: str) -> None:
    path = write_file("r.toml", text)
    with pytest.raises(ExactOddsError) as exc:
        load_tableau(str(path))
    assert str(exc.value).startswith(f"{path}: {msg}"), case
    assert "\n" not in str(exc.value)


def test_tableau_errors_are_tableau_errors(write_file: WriteFile) -> None:
    with pytest.raises(TableauError):
        Tableau.from_file(write_file("r.toml", BASE.replace('"none"', "[11]")))
    with pytest.raises(InputFileError):
        Tableau.from_file(write_file("s.toml", "[["))


def test_missing_tableau_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(InputFileError) as exc:
        load_tableau(str(path))
    assert str(exc.value) == f"{path}: file not found"


def test_direct_construction_is_validated() -> None:
    with pytest.raises(TableauError) as exc:
        Tableau("x", frozenset({8}), PB.banker)
    assert str(exc.value) == (
        "tableau 'x': player draw total 8 must be 0..7 (8 and 9 are naturals)"
    )
    with pytest.raises(TableauError) as exc:
        Tableau("x", PB.player, PB.banker[:7])
    assert str(exc.value) == "tableau 'x': banker matrix needs rows 0..7"
    with pytest.raises(TableauError) as exc:
        Tableau("x", PB.player, (*PB.banker[:7], frozenset({11})))
    assert str(exc.value) == (
        "tableau 'x': banker total 7: column 11 must be 'stood' or a third-card value 0..9"
    )
