"""Charts of the HTML sheets (and so of the PDF): each bet's return distribution as inline SVG
with a text alternative, byte-reproducible, allowed by the page's policy, readable at 1280 px
and in print; in the designer, an edited bet's chart says it shows the printed payouts."""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.paytable import Paytable
from exactodds.figures.metrics import BetFigures, paytable_figures
from exactodds.numbers import percent
from exactodds.report import build_sheets, render_sheets
from exactodds.report.charts import bar_chart_svg, outcome_label
from exactodds.report.document import Table
from tests.browser import PRINTABLE_A4, Pages


def distribution(classic: Paytable, bet_id: str) -> dict[str, Fraction]:
    """Probability of each net result of a bet, summed from its rows (independently of the
    chart code's grouping)."""
    figures = next(f for f in paytable_figures(classic) if f.bet.id == bet_id)
    assert isinstance(figures, BetFigures)
    out: dict[str, Fraction] = {}
    for row in figures.rows:
        if row.probability:
            label = outcome_label(row.net)
            out[label] = out.get(label, Fraction(0)) + row.probability
    return out


def test_every_bet_has_a_chart_with_its_distribution(classic: Paytable) -> None:
    (sheet,) = build_sheets(["classic"], date="2024-06-01")
    html = render_sheets([sheet], "html")
    assert html.count('<figure class="chart" data-chart="return">') == len(classic.bets)
    assert "<script" not in "".join(re.findall(r"<svg.*?</svg>", html, re.S))
    assert render_sheets([sheet], "html") == html  # byte for byte
    pair = distribution(classic, "player_pair")
    assert pair == {"wins 11 to 1": Fraction(31, 415), "loses the stake": Fraction(384, 415)}
    for bet in classic.bets:
        caption = re.search(
            rf"Return distribution of {re.escape(bet.name)} \(net result per unit\): ([^<]*)<",
            html,
        )
        assert caption is not None, bet.id
        for label, p in distribution(classic, bet.id).items():
            assert f"{label}: {percent(p)}" in caption[1], (bet.id, label)
    # Markdown is unchanged: the table beside each chart holds its figures
    assert "<svg" not in render_sheets([sheet], "md")


def test_bars_are_proportional() -> None:
    svg = bar_chart_svg("t", [("a", Fraction(1, 4)), ("b", Fraction(1, 2)), ("c", Fraction(0))])
    widths = [float(w) for w in re.findall(r'<rect [^>]*width="([0-9.]+)"', svg)]
    assert widths[1] == 2 * widths[0] and widths[2] == 1  # an empty bar is a hairline


def test_negative_bars_grow_left_of_a_zero_line() -> None:
    svg = bar_chart_svg("t", [("a", Fraction(3, 100)), ("b", Fraction(-1, 100))])
    rects = re.findall(r'<rect x="([0-9.]+)" [^>]*width="([0-9.]+)"', svg)
    (axis,) = re.findall(r'<line x1="([0-9.]+)"', svg)
    (xa, wa), (xb, wb) = ((float(x), float(w)) for x, w in rects)
    assert float(axis) == xa and xb + wb == float(axis)  # a starts at zero, b ends there
    assert wa == 3 * wb and xb > 0
    assert "-1.0000%" in svg and "3.0000%" in svg


PUBLISHED = tomllib.loads(
    (Path(__file__).parent / "data" / "published_8_decks.toml").read_text(encoding="utf-8")
)


def test_comparison_page_charts_each_bets_edge_across_variants() -> None:
    """Every bet of the default comparison has a chart, a bar per variant; the punto-banco
    Tie 8:1 bars carry docs/rules.md §9's published 8-deck house edges."""
    from exactodds.report.comparison import comparison_document
    from exactodds.report.html import render_html

    doc = comparison_document("2024-06-01", version="9.9")
    html = render_html(doc)
    assert render_html(comparison_document("2024-06-01", version="9.9")) == html
    names = re.findall(r"<figcaption>House edge of (.*?) by variant: ([^<]*)<", html)
    table = doc.blocks[-len(names) - 1]  # the edge table: cells (name, " (", Code(id), ")")
    assert isinstance(table, Table)
    name_of = {row[0][2].text: row[0][0] for row in table.rows}  # type: ignore[index,union-attr]
    assert [name for name, _ in names] == list(name_of.values()) and len(names) >= 5
    captions = dict(names)
    for bet_id, edge in PUBLISHED["house_edge"].items():
        first = captions[name_of[bet_id]].split("; ")[0]
        assert first.startswith("punto-banco rules, Tie 8:1: ")
        assert first.removeprefix("punto-banco rules, Tie 8:1: ").startswith(edge["percent"]), (
            bet_id
        )
    assert "<script" not in html and html.count("<svg") == len(names)


READABLE = """() => [...document.querySelectorAll('figure.chart')].map((f) => {
  const svg = f.querySelector('svg').getBoundingClientRect();
  const texts = [...f.querySelectorAll('svg text')].map((t) => t.getBoundingClientRect());
  return {
    left: svg.left, right: svg.right, width: svg.width,
    smallest: Math.min(...texts.map((t) => t.height)),
    overlap: texts.some((t) => t.right > svg.right + 0.5 || t.left < svg.left - 0.5),
    role: f.querySelector('svg').getAttribute('role'),
    name: f.querySelector('svg > title').textContent,
    caption: f.querySelector('figcaption').innerText,
  };
})"""


@pytest.mark.parametrize(("width", "media"), [(1280, "screen"), (PRINTABLE_A4, "print")])
def test_charts_are_readable_on_screen_and_in_print(width: int, media: str, pages: Pages) -> None:
    (sheet,) = build_sheets(["classic"], date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"), width=width)
    page.emulate_media(media=media)
    charts = page.evaluate(READABLE)
    assert len(charts) == len(sheet.bets)
    viewport = page.evaluate("document.documentElement.clientWidth")
    for chart in charts:
        assert chart["right"] <= viewport and chart["width"] >= 300, chart
        assert chart["smallest"] >= 10 and not chart["overlap"], chart
        assert chart["role"] == "img" and chart["name"].startswith("Return distribution of")
        assert "%" in chart["caption"]


def normalized(nodes: list[Any]) -> list[Any]:
    """Attribute lists with numeric values as floats (JS writes 360 where Python writes 360.0)."""

    def value(text: str) -> str | float:
        try:
            return float(text)
        except ValueError:
            return text

    return [
        [[(a.split("=")[0], value(a.split("=")[1])) for a in attrs], body] for attrs, body in nodes
    ]


def test_an_edited_bets_chart_is_redrawn(pages: Pages) -> None:
    """Player Pair edited to 12:1: its chart shows wins 12 to 1 with P = 31/415 (the pair
    probability, unchanged by the payout) drawn as the Python helper draws it; an unreadable
    payout dims it and says it is as printed; back to 11:1 it is the printed chart again."""
    (sheet,) = build_sheets(["classic"], date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"))
    chart = page.locator("#bet-player_pair ~ figure.chart").first
    printed = chart.inner_html()
    assert "As printed" not in chart.inner_text()
    page.fill('input.pays[data-bet="player_pair"][data-row="0"]', "12:1")
    text = chart.inner_text()
    assert f"wins 12 to 1: {percent(Fraction(31, 415))}" in text and "wins 11 to 1" not in text
    assert "Redrawn for the edited payouts" in text
    assert "stale" not in (chart.get_attribute("class") or "")
    expected = bar_chart_svg(
        "Return distribution of Player Pair (net result per unit)",
        [("wins 12 to 1", Fraction(31, 415)), ("loses the stake", Fraction(384, 415))],
    )
    drawn = page.evaluate(
        """() => [...document.querySelector('#bet-player_pair ~ figure.chart svg')
            .querySelectorAll('rect, text')].map((n) => [[...n.attributes]
            .map((a) => a.name + '=' + a.value).sort(), n.textContent])"""
    )
    python = [
        [sorted(f"{k}={v}" for k, v in re.findall(r'([a-z-]+)="([^"]*)"', attrs)), body]
        for attrs, body in re.findall(r"<(?:rect|text) ([^>]*?)/?>(?:([^<]*)</text>)?", expected)
    ]
    assert normalized(drawn) == normalized(python)  # numbers alike: 360 (JS) is 360.0
    other = page.locator("#bet-tie ~ figure.chart").first
    assert "As printed" not in other.inner_text() and "Redrawn" not in other.inner_text()
    page.fill('input.pays[data-bet="player_pair"][data-row="0"]', "twelve")
    assert "As printed" in chart.inner_text() and "stale" in (chart.get_attribute("class") or "")
    assert "wins 11 to 1" in chart.inner_text()
    page.fill('input.pays[data-bet="player_pair"][data-row="0"]', "11:1")
    assert "As printed" not in chart.inner_text() and chart.inner_html() == printed


def test_comparison_charts_are_readable(pages: Pages) -> None:
    from exactodds.report.comparison import comparison_document
    from exactodds.report.html import render_html

    page = pages.open(render_html(comparison_document("2024-06-01")), width=1280)
    charts = page.evaluate(READABLE)
    assert len(charts) >= 5
    for chart in charts:
        assert chart["width"] >= 300 and chart["smallest"] >= 10 and not chart["overlap"], chart
        assert chart["role"] == "img" and chart["name"].startswith("House edge of")
        assert "punto-banco rules, Tie 9:1" in chart["caption"]


def eor_page(classic: Paytable) -> str:
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.report.eor import render_eor

    result = effect_of_removal(classic.bets, classic.shoe, classic.tableau)
    return render_eor(result, classic.name, "html", "classic.toml SHA-256 x")


def test_eor_page_charts_each_bets_eor_per_rank(classic: Paytable) -> None:
    """The Tie chart's bars for 6 and 8 are the engine's EV on the shoe less one such card
    minus the full shoe's (independently of the batch evaluator)."""
    from exactodds import joint_distribution
    from exactodds.figures.metrics import bet_figures

    html = eor_page(classic)
    assert html.count('<figure class="chart">') == len(classic.bets)
    assert "<script" not in html and eor_page(classic) == html
    assert "8 decks (416 cards)" in html and "classic.toml SHA-256 x" in html
    (caption,) = re.findall(r"<figcaption>Effect of removal on Tie per rank[^:]*: ([^<]*)<", html)
    tie = next(b for b in classic.bets if b.id == "tie")

    def ev(shoe: Any) -> Fraction:
        return bet_figures(joint_distribution(shoe, classic.tableau), tie).ev

    base = ev(classic.shoe)
    for rank in ("6", "8"):
        change = ev(classic.shoe.remove(rank + "c")) - base
        assert f"{rank}: {percent(change, 5)}" in caption.split("; ")
    assert percent(ev(classic.shoe.remove("6c")) - base, 5).startswith("-")  # a bar left of 0


def test_eor_charts_are_readable(classic: Paytable, pages: Pages) -> None:
    page = pages.open(eor_page(classic), width=1280)
    charts = page.evaluate(READABLE)
    assert len(charts) == len(classic.bets)
    for chart in charts:
        assert chart["width"] >= 300 and chart["smallest"] >= 10 and not chart["overlap"], chart
        assert chart["role"] == "img" and chart["name"].startswith("Effect of removal on")


def test_cli_eor_html(cli: Any) -> None:
    code, out, _ = cli(["eor", "classic", "--format", "html"])
    assert code == 0 and out.startswith("<!DOCTYPE html>") and "SHA-256" in out
