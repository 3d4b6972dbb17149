"""Every figure of a bet, defined once: its key, labels, kind and how each kind is shown.

:data:`BET_FIGURES` is the one list the formats loop over: JSON (keys), CSV (``figure`` lines),
XLSX (Summary columns, a bet's figure rows), Markdown and HTML (the summary table, a bet's
figures, the appendix of exact fractions) and the HTML designer, whose script reads the list
from the page (:func:`designer_figures`). A figure added here appears in every format.

To add one: append a :class:`BetFigure` naming the attribute it shows (``source``: of
:class:`~exactodds.figures.metrics.BetFigures`, of the :class:`~exactodds.report.sheet.BetSheet`,
or of the bet) and its :class:`Kind`; limit it with ``views``, and set ``recomputed=False`` when the
HTML designer cannot recompute it from edited payouts (its script knows the quantities of
:mod:`exactodds.figures.metrics`).

Each format has always shown the figures in its own order; :data:`ORDERS` keeps those orders so
the sheets stay as they were (a figure not named there comes last, in table order), and
:attr:`BetFigure.views` says where a figure is left out (variance is shown only as an exact
fraction, the standard deviation only as a decimal).

>>> [f.key for f in in_view(View.SUMMARY)]  # doctest: +NORMALIZE_WHITESPACE
['house_edge', 'house_edge_resolved', 'rtp', 'hit_frequency', 'std_dev', 'largest_win',
 'largest_win_probability', 'max_round', 'player_favourable']
>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> tie = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01").bets[0]
>>> [(f.key, f.text(tie)) for f in in_view(View.FIGURES)][:3]  # doctest: +NORMALIZE_WHITESPACE
[('house_edge', '14.3596%'), ('house_edge_resolved', '14.3596%'), ('rtp', '85.6404%')]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from exactodds.analysis.confidence import volatility_index
from exactodds.bets.payout import Notation, Payout
from exactodds.bets.progressive import amount_text
from exactodds.numbers import exact, fixed, one_in, percent, signed, sqrt_fixed
from exactodds.report.document import Strong
from exactodds.report.sheet import CONFIDENCE_PLACES, BetSheet

__all__ = [
    "ALL_VIEWS",
    "BET_FIGURES",
    "FIGURE",
    "FLAG",
    "LIVE_FIGURES",
    "ORDERS",
    "PRECISION",
    "BetFigure",
    "Kind",
    "View",
    "designer_figures",
    "in_view",
]

PRECISION = {"probability": 10, "return": 10, "percent": 4, "std_dev": 4}
"""Decimal places shown for probabilities, returns, percentages and standard deviations."""

FLAG = "PLAYER-FAVOURABLE"
"""What the sheets show for a bet with a positive expectation."""

Value = Fraction | int | bool | None


class Kind(Enum):
    """What a figure is, which says how every format shows it."""

    PERCENT = "percent"
    """A fraction shown as a percentage (house edge, RTP)."""
    SIGNED = "signed"
    """A net result per unit, with its sign (EV)."""
    EXACT = "exact"
    """Shown only as an exact fraction (variance)."""
    SQRT = "sqrt"
    """The square root of its source, a decimal correctly rounded (standard deviation)."""
    VOLATILITY = "volatility"
    """z(90%) times the square root of its source (volatility index)."""
    PAYOUT = "payout"
    """A net win stated as a payout, "—" when there is none (largest win)."""
    ODDS = "odds"
    """A probability stated as "1 in N", "—" when 0 (odds of the largest win)."""
    ROUNDS = "rounds"
    """A number of rounds, or none (max round)."""
    FLAG = "flag"
    """Yes or no; shown as :data:`FLAG` when yes (player-favourable)."""
    AMOUNT = "amount"
    """A positive amount (currency, rounds) shown to two decimals (a break-even meter)."""
    UNITS = "units"
    """An amount per unit staked, to the returns' decimals (money paid with a fee)."""

    @property
    def fractional(self) -> bool:
        """Whether the value is an exact fraction (with a ``p/q`` form)."""
        return self not in (Kind.SQRT, Kind.VOLATILITY, Kind.ROUNDS, Kind.FLAG)

    @property
    def places(self) -> int:
        """Decimal places of the rounded form on Markdown and HTML sheets."""
        if self in (Kind.SIGNED, Kind.UNITS):
            return PRECISION["return"]
        if self in (Kind.SQRT, Kind.VOLATILITY):
            return PRECISION["std_dev"]
        return PRECISION["percent"]


class View(Enum):
    """A place where figures are listed."""

    SUMMARY = "summary"
    """The summary table, one row per bet (Markdown, HTML, the XLSX Summary sheet)."""
    FIGURES = "figures"
    """A bet's table of figures (Markdown, HTML, a bet's XLSX sheet)."""
    EXACT = "exact"
    """The appendix of exact fractions (Markdown, HTML)."""
    JSON = "json"
    CSV = "csv"
    XLSX = "xlsx"
    """The figure rows of a bet's XLSX sheet."""


ALL_VIEWS = frozenset(View)
"""Every view: where a figure appears unless its ``views`` say otherwise."""


@dataclass(frozen=True)
class BetFigure:
    """One figure of a bet: ``key`` (JSON key, CSV item, the HTML page's ``data-figure``),
    ``label`` (a bet's figures table), ``kind``, ``source`` (the attribute of
    :class:`~exactodds.figures.metrics.BetFigures` — or of the :class:`BetSheet` — holding the value
    it shows), and where it differs the summary column (``short``), the appendix label
    (``exact_label``) and the XLSX labels."""

    key: str
    label: str
    kind: Kind
    source: str = ""
    short: str = ""
    """Column header in the summary (the label when empty)."""
    exact_label: str = ""
    """Label in the appendix of exact fractions (the label when empty)."""
    xlsx_label: str = ""
    """Label on a bet's XLSX sheet (the label when empty)."""
    unit: str = ""
    """Added to the header of the XLSX Summary column (``(to 1)``)."""
    exact_short: str = ""
    """Header of the XLSX Summary column holding the exact fraction (``short (exact)``)."""
    none_text: str = "—"
    """A bet's figures table shows this when the figure has no value."""
    views: frozenset[View] = field(default=ALL_VIEWS)
    recomputed: bool = True
    """The HTML designer recomputes it when a payout is edited (a figure that does not depend
    on payouts, like max round, is plain text)."""
    stale_note: str = ""
    """For a figure that depends on the payouts but is not recomputed when one is edited: how
    the XLSX sheet says so (else it states the value as fixed)."""
    optional: bool = False
    """Left out (not shown empty) where the bet has no value, e.g. the unrounded RTP of a bet
    without rounding."""

    @property
    def quantity(self) -> str:
        """The attribute the value comes from."""
        return self.source or self.key

    def value(self, b: BetSheet) -> Value:
        """The exact value for bet ``b`` (for SQRT and VOLATILITY: the source, a variance)."""
        return self.value_in(b.figures, b, b.bet, b.progressive)

    def value_in(self, *holders: object) -> Value:
        """The value held by the first of ``holders`` with the attribute :attr:`quantity`
        (None when none has it): a streak bet's figures are read from its
        :class:`~exactodds.bets.streak.StreakFigures` this way."""
        name = self.quantity
        holder: Any = next((h for h in holders if h is not None and hasattr(h, name)), None)
        value: Value = None if holder is None else getattr(holder, name)
        return value

    def present(self, b: BetSheet) -> bool:
        """Whether bet ``b`` shows this figure (an optional one only when it has a value)."""
        return not self.optional or self.value(b) is not None

    def text(
        self, b: BetSheet, notation: Notation = Notation.BOTH, *, in_summary: bool = False
    ) -> str:
        """The figure as Markdown and HTML sheets show it (``""`` for a flag that is not set).

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.report.sheet import build_sheet
        >>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01")
        >>> [FIGURE[k].text(sheet.bets[0]) for k in ("largest_win", "largest_win_probability")]
        ['8 to 1', '1 in 10.51']
        """
        return self.text_of(self.value(b), notation, in_summary=in_summary)

    def text_of(
        self, x: Value, notation: Notation = Notation.BOTH, *, in_summary: bool = False
    ) -> str:
        """The value ``x`` of this figure as :meth:`text` shows it."""
        kind = self.kind
        if kind is Kind.FLAG:
            return FLAG if x else ""
        if x is None:
            return "—" if in_summary else self.none_text
        if kind is Kind.ROUNDS:
            return str(x)
        assert isinstance(x, Fraction | int)
        if kind is Kind.PERCENT:
            return percent(x, kind.places)
        if kind is Kind.SIGNED:
            return signed(x, kind.places)
        if kind is Kind.SQRT:
            return sqrt_fixed(Fraction(x), kind.places)
        if kind is Kind.VOLATILITY:
            return volatility_index(Fraction(x), kind.places)
        if kind is Kind.PAYOUT:
            stated = Notation.TO if notation is Notation.BOTH else notation
            return Payout(Fraction(x)).stated(stated) if x > 0 else "—"
        if kind is Kind.ODDS:
            return one_in(Fraction(x)) if x > 0 else "—"
        if kind is Kind.AMOUNT:
            return amount_text(Fraction(x))
        if kind is Kind.UNITS:
            return fixed(Fraction(x), kind.places)
        return exact(x)

    def shown(
        self, b: BetSheet, notation: Notation = Notation.BOTH, *, in_summary: bool = False
    ) -> str | Strong:
        """:meth:`text`, a set flag as strong text."""
        text = self.text(b, notation, in_summary=in_summary)
        return Strong(text) if self.kind is Kind.FLAG and text else text

    def exact_text(self, b: BetSheet) -> str:
        """The exact fraction ``p/q`` (``—`` when there is none)."""
        x = self.value(b)
        return "—" if x is None or isinstance(x, bool) else exact(x)

    def json(self, b: BetSheet) -> Any:
        """The value in the JSON sheet: ``"p/q"`` for a fraction, the standard deviation as a
        float, the volatility index as a decimal string, max round an integer or null, a flag
        true or false."""
        return self.json_of(self.value(b))

    def json_of(self, x: Value) -> Any:
        """The value ``x`` of this figure as :meth:`json` gives it."""
        if x is None or self.kind in (Kind.ROUNDS, Kind.FLAG):
            return x
        if self.kind is Kind.SQRT:
            return math.sqrt(x)
        if self.kind is Kind.VOLATILITY:
            return volatility_index(Fraction(x), CONFIDENCE_PLACES)
        return exact(x)

    def csv(self, b: BetSheet) -> dict[str, str]:
        """The ``value`` and ``exact`` cells of the figure's CSV line."""
        return self.csv_of(self.value(b))

    def csv_of(self, x: Value) -> dict[str, str]:
        """The CSV cells of the value ``x`` of this figure, as :meth:`csv` gives them."""
        places = PRECISION["probability"]
        kind = self.kind
        if kind is Kind.FLAG:
            return {"value": "yes" if x else "no"}
        if kind is Kind.ROUNDS:
            return {"value": str(x or "")}
        if kind is Kind.SQRT:
            return {"value": sqrt_fixed(Fraction(x or 0), places)}
        if kind is Kind.VOLATILITY:
            return {"value": volatility_index(Fraction(x or 0), places)}
        if x is None:
            return {"value": "", "exact": ""}
        return {"value": fixed(Fraction(x), places), "exact": exact(x)}


_PROGRESSIVE_VIEWS = frozenset({View.FIGURES, View.CSV, View.XLSX})
"""Where a progressive bet's meter figures appear: JSON has them under ``progressive``, and
their exact fractions are in the bet's progressive section (not in the appendix, whose fields
the designer page would have to recompute)."""

_LIVE_VIEWS = frozenset({View.FIGURES, View.EXACT, View.JSON, View.CSV})
"""Where the figures of a bet with a fee or a peek (money paid is not the stake) appear."""

_PROGRESSIVE_NOTE = "as computed: not recomputed when a payout is edited"

LIVE_FIGURES = ("fee", "paid", "rtp_per_stake")
"""A live bet's figures the HTML designer recomputes besides the table's (the fee and weights
being inputs of the page); marked not recomputed, for the other consumers (the workbook)."""

BET_FIGURES: tuple[BetFigure, ...] = (
    BetFigure("house_edge", "House edge (pushes counted)", Kind.PERCENT, short="House edge",
              exact_label="House edge"),
    BetFigure("house_edge_resolved", "House edge per resolved bet", Kind.PERCENT,
              short="Per resolved bet"),
    BetFigure("rtp", "RTP", Kind.PERCENT),
    BetFigure("ev", "Expected value per unit", Kind.SIGNED, exact_label="EV",
              views=ALL_VIEWS - {View.SUMMARY}),
    BetFigure("hit_frequency", "Hit frequency", Kind.PERCENT),
    BetFigure("push_probability", "Push probability", Kind.PERCENT,
              views=ALL_VIEWS - {View.SUMMARY}),
    BetFigure("variance", "Variance", Kind.EXACT,
              views=frozenset({View.EXACT, View.JSON, View.CSV, View.XLSX})),
    BetFigure("std_dev", "Standard deviation", Kind.SQRT, source="variance", short="Std dev",
              xlsx_label="Standard deviation (square root of the variance)",
              exact_short="Variance (exact)", views=ALL_VIEWS - {View.EXACT}),
    BetFigure("volatility_index", "Volatility index (90%)", Kind.VOLATILITY, source="variance",
              xlsx_label="Volatility index (z90 × SD)",
              views=frozenset({View.FIGURES, View.JSON, View.CSV, View.XLSX})),
    BetFigure("largest_win", "Largest win", Kind.PAYOUT, xlsx_label="Largest win (to 1)",
              unit=" (to 1)"),
    BetFigure("largest_win_probability", "Odds of the largest win", Kind.ODDS,
              short="Its odds", exact_label="Probability of the largest win",
              xlsx_label="Probability of the largest win", unit=" (1 in)",
              exact_short="Its probability (exact)"),
    BetFigure("max_round", "Max round", Kind.ROUNDS, none_text="no limit", recomputed=False,
              views=ALL_VIEWS - {View.EXACT}),
    BetFigure("player_favourable", "Flag", Kind.FLAG, views=ALL_VIEWS - {View.EXACT}),
    BetFigure("unrounded_rtp", "Unrounded RTP", Kind.PERCENT, optional=True,
              views=frozenset({View.EXACT, View.JSON, View.CSV})),
    BetFigure("offer_probability", "Probability of the offer", Kind.PERCENT, optional=True,
              recomputed=False,
              views=frozenset({View.EXACT, View.JSON, View.CSV})),
    *(BetFigure(key, label, kind, source=f"live_{key}", optional=True, recomputed=False,
                views=_LIVE_VIEWS)
      for key, label, kind in (
          ("fee", "Fee per unit staked (paid every round, never returned)", Kind.PERCENT),
          ("paid", "Money paid per unit staked (stake + fee, + expected raise)", Kind.UNITS),
          ("rtp_per_stake", "RTP per stake (money returned per unit staked)", Kind.PERCENT),
      )),
    *(BetFigure(key, label, kind, optional=True, recomputed=False, views=_PROGRESSIVE_VIEWS,
                stale_note=_PROGRESSIVE_NOTE)
      for key, label, kind in (
          ("rtp_fixed", "RTP of the fixed pays (jackpot rows pay nothing)", Kind.PERCENT),
          ("rtp_at_reset", "RTP at the reset meter", Kind.PERCENT),
          ("rtp_per_meter", "RTP per unit of the meter", Kind.SIGNED),
          ("break_even_meter", "Break-even meter (RTP 100%)", Kind.AMOUNT),
          ("jackpot_probability", "Odds of the jackpot", Kind.ODDS),
          ("jackpot_rounds", "Expected rounds between jackpots", Kind.AMOUNT),
          ("long_run_rtp", "Long-run RTP (meter model, see below)", Kind.PERCENT),
      )),
)  # fmt: skip
"""Every figure of a bet, in the order of a bet's figures table."""

FIGURE: Mapping[str, BetFigure] = {f.key: f for f in BET_FIGURES}
"""The figures by key."""

ORDERS: Mapping[View, tuple[str, ...]] = {
    View.EXACT: (
        "ev", "rtp", "house_edge", "house_edge_resolved", "hit_frequency", "push_probability",
        "variance", "largest_win", "largest_win_probability", "unrounded_rtp",
        "offer_probability",
    ),
    View.JSON: (
        "house_edge", "rtp", "ev", "hit_frequency", "variance", "std_dev",
        "house_edge_resolved", "push_probability", "largest_win", "largest_win_probability",
        "player_favourable", "max_round", "volatility_index", "unrounded_rtp",
        "offer_probability",
    ),
    View.CSV: (
        "house_edge", "house_edge_resolved", "rtp", "ev", "hit_frequency", "push_probability",
        "variance", "largest_win", "largest_win_probability", "unrounded_rtp", "std_dev",
        "volatility_index", "max_round", "player_favourable", "offer_probability",
    ),
    View.XLSX: (
        "house_edge", "house_edge_resolved", "rtp", "ev", "hit_frequency", "push_probability",
        "variance", "largest_win", "largest_win_probability", "std_dev", "volatility_index",
        "max_round", "player_favourable",
    ),
}  # fmt: skip
"""The order a view has always listed its figures in, where it is not the table's."""


def in_view(view: View, figures: tuple[BetFigure, ...] | None = None) -> tuple[BetFigure, ...]:
    """The figures ``view`` shows, in its order (:data:`ORDERS`, then the rest in table
    order). ``figures`` defaults to :data:`BET_FIGURES` (read when called, so a figure added
    to the table is seen)."""
    table = BET_FIGURES if figures is None else figures
    shown = [f for f in table if view in f.views]
    order = {key: i for i, key in enumerate(ORDERS.get(view, ()))}
    return tuple(sorted(shown, key=lambda f: order.get(f.key, len(order))))


def designer_figures() -> list[dict[str, Any]]:
    """The figures the HTML designer recomputes, as its script reads them from the page: key,
    kind and the quantity it is computed from."""
    return [
        {"key": f.key, "kind": f.kind.value, "source": f.quantity, "exact": f.kind.fractional}
        for f in BET_FIGURES
        if f.recomputed and f.kind is not Kind.FLAG
    ]
