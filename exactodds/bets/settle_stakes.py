"""The stakes of ``settle``'s bets: ``ID=STAKE`` read exactly, and refused where a bet's wager
is fixed (a progressive bet)."""

from __future__ import annotations

from fractions import Fraction

from exactodds.bets.payout import format_number, parse_number
from exactodds.bets.paytable import Bet
from exactodds.errors import ExactOddsError, PaytableError, parameter, quote
from exactodds.limits import MAX_DIGITS

__all__ = ["check_stake", "parse_stake"]


def parse_stake(text: str) -> tuple[str, Fraction]:
    """A ``--bet`` value ``ID=STAKE``; an error names the bet (the CLI, the option) and the
    value.

    >>> parse_stake("player_pair=12.5")
    ('player_pair', Fraction(25, 2))
    >>> parse_stake("player=" + "9" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: bet 'player=99...99': the stake has 40 digits, more than ...
    """
    with parameter("bet", prefix=False):
        return _stake(text)


def _stake(text: str) -> tuple[str, Fraction]:
    """:func:`parse_stake`, its messages naming the bet first."""
    where = f"bet {quote(text, 40)}"
    bet_id, sep, amount = text.partition("=")
    if not sep or not bet_id.strip():
        raise ExactOddsError(f"{where}: must be ID=STAKE, like player=100")
    digits = sum(c.isdigit() for c in amount)
    if digits > MAX_DIGITS:
        raise ExactOddsError(
            f"{where}: the stake has {digits:,} digits, more than the limit of {MAX_DIGITS}"
        )
    try:
        stake = parse_number(amount)
    except PaytableError:
        raise ExactOddsError(
            f"{where}: the stake {quote(amount.strip(), 40)} is not a number like 100 or 12.5"
        ) from None
    if stake <= 0:
        raise ExactOddsError(f"{where}: the stake must be positive")
    return bet_id.strip(), stake


def check_stake(bet: Bet, stake: Fraction) -> None:
    """Refuse a stake a progressive bet does not take: its jackpot rows pay the meter for its
    fixed wager, so any other stake would scale a prize no table pays.

    >>> from exactodds.bets.loader import load_paytable
    >>> bet = load_paytable("dragon-dragon").bet("dragon_dragon")
    >>> check_stake(bet, Fraction(1))
    >>> check_stake(bet, Fraction(100))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: bet 'dragon_dragon' is progressive: its wager is fixed at 1 ...
    """
    progressive = bet.progressive
    if progressive is not None and stake != progressive.stake:
        raise ExactOddsError(
            f"bet {bet.id!r} is progressive: its wager is fixed at "
            f"{format_number(progressive.stake)} (the jackpot pays the meter for it), "
            f"not {format_number(stake)}"
        )
