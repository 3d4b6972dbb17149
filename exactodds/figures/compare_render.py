"""A comparison of variants as text: a Markdown table (with the deck-count formulas), long-form
CSV, or JSON (:meth:`~exactodds.figures.compare_results.Comparison.to_json`)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from fractions import Fraction

from exactodds.bets.streak import STREAK_LEGEND
from exactodds.escape import csv_cell, md_cell
from exactodds.figures.compare_results import AXES, AXIS_TITLES, Comparison, VariantResult
from exactodds.figures.formula import CHECKED_AT, DERIVED_FROM
from exactodds.figures.variants import INFINITE, DeckCount
from exactodds.formats import Format
from exactodds.numbers import fixed, percent
from exactodds.tables import Align, pipe_table

__all__ = ["render_comparison"]


def _cell(edges: Mapping[str, Fraction], bet_id: str) -> str:
    edge = edges.get(bet_id)
    if edge is None:
        return "-"
    return percent(edge) + (" *" if edge < 0 else "")


def _decks_label(decks: DeckCount) -> str:
    return "∞" if decks == INFINITE else str(decks)


def _axis_value(r: VariantResult, axis: str) -> str:
    """An axis's value in a table cell under its :data:`AXIS_TITLES` head."""
    return {
        "rules": r.variant.rules,
        "decks": _decks_label(r.variant.decks),
        "tie": r.tie_label,
        "banker": r.banker_label,
    }[axis]


def _formula_lines(comparison: Comparison) -> list[str]:
    """The Markdown section of the deck-count formulas: one table per rules × Tie × Banker."""
    derived = "–".join(str(n) for n in (DERIVED_FROM[0], DERIVED_FROM[-1]))
    checked = " and ".join(str(n) for n in CHECKED_AT)
    lines = [
        "",
        "House edge H(d) on a full shoe of d decks, exact for every d ≥ 1: derived with sympy "
        f"from the enumeration at d = {derived}, checked against it at d = {checked}; "
        "d → ∞ is the infinite-deck limit (cards drawn with replacement).",
    ]
    for f in comparison.formulas:
        rows = [
            [
                md_cell(f"{formula.name} ({formula.bet_id})"),
                md_cell(formula.text()),
                _cell({formula.bet_id: formula.limit}, formula.bet_id),
            ]
            for formula in f.formulas
        ]
        table = pipe_table(rows, ["Bet", "H(d)", "d → ∞"], ["left", "left", "right"])
        lines += [
            "",
            f"{md_cell(f.label)}:",
            "",
            table,
        ]
    return lines


def render_comparison(comparison: Comparison, fmt: str = "md") -> str:
    """The comparison as a Markdown table (``md``), long-form ``csv`` or ``json``.

    In Markdown, player-favourable cells (house edge below zero) are marked with ``*``; names
    stay on one line with ``|`` escaped; the infinite-deck limit is the decks value ``∞`` (``inf``
    in CSV and JSON). With formulas, Markdown adds a table of them per rules × Tie × Banker, and
    CSV a ``formula`` column (sympy syntax). CSV text cells are neutralised as formulas
    (:func:`~exactodds.escape.csv_cell`).

    >>> from exactodds.figures.compare import compare_variants
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> c = compare_variants(
    ...     load_paytable(default_paytable()), rules=["punto-banco", "mini", "pronto"], ties=["8:1"]
    ... )
    >>> print(render_comparison(c, "csv"))  # doctest: +ELLIPSIS
    rules,decks,tie,banker,bet,house_edge,house_edge_percent,player_favourable
    punto-banco,8,8:1,commission,player,241149546272/19524993263685,1.235081,no
    ...
    mini,8,8:1,commission,player,...,-0.420941,yes
    ...
    """
    fmt = Format.check(fmt, (Format.MD, Format.CSV, Format.JSON))
    if fmt is Format.JSON:
        return json.dumps(comparison.to_json(), indent=2)
    if fmt is Format.CSV:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        header = [
            "rules",
            "decks",
            "tie",
            "banker",
            "bet",
            "house_edge",
            "house_edge_percent",
            "player_favourable",
        ]
        writer.writerow(header + (["formula"] if comparison.formulas else []))
        expressions = {
            (f.tableau, f.tie, f.banker, formula.bet_id): [formula.expression]
            for f in comparison.formulas
            for formula in f.formulas
        }
        for r in comparison.results:
            v = r.variant
            for bet_id, edge in r.edges:
                cells = [
                    r.variant.rules,
                    str(r.variant.decks),
                    r.tie_label,
                    r.banker_label,
                    bet_id,
                    str(edge),
                    fixed(edge * 100, 6),
                    "yes" if edge < 0 else "no",
                    *expressions.get((v.tableau, v.tie, v.banker, bet_id), []),
                ]
                writer.writerow([csv_cell(cell) for cell in cells])
        return out.getvalue().rstrip("\n")
    labels = comparison.axis_labels()
    axes = comparison.varying_axes() or [a for a in AXES if a in labels[0]]
    headers = [
        *(AXIS_TITLES[a] for a in axes),
        *(md_cell(name) for _, name in comparison.bets),
    ]
    rows = [
        [
            *(md_cell(_axis_value(r, a)) for a in axes),
            *(_cell(r.house_edge, bet_id) for bet_id, _ in comparison.bets),
        ]
        for r in comparison.results
    ]
    aligns: list[Align] = ["right" if a == "decks" else "left" for a in axes]
    aligns += ["right"] * len(comparison.bets)
    table = pipe_table(rows, headers, aligns)
    common = comparison.common_label()
    lines = [
        f"House edge of each bet by variant: {md_cell(comparison.paytable.name)}",
        *(
            ["", f"Every variant: {md_cell(common)}."]
            if common and comparison.varying_axes()
            else []
        ),
        "",
        table,
        "",
        f"{comparison.edge_note}, pushes counted; exact fractions with --format json.",
        *([STREAK_LEGEND] if comparison.streaks else []),
    ]
    if any(r.player_favourable for r in comparison.results):
        lines.append("* player-favourable: the bet has a positive expectation for the player.")
    if comparison.formulas:
        lines += _formula_lines(comparison)
    return "\n".join(lines)
