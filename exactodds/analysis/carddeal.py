"""Card-level and offered bets settled on physically dealt rounds, for the Monte Carlo checks.

A Monte Carlo round is six cards drawn without replacement (:mod:`exactodds.analysis.montecarlo`):
their ranks and suits are kept, so a bet that reads the cards (or is sold only on an offer) is
settled on the round as dealt, a block of rounds at once, by the card engine's own evaluator of
conditions over numpy arrays (one meaning of every condition); the drawing of third cards is the
tableau's, as :func:`exactodds.analysis.dealing.deal_outcome_codes` plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from exactodds.bets.paytable import Bet
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = ["NOT_OFFERED", "dealt_rows", "physical"]

NOT_OFFERED = -1
"""The row index :func:`dealt_rows` gives a round that does not offer the bet."""

_RED = np.array([0, 1, 1, 0], dtype=np.int64)  # c d h s, as exactodds.counting.classes
_VALUES = np.array(RANK_VALUES, dtype=np.int64)


def physical(bet: Bet) -> bool:
    """Whether a Monte Carlo check settles ``bet`` on the dealt cards (it reads them, or it
    is offered only on some rounds) rather than on the round's outcome."""
    return bet.settled_from_cards


def dealt_rows(bets: Sequence[Bet], dealt: IntArray, tableau: Tableau) -> list[IntArray]:
    """Per bet, the index of the row that settles each dealt round, or :data:`NOT_OFFERED`.

    ``dealt`` holds the card codes (rank index × 4 + suit index) of the six cards of each
    round, the j-th card of every round in row j (P1 B1 P2 B2, then the third cards as drawn).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.tableau import BUILTIN
    >>> colour = load_paytable("colour-match").bet("colour_match")
    >>> hearts = np.array([[4 * r + 2] for r in (8, 0, 7, 1, 2, 3)])  # P: 9h 8h, B: Ah 2h 3h
    >>> colour.rows[int(dealt_rows([colour], hearts, BUILTIN["punto-banco"])[0][0])].event
    'Four cards of one colour'
    """
    # the engine's own evaluator, on dealt cards
    from exactodds.counting.evaluate import _Evaluator, _Round

    ranks, suits = dealt // 4, dealt % 4
    slots = {
        s: {
            "value": _VALUES[ranks[s]],
            "rank": ranks[s] + 1,
            "suit": suits[s],
            "colour": _RED[suits[s]],
        }
        for s in range(6)
    }
    rounds = dealt.shape[1]
    out = []
    for bet in bets:
        evaluator = _Evaluator(_Round(slots, True, tableau))
        row = np.full(rounds, NOT_OFFERED, dtype=np.int64)
        left = np.ones(rounds, dtype=bool)
        if bet.offer is not None:
            left &= np.broadcast_to(evaluator.test(bet.offer.node), (rounds,))
        for i, r in enumerate(bet.rows):
            hit = left & np.broadcast_to(evaluator.test(r.when.node), (rounds,))
            row[hit] = i
            left &= ~hit
        out.append(row)
    return out
