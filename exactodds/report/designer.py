"""The HTML sheet as a paytable designer: the data its script needs to recompute a bet exactly
when a payout is edited, and to export the edited paytable as TOML.

For a fixed shoe and tableau a row's combinations do not depend on its payout (nor does a streak
bet's row probability with rounds independent, sent instead), so the page holds everything needed:
the universe, each row's combinations, each bet's rounding rule, the payout grammar
(:func:`exactodds.bets.payout.grammar`, the one :func:`~exactodds.bets.payout.parse_payout` reads),
the z-values of the confidence ranges, the list of figures to recompute, each with its kind
(:func:`~exactodds.report.figures.designer_figures`), and the paytable's TOML text cut around its
payouts (:mod:`exactodds.bets.paytable_toml`): the export is that text with the edited payouts put
in, never a paytable rebuilt field by field. The script (``designer.js``, package data) parses
payouts by that grammar and computes with BigInt fractions, formatting every figure as
:mod:`exactodds.numbers` does, so an edited page shows the digits ``exactodds report`` prints for
the edited paytable.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> model = designer_model(build_sheet(load_paytable("touch"), date="2024-01-01"))
>>> data = json.loads(model.data)
>>> data["universe"], data["bets"][1]["rounding"], data["export"]["pieces"][0][:9]
('4998398275503360', {'step': '1/100', 'text': '0.01', 'mode': 'down'}, '# Source:')
>>> model.notes[-1]  # doctest: +NORMALIZE_WHITESPACE
'The export is the file paytables/touch.toml as loaded, every line and key kept, with only the
 edited payouts changed (and the edits listed after the description).'
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from exactodds.analysis.confidence import LEVELS, ROUNDS, VI_LEVEL, Z_DIGITS
from exactodds.bets.edits import unedited_description
from exactodds.bets.multiplier_keys import percent_text
from exactodds.bets.payout import format_number, grammar
from exactodds.bets.paytable import Paytable
from exactodds.bets.paytable_toml import Patchable, default_source, patchable
from exactodds.bets.progressive import JACKPOT_PATTERN, MAX_METER
from exactodds.bets.streak import StreakBet, StreakFigures
from exactodds.deal.tableau import BUILTIN
from exactodds.escape import printable
from exactodds.numbers import exact
from exactodds.report.figures import BET_FIGURES, LIVE_FIGURES, PRECISION, designer_figures
from exactodds.report.progressive import meter_points
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.report.streak import sheet_streaks
from exactodds.toml_lines import toml_values

__all__ = ["DATA_ID", "Designer", "designer_model", "script"]

DATA_ID = "exactodds-data"
"""Id of the page's ``<script type="application/json">`` block holding :attr:`Designer.data`."""


@dataclass(frozen=True)
class Designer:
    """What the HTML renderer adds to a sheet to make it a designer page: ``data`` (JSON text
    for the script) and ``notes`` (what the exported file can and cannot carry of this page's
    game, one sentence each, shown beside the export button)."""

    data: str
    notes: tuple[str, ...]


@cache
def script() -> str:
    """The page's script (``designer.js``), read once from the package.

    >>> "use strict" in script()
    True
    >>> words = ("eval(", "Function(", "innerHTML", "outerHTML", "insertAdjacent", ".write(")
    >>> [w for w in words if w in script()]
    []
    """
    return resources.files("exactodds.report").joinpath("designer.js").read_text("utf-8")


def _decks(sheet: Sheet) -> int:
    """The decks of the exported file: the sheet's full (or depleted) decks, else the
    paytable's."""
    depleted = sheet.shoe.depletion()
    return sheet.paytable.decks if depleted is None else depleted[0]


def _notes(sheet: Sheet, from_source: bool) -> tuple[str, ...]:
    t = sheet.paytable
    notes = []
    depleted = sheet.shoe.depletion()
    shoe = sheet.shoe.describe()
    if depleted is None:
        notes.append(
            f"This page's figures are for a {shoe}, which a paytable file cannot hold: the "
            f"exported file has the paytable's decks = {t.decks}; give `exactodds report` the "
            "same shoe file (--shoe) for this page's figures."
        )
    elif depleted[1]:
        cards = shlex.quote(" ".join(str(c) for c in depleted[1]))
        notes.append(
            f"This page's figures are for {shoe}; a paytable file cannot remove cards, so the "
            f"exported file has decks = {depleted[0]}: `exactodds report FILE --remove {cards}` "
            "gives this page's figures."
        )
    elif depleted[0] != t.decks:
        notes.append(
            f"The exported file has decks = {depleted[0]}, the shoe of this page (the paytable "
            f"has {t.decks})."
        )
    if sheet.tableau != t.tableau:
        notes.append(
            f"The exported file has this page's drawing rules ({sheet.tableau.name}), not the "
            f"paytable's ({t.tableau.name})."
        )
    if BUILTIN.get(sheet.tableau.name) != sheet.tableau:
        notes.append(
            f"The drawing rules {sheet.tableau.name} are written into the file as an inline "
            "rules table (a rules file would not be found from wherever the file is saved)."
        )
    if len(sheet.bets) != len(t.bets):
        notes.append(
            f"Only the {len(sheet.bets)} bets on this page are exported (the paytable has "
            f"{len(t.bets)})."
        )
    if any(b.bet.progressive is not None for b in sheet.bets):
        notes.append(
            "A progressive bet's meters can be set under its return table, each from its reset "
            "up to its cap: its jackpot rows then pay their share of each meter for the stake, "
            "and its figures and charts are recomputed at those meters. The export keeps each "
            "meter's reset (a meter is not a paytable value)."
        )
    if any(b.bet.live for b in sheet.bets):
        notes.append(
            "A bet's fee (under its return table) and each multiplier table's weights (below) "
            "can be edited too: every bet multiplied by the table is recomputed exactly from its "
            "rows' identity patterns, its RTP and house edge per money paid (stake and fee), "
            "with the fee table and its product tables; a peek bet's cells are decided anew "
            "(its RTP by reveal rule stays as printed). "
            "The export writes the fee and the weights as set."
        )
    if sheet.streaks:
        notes.append(
            "A streak bet's payouts can be edited too: its figures with rounds independent are "
            "recomputed exactly; its one-shoe column is a simulation of the printed payouts, "
            "not recomputed here (`exactodds report` on the exported file simulates the "
            "edited ones)."
        )
    if from_source:
        notes.append(
            f"The export is the file {sheet.file} as loaded, every line and key kept, with only "
            "the edited payouts changed (and the edits listed after the description)."
        )
    else:
        notes.append(
            "The export is this page's paytable as exactodds reads it (every key of every "
            "bet), with the edited payouts; the comments and layout of a file are not kept."
        )
    return tuple(notes)


def _export(sheet: Sheet) -> Patchable:
    """The text the export patches: the paytable's own file when the page shows its game and
    every bet (and its rules are not a file of their own), else the page's paytable written by
    :func:`~exactodds.bets.paytable_toml.paytable_toml`."""
    t = sheet.paytable
    bets = tuple(b.bet for b in sheet.bets)
    game = (_decks(sheet), sheet.tableau, bets, sheet.streaks)
    if game == (t.decks, t.tableau, t.bets, t.streaks):
        return patchable(t, None if t.rules_file is not None else default_source(t))
    shown = replace(t, decks=_decks(sheet), tableau=sheet.tableau, bets=bets, streaks=sheet.streaks)
    return patchable(shown)


def _progressive(b: BetSheet) -> dict[str, object] | None:
    """A progressive bet's stake and meters (name, reset as ``p/q`` and as written, cap), from
    which the script pays its jackpot rows at the meters the user sets (from the reset to the
    cap), and the top meter's values on the RTP-against-meter chart; None for other bets.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> sheet = build_sheet(load_paytable("dragon-dragon"), date="2024-01-01", examples=False)
    >>> data = _progressive(sheet.bets[0])
    >>> data["meters"]
    [{'name': 'jackpot', 'reset': '10000/1', 'text': '10000', 'cap': None, 'cap_text': None}]
    >>> data["stake"], data["points"][:3]
    ('1/1', ['10000/1', '30000/1', '50000/1'])
    """
    bet, p = b.bet, b.progressive
    if bet.progressive is None or p is None:
        return None
    return {
        "stake": exact(bet.progressive.stake),
        "meters": [
            {
                "name": m.name,
                "reset": exact(m.reset),
                "text": format_number(m.reset),
                "cap": None if m.cap is None else exact(m.cap),
                "cap_text": None if m.cap is None else format_number(m.cap),
            }
            for m in bet.progressive.meters
        ],
        "points": [exact(m) for m in meter_points(p)],
    }


def _streak(bet: StreakBet, f: StreakFigures) -> dict[str, object]:
    """A streak bet as the script edits it: each row's exact probability (rounds independent;
    it does not depend on payouts) instead of combinations, and the expected rounds per bet,
    over which the script spreads the house edge.

    >>> from exactodds.bets.loader import load_paytable
    >>> from fractions import Fraction
    >>> from exactodds.bets.streak import streak_figures
    >>> t = load_paytable("banker-streak")
    >>> data = _streak(t.streaks[0], streak_figures(t.streaks[0], t.shoe, t.tableau))
    >>> rounds = Fraction(data["streak"]["expected_rounds"])
    >>> f"{float(rounds):.4f}", data["rows"][1]["text"], data["total"]
    ('1.8463', '150:1', '1')
    """
    return {
        "id": bet.id,
        "name": bet.name,
        "description": bet.description,
        "max_round": None,
        "rounding": None,
        "stakes": [],
        "progressive": None,
        "streak": {"expected_rounds": exact(f.expected_rounds)},
        "total": "1",
        "rows": [
            {
                "probability": exact(q),
                "event": row.event,
                "when": row.text,
                "text": row.pays.text or str(row.pays),
            }
            for row, q in zip(bet.rows, f.probabilities, strict=True)
        ],
    }


def _live(b: BetSheet) -> dict[str, object] | None:
    """A bet with a fee, multiplied rows or a peek (:attr:`~exactodds.bets.paytable.Bet.live`)
    as the script recomputes it: the fee, each row's commission and, where multiplied, its
    table and identity patterns (exact, whatever the weights: the script mixes the product
    distribution of each pattern under the weights set); a peek's reveal rules with every
    cell's probability and row combinations, from which the script decides each cell anew.
    None for other bets.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], examples=False)
    >>> _live(sheet.bets[0]) is None
    True
    """
    bet, f = b.bet, b.figures
    if not bet.live:
        return None
    peek = None
    if f.peek is not None:
        peek = {
            "raises": list(f.peek.raises),
            "rules": [
                {
                    "positions": " ".join(rule.positions),
                    "probability": exact(rule.probability),
                    "cells": [[exact(c.probability), [str(n) for n in c.rows]] for c in rule.cells],
                }
                for rule in f.peek.decision_table
            ],
        }
    return {
        "fee": exact(bet.fee),
        "fee_text": percent_text(bet.fee),
        "rows": [
            {
                "commission": exact(row.commission),
                "table": None if row.multiply is None else row.multiply.table.name,
                "patterns": [[list(m), exact(p)] for m, p in figures.patterns],
            }
            for row, figures in zip(bet.rows, f.rows, strict=True)
        ],
        "peek": peek,
    }


def _tables(t: Paytable) -> dict[str, object]:
    """The paytable's multiplier tables, for the script's product distributions
    (:func:`~exactodds.bets.multipliers.MultiplierTable.product_distribution`) under the
    weights the page sets."""
    return {
        m.name: {
            "deck": m.deck,
            "cap": m.cap,
            "repeat": m.repeat.value,
            "cards": [[k, exact(p), format_number(p)] for k, p in m.cards],
            "values": [[v, exact(p), format_number(p)] for v, p in m.values],
        }
        for m in t.multipliers
    }


def _live_slots(pieces: list[Any]) -> list[Any]:
    """The export's pieces with, besides the payouts, a slot at each fee and multiplier weight
    written in the text (``fee``: the bet; ``weight``: table, ``cards`` or ``values``, key),
    which the script replaces with the value set on the page.

    >>> pieces = ['fee = "20%"\\n[multipliers.m]\\nvalues = { 2 = "1" }\\n']
    >>> [p for p in _live_slots(pieces) if not isinstance(p, str)]  # doctest: +NORMALIZE_WHITESPACE
    [{'text': '"1"', 'bet': '', 'row': 0, 'insert': False, 'weight': ['m', 'values', 2]}]
    """
    text = "".join(p if isinstance(p, str) else p["text"] for p in pieces)
    wanted: list[tuple[int, int, dict[str, Any]]] = []
    for path, (start, end) in toml_values(text).items():
        slot: dict[str, Any] = {"text": text[start:end], "bet": "", "row": 0, "insert": False}
        key = str(path[-1]).strip()
        if len(path) == 4 and path[0] == "multipliers" and path[2] in _PARTS and key.isdigit():
            wanted.append((start, end, {**slot, "weight": [path[1], path[2], int(key)]}))
        elif path[0] == "bets" and path[2:] in (("fee",), ("peek", "fee")):
            wanted.append((start, end, {**slot, "fee": path[1]}))
    wanted.sort(key=lambda w: w[0])
    out: list[Any] = []
    at = 0
    for piece in pieces:
        if not isinstance(piece, str):
            out.append(piece)
            at += len(piece["text"])
            continue
        rest, offset = piece, at
        for start, end, slot in wanted:
            if offset <= start and end <= at + len(piece):
                out += [rest[: start - offset], slot]
                rest, offset = rest[end - offset :], end
        out.append(rest)
        at += len(piece)
    return out


def _live_figures() -> list[dict[str, object]]:
    """:data:`LIVE_FIGURES` as :func:`~exactodds.report.figures.designer_figures` lists a
    figure (those of the figure table).

    >>> [f["source"] for f in _live_figures()]
    ['fee', 'paid', 'rtp_per_stake']
    """
    return [
        {"key": f.key, "kind": f.kind.value, "source": f.key, "exact": True}
        for f in BET_FIGURES
        if f.key in LIVE_FIGURES
    ]


_PARTS = ("cards", "values")
"""The weights of a multiplier table the page edits."""


def designer_model(sheet: Sheet, precision: Mapping[str, int] = PRECISION) -> Designer:
    """The designer data of ``sheet``, whose figures are shown with ``precision`` decimal
    places (:data:`exactodds.report.figures.PRECISION`); the HTML renderer adds it to a math
    sheet's page (:func:`exactodds.report.html.render_sheet_html`)."""
    t = sheet.paytable
    export = _export(sheet)
    payout = grammar()
    # In JavaScript: named groups are (?<name>…), and \s takes U+FEFF too; after the text's
    # whitespace is collapsed (as str.split does) Python's \s can only meet a space.
    for key, pattern in (("ratio", payout["ratio"]), ("jackpot", JACKPOT_PATTERN)):
        payout[key] = str(pattern).replace("(?P<", "(?<").replace("\\s", " ")
    payout["max_meter"] = MAX_METER
    bets: list[dict[str, object]] = []
    for b in sheet.bets:
        bet = b.bet
        rounding = bet.rounding
        bets.append(
            {
                "id": bet.id,
                "name": bet.name,
                "description": bet.description,
                "max_round": bet.max_round,
                "rounding": None
                if rounding is None
                else {
                    "step": exact(rounding.step),
                    "text": format_number(rounding.step),
                    "mode": rounding.mode.value,
                },
                "stakes": [exact(s.stake) for s in b.rtp_by_stake],
                "progressive": _progressive(b),
                "streak": None,
                **({"live": _live(b)} if bet.live else {}),
                "total": str(b.figures.total),  # the rounds the figures are per
                "rows": [
                    {
                        "combinations": str(row.combinations),
                        "event": spec.event,
                        "when": str(spec.when),
                        "text": spec.pays.text or str(spec.pays),
                    }
                    for row, spec in zip(b.figures.rows, bet.rows, strict=True)
                ],
            }
        )
    bets += [_streak(bet, f) for bet, f, _ in sheet_streaks(sheet)]
    live = any(b.bet.live for b in sheet.bets)
    data = {
        "format": 1,
        "software": sheet.software,
        "date": sheet.date,
        "file": sheet.file,
        "export_name": f"{printable(sheet.stem)}-edited.toml",  # the name may not be UTF-8
        "notation": sheet.notation.value,
        "universe": str(sheet.universe),
        "precision": dict(precision),
        "figures": designer_figures() + _live_figures(),
        "fixed_figures": [
            f.key for f in BET_FIGURES if not f.recomputed and f.key not in LIVE_FIGURES
        ],
        "payout": payout,
        "confidence": {
            "rounds": [str(n) for n in ROUNDS],
            "z": [Z_DIGITS[level] for level in LEVELS],
            "vi_z": Z_DIGITS[VI_LEVEL],
        },
        "export": {
            "name": t.name,
            "description": unedited_description(t.name, t.description, t.edits),
            "edits": list(t.edits),
            "pieces": _live_slots(export.data()) if t.multipliers or live else export.data(),
        },
        "bets": bets,
        **({"multipliers": _tables(t)} if t.multipliers else {}),
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Designer(text, _notes(sheet, export.from_source))
