"""The words of the condition language: card groups, card attributes, ranks, suits, poker
categories and the card-level features (the round features are
:data:`exactodds.deal.round.FEATURE_KINDS`).

>>> from exactodds.language.vocabulary import CARD_FEATURE_KINDS, GROUPS
>>> CARD_FEATURE_KINDS["player.card3.rank"] is CardKind.RANK, list(GROUPS)
(True, ['player', 'banker', 'initial', 'round'])
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from exactodds.deal.round import FeatureKind


class CardKind(StrEnum):
    """The values of card-level features (besides FeatureKind's integers and true/false)."""

    RANK = "ranks (A 2 3 4 5 6 7 8 9 10 J Q K, T for 10) or none"
    SUIT = "suits (clubs diamonds hearts spades) or none"
    COLOUR = "colours (red black) or none"
    HAND_COLOUR = "red/black/mixed"
    POKER = "poker categories"


RANK_WORDS: Mapping[str, int] = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13}
"""Rank words (any case) and their rank numbers: A is 1, 2–10 are themselves, J Q K 11–13."""

SUIT_WORDS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in the shoe's suit order (c, d, h, s); hearts and diamonds are red."""

POKER: tuple[str, ...] = (
    "four_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "flush",
    "straight",
    "two_pair",
    "pair",
    "high_card",
)
"""Poker categories of a hand's cards (:func:`exactodds.counting.poker_category` ranks them)."""

GROUPS: Mapping[str, str] = {
    "player": "the player's cards",
    "banker": "the banker's cards",
    "initial": "the first four cards",
    "round": "every card dealt",
}
"""The card groups ``count(GROUP, …)``, ``shape`` and ``most`` read."""

GROUP_CARDS: Mapping[str, tuple[int, int]] = {
    "player": (2, 3),
    "banker": (2, 3),
    "initial": (4, 4),
    "round": (4, 6),
}
"""The fewest and the most cards of each group (what a ``shape`` may add up to)."""

CARD_ATTRIBUTES: Mapping[str, FeatureKind | CardKind] = {
    "rank": CardKind.RANK,
    "suit": CardKind.SUIT,
    "colour": CardKind.COLOUR,
    "value": FeatureKind.THIRD,
}
"""What one card shows, inside ``count(GROUP, …)`` and after ``player.card1.``."""

ATTRIBUTE_VALUES: Mapping[str, int] = {"rank": 13, "suit": 4, "colour": 2, "value": 10}
"""How many values each card attribute takes (how many parts a ``shape`` of it may have)."""

CARD_FEATURE_KINDS: Mapping[str, FeatureKind | CardKind] = {
    **{
        f"{side}.card{i}.{attr}": kind
        for side in ("player", "banker")
        for i in (1, 2, 3)
        for attr, kind in CARD_ATTRIBUTES.items()
    },
    **{f"{side}.suited": FeatureKind.BOOLEAN for side in ("player", "banker")},
    **{f"{side}.colour": CardKind.HAND_COLOUR for side in ("player", "banker")},
    **{f"{group}.poker": CardKind.POKER for group in ("player", "banker", "initial")},
}
"""Card-level features, read from the cards themselves (counted by :mod:`exactodds.counting`)."""
