"""What the sheets say of live-casino bets (issue 34): a fee, random multipliers and a peek.

One place for every format: the document blocks of Markdown, HTML and PDF (a fee's note, the
top award, each multiplied row's product distribution as a table and a chart, the Multipliers
section, a peek's figures and decision tables), and the JSON and CSV data of the same figures,
all from the exact figures of :func:`~exactodds.figures.metrics.bet_figures`. A bet without a
fee, a multiplier or a peek gets none of it, so its sheets stay as they were (only JSON's
``top_award`` is on every bet).

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> tie = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01").bets[0]
>>> top_award_json(tie)
{'win': '8/1', 'probability': '619306544887/6508331087895', 'one_in': '10.51'}
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from exactodds.bets.payout import Notation, Payout, format_number
from exactodds.deal.shoe import RANKS
from exactodds.figures.metrics import RowFigures
from exactodds.figures.peek import PeekFigures, PeekRule
from exactodds.numbers import exact, fixed, one_in, percent, signed
from exactodds.report.document import Block, Chart, Field, Inline, Para, Strong, Table
from exactodds.report.figures import PRECISION
from exactodds.report.sheet import BetSheet, Sheet

__all__ = [
    "FEE_MARK",
    "MAX_CELLS_SHOWN",
    "fee_summary_blocks",
    "live_bet_blocks",
    "live_bet_json",
    "live_csv_lines",
    "products_json",
    "return_outcomes",
    "return_scope",
    "summary_label_mark",
    "top_award_json",
]

FEE_MARK = "†"
"""Marks, in summaries, a bet whose RTP and house edge are per money paid (a fee or a peek)."""

MAX_CELLS_SHOWN = 200
"""A decision table of more cells is shown as a chart of decisions on Markdown and HTML sheets
(every cell's probability and edge are in JSON and CSV)."""

_PLACES = 6
"""Decimals of the percentages beside a product chart's bars (top products are rare)."""


def _pct(x: Fraction) -> str:
    return percent(x, PRECISION["percent"])


def summary_label_mark(b: BetSheet) -> tuple[str, ...]:
    """``(" †",)`` after the name of a bet whose figures are per money paid, else ``()``."""
    return (f" {FEE_MARK}",) if b.paid_differs else ()


def _f(b: BetSheet, key: str, text: str, row: int | None = None, form: str = "") -> Field:
    """A figure the HTML designer recomputes after an edit (its ``data-figure`` hook)."""
    return Field(b.bet.id, key, text, row, form)


def _paid_words(b: BetSheet) -> str:
    return "stake, expected raise and fee" if b.bet.peek is not None else "stake + fee"


def fee_summary_blocks(sheet: Sheet) -> list[Block]:
    """Under the summary: each bet with a fee (or a peek) — its fee, money paid, RTP and house
    edge per money paid, and RTP per stake — with the footnote the mark refers to."""
    live = [b for b in sheet.bets if b.paid_differs]
    if not live:
        return []
    rows = tuple(
        (
            (b.bet.name, f" {FEE_MARK}"),
            _f(b, "fee", _pct(b.figures.fee)),
            _f(b, "paid", fixed(b.figures.paid, PRECISION["return"])),
            _f(b, "rtp", _pct(b.figures.rtp)),
            _f(b, "house_edge", _pct(b.figures.house_edge)),
            _f(b, "rtp_per_stake", _pct(b.figures.rtp_per_stake)),
        )
        for b in live
    )
    caption = (
        f"{FEE_MARK} A fee is paid on the stake every round (a push included) and never "
        "returned: these bets' RTP and house edge are per money paid (stake + fee, the "
        "operators' convention); RTP per stake is money returned per unit staked."
    )
    if any(b.bet.peek is not None for b in live):
        caption += (
            " A peek bet's figures are those of the optimal keep-or-raise decision; its money "
            "paid adds the expected raise (no fee on a raise) and its largest win is per unit "
            "of base stake."
        )
    return [
        Table(
            ("Bet", "Fee", "Money paid", "RTP per money paid", "House edge", "RTP per stake"),
            rows,
            "lrrrrr",
            caption=caption,
        )
    ]


def return_outcomes(b: BetSheet) -> list[tuple[Fraction, Fraction]]:
    """(net, probability) of every row and product of multipliers, for the return chart (a
    row not multiplied is one outcome, as it always was)."""
    return [(net, p) for row in b.figures.rows for p, net in row.outcomes()]


def return_scope(b: BetSheet) -> str:
    """What a live bet's return chart leaves out, for its title: the fee, a peek's raise.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> return_scope(build_sheet(load_paytable("classic"), bet_ids=["tie"]).bets[0])
    ''
    """
    scope = ", stake kept" if b.bet.peek is not None else ""
    return scope + (", before the fee" if b.bet.fee else "")


def _p(p: Fraction) -> dict[str, str]:
    return {"probability": fixed(p, PRECISION["probability"]), "exact": exact(p)}


# -- a bet's section -------------------------------------------------------------------------


def _mean_product(row: RowFigures) -> Fraction:
    return sum((m * q for m, q in row.products), Fraction(0))


def _top_product(row: RowFigures) -> tuple[int, Fraction]:
    """The largest product with a chance, and its probability given the row."""
    return max(((m, q) for m, q in row.products if q), default=(1, Fraction(1)))


def top_award_json(b: BetSheet) -> dict[str, str] | None:
    """The bet's top award: the largest net win per unit, its exact probability and "1 in N"
    (None when the bet never wins)."""
    f = b.figures
    if f.largest_win <= 0 or not f.largest_win_probability:
        return None
    return {
        "win": exact(f.largest_win),
        "probability": exact(f.largest_win_probability),
        "one_in": one_in(f.largest_win_probability).removeprefix("1 in ").replace(",", ""),
    }


def _top_award(b: BetSheet) -> Para:
    f = b.figures
    if f.largest_win <= 0 or not f.largest_win_probability:
        return Para(("Top award: ", "none (the bet never wins)."))
    p = f.largest_win_probability
    win = Payout(f.largest_win).stated(Notation.TO)
    if f.peek is not None:  # a raised stake's win, per base stake
        win = f"{format_number(f.largest_win)} per unit of base stake"
    return Para((Strong("Top award:"), f" {win}, {one_in(p)} rounds (probability {exact(p)})."))


def _fee_note(b: BetSheet) -> Para:
    f = b.figures
    text: tuple[str | Field, ...] = (
        "Fee ",
        _f(b, "fee", _pct(f.fee)),
        " of the stake, paid every round (a push included) and never returned. RTP and house "
        f"edge are per money paid ({_paid_words(b)}: ",
        _f(b, "paid", fixed(f.paid, PRECISION["return"])),
        " per unit staked): RTP ",
        _f(b, "rtp", _pct(f.rtp)),
        ", house edge ",
        _f(b, "house_edge", _pct(f.house_edge)),
        "; RTP per stake ",
        _f(b, "rtp_per_stake", _pct(f.rtp_per_stake)),
        ". The rows' returns are before the fee, which the total takes.",
    )
    return Para(text, "note")


def fee_rows(b: BetSheet) -> list[tuple[Inline, ...]]:
    """Rows of a bet's return table between its paytable rows and the total: the fee, and a
    peek's raises, so that the returns add up to the EV the total states."""
    f = b.figures
    out: list[tuple[Inline, ...]] = []
    r = PRECISION["return"]
    if f.peek is not None:
        raised = f.mean_net - sum((row.ret for row in f.rows), Fraction(0))
        out.append(("Raises under the optimal decision", "", "", "", signed(raised, r)))
    if f.fee:
        out.append(("Fee (never returned)", "", "", "", signed(-f.fee, r)))
    return out


def _products_blocks(b: BetSheet) -> list[Block]:
    """Per multiplied row: mean, top product and its odds in one table, then each row's
    product distribution as a table and a chart."""
    bet = b.bet
    multiplied = [
        (k, row, fr)
        for k, (row, fr) in enumerate(zip(bet.rows, b.figures.rows, strict=True))
        if row.multiply is not None and fr.products
    ]
    if not multiplied:
        return []
    summary: list[tuple[Inline, ...]] = []
    for k, row, fr in multiplied:
        assert row.multiply is not None
        top, q = _top_product(fr)
        summary.append(
            (
                fr.event,
                f"{row.multiply.table.name}: {' '.join(row.multiply.cards)}",
                _f(b, "products.mean", fixed(_mean_product(fr), PRECISION["return"]), k),
                _f(b, "products.top", f"×{top}", k),
                _f(b, "products.top_odds", one_in(q), k),
                _f(b, "products.top_per_round", one_in(fr.probability * q), k),
            )
        )
    blocks: list[Block] = [
        Table(
            ("Event", "Multiplied by", "Mean product", "Top product", "Given the row", "Per round"),
            tuple(summary),
            "llrrrr",
            caption="Multiplied rows: the mean product of multipliers on a win of the row, its "
            "largest product and that product's odds given the row and per round.",
        )
    ]
    places = PRECISION["probability"]
    for k, _row, fr in multiplied:
        title = f"Multiplier product of {bet.name}: {fr.event} (probability given the row)"
        blocks.append(
            Table(
                ("Product", "Net per unit", "Given the row", "Exact", "Per round"),
                tuple(
                    (
                        f"×{m}",
                        _f(b, f"product.{m}.net", format_number(fr.net_at(m)), k),
                        _f(b, f"product.{m}.probability", fixed(q, places), k),
                        _f(b, f"product.{m}.probability", exact(q), k, "exact"),
                        _f(b, f"product.{m}.per_round", fixed(fr.probability * q, places), k),
                    )
                    for m, q in fr.products
                ),
                "rrrlr",
                caption=f"{title}; the net per unit is the row's at that product.",
                css="exact",
            )
        )
        bars = tuple((f"×{m}", q) for m, q in fr.products if q)
        blocks.append(Chart(title, bars, places=_PLACES, key="products"))
    return blocks


def _shown_text(rule: PeekRule, shown: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(RANKS[v - 1] if rule.attr == "rank" else str(v) for v in shown)


def _peek_blocks(b: BetSheet, peek: PeekFigures) -> list[Block]:
    """A peek bet's figures: the RTPs of the optimal, never-raise and always-largest-raise
    play, the value of peeking, the RTP by reveal rule, and each rule's decision table."""
    largest = max(peek.raises, default=1)
    never, always, value = peek.rtp_never_raise, peek.rtp_always_max, peek.value_of_peeking
    stake = peek.paid - peek.fee
    figures = (
        ("RTP, optimal keep or raise", "rtp", _pct(peek.rtp), peek.rtp),
        ("RTP, never raising", "peek.rtp_never_raise", _pct(never), never),
        (f"RTP, always raising to ×{largest}", "peek.rtp_always_max", _pct(always), always),
        (
            "Value of peeking (optimal minus never raising)",
            "peek.value_of_peeking",
            f"{signed(value * 100, PRECISION['percent'])} pp",
            value,
        ),
        (
            "Expected stake multiple",
            "peek.expected_stake",
            fixed(stake, PRECISION["return"]),
            stake,
        ),
    )
    rows = tuple(
        (label, _f(b, key, text), _f(b, key, exact(x), None, "exact"))
        for label, key, text, x in figures
    )
    rules = b.bet.peek.reveals if b.bet.peek is not None else ()
    reveals = ", ".join(
        f"{' '.join(p)} ({_pct(q)})" if len(rules) > 1 else " ".join(p) for p, q in rules
    )
    blocks: list[Block] = [
        Para(
            (
                Strong("Peek:"),
                f" cards shown {reveals}; then keep the stake or raise it to "
                + " or ".join(f"×{r}" for r in peek.raises)
                + " (no fee on the raise). Figures per base stake, RTP per money paid.",
            )
        ),
        Table(("Peek figure", "Value", "Exact"), rows, "lrl", css="exact"),
        Table(
            ("Cards shown (dealing order)", "RTP, optimal", "Exact"),
            tuple((" ".join(p), _pct(rtp), exact(rtp)) for p, rtp in peek.rtp_by_reveal.items()),
            "lrl",
            caption="RTP by reveal rule: the optimal RTP if the first 1, 2, 3 or 4 cards were "
            "always shown.",
            css="exact",
        ),
    ]
    for j, rule in enumerate(peek.decision_table):
        blocks += _decision_blocks(b, j, rule)
    return blocks


def _decision_blocks(b: BetSheet, j: int, rule: PeekRule) -> list[Block]:
    """Rule ``j``'s decision table: a line per cell, or for more than :data:`MAX_CELLS_SHOWN`
    cells a chart of decisions (a row per leading shown cards, a column per last card); the
    decisions and edges are the designer's ``peek.J.*`` figures of row = the cell's index."""
    what = "ranks" if rule.attr == "rank" else "values"
    head = (
        f"Decision table, cards {' '.join(rule.positions)} shown (probability of the rule "
        f"{_pct(rule.probability)})"
    )
    if len(rule.cells) > MAX_CELLS_SHOWN:
        return [_decision_chart(rule, head, what, (b.bet.id, j))]
    caption = (
        f"{head}: the shown {what} → the optimal decision, the cell's probability within the "
        "rule and the exact house edge per unit stake given it (fee aside); raise where the "
        "edge is below zero."
    )
    return [
        Table(
            (*rule.positions, "Decision", "Probability", "Edge", "Edge (exact)"),
            tuple(
                (
                    *_shown_text(rule, c.shown),
                    _f(b, f"peek.{j}.decision", c.decision, i),
                    fixed(c.probability, PRECISION["probability"]),
                    _f(b, f"peek.{j}.edge", _pct(c.edge), i),
                    _f(b, f"peek.{j}.edge", exact(c.edge), i, "exact"),
                )
                for i, c in enumerate(rule.cells)
            ),
            "c" * len(rule.positions) + "lrrl",
            caption=caption,
            css="exact",
        )
    ]


def _decision_chart(
    rule: PeekRule, head: str, what: str, hook: tuple[str, int] | None = None
) -> Table:
    """The decisions of a large rule as a chart: K keep, D double, T triple (×r another
    raise), — a combination that cannot be shown; with ``hook`` (bet, rule index) each letter
    is the designer's ``peek.J.letter`` figure of row = the cell's index.

    >>> from exactodds.figures.peek import PeekCell
    >>> cells = tuple(PeekCell((a, b, c), Fraction(1, 1000), Fraction(0), (1,), 3 if c > 7 else 1)
    ...               for a in range(10) for b in range(10) for c in range(10))
    >>> rule = PeekRule(("P1", "B1", "P2"), Fraction(1), "value", cells, Fraction(0), Fraction(1),
    ...                 Fraction(0))
    >>> chart = _decision_chart(rule, "Decision table", "values")
    >>> chart.header[:3], chart.rows[0][:2], chart.rows[0][-3:], len(chart.rows)
    (('P1', 'B1', 'P2 0'), ('0', '0'), ('K', 'T', 'T'), 100)
    """
    letters = {1: "K", 2: "D", 3: "T"}
    lead: dict[tuple[int, ...], dict[int, Inline]] = {}
    for i, c in enumerate(rule.cells):
        letter = letters.get(c.stake, f"×{c.stake}")
        cell = letter if hook is None else Field(hook[0], f"peek.{hook[1]}.letter", letter, i)
        lead.setdefault(c.shown[:-1], {})[c.shown[-1]] = cell
    last = sorted({c.shown[-1] for c in rule.cells})
    labels = _shown_text(rule, tuple(last))
    *first, final = rule.positions
    return Table(
        (*first, *(f"{final} {v}" for v in labels)),
        tuple(
            (*_shown_text(rule, key), *(row.get(v, "—") for v in last))
            for key, row in sorted(lead.items())
        ),
        "c" * (len(first) + len(last)),
        caption=f"{head}, {len(rule.cells)} cells as a chart: a row per {' '.join(first)} "
        f"{what}, a column per {final}; K keep, D double, T triple. Each cell's probability and "
        "exact conditional edge are in the JSON and CSV sheets.",
    )


def live_bet_blocks(b: BetSheet) -> list[Block]:
    """A bet's live sections, after its return table: the fee's note, the top award, the
    multiplied rows' products, the peek (nothing for an ordinary bet)."""
    if not b.bet.live:
        return []
    blocks: list[Block] = []
    if b.paid_differs:
        blocks.append(_fee_note(b))
    blocks.append(_top_award(b))
    blocks += _products_blocks(b)
    if b.figures.peek is not None:
        blocks += _peek_blocks(b, b.figures.peek)
    return blocks


# -- JSON and CSV ----------------------------------------------------------------------------


def products_json(row: RowFigures) -> dict[str, Any]:
    """A multiplied row's extra keys: ``mean_product`` and ``products`` (each product, its net
    and its probability given the row, exact); nothing for a row not multiplied."""
    if not row.products:
        return {}
    return {
        "mean_product": exact(_mean_product(row)),
        "products": [
            {"product": m, "net": exact(row.net_at(m)), "probability": exact(q)}
            for m, q in row.products
        ],
    }


def _peek_json(peek: PeekFigures) -> dict[str, Any]:
    return {
        "reveals": [
            {"cards": " ".join(p), "p": exact(q)}
            for p, q in (peek.bet.peek.reveals if peek.bet.peek is not None else ())
        ],
        "raises": list(peek.raises),
        "rtp": exact(peek.rtp),
        "rtp_never_raise": exact(peek.rtp_never_raise),
        "rtp_always_max": exact(peek.rtp_always_max),
        "value_of_peeking": exact(peek.value_of_peeking),
        "expected_stake": exact(peek.paid - peek.fee),
        "rtp_by_reveal": {" ".join(p): exact(r) for p, r in peek.rtp_by_reveal.items()},
        "decision_table": [
            {
                "cards": " ".join(rule.positions),
                "probability": exact(rule.probability),
                "keyed_on": rule.attr,
                "cells": [
                    {
                        "shown": list(c.shown),
                        "decision": c.decision,
                        "stake": c.stake,
                        "probability": exact(c.probability),
                        "edge": exact(c.edge),
                    }
                    for c in rule.cells
                ],
            }
            for rule in peek.decision_table
        ],
    }


def live_bet_json(b: BetSheet) -> dict[str, Any]:
    """A bet's extra JSON keys: ``top_award`` (every bet) and ``peek`` (a peek bet)."""
    data: dict[str, Any] = {"top_award": top_award_json(b)}
    if b.figures.peek is not None:
        data["peek"] = _peek_json(b.figures.peek)
    return data


def live_csv_lines(b: BetSheet, base: dict[str, str]) -> Iterator[dict[str, str]]:
    """A live bet's CSV lines (none for an ordinary bet): ``top_award`` (``value`` = its net
    win, ``probability`` and ``exact`` its probability, ``note`` "1 in N"), ``product`` per
    multiplied row and product (``item`` = event, ``value`` = product, ``return`` = net at it,
    ``probability`` given the row, ``exact`` = ``probability;net``), and for a peek ``peek``
    figures (``item`` = key, as in JSON) and ``peek_cell`` lines (``item`` = cards shown and
    their values, ``value`` = decision, ``exact`` = ``probability;edge``)."""
    if not b.bet.live:
        return
    f = b.figures
    top = top_award_json(b)
    if top is not None:
        yield base | {
            "kind": "top_award",
            "item": "top_award",
            "value": format_number(f.largest_win),
            **_p(f.largest_win_probability),
            "note": one_in(f.largest_win_probability),
        }
    for row in f.rows:
        for m, q in row.products:
            yield base | {
                "kind": "product",
                "item": row.event,
                "value": str(m),
                "return": fixed(row.net_at(m), PRECISION["return"]),
                "probability": fixed(q, PRECISION["probability"]),
                "exact": f"{exact(q)};{exact(row.net_at(m))}",
                "note": "given the row",
            }
    if f.peek is None:
        return
    peek = _peek_json(f.peek)
    for key in ("rtp", "rtp_never_raise", "rtp_always_max", "value_of_peeking", "expected_stake"):
        value = Fraction(peek[key])
        yield base | {"kind": "peek", "item": key, "value": fixed(value, 10), "exact": peek[key]}
    for cards, rtp in peek["rtp_by_reveal"].items():
        value = Fraction(rtp)
        yield base | {
            "kind": "peek",
            "item": f"rtp_by_reveal {cards}",
            "value": fixed(value, 10),
            "exact": rtp,
        }
    for rule in f.peek.decision_table:
        for c in rule.cells:
            values = _shown_text(rule, c.shown)
            shown = " ".join(f"{p}={v}" for p, v in zip(rule.positions, values, strict=True))
            yield base | {
                "kind": "peek_cell",
                "item": shown,
                "value": c.decision,
                "probability": fixed(c.probability, PRECISION["probability"]),
                "exact": f"{exact(c.probability)};{exact(c.edge)}",
                "note": f"rule {' '.join(rule.positions)} p={exact(rule.probability)}",
            }
