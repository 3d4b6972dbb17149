"""Random multipliers laid over the cards (Lightning-style), bet fees and peeks, as data.

A multiplier table (``[multipliers.NAME]`` in a paytable) is one random draw a round,
independent of the shoe: a number of distinct card identities of a 52-card deck (a fixed count
or a distribution), each with an independent multiplier drawn from ``values``. A row with
``multiply = GROUP`` multiplies its net win by the product of the multipliers on the group's
dealt cards whose identity was drawn (docs/multipliers.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

__all__ = ["MULTIPLY_GROUPS", "MultiplierTable", "Multiply", "Peek", "Repeat"]

MULTIPLY_GROUPS: tuple[str, ...] = ("player", "banker", "initial", "round")
"""The card groups a row may multiply over (besides a list of named cards)."""

MULTIPLY_CARDS: tuple[str, ...] = tuple(
    f"{side}.card{i}" for side in ("player", "banker") for i in (1, 2, 3)
)
"""The named cards a row may multiply over, e.g. ``multiply = "player.card1 player.card2"``."""

PEEK_POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2")
"""The first four cards, in dealing order, that a peek may show."""


class Repeat(StrEnum):
    """How an identity dealt twice from the shoe counts in a product."""

    EACH = "each"
    """Every dealt card multiplies: a drawn identity dealt twice multiplies twice (the default)."""
    ONCE = "once"
    """A drawn identity multiplies once, however many of its cards the group holds."""


@dataclass(frozen=True)
class MultiplierTable:
    """One multiplier draw a round: ``cards`` distinct identities of a ``deck`` of 52, each with
    an independent multiplier from ``values``; ``cap`` bounds a product."""

    name: str
    cards: tuple[tuple[int, Fraction], ...]
    """(number of multiplier cards, probability), ascending, probabilities summing to 1."""
    values: tuple[tuple[int, Fraction], ...]
    """(multiplier, probability) of each card, ascending, probabilities summing to 1."""
    deck: int = 52
    cap: int | None = None
    repeat: Repeat = Repeat.EACH


@dataclass(frozen=True)
class Multiply:
    """What a row multiplies: the product over ``cards`` of table ``table``'s multipliers."""

    table: str
    cards: tuple[str, ...]
    """One group of :data:`MULTIPLY_GROUPS`, or named cards of :data:`MULTIPLY_CARDS`."""


@dataclass(frozen=True)
class Peek:
    """A decision after the first four cards: some of them are shown, then the player keeps the
    stake or raises it to one of ``raises`` times (no fee on the raise)."""

    reveals: tuple[tuple[tuple[str, ...], Fraction], ...]
    """(shown positions among :data:`PEEK_POSITIONS`, probability); probabilities sum to 1."""
    raises: tuple[int, ...] = (2, 3)
