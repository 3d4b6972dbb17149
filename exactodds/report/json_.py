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
from typing import Any

from exactodds.report.sheet import Sheet

__all__ = ["render_json"]


def render_json(sheets: Sequence[Sheet]) -> str:
    """One sheet as a JSON object (:meth:`~exactodds.report.sheet.Sheet.to_json`), several as a
    JSON list (ends with a newline)."""
    data: Any = sheets[0].to_json() if len(sheets) == 1 else [s.to_json() for s in sheets]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
