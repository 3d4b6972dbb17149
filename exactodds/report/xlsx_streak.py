"""A streak bet's sheet of an XLSX workbook (:mod:`exactodds.report.xlsx`), live like every bet's
(:mod:`exactodds.report.xlsx_bet`): one row per streak outcome (its rows over ``streak``) with
its exact probability when rounds are independent and its payout cell, every figure of
:data:`~exactodds.report.figures.BET_FIGURES` that depends on payouts a formula over them, and
the house edge per round played a formula too. The one-shoe simulation is written as fixed
values, marked so in the How column: a simulation is not recomputed by a formula.
"""

from __future__ import annotations

from fractions import Fraction

from exactodds.analysis.streak import ShoeStreak
from exactodds.bets.streak import StreakBet, StreakFigures
from exactodds.report.figures import View, in_view
from exactodds.report.xlsx_bet import EXACT_FORMULA, FIXED, ReturnTable, figure_row
from exactodds.report.xlsx_cells import (
    COUNT,
    NUMBER,
    PERCENT,
    PROBABILITY,
    RETURN,
    Writer,
    pay_table_head,
)

__all__ = ["SIMULATED", "STREAK_LIVE_NOTE", "streak_sheet"]

SIMULATED = (
    "simulated (fixed): as dealt for the payouts as computed; not recomputed when a payout is "
    "edited (run exactodds report on the edited paytable)"
)

STREAK_LIVE_NOTE = (
    "Live: Net per unit (column E) is the payout as a number; edit it and every return, total "
    "and figure with rounds independent, and the Summary, recompute (Excel formulas over "
    "columns E and H; SQRT where the column How says so). The probabilities are exact: P(streak "
    "= k) = p^k (1 − p), and p^m for the streak m that ends the bet. The one-shoe figures are a "
    "simulation, as computed."
)


def streak_sheet(w: Writer, bet: StreakBet, f: StreakFigures, dealt: ShoeStreak) -> dict[str, str]:
    """The streak bet's sheet; returns the cell of each figure's value, by key.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.xlsx import openpyxl
    >>> from exactodds.analysis.streak import simulate_streak
    >>> from exactodds.bets.streak import streak_figures
    >>> t = load_paytable("banker-streak")
    >>> bet = t.streaks[0]
    >>> f = streak_figures(bet, t.shoe, t.tableau)
    >>> dealt = simulate_streak(bet, t.shoe, t.tableau, 5, seed=1)
    >>> w = Writer(openpyxl().Workbook().active)
    >>> cells = streak_sheet(w, bet, f, dealt)
    >>> cells["house_edge"], w.ws[cells["house_edge"]].value, w.ws[cells["edge_per_round"]].value
    ('B19', '=-J16', '=-J16/B4')
    """
    w.line(f"{bet.name} ({bet.id})", bold=True)
    if bet.description:
        w.line(bet.description)
    cap = f"; the bet ends after {bet.max_streak}" if bet.max_streak is not None else ""
    w.line("Streak of", f"{bet.condition}{cap}")
    w.line("Probability of the condition on one round (p)")
    w.exact(2, f.p, PROBABILITY)
    w.text(4, FIXED)
    w.line("Expected rounds per bet")
    w.exact(2, f.expected_rounds, NUMBER)
    w.text(4, FIXED)
    rounds = w.row
    w.line(
        "Rounds independent (every round from the full shoe): exact. Every probability and "
        "figure below is per bet."
    )
    w.row += 1
    w.line(*pay_table_head("Streak"), bold=True)
    w.ws.freeze_panes = w.ws.cell(w.row + 1, 2)
    first = w.row + 1
    possible = []
    for row, q in zip(bet.rows, f.probabilities, strict=True):
        net = row.pays.net
        w.line(row.event, row.pays.text or str(row.pays), row.pays.to_one(), row.pays.for_one())
        w.exact(5, net, NUMBER)
        w.text(7, row.text)
        w.exact(8, q, PROBABILITY)
        w.formula(10, f"=E{w.row}*H{w.row}", q * net, RETURN)
        w.formula(12, f"=E{w.row}*J{w.row}", q * net * net, RETURN)
        if q:
            possible.append(w.row)
    last = w.row
    w.line("Total", bold=True)
    w.exact(8, Fraction(1), PROBABILITY)
    w.formula(10, f"=SUM(J{first}:J{last})", f.ev, RETURN)
    second = sum(
        (q * r.pays.net**2 for q, r in zip(f.probabilities, bet.rows, strict=True)), Fraction()
    )
    w.formula(12, f"=SUM(L{first}:L{last})", second, RETURN)
    table = ReturnTable(first, last, w.row, tuple(possible))
    w.row += 1
    w.line("Figure (rounds independent)", "Value", "Exact, as computed", "How", bold=True)
    cells = {}
    for figure in in_view(View.XLSX):
        if table.formula(figure) is not None:
            cells[figure.key] = figure_row(w, figure, figure.value_in(f), table)
    w.line("House edge per round played")
    w.formula(2, f"=-J{table.total}/B{rounds}", f.edge_per_round, PERCENT)
    w.text(4, EXACT_FORMULA)
    cells["edge_per_round"] = f"B{w.row}"
    _one_shoe(w, f, dealt)
    w.row += 1
    w.line(STREAK_LIVE_NOTE)
    w.widths(34, 16, 12, 12, 13, 14, 18, 14, 30, 15, 30, 15, 30)
    return cells


def _one_shoe(w: Writer, f: StreakFigures, dealt: ShoeStreak) -> None:
    """The one-shoe simulation's figures, fixed and marked as simulated."""
    w.row += 1
    w.line("Dealt from one shoe (simulated)", "Value", "Exact, as observed", "How", bold=True)
    for label, value in (("RTP", dealt.rtp), ("House edge", dealt.house_edge)):
        w.line(label, "—" if value is None else "")  # None: never made in the shoes dealt
        if value is not None:
            w.exact(2, value, PERCENT)
        w.text(4, SIMULATED)
    for i, label in enumerate(("99% range of the RTP, low", "99% range of the RTP, high")):
        w.line(label, "—" if dealt.range_99 is None else "")
        if dealt.range_99 is not None:
            bound = round(dealt.range_99[i], 6)
            w.number(2, bound, PERCENT)
            w.text(3, f"{bound:.6f}")
        w.text(4, SIMULATED)
    inside = "—" if dealt.rtp is None else "yes" if dealt.covers(f.rtp) else "no"
    w.line("Exact RTP (rounds independent) within that range", inside)
    w.text(4, SIMULATED)
    for label, count in (
        ("Bets settled", dealt.bets),
        ("Shoes", dealt.shoes),
        ("Seed", dealt.seed),
        ("Cut card (cards from the end)", dealt.cut_card),
    ):
        w.line(label)
        w.number(2, count, COUNT)
        w.text(4, SIMULATED if label == "Bets settled" else FIXED)
