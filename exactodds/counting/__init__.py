"""Exact counts of bets that read the cards themselves (the card engine), one job a module:
:mod:`.classes`, :mod:`.lumps`, :mod:`.poker`, :mod:`.evaluate`, :mod:`.bounds`, :mod:`.plan`,
:mod:`.engine`, :mod:`.examples`; their public names are re-exported here.

>>> from exactodds.language import OTHERWISE, parse_condition
>>> from exactodds.deal.shoe import Shoe
>>> suited = parse_condition("player.card1.suit == player.card2.suit")
>>> counts = row_counts([suited, OTHERWISE], Shoe.decks(8))
>>> counts.rows[0] * 415 == counts.offered * 103  # 103 of the 415 cards left share the suit
True
"""

from __future__ import annotations

from exactodds.counting.classes import POSITIONS, Known, reads_suits
from exactodds.counting.engine import RowCounts, row_counts
from exactodds.counting.evaluate import holds_for_cards, round_slots
from exactodds.counting.examples import example_round
from exactodds.counting.plan import work
from exactodds.counting.poker import poker_category
from exactodds.language import FIRST_FOUR, offer_reads_later

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
