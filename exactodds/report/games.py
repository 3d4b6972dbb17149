"""Pages of the games with choices (``exactodds game``): Markdown, JSON with exact fractions as
``p/q`` strings, and a self-contained HTML page whose strategy grids are coloured by action and
mixing probability (every text escaped).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from exactodds.deal.tableau import STOOD
from exactodds.escape import md_cell
from exactodds.formats import Format
from exactodds.games.api import CheminResult
from exactodds.games.chemin import hand_text, hand_total
from exactodds.games.commission import CommissionSolution
from exactodds.games.equilibrium import Solution
from exactodds.games.gold import GoldResult
from exactodds.games.rules import column_name
from exactodds.numbers import exact, percent, signed
from exactodds.tables import pipe_table

__all__ = ["chemin_data", "gold_data", "render", "render_chemin", "render_gold", "render_page"]

_COLUMNS = (*range(10), STOOD)


def _p(x: Fraction) -> str:
    """A probability: exact, with its percentage."""
    return f"{x.numerator}/{x.denominator} ({percent(x, 4)})" if 0 < x < 1 else str(x)


def _edge(x: Fraction) -> str:
    return f"{exact(x)} ({signed(x * 100, 4)}%)"


def _title(s: Solution) -> str:
    return f"Chemin de fer — {s.form.model.value}, {s.form.shoe_text}, rules {s.rules.name}"


def _banker_grid(s: Solution) -> tuple[list[str], list[tuple[str, list[tuple[Fraction, bool]]]]]:
    """Rows of the Banker's strategy: his hand, then (draw probability, free) per column."""
    index = {cell: j for j, cell in enumerate(s.form.cells)}
    hands = sorted({h for h, _ in s.form.cells}, key=lambda h: (hand_total(h), h))
    rows = []
    for h in hands:
        cells = []
        for col in _COLUMNS:
            j = index.get((h, col))
            free = (hand_total(h), col) in s.rules.banker_free
            draw = Fraction(int(s.rules.banker_draws(hand_total(h), col))) if j is None else s.y[j]
            cells.append((draw, free))
        rows.append((hand_text(h), cells))
    return [column_name(c) for c in _COLUMNS], rows


def _mark(draw: Fraction, free: bool) -> str:
    if 0 < draw < 1:
        return f"{draw.numerator}/{draw.denominator}"
    word = "D" if draw == 1 else "S"
    return word if free else word.lower()


def chemin_data(result: CheminResult | Sequence[CheminResult]) -> dict[str, Any]:
    """The JSON document: exact values as ``p/q`` strings."""
    if not isinstance(result, CheminResult):
        return {
            "game": "chemin-de-fer",
            "comparison": [chemin_data(r) for r in result],
        }
    s = result.solution
    out: dict[str, Any] = {
        "game": "chemin-de-fer",
        "model": s.form.model.value,
        "shoe": s.form.shoe_text,
        "rules": s.rules.name,
        "value": exact(s.value),
        "unique": s.unique,
        "player_unique": s.player_unique,
        "banker_unique": s.banker_unique,
        "player": [{"hand": str(i), "draw": exact(i.draw)} for i in s.player],
        "banker_mixed": [
            {"hand": hand_text(c.hand), "third_card": column_name(c.col), "draw": exact(c.draw)}
            for c in s.mixed_cells()
        ],
        "banker": [
            {"hand": hand_text(c.hand), "third_card": column_name(c.col), "draw": exact(c.draw)}
            for c in s.banker
        ],
        "costs": [
            {
                "side": c.side,
                "rule": c.rule,
                "against_best_reply": exact(c.best_reply),
                "against_equilibrium": exact(c.equilibrium),
            }
            for c in s.costs
        ],
    }
    if result.commission is not None:
        out["commission"] = _commission_data(result.commission)
    return out


def _commission_data(c: CommissionSolution) -> dict[str, Any]:
    return {
        "rate": exact(c.commission),
        "unique": c.unique,
        "equilibria": [
            {
                "player_draw": None if e.draw is None else exact(e.draw),
                "banker_mixed": [
                    {
                        "hand": hand_text(m.hand),
                        "third_card": column_name(m.col),
                        "draw": exact(m.draw),
                    }
                    for m in e.mixed
                ],
                "player_payoff": exact(e.player),
                "banker_profit": exact(e.banker),
            }
            for e in c.equilibria
        ],
    }


def render_chemin(result: CheminResult | Sequence[CheminResult], fmt: str = "md") -> str:
    """The page of ``exactodds game chemin-de-fer`` (one shoe, or a comparison of shoes)."""
    return render(
        fmt,
        lambda: chemin_data(result),
        lambda: _sections(result) if isinstance(result, CheminResult) else _comparison(result),
    )


def render(
    fmt: str, data: Callable[[], dict[str, Any]], sections: Callable[[], list[Section]]
) -> str:
    """A page in ``fmt`` (md, json or html): the JSON of ``data()``, or ``sections()`` as
    Markdown or as an HTML page titled by the first heading."""
    chosen = Format.check(fmt, (Format.MD, Format.JSON, Format.HTML))
    if chosen is Format.JSON:
        return json.dumps(data(), indent=2)
    parts = sections()
    if chosen is Format.HTML:
        return render_page(parts[0][1], parts)
    return "\n".join(_markdown(parts))


Section = tuple[int, str, str, list[str], list[list[str]]]
"""(heading level, heading, paragraph, table headers, table rows); rows of a grid are marked
by headers starting with ``"grid"``."""


def _sections(result: CheminResult) -> list[Section]:
    s = result.solution
    unique = (
        "unique"
        if s.unique
        else (
            "not unique ("
            + ", ".join(
                side
                for side, u in (("Player", s.player_unique), ("Banker", s.banker_unique))
                if not u
            )
            + " has several optimal strategies)"
        )
    )
    out: list[Section] = [
        (
            1,
            _title(s),
            f"Value of the game to the Player: {_edge(s.value)} per hand; the equilibrium is "
            f"{unique}. Payoff +1 / -1 / 0, no commission.",
            [],
            [],
        ),
        (
            2,
            "Player: probability of drawing",
            "On each hand where the rules leave him the choice."
            if s.player
            else "None: the rules leave the Player no choice.",
            ["Hand", "Draw"],
            [[str(i), _p(i.draw)] for i in s.player],
        ),
        (
            2,
            "Banker: mixed cells",
            "Cells where the optimal Banker draws at random."
            if s.mixed_cells()
            else "None: the optimal Banker never mixes.",
            ["Banker hand", "Player's third card", "Draw"],
            [[hand_text(c.hand), column_name(c.col), _p(c.draw)] for c in s.mixed_cells()],
        ),
    ]
    headers, rows = _banker_grid(s)
    out.append(
        (
            2,
            "Banker: strategy grid",
            "D draw, S stand (a free choice), d, s (fixed by the rules), or the probability of "
            "drawing; rows: the Banker's hand, columns: the Player's third card or stood.",
            ["grid", *headers],
            [[name, *(_mark(d, f) for d, f in cells)] for name, cells in rows],
        )
    )
    out.append(
        (
            2,
            "Cost of fixed rules against an optimal opponent",
            "Expected loss per hand of playing the rule instead of the optimal strategy, "
            "against an opponent who best-replies to it, and against the opponent's optimal "
            "strategy.",
            ["Side", "Rule", "Against a best reply", "Against the optimal opponent"],
            [[c.side, c.rule, _edge(c.best_reply), _edge(c.equilibrium)] for c in s.costs],
        )
    )
    if result.commission is not None:
        out.extend(_commission_sections(result.commission))
    return out


def _commission_sections(c: CommissionSolution) -> list[Section]:
    rows = [
        [
            "no choice" if e.draw is None else _p(e.draw),
            ", ".join(f"{hand_text(m.hand)} v {column_name(m.col)}: {_p(m.draw)}" for m in e.mixed)
            or "none",
            _edge(e.player),
            _edge(e.banker),
        ]
        for e in c.equilibria
    ]
    return [
        (
            2,
            f"With a {percent(c.commission, 2)} commission on Banker wins",
            "The Nash equilibria (" + ("unique" if c.unique else "not unique") + "): the "
            "Player's probability of drawing on 5, the Banker's mixed cells, and each side's "
            "expected payoff per hand, the Banker's after commission.",
            ["Player draws on 5", "Banker mixes", "Player's payoff", "Banker's profit"],
            rows,
        )
    ]


def _comparison(results: Sequence[CheminResult]) -> list[Section]:
    first = results[0].solution
    rows = []
    for r in results:
        s = r.solution
        row = [
            s.form.shoe_text,
            _edge(s.value),
            ", ".join(f"{i}: {_p(i.draw)}" for i in s.player) or "—",
            ", ".join(
                f"{hand_text(c.hand)} v {column_name(c.col)}: {_p(c.draw)}" for c in s.mixed_cells()
            )
            or "none",
            "yes" if s.unique else "no",
        ]
        if r.commission is not None:
            row.append("; ".join(_edge(e.banker) for e in r.commission.equilibria) or "none found")
        rows.append(row)
    headers = ["Shoe", "Value to the Player", "Player draws", "Banker mixes", "Unique"]
    if results[0].commission is not None:
        headers.append(f"Banker's profit, {percent(results[0].commission.commission, 2)}")
    return [
        (
            1,
            f"Chemin de fer — {first.form.model.value}, rules {first.rules.name}, by shoe",
            "The value of the game to the Player per hand and both sides' mixed strategies.",
            headers,
            rows,
        )
    ]


def _markdown(sections: list[Section]) -> list[str]:
    lines: list[str] = []
    for level, heading, para, headers, rows in sections:
        lines += [f"{'#' * level} {md_cell(heading)}", "", md_cell(para), ""]
        if headers and rows:  # no table of no rows: the paragraph says "None"
            names = ["Hand" if h == "grid" else h for h in headers]
            lines += [pipe_table([[md_cell(c) for c in r] for r in rows], names), ""]
    return lines[:-1]


def _colour(text: str) -> str:
    """The background of a grid cell: green for draw, grey for stand, between for a mix."""
    if text == "—":  # no decision here
        return "#fff"
    if text in ("D", "d"):
        share = Fraction(1)
    elif text in ("S", "s"):
        share = Fraction(0)
    else:
        a, _, b = text.partition("/")
        share = Fraction(int(a), int(b))
    light = 92 - int(share * 40)
    return f"hsl(130, {int(20 + share * 40)}%, {light}%)"


def render_page(title: str, sections: list[Section]) -> str:
    """A self-contained HTML page of ``sections`` (no script; every text escaped)."""
    body: list[str] = []
    for level, heading, para, headers, rows in sections:
        body.append(f"<h{level}>{html.escape(heading)}</h{level}>")
        body.append(f"<p>{html.escape(para)}</p>")
        if not headers or not rows:  # no table of no rows: the paragraph says "None"
            continue
        grid = headers[0] == "grid"
        names = ["Hand" if h == "grid" else h for h in headers]
        body.append('<table class="grid">' if grid else "<table>")
        body.append("<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in names) + "</tr>")
        for row in rows:
            cells = [f"<th>{html.escape(row[0])}</th>"] if grid else []
            for text in row[1:] if grid else row:
                if grid:
                    free = "free" if text.upper() == text else "fixed"
                    cells.append(
                        f'<td class="{free}" style="background: {_colour(text)}">'
                        f"{html.escape(text)}</td>"
                    )
                else:
                    cells.append(f"<td>{html.escape(text)}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        body.append("</table>")
    style = (
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #bbb;padding:.25em .5em;text-align:left}"
        "table.grid td{text-align:center;min-width:3em}"
        "td.free{font-weight:bold}td.fixed{color:#555}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def gold_data(result: GoldResult) -> dict[str, Any]:
    """The JSON document of ``exactodds game baccarat-gold``."""
    return {
        "game": "baccarat-gold",
        "shoe": result.shoe,
        "decisions": [
            {
                "hand": str(d),
                "play": "hit" if d.hit else "stand",
                "player_ev_hit": exact(d.ev_hit),
                "player_ev_stand": exact(d.ev_stand),
            }
            for d in result.decisions
        ],
        "policies": [
            {
                "policy": p.name,
                "player_wins": p.player_wins,
                "banker_wins": p.banker_wins,
                "ties": p.ties,
                "total": p.total,
                "player_edge": exact(p.player_edge),
                "banker_edge": exact(p.banker_edge),
                "tie_edge": exact(p.tie_edge),
            }
            for p in result.policies
        ],
    }


def render_gold(result: GoldResult, fmt: str = "md") -> str:
    """The page of ``exactodds game baccarat-gold``."""
    return render(fmt, lambda: gold_data(result), lambda: _gold_sections(result))


def _gold_sections(result: GoldResult) -> list[Section]:
    return [
        (
            1,
            f"Baccarat Gold — {result.shoe}",
            "Punto banco, except that the Player bettor may hit or stand on 5, a Banker facing a "
            "drawn third card draws on 0-3, on 4-5 only against a 3-7, never on 6-7, and Tie "
            "pays 9 to 1.",
            [],
            [],
        ),
        (
            2,
            "The Player bettor's decision on 5",
            "By the two cards he holds (0: a ten or a face): the Player bet's expected value "
            "given that hand, hitting and standing.",
            ["Hand", "Play", "EV hitting", "EV standing"],
            [
                [str(d), "hit" if d.hit else "stand", _edge(d.ev_hit), _edge(d.ev_stand)]
                for d in result.decisions
            ],
        ),
        (
            2,
            "House edge of each bet by the bettor's policy on 5",
            "Combinations out of every six-card sequence; Player pays 1 to 1, Banker 19 to 20, "
            "Tie 9 to 1.",
            [
                "Policy",
                "Player wins",
                "Banker wins",
                "Ties",
                "Player edge",
                "Banker edge",
                "Tie edge",
            ],
            [
                [
                    p.name,
                    f"{p.player_wins:,}",
                    f"{p.banker_wins:,}",
                    f"{p.ties:,}",
                    _edge(p.player_edge),
                    _edge(p.banker_edge),
                    _edge(p.tie_edge),
                ]
                for p in result.policies
            ],
        ),
    ]
