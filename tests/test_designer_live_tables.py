"""The designer page recomputes a live bet's tables (issue 34): after a weight and a fee edit,
the fee table under the Summary and the multiplied row's product tables show the figures
Python computes exactly for the edited table (:func:`with_table`) and fee."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import format_number
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import bet_figures
from exactodds.figures.reweigh import with_table
from exactodds.numbers import exact, fixed, percent
from exactodds.report import build_sheet, render_sheets
from tests.browser import Pages

LIGHTNING = Path(__file__).parent / "data" / "live-lightning.toml"


def test_fee_table_and_products_follow_a_weight_and_fee_edit(pages: Pages) -> None:
    paytable = load_paytable(LIGHTNING)
    shoe = Shoe.decks(1)
    sheet = build_sheet(paytable, shoe=shoe, bet_ids=["banker"], date="2024-01-01", examples=False)
    page = pages.open(render_sheets([sheet], "html"))
    fee_table = page.locator("table", has_text="A fee is paid on the stake every round")
    rtp = fee_table.locator('[data-bet="banker"][data-figure="rtp"]')
    assert rtp.inner_text() == percent(sheet.bets[0].figures.rtp, 4)  # as printed
    # ×2 less likely, ×8 more (the values still sum to 1), and a fee of 12.5%
    weight = 'input.weight[data-table="lightning"][data-part="values"][data-key="{}"]'.format
    page.locator(weight(2)).fill("0.35")
    page.locator(weight(8)).fill("1/10")
    page.locator('input.fee[data-bet="banker"]').fill("12.5%")
    (table,) = paytable.multipliers
    values = dict(table.values) | {2: Fraction(35, 100), 8: Fraction(1, 10)}
    edited = replace(table, values=tuple(sorted(values.items())))
    bet = replace(paytable.round_bet("banker"), fee=Fraction(1, 8))
    f = with_table(bet_figures(joint_distribution(shoe), bet), edited)
    assert f.fee == Fraction(1, 8) and f.rtp != sheet.bets[0].figures.rtp
    assert rtp.inner_text() == percent(f.rtp, 4)
    assert fee_table.locator('[data-figure="paid"]').inner_text() == "1.1250000000"
    # the figure table's money paid and fee too, as the fee table
    paid = page.locator('[data-bet="banker"][data-figure="paid"]:not([data-form])')
    assert paid.all_inner_texts() == ["1.1250000000"] * 3  # figure table, fee table, fee's note
    fee = page.locator('[data-bet="banker"][data-figure="fee"]:not([data-form])')
    assert set(fee.all_inner_texts()) == {"12.5000%"}
    row = f.rows[0]  # Banker wins, multiplied
    for m, q in row.products:
        cell = f'[data-bet="banker"][data-row="0"][data-figure="product.{m}.probability"]'
        assert page.locator(cell + '[data-form="exact"]').inner_text() == exact(q), m
        assert page.locator(cell + ":not([data-form])").inner_text() == fixed(q, 10), m
    mean = sum((m * q for m, q in row.products), Fraction(0))
    cell = '[data-bet="banker"][data-row="0"][data-figure="products.mean"]'
    assert page.locator(cell).inner_text() == fixed(mean, 10)
    # a pays edit: each product's net is the win 2 × product less the 5% commission (by hand)
    page.locator('input.pays[data-bet="banker"][data-row="0"]').fill("2:1")
    for m, _ in row.products:
        cell = f'[data-bet="banker"][data-row="0"][data-figure="product.{m}.net"]'
        assert page.locator(cell).inner_text() == format_number(2 * m - Fraction(1, 20)), m
