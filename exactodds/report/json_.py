"""JSON rendering of math sheets: exact values as ``"p/q"`` strings, counts as integers.

The shape is issue 3's ``{"paytable", "file", "bets": [{"id", "name", "house_edge", "rtp", "ev",
"hit_frequency", "variance", "std_dev", "rows": [...]}]}`` with extra keys for the rest of the
sheet: ``"source"`` of the paytable, ``"overrides"`` (how this sheet differs from its paytable:
options that changed the shoe, rules or bets), ``"command"`` (``exactodds report …`` recomputing
it, or null). Each row also says ``"never_occurs"`` (true for a row the shoe cannot settle: 0
combinations) and a ``"note"`` saying why (``never occurs with this shoe``), and its worked
``"example"``: ``{"cards": "P: Kc Qh | B: 8d Ks", "stake": "100/1", "returns": "195/1"}`` (a
round in ``exactodds settle`` notation that settles on the row, and what the stake returns,
stake included, as ``"p/q"`` like every exact value here), ``null`` for a row that never
occurs; ``"example_rule"`` says how examples are chosen. Several sheets are printed as a JSON
list of such objects.

``"notation"`` says how payouts are stated (``to``, ``for`` or ``both``): each row's ``"pays"``
follows it (``both``: as written in the paytable) and carries ``"to_one"`` and/or ``"for_one"``.
Each bet has ``"volatility_index"`` and ``"confidence"``, a list of ``{"rounds", "level", "low",
"high"}`` (level exact as ``"p/q"``; bounds are irrational, so decimal strings correctly rounded
to ``confidence_method.places`` places). With ``--against`` the sheet has a ``"compliance"``
object: the profiles and their rules, and ``"checks"`` as ``exactodds check`` prints them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from exactodds.confidence import Z_DIGITS, confidence_ranges, volatility_index
from exactodds.examples import EXAMPLE_RULE, EXAMPLE_STAKE, Example
from exactodds.numbers import exact
from exactodds.payout import Notation
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.shoe import RANKS, SUITS

__all__ = ["render_json", "sheet_data"]


CONFIDENCE_PLACES = 10
"""Decimal places of the confidence bounds and the volatility index in JSON."""


def _bet(b: BetSheet, notation: Notation) -> dict[str, Any]:
    f = b.figures
    bet = b.bet
    he_res = f.house_edge_resolved
    data: dict[str, Any] = {
        "id": bet.id,
        "name": bet.name,
        "house_edge": exact(f.house_edge),
        "rtp": exact(f.rtp),
        "ev": exact(f.ev),
        "hit_frequency": exact(f.hit_frequency),
        "variance": exact(f.variance),
        "std_dev": f.std_dev,
        "house_edge_resolved": None if he_res is None else exact(he_res),
        "push_probability": exact(f.push_probability),
        "largest_win": exact(f.largest_win),
        "largest_win_probability": exact(f.largest_win_probability),
        "player_favourable": f.player_favourable,
        "max_round": bet.max_round,
        "rounding": None
        if bet.rounding is None
        else {"step": exact(bet.rounding.step), "mode": bet.rounding.mode.value},
        "volatility_index": volatility_index(f.variance, CONFIDENCE_PLACES),
        "confidence": [
            {
                "rounds": r.rounds,
                "level": exact(r.level),
                "low": r.low(CONFIDENCE_PLACES),
                "high": r.high(CONFIDENCE_PLACES),
            }
            for r in confidence_ranges(f.rtp, f.variance)
        ],
        "rows": [
            {
                "event": row.event,
                "pays": row.pays.stated(notation),
                **_forms(row.pays.to_one(), row.pays.for_one(), notation),
                "net": exact(row.net),
                "combinations": row.combinations,
                "probability": exact(row.probability),
                "return": exact(row.ret),
                "never_occurs": bool(note),
                "note": note,
            }
            for row, note in zip(f.rows, b.notes, strict=True)
        ],
        "total": {"combinations": f.total, "probability": "1/1", "return": exact(f.ev)},
    }
    for row_data, ex in zip(data["rows"], b.examples, strict=False):
        row_data["example"] = None if ex is None else _example(ex)
    if b.unrounded_rtp is not None:
        data["unrounded_rtp"] = exact(b.unrounded_rtp)
        data["rtp_by_stake"] = [
            {"stake": exact(s.stake), "rtp": exact(s.rtp), "equals_unrounded": s.equals_unrounded}
            for s in b.rtp_by_stake
        ]
    return data


def _example(ex: Example) -> dict[str, str]:
    return {"cards": ex.cards, "stake": exact(EXAMPLE_STAKE), "returns": exact(ex.returns)}


def _forms(to_one: str, for_one: str, notation: Notation) -> dict[str, str]:
    """The "to 1" and "for 1" forms a sheet in ``notation`` states."""
    forms = {}
    if notation is not Notation.FOR:
        forms["to_one"] = to_one
    if notation is not Notation.TO:
        forms["for_one"] = for_one
    return forms


def _monte_carlo(sheet: Sheet) -> dict[str, Any]:
    """The Monte Carlo section: exact figures and observed frequencies as "p/q", counts as
    integers, z-scores and 99% intervals as floats."""
    from exactodds.analysis.montecarlo import Z99
    from exactodds.report.montecarlo import STATEMENT, outside, verdict

    check = sheet.monte_carlo
    assert check is not None
    return {
        "rounds": check.rounds,
        "seed": check.seed,
        "method": "each round dealt from a freshly shuffled shoe (numpy default_rng(seed))",
        "note": STATEMENT,
        "z_bound_99": round(Z99, 6),
        "bets": [
            {
                "id": c.bet_id,
                "name": c.name,
                "rows": [
                    {
                        "event": row.event,
                        "net": exact(k.net),
                        "probability": exact(k.probability),
                        "observed": k.observed,
                        "observed_frequency": exact(Fraction(k.observed, k.rounds)),
                        "expected": exact(k.expected),
                        "z": round(k.z, 4),
                        "interval_99": [round(x, 2) for x in k.interval],
                    }
                    for row, k in zip(b.figures.rows, c.classes, strict=True)
                ],
                "return": {
                    "exact": exact(c.ev),
                    "observed": exact(c.observed_return),
                    "z": round(c.z, 4),
                    "interval_99": [round(x, 8) for x in c.interval],
                },
                "within_99": not outside(sheet, i),
                "verdict": verdict(sheet, i),
            }
            for i, (b, c) in enumerate(zip(sheet.bets, check.bets, strict=True))
        ],
    }


def sheet_data(sheet: Sheet) -> dict[str, Any]:
    """The sheet as JSON-ready data (with a "verification" key only when it has one)."""
    t = sheet.tableau
    data: dict[str, Any] = {
        "paytable": sheet.paytable.name,
        "file": sheet.file,
        "sha256": sheet.paytable.sha256,
        "description": sheet.paytable.description,
        "source": sheet.paytable.source,
        "overrides": list(sheet.overrides),
        "command": sheet.command,
        "shoe": {
            "description": sheet.shoe.describe(),
            "cards": sheet.shoe.size,
            "counts": {
                rank: dict(zip(SUITS, row, strict=True))
                for rank, row in zip(RANKS, sheet.shoe.counts, strict=True)
            },
        },
        "rules": t.data(),
        "universe": sheet.universe,
        "method": "complete enumeration of ordered six-card sequences",
        "notation": sheet.notation.value,
        "example_rule": EXAMPLE_RULE,
        "bets": [_bet(b, sheet.notation) for b in sheet.bets],
        "confidence_method": {
            "approximation": "normal: RTP ± z·SD/√rounds, z two-sided; VI = z(9/10)·SD",
            "places": CONFIDENCE_PLACES,
            "z": {exact(level): digits for level, digits in Z_DIGITS.items()},
        },
        "inputs": [{"role": i.role, "file": i.path, "sha256": i.sha256} for i in sheet.inputs],
        "software": {"name": "exactodds", "version": sheet.version},
        "date": sheet.date,
    }
    if sheet.monte_carlo is not None:
        data["verification"] = _monte_carlo(sheet)
    if sheet.compliance is not None:
        data["compliance"] = sheet.compliance.as_dict()
    return data


def render_json(sheets: Sequence[Sheet]) -> str:
    """One sheet as a JSON object, several as a JSON list (ends with a newline)."""
    data: Any = sheet_data(sheets[0]) if len(sheets) == 1 else [sheet_data(s) for s in sheets]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
