"""How every output states a bet's offer: a bet with an ``offer`` (an insurance bet, sold only
when its condition holds of the first four cards) has its figures per offered round, and each
output that shows them (CSV, JSON, terminal summary, notebook tables, ``compare``, ``solve``)
says so with the words and marks defined here, beside the offer and its probability.

>>> from fractions import Fraction
>>> from exactodds.bets.loader import load_paytable
>>> bet = load_paytable("insurance").bet("player_0_v_5")
>>> offered_label(bet)[-67:]
'Banker 5 (offered when player.initial == 0 and banker.initial == 5)'
>>> sentence = offer_sentence(bet, Fraction(717312, 51247105))
>>> sentence[: sentence.index(" (")]
'offered only when player.initial == 0 and banker.initial == 5'
>>> sentence[sentence.index("; ") :]
'; probability of the offer 1.3997%, 717312/51247105): figures per offered round'
>>> figures_per(bet), figures_per(load_paytable("classic").bet("tie"))
('offered round', 'round')
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.numbers import exact, percent

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet

__all__ = [
    "MARK",
    "PER_OFFERED_ROUND",
    "figures_per",
    "offer_legend",
    "offer_sentence",
    "offer_text",
    "offered_label",
]

PER_OFFERED_ROUND = "per offered round"
"""What the figures of a bet with an offer are per."""

MARK = "†"
"""The mark after an offered bet's name in a table whose legend explains it."""


def offer_text(bet: Bet) -> str | None:
    """The bet's offer as the paytable writes it, or None for a bet offered on every round."""
    return None if bet.offer is None else str(bet.offer)


def figures_per(bet: Bet) -> str:
    """What the bet's figures are per: ``offered round`` or ``round``."""
    return "round" if bet.offer is None else "offered round"


def offered_label(bet: Bet) -> str:
    """The bet's name, followed by its offer when it has one (a table's row or column label)."""
    offer = offer_text(bet)
    return bet.name if offer is None else f"{bet.name} (offered when {offer})"


def offer_sentence(bet: Bet, probability: Fraction | None) -> str:
    """One clause stating the offer, its probability (rounded and exact) and that the figures
    are per offered round; ``""`` for a bet offered on every round."""
    offer = offer_text(bet)
    if offer is None:
        return ""
    chance = (
        ""
        if probability is None
        else f"; probability of the offer {percent(probability)}, {exact(probability)}"
    )
    when = f"offered only when {offer} (after the first four cards{chance})"
    return f"{when}: figures {PER_OFFERED_ROUND}"


def offer_legend() -> str:
    """The legend of :data:`MARK` in a table of bets."""
    return (
        f"{MARK} offered only when its offer holds of the first four cards: its figures are "
        f"{PER_OFFERED_ROUND}."
    )
