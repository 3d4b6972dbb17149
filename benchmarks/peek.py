"""Benchmark: the peek figures of Player (1:1) and Banker (0.95:1) with a 20% fee and raises to
2 and 3, one fixed reveal rule at a time (1 to 4 cards in dealing order), CPU seconds of each
(wall time beside it) and its exact RTP, with the never-raise and always-triple RTPs; Player
pair (keyed by the shown ranks) as the card engine's case.

Target: each within 1 s of CPU on 8 decks. Issue 34: the published Peek Baccarat Player and
Banker RTP is about 98.8%; the reveal rule behind it is not published.

Usage: python benchmarks/peek.py [--decks 8]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from fractions import Fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    args = parser.parse_args()
    from exactodds.bets.loader import load_paytable
    from exactodds.bets.multipliers import Peek
    from exactodds.bets.paytable import Bet
    from exactodds.deal.shoe import Shoe
    from exactodds.figures.peek import DEALING_ORDER_REVEALS, peek_figures

    shoe = Shoe.decks(args.decks)
    table = load_paytable("classic")
    for bet_id in ("player", "banker", "player_pair"):
        bet = table.bet(bet_id)
        assert isinstance(bet, Bet)
        for positions in DEALING_ORDER_REVEALS:
            peek = Peek(((positions, Fraction(1)),), (2, 3))
            wall, cpu = time.perf_counter(), time.process_time()
            f = peek_figures(replace(bet, fee=Fraction(1, 5), peek=peek), shoe)
            rtp = f.rtp
            print(
                f"{bet_id}, reveal {' '.join(positions)}, {args.decks} decks: "
                f"CPU {time.process_time() - cpu:.2f} s (wall {time.perf_counter() - wall:.2f} s); "
                f"RTP {float(rtp):.4%}, never raise {float(f.rtp_never_raise):.4%}, "
                f"always triple {float(f.rtp_always_max):.4%}, "
                f"E[stake] {float(f.paid - f.fee):.4f}"
            )


if __name__ == "__main__":
    main()
