"""Shoe-depth analysis: many shoe states at once, effect of removal, shoe simulation.

Modules: :mod:`~exactodds.analysis.batch` (exact EV of every bet for many shoe states),
:mod:`~exactodds.analysis.eor` (effect of removal and counting tags),
:mod:`~exactodds.analysis.simulate` (dealt shoes, computer-perfect play or card counting: it
drives :mod:`~exactodds.analysis.dealing`, :mod:`~exactodds.analysis.count`,
:mod:`~exactodds.analysis.tally` and :mod:`~exactodds.analysis.simulation`),
:mod:`~exactodds.analysis.montecarlo` (Monte Carlo check of the exact figures),
:mod:`~exactodds.analysis.meter` (a progressive meter played wager by wager) and
:mod:`~exactodds.analysis.plots` (optional, matplotlib).
"""

from __future__ import annotations

from exactodds.analysis.batch import BatchEvaluator, BatchResult, BetLike, compile_bets

__all__ = ["BatchEvaluator", "BatchResult", "BetLike", "compile_bets"]
