"""A progressive bet on the sheets: its meters, jackpot rows and the return against the meter,
as document blocks (Markdown, HTML, PDF) and as the bet's ``progressive`` JSON object.

The figures themselves are :class:`~exactodds.bets.progressive.ProgressiveFigures`; the scalar ones
are also rows of the one figure table (:mod:`exactodds.report.figures`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from exactodds.bets.payout import format_number
from exactodds.bets.progressive import LONG_RUN_MODEL, ProgressiveFigures, amount_text
from exactodds.numbers import exact, fixed, one_in, percent
from exactodds.report.document import Block, Chart, Para, Strong, Table
from exactodds.report.sheet import BetSheet

__all__ = ["meter_points", "progressive_blocks", "progressive_json"]

_POINTS = 6
"""Meter values of the return-against-meter table and chart, besides the break-even meter."""


def _amount(x: Fraction | None) -> str:
    """A currency amount to the cent, grouped (``83,168.48``), or "—"."""
    return "—" if x is None else amount_text(x)


def _nice_step(span: Fraction) -> Fraction:
    """The smallest of 1, 2, 5 × 10^k at least ``span``.

    >>> _nice_step(Fraction(14633)), _nice_step(Fraction(3, 10))
    (Fraction(20000, 1), Fraction(1, 2))
    """
    step = Fraction(1)
    while step > span:
        step /= 10
    while True:
        for m in (1, 2, 5):
            if step * m >= span:
                return step * m
        step *= 10


def meter_points(p: ProgressiveFigures) -> list[Fraction]:
    """The top meter values the sheet shows the return at: from the reset in even steps past
    the break-even meter (or up to twice the reset), the break-even meter itself, and the cap.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.figures.metrics import bet_figures
    >>> from exactodds.deal.engine import joint_distribution
    >>> table = load_paytable("dragon-dragon")
    >>> f = bet_figures(joint_distribution(table.shoe), table.bet("dragon_dragon"))
    >>> from exactodds.figures.progressive import progressive_figures
    >>> [format_number(m) for m in meter_points(progressive_figures(f))][:3]
    ['10000', '30000', '50000']
    """
    top = p.meters[0]
    even = p.break_even_meter
    end = even if even is not None and even > top.reset else 2 * top.reset
    step = _nice_step((end - top.reset) / (_POINTS - 1))
    points = {top.reset + k * step for k in range(_POINTS)}
    if top.cap is not None:
        points = {m for m in points if m <= top.cap} | {top.cap}
    if even is not None and even >= top.reset and (top.cap is None or even <= top.cap):
        points.add(even)
    return sorted(points)


def progressive_blocks(b: BetSheet) -> list[Block]:
    """The bet's meters, jackpot rows and return against the top meter (nothing for a bet
    with fixed pays)."""
    p = b.progressive
    if p is None:
        return []
    name = b.bet.name
    meters = tuple(
        (
            m.name,
            _amount(m.reset),
            f"{format_number(m.increment * 100)}%",
            f"{format_number(m.reserve * 100)}%",
            _amount(m.cap) if m.cap is not None else "no cap",
            fixed(p.slope(m.name), 10),
            _amount(p.break_even(m.name)),
            one_in(p.full_probability(m.name)),
            percent(p.reset_funding(m.name), 4),
        )
        for m in p.meters
    )
    rows = tuple(
        (
            j.event,
            j.level,
            f"{format_number(j.share * 100)}%",
            fixed(j.probability, 10),
            one_in(j.probability),
        )
        for j in p.jackpots
    )
    points = meter_points(p)
    even = p.break_even_meter
    curve = tuple(
        (
            _amount(m)
            + (" (reset)" if m == p.meters[0].reset else "")
            + (" (break-even)" if m == even else ""),
            percent(p.rtp_at(m), 4),
        )
        for m in points
    )
    return [
        Para(
            (
                Strong(f"{name}: progressive."),
                f" A fixed wager of {_amount(p.stake)}; a jackpot row returns its share of the "
                "meter for the stake. The figures above are at the reset meter; the return is "
                f"linear in the meter: RTP = {percent(p.rtp_fixed, 4)} + "
                f"{fixed(p.rtp_per_meter, 10)} × meter.",
            )
        ),
        Table(
            (
                "Meter",
                "Reset",
                "Increment",
                "Reserve",
                "Cap",
                "RTP per unit",
                "Break-even",
                "100% win",
                "Resets cost",
            ),
            meters,
            "lrrrrrrrr",
            caption="Increment and reserve: shares of each wager. RTP per unit: the return "
            "gained per currency unit on the meter. Break-even: the meter at which the RTP is "
            "100% (the other meters at their reset). 100% win: odds per round of a row paying "
            "all of the meter, which then resets. Resets cost: the share of each wager that "
            "pays for the resets in the long run.",
        ),
        Table(
            ("Jackpot row", "Meter", "Share", "Probability", "Odds"),
            rows,
            "llrrr",
            caption="Each row paying a jackpot: its share of the meter and its probability.",
        ),
        Table(
            (f"{p.meters[0].name} meter", "RTP"),
            curve,
            "rr",
            caption=f"Return of {name} against its {p.meters[0].name} meter (exact, rounded "
            "for display).",
        ),
        Chart(
            f"RTP of {name} against the {p.meters[0].name} meter",
            tuple((f"meter {_amount(m)}", p.rtp_at(m)) for m in points),
            key="meter",
        ),
        Para(f"Long-run RTP {percent(p.long_run_rtp, 4)}: {LONG_RUN_MODEL}."),
        Table(
            ("Figure", "Exact value"),
            tuple(
                (label, "—" if x is None else exact(x))
                for label, x in (
                    ("RTP of the fixed pays", p.rtp_fixed),
                    ("RTP per unit of the meter", p.rtp_per_meter),
                    ("RTP at the reset meter", p.rtp_at_reset),
                    ("Break-even meter", p.break_even_meter),
                    ("Probability of the jackpot", p.jackpot_probability),
                    ("Long-run RTP", p.long_run_rtp),
                )
            ),
            "ll",
            caption="The progressive figures as exact fractions. The designer page does not "
            "recompute them when a payout is edited.",
            css="exact",
        ),
    ]


def progressive_json(p: ProgressiveFigures) -> dict[str, Any]:
    """The bet's ``progressive`` object: exact values as ``"p/q"``, the model in words.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> sheet = build_sheet(load_paytable("dragon-dragon"), date="2024-01-01")
    >>> data = progressive_json(sheet.bets[0].progressive)
    >>> data["stake"], data["meters"][0]["reset"], data["jackpot_rows"][1]["share"]
    ('1/1', '10000/1', '1/10')
    """

    def opt(x: Fraction | None) -> str | None:
        return None if x is None else exact(x)

    return {
        "stake": exact(p.stake),
        "rtp_fixed": exact(p.rtp_fixed),
        "rtp_per_meter": exact(p.rtp_per_meter),
        "rtp_at_reset": exact(p.rtp_at_reset),
        "break_even_meter": opt(p.break_even_meter),
        "jackpot_probability": exact(p.jackpot_probability),
        "jackpot_one_in": opt(p.jackpot_rounds),
        "jackpot_rounds": opt(p.jackpot_rounds),
        "long_run_rtp": exact(p.long_run_rtp),
        "long_run_model": LONG_RUN_MODEL,
        "meters": [
            {
                "name": m.name,
                "reset": exact(m.reset),
                "increment": exact(m.increment),
                "reserve": exact(m.reserve),
                "cap": opt(m.cap),
                "rtp_per_meter": exact(p.slope(m.name)),
                "break_even_meter": opt(p.break_even(m.name)),
                "jackpot_probability": exact(p.full_probability(m.name)),
                "reset_funding": exact(p.reset_funding(m.name)),
            }
            for m in p.meters
        ],
        "jackpot_rows": [
            {
                "event": j.event,
                "meter": j.level,
                "share": exact(j.share),
                "probability": exact(j.probability),
                "one_in": opt(j.one_in),
            }
            for j in p.jackpots
        ],
        "rtp_by_meter": [{"meter": exact(m), "rtp": exact(p.rtp_at(m))} for m in meter_points(p)],
    }
