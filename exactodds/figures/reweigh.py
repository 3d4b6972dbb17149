"""A multiplied bet's figures under other multiplier weights, nothing counted again: each
row's identity patterns do not depend on the weights, so a designer, a solver or a fit varies
the table and reweighs the rows (:func:`with_table`)."""

from __future__ import annotations

from dataclasses import replace

from exactodds.bets.multipliers import MultiplierTable, pattern_products
from exactodds.bets.paytable import Bet
from exactodds.figures.metrics import BetFigures

__all__ = ["unmultiplied", "with_table"]


def with_table(figures: BetFigures, table: MultiplierTable) -> BetFigures:
    """``figures`` of a multiplied bet with its rows' products drawn from ``table`` instead (the
    identity patterns do not depend on the weights, so nothing is counted again): what a
    designer or a solver varies.

    >>> from fractions import Fraction
    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.figures.metrics import bet_figures
    >>> table = load_paytable("tests/data/live-lightning.toml")
    >>> player = table.bet("player")
    >>> joint = joint_distribution(table.shoe)
    >>> plain = MultiplierTable("none", ((1, Fraction(1)),), ((1, Fraction(1)),))
    >>> plain_ev = bet_figures(joint, unmultiplied(player)).ev
    >>> with_table(bet_figures(joint, player), plain).ev == plain_ev
    True
    """
    rows = tuple(
        replace(r, products=tuple(sorted(pattern_products(table, dict(r.patterns)).items())))
        if r.patterns
        else r
        for r in figures.rows
    )
    bet = replace(
        figures.bet,
        rows=tuple(
            replace(row, multiply=replace(row.multiply, table=table)) if row.multiply else row
            for row in figures.bet.rows
        ),
    )
    return replace(figures, bet=bet, rows=rows)


def unmultiplied(bet: Bet) -> Bet:
    """``bet`` with no multiplier on any row (its commission kept): the bet the multipliers are
    laid over."""
    return replace(bet, rows=tuple(replace(row, multiply=None) for row in bet.rows))
