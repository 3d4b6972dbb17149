"""What kind of bet a bet is, as its consumers ask it: settled on one round (a :class:`Bet`) or
over several (a streak bet); and the bet that measures a round condition's probability."""

from __future__ import annotations

from collections.abc import Iterable

from exactodds.bets.payout import LOSE, parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.bets.streak import StreakBet
from exactodds.language import OTHERWISE, Condition

__all__ = [
    "LIVE_FEATURES",
    "condition_bet",
    "live_unhandled",
    "refuse_live",
    "settles_one_round",
]


def condition_bet(condition: Condition, bet_id: str = "condition") -> Bet:
    """A bet paying 1:1 when ``condition`` holds and losing otherwise: its EV is 2p − 1, so an
    engine that counts bets gives the probability p of the condition as (1 + EV) / 2 (a streak
    bet's figures are a function of p).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.language import parse_condition
    >>> bet = condition_bet(parse_condition("winner == tie"))
    >>> bet.rows[0].pays.net, bet.rows[1].event
    (Fraction(1, 1), 'Otherwise')
    """
    pays = (Row(condition, parse_payout("1:1"), "Holds"), Row(OTHERWISE, LOSE, "Otherwise"))
    return Bet(bet_id, bet_id, pays)


def settles_one_round(bet: Bet | StreakBet) -> bool:
    """Whether ``bet`` is settled on one round (a :class:`Bet`), not over several (a streak bet):
    the capability a consumer that settles single rounds asks of each of
    :attr:`Paytable.every_bet`."""
    return isinstance(bet, Bet)


LIVE_FEATURES = {
    "fee": "a fee on the stake",
    "multipliers": "random multipliers on its wins",
    "peek": "a peek and a raise",
}
"""How a consumer names each :attr:`Bet.live` feature when it leaves a bet out."""


def live_unhandled(bet: Bet, command: str = "", handles: Iterable[str] = ()) -> str:
    """Why a consumer (``command``) that handles only the live features ``handles`` leaves
    ``bet`` out, or ``""`` when it can count the bet: the one sentence every command's output
    gives (a fee, multipliers or a peek counted as an ordinary bet is a wrong number).

    >>> from exactodds.bets.loader import load_paytable
    >>> player = load_paytable("tests/data/live-lightning.toml").round_bet("player")
    >>> live_unhandled(player, "eor").split(": ")
    ['a fee on the stake and random multipliers on its wins', 'exactodds eor does not count them']
    >>> live_unhandled(player, "x", ("fee", "multipliers"))
    ''
    """
    allowed = frozenset(handles)
    missing = [LIVE_FEATURES[f] for f in bet.live if f not in allowed]
    if not missing:
        return ""
    who = command if command.startswith("the ") else f"exactodds {command}"
    who = who if command else "this command"
    return f"{' and '.join(missing)}: {who} does not count them"


def refuse_live(bets: Iterable[object], command: str, handles: Iterable[str] = ()) -> None:
    """Refuse (:class:`~exactodds.errors.PaytableError`) the first of ``bets`` with a live
    feature ``command`` cannot count: the Python API's guard, so that an analysis never counts
    a fee, multipliers or a peek as an ordinary bet (the commands leave such bets out first).

    >>> from exactodds.bets.loader import load_paytable
    >>> refuse_live(load_paytable("tests/data/live-peek.toml").bets, "the EOR")
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: bet 'player': a fee on the stake and a peek and a raise: \
the EOR does not count them
    """
    from exactodds.errors import PaytableError

    for bet in bets:
        if isinstance(bet, Bet):
            reason = live_unhandled(bet, command, handles)
            if reason:
                raise PaytableError(f"bet {bet.id!r}: {reason}")
