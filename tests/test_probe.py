"""The card engine's probe (issue 33): a sample of a count's blocks, its work counted (never
timed), extrapolated. Checked against the same count run whole with the meter on: the
extrapolation follows the work the whole count does, the sample is a small share of it, and
the counted work is the same on every run (deterministic)."""

from __future__ import annotations

import pytest

from exactodds.counting.engine import _row_counts, row_counts
from exactodds.counting.meter import Meter
from exactodds.counting.probe import PROBE_OVER, _probe, probe_count, seconds_of, spread
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, Condition, parse_condition
from exactodds.limits import CPU_BUDGET

PB = BUILTIN["punto-banco"]
HALF = Shoe.decks(1).remove(
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"
)
"""A small shoe of 28 cards (so that a whole count takes a fraction of a second)."""


def _conditions(*texts: str) -> list[Condition]:
    return [parse_condition(t) for t in texts] + [OTHERWISE]


def test_spread_visits_every_block_once_and_spreads_each_prefix() -> None:
    for n in (1, 2, 3, 7, 64, 100):
        order = spread(n)
        assert sorted(order) == list(range(n))
    assert spread(16)[:4] == [0, 8, 4, 12]  # the first four are the quarters


@pytest.mark.parametrize(
    ("texts", "shoe"),
    [
        (("player.poker == flush and banker.poker == flush",), HALF),
        (("player.suited and banker.suited",), HALF),
        (("player.natural and player.suited and player.colour == red", "player.natural"), HALF),
    ],
)
def test_the_probe_extrapolates_the_whole_counts_work(texts: tuple[str, ...], shoe: Shoe) -> None:
    """The whole count with the meter on (its counted seconds) against the probe's estimate
    from its sample: within ×1.5 (the calibration's aim is ×2 against CPU time), from a
    sample of at most a quarter of the blocks; the meter changes no count."""
    conditions = _conditions(*texts)
    meter = Meter()
    counts, whole = _row_counts(conditions, shoe, PB, offer=None, known=None, meter=meter)
    assert whole and counts == row_counts(conditions, shoe, PB)
    assert meter.visited == meter.of and meter.blocks <= meter.of
    probe = probe_count(conditions, shoe, PB, force=True)
    assert probe.blocks == meter.of and 0 < probe.sampled <= probe.blocks
    assert 1 / 1.5 < probe.seconds / seconds_of(meter) < 1.5
    _probe.cache_clear()  # counted again from scratch: the same work, to the element
    assert probe_count(conditions, shoe, PB, force=True) == probe


def test_the_static_bound_decides_when_no_probe_is_needed() -> None:
    """A colour bet's static bound is under PROBE_OVER: the bound is the estimate, no block
    runs; forced, the probe's estimate is below the bound (an upper bound)."""
    colour = _conditions("player.colour == red")
    cheap = probe_count(colour, Shoe.decks(8), PB)
    assert cheap.sampled == 0 and cheap.seconds == cheap.bound <= PROBE_OVER
    forced = probe_count(colour, Shoe.decks(8), PB, force=True)
    assert 0 < forced.seconds < forced.bound


def test_the_issues_first_design_is_measured_not_guessed() -> None:
    """Issue 33: "both hands a suited natural 9, both red" beside four natural rows was
    refused at 40 s (32,291,424,000 cell operations) and took 0.99 s forced: the static bound
    still says tens of seconds, the probe about one."""
    design = _conditions(
        "player.natural and banker.natural and player.total == 9 and banker.total == 9"
        " and player.suited and banker.suited and player.colour == red"
        " and banker.colour == red",
        "player.natural and banker.natural and player.total == 9 and banker.total == 9",
        "player.natural and banker.natural",
        "player.natural",
        "banker.natural",
    )
    probe = probe_count(design, Shoe.decks(8), PB)
    assert probe.bound > 20 and 0.1 < probe.seconds < 3
    assert 0 < probe.sampled < probe.blocks / 4  # a sample: a few milliseconds of work


DEPLETED = Shoe.decks(8).remove("Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h")

FLUSHES = (
    "player.poker == flush and banker.poker == flush",
    "player.card3.suit == banker.card3.suit",
)

MEASURED: list[tuple[tuple[str, ...], int | Shoe, float]] = [
    # Source: each count run whole, in-process, on this tree (cards no row tells apart dealt in
    # lumps) on 2026-12-06, CPU seconds on one core of the 2-core machine; the probe's
    # estimates are counted work, the same on every machine.
    (("count(round, rank == K and suit == hearts) >= 2",), 8, 0.01),
    (("count(round, rank == K and suit == hearts) >= 2",), DEPLETED, 0.01),
    (("player.colour == red",), 8, 0.04),
    (("player.suited and banker.suited",), 8, 0.08),
    (("count(round, suit == hearts) >= 4",), 8, 0.11),
    (("player.suited and banker.suited",), DEPLETED, 0.27),
    (("player.poker == flush and banker.poker == flush",), 8, 0.70),
    (("player.poker == flush and banker.poker == flush",), DEPLETED, 3.66),
    (("count(round, suit == hearts) >= 4", "player.poker == flush"), DEPLETED, 4.95),
    (FLUSHES, 1, 6.08),
    (FLUSHES, 8, 7.24),
    (("player.poker == straight_flush or banker.poker == straight_flush",), DEPLETED, 8.42),
    (("most(round, suit) >= 4",), DEPLETED, 9.96),  # estimated 3.8 s: the widest miss, ×2.6
    (FLUSHES, Shoe.decks(8).remove("Ah"), 26.76),
    (FLUSHES, Shoe.decks(8).remove("Ah 2c"), 66.13),
]
"""Counts spread over the range (0.01 to 66 s of CPU), with the CPU they took."""


def test_nothing_under_ten_seconds_is_refused_nor_over_thirty_accepted() -> None:
    """The probe, forced, on counts measured from 0.01 to 66 s: every one within ×3 of its
    CPU, the issue's ceiling (those over 0.3 s: below, the command's own fixed cost dominates;
    all but one are within ×2), none measured under 10 s estimated over the default budget of
    30 s, none measured over 30 s under it."""

    for texts, shoe, cpu in MEASURED:
        the_shoe = Shoe.decks(shoe) if isinstance(shoe, int) else shoe
        estimate = probe_count(_conditions(*texts), the_shoe, PB, force=True).seconds
        if cpu > 0.3:
            assert 1 / 3 < cpu / estimate < 3, (texts, cpu, estimate)
        if cpu <= 10:
            assert estimate <= CPU_BUDGET, (texts, cpu, estimate)
        if cpu > CPU_BUDGET:
            assert estimate > CPU_BUDGET, (texts, cpu, estimate)
