"""The description of an edited paytable: :meth:`Paytable.with_payout
<exactodds.bets.paytable.Paytable.with_payout>` and the designer page's export keep the
description as loaded and list the payout edits after it (it may state the old payouts).

>>> edits = ["Tie: Tie 9:1 (was 8:1)", "Tie: Tie 10:1 (was 9:1)"]
>>> text = edited_description("Tie", "Tie pays 8:1.", edits)
>>> text
'Tie pays 8:1. Edited: Tie: Tie 9:1 (was 8:1); Tie: Tie 10:1 (was 9:1).'
>>> unedited_description("Tie", text, edits)
'Tie pays 8:1.'
>>> edited_description("Tie", "", edits[:1]), unedited_description("Tie", "Tie with x.", ["x"])
('Tie with Tie: Tie 9:1 (was 8:1).', '')
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["edited_description", "unedited_description"]


def edited_description(name: str, description: str, edits: Sequence[str]) -> str:
    """The description of paytable ``name`` after payout ``edits``: ``description`` with the
    edits listed after it or, without one, the name with the edits."""
    listed = "; ".join(edits)
    return f"{description} Edited: {listed}." if description else f"{name} with {listed}."


def unedited_description(name: str, description: str, edits: Sequence[str]) -> str:
    """The description :func:`edited_description` made ``description`` from (itself when it
    lists no edits)."""
    if not edits:
        return description
    if description == edited_description(name, "", edits):
        return ""
    return description.removesuffix(edited_description(name, "-", edits)[1:])
