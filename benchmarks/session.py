"""Benchmark: session distributions on one core (issue 28).

Targets: Banker (8 decks), 200 rounds, the exact distribution in at most 2 CPU seconds; 10,000
rounds with every probability between bounds proven to 30 significant digits in at most 10.
Also: the exact distribution at the stated limit (1,000 rounds), P(ahead) and the percentiles
read from it, the risk of ruin, and rendering the 10,000-round JSON. CPU seconds of this process
(``time.process_time``), the per-round figures computed once first.

    python benchmarks/session.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from exactodds.bets.loader import load_paytable
from exactodds.deal.engine import joint_distribution
from exactodds.figures.metrics import bet_figures
from exactodds.session.distribution import SessionDistribution
from exactodds.session.lattice import Round
from exactodds.session.ruin import ruin_probability


def timed(label: str, work: Callable[[], Any]) -> Any:
    """Run ``work`` and print its CPU seconds."""
    start = time.process_time()
    result = work()
    print(f"{label:<58} {time.process_time() - start:7.2f} s CPU")
    return result


def main() -> None:
    """Time each figure."""
    table = load_paytable("classic")
    banker = bet_figures(joint_distribution(table.shoe, table.tableau), table.round_bet("banker"))
    outcomes = [(r.net, r.combinations) for r in banker.rows]
    exact = timed(
        "Banker, 200 rounds, exact distribution (target 2 s)",
        lambda: SessionDistribution.compute(outcomes, 200),
    )
    timed("  P(ahead), P(even), percentiles, E[loss]", lambda: _figures(exact))
    timed(
        "Banker, 1,000 rounds, exact distribution (the stated limit)",
        lambda: SessionDistribution.compute(outcomes, 1000),
    )
    bounded = timed(
        "Banker, 10,000 rounds, bounds to 30 digits (target 10 s)",
        lambda: SessionDistribution.compute(outcomes, 10_000, exact=False, digits=30),
    )
    timed("  P(ahead), P(even), percentiles, E[loss]", lambda: _figures(bounded))
    one = Round.of(outcomes)
    timed(
        "Banker, 200 rounds, risk of ruin from 20 units, exact",
        lambda: ruin_probability(one, 200, Fraction(20)),
    )
    timed(
        "Banker, 1,000 rounds, risk of ruin from 50 units, 30 digits",
        lambda: ruin_probability(one, 1000, Fraction(50), digits=30),
    )
    from exactodds.report.session_render import render_session
    from exactodds.session.result import session

    s = timed(
        "session() Banker, 10,000 rounds, rebate (figures included)",
        lambda: session(table, "banker", 10_000, rebate="10%"),
    )
    text = timed("  its JSON (every probability's two bounds)", lambda: render_session(s, "json"))
    print(f"  ({len(text) / 1e6:.1f} MB of JSON, {bounded.size:,} net results)")
    timed("Issue 28's four over-budget sessions, refused up front", _refusals)


def _refusals() -> None:
    """The estimate refuses each before any work (the per-round figures cost most of it)."""
    from exactodds.errors import SessionError
    from exactodds.session.result import session

    for bet, fmt, bankroll in (
        ("banker", None, 1000),
        ("player_bonus", None, None),
        ("tie", "json", None),
        ("banker", None, None),
    ):
        try:
            session("classic", bet, 100_000, bankroll=bankroll, output=fmt)
        except SessionError:
            continue
        raise AssertionError(f"{bet} over 100,000 rounds was not refused")


def _figures(d: SessionDistribution) -> tuple[Any, ...]:
    return d.p_ahead, d.p_even, d.percentiles, d.expected_loss


if __name__ == "__main__":
    main()
