"""JSON rendering of math sheets: exact values as ``"p/q"`` strings, counts as integers.

The shape is issue 3's ``{"paytable", "file", "bets": [{"id", "name", "house_edge", "rtp", "ev",
"hit_frequency", "variance", "std_dev", "rows": [...]}]}`` with extra keys for the rest of the
sheet: ``"source"`` of the paytable, ``"overrides"`` (how this sheet differs from its paytable:
options that changed the shoe, rules or bets), ``"command"`` (``exactodds report …`` recomputing
it, or null). Each row also says ``"never_occurs"`` (true for a row the shoe cannot settle: 0
combinations) and a ``"note"`` saying why (``never occurs with this shoe``). Several sheets are
printed as a JSON list of such objects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from exactodds.numbers import exact
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.shoe import RANKS, SUITS
from exactodds.tableau import STOOD

__all__ = ["render_json", "sheet_data"]


def _bet(b: BetSheet) -> dict[str, Any]:
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
        "rows": [
            {
                "event": row.event,
                "pays": row.pays.text or str(row.pays),
                "to_one": row.pays.to_one(),
                "for_one": row.pays.for_one(),
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
    if b.unrounded_rtp is not None:
        data["unrounded_rtp"] = exact(b.unrounded_rtp)
        data["rtp_by_stake"] = [
            {"stake": exact(s.stake), "rtp": exact(s.rtp), "equals_unrounded": s.equals_unrounded}
            for s in b.rtp_by_stake
        ]
    return data


def _verification(sheet: Sheet) -> dict[str, Any]:
    """The Monte Carlo section: exact figures and observed frequencies as "p/q", counts as
    integers, z-scores and 99% intervals as floats."""
    from exactodds.analysis.montecarlo import Z99
    from exactodds.report.verification import STATEMENT, outside, verdict

    check = sheet.verification
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
        "rules": {
            "name": t.name,
            "player_draw": sorted(t.player),
            "banker_draw": {
                str(total): [
                    "stood" if v == STOOD else v
                    for v in sorted(row, key=lambda v: -1 if v == STOOD else v)
                ]
                for total, row in enumerate(t.banker)
            },
        },
        "universe": sheet.universe,
        "method": "complete enumeration of ordered six-card sequences",
        "bets": [_bet(b) for b in sheet.bets],
        "inputs": [{"role": i.role, "file": i.path, "sha256": i.sha256} for i in sheet.inputs],
        "software": {"name": "exactodds", "version": sheet.version},
        "date": sheet.date,
    }
    if sheet.verification is not None:
        data["verification"] = _verification(sheet)
    return data


def render_json(sheets: Sequence[Sheet]) -> str:
    """One sheet as a JSON object, several as a JSON list (ends with a newline)."""
    data: Any = sheet_data(sheets[0]) if len(sheets) == 1 else [sheet_data(s) for s in sheets]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
