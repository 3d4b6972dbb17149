"""The page comparing house edges by variant (``exactodds compare --format html`` and the bundled
``reports/comparison.*``): bets as rows, variants as columns, a chart per bet."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.bets.bundled import display_path, sheet_path
from exactodds.bets.loader import default_paytable, load_paytable
from exactodds.bets.streak import STREAK_LEGEND
from exactodds.deal.tableau import BUILTIN
from exactodds.numbers import percent
from exactodds.report.document import Block, Chart, Code, Document, Heading, Inline, Para, Table
from exactodds.report.figures import PRECISION
from exactodds.report.sheet import resolve_date

if TYPE_CHECKING:
    from exactodds.figures.compare import Comparison

__all__ = ["COMPARISON_STEM", "comparison_document"]

COMPARISON_STEM = "comparison"
"""File stem of the default variant comparison written by ``exactodds report --all --out``."""


def comparison_document(
    date: str | None = None,
    version: str | None = None,
    comparison: Comparison | None = None,
    *,
    command: str = "",
) -> Document:
    """A comparison of house edges by variant, bets as rows and variants as columns, with a
    chart per bet, the software version and the paytable's SHA-256. By default the bundled
    page: the three tableaux × Tie 8:1 / 9:1 of the default paytable; ``comparison`` (from
    :func:`~exactodds.figures.compare.compare_variants`) gives the page of ``exactodds compare
    --format html``, ``command`` being the command line that reruns it.

    >>> doc = comparison_document("2024-01-01", version="9.9")
    >>> edges = [b for b in doc.blocks if isinstance(b, Table)][-1]
    >>> doc.title, edges.header[1:3]  # doctest: +NORMALIZE_WHITESPACE
    ('Classic (commission) — house edge by variant',
     ('punto-banco rules, Tie 8:1', 'punto-banco rules, Tie 9:1'))
    >>> [row[1] for row in edges.rows if row[0][2] == Code("tie")]  # docs/rules.md §9: 8:1
    ['14.3596%']
    >>> tie = [b for b in doc.blocks if isinstance(b, Chart)][2]  # one chart per bet
    >>> tie.title, [(label, percent(edge)) for label, edge in tie.bars[:2]]
    ... # doctest: +NORMALIZE_WHITESPACE
    ('House edge of Tie by variant',
     [('punto-banco rules, Tie 8:1', '14.3596%'), ('punto-banco rules, Tie 9:1', '4.8440%')])
    """
    from exactodds._version import VERSION as __version__
    from exactodds.figures.compare import DEFAULT_TIES, compare_variants

    bundled = comparison is None
    if comparison is None:
        comparison = compare_variants(
            load_paytable(default_paytable()), rules=list(BUILTIN), ties=DEFAULT_TIES
        )
    table = comparison.paytable
    results = comparison.results
    labels = comparison.variant_labels()
    rows: tuple[tuple[Inline, ...], ...] = tuple(
        (
            (name, " (", Code(bet_id), ")"),
            *(_edge_cell(dict(r.edges).get(bet_id)) for r in results),
        )
        for bet_id, name in comparison.bets
    )
    shoe = (
        f"{table.decks} decks, every round counted over the six-card universe"
        if bundled
        else "full shoes of the decks each variant names, every round counted over the "
        "six-card universe"
    )
    axes = " × ".join(_AXIS_WORDS[a] for a in comparison.varying_axes())
    common = comparison.common_label()
    variants = "; ".join(
        part
        for part in (
            axes or "one variant",
            f"the same in every variant: {common}" if common else "",
            "every other bet as in the paytable",
        )
        if part
    )
    rerun = "exactodds report --all --out reports/" if bundled else command
    facts: tuple[tuple[Inline, ...], ...] = (
        ("Software", f"exactodds {version or __version__}"),
        ("Paytable", (f"{table.name} — ", Code(sheet_path(table.path)))),
        ("Paytable SHA-256", Code(str(table.sha256))),
        ("Shoe", shoe),
        ("Variants", variants),
        *((("Regenerate", Code(rerun)),) if rerun else ()),
    )
    blocks: tuple[Block, ...] = (
        Table(("Item", "Value"), facts, "ll"),
        Heading(2, "House edge by variant", "variants"),
        Para(
            f"{comparison.edge_note}, pushes counted, from complete enumeration; "
            "* marks a player-favourable bet (positive expectation). Exact fractions: "
            "exactodds compare classic --rules punto-banco,mini,pronto --tie 8:1,9:1 "
            "--format json."
            if bundled
            else f"{comparison.edge_note}, pushes counted, from complete "
            "enumeration; * marks a player-favourable bet (positive expectation). Exact "
            "fractions: the same command with --format json."
        ),
        Table(
            ("Bet", *labels),
            rows,
            "l" + "r" * len(results),
            caption=STREAK_LEGEND if comparison.streaks else "",
        ),
        # a chart per bet, a bar per variant (HTML and PDF only: the table holds the figures)
        *(
            Chart(
                f"House edge of {name} by variant",
                tuple(
                    (label, edge)
                    for label, r in zip(labels, results, strict=True)
                    if (edge := dict(r.edges).get(bet_id)) is not None
                ),
            )
            for bet_id, name in comparison.bets
        ),
        *_formula_blocks(comparison),
    )
    return Document(
        f"{table.name} — house edge by variant",
        blocks,
        resolve_date(date),
        version or __version__,
        f"{Path(display_path(table.path)).name} SHA-256 {table.sha256}" if table.sha256 else "",
        "exactodds report" if bundled else "exactodds compare",
    )


_AXIS_WORDS = {
    "rules": "drawing rules",
    "decks": "decks",
    "tie": "Tie payout",
    "banker": "Banker version",
}
"""The comparison's axes in a sentence ("drawing rules × Tie payout")."""


def _formula_blocks(comparison: Comparison) -> tuple[Block, ...]:
    """With ``--formula``: a table of each bet's house edge as a function of the decks d, per
    rules × Tie × Banker."""
    if not comparison.formulas:
        return ()
    blocks: list[Block] = [
        Heading(2, "House edge as a function of the decks", "formulas"),
        Para(
            "H(d) on a full shoe of d decks, exact for every d ≥ 1, derived with sympy from the "
            "enumeration and checked against it; d → ∞ is the infinite-deck limit."
        ),
    ]
    for f in comparison.formulas:
        blocks.append(Para(f"{f.label}:"))
        rows = tuple(
            (
                (formula.name, " (", Code(formula.bet_id), ")"),
                Code(formula.text()),
                _edge_cell(formula.limit),
            )
            for formula in f.formulas
        )
        blocks.append(Table(("Bet", "H(d)", "d → ∞"), rows, "llr"))
    return tuple(blocks)


def _edge_cell(edge: Fraction | None) -> str:
    if edge is None:
        return "—"
    return percent(edge, PRECISION["percent"]) + (" *" if edge < 0 else "")
