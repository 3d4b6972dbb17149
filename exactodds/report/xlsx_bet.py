"""A bet's sheet of an XLSX workbook (:mod:`exactodds.report.xlsx`), live: every figure is a
spreadsheet formula over the return table's payout (net per unit) and probability cells.

Edit a Net per unit cell and the returns, the totals, every figure of
:data:`~exactodds.report.figures.BET_FIGURES` on the sheet (house edge, per resolved bet, RTP,
EV, hit and push frequency, variance, SD, volatility index, largest win and its probability,
the flag) and every bound of the RTP ranges recompute, as does the Summary, which refers to
these cells. The formulas use + - * / SUM, SUMIF, MAX and IF (hit, push and the largest win
depend on the sign of each payout) and, where the sheet says so in its How column, SQRT (the
standard deviation and what is built on it: a spreadsheet computes a square root in doubles).
What does not depend on payouts (max round, the offer) or cannot be recomputed by a formula
(the RTP at each stake of a rounded bet) is marked fixed. Every formula cell also holds its
value as computed (the cached value) and its exact form beside it.

A progressive bet's sheet has one cell per meter, at its reset: its jackpot rows' Net per unit
are formulas of it (share × meter ÷ stake − 1), so editing a meter gives every figure, and the
Summary, at that meter, as the HTML page's meter input does.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.analysis.confidence import VI_LEVEL, Z_DIGITS, confidence_ranges, volatility_index
from exactodds.bets.offers import PER_OFFERED_ROUND
from exactodds.bets.progressive import JackpotPayout
from exactodds.numbers import exact, sqrt_fixed
from exactodds.report.figures import FLAG, BetFigure, Kind, Value, View, in_view
from exactodds.report.sheet import CONFIDENCE_PLACES, BetSheet
from exactodds.report.xlsx_cells import (
    FORMATS,
    NUMBER,
    PERCENT,
    PROBABILITY,
    RETURN,
    Writer,
    pay_table_head,
)
from exactodds.report.xlsx_live import PeekTotals, decision_table, fee_cell, product_lines

__all__ = [
    "EXACT_FORMULA",
    "FIXED",
    "LIVE_NOTE",
    "SQRT_FORMULA",
    "Z_DECIMALS",
    "ReturnTable",
    "bet_sheet",
    "cached_of",
    "cached_value",
    "figure_row",
]


def cached_value(figure: BetFigure, b: BetSheet) -> float | str:
    """The value a spreadsheet shows for a figure (a formula cell's cached value): the double
    nearest the exact figure, the correctly rounded decimals of a square root, a flag's text.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.figures import FIGURE
    >>> from exactodds.report.sheet import build_sheet
    >>> tie = build_sheet(load_paytable("tie-9"), bet_ids=["tie"], examples=False).bets[0]
    >>> [cached_value(FIGURE[k], tie) for k in ("house_edge", "std_dev", "player_favourable")]
    [0.04844031976359808, 2.9343024686, '']
    """
    return cached_of(figure, figure.value(b))


def cached_of(figure: BetFigure, x: Value) -> float | str:
    """:func:`cached_value` of the figure's value ``x``."""
    kind = figure.kind
    if kind is Kind.FLAG:
        return FLAG if x else ""
    if kind is Kind.SQRT:
        return float(Fraction(sqrt_fixed(Fraction(x or 0), CONFIDENCE_PLACES)))
    if kind is Kind.VOLATILITY:
        return float(Fraction(volatility_index(Fraction(x or 0), CONFIDENCE_PLACES)))
    return float(Fraction(x or 0))


@dataclass(frozen=True)
class ReturnTable:
    """Where a bet's return table is: rows ``first`` to ``last`` (net per unit in E,
    probability in H, return in J, net × return in L), the total in row ``total``, and the
    rows that can happen (``possible``: a combination or more). A live bet adds its ``fee``
    cell and a peek bet the totals of its decision table (``peek``), whose outcomes its
    figures are of (:mod:`exactodds.report.xlsx_live`)."""

    first: int
    last: int
    total: int
    possible: tuple[int, ...]
    fee: str | None = None
    peek: PeekTotals | None = None

    def column(self, letter: str) -> str:
        return f"{letter}{self.first}:{letter}{self.last}"

    @property
    def mean(self) -> str:
        """The expected net before the fee (the decisions' for a peek bet)."""
        return f"J{self.total}" if self.peek is None else self.peek.mean

    @property
    def variance(self) -> str:
        second = f"L{self.total}" if self.peek is None else self.peek.second
        return f"{second}-{self.mean}*{self.mean}"

    @property
    def ev(self) -> str:
        """The expected net per unit staked, the fee paid."""
        return self.mean if self.fee is None else f"({self.mean}-{self.fee})"

    @property
    def paid(self) -> str:
        """Money paid per unit staked: the stake (a peek's expected stake) and the fee."""
        stake = "1" if self.peek is None else self.peek.stake
        return stake if self.fee is None else f"({stake}+{self.fee})"

    @property
    def rtp(self) -> str:
        """1 + EV per money paid (the stake, the fee, a peek's expected raise)."""
        if self.fee is None and self.peek is None:
            return f"1+{self.ev}"
        return f"1+{self.ev}/{self.paid}"

    @property
    def edge(self) -> str:
        """−EV per money paid."""
        return f"-{self.ev}" if self.rtp == f"1+{self.ev}" else f"-({self.rtp[2:]})"

    @property
    def largest(self) -> str:
        """The largest net among the rows that can happen (metrics: 0 when none can)."""
        if not self.possible:
            return "0"
        if self.possible == tuple(range(self.first, self.last + 1)):
            return f"MAX({self.column('E')})"
        return f"MAX({','.join(f'E{r}' for r in self.possible)})"

    def formula(self, figure: BetFigure) -> str | None:
        """The figure as a formula over the return table, or None (not a payout figure)."""
        nets, probabilities = self.column("E"), self.column("H")
        push = f"SUMIF({nets},0,{probabilities})"
        kind = figure.kind
        if kind is Kind.SQRT:
            return f"=SQRT({self.variance})"
        if kind is Kind.VOLATILITY:
            return f"={_Z90}*SQRT({self.variance})"
        if kind is Kind.FLAG:
            return f'=IF({self.ev}>0,"{FLAG}","")'
        if self.peek is not None and figure.quantity == "largest_win":
            return f"={self.peek.largest}"
        if self.peek is not None and figure.quantity == "largest_win_probability":
            return f"={self.peek.largest_probability}"
        return {
            "ev": f"={self.ev}",
            "house_edge": f"={self.edge}",
            "rtp": f"={self.rtp}",
            "hit_frequency": f'=SUMIF({nets},">0",{probabilities})',
            "push_probability": f"={push}",
            "house_edge_resolved": f"={self.edge}/(1-{push})",
            "mean_net": f"={self.mean}",
            "paid": f"={self.paid}",
            "rtp_per_stake": f"={self.paid}+{self.ev}",
            "fee": None if self.fee is None else f"={self.fee}",
            "variance": f"={self.variance}",
            "largest_win": f"={self.largest}",
            "largest_win_probability": (
                f"=IF({self.largest}>0,SUMIF({nets},{self.largest},{probabilities}),0)"
            ),
        }.get(figure.quantity)


Z_DECIMALS = 16
"""Decimals of the z-values in the formulas (a spreadsheet's doubles hold no more)."""


def _z(level: Fraction) -> str:
    """The z-value of ``level`` truncated to :data:`Z_DECIMALS` decimals."""
    whole, decimals = Z_DIGITS[level].split(".")
    return f"{whole}.{decimals[:Z_DECIMALS]}"


_Z90 = _z(VI_LEVEL)

EXACT_FORMULA = "formula (exact)"
SQRT_FORMULA = "formula with SQRT: a spreadsheet computes it in doubles"
FIXED = "fixed: does not depend on the payouts"


def figure_row(w: Writer, figure: BetFigure, x: Value, table: ReturnTable) -> str:
    """A figure's row on the bet's sheet: label, value ``x`` (a formula over the return table
    where the figure is one), its exact form as computed, and how the value is got. Returns
    the value's cell."""
    kind = figure.kind
    formula = table.formula(figure)
    w.line(figure.xlsx_label or figure.label)
    if formula is None or (x is None and kind is not Kind.FLAG):
        if kind is Kind.ROUNDS and x:
            w.number(2, int(x), "0")
        elif kind is Kind.ROUNDS or x is None:
            w.text(2, figure.none_text)
        else:
            w.exact(2, Fraction(x), FORMATS[kind])
        how = FIXED if x is not None or kind is Kind.ROUNDS else "fixed: the bet always pushes"
        how = figure.stale_note or how
    elif kind is Kind.FLAG:
        w.formula(2, formula, FLAG if x else "", NUMBER)
        how = EXACT_FORMULA
    elif kind in (Kind.SQRT, Kind.VOLATILITY):
        decimal = (
            sqrt_fixed(Fraction(x or 0), CONFIDENCE_PLACES)
            if kind is Kind.SQRT
            else volatility_index(Fraction(x or 0), CONFIDENCE_PLACES)
        )
        w.formula(2, formula, float(Fraction(decimal)), FORMATS[kind], decimal)
        how = SQRT_FORMULA
    else:
        w.formula(2, formula, Fraction(x or 0), FORMATS[kind])
        how = EXACT_FORMULA
    w.text(4, how)
    return f"B{w.row}"


LIVE_NOTE = (
    "Live: Net per unit (column E) is the payout as a number (after the bet's rounding, at a "
    "stake of 1); edit it and every return, total, figure and RTP range of this sheet, and the "
    "Summary, recompute (Excel formulas over columns E and H; SQRT where the column How says "
    "so). The exact columns state the sheet as computed."
)


def _heading(w: Writer, b: BetSheet) -> None:
    """The bet's name and description and, for an offered bet, the offer and its probability."""
    f, bet = b.figures, b.bet
    w.line(f"{bet.name} ({bet.id})", bold=True)
    if bet.description:
        w.line(bet.description)
    if bet.offer is not None and f.offer_probability is not None:
        w.line("Offered when", str(bet.offer))
        w.line("Probability of the offer")
        w.exact(2, f.offer_probability, PERCENT)
        w.text(4, FIXED)
        w.line(
            "Every probability and figure on this sheet is per offered round: among the rounds "
            "where the bet is offered."
        )
    w.row += 1


METER_FORMAT = "#,##0.00"
METER_NOTE = (
    "at its reset: edit it (from the reset up to the cap) and the jackpot rows' Net per unit "
    "(share × meter ÷ stake − 1), every formula of this sheet and the Summary follow"
)


def _meters(w: Writer, b: BetSheet) -> dict[str, str]:
    """A progressive bet's meters, one value cell each at its reset (none for other bets, or
    for a rounded one, whose rounding a formula cannot apply); returns the cell of each."""
    progressive = b.bet.progressive
    if progressive is None or b.bet.rounding is not None:
        return {}
    w.line("Meter", "Value", "Value (exact)", "How", bold=True)
    cells = {}
    for m in progressive.meters:
        w.line(f"{m.name} meter")
        w.exact(2, m.reset, METER_FORMAT)
        w.text(4, METER_NOTE + ("" if m.cap is None else f"; cap {exact(m.cap)}"))
        cells[m.name] = f"B{w.row}"
    w.row += 1
    return cells


def _net_formula(pays: object, meters: dict[str, str], stake: Fraction) -> str | None:
    """A jackpot row's Net per unit as a formula of its meter's cell, else None."""
    if not isinstance(pays, JackpotPayout) or pays.level not in meters:
        return None
    c = pays.share / stake
    times = "" if c == 1 else f"*{c.numerator}" if c.denominator == 1 else f"*{c}"
    return f"={meters[pays.level]}{times}-1"


def _rtp_by_stake(w: Writer, b: BetSheet) -> None:
    """A rounded bet's RTP at each stake, fixed (a formula would have to round each stake's
    return)."""
    if not b.rtp_by_stake or b.unrounded_rtp is None:
        return
    w.row += 1
    w.line("Stake", "RTP", "RTP (exact)", "Equals unrounded", bold=True)
    for s in b.rtp_by_stake:
        w.row += 1
        w.exact(1, s.stake, "0.00")
        w.exact(2, s.rtp, PERCENT)
        w.text(4, "yes (exact)" if s.equals_unrounded else "no")
    w.line("Unrounded RTP")
    w.exact(2, b.unrounded_rtp, PERCENT)
    w.row += 1
    w.line(
        "Fixed: the RTP at each stake and unrounded, as computed (the rounding of each stake's "
        "return is not recomputed when a payout is edited)."
    )


def bet_sheet(w: Writer, b: BetSheet) -> dict[str, str]:
    """The bet's sheet; returns the cell of each figure's value, by key.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> from exactodds.report.xlsx import openpyxl
    >>> sheet = build_sheet(load_paytable("tie-9"), bet_ids=["tie"], examples=False)
    >>> w = Writer(openpyxl().Workbook().active)
    >>> cells = bet_sheet(w, sheet.bets[0])
    >>> cells["house_edge"], w.ws[cells["house_edge"]].value, w.ws[cells["variance"]].value
    ('B9', '=-J6', '=L6-J6*J6')
    """
    f = b.figures
    bet = b.bet
    _heading(w, b)
    meters = _meters(w, b)
    fee = fee_cell(w, bet.fee)
    w.line(*pay_table_head("Combinations", "Note"), bold=True)
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 2)
    first = w.row + 1
    possible, nets = _return_rows(w, b, meters)
    last = w.row
    w.line("Total (offered rounds)" if bet.offer is not None else "Total", bold=True)
    w.count(7, f.total)
    w.exact(8, Fraction(1), PROBABILITY)
    outcomes = [o for r in f.rows for o in r.outcomes()]
    w.formula(10, f"=SUM(J{first}:J{last})", sum((r.ret for r in f.rows), Fraction(0)), RETURN)
    second = sum((p * net**2 for p, net in outcomes), Fraction(0))
    w.formula(12, f"=SUM(L{first}:L{last})", second, RETURN)
    w.row += 1
    totals = w.row - 1
    peek = None if f.peek is None else decision_table(w, f.peek, nets, fee)
    table = ReturnTable(first, last, totals, tuple(possible), fee, peek)
    per = f" ({PER_OFFERED_ROUND})" if bet.offer is not None else ""
    w.line(f"Figure{per}", "Value", "Exact, as computed", "How", bold=True)
    cells = {}
    for figure in in_view(View.XLSX):
        if figure.present(b):
            cells[figure.key] = figure_row(w, figure, figure.value(b), table)
    _confidence(w, b, table)
    _rtp_by_stake(w, b)
    w.note_big_counts()
    w.row += 1
    w.line(LIVE_NOTE)
    w.widths(34, 16, 12, 12, 13, 14, 26, 14, 30, 15, 30, 15, 30, 28)
    return cells


def _return_rows(w: Writer, b: BetSheet, meters: dict[str, str]) -> tuple[list[int], list[str]]:
    """The return table's lines (a multiplied row's, one per product); returns the lines that
    can happen and each unmultiplied row's Net per unit cell."""
    f, bet = b.figures, b.bet
    stake = Fraction(1) if bet.progressive is None else bet.progressive.stake
    possible: list[int] = []
    nets: list[str] = []
    for row, spec, note in zip(f.rows, bet.rows, b.notes, strict=True):
        if row.products:
            possible += product_lines(w, row, spec, note)
            continue
        nets.append(f"E{w.row + 1}")
        w.line(row.event, row.pays.text or str(row.pays), row.pays.to_one(), row.pays.for_one())
        net = _net_formula(spec.pays, meters, stake)
        if net is None:
            w.exact(5, row.net, NUMBER)
        else:
            w.formula(5, net, row.net, NUMBER)
        w.count(7, row.combinations)
        w.exact(8, row.probability, PROBABILITY)
        w.formula(10, f"=E{w.row}*H{w.row}", row.ret, RETURN)
        w.formula(12, f"=E{w.row}*J{w.row}", row.ret * row.net, RETURN)
        if row.combinations:
            possible.append(w.row)
        if note:
            w.text(14, note)
    return possible, nets


def _confidence(w: Writer, b: BetSheet, table: ReturnTable) -> None:
    """The RTP range over N rounds at each confidence level: each bound a formula (RTP ∓
    z·SD/√N over the return table) and, beside it, its decimal as in the JSON sheet."""
    f = b.figures
    w.row += 1
    w.line(
        "Rounds", "Level", "Level (exact)", "RTP low", "RTP low (decimal)", "RTP high", bold=True
    )
    w.text(7, "RTP high (decimal)", bold=True)
    for r in confidence_ranges(f.rtp, f.variance):
        w.row += 1
        w.count(1, r.rounds)
        w.number(2, float(r.level), "0.0%")
        w.text(3, exact(r.level))
        spread = f"{_z(r.level)}*SQRT(({table.variance})/A{w.row})"
        for column, sign, decimal in (
            (4, "-", r.low(CONFIDENCE_PLACES)),
            (6, "+", r.high(CONFIDENCE_PLACES)),
        ):
            w.formula(
                column, f"={table.rtp}{sign}{spread}", float(Fraction(decimal)), PERCENT, decimal
            )
    w.row += 1
    w.line(
        "The range the average return of N rounds stays in at each confidence level (normal "
        "approximation: RTP ± z·SD/√N, z two-sided, to "
        f"{Z_DECIMALS} decimals in the formulas; SQRT: a spreadsheet computes it in doubles). "
        f"The decimals beside are exact, rounded to {CONFIDENCE_PLACES} places, as computed."
    )
