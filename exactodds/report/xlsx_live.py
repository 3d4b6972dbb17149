"""The live-casino parts of an XLSX bet sheet (issue 34): a fee cell, a multiplied row's
products, a peek bet's decision table and the Multipliers sheet.

- A fee bet has a Fee cell: its RTP and house edge are per money paid (stake and fee), each a
  formula of that cell and the return table, so editing the fee recomputes them.
- A multiplied row is one line per product of multipliers (the row's exact distribution of the
  product, :attr:`~exactodds.figures.metrics.RowFigures.products`): its ×1 line holds the
  editable Net per unit; every other product's net is a formula of it (the win multiplied, then
  the commission taken), and each line's probability is the row's times the product's, so the
  return table lists the bet's outcomes and every figure formula reads them as any bet's.
- A peek bet's decision table: per reveal rule and cell of shown cards, the cell's probability
  and its rows' combinations; the conditional EV, the decision (keep, or the largest raise when
  the EV is positive) and its contributions are formulas of the return table's Net per unit,
  so editing a payout or the fee decides every cell anew (:mod:`exactodds.figures.peek`).
- The Multipliers sheet states each table's weights (fixed: the products' probabilities are
  computed from them, and a spreadsheet cannot redo that count).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.bets.multiplier_keys import percent_text
from exactodds.numbers import exact
from exactodds.report.xlsx_cells import (
    MAX_EXACT_INT,
    NUMBER,
    PERCENT,
    PROBABILITY,
    RETURN,
    Writer,
)

if TYPE_CHECKING:  # types only: a workbook without a peek does not load the peek module
    from exactodds.bets.paytable import Row
    from exactodds.figures.metrics import RowFigures
    from exactodds.figures.peek import PeekFigures
    from exactodds.report.sheet import Sheet

__all__ = [
    "FEE_NOTE",
    "PeekTotals",
    "decision_table",
    "fee_cell",
    "multipliers_sheet",
    "product_lines",
]

FEE_NOTE = (
    "of the stake, paid every round and never returned: edit it and the EV, RTP and house edge "
    "(per money paid: stake and fee) and the Summary follow"
)


def fee_cell(w: Writer, fee: Fraction) -> str | None:
    """A fee bet's Fee cell (None for a bet without a fee): its reference."""
    if not fee:
        return None
    w.line("Fee", "Value", "Value (exact)", "How", bold=True)
    w.line(f"fee ({percent_text(fee)})")
    w.exact(2, fee, PERCENT)
    w.text(4, FEE_NOTE)
    w.row += 1
    return f"B{w.row - 1}"


def _times(x: Fraction) -> str:
    """``x`` as a formula's factor: an integer or ``p/q``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def product_lines(w: Writer, row: RowFigures, spec: Row, note: str) -> list[int]:
    """A multiplied row as one return-table line per product, from ×1 (which holds the row's
    editable Net per unit) up; returns the lines that can happen. A win's net at product M is
    ``(E + c)·M − c`` (E the ×1 net, c the commission); a push or a loss is not multiplied.

    >>> from exactodds.bets.paytable import Row
    >>> from exactodds.figures.metrics import RowFigures
    >>> from exactodds.bets.payout import parse_payout
    >>> from exactodds.language import OTHERWISE
    >>> from exactodds.report.xlsx import openpyxl
    >>> w = Writer(openpyxl().Workbook().active)
    >>> spec = Row(OTHERWISE, parse_payout("1:1"), "Banker wins", commission=Fraction(1, 20))
    >>> row = RowFigures("Banker wins", spec.pays, Fraction(19, 20), 1, Fraction(1, 2),
    ...                  ((1, Fraction(3, 4)), (8, Fraction(1, 4))))
    >>> product_lines(w, row, spec, ""), w.ws["E2"].value, w.ws["H2"].value
    ([1, 2], '=IF(E1>0,(E1+1/20)*8-1/20,E1)', 0.125)
    """
    products = dict(row.products)
    if 1 not in products:
        products[1] = Fraction(0)  # the ×1 line holds the editable net
    c = spec.commission
    main = w.row + 1
    possible = []
    for m, q in sorted(products.items()):
        head = m == 1
        w.line(f"{row.event} ×{m}", row.pays.text or str(row.pays) if head else f"×{m}")
        if head:
            w.text(3, row.pays.to_one())
            w.text(4, row.pays.for_one())
            w.exact(5, row.net, NUMBER)
            w.count(7, row.combinations)
        else:
            e = f"E{main}"
            win = f"{e}*{m}" if not c else f"({e}+{_times(c)})*{m}-{_times(c)}"
            w.formula(5, f"=IF({e}>0,{win},{e})", row.net_at(m), NUMBER)
        p = row.probability * q
        w.exact(8, p, PROBABILITY)
        w.formula(10, f"=E{w.row}*H{w.row}", p * row.net_at(m), RETURN)
        w.formula(12, f"=E{w.row}*J{w.row}", p * row.net_at(m) ** 2, RETURN)
        if p:
            possible.append(w.row)
        if head and spec.multiply is not None:
            group = " ".join(spec.multiply.cards)
            w.text(
                14,
                f"multiplied by table {spec.multiply.table.name} over {group}: P(row) = "
                f"{exact(row.probability)}, one line per product (probability: the row's × the "
                "product's); edit Net per unit here" + (f"; {note}" if note else ""),
            )
    return possible


@dataclass(frozen=True)
class PeekTotals:
    """Where a peek bet's decision table totals are: the expected net under the decisions
    (fee aside), the expected stake multiple and the second moment of the net."""

    mean: str
    stake: str
    second: str
    largest: str
    largest_probability: str


def decision_table(
    w: Writer, peek: PeekFigures, nets: list[str], fee: str | None
) -> PeekTotals | None:
    """A peek bet's decision table, every cell's decision a formula of the return table's Net
    per unit cells ``nets`` (one per row); None (no table: the figures stay fixed) when a
    count is too large for a spreadsheet's doubles."""
    rules = peek.decision_table
    if any(n > MAX_EXACT_INT for rule in rules for c in rule.cells for n in c.rows):
        return None
    top = max(peek.raises, default=1)
    w.row += 1
    w.line(
        "Peek decisions: per reveal rule and cell of shown cards, the stake kept (1) or raised "
        f"to {top} when the conditional EV is positive (a formula of Net per unit: edit a payout "
        "and every cell is decided anew; the fee does not change a decision).",
    )
    head = ["Shown", "Cell", "P(cell)", "P(cell) (exact)", "Cell combinations", "EV given cell"]
    head += ["Stake", "Weight", "Weight (exact)", "r·EV·weight", "r·weight", "r²·E[net²]·weight"]
    counts_head = [f"Row {k + 1} combinations" for k in range(len(nets))]
    w.line(*head, *counts_head, "Largest win in cell", "P(largest win)", bold=True)
    top_col = _col(13 + len(nets))
    p_col = _col(14 + len(nets))
    first = w.row + 1
    rows = sum(len(rule.cells) for rule in rules)
    largest = f"{top_col}{first + rows}"  # on the Total line
    top_win = peek.largest_win
    for rule in rules:
        for cell in rule.cells:
            w.line(" ".join(rule.positions), " ".join(str(v) for v in cell.shown))
            r = w.row
            w.exact(3, cell.probability, PROBABILITY)
            total = sum(cell.rows)
            w.count(5, total)
            counts = [f"{_col(13 + k)}{r}" for k in range(len(nets))]
            for k, n in enumerate(cell.rows):
                w.count(13 + k, n)
            ev = Fraction(-cell.edge)
            products = "+".join(f"{n}*{e}" for n, e in zip(counts, nets, strict=True))
            w.formula(6, f"=({products})/E{r}", ev, RETURN, "")
            w.formula(7, f"=IF(F{r}>0,{top},1)", Fraction(cell.stake), NUMBER, str(cell.stake))
            weight = rule.probability * cell.probability
            w.exact(8, weight, PROBABILITY)
            w.formula(10, f"=G{r}*F{r}*H{r}", cell.stake * ev * weight, RETURN, "")
            w.formula(11, f"=G{r}*H{r}", cell.stake * weight, RETURN, "")
            second = sum(
                (n * net**2 for n, net in zip(cell.rows, peek.nets, strict=True)), Fraction(0)
            )
            squares = "+".join(f"{n}*{e}*{e}" for n, e in zip(counts, nets, strict=True))
            w.formula(
                12,
                f"=G{r}*G{r}*({squares})/E{r}*H{r}",
                cell.stake**2 * second / total * weight,
                RETURN,
                "",
            )
            present = [k for k, n in enumerate(cell.rows) if n]
            best = cell.stake * max(peek.nets[k] for k in present)
            w.formula(
                13 + len(nets), f"=G{r}*MAX({','.join(nets[k] for k in present)})", best, NUMBER, ""
            )
            at_top = "+".join(
                f"IF(G{r}*{nets[k]}>{largest},0,IF({largest}>G{r}*{nets[k]},0,{counts[k]}))"
                for k in present
            )
            hit = sum(
                (
                    Fraction(n, total)
                    for n, x in zip(cell.rows, peek.nets, strict=True)
                    if n and cell.stake * x == top_win
                ),
                Fraction(0),
            )
            w.formula(
                14 + len(nets),
                f"=IF({largest}>0,({at_top})/E{r}*H{r},0)",
                hit * weight if top_win > 0 else Fraction(0),
                PROBABILITY,
                "",
            )
    last = w.row
    w.line("Total", bold=True)
    t = w.row
    w.formula(10, f"=SUM(J{first}:J{last})", peek.mean_net, RETURN, "")
    w.formula(11, f"=SUM(K{first}:K{last})", peek.paid - peek.fee, RETURN, "")
    second = sum((p * net**2 for p, net in peek.outcomes()), Fraction(0))
    w.formula(12, f"=SUM(L{first}:L{last})", second, RETURN, "")
    w.formula(13 + len(nets), f"=MAX({top_col}{first}:{top_col}{last})", top_win, NUMBER, "")
    w.formula(
        14 + len(nets),
        f"=SUM({p_col}{first}:{p_col}{last})",
        peek.largest_win_probability,
        PROBABILITY,
        "",
    )
    w.row += 1
    return PeekTotals(f"J{t}", f"K{t}", f"L{t}", f"{top_col}{t}", f"{p_col}{t}")


def _col(n: int) -> str:
    """The letter(s) of column ``n`` (1-based)."""
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(n))


def multipliers_sheet(w: Writer, sheet: Sheet) -> None:
    """Each multiplier table of the paytable: deck, cap, repeat, and the probability of each
    number of cards and of each multiplier."""
    w.line("Multiplier tables", bold=True)
    w.line(
        "One random draw a round, independent of the shoe: a number of distinct card "
        "identities of the deck, each with an independent multiplier. Fixed: each multiplied "
        "row's products (on its bet's sheet) are counted from these weights."
    )
    for table in sheet.paytable.multipliers:
        w.row += 1
        w.line(f"[multipliers.{table.name}]", bold=True)
        w.line("deck", str(table.deck))
        w.line("cap", "none" if table.cap is None else str(table.cap))
        w.line("repeat", table.repeat.value)
        for label, weights in (("Cards", table.cards), ("Multiplier", table.values)):
            w.line(label, "Probability", "Probability (exact)", bold=True)
            for k, p in weights:
                w.line(str(k))
                w.exact(2, p, PROBABILITY)
    w.widths(30, 16, 24)
