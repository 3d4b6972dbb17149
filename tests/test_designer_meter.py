"""The designer page sets a progressive bet's meters (issue 27): one Chromium page of a bet with
two named meters; the page's exact RTP at the meters typed in equals the sum of probability x
net with each jackpot row paying share x meter / stake − 1, and ``exactodds.bets.progressive``'s
linear function of the meters. Then its charts (issue 32): on ``dragon-dragon`` a payout edit
redraws the return chart in its place and leaves the RTP-against-meter chart as printed (marked
so); a meter set redraws both, each caption equal to the figures Python computes at that meter;
a meter below its reset or above its cap is refused."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from exactodds.bets.loader import load_paytable, parse_paytable
from exactodds.bets.paytable import Bet
from exactodds.bets.progressive import amount_text, bet_at_meters
from exactodds.deal.engine import joint_distribution
from exactodds.figures.metrics import bet_figures
from exactodds.figures.progressive import progressive_figures
from exactodds.numbers import percent
from exactodds.report import build_sheet, render_sheets
from exactodds.report.charts import bars_text, return_bars
from exactodds.report.progressive import meter_points
from tests.browser import Pages

TABLE = {
    "name": "Two meters",
    "decks": 8,
    "bets": {
        "x": {
            "name": "Pairs progressive",
            "stake": 5,
            "progressive": {
                "major": {"reset": 100, "increment": "2%"},
                "mini": {"reset": "50.50", "increment": "1%", "cap": 100},
            },
            "rows": [
                {"when": "player.pair and banker.pair", "pays": "major jackpot", "event": "Both"},
                {"when": "player.pair", "pays": "50% of mini jackpot", "event": "Player"},
                {"when": "banker.pair", "pays": "3 for 1", "event": "Banker"},
                {"when": "otherwise", "pays": "lose", "event": "None"},
            ],
        }
    },
}


@pytest.fixture
def page(pages: Pages) -> Any:
    table, problems = parse_paytable(TABLE)
    assert table is not None, problems
    return pages.open(render_sheets([build_sheet(table, date="2024-06-01")], "html"))


def test_setting_the_meters_recomputes_the_rtp_exactly(page: Any) -> None:
    table, _ = parse_paytable(TABLE)
    assert table is not None
    f = bet_figures(joint_distribution(table.shoe), table.round_bet("x"))
    p = progressive_figures(f)
    assert p is not None
    both, player, banker = (r.probability for r in f.rows[:3])

    def by_hand(major: Fraction, mini: Fraction, mini_share: Fraction) -> Fraction:
        """RTP per unit: each row's probability × its return for 1 (stake 5)."""
        return both * major / 5 + player * mini_share * mini / 5 + banker * 3

    rtp = page.locator('[data-bet="x"][data-figure="rtp"][data-form="exact"]').first
    major = page.locator('input.meter[data-bet="x"][data-meter="major"]')
    mini = page.locator('input.meter[data-bet="x"][data-meter="mini"]')
    assert (major.input_value(), mini.input_value()) == ("100", "50.5")
    assert (
        Fraction(rtp.inner_text())
        == p.rtp_at_reset
        == by_hand(Fraction(100), Fraction(101, 2), Fraction(1, 2))
    )

    major.fill("2,500.25")
    mini.fill("80")
    at = by_hand(Fraction(10001, 4), Fraction(80), Fraction(1, 2))
    assert Fraction(rtp.inner_text()) == at
    assert at == p.rtp_fixed + p.slope("major") * Fraction(10001, 4) + p.slope("mini") * 80
    assert "Edited on this page" in page.locator("#designer-edited").inner_text()
    chart = page.locator('figure.chart[data-chart="meter"] figcaption').inner_text()
    title = "RTP of Pairs progressive against the major meter (the other meters as set): "
    assert chart.startswith(title) and f"; meter 2,500.25 (set): {percent(at, 4)}." in chart

    # a row typed as a jackpot form pays that share of the meter set
    page.locator('input.pays[data-bet="x"][data-row="1"]').fill("100% of mini jackpot")
    assert Fraction(rtp.inner_text()) == by_hand(Fraction(10001, 4), Fraction(80), Fraction(1))

    # the top meter at the break-even (mini at its reset): the RTP is exactly 1
    page.locator('button[data-action="reset-bet"][data-bet="x"]').click()
    even = p.break_even_meter
    assert even is not None and even.denominator != 1  # a decimal close above it pays more
    assert even > 100  # above the reset: a meter the bet can show
    major.fill(f"{int(even) + 1}")
    assert 1 < Fraction(rtp.inner_text()) == p.rtp_at(Fraction(int(even) + 1))

    major.fill("12x")
    assert major.get_attribute("aria-invalid") == "true" and rtp.inner_text() == "\u2014"
    assert "major meter: cannot read" in page.locator(".designer-bet .error").inner_text()
    major.fill("99.99")  # below the reset: refused
    assert 'major meter "99.99": below its reset of 100' in page.locator(".error").inner_text()
    major.fill("1000")
    mini.fill("100.01")  # above the cap: refused, no figure computed from it
    assert mini.get_attribute("aria-invalid") == "true" and rtp.inner_text() == "\u2014"
    assert 'mini meter "100.01": above its cap of 100' in page.locator(".error").inner_text()
    mini.fill("100")
    assert Fraction(rtp.inner_text()) == by_hand(Fraction(1000), Fraction(100), Fraction(1, 2))
    page.locator('button[data-action="reset"]').click()
    assert Fraction(rtp.inner_text()) == p.rtp_at_reset
    assert page.locator("#designer-edited").count() == 0


def test_meter_and_payout_edits_redraw_each_chart_in_its_place(pages: Pages) -> None:
    table = load_paytable("dragon-dragon")
    bet = table.round_bet("dragon_dragon")
    sheet = build_sheet(table, date="2024-06-01", examples=False)
    page = pages.open(render_sheets([sheet], "html"))
    joint = joint_distribution(table.shoe, table.tableau)
    p = progressive_figures(bet_figures(joint, bet))
    assert p is not None

    def returns(b: Bet, meter: Fraction | None = None) -> str:
        """The return chart's caption for ``b`` with the meter at ``meter`` (its reset)."""
        f = bet_figures(joint, bet_at_meters(b, {} if meter is None else {"jackpot": meter}))
        bars = return_bars([(row.net, row.probability) for row in f.rows])
        return f"Return distribution of {b.name} (net result per unit): {bars_text(bars)}"

    def caption(key: str) -> str:
        return str(page.locator(f'figure.chart[data-chart="{key}"] figcaption').inner_text())

    def stale(key: str) -> bool:
        css = page.locator(f'figure.chart[data-chart="{key}"]').get_attribute("class")
        return "stale" in str(css).split()

    printed = caption("meter")
    title = "RTP of Dragon Dragon against the jackpot meter"
    assert printed.startswith(title) and caption("return") == returns(bet)
    rtp = page.locator('[data-bet="dragon_dragon"][data-figure="rtp"][data-form="exact"]').first
    meter = page.locator('input.meter[data-bet="dragon_dragon"][data-meter="jackpot"]')

    # a payout edit: the return chart redrawn, the meter chart as printed and marked so
    page.locator('input.pays[data-bet="dragon_dragon"][data-row="2"]').fill("300 for 1")
    edited = table.with_payout("dragon_dragon", 2, "300 for 1").round_bet("dragon_dragon")
    assert (
        caption("return")
        == returns(edited) + " Redrawn for the payouts and meters set on this page."
    )
    assert caption("meter").startswith(printed + " As printed: for the sheet's payouts")
    assert stale("meter") and not stale("return")
    assert page.locator("figure.chart").count() == 2

    # a meter set: both redrawn, at that meter, as Python computes them
    page.locator('button[data-action="reset-bet"][data-bet="dragon_dragon"]').click()
    assert caption("meter") == printed and caption("return") == returns(bet)
    meter.fill("20,000.50")
    at = Fraction(40001, 2)
    points = sorted([*meter_points(p), at])
    bars = [
        (f"meter {amount_text(m)}" + (" (set)" if m == at else ""), p.rtp_at(m)) for m in points
    ]
    assert (
        caption("meter") == f"{title}: {bars_text(bars)} Redrawn for the meters set on this page."
    )
    # by hand from the sheet's line "RTP = 31.8146% + 0.0000081985 × meter": 48.2119%
    assert "meter 20,000.50 (set): 48.2119%" in caption("meter")
    assert (
        caption("return")
        == returns(bet, at) + " Redrawn for the payouts and meters set on this page."
    )
    assert "wins 19999.5 to 1" in caption("return")
    assert Fraction(rtp.inner_text()) == p.rtp_at(at)
    svg = page.locator('figure.chart[data-chart="meter"] svg')
    assert svg.locator("rect").count() == len(bars) and not stale("meter")

    # below the reset: refused, nothing computed from it, the charts as printed and marked
    meter.fill("9,999.99")
    assert meter.get_attribute("aria-invalid") == "true" and rtp.inner_text() == "\u2014"
    error = page.locator(".designer-bet .error").inner_text()
    assert 'jackpot meter "9,999.99": below its reset of 10000' in error
    assert "Row" not in error  # the meter is wrong, not its jackpot rows' payouts
    assert page.locator('input.pays[aria-invalid="true"]').count() == 0
    assert stale("meter") and stale("return")
    assert caption("meter").startswith(printed + " As printed:")
