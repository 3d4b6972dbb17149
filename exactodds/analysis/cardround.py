"""Exact EV of one round of a card-level or offered bet from the cards left in a shoe.

Why: ``simulate`` computes every bet's EV before each round; its batch evaluator counts
value-level bets only. A card-level bet (ranks, suits, colours) or a bet with an ``offer`` is
counted here by the card engine (:func:`exactodds.counting.row_counts`) on the depleted shoe, its
EV per offered round (the offer read from the round's first four cards, as the engine does).
Value-level bets keep the batch evaluator's path and rate. A card-level EV costs from a few
milliseconds to minutes, so a request is weighed first by the engine's work estimate
(:func:`exactodds.bets.budget.check_card_rounds`).

:func:`card_rounds` plays the bets over the rounds of dealt shoes: a round counts for a bet
only when its first four cards satisfy the offer; the EV is computed for those rounds only (and
for a counter, only on the rounds it bets).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.bets.paytable import Bet
from exactodds.deal.shoe import RANKS, SUITS, Shoe
from exactodds.deal.tableau import BUILTIN, Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = ["CardRound", "card_round_ev", "card_rounds", "settle_cards"]


@dataclass(frozen=True)
class CardRound:
    """One dealt round for one card-level or offered bet: whether the round's first four cards
    offered the bet, and then its exact EV per offered round from the cards left before the
    round (None when the strategy did not ask for it) and the dealt result of one unit."""

    round: int
    offered: bool
    ev: Fraction | None = None
    net: Fraction | None = None


def card_round_ev(
    bet: Bet, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]
) -> Fraction | None:
    """EV per unit stake of the next round dealt from ``shoe`` (per offered round for a bet
    with an offer), or None when the bet cannot be offered from these cards.

    >>> from exactodds.language import OTHERWISE, parse_condition
    >>> from exactodds.bets.paytable import Row
    >>> from exactodds.bets.payout import parse_payout
    >>> clubs = Bet("clubs", "Player's first card a club", (
    ...     Row(parse_condition("player.card1.suit == clubs"), parse_payout("1:1"), "Club"),
    ...     Row(OTHERWISE, parse_payout("lose"), "Other")))
    >>> card_round_ev(clubs, Shoe.decks(1))  # 1/4 · 1 - 3/4
    Fraction(-1, 2)
    """
    from exactodds.counting import row_counts

    counts = row_counts([row.when for row in bet.rows], shoe, tableau, offer=bet.offer)
    if not counts.offered:
        return None
    total = sum(
        (n * bet.row_net(row) for n, row in zip(counts.rows, bet.rows, strict=True)),
        Fraction(0),
    )
    return total / counts.offered


def settle_cards(
    bet: Bet, cards: Sequence[tuple[int, int]], tableau: Tableau = BUILTIN["punto-banco"]
) -> Fraction | None:
    """Net of one unit on the round dealt as ``cards`` (rank index, suit index) in dealing
    order, or None when the bet's offer does not hold on its first four cards.

    >>> from exactodds.bets.loader import load_paytable
    >>> colour = load_paytable("colour-match").bet("colour_match")
    >>> settle_cards(colour, [(0, 1), (4, 2), (9, 1), (12, 2)])  # Ad 5h Td Kh: all red
    Fraction(6, 1)
    """
    from exactodds.counting import holds_for_cards

    if bet.offer is not None and not holds_for_cards(bet.offer, cards[:4], tableau):
        return None
    for row in bet.rows:
        if holds_for_cards(row.when, cards, tableau):
            return bet.row_net(row)
    raise AssertionError(f"bet {bet.id!r}: no row matches")  # paytables end with otherwise


def card_rounds(
    bets: Sequence[Bet],
    rounds: IntArray,
    states: IntArray,
    cards: IntArray,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    wanted: IntArray | None = None,
) -> list[list[CardRound]]:
    """Per bet, per dealt round (round numbers ``rounds``; ``states``: the 52 counts by card
    code rank·4 + suit before each round; ``cards``: its card codes in dealing order, −1 where
    unused, as :class:`~exactodds.analysis.dealing.DealtRounds` holds them): offered or not,
    and for the offered rounds the dealt net and the exact EV from the cards left; with
    ``wanted`` (rounds × bets, bool: the rounds a counter bets) the EV of those rounds only,
    the card engine's costly part."""
    out: list[list[CardRound]] = [[] for _ in bets]
    want = None if wanted is None else wanted.tolist()
    for i, (k, state, dealt) in enumerate(
        zip(rounds.tolist(), states.tolist(), cards.tolist(), strict=True)
    ):
        slots = [(c >> 2, c & 3) for c in dealt if c >= 0]
        shoe: Shoe | None = None
        for j, bet in enumerate(bets):
            net = settle_cards(bet, slots, tableau)
            if net is None:
                out[j].append(CardRound(k, False))
                continue
            if want is not None and not want[i][j]:
                out[j].append(CardRound(k, True, None, net))
                continue
            if shoe is None:
                shoe = Shoe(
                    tuple(
                        tuple(state[r * len(SUITS) : (r + 1) * len(SUITS)])
                        for r in range(len(RANKS))
                    )
                )
            ev = card_round_ev(bet, shoe, tableau)
            if ev is None:  # the dealt cards show the offer can hold: never
                raise AssertionError(f"bet {bet.id!r}: offered round without offered cards")
            out[j].append(CardRound(k, True, ev, net))
    return out
