"""Hostile numbers and notes (issue 25): a digit other than 0-9 is refused in one line
wherever a number is read, and a command that fails prints its error as the only line."""

from __future__ import annotations

import pytest

from exactodds.protection.information import GivenError, parse_given
from tests.cli_helpers import Cli

DIGITS = [
    "\u00b2",
    "\u2462",
    "\u0663",
    "\uff13",
    "\u0967",
]  # ², ③, Arabic-Indic 3, fullwidth 3, Devanagari 1


@pytest.mark.parametrize("digit", DIGITS)
@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--given", "P: v{} ? | B: ? ?"],
        ["odds", "--decks", "{}"],
        ["odds", "--remove", "{}h"],
        ["settle", "classic", "--cards", "{} 4 5 6"],
        ["settle", "classic", "--cards", "9 4 5 6", "--bet", "player=1{}"],
        ["solve", "classic", "--bet", "player", "--event", "#{}"],
        ["simulate", "--shoes", "{}"],
    ],
)
def test_unicode_digits_are_refused_in_one_line(argv: list[str], digit: str, cli: Cli) -> None:
    code, out, err = cli([a.format(digit) for a in argv])
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("exactodds: error: "), err
    assert f"U+{ord(digit):04X}" in err and "digits 0-9" in err


@pytest.mark.parametrize("digit", DIGITS)
def test_given_values_read_ascii_digits_only(digit: str) -> None:
    """The Python API too: ``v٣`` is not the value 3 (``int`` would read it so)."""
    with pytest.raises(GivenError, match="is not a value"):
        parse_given(f"P: v{digit} ? | B: ? ?")


def test_optimise_of_card_level_bets_prints_the_error_alone(cli: Cli) -> None:
    code, out, err = cli(["exposure", "lucky-nines", "--optimise"])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "only card-level bets" in err
