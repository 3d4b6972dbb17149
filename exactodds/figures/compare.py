"""House edge of every bet over a grid of game variants (rules × decks × Tie × Banker).

Only what is asked: each axis not given is the paytable's own (its drawing rules, decks, Tie
payout and Banker bet), so ``--decks 6,8 --tie 8:1,9:1`` makes 2 × 2 variants, and a paytable
without a Tie bet gets none unless Tie payouts are listed. Labels name only the axes that vary;
the others are said once (:meth:`Comparison.common_label`).

The decks axis may include ``inf``: the exact infinite-deck limit (cards drawn with
replacement), from each bet's house edge as a rational function of the number of decks
(:mod:`exactodds.figures.formula`). With ``formula=True`` the comparison also carries those
functions, one per bet and rules × Tie × Banker variant.

A variant is a data transform of the paytable (:mod:`exactodds.figures.variants`); the result
is a :class:`~exactodds.figures.compare_results.Comparison`, written as text by
:mod:`exactodds.figures.compare_render`. This module computes it; the names of those modules
stay importable from here.

>>> from exactodds.numbers import percent
>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> table = compare_variants(load_paytable(default_paytable()), ties=["8:1", "9:1"])
>>> table.variant_labels(), table.common_label()
(['Tie 8:1', 'Tie 9:1'], 'punto-banco rules, 8 decks, Banker commission')
>>> percent(table.results[0].house_edge["tie"])
'14.3596%'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from exactodds.bets.budget import check_card_work, check_compare
from exactodds.bets.kinds import condition_bet
from exactodds.bets.offers import offered_label
from exactodds.bets.payout import Payout, parse_payout
from exactodds.bets.paytable import REFERENCE_DECKS, Bet, Paytable
from exactodds.bets.streak import STREAK_MARK, condition_probability, streak_figures_at
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau, load_tableau
from exactodds.errors import ExactOddsError, PaytableError, ShoeError, quote, require
from exactodds.figures.compare_render import render_comparison
from exactodds.figures.compare_results import Comparison, FormulaResult, VariantResult
from exactodds.figures.formula import CHECKED_AT, DERIVED_FROM, edge_formulas
from exactodds.figures.metrics import bet_figures
from exactodds.figures.variants import (
    INFINITE,
    BankerMode,
    DeckCount,
    Variant,
    _banker_mode,
    apply_variant,
    banker_bet,
    parse_list,
    tie_bet,
)
from exactodds.language import Condition
from exactodds.limits import MAX_COMPARE_VARIANTS, MAX_DECKS, MAX_DIGITS, check_count

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
    """House edge of every bet for each combination of rules × decks × banker × tie; a streak
    bet's per bet with rounds independent, from its condition's probability in the variant.

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
    require(paytable, (Paytable,), "paytable")
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
                    edges += _streak_edges(table, n)
                    for b in table.every_bet:  # a label states the offer and the meters
                        label = _label(b) if isinstance(b, Bet) else f"{b.name} {STREAK_MARK}"
                        columns.setdefault(b.id, label)
                    results.append(VariantResult(variant, table, edges))
                    step()
    formulas = []
    for tableau in tableaux if formula else ():
        for mode in modes:
            for tie in tie_payouts:
                formulas.append(formulas_of(tableau, mode, tie))
                step()
    streaks = tuple(s.id for s in paytable.streaks)
    return Comparison(paytable, tuple(columns.items()), tuple(results), tuple(formulas), streaks)


def _label(bet: Bet) -> str:
    """A column's label: the bet's name, its offer and, for a progressive bet, the meters its
    figures are at (the resets)."""
    if bet.progressive is None:
        return offered_label(bet)
    from exactodds.bets.meters import at_meters

    return f"{offered_label(bet)} ({at_meters(bet.progressive)})"


def _streak_edges(table: Paytable, decks: DeckCount) -> tuple[tuple[str, Fraction], ...]:
    """Each streak bet's house edge per bet, rounds independent, from the probability of its
    condition on one round of the variant's shoe (its infinite-deck limit for ``inf``)."""
    out = []
    for bet in table.streaks:
        if decks == INFINITE:
            p = _limit_probability(bet.condition, table.tableau)
        else:
            p = condition_probability(bet.condition, Shoe.decks(decks), table.tableau)
        out.append((bet.id, streak_figures_at(bet, p).house_edge))
    return tuple(out)


@lru_cache(maxsize=64)
def _limit_probability(condition: Condition, tableau: Tableau) -> Fraction:
    """The infinite-deck limit of the probability of ``condition`` on one round: a bet paying
    1:1 when it holds has the house edge 1 − 2p, whose limit :func:`edge_formulas` derives
    (tests/test_formula.py checks it against dealing with replacement)."""
    probe = Paytable("probe", "", REFERENCE_DECKS, tableau, (condition_bet(condition),))
    (formula,) = edge_formulas(probe)
    return (1 - formula.limit) / 2
