"""The designer page edits a streak bet (issue 27): one Chromium page of ``banker-streak``. Its
printed figures recompute to the same digits; with one payout edited every figure the page shows
for the bet equals the figures of :meth:`Paytable.with_payout` (checked against p^k (1 − p)
summed here by hand) and the sheet ``exactodds report`` makes of the exported file; the one-shoe
figures, a simulation, are marked as not recomputed rather than left as they were printed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import Notation
from exactodds.bets.paytable_toml import load_text
from exactodds.bets.streak import condition_probability, streak_figures
from exactodds.numbers import percent, signed
from exactodds.report import build_sheet, render_sheets
from exactodds.report.figures import FIGURE
from tests.browser import Pages, chromium

BET = "banker_streak"
FIELDS = """(bet) => [...document.querySelectorAll(`[data-bet="${bet}"][data-figure]`)].map(
  (n) => [n.dataset.figure, n.dataset.row ?? '', n.dataset.form ?? '', n.textContent,
          n.classList.contains('stale')])"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pages]:
    with pytest.MonkeyPatch.context() as patch, chromium() as browser:
        patch.setattr("exactodds.report.streak.SHOES", 30)  # the simulation is not checked here
        opened = Pages(browser, tmp_path_factory.mktemp("streak"))
        yield opened
        opened.close()
        assert opened.problems == []


def fields(page: Any, bet: str = BET) -> list[list[Any]]:
    result: list[list[Any]] = page.evaluate(FIELDS, bet)
    return result


def test_a_streak_bet_is_edited_exported_and_read_back(pages: Pages) -> None:
    table = load_paytable("banker-streak")
    sheet = build_sheet(table, date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"))
    printed, other = fields(page), fields(page, "banker_streak_2")
    before = page.evaluate("document.body.innerText")
    page.evaluate(  # every payout recomputed as printed: not a character changes
        "for (const i of document.querySelectorAll('input.pays')) "
        "i.dispatchEvent(new Event('input', {bubbles: true}))"
    )
    assert page.evaluate("document.body.innerText") == before

    page.fill(f'input.pays[data-bet="{BET}"][data-row="1"]', "200 to 1")  # the 9-streak
    edited = table.with_payout(BET, 1, "200 to 1")
    # by hand: the 9-streak has probability p^9 (1 − p), now paying 200 instead of 150
    p = condition_probability(table.streaks[0].condition, table.shoe, table.tableau)
    g = streak_figures(edited.streaks[0], edited.shoe, edited.tableau)
    f = streak_figures(table.streaks[0], table.shoe, table.tableau)
    assert g.ev == f.ev + 50 * p**9 * (1 - p) and g.probabilities[1] == p**9 * (1 - p)
    shown = {(k, r): text for k, r, _, text, _ in fields(page) if not k.startswith("one_shoe")}
    python = {
        ("rtp", ""): percent(g.rtp, 4),
        ("house_edge", ""): percent(g.house_edge, 4),
        ("hit_frequency", ""): percent(g.hit_frequency, 4),
        ("edge_per_round", ""): percent(g.edge_per_round, 4),
        ("ev", ""): signed(g.ev),
        **{
            ("return", str(k)): signed(q * row.pays.net)
            for k, (row, q) in enumerate(zip(edited.streaks[0].rows, g.probabilities, strict=True))
        },
        # its Summary row (issue 32), formatted as a round bet's, and its Paytable rows
        **{
            (key, ""): FIGURE[key].text_of(getattr(g, FIGURE[key].quantity), in_summary=True)
            for key in ("house_edge_resolved", "std_dev", "largest_win", "largest_win_probability")
        },
        ("player_favourable", ""): "",  # the sheet flags no streak bet
        **{
            (form, str(k)): text
            for k, row in enumerate(edited.streaks[0].rows)
            for form, text in (
                ("pays", row.pays.stated(Notation.BOTH)),
                ("to_one", row.pays.to_one()),
                ("for_one", row.pays.for_one()),
            )
        },
    }
    assert shown == python
    simulated = [row for row in fields(page) if row[0].startswith("one_shoe.")]
    assert {r[0] for r in simulated} >= {"one_shoe.rtp", "one_shoe.range", "one_shoe.caption"}
    assert all(stale for *_, stale in simulated)
    assert {text for k, _, _, text, _ in simulated if k != "one_shoe.caption"} == {"\u2014"}
    caption = next(text for k, _, _, text, _ in simulated if k == "one_shoe.caption")
    assert "not recomputed" in caption
    assert f"({BET})" in page.locator("#designer-edited").inner_text()
    assert fields(page, "banker_streak_2") == other  # the other streak bet is as printed

    page.click('button[data-action="export"]')
    text = page.locator("textarea[data-export]").input_value()
    back = load_text(text)
    assert back.streaks == edited.streaks and back.bets == table.bets
    assert back.description == edited.description
    source = Path(table.path or "").read_text(encoding="utf-8")
    changed = [a for a, b in zip(source.splitlines(), text.splitlines()[2:], strict=True) if a != b]
    assert [line.split("=")[0] for line in changed] == ["description ", "  { when "]
    # the exported file's sheet shows the page's figures (its simulation aside)
    again = pages.open(render_sheets([build_sheet(back, date="2024-06-01")], "html"))
    assert [r for r in fields(again) if not r[0].startswith("one_shoe.")] == [
        r for r in fields(page) if not r[0].startswith("one_shoe.")
    ]

    page.click(f'button[data-action="reset-bet"][data-bet="{BET}"]')
    assert fields(page) == printed
