"""The designer page sets a progressive bet's meters (issue 27): one Chromium page of a bet with
two named meters; the page's exact RTP at the meters typed in equals the sum of probability x
net with each jackpot row paying share x meter / stake − 1, and ``exactodds.bets.progressive``'s
linear function of the meters."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.loader import parse_paytable
from exactodds.deal.engine import joint_distribution
from exactodds.figures.metrics import bet_figures
from exactodds.figures.progressive import progressive_figures
from exactodds.report import build_sheet, render_sheets
from tests.browser import Pages, chromium

TABLE = {
    "name": "Two meters",
    "decks": 8,
    "bets": {
        "x": {
            "name": "Pairs progressive",
            "stake": 5,
            "progressive": {
                "major": {"reset": 1000, "increment": "2%"},
                "mini": {"reset": "50.50", "increment": "1%"},
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
def page(tmp_path: Path) -> Iterator[Any]:
    table, problems = parse_paytable(TABLE)
    assert table is not None, problems
    with chromium() as browser:
        pages = Pages(browser, tmp_path)
        yield pages.open(render_sheets([build_sheet(table, date="2024-06-01")], "html"))
        pages.close()
        assert pages.problems == []


def test_setting_the_meters_recomputes_the_rtp_exactly(page: Any) -> None:
    table, _ = parse_paytable(TABLE)
    assert table is not None
    f = bet_figures(joint_distribution(table.shoe), table.bet("x"))
    p = progressive_figures(f)
    assert p is not None
    both, player, banker = (r.probability for r in f.rows[:3])

    def by_hand(major: Fraction, mini: Fraction, mini_share: Fraction) -> Fraction:
        """RTP per unit: each row's probability × its return for 1 (stake 5)."""
        return both * major / 5 + player * mini_share * mini / 5 + banker * 3

    rtp = page.locator('[data-bet="x"][data-figure="rtp"][data-form="exact"]').first
    major = page.locator('input.meter[data-bet="x"][data-meter="major"]')
    mini = page.locator('input.meter[data-bet="x"][data-meter="mini"]')
    assert (major.input_value(), mini.input_value()) == ("1000", "50.5")
    assert (
        Fraction(rtp.inner_text())
        == p.rtp_at_reset
        == by_hand(Fraction(1000), Fraction(101, 2), Fraction(1, 2))
    )

    major.fill("2,500.25")
    mini.fill("80")
    at = by_hand(Fraction(10001, 4), Fraction(80), Fraction(1, 2))
    assert Fraction(rtp.inner_text()) == at
    assert at == p.rtp_fixed + p.slope("major") * Fraction(10001, 4) + p.slope("mini") * 80
    assert "Edited on this page" in page.locator("#designer-edited").inner_text()

    # a row typed as a jackpot form pays that share of the meter set
    page.locator('input.pays[data-bet="x"][data-row="1"]').fill("100% of mini jackpot")
    assert Fraction(rtp.inner_text()) == by_hand(Fraction(10001, 4), Fraction(80), Fraction(1))

    # the top meter at the break-even (mini at its reset): the RTP is exactly 1
    page.locator('button[data-action="reset-bet"][data-bet="x"]').click()
    even = p.break_even_meter
    assert even is not None and even.denominator != 1  # a decimal close above it pays more
    major.fill(f"{int(even) + 1}")
    assert 1 < Fraction(rtp.inner_text()) == p.rtp_at(Fraction(int(even) + 1))

    major.fill("12x")
    assert major.get_attribute("aria-invalid") == "true" and rtp.inner_text() == "\u2014"
    assert "major meter: cannot read" in page.locator(".designer-bet .error").inner_text()
    page.locator('button[data-action="reset"]').click()
    assert Fraction(rtp.inner_text()) == p.rtp_at_reset
    assert page.locator("#designer-edited").count() == 0
