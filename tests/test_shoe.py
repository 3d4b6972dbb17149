"""Shoe: cards, removals, counts files — and every invalid input with its message."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from exactodds.deal.shoe import Card, Shoe, parse_card, parse_cards
from exactodds.errors import CardError, ExactOddsError, InputFileError, ShoeError
from tests.conftest import WriteFile


def full(n: int) -> tuple[int, int, int, int]:
    return (n, n, n, n)


def message(exc: pytest.ExceptionInfo[BaseException]) -> str:
    return str(exc.value)


# -- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("A", Card(0, None)),
        ("a", Card(0, None)),
        ("7", Card(6, None)),
        ("T", Card(9, None)),
        ("10", Card(9, None)),
        ("t", Card(9, None)),
        ("10h", Card(9, 2)),
        ("Th", Card(9, 2)),
        ("KD", Card(12, 1)),
        ("kd", Card(12, 1)),
        ("Qs", Card(11, 3)),
        ("Jc", Card(10, 0)),
        ("9♠", Card(8, 3)),
        (" 2c ", Card(1, 0)),
    ],
)
def test_parse_card_valid(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    ("text", "msg"),
    [
        ("X", "unknown rank 'X' in card 'X' (use A 2-9 T/10 J Q K)"),
        ("Xh", "unknown rank 'X' in card 'Xh' (use A 2-9 T/10 J Q K)"),
        ("1", "unknown rank '1' in card '1' (use A 2-9 T/10 J Q K)"),
        ("11", "unknown rank '1' in card '11' (use A 2-9 T/10 J Q K)"),
        ("0c", "unknown rank '0' in card '0c' (use A 2-9 T/10 J Q K)"),
        ("7x", "unknown suit 'x' in card '7x' (use c, d, h, s)"),
        ("10z", "unknown suit 'z' in card '10z' (use c, d, h, s)"),
        ("", "empty card"),
    ],
)
def test_parse_card_invalid(text: str, msg: str) -> None:
    with pytest.raises(CardError) as exc:
        parse_card(text)
    assert message(exc) == msg


def test_parse_cards_spaces_and_commas() -> None:
    assert [str(c) for c in parse_cards("6 6,7h  Kd, 10s")] == ["6", "6", "7h", "Kd", "Ts"]
    assert parse_cards("") == ()


def test_errors_are_value_errors_of_the_project() -> None:
    assert issubclass(CardError, ExactOddsError)
    assert issubclass(ShoeError, ExactOddsError)
    assert issubclass(InputFileError, ExactOddsError)
    assert issubclass(ExactOddsError, ValueError)


# -- building shoes --------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_decks(decks: int) -> None:
    shoe = Shoe.decks(decks)
    assert shoe.counts == tuple(full(decks) for _ in range(13))
    assert shoe.size == 52 * decks
    assert shoe.rank_counts == (4 * decks,) * 13
    assert shoe.value_counts == (16 * decks,) + (4 * decks,) * 9


@pytest.mark.parametrize("decks", [0, -1])
def test_decks_must_be_positive(decks: int) -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe.decks(decks)
    assert message(exc) == f"number of decks must be a positive integer, not {decks}"


def test_shoe_is_immutable() -> None:
    shoe = Shoe.decks(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shoe.counts = ()  # type: ignore[misc]
    shoe.remove("Kd")
    assert shoe == Shoe.decks(1)


def test_remove_with_and_without_suits() -> None:
    shoe = Shoe.decks(8).remove("6 6 7h Kd")
    assert shoe.size == 412
    assert shoe.counts[5] == (7, 7, 8, 8)  # suitless cards come from the fullest suit, c first
    assert shoe.counts[6] == (8, 8, 7, 8)
    assert shoe.counts[12] == (8, 7, 8, 8)
    assert shoe.value_counts[6] == 30 and shoe.value_counts[0] == 127


def test_remove_tens_spelled_t_or_10() -> None:
    shoe = Shoe.decks(1).remove("T 10")
    assert shoe.counts[9] == (0, 0, 1, 1)
    assert shoe.remove("th 10S").counts[9] == (0, 0, 0, 0)
    with pytest.raises(ShoeError) as exc:
        shoe.remove("th 10H")
    assert message(exc) == "cannot remove Th: no Th left in the shoe"


def test_remove_cards_objects() -> None:
    assert Shoe.decks(1).remove([Card(0, 0), Card(0)]).counts[0] == (0, 0, 1, 1)


def test_remove_card_not_present() -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe.decks(1).remove("Kd Kd")
    assert message(exc) == "cannot remove Kd: no Kd left in the shoe"
    with pytest.raises(ShoeError) as exc:
        Shoe.decks(1).remove("A A A A A")
    assert message(exc) == "cannot remove A: no A left in the shoe"


def test_remove_bad_card() -> None:
    with pytest.raises(CardError) as exc:
        Shoe.decks(1).remove("6 Zh")
    assert message(exc) == "unknown rank 'Z' in card 'Zh' (use A 2-9 T/10 J Q K)"


def test_fewer_than_six_cards() -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe.from_rank_counts({"A": 5})
    assert message(exc) == (
        "a shoe of 5 cards is too small: a round is counted as 6 cards drawn, "
        "so at least 6 are needed"
    )
    six = Shoe.from_rank_counts({"A": 3, "K": 3})
    assert six.size == 6
    with pytest.raises(ShoeError, match="a shoe of 5 cards is too small"):
        six.remove("K")


def test_negative_count() -> None:
    rows = [full(1) for _ in range(13)]
    rows[0] = (-1, 1, 1, 1)
    with pytest.raises(ShoeError) as exc:
        Shoe(tuple(rows))
    assert message(exc) == "negative count -1 for Ac"
    with pytest.raises(ShoeError) as exc:
        Shoe.from_rank_counts({"A": -1, "K": 10})
    assert message(exc) == "count of rank 'A' must be a non-negative integer, not -1"


def test_counts_must_be_integers_13_by_4() -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe(tuple(full(1) for _ in range(12)))
    assert message(exc) == "a shoe needs 13 ranks × 4 suits of counts"
    rows: list[tuple[object, ...]] = [full(1) for _ in range(13)]
    rows[12] = (1, 1, 1, True)
    with pytest.raises(ShoeError) as exc:
        Shoe(tuple(rows))  # type: ignore[arg-type]
    assert message(exc) == "count of Ks must be an integer, not True"


def test_from_rank_counts_spreads_over_suits() -> None:
    shoe = Shoe.from_rank_counts({"A": 5, "10": 3, "k": 8})
    assert shoe.counts[0] == (2, 1, 1, 1)
    assert shoe.counts[9] == (1, 1, 1, 0)
    assert shoe.counts[12] == (2, 2, 2, 2)
    assert shoe.size == 16


def test_rank_given_twice() -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe.from_rank_counts({"T": 4, "10": 3})
    assert message(exc) == "rank '10' is given twice (also as 'T')"


def test_describe() -> None:
    assert Shoe.decks(1).describe() == "1 deck (52 cards)"
    assert Shoe.decks(6).remove("Kd 7").describe() == "6 decks less 7c Kd (310 cards)"
    assert Shoe.from_rank_counts({"A": 3, "K": 3}).describe() == "custom shoe (6 cards)"


def test_count() -> None:
    shoe = Shoe.decks(2).remove("Kd 7")
    assert shoe.count(parse_card("K")) == 7
    assert shoe.count(parse_card("Kd")) == 1
    assert shoe.count(parse_card("7c")) == 1


# -- shoe files ------------------------------------------------------------------------------------


def test_file_decks_and_remove(write_file: WriteFile) -> None:
    path = write_file("s.toml", 'decks = 6\nremove = "6 6 7h Kd"\nname = "six"\n')
    assert Shoe.from_file(path) == Shoe.decks(6).remove("6 6 7h Kd")


def test_file_default_is_eight_decks(write_file: WriteFile) -> None:
    assert Shoe.from_file(write_file("s.toml", 'description = "x"\n')) == Shoe.decks(8)


def test_file_ranks_toml(write_file: WriteFile) -> None:
    path = write_file("s.toml", "[ranks]\nA = 5\nT = 3\nK = 8\n")
    assert Shoe.from_file(path) == Shoe.from_rank_counts({"A": 5, "T": 3, "K": 8})


def test_file_ranks_json(write_file: WriteFile) -> None:
    path = write_file("s.json", json.dumps({"ranks": {"9": 4, "10": 4}, "remove": "9c"}))
    shoe = Shoe.from_file(path)
    assert shoe.size == 7
    assert shoe.counts[8] == (0, 1, 1, 1) and shoe.counts[9] == full(1)


def test_file_cards_lists_and_tables_toml(write_file: WriteFile) -> None:
    text = '[cards]\nA = [1, 0, 0, 2]\n7 = { h = 3, S = 1 }\n"10" = [0, 0, 0, 1]\n'
    shoe = Shoe.from_file(write_file("s.toml", text))
    assert shoe.counts[0] == (1, 0, 0, 2)
    assert shoe.counts[6] == (0, 0, 3, 1)
    assert shoe.counts[9] == (0, 0, 0, 1)
    assert shoe.size == 8


def test_file_cards_json(write_file: WriteFile) -> None:
    data = {"cards": {"K": [2, 2, 2, 2], "Q": {"d": 1}}}
    shoe = Shoe.from_file(write_file("s.json", json.dumps(data)))
    assert shoe.counts[12] == full(2) and shoe.counts[11] == (0, 1, 0, 0)
    assert shoe.value_counts == (9, 0, 0, 0, 0, 0, 0, 0, 0, 0)


BAD_FILES = [
    ("s.toml", "decks = [", "invalid TOML: "),
    ("s.json", '{"decks": ', "invalid JSON: Expecting value"),
    ("s.json", "[1, 2]", "expected a table of keys at the top level"),
    (
        "s.toml",
        "decks = 8\ndeck = 2\n",
        "unknown key 'deck' (expected one of ['cards', 'decks', 'description', 'name', "
        "'ranks', 'remove'])",
    ),
    (
        "s.toml",
        "decks = 8\n[ranks]\nA = 4\n",
        "give only one of decks, ranks, cards (found decks, ranks)",
    ),
    ("s.toml", "decks = 0\n", "number of decks must be a positive integer, not 0"),
    ("s.toml", 'decks = "8"\n', "number of decks must be a positive integer, not '8'"),
    ("s.toml", "ranks = 5\n", "'ranks' must be a table of rank = count"),
    (
        "s.toml",
        "[ranks]\nA = -4\nK = 10\n",
        "count of rank 'A' must be a non-negative integer, not -4",
    ),
    (
        "s.toml",
        "[ranks]\nA = 1.5\nK = 10\n",
        "count of rank 'A' must be a non-negative integer, not 1.5",
    ),
    ("s.toml", "[ranks]\nA = 4\na = 3\n", "rank 'a' is given twice (also as 'A')"),
    ("s.toml", "[ranks]\nAh = 4\n", "per-rank count key 'Ah' must be a rank without a suit"),
    ("s.toml", "[ranks]\nA = 2\nK = 2\n", "a shoe of 4 cards is too small"),
    ("s.toml", "[ranks]\nX = 8\n", "unknown rank 'X' in card 'X'"),
    ("s.toml", "cards = 3\n", "'cards' must be a table of rank = [c, d, h, s] counts"),
    (
        "s.toml",
        "[cards]\nA = [1, 2, 3]\n",
        "rank 'A' needs four suit counts [c, d, h, s], got [1, 2, 3]",
    ),
    ("s.toml", "[cards]\nA = [9, 0, 0, -1]\n", "negative count -1 for As"),
    ("s.toml", "[cards]\nA = { x = 9 }\n", "unknown suit 'x' for rank 'A' (use c, d, h, s)"),
    ("s.toml", "[cards]\nA = { c = 5, C = 4 }\n", "suit 'C' of rank 'A' is given twice"),
    ("s.toml", "decks = 1\nremove = 5\n", "'remove' must be a card string like '6 6 7h Kd', not 5"),
    ("s.toml", 'decks = 1\nremove = "Kd Kd"\n', "cannot remove Kd: no Kd left in the shoe"),
    ("s.toml", 'decks = 1\nremove = "Kq"\n', "unknown suit 'q' in card 'Kq' (use c, d, h, s)"),
]


@pytest.mark.parametrize(("name", "text", "msg"), BAD_FILES, ids=[m for _, _, m in BAD_FILES])
def test_bad_shoe_file(write_file: WriteFile, name: str, text: str, msg: str) -> None:
    path = write_file(name, text)
    with pytest.raises(ExactOddsError) as exc:
        Shoe.from_file(path)
    assert re.match(rf"{re.escape(str(path))}(:\d+)?: {re.escape(msg)}", message(exc))
    assert "\n" not in message(exc)


def test_missing_shoe_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(InputFileError) as exc:
        Shoe.from_file(path)
    assert message(exc) == f"{path}: file not found"


def test_directory_as_shoe_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="not a regular file"):
        Shoe.from_file(tmp_path)


def test_file_error_classes(write_file: WriteFile) -> None:
    with pytest.raises(InputFileError):
        Shoe.from_file(write_file("a.toml", "x = ["))
    with pytest.raises(CardError):
        Shoe.from_file(write_file("b.toml", "[ranks]\nZ = 9\n"))
    with pytest.raises(ShoeError):
        Shoe.from_file(write_file("c.toml", "decks = -3\n"))
