"""The words of a settled round: who won, each hand's line, a bet's money result."""

from __future__ import annotations

from fractions import Fraction

from exactodds.bets.payout import format_number
from exactodds.deal.round import Hand, Outcome
from exactodds.deal.shoe import Card

__all__ = ["hand_line", "money_result", "result_sentence"]


def result_sentence(outcome: Outcome) -> str:
    """Who won and the totals, as a sentence.

    >>> from exactodds.deal.round import PairKind
    >>> seven = Hand(7, None, PairKind.NONE)
    >>> result_sentence(Outcome(seven, seven))
    'Tie 7 : 7.'
    """
    p, b = outcome.player.total, outcome.banker.total
    if outcome.winner.value == "tie":
        return f"Tie {p} : {b}."
    if outcome.winner.value == "player":
        return f"Player wins {p} to {b}."
    return f"Banker wins {b} to {p}."


def money_result(amount: Fraction) -> str:
    """A bet's money result in words: ``wins 10``, ``push``, ``loses 10``.

    >>> money_result(Fraction(-5, 2)), money_result(Fraction(0))
    ('loses 2.5', 'push')
    """
    if amount > 0:
        return f"wins {format_number(amount)}"
    return "push" if amount == 0 else f"loses {format_number(-amount)}"


def hand_line(side: str, cards: tuple[Card, ...], hand: Hand) -> str:
    """One hand's line: its first two cards, total, pair, and draw or stand."""
    shown = " ".join(str(c) for c in cards[:2])
    notes = []
    if hand.natural:
        notes.append(f"natural {hand.initial}")
    else:
        notes.append(str(hand.initial))
    if hand.perfect_pair:
        notes.append("perfect pair")
    elif hand.pair:
        notes.append("pair")
    if hand.third is not None:
        notes.append(f"draws {cards[2]} -> {hand.total}")
    elif not hand.natural:
        notes.append("stands")
    return f"{side:<7} {shown:<8} {', '.join(notes)}"
