"""Summary of the engine's joint distribution: Banker/Player/Tie and the final-totals table.

>>> s = odds_summary(Shoe.decks(8))
>>> s["banker_wins"] + s["player_wins"] + s["ties"] == s["total_combinations"]
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from exactodds.deal.engine import joint_distribution, winners_of
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau, load_tableau
from exactodds.errors import require
from exactodds.formats import Format
from exactodds.numbers import fixed

__all__ = ["odds_summary", "render_odds"]


def odds_summary(shoe: Shoe, rules: str | Tableau | None = None) -> dict[str, Any]:
    """A JSON-ready summary: exact integer combinations, probabilities as "p/q" strings.

    >>> s = odds_summary(Shoe.decks(8))
    >>> s["ties"], s["probabilities"]["tie"]  # docs/rules.md §9
    (475627426473216, '619306544887/6508331087895')
    >>> Fraction(s["probabilities"]["tie"]) == Fraction(s["ties"], s["total_combinations"])
    True
    """
    require(shoe, (Shoe,), "shoe")
    require(rules, (str, Tableau, type(None)), "rules")
    tableau = load_tableau(rules)
    joint = joint_distribution(shoe, tableau)
    total = joint.total
    table = joint.totals_table()
    wins = winners_of(table)
    return {
        "rules": tableau.name,
        "shoe": shoe.describe(),
        "cards": shoe.size,
        "total_combinations": total,
        "banker_wins": wins[Winner.BANKER],
        "player_wins": wins[Winner.PLAYER],
        "ties": wins[Winner.TIE],
        "probabilities": {w.value: str(Fraction(wins[w], total)) for w in Winner},
        "totals": [
            {"player": p, "banker": b, "combinations": table[p, b]}
            for p in range(10)
            for b in range(10)
            if (p, b) in table
        ],
    }


def render_odds(summary: dict[str, Any], fmt: str = "text") -> str:
    """Human-readable ``text`` for :func:`odds_summary`, or ``json``: the summary as one JSON
    object.

    >>> text = render_odds(odds_summary(Shoe.decks(8), "mini"))
    >>> print(text)  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    Shoe: 8 decks (416 cards)    Rules: mini
    Universe: 4,998,398,275,503,360 ordered six-card sequences
    ...
    | Total | 4,998,398,275,503,360 | 1.0000000000 |
    ...
    """
    fmt = Format.check(fmt, (Format.TEXT, Format.JSON))
    if fmt is Format.JSON:
        import json

        return json.dumps(summary, indent=2)
    from exactodds.tables import Align, pipe_table

    total = summary["total_combinations"]
    head = [
        f"Shoe: {summary['shoe']}    Rules: {summary['rules']}",
        f"Universe: {total:,} ordered six-card sequences",
        "",
    ]
    rows = [
        (name, f"{n:,}", fixed(Fraction(n, total), 10))
        for name, n in (
            ("Banker", summary["banker_wins"]),
            ("Player", summary["player_wins"]),
            ("Tie", summary["ties"]),
        )
    ]
    rows.append(("Total", f"{total:,}", f"{1:.10f}"))
    out = pipe_table(rows, ("Result", "Combinations", "Probability"), ("left", "right", "right"))
    grid = {(t["player"], t["banker"]): t["combinations"] for t in summary["totals"]}
    tab_rows = [
        [f"P {p}", *(fixed(Fraction(grid.get((p, b), 0), total), 6) for b in range(10))]
        for p in range(10)
    ]
    numbers: list[Align] = ["right"] * 10
    totals = pipe_table(tab_rows, ["", *(f"B {b}" for b in range(10))], ["left", *numbers])
    caption = "Probability by final totals (rows Player, columns Banker):"
    return "\n".join([*head, out, "", caption, totals])
