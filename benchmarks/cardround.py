"""Benchmark: exact EVs per second of card-level and offered bets on the cards left before each
round of a dealt shoe (:func:`exactodds.analysis.cardround.card_round_ev`, the card engine on the
depleted shoe), one process, and the calibration of the budget that bounds them in ``simulate``.

Per bundled card-level bet (the first bet of each market paytable, eight decks): the card
engine's estimate of one EV's work on a dealt shoe (:func:`exactodds.counting.work` on
:func:`exactodds.bets.budget.dealt_shoe`, cell operations, as the budget estimates it), the measured
seconds per EV over ``--rounds`` rounds of a dealt shoe, and the rate they imply (cell operations
a second). ``exactodds.bets.budget`` assumes 5·10⁸ a second (``CARD_OPS_PER_SECOND``): a bet whose
rate is lower costs more than the budget counts, a higher one less. Then ``simulate`` itself on
Colour Match (``--shoes`` eight-deck shoes): its rate of card-level EVs through the whole path
(dealing, settling, tally), ``card-level EVs/s: N`` (simulate, Colour Match). Then a counter
on Lucky Nines (``--count-shoes`` shoes of ``--count-decks`` decks, the default tags and trigger
from its card-level EOR): the seconds of its EOR, and of the run with the EVs it asks for (the
rounds it bets only), ending with ``count shoes/s: N``.

Usage: python benchmarks/cardround.py [--rounds 3] [--shoes 2] [--seed 1] [--quick]
       [--count-shoes 4] [--count-decks 2]
"""

from __future__ import annotations

import argparse
import os
import time

from exactodds.analysis.batch import compile_bets
from exactodds.analysis.cardround import card_round_ev
from exactodds.analysis.count import count_strategy
from exactodds.analysis.dealing import deal_shoes
from exactodds.analysis.simulate import simulate
from exactodds.bets.budget import CARD_OPS_PER_SECOND, dealt_shoe
from exactodds.bets.loader import load_paytable
from exactodds.counting import work
from exactodds.deal.shoe import Shoe

PAYTABLES = (
    "colour-match",
    "insurance",
    "majestic-match",
    "perfect-9",
    "lucky-nines",
    "jackpot-baccarat",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=3, help="rounds of one shoe, from the first")
    ap.add_argument("--shoes", type=int, default=2, help="shoes simulated with Colour Match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="Colour Match and insurance only")
    ap.add_argument("--count-shoes", type=int, default=4, help="shoes of the Lucky Nines count")
    ap.add_argument("--count-decks", type=int, default=2, help="decks of the Lucky Nines count")
    args = ap.parse_args()

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"budget's rate: {CARD_OPS_PER_SECOND:.0e} cell operations/s")
    for name in PAYTABLES[:2] if args.quick else PAYTABLES:
        table = load_paytable(name)
        bet = table.bets[0]
        dealt = deal_shoes(table.shoe, table.tableau, args.seed, [0], 14)
        states = dealt.states.reshape(len(dealt), 13, 4)[: args.rounds]
        shoes = [Shoe(tuple((int(c), int(d), int(h), int(x)) for c, d, h, x in s)) for s in states]
        estimate = work(
            [r.when for r in bet.rows], dealt_shoe(table.shoe), table.tableau, offer=bet.offer
        )
        t0 = time.perf_counter()
        for s in shoes:
            card_round_ev(bet, s, table.tableau)
        took = (time.perf_counter() - t0) / len(shoes)
        print(
            f"{name:16} {bet.id:16} work {estimate:>13,}  {took:.4f} s per EV  "
            f"{estimate / took:.2e} cell operations/s"
        )

    colour = load_paytable("colour-match")
    t0 = time.perf_counter()
    sim = simulate(
        compile_bets([], colour.tableau),
        colour.shoe,
        shoes=args.shoes,
        seed=args.seed,
        card_bets=colour.bets,
    )
    took = time.perf_counter() - t0
    evs = sum(b.rounds_offered() for b in sim.bets)
    print(f"simulate colour-match: {args.shoes} shoes, {evs} EVs in {took:.2f} s")
    print(f"card-level EVs/s: {evs / took:.1f}")
    count_run(args.count_shoes, args.count_decks, args.seed)


def count_run(shoes: int, decks: int, seed: int) -> None:
    """A counter on Lucky Nines: its EOR (the default tags), then the run."""
    nines = load_paytable("lucky-nines")
    shoe = Shoe.decks(decks)
    evaluator = compile_bets([], nines.tableau)
    t0 = time.perf_counter()
    count = count_strategy(evaluator, shoe, card_bets=nines.bets)
    eor = time.perf_counter() - t0
    t0 = time.perf_counter()
    sim = simulate(evaluator, shoe, shoes=shoes, seed=seed, count=count, card_bets=nines.bets)
    took = time.perf_counter() - t0
    run = sim.bets[0]
    print(
        f"simulate lucky-nines --strategy count, {decks} decks: EOR {eor:.1f} s; {shoes} shoes, "
        f"{sim.rounds} rounds, {run.bet_rounds()} bet (EVs) in {took:.2f} s, "
        f"{run.bet_rounds() / took:.2f} EVs/s"
    )
    print(f"count shoes/s: {shoes / took:.2f}")


if __name__ == "__main__":
    main()
