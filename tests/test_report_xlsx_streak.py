"""A streak bet's XLSX sheet is live (issue 27): one row per streak outcome with its exact
probability and payout cell, every payout figure a formula over them that evaluates, with exact
fractions (:mod:`tests.formulas`), to the figures computed here by hand from p^k (1 − p), before
and after a payout cell is edited (then equal to :meth:`Paytable.with_payout`'s figures); the
Summary refers to the sheet; the one-shoe simulation is fixed and marked so.
"""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from exactodds.analysis.confidence import VI_LEVEL, Z_DIGITS
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.bets.streak import condition_probability, streak_figures
from exactodds.report import build_sheet
from exactodds.report.figures import FLAG, Kind, View, in_view
from exactodds.report.xlsx import render_xlsx
from exactodds.report.xlsx_bet import EXACT_FORMULA, SQRT_FORMULA, Z_DECIMALS
from exactodds.report.xlsx_streak import SIMULATED
from tests.extras import need
from tests.formulas import Book, Value, rows_under, surd

openpyxl = need("openpyxl", "xlsx")


def by_hand(table: Paytable) -> dict[str, Any]:
    """The figures of ``table``'s streak bet, from P(streak = k) = p^k (1 − p) for k below
    the cap and p^cap at it, each row the sum over the streaks it names."""
    bet = table.streaks[0]
    p = condition_probability(bet.condition, table.shoe, table.tableau)
    cap = bet.max_streak
    assert cap is not None
    q = [Fraction(0)] * len(bet.rows)
    for k in range(cap + 1):
        chance = p**k * (1 - p) if k < cap else p**cap
        row = next(i for i, r in enumerate(bet.rows) if r.holds(k))  # first matching row
        q[row] += chance
    nets = [r.pays.net for r in bet.rows]
    ev = sum(a * n for a, n in zip(q, nets, strict=True))
    push = sum((a for a, n in zip(q, nets, strict=True) if n == 0), Fraction())
    top = max(n for a, n in zip(q, nets, strict=True) if a)
    rounds = sum(p**i for i in range(cap))
    return {
        "probabilities": q,
        "ev": ev,
        "rtp": 1 + ev,
        "house_edge": -ev,
        "hit_frequency": sum((a for a, n in zip(q, nets, strict=True) if n > 0), Fraction()),
        "push_probability": push,
        "house_edge_resolved": -ev / (1 - push),
        "variance": sum(a * n * n for a, n in zip(q, nets, strict=True)) - ev * ev,
        "largest_win": top,
        "largest_win_probability": sum(
            (a for a, n in zip(q, nets, strict=True) if n == top), Fraction()
        ),
        "player_favourable": ev > 0,
        "edge_per_round": -ev / rounds,
    }


def want(key: str, kind: Kind, figures: dict[str, Any]) -> Value:
    """What the figure's formula must give (a square root stays exact, as a surd)."""
    if kind is Kind.FLAG:
        return FLAG if figures["player_favourable"] else ""
    if kind is Kind.SQRT:
        return surd(Fraction(0), Fraction(1), figures["variance"])
    if kind is Kind.VOLATILITY:
        whole, decimals = Z_DIGITS[VI_LEVEL].split(".")  # z(90%) cut to Z_DECIMALS places
        z = Fraction(f"{whole}.{decimals[:Z_DECIMALS]}")
        return surd(Fraction(0), z, figures["variance"])
    value: Fraction = figures[key]
    return value


def check(book: Any, figures: dict[str, Any], name: str) -> None:
    evaluator = Book(book)
    ws = book[name]
    events = rows_under(ws, "Event")
    table = [r for r in events if r[0].value != "Total"]
    assert [Fraction(r[8].value) for r in table] == figures["probabilities"]
    rows = {r[0].value: r for r in rows_under(ws, "Figure (rounds independent)")}
    shown = [f for f in in_view(View.XLSX) if f.kind is not Kind.ROUNDS and f.optional is False]
    for figure in shown:
        row = rows[figure.xlsx_label or figure.label]
        expected = want(figure.quantity, figure.kind, figures)
        sqrt = figure.kind in (Kind.SQRT, Kind.VOLATILITY)
        assert row[3].value == (SQRT_FORMULA if sqrt else EXACT_FORMULA)
        assert evaluator.cell(name, row[1].coordinate) == expected, figure.key
    per_round = rows["House edge per round played"]
    assert evaluator.cell(name, per_round[1].coordinate) == figures["edge_per_round"]
    summary = book["Summary"]
    head = next(r for r in summary.iter_rows() if r[0].value == "Bet")
    columns = {c.value: c.column - 1 for c in head}
    line = next(r for r in rows_under(summary, "Bet") if r[1].value == name)
    for figure in in_view(View.SUMMARY):
        cell = line[columns[(figure.short or figure.label) + figure.unit]]
        if figure.kind is Kind.ROUNDS:
            assert cell.value is None  # max round: not a streak bet's
            continue
        expected = want(figure.quantity, figure.kind, figures)
        if figure.kind is Kind.ODDS:
            assert isinstance(expected, Fraction)
            expected = 1 / expected
        if expected == "":
            assert cell.value is None
            continue
        ref = f"'{name}'!" + rows[figure.xlsx_label or figure.label][1].coordinate
        assert cell.value.endswith(ref)  # =REF, or =1/REF for "1 in N"
        assert evaluator.cell("Summary", cell.coordinate) == expected, figure.key
    formulas = {
        (s.title, c.coordinate)
        for s in book.worksheets
        for r in s.iter_rows()
        for c in r
        if isinstance(c.value, str) and c.value.startswith("=") and s.title in (name, "Summary")
    }
    for sheet, ref in formulas:
        evaluator.cell(sheet, ref)  # every formula evaluates in the subset
    simulated = rows_under(ws, "Dealt from one shoe (simulated)")
    assert simulated and all(not str(r[1].value).startswith("=") for r in simulated)
    assert {r[0].value for r in simulated if r[3].value == SIMULATED} >= {"RTP", "House edge"}


def test_a_streak_sheet_is_live_before_and_after_an_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("exactodds.report.streak.SHOES", 40)  # the simulation is not checked here
    full = load_paytable("banker-streak")
    table = replace(full, streaks=full.streaks[:1])
    sheet = build_sheet(
        table, bet_ids=["banker", "banker_streak"], date="2024-01-01", examples=False
    )
    data = render_xlsx(sheet)
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames[:3] == ["Summary", "banker", "banker_streak"]
    figures = by_hand(table)
    f = streak_figures(table.streaks[0], table.shoe, table.tableau)
    assert (f.ev, f.variance, f.edge_per_round) == (
        figures["ev"],
        figures["variance"],
        figures["edge_per_round"],
    )
    check(book, figures, "banker_streak")
    # the 9-streak row pays 200 to 1 instead of 150: in the workbook and by with_payout
    edited = table.with_payout("banker_streak", "9", "200:1")
    row = next(r for r in rows_under(book["banker_streak"], "Event") if r[0].value == "9")
    row[4].value, row[5].value = 200, "200/1"
    again = by_hand(edited)
    assert again["ev"] == figures["ev"] + 50 * figures["probabilities"][1] != figures["ev"]
    g = streak_figures(edited.streaks[0], edited.shoe, edited.tableau)
    assert (g.ev, g.variance, g.hit_frequency) == (
        again["ev"],
        again["variance"],
        again["hit_frequency"],
    )
    check(book, again, "banker_streak")
