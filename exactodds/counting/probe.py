"""The card engine's work measured on a sample instead of guessed: a probe plans the count,
runs a small deterministic sample of its blocks, and extrapolates from the work they did.

The work is counted, not timed (:class:`~exactodds.counting.engine.Meter`: array elements the
conditions computed, Python steps, blocks), so a probe decides the same on every machine; one
constant per unit, measured by ``benchmarks/budget.py``, turns it into CPU seconds of one core.
:func:`~exactodds.counting.plan.work`, the static estimate, stays as the fast bound that says
when a probe is needed (:data:`PROBE_OVER`).

>>> from exactodds.language import OTHERWISE, parse_condition
>>> from exactodds.deal.shoe import Shoe
>>> flush = parse_condition("player.poker == flush and banker.poker == flush")
>>> probe = probe_count([flush, OTHERWISE], Shoe.decks(8))
>>> 0.1 < probe.seconds < 3 and probe.sampled < probe.blocks
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from exactodds.counting.classes import Known
from exactodds.counting.engine import _row_counts
from exactodds.counting.meter import Meter
from exactodds.counting.plan import work
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.language import Condition

ELEMENT_NS = 1.4
"""CPU nanoseconds per array element the conditions compute (numpy's inner loops), fitted by
``benchmarks/budget.py --fit`` over the card engine's calibration set (47 counts: documented,
bundled and designed bets on 1, 8 and depleted 8 decks, 0.06 to 17 s; all within ×1.8)."""

HEAVY_NS = 10.0
"""CPU nanoseconds per element of a hand's poker category or colour (a table lookup of ranks
and suits, several arrays each), fitted as :data:`ELEMENT_NS`."""

STEP_NS = 28_000.0
"""CPU nanoseconds per Python step of the engine (a node evaluated on one block, a settle):
numpy's call overhead and the engine's own bookkeeping, fitted as :data:`ELEMENT_NS`."""

BLOCK_NS = 0.0
"""CPU nanoseconds per block beyond its steps (fitted as :data:`ELEMENT_NS`: none)."""

STATIC_NS = 2.0
"""CPU nanoseconds per cell operation of :func:`~exactodds.counting.plan.work` (its rate, at
least 5·10⁸ a second): the static bound in seconds."""

PROBE_OVER = 0.25
"""CPU seconds of the static bound above which a probe runs: below it the bound itself is the
estimate (the probe would cost more than the error it saves)."""

SAMPLE_SECONDS = 0.015
"""The work a probe counts before it stops (:func:`seconds_of`), once :data:`SAMPLE_BLOCKS`
blocks ran: the sample grows until both hold, or every block ran."""

SAMPLE_BLOCKS = 6
"""Blocks a probe runs at least (spread over the plan: :func:`spread`)."""


def _enough(meter: Meter) -> bool:
    """Whether a probe's sample is large enough (see :data:`SAMPLE_SECONDS`)."""
    return meter.visited >= SAMPLE_BLOCKS and seconds_of(meter) >= SAMPLE_SECONDS


@dataclass(frozen=True)
class Probe:
    """A count's estimated CPU seconds on one core, and how they were found: the static
    bound alone (``sampled`` 0), or ``sampled`` of ``blocks`` blocks run and extrapolated."""

    seconds: float
    bound: float
    sampled: int
    blocks: int


def spread(n: int) -> list[int]:
    """``0 … n−1`` in a deterministic order that spreads every prefix of it over the range
    (van der Corput, base 2): the probe's sample, however long it runs, is evenly spread.

    >>> spread(8), spread(5)
    ([0, 4, 2, 6, 1, 5, 3, 7], [0, 4, 2, 1, 3])
    """
    if n <= 1:
        return list(range(n))
    bits = (n - 1).bit_length()
    out = []
    for j in range(1 << bits):
        i = int(f"{j:0{bits}b}"[::-1], 2)
        if i < n:
            out.append(i)
    return out


def seconds_of(meter: Meter) -> float:
    """CPU seconds of the work counted on ``meter``."""
    return (
        meter.elements * ELEMENT_NS
        + meter.heavy * HEAVY_NS
        + meter.steps * STEP_NS
        + meter.blocks * BLOCK_NS
    ) / 1e9


def probe_count(
    conditions: Sequence[Condition],
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    *,
    offer: Condition | None = None,
    known: Known | None = None,
    force: bool = False,
) -> Probe:
    """The CPU seconds :func:`~exactodds.counting.row_counts` of these inputs takes, estimated:
    the static bound where it is under :data:`PROBE_OVER` (unless ``force``), else a sample of
    the blocks run and extrapolated (the share of the prefixes visited)."""
    return _probe(tuple(conditions), shoe, tableau, offer=offer, known=_frozen(known), force=force)


def _frozen(known: Known | None) -> tuple[tuple[str, frozenset[tuple[int, int]]], ...] | None:
    if known is None:
        return None
    return tuple(sorted((k, frozenset(v)) for k, v in known.items()))


@lru_cache(maxsize=256)
def _probe(
    conditions: tuple[Condition, ...],
    shoe: Shoe,
    tableau: Tableau,
    *,
    offer: Condition | None,
    known: tuple[tuple[str, frozenset[tuple[int, int]]], ...] | None,
    force: bool,
) -> Probe:
    given = None if known is None else dict(known)
    bound = work(conditions, shoe, tableau, offer=offer, known=given) * STATIC_NS / 1e9
    if bound <= PROBE_OVER and not force:
        return Probe(bound, bound, 0, 0)
    meter = Meter(pick=spread, enough=_enough)
    _row_counts(conditions, shoe, tableau, offer=offer, known=given, meter=meter)
    share = meter.visited / max(1, meter.of)
    return Probe(seconds_of(meter) / max(share, 1e-12), bound, meter.visited, meter.of)
