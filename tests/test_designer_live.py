"""The designer page edits a live bet (issue 34): a multiplier table's weights, a fee and the
pays of a multiplied or peek bet. The page's exact figures after the edit equal those
:func:`bet_figures` computes for the exported paytable read back by the loader, and invalid
weights (not summing to 1, negative) show no figure and block the export."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable_toml import load_text
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import bet_figures
from exactodds.numbers import exact
from exactodds.report import build_sheet, render_sheets
from exactodds.report.charts import bars_text
from tests.browser import Pages

DATA = Path(__file__).parent / "data"
DASH = "\u2014"


def exact_figure(page: Any, bet: str, figure: str) -> str:
    return str(
        page.locator(
            f'[data-bet="{bet}"][data-figure="{figure}"][data-form="exact"]'
        ).first.inner_text()
    )


def exported(page: Any) -> str:
    page.locator('button[data-action="export"]').click()
    return str(page.locator("textarea[data-export]").input_value())


def test_edited_weights_and_fee_give_the_engines_figures(pages: Pages) -> None:
    table = load_paytable(DATA / "live-lightning.toml")
    one = Shoe.decks(1)  # the export has decks = 1: quicker to count again
    sheet = build_sheet(table, shoe=one, bet_ids=["banker"], date="2024-01-01", examples=False)
    page = pages.open(render_sheets([sheet], "html"))
    weight = 'input.weight[data-table="lightning"][data-part="{}"][data-key="{}"]'.format
    # as printed until edited; then the weights: ×2 less likely, ×8 more (still summing to 1)
    assert exact_figure(page, "banker", "rtp") == str(sheet.bets[0].figures.rtp)
    page.locator(weight("values", 2)).fill("0.35")
    assert exact_figure(page, "banker", "rtp") == DASH  # the values sum to 0.95
    assert "sum to 0.95, not exactly 1" in page.locator("p.multipliers .error").inner_text()
    page.locator('button[data-action="export"]').click()
    assert "cannot be read" in page.locator("[data-export-status]").inner_text()
    page.locator(weight("values", 8)).fill("1/10")
    page.locator(weight("cards", 1)).fill("0.25")
    page.locator(weight("cards", 5)).fill("0")
    page.locator('input.fee[data-bet="banker"]').fill("12.5%")
    page.locator('input.pays[data-bet="banker"][data-row="0"]').fill("2:1")
    text = exported(page)
    assert 'values = { 2 = "0.35", 3 = "0.3", 4 = "0.15", 5 = "0.1", 8 = "1/10" }' in text
    edited = load_text(text)
    assert edited.decks == 1
    joint = joint_distribution(edited.shoe)
    for bet in ("banker",):
        f = bet_figures(joint, edited.round_bet(bet))
        for figure, value in (
            ("rtp", f.rtp),
            ("house_edge", f.house_edge),
            ("fee", f.fee),
            ("rtp_per_stake", f.rtp_per_stake),
            ("variance", f.variance),
        ):
            assert exact_figure(page, bet, figure) == str(value), (bet, figure)
    assert edited.round_bet("banker").fee == Fraction(1, 8)
    # the products' chart redrawn for the weights set (given the row, six decimals as printed)
    chart = page.locator('figure.chart[data-chart="products"] figcaption').first.inner_text()
    bars = [(f"\u00d7{m}", q) for m, q in f.rows[0].products if q]
    assert f": {bars_text(bars, 6)} Redrawn for the multiplier weights" in chart
    # a negative weight cannot be read: no figure, marked invalid
    page.locator(weight("cards", 5)).fill("-0.05")
    assert page.locator(weight("cards", 5)).get_attribute("aria-invalid") == "true"
    assert exact_figure(page, "banker", "rtp") == DASH
    page.locator('button[data-action="reset"]').click()
    assert exact_figure(page, "banker", "rtp") == str(sheet.bets[0].figures.rtp)


def test_a_peek_bets_decisions_follow_the_edited_pays_and_fee(pages: Pages) -> None:
    table = load_paytable(DATA / "live-peek.toml")
    sheet = build_sheet(table, bet_ids=["banker"], date="2024-01-01", examples=False)
    page = pages.open(render_sheets([sheet], "html"))
    page.locator('input.pays[data-bet="banker"][data-row="0"]').fill("1:1")  # no commission
    page.locator('input.fee[data-bet="banker"]').fill("5%")
    edited = load_text(exported(page))
    f = bet_figures(joint_distribution(edited.shoe), edited.round_bet("banker"))
    assert f.peek is not None and f.peek.paid > 1 + f.fee  # some cells raise now
    for figure, value in (("rtp", f.rtp), ("variance", f.variance), ("paid", f.paid)):
        assert exact_figure(page, "banker", figure) == str(value), figure
    # the peek's figures and every cell's decision and edge, recomputed (report/live.py hooks)
    peek = f.peek
    for figure, value in (
        ("peek.rtp_never_raise", peek.rtp_never_raise),
        ("peek.rtp_always_max", peek.rtp_always_max),
        ("peek.value_of_peeking", peek.value_of_peeking),
        ("peek.expected_stake", peek.paid - peek.fee),
    ):
        assert exact_figure(page, "banker", figure) == str(value), figure
    for j, rule in enumerate(peek.decision_table):
        hook = f'[data-bet="banker"][data-figure="peek.{j}.{{}}"]:not([data-form])'.format
        decisions = page.locator(hook("decision")).all_inner_texts()
        letters = page.locator(hook("letter")).all_inner_texts()
        edges = page.locator(hook("edge").replace(":not([data-form])", '[data-form="exact"]'))
        if letters:  # a rule shown as a chart: its letters, in the chart's order
            letter = {1: "K", 2: "D", 3: "T"}
            assert sorted(letters) == sorted(letter[c.stake] for c in rule.cells)
        else:
            assert decisions == [c.decision for c in rule.cells], j
            assert edges.all_inner_texts() == [exact(c.edge) for c in rule.cells], j
    assert any(c.stake > 1 for rule in peek.decision_table for c in rule.cells)
