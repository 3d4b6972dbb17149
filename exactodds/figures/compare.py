"""House edge of every bet over a grid of game variants (rules × decks × Tie × Banker).

Only what is asked: each axis not given is the paytable's own (its drawing rules, decks, Tie
payout and Banker bet), so ``--decks 6,8 --tie 8:1,9:1`` makes 2 × 2 variants, and a paytable
without a Tie bet gets none unless Tie payouts are listed. Labels name only the axes that vary;
the others are said once (:meth:`Comparison.common_label`).

The decks axis may include ``inf``: the exact infinite-deck limit (cards drawn with
replacement), from each bet's house edge as a rational function of the number of decks
(:mod:`exactodds.figures.formula`). With ``formula=True`` the comparison also carries those
functions, one per bet and rules × Tie × Banker variant.

A variant is a data transform of the paytable: the tableau and the number of decks are swapped,
the winning payout of bet ``tie`` is replaced, and bet ``banker``'s rows are replaced by the
commission (19:20, push on a tie) or no-commission (1:2 on a winning 6, 1:1 otherwise) version.
Bets a variant does not touch keep their rows. A paytable without a ``tie`` (``banker``) bet gets
the standard one when the variant names a Tie payout (Banker version), so the grid still shows it.

>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> table = compare_variants(load_paytable(default_paytable()), ties=["8:1", "9:1"])
>>> table.variant_labels(), table.common_label()
(['Tie 8:1', 'Tie 9:1'], 'punto-banco rules, 8 decks, Banker commission')
>>> percent(table.results[0].house_edge["tie"])
'14.3596%'
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from exactodds.bets.budget import check_card_work, check_compare
from exactodds.bets.offers import offered_label
from exactodds.bets.payout import LOSE, PUSH, Payout, parse_payout
from exactodds.bets.paytable import Bet, Paytable, Row
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau, load_tableau
from exactodds.errors import ExactOddsError, PaytableError, ShoeError, quote
from exactodds.escape import csv_cell, md_cell
from exactodds.figures.formula import CHECKED_AT, DERIVED_FROM, EdgeFormula, edge_formulas
from exactodds.figures.metrics import bet_figures
from exactodds.formats import Format
from exactodds.language import OTHERWISE, parse_condition
from exactodds.limits import MAX_COMPARE_VARIANTS, MAX_DECKS, MAX_DIGITS, check_count
from exactodds.numbers import fixed, percent
from exactodds.tables import Align, pipe_table

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEFAULT_TIES",
    "INFINITE",
    "BankerMode",
    "Comparison",
    "DeckCount",
    "FormulaResult",
    "Variant",
    "VariantResult",
    "apply_variant",
    "banker_bet",
    "compare_variants",
    "parse_list",
    "render_comparison",
    "tie_bet",
]

DEFAULT_TIES: tuple[str, ...] = ("8:1", "9:1")
"""The Tie payouts of the bundled comparison page (docs/rules.md §6: 8:1 and the 9:1 variant);
``compare`` itself keeps the paytable's own Tie unless ``--tie`` lists payouts."""

INFINITE: Literal["inf"] = "inf"
"""The decks value of the infinite-deck limit (``--decks 6,8,inf``)."""

DeckCount = int | Literal["inf"]
"""A number of decks, or :data:`INFINITE`."""


class BankerMode(StrEnum):
    """Which Banker bet a variant uses.

    >>> [(r.event, str(r.pays)) for r in banker_bet(BankerMode("no-commission")).rows[:2]]
    [('Banker wins with 6', '1:2'), ('Banker wins', '1:1')]
    """

    COMMISSION = "commission"
    NO_COMMISSION = "no-commission"


def parse_list(text: str | None) -> list[str] | None:
    """A comma-separated option value as a list (``None`` when not given).

    >>> parse_list("punto-banco, mini"), parse_list(None)
    (['punto-banco', 'mini'], None)
    """
    if text is None:
        return None
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise ExactOddsError(
            f"list {quote(text, 60)} has an empty item (give values separated by commas)"
        )
    return items


# -- the standard bets a variant puts in -----------------------------------------------------------


def tie_bet(pays: Payout, name: str = "Tie") -> Bet:
    """The standard Tie bet: ``pays`` on equal totals, lose otherwise.

    >>> joint = joint_distribution(Shoe.decks(8))
    >>> percent(bet_figures(joint, tie_bet(parse_payout("8:1"))).house_edge)  # docs/rules.md §9
    '14.3596%'
    """
    return Bet(
        "tie",
        name,
        (Row(parse_condition("winner == tie"), pays, "Tie"), Row(OTHERWISE, LOSE, "No tie")),
    )


def _banker_rows(mode: BankerMode) -> tuple[Row, ...]:
    wins, tie = parse_condition("banker.wins"), parse_condition("winner == tie")
    tail = (Row(tie, PUSH, "Tie"), Row(OTHERWISE, LOSE, "Player wins"))
    if mode is BankerMode.COMMISSION:
        return (Row(wins, parse_payout("1:1 less 5%"), "Banker wins"), *tail)
    six = parse_condition("banker.wins and banker.total == 6")
    return (
        Row(six, parse_payout("1:2"), "Banker wins with 6"),
        Row(wins, parse_payout("1:1"), "Banker wins"),
        *tail,
    )


def banker_bet(mode: BankerMode | str, base: Bet | None = None) -> Bet:
    """Bet ``banker`` in the given version, named "Banker"; rounding and max round kept from
    ``base`` (its name may describe the rows being replaced, e.g. "Banker (no commission)").

    >>> joint = joint_distribution(Shoe.decks(8))
    >>> percent(bet_figures(joint, banker_bet("commission")).house_edge)  # docs/rules.md §9
    '1.0579%'
    >>> banker_bet("super-6").rows[0].event
    'Banker wins with 6'
    """
    rows = _banker_rows(_banker_mode(mode))
    if base is None:
        return Bet("banker", "Banker", rows)
    return replace(base, name="Banker", rows=rows, description="")


def _banker_mode(value: BankerMode | str) -> BankerMode:
    if isinstance(value, BankerMode):
        return value
    key = value.strip().lower().replace("_", "-").replace(" ", "-")
    aliases = {"nc": "no-commission", "nocommission": "no-commission", "super-6": "no-commission"}
    try:
        return BankerMode(aliases.get(key, key))
    except ValueError:
        known = ", ".join(m.value for m in BankerMode)
        raise PaytableError(f"unknown banker version {value!r} (use {known})") from None


def _row_signature(rows: Iterable[Row]) -> tuple[tuple[str, Fraction], ...]:
    return tuple((str(r.when), r.pays.net) for r in rows)


def _winning_payout(bet: Bet) -> Payout | None:
    """The single winning payout of a bet, or None if it has several different ones."""
    wins = {r.pays.net: r.pays for r in bet.rows if r.pays.is_win}
    return next(iter(wins.values())) if len(wins) == 1 else None


# -- variants ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One cell of the grid: rules, decks (or :data:`INFINITE`), Tie payout and Banker version.

    ``tie`` / ``banker`` of ``None`` mean "as the paytable has it".

    >>> from exactodds.deal.tableau import BUILTIN
    >>> v = Variant(BUILTIN["mini"], 6, parse_payout("9:1"))
    >>> v.rules, v.decks, str(v.tie), v.banker
    ('mini', 6, '9:1', None)
    """

    tableau: Tableau
    decks: DeckCount
    tie: Payout | None = None
    banker: BankerMode | None = None

    @property
    def rules(self) -> str:
        """The tableau's name."""
        return self.tableau.name


def apply_variant(paytable: Paytable, variant: Variant) -> Paytable:
    """The paytable with the variant's rules, decks, Tie payout and Banker rows (the infinite
    variant keeps the paytable's decks: a paytable's shoe is finite).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> from exactodds.deal.tableau import BUILTIN
    >>> base = load_paytable(default_paytable())
    >>> v = apply_variant(base, Variant(BUILTIN["mini"], 6, parse_payout("9:1")))
    >>> v.decks, v.tableau.name, v.bet("tie").rows[0].pays.net
    (6, 'mini', Fraction(9, 1))
    """
    bets = list(paytable.bets)
    ids = [b.id for b in bets]
    if variant.tie is not None:
        pays = variant.tie
        if "tie" in ids:
            i = ids.index("tie")
            bets[i] = replace(
                bets[i],
                rows=tuple(replace(r, pays=pays) if r.pays.is_win else r for r in bets[i].rows),
            )
        else:
            bets.append(tie_bet(pays))
    if variant.banker is not None:
        if "banker" in ids:
            i = ids.index("banker")
            bets[i] = banker_bet(variant.banker, bets[i])
        else:
            bets.append(banker_bet(variant.banker))
    decks = paytable.decks if variant.decks == INFINITE else variant.decks
    return replace(paytable, decks=decks, tableau=variant.tableau, bets=tuple(bets))


@dataclass(frozen=True)
class VariantResult:
    """The exact house edge (−EV per unit, pushes counted) of every bet in one variant.

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
        pays = _winning_payout(paytable.bet("tie"))
    except PaytableError:
        return "-"
    return str(pays) if pays is not None else "paytable"


def _banker_label(mode: BankerMode | None, paytable: Paytable) -> str:
    if mode is not None:
        return mode.value
    try:
        rows = paytable.bet("banker").rows
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

        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("classic"), ties=["9:1"], formula=True).formulas[0].label
        'punto-banco rules, Tie 9:1, Banker commission'
        """
        return ", ".join(_bet_words(self.tableau.name, self.tie_label, self.banker_label).values())


@dataclass(frozen=True)
class Comparison:
    """House edges of the bets over a grid of variants, in grid order.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> c = compare_variants(load_paytable(default_paytable()), ties=["8:1"], rules=["pronto"])
    >>> c.bets[:3], c.to_json()["variants"][0]["house_edge"]["player_pair"]
    ((('player', 'Player'), ('banker', 'Banker'), ('tie', 'Tie')), '43/415')
    """

    paytable: Paytable
    bets: tuple[tuple[str, str], ...]  # (id, name) of every column
    results: tuple[VariantResult, ...]
    formulas: tuple[FormulaResult, ...] = ()

    def __repr__(self) -> str:
        """One line: the paytable and the size of the grid.

        >>> from exactodds.bets.loader import load_paytable
        >>> compare_variants(load_paytable("classic"), ties=["8:1", "9:1"], decks=[6, 8])
        <Comparison 'Classic (commission)': 14 bets × 4 variants>
        """
        return (
            f"<Comparison {self.paytable.name!r}: {len(self.bets)} bets × "
            f"{len(self.results)} variants>"
        )

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

        >>> from exactodds.bets.loader import load_paytable
        >>> c = compare_variants(load_paytable("classic"), ties=["8:1", "9:1"], decks=[6, 8])
        >>> c.variant_labels()[:2], c.common_label()
        (['6 decks, Tie 8:1', '6 decks, Tie 9:1'], 'punto-banco rules, Banker commission')
        """
        axes = self.varying_axes() or list(AXES)
        return [", ".join(w[a] for a in axes if a in w) for w in self.axis_labels()]

    def common_label(self) -> str:
        """The axes every variant shares, in words (empty when every axis varies).

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
        data = {
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


def _as_tableau(value: str | Tableau, paytable: Paytable) -> Tableau:
    if isinstance(value, str) and value.strip().lower() in ("paytable", "own"):
        return paytable.tableau
    return load_tableau(value)


def _as_decks(value: int | str) -> DeckCount:
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        text = str(value).strip()
        if text.lower() in (INFINITE, "∞", "infinite", "infinity"):
            return INFINITE
        if not re.fullmatch(f"[0-9]{{1,{MAX_DIGITS}}}", text):
            raise ShoeError(
                f"number of decks must be a positive integer or inf, not {quote(value)}"
            )
        n = int(text)
    if n < 1:
        raise ShoeError(f"number of decks must be a positive integer, not {quote(value)}")
    check_count(n, MAX_DECKS, "number of decks", ShoeError)
    return n


def _as_payout(value: str | Payout) -> Payout:
    pays = value if isinstance(value, Payout) else parse_payout(value)
    if not pays.is_win:
        raise PaytableError(f"Tie payout {value!r} must be a win, like '8:1'")
    return pays


def _refuse_repeats(axis: str, given: Sequence[Any], values: Sequence[Any]) -> None:
    """Refuse an axis that names one value twice (``--decks 8,8``, ``--tie 8:1,8 to 1``): the
    table would repeat a variant.

    >>> _refuse_repeats("decks", ["inf", "8", "infinity"], [INFINITE, 8, INFINITE])
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the decks list names the same value twice: 'inf' and 'infinity'
    """
    first: dict[Any, Any] = {}
    for text, value in zip(given, values, strict=True):
        if value in first:
            raise ExactOddsError(
                f"the {axis} list names the same value twice: {quote(first[value], 40)} and "
                f"{quote(text, 40)}"
            )
        first[value] = text


def compare_variants(
    paytable: Paytable,
    rules: Sequence[str | Tableau] | None = None,
    ties: Sequence[str | Payout] | None = None,
    decks: Sequence[int | str] | None = None,
    bankers: Sequence[str | BankerMode] | None = None,
    *,
    formula: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """House edge of every bet for each combination of rules × decks × banker × tie.

    Only what is asked: an axis not given is the paytable's own (its tableau, decks, Tie bet
    and Banker bet; a paytable without a Tie bet gets none). The rules name ``paytable``
    stands for the paytable's own tableau.
    A decks value ``inf`` gives the exact infinite-deck limit; ``formula`` adds each bet's house
    edge as a function of the number of decks (both derive the formulas: nine enumerations
    per tableau, about 2 s). ``progress(done, steps)`` is called after each variant (and each
    set of formulas).

    Mini rules (the banker stands on 4 and 5 after a player stand) turn the Player bet in the
    player's favour; the drawing rules cannot change a pair bet.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> c = compare_variants(load_paytable(default_paytable()), rules=["mini"], ties=["8:1"])
    >>> edge = c.results[0].house_edge
    >>> edge["player"] < 0, edge["player_pair"]
    (True, Fraction(43, 415))
    >>> len(compare_variants(load_paytable("classic"), decks=[6, 8], ties=["8:1", "9:1"]).results)
    4
    """
    axes: dict[str, Sequence[Any]] = {
        "rules": rules if rules is not None else [paytable.tableau],
        "tie": ties if ties is not None else [None],
        "decks": decks if decks is not None else [paytable.decks],
        "banker": bankers if bankers is not None else [None],
    }
    for name, axis in axes.items():
        if not axis:
            raise ExactOddsError(f"the {name} list of the comparison is empty")
    size = len(axes["rules"]) * len(axes["tie"]) * len(axes["decks"]) * len(axes["banker"])
    check_count(size, MAX_COMPARE_VARIANTS, "number of variants (rules × decks × Tie × Banker)")
    tableaux = [_as_tableau(r, paytable) for r in axes["rules"]]
    tie_payouts = [None if t is None else _as_payout(t) for t in axes["tie"]]
    deck_counts = [_as_decks(d) for d in axes["decks"]]
    modes = [None if b is None else _banker_mode(b) for b in axes["banker"]]
    _refuse_repeats("rules", axes["rules"], tableaux)
    _refuse_repeats("tie", axes["tie"], [None if t is None else t.net for t in tie_payouts])
    _refuse_repeats("decks", axes["decks"], deck_counts)
    _refuse_repeats("banker", axes["banker"], modes)
    derives = formula or INFINITE in deck_counts
    check_compare(
        paytable.bets, size, len(tableaux) * len(modes) * len(tie_payouts) if derives else 0
    )
    # card-level bets are counted once per tableau and deck count (the nine of a formula too)
    shoes = sum(1 for d in deck_counts if d != INFINITE) + (
        len(DERIVED_FROM) + len(CHECKED_AT) if derives else 0
    )
    check_card_work(paytable.bets, paytable.shoe, paytable.tableau, len(tableaux) * shoes)
    results: list[VariantResult] = []
    columns: dict[str, str] = {}  # named as in the variants (a replaced Banker is "Banker")
    derived: dict[tuple[Tableau, BankerMode | None, Payout | None], FormulaResult] = {}

    def formulas_of(tableau: Tableau, mode: BankerMode | None, tie: Payout | None) -> FormulaResult:
        key = (tableau, mode, tie)
        if key not in derived:
            table = apply_variant(paytable, Variant(tableau, paytable.decks, tie, mode))
            derived[key] = FormulaResult(tableau, tie, mode, table, edge_formulas(table))
        return derived[key]

    groups = len(tableaux) * len(modes) * len(tie_payouts) if formula else 0
    steps = size + groups

    def step() -> None:
        if progress is not None:
            progress(len(results) + len(derived) * (groups > 0), steps)

    for tableau in tableaux:
        for n in deck_counts:
            joint = None if n == INFINITE else joint_distribution(Shoe.decks(n), tableau)
            for mode in modes:
                for tie in tie_payouts:
                    variant = Variant(tableau, n, tie, mode)
                    table = apply_variant(paytable, variant)
                    if joint is None:
                        found = formulas_of(tableau, mode, tie).formulas
                        edges = tuple((f.bet_id, f.limit) for f in found)
                    else:
                        edges = tuple(
                            (bet.id, bet_figures(joint, bet).house_edge) for bet in table.bets
                        )
                    for bet in table.bets:  # an offered bet's label states its offer
                        columns.setdefault(bet.id, offered_label(bet))
                    results.append(VariantResult(variant, table, edges))
                    step()
    formulas = []
    for tableau in tableaux if formula else ():
        for mode in modes:
            for tie in tie_payouts:
                formulas.append(formulas_of(tableau, mode, tie))
                step()
    return Comparison(paytable, tuple(columns.items()), tuple(results), tuple(formulas))


# -- rendering ------------------------------------------------------------------------------------


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
        "House edge = −EV per unit staked, pushes counted; exact fractions with --format json.",
    ]
    if any(r.player_favourable for r in comparison.results):
        lines.append("* player-favourable: the bet has a positive expectation for the player.")
    if comparison.formulas:
        lines += _formula_lines(comparison)
    return "\n".join(lines)
