"""The XLSX workbook of live bets (issue 34): a fee cell, a multiplied row's products and a peek
bet's decisions are formulas that evaluate — with exact fractions, :mod:`tests.formulas` — to
the sheet's figures, and after the pays and the fee are edited to the figures the engine gives
the edited bet (:class:`BetFigures` of the same rows' products with the new pays;
:func:`bet_figures` for a peek, every cell decided anew)."""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction
from typing import Any

from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import BetFigures, bet_figures
from exactodds.report import Sheet, build_sheet
from exactodds.report.xlsx import render_xlsx
from tests.extras import need
from tests.formulas import Book, rows_under
from tests.test_report_xlsx_live import all_formulas, check

openpyxl = need("openpyxl", "xlsx")


def workbook(sheet: Sheet) -> tuple[Any, Book]:
    data = render_xlsx(sheet)
    book = openpyxl.load_workbook(io.BytesIO(data))
    evaluator = Book(book)
    check(book, evaluator, sheet, openpyxl.load_workbook(io.BytesIO(data), data_only=True))
    return book, evaluator


def put(cell: Any, x: Fraction) -> None:
    """An edit as a user makes it: the number, and its exact form beside (the evaluator's)."""
    cell.value = float(x)
    cell.offset(0, 1).value = f"{x.numerator}/{x.denominator}"


def test_multiplied_rows_and_fees_are_live() -> None:
    table = load_paytable("tests/data/live-lightning.toml")
    sheet = build_sheet(
        table, shoe=Shoe.decks(1), bet_ids=["banker"], date="2024-01-01", examples=False
    )
    book, evaluator = workbook(sheet)
    for b in sheet.bets:  # the unraised returns too: every formula is computed
        for r in rows_under(book[b.bet.id], "Event"):
            evaluator.cell(b.bet.id, f"J{r[0].row}")
    assert set(evaluator.evaluated) == all_formulas(book)
    banker = book["banker"]
    lines = rows_under(banker, "Event")
    f = sheet.bets[0].figures
    products = f.rows[0].products
    assert [r[0].value for r in lines[: len(products)]] == [
        f"Banker wins ×{m}" for m, _ in products
    ]
    e = f"E{lines[0][0].row}"
    assert lines[1][4].value == f"=IF({e}>0,({e}+1/20)*{products[1][0]}-1/20,{e})"
    sheets = book["Multipliers"]
    assert [r[0].value for r in rows_under(sheets, "Multiplier")] == ["2", "3", "4", "5", "8"]
    # edit: Banker pays 2:1 (less 5%), its fee 10%
    edits = {"banker": ("2:1", Fraction(1, 10))}
    edited = []
    for b in sheet.bets:
        pays, fee = edits[b.bet.id]
        ws = book[b.bet.id]
        row = replace(b.bet.rows[0], pays=parse_payout(pays))
        bet = replace(b.bet, rows=(row, *b.bet.rows[1:]), fee=fee)
        put(rows_under(ws, "Event")[0][4], row.net_at(1))
        put(rows_under(ws, "Fee")[0][1], fee)
        rows = (replace(b.figures.rows[0], pays=row.pays, net=row.net_at(1)), *b.figures.rows[1:])
        figures = BetFigures(bet, rows, b.figures.total, universe=b.figures.universe)
        edited.append(replace(b, figures=figures))
    again = replace(sheet, bets=tuple(edited))
    check(book, Book(book), again)
    assert edited[0].figures.rtp != sheet.bets[0].figures.rtp


def test_a_peek_bets_decisions_are_live() -> None:
    table = load_paytable("tests/data/live-peek.toml")
    sheet = build_sheet(table, bet_ids=["banker"], date="2024-01-01", examples=False)
    book, _ = workbook(sheet)
    ws = book["banker"]
    b = sheet.bets[0]
    assert b.figures.peek is not None
    # Banker 1:1 with no commission and a 5% fee: some cells raise now
    row = replace(b.bet.rows[0], pays=parse_payout("1:1"))
    bet = replace(b.bet, rows=(row, *b.bet.rows[1:]), fee=Fraction(1, 20))
    put(rows_under(ws, "Event")[0][4], Fraction(1))
    put(rows_under(ws, "Fee")[0][1], Fraction(1, 20))
    figures = bet_figures(joint_distribution(table.shoe), bet)
    assert figures.peek is not None and figures.peek.paid > b.figures.peek.paid
    check(book, Book(book), replace(sheet, bets=(replace(b, figures=figures),)))
