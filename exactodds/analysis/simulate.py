"""Shoe simulation: deal shoes, let a strategy bet, tally the exact figures; in local processes
or on a Dask cluster (:mod:`~exactodds.analysis.parallel`).

Why: whether a bet can be beaten by a player who tracks the cards is a question about real shoes
(rules.md §1, §7). Shoes are dealt by :mod:`~exactodds.analysis.dealing` (each from its own seeded
stream), and before every round the exact EV of every bet is computed from the cards left
(:class:`~exactodds.analysis.batch.BatchEvaluator`). Strategies:

- ``perfect``: a computer that knows the cards left bets one unit exactly when the EV is
  positive (the exposure of the bet to a player who knows the composition exactly);
- ``count``: a counter bets one unit when the bet's true count reaches its trigger
  (:mod:`~exactodds.analysis.count`); only the rounds where some count bets are evaluated.

Card-level bets (ranks, suits, colours, poker) and bets with an ``offer`` cannot go through the
batch evaluator: their EV is counted by the card engine on the cards left
(:func:`~exactodds.analysis.cardround.card_rounds`), per offered round, on the rounds whose first
four cards meet the offer only, and tallied apart (:class:`~exactodds.analysis.tally.CardTally`);
value-level bets keep the batch evaluator's path. A counter's tags for them come from their
card-level effects of removal (per rank), and the card engine counts the EV of the rounds it
bets only.

The sums are exact (:class:`~exactodds.analysis.tally.Tally`) and add up in any order, so a run
gives the same figures whatever the number of workers, the backend or the chunking. Work is
split in chunks of shoes (``more_itertools``); a chunk is dealt and tallied with numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from more_itertools import sliced

from exactodds.analysis.batch import BatchEvaluator
from exactodds.analysis.cardround import card_rounds
from exactodds.analysis.count import CountStrategy
from exactodds.analysis.dealing import deal_shoes
from exactodds.analysis.parallel import NO_DASK, dask_parts, pool_parts, tasks
from exactodds.analysis.prepare import Counting, check_strategy, prepare
from exactodds.analysis.scheduler import (
    probe_scheduler,
)
from exactodds.analysis.simulation import BetRun, Simulation, StreakRun
from exactodds.analysis.streak import play_streak_chunk
from exactodds.analysis.tally import CardTally, Tally
from exactodds.bets.budget import CARD_OPS_PER_SECOND, CardSpend, spending
from exactodds.bets.meters import figure_label
from exactodds.bets.paytable import Bet, Paytable
from exactodds.bets.streak import StreakBet, streak_figures
from exactodds.cpus import available_cpus
from exactodds.deal.round import OUTCOME_CODES
from exactodds.deal.shoe import RANKS, SUITS, Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import MissingExtraError, SimulationError, about, require
from exactodds.limits import (
    MAX_CLUSTER_SHOES,
    MAX_CPU_BUDGET,
    MAX_SHOES,
    MAX_SIMULATED_CARDS,
    MAX_SIMULATION_SHOE,
    check_count,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "BACKENDS",
    "Progress",
    "SimulationError",
    "check_limits",
    "check_run",
    "check_strategy",
    "chunk_size",
    "run_chunk",
    "simulate",
]

Progress = Callable[[int, int], None]
"""Called with (shoes done, shoes in the run) as chunks finish."""

BACKENDS = ("local", "dask")
"""``local``: this process, or a pool of ``workers`` processes; ``dask``: a Dask cluster."""

_ROUNDS_PER_CHUNK = 16_000  # rounds dealt and evaluated at once (memory: ~1 kB per round)
_LEAST_ROUNDS_PER_CHUNK = 2_000  # below this a process pool costs more than it gives


@dataclass(frozen=True, eq=False)
class Job:
    """Everything a worker needs to deal and tally chunks of a run (pickled once per worker)."""

    evaluator: BatchEvaluator
    shoe: Shoe
    seed: int
    cut_card: int
    count: CountStrategy | None
    net_rows: IntArray  # outcome code → row of net_table
    net_table: IntArray  # scaled net of every bet (rows × bets), int64 or Python ints
    card_bets: tuple[Bet, ...] = ()  # card-level and offered bets: the card engine's
    card_costs: tuple[int, ...] = ()  # a counter's: estimated work of one EV per card bet
    streak_bets: tuple[StreakBet, ...] = ()  # played at every chance (streak.SHOE_RULE)

    @classmethod
    def of(
        cls,
        evaluator: BatchEvaluator,
        shoe: Shoe,
        seed: int,
        cut_card: int,
        count: CountStrategy | None,
        *,
        card_bets: Sequence[Bet] = (),
        card_costs: Sequence[int] = (),
        streak_bets: Sequence[StreakBet] = (),
    ) -> Job:
        """The job, with the table of every bet's scaled net by outcome code."""
        import numpy as np

        codes = sorted(evaluator.nets)
        rows = np.full(OUTCOME_CODES, -1, dtype=np.int64)
        rows[codes] = np.arange(len(codes))
        values = [evaluator.nets[c] for c in codes]
        try:
            table = np.array(values, dtype=np.int64)
        except OverflowError:  # a scaled net beyond int64: Python ints
            table = np.array(values, dtype=object)
        return cls(
            evaluator,
            shoe,
            seed,
            cut_card,
            count,
            rows,
            table,
            tuple(card_bets),
            tuple(card_costs),
            tuple(streak_bets),
        )


def run_chunk(job: Job, indices: Sequence[int]) -> Tally:
    """Deal shoes ``indices`` of the run, let the strategy bet, and tally (exact)."""
    import numpy as np

    ev = job.evaluator
    dealt = deal_shoes(job.shoe, ev.tableau, job.seed, indices, job.cut_card)
    n_bets = len(ev.bet_ids)
    decided = None  # the counter's decisions (rounds × value-level then card-level bets)
    if job.count is None:
        rows = np.arange(len(dealt))
    else:
        decided = job.count.decide(dealt.seen(see_burns=job.count.see_burns))
        bet = decided[:, :n_bets]
        rows = np.flatnonzero(bet.any(axis=1))
    numerators: IntArray = np.zeros((len(dealt), n_bets), dtype=np.int64)
    if len(rows) and n_bets:
        result = ev.evaluate(dealt.states[rows].reshape(-1, len(RANKS), len(SUITS)))
        part = result.int64_numerators()
        if part is None:  # beyond int64: Python ints
            numerators = numerators.astype(object)
            part = result.numerators
        numerators[rows] = part
    if job.count is None:
        bet = numerators > 0
    tally = Tally.of_rounds(
        bets=n_bets,
        shoes=len(indices),
        rounds=dealt.round,
        sizes=dealt.states.sum(axis=1),
        numerators=numerators,
        bet=bet,
        nets=job.net_table[job.net_rows[dealt.codes]],
        evaluated=job.count is None,
    )
    if job.card_bets:
        counted = None if decided is None else decided[:, n_bets:]
        tally.cards = _card_tally(job, dealt.round, dealt.states, dealt.cards, counted)
    if job.streak_bets:
        tally.streaks = tuple(
            play_streak_chunk(
                job.streak_bets,
                job.shoe,
                ev.tableau,
                indices,
                seed=job.seed,
                cut_card=job.cut_card,
                dealt=dealt,
            )
        )
    return tally


def _card_tally(
    job: Job, rounds: IntArray, states: IntArray, cards: IntArray, counted: IntArray | None
) -> CardTally:
    """The card-level and offered bets on dealt rounds, played perfectly (bet when the exact
    EV per offered round is positive), or by the counter's decisions ``counted`` (rounds ×
    bets): then it bets the offered rounds where its true count reaches the trigger, and only
    their EVs are counted."""
    tally = CardTally(len(job.card_bets), evaluated=counted is None)
    tableau = job.evaluator.tableau
    played = card_rounds(job.card_bets, rounds, states, cards, tableau, wanted=counted)
    for j, per_round in enumerate(played):
        for r in per_round:
            bet = r.ev is not None and (counted is not None or r.ev > 0)
            tally.add(j, r.round, offered=r.offered, ev=r.ev, bet=bet, net=r.net)
            if bet and job.card_costs:
                tally.work += job.card_costs[j]
    return tally


def run_task(job: Job, chunks: Sequence[Sequence[int]]) -> Tally:
    """Several chunks in one worker, merged there (a Dask task)."""
    total = Tally(len(job.evaluator.bet_ids))
    for c in chunks:
        total.merge(run_chunk(job, c))
    return total


def chunk_size(shoe: Shoe, shoes: int, workers: int) -> int:
    """Shoes per chunk: about 16,000 rounds (a chunk's arrays stay small; the tally's cost per
    round falls as chunks grow), and with several workers four chunks per worker, but at least
    about 2,000 rounds (a short run stays in one process). The figures do not depend on it.

    >>> chunk_size(Shoe.decks(8), 100_000, 1), chunk_size(Shoe.decks(8), 400, 2)
    (190, 50)
    >>> chunk_size(Shoe.decks(8), 40, 2), chunk_size(Shoe.decks(1), 5, 2)  # one process
    (23, 200)
    """
    per_shoe = max(1, shoe.size * 10 // 49)  # rounds use 4.9 cards on average
    most = max(1, _ROUNDS_PER_CHUNK // per_shoe)
    if workers == 1:
        return most
    least = max(1, _LEAST_ROUNDS_PER_CHUNK // per_shoe)
    return max(1, min(most, max(least, -(-shoes // (4 * workers)))))


def simulate(
    game: Paytable | BatchEvaluator,
    shoe: Shoe | None = None,
    *,
    shoes: int,
    seed: int,
    tableau: Tableau | None = None,
    cut_card: int = 14,
    workers: int = 1,
    progress: Progress | None = None,
    chunk: int | None = None,
    count: Counting | CountStrategy | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    card_bets: Sequence[Bet] = (),
    order: Sequence[str] | None = None,
    card_budget: int | None = None,
    streak_bets: Sequence[StreakBet] = (),
    budget: float | None = None,
) -> Simulation:
    """Deal ``shoes`` shoes of ``game``, a paytable (on its own shoe and rules unless
    ``shoe``/``tableau`` are given; ``count`` a :class:`~exactodds.analysis.prepare.Counting`,
    else computer-perfect play), and tally the strategy on every bet; ``workers`` processes on
    ``backend``, or the Dask cluster at ``scheduler``. Dealing, streak play and card-engine EVs
    are checked first against ``budget`` (CPU seconds; default the one in force, 30) but on a
    cluster of one's own (``scheduler``: :data:`~exactodds.limits.MAX_CLUSTER_SHOES`). A
    counter's card-engine EVs stop the run with one line once their estimated work is over
    ``card_budget`` (cell operations, default the budget's: :class:`~exactodds.bets.budget.
    CardSpend`; checked as each chunk of shoes comes back, so a chunk per worker may go beyond
    it). Streak bets are played flat in the dealt shoes by
    :data:`~exactodds.analysis.streak.SHOE_RULE`, whatever the strategy.

    ``game`` may also be compiled bets (:func:`~exactodds.analysis.batch.compile_bets`) with a
    ``shoe``, ``card_bets`` (card-level or offered bets, EVs by the card engine),
    ``streak_bets``, ``order`` (the bet ids of the result; default: the compiled bets, then
    ``card_bets``) and ``count`` a :class:`~exactodds.analysis.count.CountStrategy` of them.

    >>> from dataclasses import replace
    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("classic")
    >>> table = replace(table, bets=(table.bet("player"), table.bet("tie")))
    >>> sim = simulate(table, Shoe.decks(1), shoes=2, seed=1)
    >>> [b.bet_id for b in sim.bets], sim.shoes
    (['player', 'tie'], 2)
    """
    require(tableau, (Tableau, type(None)), "tableau")
    require(count, (Counting, CountStrategy, type(None)), "count")
    if isinstance(game, Paytable):
        shoe, tableau = shoe or game.shoe, tableau or game.tableau
    elif shoe is None or tableau is not None:
        raise SimulationError("compiled bets run on a shoe given, under their own rules")
    check_run(
        shoes,
        shoe,
        workers,
        seed=seed,
        cut_card=cut_card,
        backend=backend,
        scheduler=scheduler,
    )
    on_cluster = scheduler is not None  # a cluster of one's own: MAX_CLUSTER_SHOES bounds it
    with spending(MAX_CPU_BUDGET if on_cluster else budget) as seconds:
        ready = prepare(
            game,
            shoe,
            tableau or game.tableau,
            shoes=shoes,
            cut_card=cut_card,
            count=count,
            given=(tuple(card_bets), None if order is None else tuple(order), tuple(streak_bets)),
            cluster=on_cluster,
        )
    if card_budget is None:
        card_budget = int(seconds * CARD_OPS_PER_SECOND)
    evaluator, count, card_bets = ready.evaluator, ready.count, ready.card_bets
    order, streak_bets = ready.order, ready.streak_bets
    if chunk is not None and chunk < 1:
        raise SimulationError(f"chunk size must be at least 1, not {chunk!r}")
    if count is not None and count.size != shoe.size:
        raise SimulationError("the count strategy was built for another shoe")
    check_strategy(evaluator, card_bets, count)
    independent = {b.id: streak_figures(b, shoe, evaluator.tableau).rtp for b in streak_bets}
    # A card-level EV costs milliseconds to seconds: one shoe a chunk spreads them over workers.
    size = chunk or (1 if card_bets else chunk_size(shoe, shoes, workers))
    workers = min(workers, -(-shoes // size))  # a worker per chunk of shoes at most
    chunks: Iterable[Sequence[int]] = sliced(range(shoes), size)  # ranges: nothing stored
    spend = None
    if count is not None and card_bets:
        spend = CardSpend.of(card_bets, shoe, evaluator.tableau, card_budget)
    costs = spend.costs if spend is not None else ()
    job = Job.of(
        evaluator,
        shoe,
        seed,
        cut_card,
        count,
        card_bets=card_bets,
        card_costs=costs,
        streak_bets=streak_bets,
    )
    n_chunks = -(-shoes // size)
    if backend == "dask":
        parts = dask_parts(run_task, job, chunks, workers, scheduler, chunks_in_run=n_chunks)
    elif workers == 1:
        parts = (run_chunk(job, c) for c in chunks)
    else:
        parts = pool_parts(run_task, job, tasks(chunks, n_chunks, workers, 4), workers)
    total = Tally(len(evaluator.bet_ids), evaluated=count is None)
    for part in parts:
        total.merge(part)
        if spend is not None and total.cards is not None:
            spend.check(total.cards.work, total.shoes, shoes)
        if progress is not None:
            progress(total.shoes, shoes)
    return _finish(job, total, count, order, independent)


def check_run(
    shoes: int,
    shoe: Shoe,
    workers: int,
    *,
    seed: int = 1,
    cut_card: int = 14,
    backend: str = "local",
    scheduler: str | None = None,
) -> None:
    """Refuse, before any work (compiling the bets takes seconds), every parameter of a run
    that :func:`simulate` would refuse: shoes, seed, cut card, workers, backend and scheduler,
    a ``dask`` backend whose extra is missing (:class:`~exactodds.errors.MissingExtraError`),
    and the limits of :func:`check_limits`.

    >>> check_run(10, Shoe.decks(1), 1, cut_card=60)
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: cut_card 60 must be 0..51 (cards behind the cut card)
    """
    require(shoe, (Shoe,), "shoe")
    whole = {"shoes": shoes, "seed": seed, "cut_card": cut_card, "workers": workers}
    for name, value in whole.items():  # cut_card=1.5 was a run, with a cut card no shoe has
        require(value, (int,), name)
    if shoes < 1:
        raise SimulationError(f"number of shoes must be at least 1, not {shoes!r}")
    if seed < 0:
        raise about(SimulationError(f"seed must be a non-negative integer, not {seed!r}"), "seed")
    if not 0 <= cut_card < shoe.size:
        message = f"cut_card {cut_card!r} must be 0..{shoe.size - 1} (cards behind the cut card)"
        raise about(SimulationError(message), "cut_card")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers!r}")
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r} (use {' or '.join(BACKENDS)})")
    if scheduler is not None and backend != "dask":
        raise SimulationError("a scheduler address applies only to the dask backend")
    if backend == "dask" and find_spec("distributed") is None:
        raise about(MissingExtraError(NO_DASK, "dask"), "backend")
    check_limits(shoes, shoe, workers, cluster=scheduler is not None)
    if scheduler is not None:
        probe_scheduler(scheduler)  # a bounded time, before compiling the bets


def check_limits(shoes: int, shoe: Shoe, workers: int, *, cluster: bool = False) -> None:
    """Refuse a run beyond the limits of :mod:`exactodds.limits` (shoes, shoe size, cards
    dealt, workers) before any work: :func:`simulate` calls it first. On a Dask cluster of
    one's own (``cluster``, ``--scheduler``) the number of shoes may reach
    :data:`~exactodds.limits.MAX_CLUSTER_SHOES` and the workers are the cluster's.

    >>> check_limits(2, Shoe.decks(8), workers=10_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: 10,000 workers is more than the ... CPUs available
    >>> check_limits(10**8, Shoe.decks(8), workers=1, cluster=True)
    """
    if shoe.size > MAX_SIMULATION_SHOE:
        raise SimulationError(
            f"a shoe of {shoe.size:,} cards is over the limit of {MAX_SIMULATION_SHOE:,} cards "
            f"({MAX_SIMULATION_SHOE // 52} decks) for a simulation"
        )
    if cluster:
        check_count(shoes, MAX_CLUSTER_SHOES, "number of shoes", SimulationError)
        return
    check_count(shoes, MAX_SHOES, "number of shoes", SimulationError)
    check_count(
        shoes * shoe.size, MAX_SIMULATED_CARDS, "cards dealt (shoes × cards)", SimulationError
    )
    cpus = available_cpus()
    if workers > cpus:
        raise SimulationError(f"{workers:,} workers is more than the {cpus} CPUs available")


def _finish(
    job: Job,
    tally: Tally,
    count: CountStrategy | None,
    order: Sequence[str] | None,
    independent: dict[str, Fraction],
) -> Simulation:
    ev = job.evaluator
    figures = tally.by_round(ev.scales)
    runs = [
        BetRun(
            bet,
            ev.bet_names[j],
            ev.max_rounds[j],
            figures[j],
            None if count is None else count.bets[j],
        )
        for j, bet in enumerate(ev.bet_ids)
    ]
    if job.card_bets:
        cards = tally.cards or CardTally(len(job.card_bets), count is None)
        dealt = sum(cards.dealt().values())
        for i, (bet, by_round) in enumerate(zip(job.card_bets, cards.by_round(), strict=True)):
            offer = None if bet.offer is None else str(bet.offer)
            counted = None if count is None else count.bets[len(ev.bet_ids) + i]
            runs.append(
                BetRun(bet.id, figure_label(bet), bet.max_round, by_round, counted, offer, dealt)
            )
    if order is not None:
        position = {bet_id: i for i, bet_id in enumerate(order)}
        runs.sort(key=lambda run: position[run.bet_id])
    bets = tuple(runs)
    streaks = tuple(StreakRun(dealt, independent[dealt.bet.id]) for dealt in tally.streaks)
    return Simulation(
        tally.shoes,
        job.seed,
        job.cut_card,
        job.shoe,
        bets,
        "perfect" if count is None else "count",
        bool(count is not None and count.see_burns),
        ev.tableau.name,
        streaks,
    )
