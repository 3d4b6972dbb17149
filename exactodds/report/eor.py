"""The effect-of-removal page of ``exactodds eor`` (:mod:`exactodds.analysis.eor` computes it):
Markdown with the counting tags, JSON, or HTML with a chart per bet.
"""

from __future__ import annotations

import json

from exactodds.analysis.eor import STREAK_EOR, TRUE_COUNT, EffectOfRemoval
from exactodds.bets.streak import STREAK_MARK
from exactodds.deal.shoe import RANKS, SUITS
from exactodds.escape import md_cell, one_line
from exactodds.formats import Format
from exactodds.numbers import signed

__all__ = ["SUIT_NAMES", "render_eor"]


def render_eor(
    result: EffectOfRemoval, paytable: str = "", fmt: str = "md", source: str = ""
) -> str:
    """Markdown (``md``): EOR per rank in percentage points of EV, then the counting tags;
    ``json``: :meth:`EffectOfRemoval.to_json`; ``html``: a page with a chart of each bet's EOR
    per rank beside the same table (``source``: the paytable file and its SHA-256)."""
    fmt = Format.check(fmt, (Format.MD, Format.JSON, Format.HTML))
    if fmt is Format.JSON:
        return json.dumps(result.to_json(paytable), indent=2)
    if fmt is Format.HTML:
        return _eor_html(result, paytable, source)
    from exactodds.tables import pipe_table

    head = [
        f"# Effect of removal — {one_line(paytable)}" if paytable else "# Effect of removal",
        "",
        f"Shoe: {result.shoe.describe()}. Each cell: change of the bet's EV, in % of the stake, "
        "when one card of that rank is removed (exact values in --format json).",
        *(["", f"{STREAK_MARK} {STREAK_EOR}."] if result.streaks else []),
        "",
    ]
    rows = []
    for b, name in zip(result.bet_ids, result.bet_names, strict=True):
        cells = ["—" if (e := result.eor[b][r]) is None else signed(e * 100, 5) for r in RANKS]
        rows.append([md_cell(name), signed(result.ev[b] * 100, 4), *cells])
    table = pipe_table(rows, ["Bet", "EV %", *RANKS])
    tag_rows = []
    for b, name in zip(result.bet_ids, result.bet_names, strict=True):
        count = result.tags[b]
        tags = [f"{count.tags[r]:+d}" for r in RANKS]
        balance = "balanced" if count.balanced else f"{count.imbalance_per_deck:+d}"
        tag_rows.append([md_cell(name), *tags, balance, f"{result.correlation(b):.3f}"])
    tag_table = pipe_table(tag_rows, ["Bet", *RANKS, "per deck", "corr."])
    suits = []
    if result.eor_suits:
        suits = [
            "",
            "## Effect of removal per suit",
            "",
            _SUIT_NOTE,
            "",
            pipe_table([[md_cell(n), *c] for n, c in _suit_rows(result)], ["Bet", *SUIT_NAMES]),
        ]
    note = (
        f"Counting tags: a rounded multiple of the EORs, at most ±{result.level}, equal for "
        "ranks with equal EOR, the best-correlated multiple kept. A player counts the tags of "
        "the cards seen; per deck = what one full deck counts (balanced: 0); corr. = "
        "correlation of tags with EOR. A bet whose EORs are all zero (pairs on a full shoe) "
        f"cannot be counted by rank. {TRUE_COUNT}"
    )
    return "\n".join([*head, table, *suits, "", "## Counting tags", "", note, "", tag_table])


SUIT_NAMES: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
"""Column heads of the per-suit table, in the order of :data:`~exactodds.deal.shoe.SUITS`."""

_SUIT_NOTE = (
    "For bets that read suits or colours: change of the bet's EV, in % of the stake, when one "
    "card of that suit is removed (the count-weighted mean over its ranks)."
)


def _suit_rows(result: EffectOfRemoval) -> list[tuple[str, list[str]]]:
    """Per bet that reads suits: its name and one cell per suit (— when the shoe has none)."""
    names = dict(zip(result.bet_ids, result.bet_names, strict=True))
    return [
        (names[b], ["—" if (e := per[u]) is None else signed(e * 100, 5) for u in SUITS])
        for b, per in result.eor_suits.items()
    ]


def _eor_html(result: EffectOfRemoval, paytable: str, source: str) -> str:
    """The EOR as a self-contained HTML page: facts, the EOR table, and one bar chart per bet
    (a bar per rank, below zero left of a zero line), each with its data as text."""
    from exactodds._version import VERSION as __version__
    from exactodds.report.document import Block, Chart, Document, Heading, Para, Table
    from exactodds.report.html import render_html
    from exactodds.report.sheet import resolve_date

    facts: tuple[tuple[str, ...], ...] = (
        ("Software", f"exactodds {__version__}"),
        ("Paytable", paytable or "—"),
        ("Source", source or "—"),
        ("Shoe", result.shoe.describe()),
    )
    rows = tuple(
        (
            name,
            signed(result.ev[b] * 100, 4),
            *("—" if (e := result.eor[b][r]) is None else signed(e * 100, 5) for r in RANKS),
        )
        for b, name in zip(result.bet_ids, result.bet_names, strict=True)
    )
    blocks: tuple[Block, ...] = (
        Table(("Item", "Value"), facts, "ll"),
        Heading(2, "Effect of removal per rank", "eor"),
        Para(
            "Each cell and bar: change of the bet's EV, in % of the stake, when one card of "
            "that rank is removed (exact values: --format json)."
            + (f" {STREAK_MARK} {STREAK_EOR}." if result.streaks else "")
        ),
        Table(("Bet", "EV %", *RANKS), rows, "l" + "r" * (len(RANKS) + 1)),
        *(
            Chart(
                f"Effect of removal on {name} per rank (EV change, % of stake)",
                tuple((r, e) for r in RANKS if (e := result.eor[b][r]) is not None),
                5,
            )
            for b, name in zip(result.bet_ids, result.bet_names, strict=True)
        ),
        *(
            (
                Heading(2, "Effect of removal per suit", "eor-suits"),
                Para(_SUIT_NOTE),
                Table(
                    ("Bet", *SUIT_NAMES),
                    tuple((n, *c) for n, c in _suit_rows(result)),
                    "l" + "r" * len(SUITS),
                ),
            )
            if result.eor_suits
            else ()
        ),
    )
    title = f"Effect of removal — {one_line(paytable)}" if paytable else "Effect of removal"
    return render_html(
        Document(title, blocks, resolve_date(None), __version__, source, "exactodds eor")
    )
