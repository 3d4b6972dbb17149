"""The Multipliers section of a sheet (issue 34): each multiplier table the sheet's bets use,
once, as a table in the documents and as JSON and CSV data, with exact probabilities."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from exactodds.bets.multipliers import MultiplierTable
from exactodds.bets.payout import format_number
from exactodds.numbers import exact, fixed, grouped
from exactodds.report.document import Block, Heading, Para, Table
from exactodds.report.figures import PRECISION
from exactodds.report.sheet import Sheet

__all__ = ["multiplier_csv_lines", "multipliers_blocks", "multipliers_json"]


def _tables(sheet: Sheet) -> tuple[MultiplierTable, ...]:
    """The multiplier tables the sheet's bets use, each once, in the paytable's order."""
    used = {
        row.multiply.table.name
        for b in sheet.bets
        for row in b.bet.rows
        if row.multiply is not None
    }
    return tuple(t for t in sheet.paytable.multipliers if t.name in used)


def _cards_text(table: MultiplierTable) -> str:
    if len(table.cards) == 1:
        return f"{table.cards[0][0]} (always)"
    return ", ".join(f"{k}: {format_number(p)}" for k, p in table.cards)


def _values_text(table: MultiplierTable) -> str:
    return ", ".join(f"×{v}: {format_number(p)}" for v, p in table.values)


def multipliers_blocks(sheet: Sheet) -> list[Block]:
    """The Multipliers section: the model in a paragraph, then each table once."""
    tables = _tables(sheet)
    if not tables:
        return []
    blocks: list[Block] = [
        Heading(2, "Multipliers", "multipliers"),
        Para(
            "Each round, independently of the shoe, each table draws a uniformly random set of "
            "distinct card identities (rank and suit) of its deck — how many by its card "
            "distribution — and gives each a multiplier drawn independently from its values. A "
            "multiplied row's net win is multiplied by the product of the multipliers on its "
            "group's dealt cards whose identity was drawn (a card dealt twice multiplies twice "
            "unless repeat is once), bounded by the cap; a commission is then taken from the "
            "stake; a push or a loss is never multiplied. The distributions below are exact."
        ),
    ]
    for t in tables:
        blocks.append(
            Table(
                ("Item", "Value"),
                (
                    ("Deck", f"{t.deck} identities, one of each"),
                    ("Multiplier cards drawn", _cards_text(t)),
                    ("Multiplier of each card", _values_text(t)),
                    ("Cap", "none" if t.cap is None else grouped(t.cap)),
                    ("Repeat", t.repeat.value),
                ),
                "ll",
                caption=f"Multiplier table {t.name}.",
            )
        )
    return blocks


def multipliers_json(sheet: Sheet) -> list[dict[str, Any]]:
    """The multiplier tables the sheet uses, JSON-ready (probabilities ``"p/q"``)."""
    return [
        {
            "name": t.name,
            "deck": t.deck,
            "cards": {str(k): exact(p) for k, p in t.cards},
            "values": {str(v): exact(p) for v, p in t.values},
            "cap": t.cap,
            "repeat": t.repeat.value,
        }
        for t in _tables(sheet)
    ]


def multiplier_csv_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    """Lines of kind ``multiplier`` (no bet): ``item`` = ``TABLE deck|cards K|value V|cap|
    repeat``, ``value`` the number or word, ``probability`` and ``exact`` its probability."""
    name = sheet.paytable.name
    for t in _tables(sheet):
        base = {"paytable": name, "kind": "multiplier"}
        yield base | {"item": f"{t.name} deck", "value": str(t.deck)}
        for k, p in t.cards:
            yield base | {"item": f"{t.name} cards {k}", "value": str(k), **_p(p)}
        for v, p in t.values:
            yield base | {"item": f"{t.name} value {v}", "value": str(v), **_p(p)}
        yield base | {"item": f"{t.name} cap", "value": "" if t.cap is None else str(t.cap)}
        yield base | {"item": f"{t.name} repeat", "value": t.repeat.value}


def _p(p: Fraction) -> dict[str, str]:
    return {"probability": fixed(p, PRECISION["probability"]), "exact": exact(p)}
