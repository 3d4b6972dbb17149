"""Settle bets over a sequence of dealt rounds: streak bets (:mod:`exactodds.bets.streak`) on the
rounds dealt after they are made, and round bets on a single round (``settle`` with one
``--cards`` per round).

The rounds are checked one by one as :func:`~exactodds.bets.settle.check_round` checks one, and
together: every card of every round must come from the one shoe. Each streak bet is settled
by :func:`~exactodds.bets.streak.settle_streak`; one that every given round keeps alive is still
running and has no result yet.

>>> from exactodds.bets.loader import load_paytable
>>> banker, player = "P: Kc Qh | B: 8d Ks", "P: 9s 9h | B: Kd 7c"
>>> s = settle_rounds(load_paytable("banker-streak"), [banker] * 4 + [player],
...                   [("banker_streak", 10)])
>>> x = s.streaks[0]
>>> x.streak, x.round, x.row.event, x.amount  # four Banker wins, then a Player win: 10 to 1
(4, 5, '4', Fraction(100, 1))
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from exactodds.bets.bundled import display_path
from exactodds.bets.payout import Notation, format_number
from exactodds.bets.paytable import Paytable
from exactodds.bets.settle import (
    DealtRound,
    Settlement,
    check_round,
    format_round_cards,
    money_result,
    parse_stake,
    result_sentence,
    round_data,
    settle_round,
)
from exactodds.bets.streak import StreakBet, StreakRow, settle_streak
from exactodds.deal.shoe import Card, Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import ExactOddsError, RoundError, ShoeError
from exactodds.formats import Format
from exactodds.limits import MAX_SETTLE_ROUNDS
from exactodds.numbers import exact

__all__ = [
    "SettledRounds",
    "StreakSettlement",
    "check_bet_ids",
    "render_rounds",
    "select_bets",
    "settle_rounds",
]

RoundCards = str | tuple[Sequence[Card], Sequence[Card]]


@dataclass(frozen=True)
class StreakSettlement:
    """A streak bet over the given rounds: its streak (so far, while it runs), the round
    (1-based) that settled it and the row paying it, or None for both while it still runs."""

    bet: StreakBet
    stake: Fraction
    streak: int
    round: int | None
    row: StreakRow | None

    @property
    def amount(self) -> Fraction | None:
        """Net money result (None while the bet runs)."""
        return None if self.row is None else self.stake * self.row.pays.net

    @property
    def returned(self) -> Fraction | None:
        """Stake plus the net result (None while the bet runs)."""
        return None if self.amount is None else self.stake + self.amount


@dataclass(frozen=True)
class SettledRounds:
    """Legal rounds from one shoe, the round bets settled on the one round (only with one
    round) and the streak bets settled over all of them."""

    paytable: Paytable
    rounds: tuple[DealtRound, ...]
    settlements: tuple[Settlement, ...]
    streaks: tuple[StreakSettlement, ...]
    shoe: Shoe

    @property
    def net(self) -> Fraction:
        """Total money result of the settled bets (a running streak bet counts nothing)."""
        done = [x.amount for x in self.streaks if x.amount is not None]
        return sum((s.amount for s in self.settlements), Fraction()) + sum(done, Fraction())

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: per bet its stake, event, pays, net and returns (a streak bet also its
        ``streak`` and ``settled_on_round``; ``null`` results while it runs), the net, every
        round as ``settle`` gives one, the paytable, shoe and rules; exact values ``"p/q"``."""
        t = self.paytable
        bets: list[dict[str, Any]] = [x.to_json() for x in self.settlements]
        for y in self.streaks:
            amount, returned = y.amount, y.returned
            bets.append(
                {
                    "bet": y.bet.id,
                    "name": y.bet.name,
                    "stake": exact(y.stake),
                    "streak": y.streak,
                    "settled_on_round": y.round,
                    "event": None if y.row is None else y.row.event,
                    "pays": None if y.row is None else y.row.pays.stated(Notation.BOTH),
                    "net": None if amount is None else exact(amount),
                    "returns": None if returned is None else exact(returned),
                }
            )
        return {
            "bets": bets,
            "net": exact(self.net),
            "rounds": [round_data(r) for r in self.rounds],
            "paytable": t.name,
            "file": display_path(t.path) or None,
            "sha256": t.sha256,
            "shoe": self.shoe.describe(),
            "rules": self.rounds[0].tableau.data(),
        }


def settle_rounds(
    paytable: Paytable,
    rounds: Sequence[RoundCards],
    bets: Sequence[tuple[str, Fraction | int | str]] = (),
    tableau: Tableau | None = None,
    shoe: Shoe | None = None,
) -> SettledRounds:
    """Deal ``rounds`` in order from ``shoe`` under ``tableau`` (defaults: the paytable's)
    and settle ``bets``: streak bets over the rounds, a round bet on the one round given.

    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("banker-streak")
    >>> settle_rounds(table, ["P: Kc Qh | B: 8d Ks"] * 2, [("banker", 1)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: bet 'banker' is settled on one round, not on 2: ...
    >>> settle_rounds(table, ["P: Kc Qh | B: 8d Ks"], [("banker_streek", 1)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: ... unknown bet id 'banker_streek' ...; did you mean ...
    """
    if not rounds:
        raise ExactOddsError("give at least one round")
    if len(rounds) > MAX_SETTLE_ROUNDS:
        raise ExactOddsError(f"{len(rounds):,} rounds: more than the limit of {MAX_SETTLE_ROUNDS}")
    rules = tableau or paytable.tableau
    shoe = shoe or paytable.shoe
    check_bet_ids(paytable, [bet_id for bet_id, _ in bets])
    streak_bets = {b.id: b for b in paytable.streaks}
    placed_streaks: list[tuple[StreakBet, Fraction]] = []
    round_bets: list[tuple[str, Fraction]] = []
    for bet_id, stake in bets:
        amount = stake if isinstance(stake, Fraction) else parse_stake(f"{bet_id}={stake}")[1]
        if bet_id in streak_bets:
            placed_streaks.append((streak_bets[bet_id], amount))
        else:
            round_bets.append((bet_id, amount))
            if len(rounds) > 1:
                raise ExactOddsError(
                    f"bet {bet_id!r} is settled on one round, not on {len(rounds)}: settle it "
                    "with that round alone (several rounds settle streak bets)"
                )
    dealt = tuple(_round(i, cards, rules, shoe, len(rounds)) for i, cards in enumerate(rounds, 1))
    if len(dealt) > 1:
        try:
            shoe.counts_after([c for r in dealt for c in (*r.player, *r.banker)])
        except ShoeError as exc:
            raise RoundError(
                f"the {len(dealt)} rounds cannot all come from one shoe ({shoe.describe()}): {exc}"
            ) from None
    settlements: tuple[Settlement, ...] = ()
    if round_bets:
        first = dealt[0]
        cards = (first.player, first.banker)
        settlements = settle_round(paytable, cards, round_bets, rules, shoe).settlements
    outcomes = [r.outcome for r in dealt]
    streaks = []
    for bet, stake in placed_streaks:
        result = settle_streak(bet, outcomes)
        if result is None:
            streaks.append(StreakSettlement(bet, stake, len(outcomes), None, None))
            continue
        streak, row = result
        reached = bet.max_streak is not None and streak >= bet.max_streak
        streaks.append(StreakSettlement(bet, stake, streak, streak if reached else streak + 1, row))
    return SettledRounds(paytable, dealt, settlements, tuple(streaks), shoe)


def check_bet_ids(paytable: Paytable, ids: Sequence[str]) -> None:
    """Raise :class:`PaytableError` for the first id that is neither a round bet nor a streak
    bet of ``paytable``, naming both kinds.

    >>> from exactodds.bets.loader import load_paytable
    >>> check_bet_ids(load_paytable("banker-streak"), ["banker", "streak"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: ...: unknown bet id 'streak' (known: player, banker, tie, ...
    """
    for bet_id in ids:
        paytable.bet(bet_id)  # every bet, its refusal naming the closest


def select_bets(
    paytable: Paytable, ids: Sequence[str], *, streaks: bool = True, command: str = "this command"
) -> Paytable:
    """``paytable`` with only the bets ``ids`` (round or streak bets, in the order given; every
    bet when ``ids`` is empty), so that one heavy bet does not hold up the rest. An unknown id
    raises :class:`PaytableError` with the closest; so does a streak bet unless ``streaks``
    (for a ``command`` that reads single rounds).

    >>> from exactodds.bets.loader import load_paytable
    >>> t = select_bets(load_paytable("banker-streak"), ["tie", "banker_streak", "tie"])
    >>> [b.id for b in t.bets], [b.id for b in t.streaks]
    (['tie'], ['banker_streak'])
    """
    if not ids:
        return paytable
    check_bet_ids(paytable, ids)
    wanted = list(dict.fromkeys(ids))
    by_id = {b.id: b for b in paytable.streaks}
    named = tuple(by_id[i] for i in wanted if i in by_id)
    if named and not streaks:  # its refusal: a streak bet is not settled on one round
        paytable.round_bet(named[0].id, command)
    bets = tuple(paytable.round_bet(i) for i in wanted if i not in by_id)
    return replace(paytable, bets=bets, streaks=named)


def _round(number: int, cards: RoundCards, rules: Tableau, shoe: Shoe, of: int) -> DealtRound:
    """One round checked; with several, an error names the round."""
    try:
        return check_round(cards, rules, shoe)
    except ExactOddsError as exc:
        if of > 1:
            exc.args = (f"round {number}: {exc}", *exc.args[1:])
        raise


def render_rounds(s: SettledRounds, fmt: str = "text") -> str:
    """Human-readable ``text`` of settled rounds (one line per round, a table of the bets), or
    ``json`` (:meth:`SettledRounds.to_json`, ends with a newline).

    >>> from exactodds.bets.loader import load_paytable
    >>> b, t = "P: Kc Qh | B: 8d Ks", "P: 7h Kc | B: 7d Qs"
    >>> s = settle_rounds(load_paytable("banker-streak"), [b, b, t], [("banker_streak", 10)])
    >>> print(render_rounds(s))
    Rules: punto-banco    Paytable: Banker Streak (8 decks)
    Round 1  P: Kc Qh | B: 8d Ks    Banker wins 8 to 0.
    Round 2  P: Kc Qh | B: 8d Ks    Banker wins 8 to 0.
    Round 3  P: 7h Kc | B: 7d Qs    Tie 7 : 7.
    <BLANKLINE>
    | Bet                         |   Stake | Streak              | Event     | Pays   | Result   |
    |:----------------------------|--------:|:--------------------|:----------|:-------|:---------|
    | Banker Streak (pay table 1) |      10 | 2, ended at round 3 | 3 or less | lose   | loses 10 |
    <BLANKLINE>
    Net result: -10
    """
    fmt = Format.check(fmt, (Format.TEXT, Format.JSON))
    if fmt is Format.JSON:
        return json.dumps(s.to_json(), indent=2, ensure_ascii=False) + "\n"
    from exactodds.tables import pipe_table

    t = s.paytable
    lines = [
        f"Rules: {s.rounds[0].tableau.name}    Paytable: {t.name} ({t.decks} decks)"
        + ("" if s.shoe == t.shoe else f"    Shoe: {s.shoe.describe()}")
    ]
    shown = [format_round_cards(r.player, r.banker) for r in s.rounds]
    width = max(map(len, shown))
    for i, (r, cards) in enumerate(zip(s.rounds, shown, strict=True), 1):
        lines.append(f"Round {i:<2} {cards:<{width}}    {result_sentence(r.outcome)}")
    body = [
        (
            x.bet.name,
            format_number(x.stake),
            "",
            x.row.event,
            x.pays,
            money_result(x.amount),
        )
        for x in s.settlements
    ]
    for y in s.streaks:
        if y.row is None or y.amount is None:
            body.append(
                (y.bet.name, format_number(y.stake), f"{y.streak}, running", "", "", "open")
            )
            continue
        how = "max_streak" if y.round == y.streak else "ended"  # else the condition failed
        body.append(
            (
                y.bet.name,
                format_number(y.stake),
                f"{y.streak}, {how} at round {y.round}",
                y.row.event,
                y.row.pays.stated(Notation.BOTH),
                money_result(y.amount),
            )
        )
    if not body:
        return "\n".join(lines)
    table = pipe_table(
        body,
        ["Bet", "Stake", "Streak", "Event", "Pays", "Result"],
        ["left", "right", "left", "left", "left", "left"],
    )
    net = s.net
    sign = "+" if net > 0 else ""
    lines += ["", table, "", f"Net result: {sign}{format_number(net)}"]
    running = [y.bet.name for y in s.streaks if y.row is None]
    if running:
        lines.append(f"Still running (give the next rounds to settle): {', '.join(running)}")
    return "\n".join(lines)
