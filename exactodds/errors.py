"""One error hierarchy: every problem with user input is an :class:`ExactOddsError`.

The CLI catches this base class once and prints the message; library users can catch the
narrow subclasses. All are ``ValueError`` subclasses, as in python-chess.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "ExactOddsError",
    "InputFileError",
    "PaytableError",
    "RoundError",
    "ShoeError",
    "TableauError",
]


class ExactOddsError(ValueError):
    """Base class of every error raised for bad input to exactodds."""


class CardError(ExactOddsError):
    """A card string could not be parsed (unknown rank or suit)."""


class ShoeError(ExactOddsError):
    """A shoe composition is invalid (negative count, too few cards, missing card)."""


class TableauError(ExactOddsError):
    """A drawing-rules (tableau) definition is invalid or unknown."""


class PaytableError(ExactOddsError):
    """A paytable file or bet definition is invalid."""


class RoundError(ExactOddsError):
    """A dealt round is not legal under the tableau (used when settling a given round)."""


class InputFileError(ExactOddsError):
    """An input file is missing, unreadable or not valid TOML/JSON."""
