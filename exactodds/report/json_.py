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

from exactodds.confidence import Z_DIGITS, confidence_ranges
from exactodds.numbers import exact
from exactodds.payout import Notation
from exactodds.report.figures import View, in_view
from exactodds.report.montecarlo import STATEMENT, checks_outside, verdict_line
from exactodds.report.sheet import CONFIDENCE_PLACES, BetSheet, Sheet
from exactodds.shoe import RANKS, SUITS
from exactodds.worked_examples import EXAMPLE_RULE

__all__ = ["bet_json", "render_json", "sheet_json"]


def render_json(sheets: Sequence[Sheet]) -> str:
    """One sheet as a JSON object (:func:`sheet_json`), several as a JSON list (ends with a
    newline)."""
    data: Any = sheet_json(sheets[0]) if len(sheets) == 1 else [sheet_json(s) for s in sheets]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def sheet_json(sheet: Sheet) -> dict[str, Any]:
    """The sheet as JSON-ready data, in the shape this module describes (with a
    "verification" key only when it has a Monte Carlo section).

    >>> from exactodds.paytable_loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01")
    >>> data = sheet_json(sheet)
    >>> data["file"], data["universe"], [b["house_edge"] for b in data["bets"]]
    ('paytables/classic.toml', 4998398275503360, ['103841353768/723147898655'])
    """
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
        "bets": [bet_json(b, sheet.notation) for b in sheet.bets],
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
        data["verification"] = _monte_carlo_json(sheet)
    if sheet.compliance is not None:
        data["compliance"] = sheet.compliance.to_json()
    if sheet.protection is not None:
        data["protection"] = sheet.protection.to_json()
    return data


def bet_json(b: BetSheet, notation: Notation = Notation.BOTH) -> dict[str, Any]:
    """A bet's figures JSON-ready, payouts stated in ``notation``: every figure of
    :data:`~exactodds.report.figures.BET_FIGURES` by its key (an optional figure only where the
    bet has it, after the rows), the rounding rule, the confidence ranges and the rows.

    >>> from exactodds.paytable_loader import load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> pair = build_sheet(load_paytable("classic"), bet_ids=["player_pair"]).bets[0]
    >>> data = bet_json(pair, Notation.TO)
    >>> data["house_edge"], data["rows"][0]["pays"], "for_one" in data["rows"][0]
    ('43/415', '11 to 1', False)
    """
    f = b.figures
    bet = b.bet
    figures = in_view(View.JSON)
    rounding = (
        None
        if bet.rounding is None
        else {"step": exact(bet.rounding.step), "mode": bet.rounding.mode.value}
    )
    data: dict[str, Any] = {"id": bet.id, "name": bet.name}
    for figure in figures:
        if figure.optional:
            continue
        data[figure.key] = figure.json(b)
        if figure.key == "max_round":  # the rounding rule has always followed max_round
            data["rounding"] = rounding
    data.setdefault("rounding", rounding)
    data["confidence"] = [
        {
            "rounds": r.rounds,
            "level": exact(r.level),
            "low": r.low(CONFIDENCE_PLACES),
            "high": r.high(CONFIDENCE_PLACES),
        }
        for r in confidence_ranges(f.rtp, f.variance)
    ]
    data["rows"] = [
        {
            "event": row.event,
            "pays": row.pays.stated(notation),
            **_payout_forms(row.pays.to_one(), row.pays.for_one(), notation),
            "net": exact(row.net),
            "combinations": row.combinations,
            "probability": exact(row.probability),
            "return": exact(row.ret),
            "never_occurs": bool(note),
            "note": note,
        }
        for row, note in zip(f.rows, b.notes, strict=True)
    ]
    data["total"] = {"combinations": f.total, "probability": "1/1", "return": exact(f.ev)}
    for row_data, ex in zip(data["rows"], b.examples, strict=False):
        row_data["example"] = None if ex is None else ex.to_json()
    for figure in figures:
        if figure.optional and figure.present(b):
            data[figure.key] = figure.json(b)
    if b.unrounded_rtp is not None:
        data["rtp_by_stake"] = [
            {
                "stake": exact(s.stake),
                "rtp": exact(s.rtp),
                "equals_unrounded": s.equals_unrounded,
            }
            for s in b.rtp_by_stake
        ]
    return data


def _payout_forms(to_one: str, for_one: str, notation: Notation) -> dict[str, str]:
    """The "to 1" and "for 1" forms a sheet in ``notation`` states."""
    forms = {}
    if notation is not Notation.FOR:
        forms["to_one"] = to_one
    if notation is not Notation.TO:
        forms["for_one"] = for_one
    return forms


def _monte_carlo_json(sheet: Sheet) -> dict[str, Any]:
    """The sheet's Monte Carlo section (whose rows name the classes) JSON-ready: exact figures
    and observed frequencies as "p/q", counts as integers, z-scores and 99% intervals as
    floats."""
    from exactodds.analysis.montecarlo import Z99

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
                "within_99": not checks_outside(sheet, i),
                "verdict": verdict_line(sheet, i),
            }
            for i, (b, c) in enumerate(zip(sheet.bets, check.bets, strict=True))
        ],
    }
