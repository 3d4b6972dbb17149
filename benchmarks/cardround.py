"""Benchmark: exact EVs per second of card-level and offered bets on the cards left before each
round of a dealt shoe (:func:`exactodds.analysis.cardround.card_round_ev`, the card engine on the
depleted shoe), one process. The rate bounds what ``simulate`` can ask of the card engine: the
budget :data:`exactodds.limits.MAX_CARD_ROUND_EVS` is about 30 s at the fastest rate here.

Bets: Colour Match (colours of the first four cards) and a Marina Bay Sands insurance bet
(offered on the first four cards' totals). Ends with
``card-level EVs/s: N`` (all bets together).

Usage: python benchmarks/cardround.py [--rounds 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from exactodds.analysis.cardround import card_round_ev
from exactodds.analysis.dealing import deal_shoes
from exactodds.paytable_loader import load_paytable
from exactodds.shoe import Shoe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=5, help="rounds of one shoe, from the first")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    colour = load_paytable("colour-match")
    insurance = load_paytable("insurance")
    bets = [colour.bets[0], insurance.bets[0]]
    shoe = colour.shoe
    dealt = deal_shoes(shoe, colour.tableau, args.seed, [0], 14)
    states = dealt.states.reshape(len(dealt), 13, 4)[: args.rounds]
    shoes = [Shoe(tuple((int(c), int(d), int(h), int(x)) for c, d, h, x in s)) for s in states]
    print(f"shoe: {shoe.describe()}, {len(shoes)} rounds of shoe 0 (seed {args.seed})")
    total_s, total_n = 0.0, 0
    for bet in bets:
        t0 = time.perf_counter()
        for s in shoes:
            card_round_ev(bet, s, colour.tableau)
        took = time.perf_counter() - t0
        total_s, total_n = total_s + took, total_n + len(shoes)
        print(f"{bet.id}: {took / len(shoes):.3f} s per round's EV")
    print(f"card-level EVs/s: {total_n / total_s:.2f}")


if __name__ == "__main__":
    main()
