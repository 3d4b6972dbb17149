"""The exposure analyses as text, Markdown, JSON (exact ``p/q``) and CSV.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.protection.exposure import analyse_sort
>>> result = analyse_sort(load_paytable("punto-banco"), frozenset(range(5, 9)), 1)
>>> print(render_exposure(result, "Punto Banco", "8 decks (416 cards)", "punto-banco", "csv"))
... # doctest: +ELLIPSIS
kind,signal,bet,combinations,value,exact
summary,,edge_per_round,,0.0676474709,6604082064256/97624966318425
...
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.escape import csv_cell, md_cell
from exactodds.formats import Format
from exactodds.numbers import exact, fixed, percent
from exactodds.tables import Align, pipe_table

if TYPE_CHECKING:
    from exactodds.protection.exposure import Exposure, Given, SortResult

__all__ = ["FORMATS", "render_exposure", "render_given", "render_optimise"]

FORMATS = (Format.TEXT, Format.MD, Format.JSON, Format.CSV)
"""Output formats of ``exposure`` and ``odds --given``."""

PLACES = 10
"""Decimals of the decimal column of CSV."""


def _pct(x: Fraction | None) -> str:
    return "—" if x is None else percent(x, 4)


def _summary(result: Exposure) -> list[tuple[str, str, Fraction | None]]:
    return [
        ("edge_per_round", "Player's edge per round dealt", result.edge_per_round),
        ("edge_per_bet", "Player's edge per round bet", result.edge_per_bet),
        ("bet_probability", "Rounds with a profitable bet", result.bet_probability),
        ("no_bet_probability", "Rounds with no profitable bet", result.no_bet_probability),
        (
            "house_loss_per_100",
            "House's expected loss per 100 rounds dealt (unit bet)",
            result.loss_per_100,
        ),
    ]


def render_exposure(result: Exposure, game: str, shoe: str, rules: str, fmt: str) -> str:
    """One exposure analysis in ``fmt`` (:data:`FORMATS`)."""
    fmt = Format.check(fmt, FORMATS)
    if fmt is Format.JSON:
        return json.dumps(exposure_json(result, game, shoe, rules), indent=2)
    if fmt is Format.CSV:
        return _exposure_csv(result)
    md = fmt is Format.MD
    cell = md_cell if md else (lambda s: s.replace("|", "\\|"))
    names = [cell(n) for n in result.bet_names]
    lines = [
        f"# Exposure: {cell(game)}" if md else f"Exposure: {game}",
        "",
        f"Procedure: {cell(result.procedure)}",
        f"Shoe: {cell(shoe)}    Rules: {cell(rules)}",
        "The player sees the signal, then makes the bet with the highest EV given it, or none "
        "when no EV is positive.",
        "",
    ]
    summary = [(label, _value_text(key, value)) for key, label, value in _summary(result)]
    lines += [pipe_table(summary, ("Figure", "Value"), ("left", "right")), ""]
    lines += ["## Signals" if md else "Signals:", ""]
    rows = [
        (
            cell(s.label),
            percent(s.probability, 4),
            "none" if s.best is None else names[s.best],
            _pct(s.best_ev),
            *(percent(ev, 3) for ev in s.evs),
        )
        for s in result.signals
    ]
    right: list[Align] = ["right"] * len(names)
    lines.append(
        pipe_table(
            rows,
            ("Signal", "Probability", "Best bet", "Best EV", *(f"EV {n}" for n in names)),
            ["left", "right", "left", "right", *right],
        )
    )
    lines += ["", "## Per bet" if md else "Per bet:", ""]
    per_bet = [
        (names[i], percent(result.full_evs[i], 4), percent(result.per_bet_edges[i], 4))
        for i in range(len(names))
    ]
    lines.append(
        pipe_table(
            per_bet,
            ("Bet", "EV without information", "Player's edge with it (this bet only)"),
            ("left", "right", "right"),
        )
    )
    return "\n".join(lines)


def _value_text(key: str, value: Fraction | None) -> str:
    if value is None:
        return "—"
    if key == "house_loss_per_100":
        return f"{fixed(value, 4)} units"
    return percent(value, 4)


def _json_fraction(x: Fraction | None) -> str | None:
    return None if x is None else exact(x)


def exposure_json(result: Exposure, game: str, shoe: str, rules: str) -> dict[str, Any]:
    """The analysis as a JSON-ready object: every figure exact (``"p/q"``)."""
    return {
        "game": game,
        "procedure": result.procedure,
        "shoe": shoe,
        "rules": rules,
        "bets": [
            {"id": i, "name": n} for i, n in zip(result.bet_ids, result.bet_names, strict=True)
        ],
        **{key: _json_fraction(value) for key, _, value in _summary(result)},
        "signals": [
            {
                "signal": s.label,
                "combinations": s.combinations,
                "probability": exact(s.probability),
                "best_bet": None if s.best is None else result.bet_ids[s.best],
                "best_ev": exact(s.best_ev),
                "ev": {b: exact(ev) for b, ev in zip(result.bet_ids, s.evs, strict=True)},
            }
            for s in result.signals
        ],
        "per_bet": [
            {"bet": b, "ev_without_information": exact(full), "edge_with_information": exact(e)}
            for b, full, e in zip(
                result.bet_ids, result.full_evs, result.per_bet_edges, strict=True
            )
        ],
    }


def _writer() -> tuple[io.StringIO, Any]:
    buffer = io.StringIO()
    return buffer, csv.writer(buffer, lineterminator="\n")


def _exposure_csv(result: Exposure) -> str:
    buffer, out = _writer()
    out.writerow(("kind", "signal", "bet", "combinations", "value", "exact"))
    for key, _, value in _summary(result):
        out.writerow(
            (
                "summary",
                "",
                key,
                "",
                "" if value is None else fixed(value, PLACES),
                _json_fraction(value) or "",
            )
        )
    for s in result.signals:
        best = "" if s.best is None else result.bet_ids[s.best]
        out.writerow(
            (
                "signal",
                csv_cell(s.label),
                csv_cell(best),
                s.combinations,
                fixed(s.probability, PLACES),
                exact(s.probability),
            )
        )
        for b, ev in zip(result.bet_ids, s.evs, strict=True):
            out.writerow(("ev", csv_cell(s.label), csv_cell(b), "", fixed(ev, PLACES), exact(ev)))
    for b, full, e in zip(result.bet_ids, result.full_evs, result.per_bet_edges, strict=True):
        out.writerow(("bet_ev", "", csv_cell(b), "", fixed(full, PLACES), exact(full)))
        out.writerow(("bet_edge", "", csv_cell(b), "", fixed(e, PLACES), exact(e)))
    return buffer.getvalue().rstrip("\n")


def render_optimise(
    results: Sequence[SortResult], game: str, setting: tuple[str, str, int, str], fmt: str
) -> str:
    """The best sorts found by :func:`~exactodds.protection.exposure.optimise_sort`; ``setting`` is
    (shoe, rules, seen, by)."""
    shoe, rules, seen, by = setting
    from exactodds.protection.exposure import group_text

    def other(group: frozenset[int]) -> frozenset[int]:
        return frozenset(range(13)) - group

    fmt = Format.check(fmt, FORMATS)
    if fmt is Format.JSON:
        return json.dumps(
            {
                "game": game,
                "shoe": shoe,
                "rules": rules,
                "seen": seen,
                "by": by,
                "sorts": [
                    {
                        "high": group_text(r.group),
                        "low": group_text(other(r.group)),
                        "edge_per_round": exact(r.edge_per_round),
                        "edge_per_bet": _json_fraction(r.edge_per_bet),
                        "bet_probability": exact(r.bet_probability),
                    }
                    for r in results
                ],
            },
            indent=2,
        )
    if fmt is Format.CSV:
        buffer, out = _writer()
        out.writerow(
            (
                "rank",
                "high",
                "low",
                "edge_per_round",
                "edge_per_round_exact",
                "edge_per_bet_exact",
                "bet_probability_exact",
            )
        )
        for i, r in enumerate(results, 1):
            out.writerow(
                (
                    i,
                    group_text(r.group),
                    group_text(other(r.group)),
                    fixed(r.edge_per_round, PLACES),
                    exact(r.edge_per_round),
                    _json_fraction(r.edge_per_bet) or "",
                    exact(r.bet_probability),
                )
            )
        return buffer.getvalue().rstrip("\n")
    md = fmt is Format.MD
    title = f"Best two-group sorts by {by}, seen on {seen} card(s): {game}"
    lines = [
        f"# {md_cell(title)}" if md else title,
        "",
        f"Shoe: {shoe}    Rules: {rules}",
        "",
    ]
    rows = [
        (
            str(i),
            group_text(r.group),
            group_text(other(r.group)),
            _pct(r.edge_per_round),
            _pct(r.edge_per_bet),
            percent(r.bet_probability, 4),
        )
        for i, r in enumerate(results, 1)
    ]
    lines.append(
        pipe_table(
            rows,
            ("#", "Group H", "Group L", "Edge per round dealt", "Edge per round bet", "Rounds bet"),
            ("right", "left", "left", "right", "right", "right"),
        )
    )
    return "\n".join(lines)


def render_given(given: str, result: Given, shoe: str, rules: str, fmt: str) -> str:
    """The conditional Banker/Player/Tie table (and every bet's figures) given known cards."""
    total, universe, winners, figures = (
        result.total,
        result.universe,
        result.winners,
        result.figures,
    )
    fmt = Format.check(fmt, FORMATS)
    if fmt is Format.JSON:
        return json.dumps(
            {
                "given": given,
                "shoe": shoe,
                "rules": rules,
                "combinations": total,
                "universe": universe,
                "probability": exact(Fraction(total, universe)),
                **{f"{k}_wins" if k != "tie" else "ties": n for k, n in winners.items()},
                "probabilities": {k: exact(Fraction(n, total)) for k, n in winners.items()},
                "bets": [
                    {
                        "id": f.bet.id,
                        "name": f.bet.name,
                        "ev": exact(f.ev),
                        "house_edge": exact(f.house_edge),
                        "hit_frequency": exact(f.hit_frequency),
                        "rows": [
                            {
                                "event": r.event,
                                "combinations": r.combinations,
                                "probability": exact(r.probability),
                            }
                            for r in f.rows
                        ],
                    }
                    for f in figures
                ],
            },
            indent=2,
        )
    if fmt is Format.CSV:
        buffer, out = _writer()
        out.writerow(("kind", "bet", "event", "combinations", "value", "exact"))
        out.writerow(
            (
                "given",
                "",
                csv_cell(given),
                total,
                fixed(Fraction(total, universe), PLACES),
                exact(Fraction(total, universe)),
            )
        )
        for k, n in winners.items():
            p = Fraction(n, total)
            out.writerow(("result", "", k, n, fixed(p, PLACES), exact(p)))
        for f in figures:
            out.writerow(("ev", csv_cell(f.bet.id), "", "", fixed(f.ev, PLACES), exact(f.ev)))
            for r in f.rows:
                out.writerow(
                    (
                        "row",
                        csv_cell(f.bet.id),
                        csv_cell(r.event),
                        r.combinations,
                        fixed(r.probability, PLACES),
                        exact(r.probability),
                    )
                )
        return buffer.getvalue().rstrip("\n")
    md = fmt is Format.MD
    cell = md_cell if md else (lambda s: s)
    lines = [
        f"# Given {md_cell(given)}" if md else f"Given: {given}",
        "",
        f"Shoe: {cell(shoe)}    Rules: {cell(rules)}",
        f"Rounds consistent with it: {total:,} of {universe:,} "
        f"({percent(Fraction(total, universe), 4)})",
        "",
    ]
    rows = [(k.capitalize(), f"{n:,}", fixed(Fraction(n, total), 10)) for k, n in winners.items()]
    rows.append(("Total", f"{total:,}", fixed(1, 10)))
    lines.append(
        pipe_table(rows, ("Result", "Combinations", "Probability"), ("left", "right", "right"))
    )
    if figures:
        lines += ["", "## Bets" if md else "Bets:", ""]
        bet_rows = [
            (
                md_cell(f.bet.name),
                percent(f.ev, 4),
                percent(f.house_edge, 4),
                percent(f.hit_frequency, 4),
            )
            for f in figures
        ]
        lines.append(
            pipe_table(
                bet_rows,
                ("Bet", "EV", "House edge", "Hit frequency"),
                ("left", "right", "right", "right"),
            )
        )
    return "\n".join(lines)
