"""Benchmark: the games with choices in-process, CPU seconds of each (the better measure on a
loaded machine; wall time beside it).

Targets: the with-replacement model (kemeny-snell) under 1 s; one deck count of each model
without replacement (downton-lockwood, ethier-gamez) within 10 s, for the traditional rules and
for the Banker free everywhere; Baccarat Gold's decision on 8 decks; baccara banque with
replacement (team solution and three-person search) under 2 s.

Usage: python benchmarks/games.py [--decks 6]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=6)
    args = parser.parse_args()
    from exactodds.deal.shoe import Shoe
    from exactodds.games.api import baccara_banque, chemin_de_fer
    from exactodds.games.gold import baccarat_gold

    shoe = Shoe.decks(args.decks)
    cases = [
        (f"{model}, {rules}{', 5% commission' if rate else ''}", model, rules, rate)
        for model in ("kemeny-snell", "downton-lockwood", "ethier-gamez")
        for rules in ("traditional", "free-everywhere")
        for rate in ((None, Fraction(5, 100)) if model != "ethier-gamez" else (None,))
    ]
    for name, model, rules, rate in cases:
        wall, cpu = time.perf_counter(), time.process_time()
        chemin_de_fer(model, shoe, rules, rate)
        print(
            f"{name}, {args.decks} decks: CPU {time.process_time() - cpu:.2f} s "
            f"(wall {time.perf_counter() - wall:.2f} s)"
        )
    wall, cpu = time.perf_counter(), time.process_time()
    baccara_banque(infinite=True)
    print(
        f"banque, kemeny-snell, infinite shoe: CPU {time.process_time() - cpu:.2f} s "
        f"(wall {time.perf_counter() - wall:.2f} s)"
    )
    wall, cpu = time.perf_counter(), time.process_time()
    baccarat_gold()
    print(
        f"baccarat-gold, 8 decks: CPU {time.process_time() - cpu:.2f} s "
        f"(wall {time.perf_counter() - wall:.2f} s)"
    )


if __name__ == "__main__":
    main()
