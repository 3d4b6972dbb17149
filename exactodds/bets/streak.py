"""Streak bets: a bet settled by how many consecutive rounds, from the round after it is placed,
satisfy a round condition (Banker Streak: consecutive Banker wins); exact figures when rounds are
independent, and a simulation of rounds dealt from one shoe.

A paytable bet with ``streak = "banker.wins"`` (and optionally ``max_streak = 10``, after which
the bet ends) has rows over ``streak``: ``streak >= 10``, ``streak == 9``, ``4 <= streak <= 6``,
``otherwise``. Such bets are kept apart from the round bets (:attr:`Paytable.streaks
<exactodds.bets.paytable.Paytable.streaks>`): they are not settled on one round.

Rounds independent (each from the paytable's full shoe, as published analyses and continuous
shufflers assume): with p the exact probability of the condition on one round, the streak is k
with probability p^k (1 − p), and reaches ``max_streak`` m with probability p^m.

>>> from exactodds.bets.loader import load_paytable
>>> table = load_paytable("banker-streak")
>>> f = streak_figures(table.streaks[0], table.shoe, table.tableau)
>>> f"{float(f.ev):.6f}"  # Wizard of Odds, pay table 1
'-0.094006'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from exactodds.bets.payout import Payout, parse_payout
from exactodds.bets.returns import ReturnFigures
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome, feature_record
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import PaytableError, quote
from exactodds.language import Condition, parse_condition
from exactodds.limits import MAX_NAME_CHARS, MAX_TEXT_CHARS

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MAX_STREAK",
    "STREAK_KEYS",
    "STREAK_LEGEND",
    "STREAK_MARK",
    "StreakBet",
    "StreakFigures",
    "StreakRow",
    "condition_probability",
    "never_ends",
    "parse_streak_bet",
    "settle_hits",
    "settle_streak",
    "streak_figures",
    "streak_figures_at",
    "streak_toml",
]

MAX_STREAK = 100
"""Largest ``max_streak`` and largest number a row may compare the streak with."""

STREAK_KEYS = frozenset({"name", "description", "streak", "max_streak", "rows"})
"""The keys of a streak bet's table."""

STREAK_MARK = "‡"
"""Marks a streak bet where it is listed with round bets (summaries, paytable tables)."""

STREAK_LEGEND = (
    f"{STREAK_MARK} Streak bet, settled over several rounds: figures per bet, rounds independent."
)
"""The line under a list of bets that holds a streak bet."""

_BET_ID = re.compile(r"^[a-z][a-z0-9_]{0,199}\Z")
_CMP = re.compile(r"^streak\s*(==|>=|<=|>|<|!=)\s*([0-9]{1,4})\Z")
_RANGE = re.compile(r"^([0-9]{1,4})\s*<=\s*streak\s*<=\s*([0-9]{1,4})\Z")


@dataclass(frozen=True)
class StreakRow:
    """One row: the streaks from ``low`` to ``high`` (inclusive; None: no upper end) pay."""

    text: str
    low: int
    high: int | None
    pays: Payout
    event: str

    def holds(self, k: int) -> bool:
        """Whether a streak of ``k`` rounds falls in this row's range."""
        return self.low <= k and (self.high is None or k <= self.high)


@dataclass(frozen=True)
class StreakBet:
    """A streak bet: the round ``condition`` counted, rows tried in order, and the streak at
    which the bet ends (None: when the condition first fails)."""

    id: str
    name: str
    condition: Condition
    rows: tuple[StreakRow, ...]
    max_streak: int | None = None
    description: str = ""

    @cached_property
    def horizon(self) -> int:
        """The streak from which every longer one settles the same: ``max_streak``, or one
        past the largest number a row names."""
        if self.max_streak is not None:
            return self.max_streak
        named = [r.low for r in self.rows] + [r.high for r in self.rows if r.high is not None]
        return max(named, default=0) + 1

    def row_of(self, k: int) -> int:
        """Index of the row settling a streak of ``k`` (capped at the horizon)."""
        k = min(k, self.horizon)
        for i, row in enumerate(self.rows):
            if row.holds(k):
                return i
        raise PaytableError(f"bet {self.id!r}: no row matches a streak of {k}")  # pragma: no cover


def _row_range(text: str) -> tuple[int, int | None]:
    """The streaks a row's ``when`` names, as (low, high)."""
    body = " ".join(text.strip().lower().split())
    if body == "otherwise":
        return 0, None
    low: int
    high: int | None
    if (m := _RANGE.match(body)) is not None:
        low, high = int(m[1]), int(m[2])
    elif (m := _CMP.match(body)) is not None:
        op, n = m[1], int(m[2])
        if op == "!=":
            raise PaytableError(f"use ranges, not '!=': {quote(text)}")
        ranges: dict[str, tuple[int, int | None]] = {
            "==": (n, n),
            ">=": (n, None),
            ">": (n + 1, None),
            "<=": (0, n),
            "<": (0, n - 1),
        }
        low, high = ranges[op]
    else:
        raise PaytableError(
            f"a streak row's when must be 'streak >= 4', 'streak == 9', '4 <= streak <= 6' or "
            f"'otherwise', not {quote(text)}"
        )
    if max(low, high or 0) > MAX_STREAK:
        raise PaytableError(f"{quote(text)} names a streak over the limit of {MAX_STREAK}")
    if high is not None and high < low:
        raise PaytableError(f"{quote(text)} holds for no streak")
    return low, high


def _streak_rows(where: str, rows_data: Any) -> list[StreakRow]:
    """A streak bet's rows, each checked."""
    if not isinstance(rows_data, list) or not rows_data or len(rows_data) > MAX_STREAK + 2:
        raise PaytableError(f"{where}: 'rows' must be a list of 1 to {MAX_STREAK + 2} rows")
    rows = []
    for n, row in enumerate(rows_data, 1):
        if not isinstance(row, Mapping) or "when" not in row or "pays" not in row:
            raise PaytableError(f"{where} row {n}: a row must be {{ when = …, pays = … }}")
        if set(row) - {"when", "pays", "event"}:
            raise PaytableError(f"{where} row {n}: unknown key (expected when, pays, event)")
        when = row["when"]
        if not isinstance(when, str):
            raise PaytableError(f"{where} row {n}: when must be a text, not {quote(when)}")
        try:
            low, high = _row_range(when)
            pays = parse_payout(row["pays"])
        except PaytableError as exc:
            raise PaytableError(f"{where} row {n}: {exc}") from None
        event = row.get("event", when.strip())
        if not isinstance(event, str) or len(event) > 200:
            raise PaytableError(f"{where} row {n}: event must be a short text")
        shown = event if event != "otherwise" else "Otherwise"
        rows.append(StreakRow(when.strip(), low, high, pays, shown))
    return rows


def parse_streak_bet(bet_id: str, data: Mapping[str, Any]) -> StreakBet:
    """A streak bet's table, checked; raises :class:`PaytableError` naming the first problem
    (the condition must be a round feature of the outcome, not third cards or the cards).

    >>> rows = [{"when": "streak >= 3", "pays": "10:1"}, {"when": "otherwise", "pays": "lose"}]
    >>> bet = parse_streak_bet("b", {"streak": "banker.wins", "rows": rows})
    >>> bet.horizon, bet.row_of(7), bet.rows[1].event
    (4, 0, 'Otherwise')
    >>> parse_streak_bet("b", {"streak": "player.third == 5", "rows": rows})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: bet 'b': streak condition 'player.third == 5' reads ...
    """
    where = f"bet {quote(bet_id)}"
    if not _BET_ID.match(bet_id):
        raise PaytableError(f"{where}: a bet id must be lower-case letters, digits and _")
    unknown = sorted(set(data) - STREAK_KEYS)
    if unknown:
        raise PaytableError(
            f"{where}: unknown key {unknown[0]!r} for a streak bet (expected "
            f"{', '.join(sorted(STREAK_KEYS))})"
        )
    text = data["streak"]
    if not isinstance(text, str):
        raise PaytableError(f"{where}: streak must be a round condition, not {quote(text)}")
    try:
        condition = parse_condition(text)
    except PaytableError as exc:
        raise PaytableError(f"{where}: streak: {exc}") from None
    third = sorted(f for f in condition.features if f.endswith(".third"))
    if condition.card_level or third or condition.is_otherwise:
        what = ", ".join(third) or ("the cards" if condition.card_level else "every round")
        raise PaytableError(
            f"{where}: streak condition {quote(text)} reads {what}; it must be a result of "
            "the round (winner, wins, totals, naturals, pairs)"
        )
    top = data.get("max_streak")
    if top is not None and (
        not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= MAX_STREAK
    ):
        raise PaytableError(
            f"{where}: max_streak must be a whole number from 1 to {MAX_STREAK}, not {quote(top)}"
        )
    rows = _streak_rows(where, data.get("rows"))
    if rows[-1].text != "otherwise":
        raise PaytableError(f'{where}: the last row must be when = "otherwise"')
    name = data.get("name", bet_id)
    description = data.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise PaytableError(f"{where}: name and description must be texts")
    if len(name) > MAX_NAME_CHARS or len(description) > MAX_TEXT_CHARS:
        raise PaytableError(f"{where}: name or description longer than the limit")
    bet = StreakBet(bet_id, name, condition, tuple(rows), top, description)
    for i, row in enumerate(rows):
        if not any(bet.row_of(k) == i for k in range(bet.horizon + 1)):
            raise PaytableError(f"{where} row {i + 1} ({row.event!r}): can never match")
    return bet


def settle_streak(bet: StreakBet, outcomes: Iterable[Outcome]) -> tuple[int, StreakRow] | None:
    """The streak and the row settling ``bet`` on the rounds dealt after it was made, in
    order; None while it still runs (every round so far met the condition, short of
    ``max_streak``). Rounds after the one that settles it are not read.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.round import Hand, PairKind
    >>> bet = load_paytable("banker-streak").streaks[0]
    >>> banker = Outcome(Hand(2, None, PairKind.NONE), Hand(9, None, PairKind.NONE))
    >>> player = Outcome(Hand(9, None, PairKind.NONE), Hand(2, None, PairKind.NONE))
    >>> streak, row = settle_streak(bet, [banker] * 4 + [player, banker])
    >>> streak, row.event, row.pays.net
    (4, '4', Fraction(10, 1))
    >>> settle_streak(bet, [banker] * 3) is None, settle_streak(bet, [banker] * 12)[0]
    (True, 10)
    """
    test = bet.condition.test
    return settle_hits(bet, (bool(test(feature_record(o))) for o in outcomes))


def condition_probability(condition: Condition, shoe: Shoe, tableau: Tableau) -> Fraction:
    """Exact probability that one round from the full ``shoe`` satisfies ``condition``.

    >>> from exactodds.deal.tableau import BUILTIN
    >>> p = condition_probability(parse_condition("banker.wins"), Shoe.decks(8),
    ...                           BUILTIN["punto-banco"])
    >>> f"{float(p):.6f}"
    '0.458597'
    """
    joint = joint_distribution(shoe, tableau)
    test = condition.test
    hits = sum(n for record, n in joint.records if test(record))
    return Fraction(hits, joint.total)


@dataclass(frozen=True)
class StreakFigures(ReturnFigures):
    """Exact figures of a streak bet with independent rounds: per row its probability, and
    the return, edge, hit frequency, variance and expected rounds per bet. Its headline
    figures have the names and meanings of a round bet's
    (:class:`~exactodds.figures.metrics.BetFigures`), per bet, so a consumer listing every bet
    reads both alike; what only a streak bet has (p, expected rounds, edge per round played)
    is added."""

    model = "rounds independent"
    """The model the figures are exact in: every round dealt from the full shoe."""

    bet: StreakBet
    p: Fraction
    """Probability of the condition on one round."""
    probabilities: tuple[Fraction, ...]
    """Per row: the probability that it settles the bet."""

    @cached_property
    def streaks(self) -> tuple[Fraction, ...]:
        """P(streak = k) for k = 0 … horizon − 1, then P(streak ≥ horizon)."""
        return _streak_distribution(self.p, self.bet.horizon)

    def outcomes(self) -> Iterable[tuple[Fraction, Fraction]]:
        """(probability, net) of each row: the headline figures of
        :class:`~exactodds.bets.returns.ReturnFigures` come from them."""
        return ((q, row.pays.net) for q, row in zip(self.probabilities, self.bet.rows, strict=True))

    @property
    def offer_probability(self) -> None:
        """None: a streak bet is made on any round (as for a round bet without an offer)."""
        return None

    @property
    def expected_rounds(self) -> Fraction:
        """Expected rounds a bet lasts: the streak and the round that ends it, at most
        ``max_streak`` (1 + p + … + p^(m−1)); without a cap 1 / (1 − p)."""
        m = self.bet.max_streak
        if m is None:
            return 1 / (1 - self.p)
        return sum((self.p**i for i in range(m)), Fraction())

    @property
    def edge_per_round(self) -> Fraction:
        """The house edge spread over the rounds the bet lasts."""
        return self.house_edge / self.expected_rounds

    def _table(self) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
        headers = ("event", "streak", "pays", "net", "probability", "return")
        rows: list[tuple[object, ...]] = [
            (r.event, r.text, r.pays.text or str(r.pays), r.pays.net, q, q * r.pays.net)
            for r, q in zip(self.bet.rows, self.probabilities, strict=True)
        ]
        return headers, rows

    def _repr_html_(self) -> str:
        """The return table and the headline figures, rounds independent, for notebooks."""
        from exactodds.notebook import html_table
        from exactodds.numbers import percent

        headers, rows = self._table()
        caption = (
            f"{self.bet.name} (streak of {self.bet.condition}, {self.model}): house edge "
            f"{percent(self.house_edge)}, RTP {percent(self.rtp)}, hit frequency "
            f"{percent(self.hit_frequency)}, p = {percent(self.p)}"
        )
        return html_table(headers, [(*r[:3], str(r[3]), *r[4:]) for r in rows], caption)

    def to_frame(self) -> pd.DataFrame:
        """The return table (event, streak, pays, net, probability, return) as a DataFrame of
        exact values, with float copies for plotting (extra ``pandas``); ``attrs`` holds ``p``,
        ``expected_rounds`` and ``model``."""
        from exactodds.notebook import frame

        df = frame(*self._table())
        df.attrs.update(p=self.p, expected_rounds=self.expected_rounds, model=self.model)
        return df


def _streak_distribution(p: Fraction, horizon: int) -> tuple[Fraction, ...]:
    """P(streak = k) = p^k (1 − p) for k < horizon, then P(streak ≥ horizon) = p^horizon.

    >>> _streak_distribution(Fraction(1, 2), 2)
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    """
    return (*(p**k * (1 - p) for k in range(horizon)), p**horizon)


def never_ends(bet: StreakBet, p: Fraction) -> str | None:
    """Why ``bet`` would never be settled when its condition holds with probability ``p`` on
    a round (it holds on every round and no ``max_streak`` ends it), else None."""
    if p == 1 and bet.max_streak is None:
        return (
            f"its streak condition {quote(str(bet.condition))} holds on every round, so the "
            "bet never ends: give it a max_streak"
        )
    return None


def streak_figures(bet: StreakBet, shoe: Shoe, tableau: Tableau) -> StreakFigures:
    """The exact figures of ``bet`` when every round is dealt from the full ``shoe``; refused
    (:class:`PaytableError`) when its condition holds on every round and no ``max_streak``
    ends it: such a bet would never be settled."""
    return streak_figures_at(bet, condition_probability(bet.condition, shoe, tableau))


def streak_figures_at(bet: StreakBet, p: Fraction) -> StreakFigures:
    """The exact figures of ``bet`` when its condition holds with probability ``p`` on every
    round, independently (a streak bet's figures are a function of ``p`` alone); refused as
    :func:`streak_figures` refuses.

    >>> rows = [{"when": "streak >= 2", "pays": "3:1"}, {"when": "otherwise", "pays": "lose"}]
    >>> streak_figures_at(parse_streak_bet("b", {"streak": "banker.wins", "rows": rows}),
    ...                   Fraction(1, 2)).ev  # 3 × 1/4 − 3/4
    Fraction(0, 1)
    """
    if (problem := never_ends(bet, p)) is not None:
        raise PaytableError(f"bet {quote(bet.id)}: {problem}")
    distribution = _streak_distribution(p, bet.horizon)
    rows = [Fraction(0)] * len(bet.rows)
    for k, q in enumerate(distribution):
        rows[bet.row_of(k)] += q
    return StreakFigures(bet, p, tuple(rows))


def settle_hits(bet: StreakBet, hits: Iterable[bool]) -> tuple[int, StreakRow] | None:
    """:func:`settle_streak` on whether each round met the condition: the streak and the row
    settling ``bet``, or None while it runs; rounds after the one settling it are not read.

    >>> bet = parse_streak_bet("b", {"streak": "banker.wins", "max_streak": 3, "rows": [
    ...     {"when": "streak >= 2", "pays": "5:1"}, {"when": "otherwise", "pays": "lose"}]})
    >>> settle_hits(bet, [True, False])[0], settle_hits(bet, [True] * 5)[0]
    (1, 3)
    """
    for streak, hit in enumerate(hits):
        if not hit:
            return streak, bet.rows[bet.row_of(streak)]
        if bet.max_streak is not None and streak + 1 >= bet.max_streak:
            return streak + 1, bet.rows[bet.row_of(streak + 1)]
    return None


def streak_toml(bet: StreakBet) -> list[str]:
    """A streak bet's table as a paytable file writes it (read back to an equal bet)."""

    def text(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string is a JSON string

    lines = [f"[bets.{bet.id}]", f"name = {text(bet.name)}"]
    if bet.description:
        lines.append(f"description = {text(bet.description)}")
    lines.append(f"streak = {text(str(bet.condition))}")
    if bet.max_streak is not None:
        lines.append(f"max_streak = {bet.max_streak}")
    lines.append("rows = [")
    for row in bet.rows:
        pays = row.pays.text or str(row.pays)
        lines.append(
            f"  {{ when = {text(row.text)}, pays = {text(pays)}, event = {text(row.event)} }},"
        )
    return [*lines, "]"]
