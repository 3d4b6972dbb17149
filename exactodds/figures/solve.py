"""Which payout gives a target house edge: solve one paytable row's payout exactly.

The house edge of a bet is linear in the net payout ``x`` of one of its rows:
``edge(x) = −(rest + p·x)``, where ``p`` is the row's probability and ``rest`` the return of the
other rows. The equation ``edge(x) = target`` is solved in exact fractions (it is linear), so the
answer is an exact fraction. Other rows keep their payouts (after the bet's rounding at a unit
stake); the solved row is taken unrounded.

>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> s = solve_payout(load_paytable(default_paytable()), "player_pair", "Player pair", "5%")
>>> s.payout, s.break_even
(Fraction(1453, 124), Fraction(384, 31))
>>> s.line.edge(s.payout) == Fraction(1, 20)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.bets.offers import PER_OFFERED_ROUND, figures_per, offer_sentence
from exactodds.bets.payout import format_number, parse_number, parse_percent
from exactodds.bets.paytable import Bet, Paytable
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.errors import ExactOddsError, PaytableError, quote, require
from exactodds.escape import md_cell, one_line
from exactodds.figures.metrics import bet_figures
from exactodds.formats import Format
from exactodds.limits import MAX_DIGITS
from exactodds.numbers import exact, percent
from exactodds.suggest import did_you_mean

__all__ = [
    "EdgeLine",
    "Solution",
    "edge_line",
    "find_row",
    "format_decimal",
    "parse_edge",
    "parse_sweep",
    "render_solution",
    "solve_payout",
    "sweep",
]

MAX_SWEEP = 10_000
"""Most payouts one sweep may list."""


def parse_edge(text: str | Fraction) -> Fraction:
    """A house edge from a percentage, ``5%``, ``1/2%`` or ``-0.5%`` (exact); a bare number is
    refused (:data:`~exactodds.bets.payout.PERCENT_RULE`: one rule for every percentage).

    >>> parse_edge("5%"), parse_edge("1/2%"), parse_edge("-0.5%")
    (Fraction(1, 20), Fraction(1, 200), Fraction(-1, 200))
    >>> parse_edge("0.05")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: house edge '0.05': write a percentage with %, like 5% ...
    """
    if isinstance(text, Fraction):
        return text
    return parse_percent(text, "house edge", signed=True)


def format_decimal(x: Fraction, places: int = 6) -> str:
    """The exact decimal when it has at most ``places`` decimals, else ``≈`` and a rounding.

    >>> format_decimal(Fraction(19, 20)), format_decimal(Fraction(1, 3))
    ('0.95', '≈ 0.333333')
    """
    exact = format_number(x)
    if "/" not in exact and len(exact.partition(".")[2]) <= places:
        return exact
    scaled = round(x * 10**places)
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    return f"≈ {sign}{digits[:-places]}.{digits[-places:]}"


def find_row(bet: Bet, event: str) -> int:
    """Index of the row of ``bet`` named ``event`` (case-insensitive), or given by number (#2).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> find_row(pair, "player PAIR"), find_row(pair, "#2")
    (0, 1)
    >>> find_row(pair, "pair")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: bet 'player_pair' has no event 'pair' (events: ...)
    """
    events = [row.event for row in bet.rows]
    exact = [i for i, e in enumerate(events) if e == event]
    loose = [i for i, e in enumerate(events) if e.casefold() == event.strip().casefold()]
    found = exact or loose
    if len(found) == 1:
        return found[0]
    known = ", ".join(repr(e) for e in events)
    if len(found) > 1:
        raise PaytableError(
            f"bet {bet.id!r}: event {event!r} names rows {', '.join(str(i + 1) for i in found)}; "
            f"give the row number instead, like '#{found[0] + 1}'"
        )
    number = event.strip().lstrip("#")
    small = number.isascii() and number.isdigit() and len(number) <= MAX_DIGITS  # bounded first
    if small and 1 <= int(number) <= len(events):
        return int(number) - 1
    raise PaytableError(
        f"bet {bet.id!r} has no event {quote(event, 40)} (events: {known})"
        + did_you_mean(event, events)
    )


@dataclass(frozen=True)
class EdgeLine:
    """The house edge of a bet as a function of one row's net payout: ``−(rest + p·x)``.

    Player Pair on 8 decks: p = 31/415 and the other row loses 384/415, so 11 to 1 leaves the
    house 43/415 and 384/31 to 1 breaks even.

    >>> line = EdgeLine(Fraction(31, 415), Fraction(-384, 415))
    >>> line.edge(Fraction(11)), line.edge(Fraction(384, 31))
    (Fraction(43, 415), Fraction(0, 1))
    """

    probability: Fraction
    rest: Fraction

    def edge(self, net: Fraction) -> Fraction:
        """House edge when the row nets ``net`` per unit stake."""
        return -(self.rest + self.probability * net)


def edge_line(joint: Joint, bet: Bet, row_index: int) -> EdgeLine:
    """The :class:`EdgeLine` of row ``row_index`` of ``bet`` on ``joint``.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> from exactodds.deal.shoe import Shoe
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> edge_line(joint_distribution(Shoe.decks(8)), pair, 0)
    EdgeLine(probability=Fraction(31, 415), rest=Fraction(-384, 415))
    """
    rows = bet_figures(joint, bet).rows
    rest = sum((r.ret for i, r in enumerate(rows) if i != row_index), Fraction(0))
    return EdgeLine(rows[row_index].probability, rest)


def _solve_linear(line: EdgeLine, target: Fraction) -> Fraction:
    """The net payout ``x`` with ``edge(x) = target``: ``−(rest + p·x) = target`` is linear, so
    ``x = −(target + rest) / p``, exact in fractions (``p`` is never 0 here).

    >>> _solve_linear(EdgeLine(Fraction(31, 415), Fraction(-384, 415)), Fraction(0))
    Fraction(384, 31)
    """
    return -(target + line.rest) / line.probability


@dataclass(frozen=True)
class Solution:
    """The payout of one row that gives a target house edge, and the break-even payout.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = solve_payout(load_paytable(default_paytable()), "tie", "Tie")
    >>> s.event, s.current, s.target, s.payout, s.current_edge == s.line.edge(Fraction(8))
    ('Tie', Fraction(8, 1), None, None, True)
    """

    paytable: Paytable
    bet: Bet
    row_index: int
    line: EdgeLine
    target: Fraction | None
    payout: Fraction | None  # net "to 1" for the target edge
    break_even: Fraction
    offer_probability: Fraction | None = None
    """Probability that a bet with an offer is offered (its figures are per offered round)."""
    paid: Fraction | None = None
    """For a bet paid with rounding: the payout it pays nearest the target edge without passing
    it (:func:`payable`), whose edge is :attr:`paid_edge`."""

    @property
    def paid_edge(self) -> Fraction | None:
        """The house edge at :attr:`paid` (at least the target)."""
        return None if self.paid is None else self.line.edge(self.paid)

    @property
    def event(self) -> str:
        """The solved row's event label."""
        return self.bet.rows[self.row_index].event

    @property
    def current(self) -> Fraction:
        """The row's net payout in the paytable (at a unit stake)."""
        return self.bet.row_net(self.bet.rows[self.row_index])

    @property
    def current_edge(self) -> Fraction:
        """The bet's house edge as the paytable stands."""
        return self.line.edge(self.current)

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``p/q`` strings."""
        return {
            "paytable": self.paytable.name,
            "bet": self.bet.id,
            "event": self.event,
            "row": self.row_index + 1,
            "probability": exact(self.line.probability),
            "current_payout": exact(self.current),
            "current_house_edge": exact(self.current_edge),
            "target_house_edge": None if self.target is None else exact(self.target),
            "payout": None if self.payout is None else exact(self.payout),
            "paid_payout": None if self.paid is None else exact(self.paid),
            "paid_house_edge": None if self.paid_edge is None else exact(self.paid_edge),
            "break_even_payout": exact(self.break_even),
            "figures_per": figures_per(self.bet),
            "meters": None
            if self.bet.progressive is None
            else {m.name: exact(m.reset) for m in self.bet.progressive.meters},
            "offer": None
            if self.bet.offer is None
            else {
                "condition": str(self.bet.offer),
                "probability": None
                if self.offer_probability is None
                else exact(self.offer_probability),
            },
        }


def solve_payout(
    paytable: Paytable,
    bet_id: str,
    event: str,
    target_edge: str | Fraction | None = None,
    joint: Joint | None = None,
) -> Solution:
    """The net payout ("to 1") of row ``event`` of bet ``bet_id`` giving ``target_edge``.

    The break-even payout (edge 0) is always solved too. ``joint`` defaults to the paytable's
    own game (its decks and tableau).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = solve_payout(load_paytable(default_paytable()), "player_pair", "Player pair", "0%")
    >>> s.payout, s.break_even, s.current_edge  # (1 − 31/415) / (31/415) = 384/31
    (Fraction(384, 31), Fraction(384, 31), Fraction(43, 415))
    """
    require(paytable, (Paytable,), "paytable")
    require(target_edge, (str, Fraction, type(None)), "target_edge")
    require(joint, (Joint, type(None)), "joint")
    bet = paytable.round_bet(bet_id, "solve")
    if bet.live:  # its edge is not linear in one row's net per unit stake
        raise ExactOddsError(
            f"bet {bet.id!r} has {' and '.join(bet.live)}: solve it for a target RTP per money "
            "paid, by its fee, a pay or a multiplier weight"
        )
    index = find_row(bet, event)
    joint = joint or joint_distribution(paytable.shoe, paytable.tableau)
    line = edge_line(joint, bet, index)
    if line.probability == 0:
        raise ExactOddsError(
            f"bet {bet.id!r}: event {bet.rows[index].event!r} never happens in this game "
            "(probability 0), so no payout of it changes the house edge"
        )
    target = None if target_edge is None else parse_edge(target_edge)
    payout = None
    if target is not None:
        payout = _solve_linear(line, target)
        if payout < -1:
            raise ExactOddsError(
                f"house edge {percent(target)} is out of reach by bet {bet.id!r} "
                f"event {bet.rows[index].event!r}: it needs a payout of "
                f"{format_decimal(payout)} to 1, less than losing the stake"
            )
    offered = None if bet.offer is None else bet_figures(joint, bet).offer_probability
    paid = None if payout is None or bet.rounding is None else payable(payout, bet.rounding.step)
    return Solution(
        paytable, bet, index, line, target, payout, _solve_linear(line, Fraction(0)), offered, paid
    )


def payable(payout: Fraction, step: Fraction) -> Fraction:
    """The payout a bet paid with rounding to ``step`` pays nearest ``payout`` without passing
    it: the largest whose return at a unit stake is a multiple of ``step`` (so any rounding mode
    pays it as stated) and at most the exact ``1 + payout``. Its house edge is the closest to
    the target that is not below it (the edge falls as the payout rises).

    >>> payable(Fraction("0.951263"), Fraction(1, 100)), payable(Fraction(19, 20), Fraction(1, 100))
    (Fraction(19, 20), Fraction(19, 20))
    """
    units = (1 + payout) / step
    return (units.numerator // units.denominator) * step - 1


def parse_sweep(text: str, step: str | Fraction = Fraction(1)) -> list[Fraction]:
    """The payouts ``A, A+step, …, B`` of a sweep ``A:B``.

    >>> [str(x) for x in parse_sweep("8:10")], [str(x) for x in parse_sweep("1:2", "0.5")]
    (['8', '9', '10'], ['1', '3/2', '2'])
    """
    start_text, sep, end_text = text.partition(":")
    if not sep:
        raise ExactOddsError(f"sweep {text!r} must be A:B, like 8:12")
    try:
        start, end = parse_number(start_text), parse_number(end_text)
        delta = step if isinstance(step, Fraction) else parse_number(step)
    except PaytableError as exc:
        raise ExactOddsError(f"sweep {text!r}: {exc}") from None
    if delta <= 0:
        raise ExactOddsError(f"sweep step must be positive, not {step!r}")
    if end < start:
        raise ExactOddsError(f"sweep {text!r} runs backwards (A must not exceed B)")
    count = int((end - start) / delta) + 1
    if count > MAX_SWEEP:
        raise ExactOddsError(f"sweep {text!r} lists {count} payouts (at most {MAX_SWEEP})")
    return [start + i * delta for i in range(count)]


def sweep(solution: Solution, payouts: list[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """(net payout, exact house edge) for each payout of the solved row.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = solve_payout(load_paytable(default_paytable()), "player_pair", "Player pair")
    >>> [str(edge) for _, edge in sweep(s, parse_sweep("11:13"))]  # 31/415 per unit of payout
    ['43/415', '12/415', '-19/415']
    """
    return [(x, solution.line.edge(x)) for x in payouts]


def _pays(net: Fraction) -> str:
    if net.denominator == 1 or "/" not in format_number(net):
        return f"{format_number(net)} to 1 (= {format_number(net + 1)} for 1)"
    approx = f"{format_decimal(net)} to 1 ({format_decimal(net + 1)} for 1)"
    return f"{net} to 1 (= {net + 1} for 1), {approx}"


def render_solution(
    s: Solution, rows: list[tuple[Fraction, Fraction]] | None = None, fmt: str = "text"
) -> str:
    """Human-readable ``text`` of a :class:`Solution`, with the :func:`sweep` ``rows`` as a
    table when given; or ``json``: :meth:`Solution.to_json`, the sweep under ``"sweep"``.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = solve_payout(load_paytable(default_paytable()), "player_pair", "Player pair", "5%")
    >>> print(render_solution(s))  # doctest: +ELLIPSIS
    Bet: Player Pair (player_pair), row 1: Player pair
    Game: Classic (commission): 8 decks, punto-banco
    Probability of the event: 31/415 (≈ 0.074699)
    As the paytable stands: 11 to 1 (= 12 for 1) -> house edge 10.3614%
    <BLANKLINE>
    Payout for house edge 5.0000% (1/20):
      fraction  1453/124 to 1
    ...
    Break-even payout (house edge 0): 384/31 to 1 (= 415/31 for 1), ≈ 12.387097 to 1 ...
    """
    fmt = Format.check(fmt, (Format.TEXT, Format.JSON))
    if fmt is Format.JSON:
        data = s.to_json()
        if rows is not None:
            data["sweep"] = [{"payout": exact(x), "house_edge": exact(e)} for x, e in rows]
        return json.dumps(data, indent=2)
    t = s.paytable
    per = f" {PER_OFFERED_ROUND}" if s.bet.offer is not None else ""
    lines = [
        f"Bet: {s.bet.name} ({s.bet.id}), row {s.row_index + 1}: {s.event}",
        f"Game: {t.name}: {t.decks} decks, {t.tableau.name}",
        *([f"Offer: {offer_sentence(s.bet, s.offer_probability)}"] if per else []),
        f"Probability of the event{per}: {s.line.probability} "
        f"({format_decimal(s.line.probability)})",
        f"As the paytable stands: {_pays(s.current)} -> house edge{per} {percent(s.current_edge)}",
    ]
    progressive = s.bet.progressive
    if progressive is not None:
        from exactodds.bets.meters import at_meters

        lines.append(
            f"Progressive: every figure here {at_meters(progressive)} (the reset), the "
            f"jackpot paying the meter for the fixed wager {format_number(progressive.stake)}"
        )
    if s.target is not None and s.payout is not None:
        lines += [
            "",
            f"Payout for house edge {percent(s.target)} ({s.target}):",
            f"  fraction  {s.payout} to 1",
            f"  decimal   {format_decimal(s.payout)} to 1",
            f"  for 1     {format_decimal(s.payout + 1)} for 1",
        ]
        if s.payout < 0:
            lines.append("  (the event would return less than the stake)")
        whole = s.payout.numerator // s.payout.denominator
        near = [w for w in (whole, whole + 1) if w >= 0]
        if near and s.payout.denominator != 1:
            lines.append(
                "  nearest whole payouts: "
                + ", ".join(f"{w} to 1 -> {percent(s.line.edge(Fraction(w)))}" for w in near)
            )
        rounding = s.bet.rounding
        if s.paid is not None and s.paid_edge is not None and rounding is not None:
            lines += [
                f"  paid      {format_number(s.paid)} to 1 -> house edge{per} "
                f"{percent(s.paid_edge)}: returns are rounded to {format_number(rounding.step)} "
                f"({rounding.mode.value}),",
                "            so this is the largest payout paid as stated whose edge is at "
                "least the target",
            ]
    lines += ["", f"Break-even payout (house edge 0): {_pays(s.break_even)}"]
    if rows is not None:
        lines += ["", _sweep_table(s, rows)]
    return "\n".join(lines)


def _sweep_table(s: Solution, rows: list[tuple[Fraction, Fraction]]) -> str:
    """The sweep as a Markdown table; player-favourable payouts marked ``*``.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = solve_payout(load_paytable(default_paytable()), "player_pair", "Player pair")
    >>> print(_sweep_table(s, sweep(s, parse_sweep("12:13"))))
    House edge of Player Pair by payout of 'Player pair':
    <BLANKLINE>
    |   Player pair |   House edge | Exact   |
    |--------------:|-------------:|:--------|
    |       12 to 1 |      2.8916% | 12/415  |
    |       13 to 1 |   -4.5783% * | -19/415 |
    * player-favourable
    """
    from exactodds.tables import pipe_table

    body = [
        (
            f"{format_number(x)} to 1" if "/" not in format_number(x) else f"{x} to 1",
            percent(edge) + (" *" if edge < 0 else ""),
            str(edge),
        )
        for x, edge in rows
    ]
    table = pipe_table(body, [md_cell(s.event), "House edge", "Exact"], ["right", "right", "left"])
    note = "\n* player-favourable" if any(edge < 0 for _, edge in rows) else ""
    per = f" ({PER_OFFERED_ROUND})" if s.bet.offer is not None else ""
    return f"House edge of {one_line(s.bet.name)}{per} by payout of {s.event!r}:\n\n{table}{note}"
