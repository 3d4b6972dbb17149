"""A session's figures as text, Markdown, JSON, CSV or an HTML page with a chart of the
distribution. JSON and CSV carry exact values as ``p/q``; a bounded figure as its two bounds
(decimals rounded outward: the lower one down, the upper one up).

>>> from exactodds.session import session
>>> data = session_data(session("classic", "tie", 3))
>>> data["exact"], data["distribution"][-1]["net"], len(data["distribution"])  # 0 to 3 Ties
(True, '24/1', 4)
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from fractions import Fraction
from functools import cache
from html import escape
from typing import TYPE_CHECKING, Any

from exactodds.bets.payout import format_number
from exactodds.numbers import exact, fixed, percent, sqrt_fixed
from exactodds.session.distribution import INDEPENDENT_NOTE, Range

if TYPE_CHECKING:
    from exactodds.report.document import Block
    from exactodds.session.result import Session

__all__ = [
    "EXACT_DISTRIBUTION_DIGITS",
    "FORMATS",
    "distribution_exact",
    "flat",
    "net_text",
    "outward",
    "render_session",
    "session_blocks",
    "session_data",
    "shown",
]

FORMATS = ("text", "md", "json", "csv", "html")
"""Output formats of ``exactodds session``."""

_LOG10_2 = math.log10(2)


def outward(numerator: int, denominator: int, digits: int, up: bool) -> str:
    """numerator/denominator (≥ 0) to ``digits`` significant digits in scientific notation,
    rounded down (or ``up``): a bound that still holds.

    >>> outward(1, 3, 5, False), outward(1, 3, 5, True), outward(0, 1, 5, True)
    ('3.3333e-1', '3.3334e-1', '0')
    """
    if numerator == 0:
        return "0"
    numerator, denominator = _shortened(numerator, denominator, digits, up)
    t = math.floor((numerator.bit_length() - denominator.bit_length()) * _LOG10_2)
    while True:
        shift = digits - 1 - t
        n, d = (
            (numerator * 10**shift, denominator)
            if shift >= 0
            else (
                numerator,
                denominator * 10**-shift,
            )
        )
        q, r = divmod(n, d)
        if q >= 10**digits:
            t += 1
        elif q < 10 ** (digits - 1):
            t -= 1
        else:
            break
    if up and r:
        q += 1
        if q == 10**digits:
            q //= 10
            t += 1
    text = str(q)
    return f"{text[0]}.{text[1:]}e{t}" if digits > 1 else f"{text}e{t}"


def _shortened(n: int, d: int, digits: int, up: bool) -> tuple[int, int]:
    """A fraction of short integers beyond n/d in the direction of rounding (up: not below it,
    else not above it), within a relative 2**-(4·digits): the ends of an exact fraction of
    thousands of digits in microseconds."""
    keep = 4 * digits + 32
    a, b = max(0, n.bit_length() - keep), max(0, d.bit_length() - keep)
    if not a and not b:
        return n, d
    if up:
        n, d = -((-n) >> a), d >> b
    else:
        n, d = n >> a, -((-d) >> b)
    return (n << (a - b), d) if a >= b else (n, d << (b - a))


@cache
def _ten(power: int) -> int:
    """10**power, computed once per power."""
    value: int = 10**power
    return value


def _binary_outward(mantissa: int, exponent: int, digits: int, up: bool) -> str:
    """mantissa · 2**exponent as :func:`outward` writes it, by shifts and cached powers of ten
    (the far tails of a long session have binary exponents of −10,000 and more)."""
    if exponent >= 0 or mantissa == 0:
        return outward(mantissa << max(exponent, 0), 1, digits, up)
    t = math.floor((mantissa.bit_length() + exponent) * _LOG10_2)
    while True:
        shift = digits - 1 - t  # q = floor(mantissa · 10**shift / 2**-exponent)
        if shift >= 0:
            scaled = mantissa * _ten(shift)
            q = scaled >> -exponent
            inexact = scaled != q << -exponent
        else:
            q, r = divmod(mantissa, _ten(-shift) << -exponent)
            inexact = bool(r)
        if q >= _ten(digits):
            t += 1
        elif q < _ten(digits - 1):
            t -= 1
        else:
            break
    if up and inexact:
        q += 1
        if q == _ten(digits):
            q //= 10
            t += 1
    text = str(q)
    return f"{text[0]}.{text[1:]}e{t}" if digits > 1 else f"{text}e{t}"


def _value(r: Range | Fraction, digits: int | None) -> Any:
    """A figure for JSON: ``p/q`` when exact, else its outward bounds."""
    if isinstance(r, Fraction):
        return exact(r)
    value = r.exact
    if value is not None:
        return exact(value)
    d = digits or 30
    lo, hi = r.lower, r.upper
    return {
        "lower": ("-" if lo < 0 else "") + outward(abs(lo.numerator), lo.denominator, d, up=lo < 0),
        "upper": ("-" if hi < 0 else "")
        + outward(abs(hi.numerator), hi.denominator, d, up=hi >= 0),
    }


def shown(r: Range | Fraction, form: str) -> str:
    """A figure for people: its rounded value, or both ends where they round apart."""

    def one(x: Fraction) -> str:
        return percent(x) if form == "%" else fixed(x, 4)

    if isinstance(r, Fraction):
        return one(r)
    a, b = one(r.lower), one(r.upper)
    return a if a == b else f"{a} to {b}"


def net_text(r: Range) -> str:
    """A net result (units) as an exact decimal, or both ends where the bounds differ."""
    a, b = format_number(r.lower), format_number(r.upper)
    return a if a == b else f"{a} to {b}"


def figure_rows(s: Session) -> list[tuple[str, str, str]]:
    """(key, label, value as shown) of every figure of the session, in order: the one place
    that names them for every format."""
    d = s.distribution
    rows = [
        ("house_edge", f"House edge per unit wagered{_meters(s)}", percent(s.figures.house_edge)),
        ("expected", f"Expected result ({_unit(s)})", fixed(s.expected, 4)),
        ("sd", f"Standard deviation ({_unit(s)})", sqrt_fixed(s.variance, 4)),
        ("p_ahead", "P(ahead)", shown(d.p_ahead, "%")),
        ("p_even", "P(even)", shown(d.p_even, "%")),
        ("p_behind", "P(behind)", shown(d.p_behind, "%")),
    ]
    rows += [
        (
            f"percentile_{format_number(p * 100)}",
            f"Percentile {format_number(p * 100)}%",
            net_text(q),
        )
        for p, q in d.percentiles
    ]
    low, high = s.hold_range
    rows.append(
        (
            "hold_range_95",
            f"House win, 95% range ({_unit(s)})",
            f"{net_text(low)} to {net_text(high)}",
        )
    )
    if s.p_ruin is not None and s.bankroll is not None:
        label = f"Risk of ruin, bankroll {format_number(s.bankroll)} {_unit(s)}"
        rows.append(("p_ruin", label, shown(s.p_ruin, "%")))
    if s.edge_after_rebate is not None and s.rebate is not None:
        label = f"House edge after a {percent(s.rebate, 2)} loss rebate"
        rows.append(("edge_after_rebate", label, shown(s.edge_after_rebate, "%")))
    chip = s.dead_chip
    if chip is not None:
        rows += [
            ("wagers_per_chip", "Dead chip: wagers per chip", fixed(chip.wagers_per_chip, 4)),
            ("edge_per_chip", "Dead chip: house edge per chip", percent(chip.edge_per_chip)),
        ]
        after = chip.edge_after_commission
        if after is not None and chip.commission is not None:
            label = f"Dead chip: edge per chip after {percent(chip.commission, 2)} commission"
            rows.append(("edge_after_commission", label, percent(after)))
    theo = s.theo
    if theo is not None:
        rows.append(("theo_win_per_hour", "Theoretical win per hour", fixed(theo.per_hour, 2)))
        a, b = theo.hold_percent
        rows.append(
            (
                "hold_95",
                f"Hold over {fixed(theo.hours, 2)} hours, 95% range",
                f"{net_text(theo.hold_low)} to {net_text(theo.hold_high)} "
                f"({shown(a, '%')} to {shown(b, '%')} of the amount wagered)",
            )
        )
    return rows


def _title(s: Session) -> str:
    progressive = s.figures.bet.progressive
    if progressive is None:
        return f"{s.figures.bet.name}: {s.rounds:,} rounds at {_stake_words(s)}"
    stake = format_number(progressive.stake)
    return f"{s.figures.bet.name}: {s.rounds:,} rounds of its fixed wager {stake}{_meters(s)}"


def _stake_words(s: Session) -> str:
    """What a round stakes: one unit, plus a fee paid every round, a peek's base stake with
    raises as the optimal decision table says (a live bet's rounds take more than one unit)."""
    f = s.figures
    peek = f.bet.peek is not None
    words = "a base stake of one unit" if peek else "one unit"
    if f.fee:
        words += f" plus a fee of {format_number(f.fee)} unit a round ({percent(f.fee, 2)})"
    if peek:
        words += ", raised as the optimal decision table says"
    return words


def _unit(s: Session) -> str:
    """What the session counts in: units, or a progressive bet's fixed wagers (its jackpot pays
    the meter for that wager, so one unit would not be a wager it takes)."""
    progressive = s.figures.bet.progressive
    return "units" if progressive is None else f"wagers of {format_number(progressive.stake)}"


def _meters(s: Session) -> str:
    """``", at meter 10,000.00"`` for a progressive bet (its figures are at the reset meters)."""
    from exactodds.bets.meters import at_meters

    progressive = s.figures.bet.progressive
    return "" if progressive is None else f", {at_meters(progressive)}"


def _subtitle(s: Session) -> str:
    kind = (
        "Every figure exact (shown rounded)."
        if s.exact
        else f"Each probability between bounds proven to {s.distribution.digits} significant "
        "digits (integer arithmetic rounded outward)."
    )
    offer = " Per offered round." if s.figures.bet.offer is not None else ""
    return f"{s.paytable} on {s.shoe}, {s.tableau} rules.{offer} {kind}"


def session_data(s: Session, distribution: bool = True) -> dict[str, Any]:
    """The session as JSON data: exact ``p/q`` strings, bounds as ``{"lower", "upper"}``;
    ``distribution=False`` leaves the distribution out (a math sheet's section)."""
    d = s.distribution
    digits = d.digits
    data: dict[str, Any] = {
        "paytable": s.paytable,
        "bet": s.bet,
        "shoe": s.shoe,
        "rules": s.tableau,
        "rounds": s.rounds,
        "exact": s.exact,
        "digits": digits,
        "note": INDEPENDENT_NOTE,
        "house_edge": exact(s.figures.house_edge),
        **_progressive_data(s),
        "expected": exact(s.expected),
        "variance": exact(s.variance),
        "sd": sqrt_fixed(s.variance, 10),
        "p_ahead": _value(d.p_ahead, digits),
        "p_even": _value(d.p_even, digits),
        "p_behind": _value(d.p_behind, digits),
        "percentiles": {format_number(p * 100): _value(q, digits) for p, q in d.percentiles},
        "hold_range_95": [_value(r, digits) for r in s.hold_range],
    }
    if s.bankroll is not None and s.p_ruin is not None:
        data["bankroll"] = exact(s.bankroll)
        data["p_ruin"] = _value(s.p_ruin, digits)
    if s.rebate is not None and s.edge_after_rebate is not None:
        data["rebate"] = exact(s.rebate)
        data["edge_after_rebate"] = _value(s.edge_after_rebate, digits)
    chip = s.dead_chip
    if chip is not None:
        data["dead_chip"] = {
            "wagers_per_chip": exact(chip.wagers_per_chip),
            "edge_per_chip": exact(chip.edge_per_chip),
        }
        if chip.commission is not None and chip.edge_after_commission is not None:
            data["dead_chip"]["commission"] = exact(chip.commission)
            data["dead_chip"]["edge_after_commission"] = exact(chip.edge_after_commission)
    theo = s.theo
    if theo is not None:
        data["hands_per_hour"] = exact(theo.hands_per_hour)
        data["average_bet"] = exact(theo.average_bet)
        data["theo_win_per_hour"] = exact(theo.per_hour)
        data["hold_95"] = {
            "win": [_value(theo.hold_low, digits), _value(theo.hold_high, digits)],
            "share": [_value(r, digits) for r in theo.hold_percent],
        }
    if distribution:
        data["distribution_exact"] = distribution_exact(s)
        data["distribution"] = _distribution(s)
    return data


def _progressive_data(s: Session) -> dict[str, Any]:
    """A progressive bet's fixed wager (the session's unit) and the meters its figures are at."""
    progressive = s.figures.bet.progressive
    if progressive is None:
        return {}
    return {
        "fixed_wager": exact(progressive.stake),
        "meters": {m.name: exact(m.reset) for m in progressive.meters},
    }


EXACT_DISTRIBUTION_DIGITS = 10_000_000
"""JSON and CSV give the distribution's probabilities as exact ``p/q`` while they take at most
about this many digits (Banker: about 90 rounds), beyond as bounds to 30 significant digits
(the figures read from it stay exact; ``to_frame()`` gives every probability exactly)."""


def distribution_exact(s: Session) -> bool:
    """Whether the outputs write the distribution's probabilities as exact fractions."""
    d = s.distribution
    digits = 2 * d.size * (d.denominator.bit_length() * 30103 // 100000 + 1)
    return d.bounds is None and digits <= EXACT_DISTRIBUTION_DIGITS


def _distribution(s: Session) -> list[dict[str, Any]]:
    d = s.distribution
    if distribution_exact(s):
        return [{"net": exact(net), "probability": exact(p.lower)} for net, p in d.outcomes()]
    digits = d.digits or 30
    if d.bounds is None:  # exact, written as bounds: too many digits
        return [
            {
                "net": exact(d.net(k)),
                "lower": outward(c, d.denominator, digits, False),
                "upper": outward(c, d.denominator, digits, True),
            }
            for k, c in enumerate(d.lower)
            if c
        ]
    return [
        {
            "net": exact(d.net(k)),
            "lower": _binary_outward(lo, e, digits, False),
            "upper": _binary_outward(hi, e, digits, True),
        }
        for k, (lo, hi, e) in enumerate(d.bounds.points())
        if hi
    ]


_SCIENTIFIC = re.compile(r"-?[0-9](?:\.[0-9]+)?e-?[0-9]+")
"""A bound as :func:`outward` writes it: a number to a spreadsheet, never a formula."""


def _cell(value: Any) -> str:
    """A CSV cell: booleans as JSON writes them, text no spreadsheet runs as a formula."""
    from exactodds.escape import csv_cell

    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if _SCIENTIFIC.fullmatch(text) else csv_cell(text)


def _csv(s: Session) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["kind", "item", "value", "lower", "upper"])
    data = session_data(s)
    for key, value in data.items():
        if key == "distribution":
            continue
        for item, v in flat(key, value):
            if isinstance(v, dict):
                writer.writerow(["figure", item, "", _cell(v["lower"]), _cell(v["upper"])])
            else:
                writer.writerow(["figure", item, _cell(v), "", ""])
    for entry in data["distribution"]:
        net = _cell(entry["net"])
        if "probability" in entry:
            writer.writerow(["distribution", net, _cell(entry["probability"]), "", ""])
        else:
            writer.writerow(["distribution", net, "", _cell(entry["lower"]), _cell(entry["upper"])])
    return out.getvalue()


def flat(key: str, value: Any) -> list[tuple[str, Any]]:
    """Nested figures as ``key.sub`` items (a bound stays a dict of lower and upper)."""
    if isinstance(value, dict) and set(value) != {"lower", "upper"}:
        return [
            (item, v) for sub, inner in value.items() for item, v in flat(f"{key}.{sub}", inner)
        ]
    if isinstance(value, list):
        return [(item, v) for i, inner in enumerate(value) for item, v in flat(f"{key}.{i}", inner)]
    return [(key, value)]


def _bars(s: Session) -> list[tuple[str, Fraction]]:
    out = []
    for low, high, p in s.distribution.bins():
        label = (
            format_number(low) if low == high else f"{format_number(low)} to {format_number(high)}"
        )
        out.append((label, p.lower))
    return out


def session_blocks(s: Session, level: int = 2, anchor: str = "session") -> list[Block]:
    """The session as document blocks (Markdown, HTML and sheets render them)."""
    from exactodds.report.document import Chart, Heading, Para, Table

    rows = tuple((label, value) for _, label, value in figure_rows(s))
    bins = tuple(
        (
            format_number(lo) if lo == hi else f"{format_number(lo)} to {format_number(hi)}",
            shown(p, "%"),
        )
        for lo, hi, p in s.distribution.bins()
    )
    return [
        Heading(level, _title(s), anchor),
        Para(_subtitle(s)),
        Table(("Figure", "Value"), rows, "lr"),
        Chart(f"Distribution of the net result over {s.rounds:,} rounds", tuple(_bars(s))),
        Table(
            (f"Net result ({_unit(s)})", "Probability"),
            bins,
            "lr",
            caption="The distribution, grouped",
        ),
        Para(INDEPENDENT_NOTE, "note"),
    ]


def _text(s: Session) -> str:
    rows = figure_rows(s)
    width = max(len(label) for _, label, _ in rows)
    from exactodds.escape import printable

    out = [printable(_title(s)), printable(_subtitle(s)), ""]
    out += [f"{label:<{width}}  {value}" for _, label, value in rows]
    out += ["", f"{f'Net result ({_unit(s)})':<22}  Probability"]
    for lo, hi, p in s.distribution.bins():
        span = format_number(lo) if lo == hi else f"{format_number(lo)} to {format_number(hi)}"
        out.append(f"{span:<22}  {shown(p, '%')}")
    out += ["", INDEPENDENT_NOTE]
    return "\n".join(out) + "\n"


def _html(s: Session, fragment: bool) -> str:
    from exactodds.report.charts import bar_chart_svg

    rows = "".join(
        f"<tr><td>{escape(label)}</td><td>{escape(value)}</td></tr>"
        for _, label, value in figure_rows(s)
    )
    chart = bar_chart_svg(f"Distribution of the net result over {s.rounds:,} rounds", _bars(s))
    body = (
        f"<h2>{escape(_title(s))}</h2><p>{escape(_subtitle(s))}</p>"
        f"<table><tbody>{rows}</tbody></table>{chart}<p>{escape(INDEPENDENT_NOTE)}</p>"
    )
    if fragment:
        return f"<div>{body}</div>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        f"<title>{escape(_title(s))}</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto}"
        "td{padding:.2rem .8rem}td:last-child{text-align:right}svg{max-width:100%}</style>"
        f"</head><body>{body}</body></html>\n"
    )


def render_session(s: Session, fmt: str, *, fragment: bool = False) -> str:
    """The session in ``fmt`` (one of :data:`FORMATS`); ``fragment``: HTML without the page."""
    if fmt == "json":
        return json.dumps(session_data(s), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _csv(s)
    if fmt == "html":
        return _html(s, fragment)
    if fmt == "md":
        from exactodds.report.markdown import render_blocks

        return render_blocks(session_blocks(s))
    return _text(s)
