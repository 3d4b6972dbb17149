"""The exact multiplier products of a bet's rows: per row, its combinations and the
distribution of the product of the multipliers on the row's card group (issue 34's
Lightning-style bets).

A row's product depends on the cards only through the ranks of its group's dealt cards
(:func:`~exactodds.bets.multipliers.group_products` turns ranks into the identity pattern and
the product), so the rows are counted by :func:`~exactodds.counting.ranks.keyed_counts` keyed by
those ranks, and each key's product distribution is weighted by its combinations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactodds.bets.multipliers import Multiply, group_patterns, pattern_products
from exactodds.bets.paytable import Bet
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import PaytableError

__all__ = ["MultipliedRows", "mean_product", "multiplied_rows"]

Products = tuple[tuple[int, Fraction], ...]
"""(product, probability given the row), ascending; the probabilities sum to 1."""

Patterns = tuple[tuple[tuple[int, ...], Fraction], ...]
"""(identity pattern, probability given the row): the multiplicities of the distinct card
identities of the row's group, whatever the multiplier weights."""


@dataclass(frozen=True)
class MultipliedRows:
    """Per row of a bet: its combinations, its identity patterns and its product distribution
    (both empty for a row that is not multiplied, or that settles no round)."""

    combinations: tuple[int, ...]
    patterns: tuple[Patterns, ...]
    products: tuple[Products, ...]
    universe: int


def multiplied_rows(bet: Bet, shoe: Shoe, tableau: Tableau) -> MultipliedRows:
    """Count ``bet``'s rows by the ranks of each multiplied group and weigh each group's product
    distributions: exact, on any shoe."""
    from exactodds.counting.ranks import GroupRanks, keyed_counts

    if bet.offer is not None:
        raise PaytableError(f"bet {bet.id!r}: a multiplied bet cannot have an offer")
    groups: list[Multiply] = []
    for row in bet.rows:
        if row.multiply is not None and row.multiply not in groups:
            groups.append(row.multiply)
    conditions = [row.when for row in bet.rows]
    keys = [GroupRanks(m.cards) for m in groups] or [GroupRanks(("initial",))]
    counted = keyed_counts(conditions, shoe, tableau, keys=keys)
    combinations = tuple(counted[0].row_total(i) for i in range(len(bet.rows)))
    patterns: list[Patterns] = []
    products: list[Products] = []
    for i, row in enumerate(bet.rows):
        if row.multiply is None or not combinations[i]:
            patterns.append(())
            products.append(())
            continue
        by_ranks = counted[groups.index(row.multiply)]
        mixed: dict[tuple[int, ...], Fraction] = {}
        for (r, ranks), n in by_ranks.counts.items():
            if r != i or not n:
                continue
            for pattern, q in group_patterns(ranks, shoe).items():
                mixed[pattern] = mixed.get(pattern, Fraction(0)) + q * n
        row_patterns = {k: w / combinations[i] for k, w in mixed.items()}
        patterns.append(tuple(sorted(row_patterns.items())))
        products.append(tuple(sorted(pattern_products(row.multiply.table, row_patterns).items())))
    return MultipliedRows(combinations, tuple(patterns), tuple(products), counted[0].universe)


def mean_product(products: Sequence[tuple[int, Fraction]]) -> Fraction:
    """E[product] of a row's distribution (1 for a row not multiplied).

    >>> mean_product(((1, Fraction(3, 4)), (8, Fraction(1, 4))))
    Fraction(11, 4)
    """
    if not products:
        return Fraction(1)
    return sum((m * q for m, q in products), Fraction(0))
