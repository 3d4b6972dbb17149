"""Exact EV of one round of a card-level or offered bet from the cards left in a shoe.

Why: ``simulate`` computes every bet's EV before each round; its batch evaluator counts
value-level bets only. A card-level bet (ranks, suits, colours) or a bet with an ``offer`` is
counted here by the card engine (:func:`exactodds.cards.row_counts`) on the depleted shoe, its
EV per offered round (the offer read from the round's first four cards, as the engine does).
Value-level bets keep the batch evaluator's path and rate. A card-level EV costs about
0.03-1.5 s, so a request is bounded first by :func:`exactodds.budget.check_card_rounds`.
"""

from __future__ import annotations

from fractions import Fraction

from exactodds.paytable import Bet
from exactodds.shoe import Shoe
from exactodds.tableau import BUILTIN, Tableau

__all__ = ["card_round_ev"]


def card_round_ev(
    bet: Bet, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> Fraction | None:
    """EV per unit stake of the next round dealt from ``shoe`` (per offered round for a bet
    with an offer), or None when the bet cannot be offered from these cards.

    >>> from exactodds.conditions import OTHERWISE, parse_condition
    >>> from exactodds.paytable import Row
    >>> from exactodds.payout import parse_payout
    >>> clubs = Bet("clubs", "Player's first card a club", (
    ...     Row(parse_condition("player.card1.suit == clubs"), parse_payout("1:1"), "Club"),
    ...     Row(OTHERWISE, parse_payout("lose"), "Other")))
    >>> card_round_ev(clubs, Shoe.decks(1))  # 1/4 · 1 - 3/4
    Fraction(-1, 2)
    """
    from exactodds.cards import row_counts

    counts = row_counts([row.when for row in bet.rows], shoe, tableau, offer=bet.offer)
    if not counts.offered:
        return None
    total = sum(
        (n * bet.row_net(row) for n, row in zip(counts.rows, bet.rows, strict=True)),
        Fraction(0),
    )
    return total / counts.offered
