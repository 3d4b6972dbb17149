"""The XLSX workbook is live (issue 24): every figure of every bet sheet, every bound of its RTP
ranges and every Summary value is a formula over the payout and probability cells, which
evaluates — with exact fractions, :mod:`tests.formulas` — to the sheet's figures, and after a
payout cell of every bet is edited to the figures of :meth:`Paytable.with_payout`.
"""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from exactodds.analysis.confidence import LEVELS, ROUNDS, VI_LEVEL, Z_DIGITS
from exactodds.bets.loader import load_paytable, parse_paytable
from exactodds.bets.progressive import bet_at_meters
from exactodds.figures.progressive import progressive_figures
from exactodds.report import Sheet, build_sheet
from exactodds.report.figures import FIGURE, FLAG, BetFigure, Kind, View, in_view
from exactodds.report.sheet import BetSheet
from exactodds.report.xlsx import render_xlsx
from exactodds.report.xlsx_bet import EXACT_FORMULA, FIXED, SQRT_FORMULA, Z_DECIMALS
from tests.extras import need
from tests.formulas import Book, Surd, Value, rows_under, surd

openpyxl = need("openpyxl", "xlsx")


def z(level: Fraction) -> Fraction:
    """The z-value the formulas use: the 40-digit constant cut to ``Z_DECIMALS`` decimals."""
    whole, decimals = Z_DIGITS[level].split(".")
    return Fraction(f"{whole}.{decimals[:Z_DECIMALS]}")


def expected(figure: BetFigure, b: BetSheet) -> Value | None:
    """What the figure's formula must give, exactly (None: no value, the cell says so)."""
    x = figure.value(b)
    kind = figure.kind
    if kind is Kind.FLAG:
        return FLAG if x else ""
    if x is None:
        return None
    variance = Fraction(x)
    if kind is Kind.SQRT:
        return surd(Fraction(0), Fraction(1), variance)
    if kind is Kind.VOLATILITY:
        return surd(Fraction(0), z(VI_LEVEL), variance)
    return Fraction(x)


def check(book: Any, evaluator: Book, sheet: Sheet, cached: Any | None = None) -> None:
    """Every formula of the workbook evaluates to ``sheet``'s figures (and, with ``cached``,
    the workbook read for its cached values, each cached value is the figure in doubles)."""

    def agree(sheet_name: str, cell: Any, want: Value) -> None:
        got = evaluator.cell(sheet_name, cell.coordinate)
        assert got == want, (sheet_name, cell.coordinate, got, want)
        if cached is not None:
            shown = cached[sheet_name][cell.coordinate].value
            if isinstance(want, str):
                assert (shown or "") == want  # openpyxl reads an empty text as None
            else:
                assert abs(shown - float(want)) <= 1e-9 * max(1.0, abs(float(want)))

    for b in sheet.bets:
        name = b.bet.id
        ws = book[name]
        per = " (per offered round)" if b.bet.offer is not None else ""
        figures = {r[0].value: r for r in rows_under(ws, f"Figure{per}")}
        for figure in in_view(View.XLSX):
            if not figure.present(b):
                continue
            row = figures[figure.xlsx_label or figure.label]
            want = expected(figure, b)
            how = row[3].value
            if figure.kind is Kind.ROUNDS or want is None:
                assert how.startswith("fixed") and not str(row[1].value).startswith("=")
                continue
            if figure.stale_note:  # a progressive bet's figures at the reset, break-even …
                assert how == figure.stale_note and not str(row[1].value).startswith("=")
                continue
            assert how == (SQRT_FORMULA if isinstance(want, Surd) else EXACT_FORMULA)
            agree(name, row[1], want)
        f = b.figures
        bounds = rows_under(ws, "Rounds")
        assert [(r[0].value, Fraction(r[2].value)) for r in bounds] == [
            (n, level) for n in ROUNDS for level in LEVELS
        ]
        for r in bounds:
            spread = f.variance / r[0].value
            agree(name, r[3], surd(f.rtp, -z(Fraction(r[2].value)), spread))
            agree(name, r[5], surd(f.rtp, z(Fraction(r[2].value)), spread))
    summary = book["Summary"]
    head = next(r for r in summary.iter_rows() if r[0].value == "Bet")
    columns = {c.value: c.column - 1 for c in head}
    for r, b in zip(rows_under(summary, "Bet"), sheet.bets, strict=True):
        assert r[1].value == b.bet.id
        for figure in in_view(View.SUMMARY):
            cell = r[columns[(figure.short or figure.label) + figure.unit]]
            if cell.value is None:  # "—" on the sheet
                continue
            want = expected(figure, b)
            assert want is not None
            if figure.kind is Kind.ODDS:
                assert isinstance(want, Fraction)
                want = 1 / want
            agree("Summary", cell, want)


def all_formulas(book: Any) -> set[tuple[str, str]]:
    return {
        (ws.title, c.coordinate)
        for ws in book.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and c.value.startswith("=")
    }


def new_net(net: Fraction) -> Fraction:
    """A payout other than ``net`` (a win for a loss, a bigger win for a win)."""
    return net + 1 if net >= 0 else Fraction(1, 2)


BETS = {
    "classic": None,
    "insurance": ["player_0_v_5", "player_4_v_6", "player_5_v_7"],
    "touch": None,
}


@pytest.mark.parametrize("name", BETS)
def test_every_formula_gives_the_figures_before_and_after_an_edit(name: str) -> None:
    """classic (14 bets of every kind), insurance (offered bets: per offered round) and touch
    (rounding to the cent: the net per unit is the rounded one at a stake of 1)."""
    table = load_paytable(name)
    sheet = build_sheet(table, bet_ids=BETS[name], date="2024-01-01", examples=False)
    data = render_xlsx(sheet)
    book = openpyxl.load_workbook(io.BytesIO(data))
    evaluator = Book(book)
    check(book, evaluator, sheet, openpyxl.load_workbook(io.BytesIO(data), data_only=True))
    assert set(evaluator.evaluated) == all_formulas(book)  # every formula was computed
    # every bet: its first row pays something else, in the workbook and by with_payout
    edited = table
    for b in sheet.bets:
        edited = edited.with_payout(b.bet.id, 0, new_net(b.bet.rows[0].pays.net))
    again = build_sheet(edited, bet_ids=BETS[name], date="2024-01-01", examples=False)
    for b, now in zip(sheet.bets, again.bets, strict=True):
        ws = book[b.bet.id]
        first = rows_under(ws, "Event")[0]
        net = now.figures.rows[0].net  # after the bet's rounding at a stake of 1
        first[4].value, first[5].value = float(net), f"{net.numerator}/{net.denominator}"
        assert float(Fraction(first[5].value)) == first[4].value
    evaluator = Book(book)
    check(book, evaluator, again)
    changed = [b.bet.id for b, n in zip(sheet.bets, again.bets, strict=True)
               if b.figures.house_edge != n.figures.house_edge]  # fmt: skip
    assert changed == [b.bet.id for b in sheet.bets]


def test_offered_bets_state_the_offer_on_their_sheet() -> None:
    sheet = build_sheet(load_paytable("insurance"), bet_ids=["player_0_v_5"], date="2024-01-01")
    ws = openpyxl.load_workbook(io.BytesIO(render_xlsx(sheet)))["player_0_v_5"]
    lines = {r[0]: r[1:] for r in ws.iter_rows(values_only=True) if r[0]}
    f = sheet.bets[0].figures
    assert lines["Offered when"][0] == "player.initial == 0 and banker.initial == 5"
    offer = lines["Probability of the offer"]
    # the figures are per offered round: the total row counts the offered rounds
    assert Fraction(offer[1]) == f.offer_probability == Fraction(f.total, sheet.universe)
    assert offer[2] == FIXED
    assert "Figure (per offered round)" in lines and "Total (offered rounds)" in lines
    assert FIGURE["offer_probability"].kind is Kind.PERCENT


def test_a_progressive_meter_cell_gives_the_figures_at_that_meter() -> None:
    """Issue 32: the meter is a cell; editing it gives every figure of the bet sheet and the
    Summary at that meter: the figures of ``bet_at_meters`` and the RTP of
    :meth:`ProgressiveFigures.rtp_at`, as the HTML page's meter input does."""
    table = load_paytable("dragon-dragon")
    sheet = build_sheet(table, date="2024-01-01", examples=False)
    book = openpyxl.load_workbook(io.BytesIO(render_xlsx(sheet)))
    check(book, Book(book), sheet)
    ws = book["dragon_dragon"]
    (meter,) = rows_under(ws, "Meter")
    assert meter[0].value == "jackpot meter" and Fraction(meter[2].value) == 10000
    nets = [r[4].value for r in rows_under(ws, "Event")]
    cell = meter[1].coordinate
    assert nets[:2] == [f"={cell}-1", f"={cell}*1/10-1"] and not str(nets[2]).startswith("=")
    at = Fraction(123456789, 100)  # 1,234,567.89
    meter[1].value, meter[2].value = float(at), f"{at.numerator}/{at.denominator}"
    bet = bet_at_meters(table.round_bet("dragon_dragon"), {"jackpot": at})
    again = build_sheet(replace(table, bets=(bet,)), date="2024-01-01", examples=False)
    evaluator = Book(book)
    check(book, evaluator, again)
    p = progressive_figures(sheet.bets[0].figures)
    assert p is not None
    rtp = next(r for r in rows_under(ws, "Figure") if r[0].value == "RTP")
    assert evaluator.cell("dragon_dragon", rtp[1].coordinate) == p.rtp_at(at)
    # by hand from the sheet's line "RTP = 31.8146% + 0.0000081985 × meter": about 1044%
    assert 10.43 < p.rtp_at(at) < 10.45


def test_each_meter_has_its_cell() -> None:
    """Two meters, a stake of 5 and a 50% share: each jackpot row's net is a formula of its
    own meter's cell, and the RTP follows both as the linear function of the meters."""
    from tests.test_designer_meter import TABLE

    table, problems = parse_paytable(TABLE)
    assert table is not None, problems
    sheet = build_sheet(table, date="2024-01-01", examples=False)
    book = openpyxl.load_workbook(io.BytesIO(render_xlsx(sheet)))
    ws = book["x"]
    major, mini = rows_under(ws, "Meter")
    assert [major[0].value, mini[0].value] == ["major meter", "mini meter"]
    nets = [r[4].value for r in rows_under(ws, "Event")]
    a, b = major[1].coordinate, mini[1].coordinate
    assert nets[:4] == [f"={a}*1/5-1", f"={b}*1/10-1", 2, -1]  # then the total
    for row, x in ((major, Fraction(5000)), (mini, Fraction(7525, 100))):
        row[1].value, row[2].value = float(x), f"{x.numerator}/{x.denominator}"
    p = progressive_figures(sheet.bets[0].figures)
    assert p is not None
    rtp = next(r for r in rows_under(ws, "Figure") if r[0].value == "RTP")
    want = p.rtp_fixed + p.slope("major") * 5000 + p.slope("mini") * Fraction(7525, 100)
    assert Book(book).cell("x", rtp[1].coordinate) == want
