"""The result of a comparison of variants: each variant's exact house edge per bet, the
deck-count formulas, and the labels that name a variant
(:func:`~exactodds.figures.compare.compare_variants` makes it;
:mod:`exactodds.figures.compare_render` writes it)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Paytable
from exactodds.deal.tableau import Tableau
from exactodds.errors import PaytableError
from exactodds.figures.formula import EdgeFormula
from exactodds.figures.variants import (
    INFINITE,
    BankerMode,
    Variant,
    _banker_rows,
    _row_signature,
    _winning_payout,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AXES", "AXIS_TITLES", "STREAK_PER", "Comparison", "FormulaResult", "VariantResult"]

STREAK_PER = "bet, rounds independent"
"""What a streak bet's house edge in a comparison is per."""


@dataclass(frozen=True)
class VariantResult:
    """The exact house edge (−EV per unit, pushes counted) of every bet in one variant.

    >>> from exactodds.figures.compare import compare_variants
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> r = compare_variants(load_paytable(default_paytable()), rules=["mini"], ties=["9:1"])
    >>> r.results[0].tie_label, r.results[0].banker_label, sorted(r.results[0].player_favourable)
    ('9:1', 'commission', ['player'])
    """

    variant: Variant
    paytable: Paytable
    edges: tuple[tuple[str, Fraction], ...]

    @property
    def house_edge(self) -> dict[str, Fraction]:
        """House edge by bet id."""
        return dict(self.edges)

    @property
    def player_favourable(self) -> frozenset[str]:
        """Ids of the bets with a positive expectation for the player."""
        return frozenset(bet_id for bet_id, edge in self.edges if edge < 0)

    @property
    def tie_label(self) -> str:
        """The Tie payout in effect, as ``a:b`` (or ``-`` without a Tie bet)."""
        return _tie_label(self.variant.tie, self.paytable)

    @property
    def banker_label(self) -> str:
        """The Banker version in effect: commission, no-commission, paytable or ``-``."""
        return _banker_label(self.variant.banker, self.paytable)


def _tie_label(tie: Payout | None, paytable: Paytable) -> str:
    if tie is not None:
        return str(tie)
    try:
        pays = _winning_payout(paytable.round_bet("tie"))
    except PaytableError:
        return "-"
    return str(pays) if pays is not None else "paytable"


def _banker_label(mode: BankerMode | None, paytable: Paytable) -> str:
    if mode is not None:
        return mode.value
    try:
        rows = paytable.round_bet("banker").rows
    except PaytableError:
        return "-"
    for known in BankerMode:
        if _row_signature(rows) == _row_signature(_banker_rows(known)):
            return known.value
    return "paytable"


@dataclass(frozen=True)
class FormulaResult:
    """Each bet's house edge as a function of the number of decks, in one rules × Tie ×
    Banker variant (see :mod:`exactodds.figures.formula`).

    >>> from exactodds.figures.compare import compare_variants
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> c = compare_variants(
    ...     load_paytable(default_paytable()), rules=["mini"], ties=["9:1"], formula=True
    ... )
    >>> f = c.formulas[0]
    >>> f.tableau.name, f.tie_label, f.formulas[3].bet_id, f.formulas[3].text()
    ('mini', '9:1', 'player_pair', '(4d + 11) / (52d − 1)')
    """

    tableau: Tableau
    tie: Payout | None
    banker: BankerMode | None
    paytable: Paytable
    formulas: tuple[EdgeFormula, ...]

    @property
    def tie_label(self) -> str:
        """As :attr:`VariantResult.tie_label`."""
        return _tie_label(self.tie, self.paytable)

    @property
    def banker_label(self) -> str:
        """As :attr:`VariantResult.banker_label`."""
        return _banker_label(self.banker, self.paytable)

    @property
    def label(self) -> str:
        """The variant in words, leaving out the bets the paytable lacks.

        >>> from exactodds.figures.compare import compare_variants
        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("classic"), ties=["9:1"], formula=True).formulas[0].label
        'punto-banco rules, Tie 9:1, Banker commission'
        """
        return ", ".join(_bet_words(self.tableau.name, self.tie_label, self.banker_label).values())


@dataclass(frozen=True)
class Comparison:
    """House edges of the bets over a grid of variants, in grid order.

    >>> from exactodds.figures.compare import compare_variants
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> c = compare_variants(load_paytable(default_paytable()), ties=["8:1"], rules=["pronto"])
    >>> c.bets[:3], c.to_json()["variants"][0]["house_edge"]["player_pair"]
    ((('player', 'Player'), ('banker', 'Banker'), ('tie', 'Tie')), '43/415')
    """

    paytable: Paytable
    bets: tuple[tuple[str, str], ...]  # (id, name) of every column
    results: tuple[VariantResult, ...]
    formulas: tuple[FormulaResult, ...] = ()
    streaks: tuple[str, ...] = ()
    """Ids of the streak bets among :attr:`bets`: their house edge is per bet, with rounds
    independent (and they have no formula)."""

    def __repr__(self) -> str:
        """One line: the paytable and the size of the grid.

        >>> from exactodds.figures.compare import compare_variants
        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("classic"), ties=["8:1", "9:1"], decks=[6, 8])
        <Comparison 'Classic (commission)': 14 bets × 4 variants>
        """
        return (
            f"<Comparison {self.paytable.name!r}: {len(self.bets)} bets × "
            f"{len(self.results)} variants>"
        )

    @property
    def edge_note(self) -> str:
        """What the house edges are per: ``−EV per unit staked``, or per money paid when a bet
        has a fee or a peek (issue 34: the stake, the fee and any raise are paid).

        >>> from exactodds.figures.compare import compare_variants
        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("tests/data/live-lightning.toml")).edge_note
        "House edge = −EV per money paid (the stake, and a live bet's fee and raises)"
        """
        live = any("fee" in b.live or "peek" in b.live for b in self.paytable.bets)
        if live:
            return "House edge = −EV per money paid (the stake, and a live bet's fee and raises)"
        return "House edge = −EV per unit staked"

    def axis_labels(self) -> list[dict[str, str]]:
        """Per variant, in grid order, each axis in words (``rules``: "mini rules", ``decks``:
        "6 decks", ``tie``: "Tie 9:1", ``banker``: "Banker commission"); an axis is left out
        where the paytable has no such bet and the variant adds none."""
        return [_axis_words(r) for r in self.results]

    def varying_axes(self) -> list[str]:
        """The axes whose words differ between variants, in the order rules, decks, tie,
        banker (none for a single variant)."""
        labels = self.axis_labels()
        return [a for a in AXES if len({words.get(a) for words in labels}) > 1]

    def variant_labels(self) -> list[str]:
        """A label per variant naming the axes that vary (all of them for a single variant),
        in grid order: the column heads when bets are rows.

        >>> from exactodds.figures.compare import compare_variants
        >>> from exactodds.bets.loader import load_paytable
        >>> c = compare_variants(load_paytable("classic"), ties=["8:1", "9:1"], decks=[6, 8])
        >>> c.variant_labels()[:2], c.common_label()
        (['6 decks, Tie 8:1', '6 decks, Tie 9:1'], 'punto-banco rules, Banker commission')
        """
        axes = self.varying_axes() or list(AXES)
        return [", ".join(w[a] for a in axes if a in w) for w in self.axis_labels()]

    def common_label(self) -> str:
        """The axes every variant shares, in words (empty when every axis varies).

        >>> from exactodds.figures.compare import compare_variants
        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("mini")).common_label()
        'mini rules, 8 decks, Tie 8:1, Banker commission'
        """
        varying = self.varying_axes()
        first = self.axis_labels()[0] if self.results else {}
        return ", ".join(first[a] for a in AXES if a in first and a not in varying)

    def bet_rows(self) -> list[tuple[str, list[Fraction | None]]]:
        """Per bet (name), its house edge in each variant (None where the variant lacks it)."""
        return [
            (name, [r.house_edge.get(bet_id) for r in self.results]) for bet_id, name in self.bets
        ]

    def _repr_html_(self) -> str:
        """Bets as rows, variants as columns, for notebooks."""
        from exactodds.notebook import html_table

        rows = [
            (name, *(e if e is not None else "-" for e in edges)) for name, edges in self.bet_rows()
        ]
        caption = f"House edge by variant: {self.paytable.name}"
        return html_table(("bet", *self.variant_labels()), rows, caption)

    def to_frame(self) -> pd.DataFrame:
        """Long form, one row per variant and bet: rules, decks, tie, banker, bet, house_edge
        (exact Fractions) as a DataFrame (extra ``pandas``)."""
        from exactodds.notebook import frame

        headers = ("rules", "decks", "tie", "banker", "bet", "house_edge")
        rows = [
            (r.variant.rules, r.variant.decks, r.tie_label, r.banker_label, bet_id, edge)
            for r in self.results
            for bet_id, edge in r.edges
        ]
        return frame(headers, rows)

    def to_json(self) -> dict[str, Any]:
        """``{"variants": [{"rules", "decks", "tie", "banker", "house_edge": {id: "p/q"}}]}``
        (decks ``"inf"`` for the infinite-deck limit), and with formulas ``"formulas": [{"rules",
        "tie", "banker", "bets": [{"id", "numerator", "denominator", "expression", "limit",
        …}]}]``: coefficients as exact integer strings, ascending powers of d."""
        data: dict[str, Any] = {
            "paytable": self.paytable.name,
            "variants": [
                {
                    "rules": r.variant.rules,
                    "decks": r.variant.decks,
                    "tie": r.tie_label,
                    "banker": r.banker_label,
                    "house_edge": {k: str(v) for k, v in r.edges},
                    "player_favourable": sorted(r.player_favourable),
                }
                for r in self.results
            ],
        }
        if self.formulas:
            data["formulas"] = [
                {
                    "rules": f.tableau.name,
                    "tie": f.tie_label,
                    "banker": f.banker_label,
                    "bets": [formula.to_json() for formula in f.formulas],
                }
                for f in self.formulas
            ]
        if self.streaks:
            data["streak_bets"] = {"ids": list(self.streaks), "per": STREAK_PER}
        return data


AXES = ("rules", "decks", "tie", "banker")
"""The axes of a comparison, in grid and label order."""

AXIS_TITLES = {
    "rules": "Drawing rules",
    "decks": "Decks",
    "tie": "Tie pays",
    "banker": "Banker version",
}
"""How a table heads each axis: never a bet's name (the bets' columns have those)."""


def _axis_words(r: VariantResult) -> dict[str, str]:
    decks = r.variant.decks
    shoe = "∞ decks" if decks == INFINITE else f"{decks} deck{'s' if decks != 1 else ''}"
    return {"decks": shoe, **_bet_words(r.variant.rules, r.tie_label, r.banker_label)}


def _bet_words(rules: str, tie: str, banker: str) -> dict[str, str]:
    """The rules, Tie and Banker axes in words, without the bets the paytable lacks (``-``)."""
    words = {"rules": f"{rules} rules"}
    for axis, label in (("tie", tie), ("banker", banker)):
        if label != "-":
            shown = "as in the paytable" if label == "paytable" else label
            words[axis] = f"{'Tie' if axis == 'tie' else 'Banker'} {shown}"
    return words
