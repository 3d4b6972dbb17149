"""The page of ``exactodds game banque``: Markdown, JSON with exact fractions as ``p/q``
strings, and HTML with the Banker's strategy grids coloured by action (the pieces of
:mod:`exactodds.report.games`)."""

from __future__ import annotations

from typing import Any

from exactodds.games.api import BanqueResult
from exactodds.games.banque import JOINT, NATURAL, STATES, BanqueSolution, state_name
from exactodds.numbers import exact
from exactodds.report.games import Section, render
from exactodds.report.games import _edge as edge
from exactodds.report.games import _mark as mark
from exactodds.report.games import _p as prob

__all__ = ["banque_data", "render_banque"]


def _play(draws: bool) -> str:
    return "draw" if draws else "stand"


def banque_data(result: BanqueResult) -> dict[str, Any]:
    """The JSON document: exact values as ``p/q`` strings."""
    s = result.solution
    cells = [s.cell(c) for c in range(len(s.form.cells))]
    return {
        "game": "baccara-banque",
        "model": "kemeny-snell",
        "shoe": s.form.shoe_text,
        "value_per_deal": exact(s.value),
        "value_per_hand": exact(s.value / 2),
        "banker_edge_per_hand": exact(s.banker_edge),
        "unique": s.unique,
        "team_joint_play_on_5": [
            {"left": _play(left), "right": _play(right), "probability": exact(z)}
            for (left, right), z in zip(JOINT, s.joint, strict=True)
        ],
        "team_is_independent": s.player_draw is not None,
        "team_is_nash": s.nash,
        "banker": [
            {
                "total": c.total,
                "left": state_name(c.left),
                "right": state_name(c.right),
                "draw": exact(c.draw),
            }
            for c in cells
        ],
        "banker_mixed": [str(c) for c in s.mixed_cells()],
        "three_person_symmetric_equilibria": [
            {
                "draw_on_5": exact(e.draw),
                "hand_payoff_per_deal": exact(e.hand),
                "banker_edge_per_hand": exact(e.banker_edge),
                "banker_mixed": {str(s.cell(c)): exact(v) for c, v in enumerate(e.y) if 0 < v < 1},
                "continuum": e.continuum,
            }
            for e in result.symmetric
        ],
        "three_person_search_complete": result.complete,
    }


def render_banque(result: BanqueResult, fmt: str = "md") -> str:
    """The page of ``exactodds game banque``."""
    return render(fmt, lambda: banque_data(result), lambda: _sections(result))


def _three_person(result: BanqueResult) -> Section:
    s = result.solution
    if s.player_draw is None:
        lead = (
            "The team's optimum is not two independent mixes (its hands' plays are "
            "correlated), so it is no profile of the three-person game."
        )
    else:
        lead = (
            f"The team's optimum is two independent mixes drawing on 5 with probability "
            f"{prob(s.player_draw)}; with the Banker's strategy it is "
            + ("" if s.nash else "not ")
            + "a Nash equilibrium of the three-person game (each hand paid its own result)."
        )
    tail = (
        " The search below is complete."
        if result.complete
        else " Not searched: the points where the Banker's best reply switches at an "
        "irrational probability (an equilibrium there would need one)."
    )
    rows = [
        [
            prob(e.draw) + (" (and nearby)" if e.continuum else ""),
            ", ".join(f"{s.cell(c)}: {prob(v)}" for c, v in enumerate(e.y) if 0 < v < 1) or "none",
            edge(e.hand),
            edge(e.banker_edge),
        ]
        for e in result.symmetric
    ]
    return (
        2,
        "Three-person game: equilibria with equal, independent Player mixes",
        lead + tail,
        ["Each hand draws on 5", "Banker mixes", "Each hand's payoff", "Banker's edge per hand"],
        rows,
    )


def _sections(result: BanqueResult) -> list[Section]:
    s = result.solution
    unique = "unique" if s.unique else "not unique"
    out: list[Section] = [
        (
            1,
            f"Baccara banque — kemeny-snell, {s.form.shoe_text}",
            f"One Banker against two Player hands, solved as a two-person game against the "
            f"hands as a team with correlated play (Ethier & Lee's correlated cooperative "
            f"solution, equal stakes). Value to the two hands: {edge(s.value)} per deal, "
            f"{edge(s.value / 2)} per hand; the Banker's edge: {edge(s.banker_edge)} per "
            f"hand; the equilibrium is {unique}. Payoff +1 / -1 / 0 per hand, no commission.",
            [],
            [],
        ),
        (
            2,
            "The team's joint play on 5",
            "The probability of each joint play of the two hands when both hold 5 (a hand "
            "sees only its own total; the mix may be correlated).",
            ["Left hand", "Right hand", "Probability"],
            [
                [_play(left), _play(right), prob(z)]
                for (left, right), z in zip(JOINT, s.joint, strict=True)
            ],
        ),
        (
            2,
            "Banker: mixed cells",
            "Cells (his total v the left and right hands' states) where the optimal Banker "
            "draws at random." + ("" if s.mixed_cells() else " None."),
            ["Banker total", "Left hand", "Right hand", "Draw"],
            [
                [str(c.total), state_name(c.left), state_name(c.right), prob(c.draw)]
                for c in s.mixed_cells()
            ],
        ),
        _three_person(result),
    ]
    out.append(_grid(s))
    return out


def _grid(s: BanqueSolution) -> Section:
    index = {cell: c for c, cell in enumerate(s.form.cells)}
    rows = []
    for total in range(8):
        for left in STATES:
            row = [f"{total} v {state_name(left)}"]
            for right in STATES:
                c = index.get((total, left, right))
                row.append("—" if c is None else mark(s.y[c], True))
            rows.append(row)
    return (
        2,
        "Banker: strategy grid",
        "D draw, S stand, or the probability of drawing; rows: the Banker's total v the left "
        "hand's state, columns: the right hand's state (— where he has no decision or the "
        "shoe cannot deal it). Where "
        f"one hand holds a natural ({state_name(NATURAL)}) he plays the other.",
        ["grid", *(state_name(v) for v in STATES)],
        rows,
    )
