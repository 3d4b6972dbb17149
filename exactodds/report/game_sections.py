"""The math sheet's sections on the game played: the paytable's description and what the sheet
overrides, the shoe's composition and the drawing rules as tables (parts of
:func:`exactodds.report.content.document`).
"""

from __future__ import annotations

from exactodds.deal.round import Action, banker_action, player_action
from exactodds.deal.shoe import RANKS, SUITS
from exactodds.report.document import Block, Heading, Inline, Para, Strong, Table
from exactodds.report.sheet import Sheet

__all__ = ["game_blocks", "shoe_blocks", "tableau_blocks"]


def game_blocks(sheet: Sheet) -> list[Block]:
    """The paytable's own description and source, then what this sheet actually computes: its
    shoe and rules, and every option that overrides the paytable."""
    t = sheet.paytable
    blocks: list[Block] = [Heading(2, "Game", "game")]
    if t.description:
        blocks.append(Para(t.description))
    if t.source:
        blocks.append(Para(f"Source: {t.source}"))
    if sheet.overrides:
        blocks.append(
            Para(
                (Strong("This sheet differs from the paytable:"), " ", " ".join(sheet.overrides)),
                "flag",
            )
        )
    rules = f"Drawing rules: {sheet.tableau.name}"
    if sheet.tableau.description:
        rules += f" — {sheet.tableau.description}"
    blocks.append(Para(f"Shoe used here: {sheet.shoe.describe()}. {rules}"))
    return blocks


def shoe_blocks(sheet: Sheet) -> list[Block]:
    """The shoe's composition: cards by rank (and suit when suits differ), and by value."""
    shoe = sheet.shoe
    ranks = shoe.rank_counts
    rows: list[tuple[Inline, ...]] = [("Cards", *(str(n) for n in ranks))]
    if any(len(set(row)) > 1 for row in shoe.counts):
        for s, suit in enumerate(SUITS):
            rows.append((f"of suit {suit}", *(str(row[s]) for row in shoe.counts)))
    values = shoe.value_counts
    return [
        Heading(2, "Shoe", "shoe"),
        Para(f"{shoe.describe()}: {shoe.size} cards, each round dealt from this full composition."),
        Table(("Rank", *RANKS), tuple(rows), "l" + "r" * len(RANKS)),
        Table(
            ("Value", *(str(v) for v in range(10))),
            (("Cards", *(str(n) for n in values)),),
            "l" + "r" * 10,
            caption="Baccarat values: ace 1, two to nine at face value, ten and faces 0.",
        ),
    ]


_ACTION_LETTERS = {Action.DRAW: "D", Action.STAND: "S", Action.NATURAL: "N"}


def tableau_blocks(sheet: Sheet) -> list[Block]:
    """The drawing rules as tables: the player's action by total, the banker's by total and
    the player's third card."""
    t = sheet.tableau
    thirds: tuple[int | None, ...] = (None, *range(10))
    banker_rows = tuple(
        (str(total), *(_ACTION_LETTERS[banker_action(t, total, x)] for x in thirds))
        for total in range(10)
    )
    return [
        Heading(2, f"Drawing rules: {t.name}", "rules"),
        Para(
            "D = draws a third card, S = stands, N = natural (a two-card 8 or 9 in either hand "
            "ends the deal)."
        ),
        Table(
            ("Player two-card total", *(str(v) for v in range(10))),
            (("Player", *(_ACTION_LETTERS[player_action(t, v)] for v in range(10))),),
            "l" + "c" * 10,
        ),
        Table(
            ("Banker two-card total", "Player stood", *(f"3rd {v}" for v in range(10))),
            banker_rows,
            "l" + "c" * 11,
            caption="Columns: the player stood, or the value of the player's third card.",
            css="tableau",
        ),
    ]
