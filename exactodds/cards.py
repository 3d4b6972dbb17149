"""Exact counts of bets that read the cards themselves (the card engine): the public names of
:mod:`exactodds.counting`, whose modules hold one job each (classes, poker, evaluate, plan,
engine, examples).

>>> from exactodds.conditions import OTHERWISE, parse_condition
>>> from exactodds.shoe import Shoe
>>> suited = parse_condition("player.card1.suit == player.card2.suit")
>>> counts = row_counts([suited, OTHERWISE], Shoe.decks(8))
>>> counts.rows[0] * 415 == counts.offered * 103  # 103 of the 415 cards left share the suit
True
"""

from __future__ import annotations

from exactodds.conditions import FIRST_FOUR, offer_reads_later
from exactodds.counting.classes import POSITIONS, Known, reads_suits
from exactodds.counting.engine import RowCounts, row_counts
from exactodds.counting.evaluate import holds_for_cards, round_slots
from exactodds.counting.examples import example_round
from exactodds.counting.plan import work
from exactodds.counting.poker import poker_category

__all__ = [
    "FIRST_FOUR",
    "POSITIONS",
    "Known",
    "RowCounts",
    "example_round",
    "holds_for_cards",
    "offer_reads_later",
    "poker_category",
    "reads_suits",
    "round_slots",
    "row_counts",
    "work",
]
