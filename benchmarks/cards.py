"""Benchmark: card-level bets counted by the card engine (exactodds.counting) on 8 decks, one core.

Targets (issue 16): a colour bet on the player's hand ≤ 1 s; ranks and suits of the first four
cards (suited K-Q, nines, four-card poker) ≤ 2 s; the suit of a third card (suited three-card 8)
≤ 3 s; a condition on the rank and suit of all six cards ≤ 60 s (progress on a terminal); and
today's value-level joint about 0.02 s. The card engine uses numpy only (no numba), so the
``fast`` extra does not change these figures; the script says whether numba is installed.
Each case prints its wall time, the CPU time of this process (``time.process_time``: what the
case costs on a shared machine), the engine's own estimate of its work (``cards.work``) per CPU
second, and its first row's probability (a check that it counted). The target is on wall time.

    python benchmarks/cards.py            # every case
    python benchmarks/cards.py --quick    # without the six-card case
    python benchmarks/cards.py --named    # only the bets naming particular cards (issue 33)
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time

from exactodds.counting import row_counts, work
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.language import OTHERWISE, parse_condition

CASES: list[tuple[str, float, list[str]]] = [
    ("colour bet on the player's hand", 1.0, ["player.colour == red", "player.colour == black"]),
    (
        "suited K-Q (player's first two cards)",
        2.0,
        [
            "player.card1.suit == player.card2.suit and player.card1.rank in [K, Q] "
            "and player.card2.rank in [K, Q] and player.card1.rank != player.card2.rank",
            "player.card1.suit == player.card2.suit",
        ],
    ),
    (
        "nines among the first four cards",
        2.0,
        [
            "count(initial, rank == 9) == 4",
            "count(initial, rank == 9 and suit == diamonds) == 1",
            "count(initial, rank == 9) >= 1",
        ],
    ),
    (
        "four-card poker (first four cards)",
        2.0,
        [f"initial.poker == {c}" for c in ("four_of_a_kind", "straight_flush", "flush", "pair")],
    ),
    (
        "suited three-card 8 (suit of a third card)",
        3.0,
        ["player.wins and player.total == 8 and player.cards == 3 and player.suited"],
    ),
]
SIX = (
    "rank and suit of all six cards (both hands' poker)",
    60.0,
    ["player.poker == flush and banker.poker in [flush, straight_flush]"],
)
NAMED: list[tuple[str, float, list[str]]] = [
    (
        "named cards: two K♥, two Q♠, two A♦ (issue 33)",
        5.0,
        [
            "count(round, rank == K and suit == hearts) >= 2",
            "count(round, rank == Q and suit == spades) >= 2",
            "count(round, rank == A and suit == diamonds) >= 2",
        ],
    ),
    (
        "third cards hearts, equal first ranks; six clubs; two 7♦ (issue 33)",
        5.0,
        [
            "player.card3.suit == hearts and banker.card3.suit == hearts "
            "and player.card1.rank == banker.card1.rank",
            "player.card3.suit == hearts and banker.card3.suit == hearts",
            "count(round, suit == clubs) == 6",
            "count(round, rank == 7 and suit == diamonds) == 2",
        ],
    ),
]
"""Bets naming particular cards (rank and suit): identities no row tells apart are lumped
(``exactodds.counting.lumps``); before, every card of 52 was its own class (77 s and 102 s of
CPU). Their target (issue 33) is on CPU time. ``--named`` runs only these."""


def run(
    name: str, target: float, texts: list[str], show: bool, *, cpu_target: bool = False
) -> None:
    conditions = [parse_condition(t) for t in texts] + [OTHERWISE]
    shoe = Shoe.decks(8)
    estimate = work(conditions, shoe)
    start, cpu = time.perf_counter(), time.process_time()

    def progress(done: int, of: int) -> None:
        if show and of:
            took = time.perf_counter() - start
            sys.stderr.write(f"\r  {done:,}/{of:,} blocks, {took:.0f} s")
            sys.stderr.flush()

    counts = row_counts(conditions, shoe, progress=progress)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    if show:
        sys.stderr.write("\n")
    first = counts.rows[0] / counts.offered
    verdict = "ok" if (cpu if cpu_target else took) <= target else "OVER TARGET"
    rate = estimate / max(cpu, 1e-3)
    print(
        f"{name:52} {took:7.2f} s  cpu {cpu:6.2f} s  (target {target:g} s, {verdict})  "
        f"work {estimate:.2g} = {rate:.1g}/cpu s  P(row 1) = {first:.6g}"
    )


def main() -> None:
    fast = importlib.util.find_spec("numba") is not None
    print(f"8 decks, one process; numba installed: {fast} (the card engine does not use it)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if "--named" in sys.argv:
        for name, target, texts in NAMED:
            run(name, target, texts, show=False, cpu_target=True)
        return
    start = time.perf_counter()
    joint_distribution.cache_clear()
    joint_distribution(Shoe.decks(8))
    print(f"{'value-level joint (today’s paytables)':52} {time.perf_counter() - start:7.3f} s")
    for name, target, texts in CASES:
        run(name, target, texts, show=False)
    for name, target, texts in NAMED:
        run(name, target, texts, show=False, cpu_target=True)
    if "--quick" not in sys.argv:
        run(*SIX, show=sys.stderr.isatty())


if __name__ == "__main__":
    main()
