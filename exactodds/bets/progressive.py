"""Progressive bets: a fixed wager, meters that grow with every wager, and rows paying all or a
share of a meter; their exact figures as linear functions of the meters.

A paytable bet declares ``stake`` and ``progressive = { reset, increment, reserve, cap }`` (one
meter, named ``jackpot``) or named meters (``progressive.major = { … }``); a row pays
``"jackpot"``, ``"10% of jackpot"`` or ``"10% of major jackpot"`` (docs/paytables.md). A jackpot
row returns its share of the meter for the stake, so at meter M its net result per unit is
``share · M / stake − 1``; every other figure of the sheet is stated at the reset meters.
A bet's :class:`ProgressiveFigures` are read from its exact figures by
:func:`exactodds.figures.progressive.progressive_figures` (the figures stage).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from exactodds.bets.payout import Payout, format_number, parse_number, parse_payout
from exactodds.errors import PaytableError, quote
from exactodds.numbers import fixed, grouped
from exactodds.suggest import did_you_mean

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet, Row

__all__ = [
    "DEFAULT_LEVEL",
    "JACKPOT_PATTERN",
    "LONG_RUN_MODEL",
    "MAX_METER",
    "MAX_STAKE",
    "JackpotPayout",
    "JackpotRow",
    "Meter",
    "Progressive",
    "ProgressiveFigures",
    "amount_text",
    "bet_at_meters",
    "bind_progressive",
    "parse_row_payout",
    "progressive_toml",
]

DEFAULT_LEVEL = "jackpot"
"""The name of the one meter of ``progressive = { reset, … }``."""

MAX_METER = 10**12
"""Largest reset or cap of a meter (currency units)."""

MAX_STAKE = 10**9
"""Largest stake of a progressive bet (currency units)."""

LONG_RUN_MODEL = (
    "every increment stays on its meter until a jackpot row pays it out; a row paying 100% of "
    "a meter resets it to its reset value, funded by the house (from the reserve); a row paying "
    "a share takes that share off the meter; no cap is reached (with a cap the figure is an "
    "upper bound: increments diverted to the reserve are not paid to players)"
)
"""The model of :attr:`ProgressiveFigures.long_run_rtp`, as the sheets state it."""

_METER_KEYS = ("reset", "increment", "reserve", "cap")
_LEVEL = re.compile(r"^[a-z][a-z0-9_]*\Z")
_JACKPOT = re.compile(
    r"^(?:(?P<share>[0-9]+(?:\.[0-9]+)?)\s*%\s*of\s+)?(?:(?P<level>[a-z][a-z0-9_]*)\s+)?jackpot$"
)
JACKPOT_PATTERN = _JACKPOT.pattern
"""The jackpot forms of a row's ``pays`` (lower-cased, whitespace collapsed) as a regular
expression, groups ``share`` and ``level``: for a parser in another language (the designer
page)."""


@dataclass(frozen=True)
class Meter:
    """One progressive meter: its reset (seed) amount, the shares of each wager added to it
    (``increment``) and to the reserve, and its cap (None: no cap); amounts in currency.

    >>> Meter("jackpot", Fraction(25000), Fraction(6, 100)).cap is None
    True
    """

    name: str
    reset: Fraction
    increment: Fraction
    reserve: Fraction = Fraction(0)
    cap: Fraction | None = None


@dataclass(frozen=True)
class Progressive:
    """A progressive bet's fixed wager (currency) and its meters, in the file's order."""

    stake: Fraction
    meters: tuple[Meter, ...]

    def meter(self, name: str) -> Meter:
        """The meter called ``name``."""
        for m in self.meters:
            if m.name == name:
                return m
        raise PaytableError(f"unknown jackpot level {name!r}")


@dataclass(frozen=True)
class JackpotPayout(Payout):
    """A row's payout of ``share`` of the meter ``level``; its ``net`` is the net result per
    unit at the reset meter (what the rest of the sheet states), bound by
    :func:`bind_progressive`.

    >>> p = parse_row_payout("10% of major jackpot")
    >>> p.level, p.share, p.text
    ('major', Fraction(1, 10), '10% of major jackpot')
    """

    level: str = DEFAULT_LEVEL
    share: Fraction = Fraction(1)

    def net_at(self, meter: Fraction, stake: Fraction) -> Fraction:
        """Net result per unit staked when the meter shows ``meter``.

        >>> parse_row_payout("jackpot").net_at(Fraction(1000), Fraction(5))
        Fraction(199, 1)
        """
        return self.share * meter / stake - 1


def parse_row_payout(value: object) -> Payout:
    """A row's ``pays``: a payout (:func:`~exactodds.bets.payout.parse_payout`) or a jackpot form,
    ``jackpot``, ``P% of jackpot``, ``LEVEL jackpot`` or ``P% of LEVEL jackpot`` (0 < P ≤ 100).

    >>> parse_row_payout("11:1").net, parse_row_payout("Jackpot").share
    (Fraction(11, 1), Fraction(1, 1))
    >>> parse_row_payout("150% of jackpot")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: jackpot share in '150% of jackpot' must be above 0% and at ...
    """
    if not isinstance(value, str):
        return parse_payout(value)
    text = " ".join(value.strip().lower().split())
    match = _JACKPOT.match(text) if len(text) <= 100 else None
    if match is None:
        return parse_payout(value)
    share = Fraction(1) if match["share"] is None else parse_number(match["share"]) / 100
    if not 0 < share <= 1:
        raise PaytableError(
            f"jackpot share in {quote(value.strip())} must be above 0% and at most 100%"
        )
    return JackpotPayout(Fraction(-1), value.strip(), match["level"] or DEFAULT_LEVEL, share)


def _amount(what: str, value: Any, *, percent: bool = False) -> Fraction:
    """An exact non-negative amount from an integer or a decimal string (``"25000.50"``,
    ``"6%"`` where ``percent``); floats (inexact, or nan and inf) are refused."""
    hint = '"6%", "0.06" or "3/50"' if percent else '25000 or "25000.50"'
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0 or value > MAX_METER:
            raise PaytableError(f"{what} must be from 0 to {MAX_METER:,}, not {quote(value)}")
        return Fraction(value)
    if isinstance(value, Fraction):  # a TOML or JSON float, read exactly but refused
        raise PaytableError(
            f"{what} must be a whole number or a decimal in quotes like {hint}, not the "
            f"float {quote(value)}"
        )
    if not isinstance(value, str):
        raise PaytableError(f"{what} must be a number like {hint}, not {quote(value)}")
    body = value.strip()
    scale = Fraction(1)
    if percent and body.endswith("%"):
        body, scale = body[:-1], Fraction(1, 100)
    try:
        return parse_number(body) * scale
    except PaytableError:
        raise PaytableError(f"{what} must be a number like {hint}, not {quote(value)}") from None


def _meter(where: str, name: str, data: Any) -> Meter:
    """One meter's table, checked: reset > 0; increment and reserve shares of the wager with
    increment > 0 and increment + reserve < 1; cap at least the reset; amounts ≤ MAX_METER."""
    if not isinstance(data, Mapping):
        raise PaytableError(
            f'{where} must be {{ reset = 25000, increment = "6%" }}, not {quote(data)}'
        )
    unknown = sorted(set(data) - set(_METER_KEYS))
    if unknown:
        raise PaytableError(
            f"{where}: unknown key {unknown[0]!r}{did_you_mean(str(unknown[0]), _METER_KEYS)} "
            f"(expected {', '.join(_METER_KEYS)})"
        )
    for key in ("reset", "increment"):
        if key not in data:
            raise PaytableError(f"{where}: missing {key!r}")
    reset = _amount(f"{where}: reset", data["reset"])
    increment = _amount(f"{where}: increment", data["increment"], percent=True)
    reserve = _amount(f"{where}: reserve", data.get("reserve", 0), percent=True)
    cap = None if "cap" not in data else _amount(f"{where}: cap", data["cap"])
    for key, x in (("reset", reset), ("cap", cap)):
        if x is not None and not 0 < x <= MAX_METER:
            raise PaytableError(
                f"{where}: {key} must be above 0 and at most {MAX_METER:,}, not {quote(data[key])}"
            )
    if not 0 < increment < 1:
        raise PaytableError(
            f"{where}: increment must be a share of the wager above 0% and below 100%, "
            f"not {quote(data['increment'])}"
        )
    if increment + reserve >= 1:
        raise PaytableError(
            f"{where}: increment and reserve together must be below 100% of the wager, not "
            f"{quote(data['increment'])} + {quote(data.get('reserve'))}"
        )
    if cap is not None and cap < reset:
        raise PaytableError(
            f"{where}: cap {quote(data['cap'])} is below the reset {quote(data['reset'])}"
        )
    return Meter(name, reset, increment, reserve, cap)


def _progressive(bet_id: str, stake_data: Any, data: Any) -> Progressive:
    """The stake and meters of a bet's ``stake`` and ``progressive`` keys."""
    where = f"bet {bet_id!r}"
    if stake_data is None:
        raise PaytableError(f"{where}: a progressive bet needs a stake (stake = 5, in currency)")
    stake = _amount(f"{where}: stake", stake_data)
    if not 0 < stake <= MAX_STAKE:
        raise PaytableError(
            f"{where}: stake must be above 0 and at most {MAX_STAKE:,}, not {quote(stake_data)}"
        )
    if not isinstance(data, Mapping) or not data:
        raise PaytableError(
            f'{where}: progressive must be {{ reset = 25000, increment = "6%" }} or named '
            f"meters, not {quote(data)}"
        )
    if any(not isinstance(v, Mapping) for v in data.values()):
        return Progressive(stake, (_meter(f"{where}: progressive", DEFAULT_LEVEL, data),))
    meters = []
    for name, meter in data.items():
        if not _LEVEL.match(str(name)) or name == DEFAULT_LEVEL or len(str(name)) > 40:
            raise PaytableError(
                f"{where}: jackpot level {quote(name)} must be lower-case letters, digits and _ "
                f"(at most 40, not {DEFAULT_LEVEL!r})"
            )
        meters.append(_meter(f"{where}: progressive.{name}", str(name), meter))
    if len(meters) > 8:
        raise PaytableError(f"{where}: {len(meters)} jackpot levels is over the limit of 8")
    return Progressive(stake, tuple(meters))


def bind_progressive(
    bet_id: str, data: Mapping[str, Any], rows: Sequence[Row]
) -> tuple[Progressive | None, tuple[Row, ...]]:
    """A bet's ``stake`` and ``progressive`` keys read, and its jackpot rows bound to their
    meters (their net at the reset meter); raises :class:`PaytableError` naming the first
    problem: jackpot rows without meters, a level no row pays, an unknown level, rounding.

    >>> from exactodds.language import parse_condition
    >>> from exactodds.bets.paytable import Row
    >>> rows = [Row(parse_condition("player.pair"), parse_row_payout("jackpot"), "Pair"),
    ...         Row(parse_condition("otherwise"), parse_payout("lose"), "Other")]
    >>> spec = {"stake": 5, "progressive": {"reset": 1000, "increment": "6%"}}
    >>> progressive, bound = bind_progressive("x", spec, rows)
    >>> progressive.stake, bound[0].pays.net  # 1000 for 5: 199 to 1 at the reset
    (Fraction(5, 1), Fraction(199, 1))
    >>> bind_progressive("x", {"stake": 0, "progressive": {"reset": 1, "increment": "1%"}}, rows)
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: bet 'x': stake must be above 0 and at most 1,000,000,000, not 0
    """
    jackpot_rows = [(n, r) for n, r in enumerate(rows, 1) if isinstance(r.pays, JackpotPayout)]
    if "progressive" not in data:
        if "stake" in data:
            raise PaytableError(f"bet {bet_id!r}: stake is for a progressive bet (no progressive)")
        if jackpot_rows:
            n, row = jackpot_rows[0]
            raise PaytableError(
                f"bet {bet_id!r} row {n}: pays {quote(row.pays.text)} but the bet declares no "
                'progressive = { reset = …, increment = "…" }'
            )
        return None, tuple(rows)
    progressive = _progressive(bet_id, data.get("stake"), data["progressive"])
    if data.get("rounding") is not None:
        raise PaytableError(f"bet {bet_id!r}: a progressive bet cannot also have rounding")
    names = [m.name for m in progressive.meters]
    bound = list(rows)
    for n, row in jackpot_rows:
        pays = row.pays
        assert isinstance(pays, JackpotPayout)
        if pays.level not in names:
            raise PaytableError(
                f"bet {bet_id!r} row {n}: unknown jackpot level {pays.level!r}"
                f"{did_you_mean(pays.level, names)} (levels: {', '.join(names)})"
            )
        meter = progressive.meter(pays.level)
        net = pays.net_at(meter.reset, progressive.stake)
        try:
            bound[n - 1] = replace(row, pays=replace(pays, net=net))
        except PaytableError as exc:  # a reset meter too large for the stake
            raise PaytableError(
                f"bet {bet_id!r} row {n}: at the reset meter {amount_text(meter.reset)} for a "
                f"stake of {quote(data.get('stake'))}, {exc}"
            ) from None
    paid = {r.pays.level for _, r in jackpot_rows if isinstance(r.pays, JackpotPayout)}
    for name in names:
        if name not in paid:
            what = "'jackpot'" if name == DEFAULT_LEVEL else repr(f"{name} jackpot")
            raise PaytableError(
                f"bet {bet_id!r}: no row pays the meter {name!r} "
                f"(a row pays {what} or a share of it)"
            )
    return progressive, tuple(bound)


def bet_at_meters(bet: Bet, meters: Mapping[str, Fraction]) -> Bet:
    """``bet`` with its jackpot rows paying at the given meters (the others at their reset):
    a fixed-pay bet whose figures are those of the progressive bet at that moment.

    >>> from exactodds.bets.loader import load_paytable
    >>> dd = load_paytable("dragon-dragon").bet("dragon_dragon")
    >>> bet_at_meters(dd, {"jackpot": Fraction(20000)}).rows[0].pays.net
    Fraction(19999, 1)
    """
    if bet.progressive is None:
        return bet
    stake = bet.progressive.stake
    rows = []
    for row in bet.rows:
        pays = row.pays
        if isinstance(pays, JackpotPayout):
            meter = meters.get(pays.level, bet.progressive.meter(pays.level).reset)
            rows.append(replace(row, pays=replace(pays, net=pays.net_at(meter, stake))))
        else:
            rows.append(row)
    return replace(bet, rows=tuple(rows))


@dataclass(frozen=True)
class JackpotRow:
    """One row paying a jackpot: its event, meter, share and probability."""

    event: str
    level: str
    share: Fraction
    probability: Fraction

    @property
    def one_in(self) -> Fraction | None:
        """N of "1 in N" (None when the row never occurs)."""
        return None if self.probability == 0 else 1 / self.probability


@dataclass(frozen=True)
class ProgressiveFigures:
    """Exact figures of a progressive bet from its row probabilities: the return is
    ``rtp_fixed + Σ slope(level) · meter(level)``, linear in the meters.

    The scalar figures (:attr:`rtp_per_meter`, :attr:`break_even_meter`,
    :attr:`jackpot_probability`, :attr:`jackpot_rounds`) are of the first meter (the top one),
    the others at their reset; :meth:`slope`, :meth:`break_even` and
    :meth:`full_probability` give them for any level.
    """

    bet: Bet
    progressive: Progressive
    rtp_fixed: Fraction
    """RTP with the jackpot rows paying nothing (they lose the stake)."""
    jackpots: tuple[JackpotRow, ...]

    @property
    def meters(self) -> tuple[Meter, ...]:
        """The bet's meters, top first."""
        return self.progressive.meters

    @property
    def stake(self) -> Fraction:
        """The fixed wager (currency)."""
        return self.progressive.stake

    def slope(self, level: str) -> Fraction:
        """Increase of the RTP per currency unit on meter ``level``: Σ probability × share ÷
        stake over the rows paying it."""
        paid = sum((j.probability * j.share for j in self.jackpots if j.level == level), Fraction())
        return paid / self.stake

    def full_probability(self, level: str) -> Fraction:
        """Probability per round that a row pays 100% of meter ``level`` (it then resets)."""
        return sum(
            (j.probability for j in self.jackpots if j.level == level and j.share == 1), Fraction()
        )

    def rtp_at(self, meter: Fraction, level: str | None = None) -> Fraction:
        """RTP when meter ``level`` (default: the top one) shows ``meter``, the others at
        their reset."""
        name = level or self.meters[0].name
        others = sum(
            (self.slope(m.name) * m.reset for m in self.meters if m.name != name), Fraction()
        )
        return self.rtp_fixed + others + self.slope(name) * meter

    def break_even(self, level: str) -> Fraction | None:
        """The meter ``level`` at which the RTP is exactly 1 (others at their reset); None
        when no row pays it (the slope is 0)."""
        slope = self.slope(level)
        if slope == 0:
            return None
        others = sum(
            (self.slope(m.name) * m.reset for m in self.meters if m.name != level), Fraction()
        )
        return (1 - self.rtp_fixed - others) / slope

    @cached_property
    def rtp_at_reset(self) -> Fraction:
        """RTP with every meter at its reset value."""
        return self.rtp_fixed + sum((self.slope(m.name) * m.reset for m in self.meters), Fraction())

    @cached_property
    def rtp_per_meter(self) -> Fraction:
        """The top meter's slope: RTP gained per currency unit on it."""
        return self.slope(self.meters[0].name)

    @cached_property
    def break_even_meter(self) -> Fraction | None:
        """The top meter at which the RTP is exactly 1 (others at their reset)."""
        return self.break_even(self.meters[0].name)

    @cached_property
    def jackpot_probability(self) -> Fraction:
        """Probability per round of winning the whole top meter."""
        return self.full_probability(self.meters[0].name)

    @cached_property
    def jackpot_rounds(self) -> Fraction | None:
        """Expected rounds from one reset of the top meter to the next: 1 / its probability
        (None if no row pays all of it)."""
        p = self.jackpot_probability
        return None if p == 0 else 1 / p

    @cached_property
    def long_run_rtp(self) -> Fraction:
        """Long-run RTP under :data:`LONG_RUN_MODEL`: the fixed pays, every increment, and the
        resets the house funds (reset × probability of a 100% win ÷ stake, per meter); a meter
        no row pays (after an edit) keeps its increments."""
        paid = [m for m in self.meters if self.slope(m.name)]  # a meter no row pays: kept
        return self.rtp_fixed + sum(
            (m.increment + self.reset_funding(m.name) for m in paid), Fraction()
        )

    def reset_funding(self, level: str) -> Fraction:
        """Share of each wager that funds meter ``level``'s resets in the long run (the
        reserve rate that exactly pays for them)."""
        return self.progressive.meter(level).reset * self.full_probability(level) / self.stake


def amount_text(x: Fraction) -> str:
    """A currency amount to the cent, grouped, as the sheets show meters.

    >>> amount_text(Fraction(4437732680895, 53358347)), amount_text(Fraction(-1, 3))
    ('83,168.48', '-0.33')
    """
    whole, _, cents = fixed(x, 2).partition(".")
    return f"{grouped(int(whole))}.{cents}" if x >= 0 else f"{whole}.{cents}"


def progressive_toml(progressive: Progressive) -> list[str]:
    """A bet's ``stake`` and ``progressive`` lines, as a paytable file writes them (the loader
    reads them back to an equal :class:`Progressive`).

    >>> progressive_toml(Progressive(Fraction(5), (Meter("jackpot", Fraction(2501, 10),
    ...                                                    Fraction(3, 50)),)))
    ['stake = "5"', 'progressive = { reset = "250.1", increment = "0.06" }']
    """

    def meter(m: Meter) -> str:
        keys = [("reset", m.reset), ("increment", m.increment)]
        keys += [("reserve", m.reserve)] if m.reserve else []
        keys += [("cap", m.cap)] if m.cap is not None else []
        return "{ " + ", ".join(f'{k} = "{_exact_text(x)}"' for k, x in keys) + " }"

    meters = progressive.meters
    if len(meters) == 1 and meters[0].name == DEFAULT_LEVEL:
        table = meter(meters[0])
    else:
        table = "{ " + ", ".join(f"{m.name} = {meter(m)}" for m in meters) + " }"
    return [f'stake = "{_exact_text(progressive.stake)}"', f"progressive = {table}"]


def _exact_text(x: Fraction) -> str:
    """An amount as the loader reads it exactly: a decimal when it ends, else ``p/q``."""
    return format_number(x)
