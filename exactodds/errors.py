"""One error hierarchy: every problem with user input is an :class:`ExactOddsError`.

The CLI catches this base class once and prints the message; library users can catch the
narrow subclasses. All are ``ValueError`` subclasses, as in python-chess.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "ConditionError",
    "DateError",
    "ExactOddsError",
    "InputFileError",
    "MissingExtraError",
    "PaytableError",
    "ReportError",
    "RoundError",
    "ShoeError",
    "SimulationError",
    "TableauError",
]


class ExactOddsError(ValueError):
    """Base class of every error raised for bad input to exactodds.

    It is a ``ValueError``, so code that already catches bad values keeps working:

    >>> from exactodds.shoe import parse_card
    >>> try:
    ...     parse_card("Zs")
    ... except ValueError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ExactOddsError), exc)
    CardError True unknown rank 'Z' in card 'Zs' (use A 2-9 T/10 J Q K)
    """


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


class ConditionError(PaytableError):
    """A row condition does not parse or does not type-check."""


class ReportError(ExactOddsError):
    """Bad choices for ``exactodds report`` (unknown format, clashing output names, …)."""


class DateError(ReportError):
    """A ``--date`` or SOURCE_DATE_EPOCH value is not a date."""


class SimulationError(ExactOddsError):
    """Invalid simulation parameters (number of shoes, cut card, workers, seed)."""


class MissingExtraError(ExactOddsError):
    """An optional extra is not installed; the message names the ``pip install`` command.

    >>> str(MissingExtraError("PDF sheets need WeasyPrint", "pdf"))
    "PDF sheets need WeasyPrint: pip install 'exactodds[pdf]'"
    """

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what}: pip install 'exactodds[{extra}]'")
        self.extra = extra
