"""Charts of the sheets as small hand-written SVG: horizontal bars with their values written
beside them, inline in the HTML page (and so in the PDF printed from it).

Hand-written rather than drawn by matplotlib: a bar chart is a few rectangles and labels; the
SVG has no script, no style element (presentation attributes only, so the page's
Content-Security-Policy allows it), no ids or timestamps that change between runs (byte for
byte reproducible), and costs no import: matplotlib would add about a second of start-up, a
dependency of the base install, and SVG ids and metadata to pin down.

>>> bars = [("wins 8 to 1", Fraction(1, 10)), ("loses", Fraction(9, 10))]
>>> svg = bar_chart_svg("Return of Tie", bars)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), "<script" in svg, svg.count("<rect")
(True, False, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape

from exactodds.bets.payout import format_number
from exactodds.numbers import percent

__all__ = ["BAR_HEIGHT", "WIDTH", "bar_chart_svg", "bars_text", "return_bars"]

WIDTH = 640
"""Width of a chart in CSS pixels (it shrinks with the page: ``max-width: 100%``)."""
BAR_HEIGHT = 22
LABEL_WIDTH = 190
VALUE_WIDTH = 90
FONT = 'font-family="system-ui, sans-serif" font-size="13"'


def outcome_label(net: Fraction) -> str:
    """How a net result per unit is named on a chart.

    >>> outcome_label(Fraction(11)), outcome_label(Fraction(0)), outcome_label(Fraction(-1))
    ('wins 11 to 1', 'push', 'loses the stake')
    """
    if net > 0:
        return f"wins {format_number(net)} to 1"
    if net == 0:
        return "push"
    if net == -1:
        return "loses the stake"
    return f"loses {format_number(-net)} of the stake"


def return_bars(rows: Sequence[tuple[Fraction, Fraction]]) -> list[tuple[str, Fraction]]:
    """The return distribution: (net, probability) rows grouped by net result, from the
    largest win down, outcomes that cannot happen left out.

    >>> return_bars([(Fraction(1), Fraction(1, 4)), (Fraction(-1), Fraction(1, 2)),
    ...              (Fraction(1), Fraction(1, 4)), (Fraction(30), Fraction(0))])
    [('wins 1 to 1', Fraction(1, 2)), ('loses the stake', Fraction(1, 2))]
    """
    by_net: dict[Fraction, Fraction] = {}
    for net, probability in rows:
        if probability:
            by_net[net] = by_net.get(net, Fraction(0)) + probability
    return [(outcome_label(net), p) for net, p in sorted(by_net.items(), reverse=True)]


def bars_text(bars: Sequence[tuple[str, Fraction]], places: int = 4) -> str:
    """The chart's data as one sentence: its text alternative (``places``: decimals of the
    percentages)."""
    return "; ".join(f"{label}: {percent(value, places)}" for label, value in bars) + "."


_CHAR_WIDTH = 7.2
"""Pixels of one character of a label at the chart's font, about (system-ui, 13 px)."""

MAX_LABEL_WIDTH = 420
"""The widest label column: longer labels (a comparison of four variant axes) widen the chart
up to this, then are cut off by the SVG's edge of the column."""


def _label_width(labels: Iterable[str]) -> int:
    """The label column: :data:`LABEL_WIDTH`, or wider for labels that would not fit in it.

    >>> _label_width(["punto-banco, Tie 8:1"]), _label_width(["punto-banco 6d Tie 8:1 commission"])
    (190, 254)
    """
    longest = max((len(label) for label in labels), default=0)
    return max(LABEL_WIDTH, min(MAX_LABEL_WIDTH, 16 + math.ceil(_CHAR_WIDTH * longest)))


def bar_chart_svg(title: str, bars: Sequence[tuple[str, Fraction]], places: int = 4) -> str:
    """An SVG bar chart of values shown as percentages, bars scaled to the widest;
    ``title`` and the data as text are its accessible name and description.

    Values below zero (a player-favourable house edge) are drawn left of a zero line.

    >>> svg = bar_chart_svg("House edge", [("a", Fraction(1, 100)), ("b", Fraction(-1, 200))])
    >>> svg.count("<rect"), svg.count("<line")
    (2, 1)
    """
    low = min((value for _, value in bars), default=Fraction(0))
    if low >= 0:
        low = Fraction(0)
    top = max((value for _, value in bars), default=Fraction(0))
    top = max(top, Fraction(0))
    extent = (top - low) or Fraction(1)
    span = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    label_width = _label_width(label for label, _ in bars)
    width = WIDTH + label_width - LABEL_WIDTH
    height = BAR_HEIGHT * len(bars) + 8
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(bars_text(bars, places))}</desc>",
    ]
    zero = 0.0 if low == 0 else round(float(-low / extent * span), 1)
    for k, (label, value) in enumerate(bars):
        y = 4 + k * BAR_HEIGHT
        length = round(float(abs(value) / extent * span), 1)  # pixels: one decimal everywhere
        middle = y + BAR_HEIGHT // 2 + 4
        if low == 0:  # the original layout, byte for byte
            x: float | int = label_width
            after = label_width + length
        else:
            x = round(label_width + zero - (length if value < 0 else 0), 1)
            after = round(label_width + zero + (0 if value < 0 else length), 1)
        out += [
            f'<text x="{label_width - 8}" y="{middle}" text-anchor="end" fill="#1b1f24" {FONT}>'
            f"{escape(label)}</text>",
            f'<rect x="{x}" y="{y + 3}" width="{max(length, 1.0)}" '
            f'height="{BAR_HEIGHT - 6}" fill="{"#b35900" if value < 0 else "#2f6fb3"}"/>',
            f'<text x="{after + 6}" y="{middle}" fill="#1b1f24" {FONT}>'
            f"{percent(value, places)}</text>",
        ]
    if low < 0:
        axis = round(label_width + zero, 1)
        out.append(
            f'<line x1="{axis}" y1="2" x2="{axis}" y2="{height - 2}" stroke="#57606a" '
            'stroke-width="1"/>'
        )
    out.append("</svg>")
    return "".join(out)
