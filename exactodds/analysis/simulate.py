"""Dealt shoes and computer-perfect play: how often, and for how much, a bet favours the player.

Each shoe is shuffled from its own seed, derived from the run's seed and the shoe's index
(``numpy.random.default_rng([seed, index])``), so a run gives the same figures whatever the
number of worker processes. Shoe procedure (SPEC §7, seed 000): the first card is turned and
burned with as many more cards as its value (10 for a ten or face card); the cut card sits
``cut_card`` cards from the end; the round in which it comes out is completed and one more round
is dealt. A round is dealt only while at least six cards are left (the counting universe).

Before every round the exact EV of every bet is computed from the cards left (burned cards are
out: this is the exposure to a player who knows the composition exactly). A *computer-perfect*
player stakes one unit exactly when the EV is positive; its expected gain is the sum of those
EVs (exact), and its realized gain the sum of the dealt results. Both are reported per 100 rounds
and per shoe, without and with the bet's ``max_round``, and by round number. All sums are exact
(integers over each state's denominator); only the printed figures are rounded.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from math import perm
from typing import Any, TypeVar

from exactodds.analysis.batch import BatchEvaluator
from exactodds.errors import SimulationError
from exactodds.limits import (
    MAX_SHOES,
    MAX_SIMULATED_CARDS,
    MAX_SIMULATION_SHOE,
    available_cpus,
    check_count,
)
from exactodds.round import (
    Continuation,
    PairKind,
    continuations,
    hand_code,
    outcome_code,
    pair_kinds_by_code,
)
from exactodds.shoe import MIN_CARDS, RANK_VALUES, Shoe
from exactodds.tableau import STOOD, Tableau

__all__ = [
    "BetExposure",
    "RoundFigures",
    "Simulation",
    "SimulationError",
    "check_limits",
    "deal_round_at",
    "play_shoe",
    "render_simulation",
    "simulate",
    "simulation_json",
    "stderr_progress",
]

Progress = Callable[[int, int], None]
K = TypeVar("K")


# -- dealing ------------------------------------------------------------------------------------


def deal_round_at(cards: Sequence[int], pos: int, tableau: Tableau) -> tuple[int, int]:
    """Deal the round that starts at ``pos`` in ``cards`` (codes rank·4 + suit), by the round
    module's continuation table. Returns the outcome code and the position after the round.

    >>> from exactodds.round import Outcome
    >>> from exactodds.tableau import BUILTIN
    >>> k = lambda r, s: r * 4 + s  # rank index (A=0 … K=12), suit index
    >>> cards = [k(4, 0), k(12, 1), k(4, 0), k(11, 1), k(8, 2), k(8, 3)]  # 5c Kd 5c Qd 9h 9s
    >>> code, pos = deal_round_at(cards, 0, BUILTIN["punto-banco"])
    >>> Outcome.from_code(code), pos  # doctest: +NORMALIZE_WHITESPACE
    (Outcome(player=Hand(initial=0, third=9, pair_kind=<PairKind.PERFECT: 2>),
             banker=Hand(initial=0, third=9, pair_kind=<PairKind.NONE: 0>)), 6)
    """
    return _deal(cards, pos, continuations(tableau), pair_kinds_by_code())


def _deal(
    cards: Sequence[int],
    pos: int,
    table: tuple[tuple[Continuation, ...], ...],
    kinds: tuple[tuple[PairKind, ...], ...],
) -> tuple[int, int]:
    """:func:`deal_round_at` with the continuation and pair-kind tables looked up once."""
    c0, c1, c2, c3 = cards[pos : pos + 4]
    p = (RANK_VALUES[c0 >> 2] + RANK_VALUES[c2 >> 2]) % 10
    b = (RANK_VALUES[c1 >> 2] + RANK_VALUES[c3 >> 2]) % 10
    cont = table[p][b]
    pos += 4
    x = y = STOOD
    if cont.player_draws:
        x = RANK_VALUES[cards[pos] >> 2]
        pos += 1
    if cont.banker_draws[x]:
        y = RANK_VALUES[cards[pos] >> 2]
        pos += 1
    return outcome_code(hand_code(p, x, kinds[c0][c2]), hand_code(b, y, kinds[c1][c3])), pos


def _shoe_cards(shoe: Shoe) -> list[int]:
    return [
        r * 4 + s for r, row in enumerate(shoe.counts) for s, n in enumerate(row) for _ in range(n)
    ]


def play_shoe(
    shoe: Shoe, tableau: Tableau, seed: int, index: int, cut_card: int
) -> list[tuple[list[int], int]]:
    """Shuffle shoe ``index`` of run ``seed`` and deal it: per round, the 52 counts (rank·4 +
    suit) before the round and the round's outcome code.

    >>> from exactodds.tableau import BUILTIN
    >>> pb = BUILTIN["punto-banco"]
    >>> dealt = play_shoe(Shoe.decks(1), pb, seed=1, index=0, cut_card=14)
    >>> left = [sum(counts) for counts, _ in dealt]  # cards left before each round
    >>> left[0] < 52, all(a - b in (4, 5, 6) for a, b in zip(left, left[1:])), left[-1] >= 6
    (True, True, True)
    >>> dealt == play_shoe(Shoe.decks(1), pb, seed=1, index=0, cut_card=14)  # reproducible
    True
    """
    import numpy as np

    cards = _shoe_cards(shoe)
    order = np.random.default_rng([seed, index]).permutation(len(cards)).tolist()
    dealt = [cards[i] for i in order]
    counts = [n for row in shoe.counts for n in row]
    first = RANK_VALUES[dealt[0] >> 2] or 10
    pos = min(1 + first, len(dealt))
    for c in dealt[:pos]:
        counts[c] -= 1
    out: list[tuple[list[int], int]] = []
    table, kinds = continuations(tableau), pair_kinds_by_code()
    last = len(dealt) - pos < cut_card
    while len(dealt) - pos >= MIN_CARDS:
        code, new_pos = _deal(dealt, pos, table, kinds)
        out.append((counts.copy(), code))
        for c in dealt[pos:new_pos]:
            counts[c] -= 1
        pos = new_pos
        if last:
            break
        last = len(dealt) - pos < cut_card  # the cut card came out in this round
    return out


# -- aggregation --------------------------------------------------------------------------------


@dataclass
class _Tally:
    """Exact integer sums of a run, keyed so that merging is plain addition."""

    shoes: int = 0
    rounds: dict[int, int] = field(default_factory=dict)  # round → rounds dealt
    edge: dict[tuple[int, int], int] = field(default_factory=dict)  # (bet, round) → EV > 0
    ev_sum: dict[tuple[int, int, int], int] = field(default_factory=dict)  # (bet, round, N)
    gain: dict[tuple[int, int, int], int] = field(default_factory=dict)  # EV>0 only
    realized: dict[tuple[int, int], int] = field(default_factory=dict)  # scaled nets, EV>0

    def merge(self, other: _Tally) -> None:
        self.shoes += other.shoes
        _add(self.rounds, other.rounds)
        _add(self.edge, other.edge)
        _add(self.ev_sum, other.ev_sum)
        _add(self.gain, other.gain)
        _add(self.realized, other.realized)


def _add(mine: dict[K, int], theirs: dict[K, int]) -> None:
    for k, n in theirs.items():
        mine[k] = mine.get(k, 0) + n


def _run_chunk(
    evaluator: BatchEvaluator, shoe: Shoe, seed: int, indices: Sequence[int], cut_card: int
) -> _Tally:
    import numpy as np

    tally = _Tally(shoes=len(indices))
    states: list[list[int]] = []
    codes: list[int] = []
    round_no: list[int] = []
    for i in indices:
        for k, (counts, code) in enumerate(play_shoe(shoe, evaluator.tableau, seed, i, cut_card)):
            states.append(counts)
            codes.append(code)
            round_no.append(k + 1)
    if not states:
        return tally
    arr = np.array(states, dtype=np.int64).reshape(-1, 13, 4)
    result = evaluator.evaluate(arr)
    numer = result.numerators
    for k in round_no:
        tally.rounds[k] = tally.rounds.get(k, 0) + 1
    for j in range(len(evaluator.bet_ids)):
        col = numer[:, j].tolist()
        for i, num in enumerate(col):
            k, n = round_no[i], result.sizes[i]
            tally.ev_sum[j, k, n] = tally.ev_sum.get((j, k, n), 0) + num
            if num > 0:
                tally.edge[j, k] = tally.edge.get((j, k), 0) + 1
                tally.gain[j, k, n] = tally.gain.get((j, k, n), 0) + num
                tally.realized[j, k] = tally.realized.get((j, k), 0) + evaluator.nets[codes[i]][j]
    return tally


_WORKER: dict[str, Any] = {}


def _init_worker(evaluator: BatchEvaluator, shoe: Shoe, seed: int, cut_card: int) -> None:
    _WORKER.update(evaluator=evaluator, shoe=shoe, seed=seed, cut_card=cut_card)


def _worker_chunk(indices: Sequence[int]) -> _Tally:
    w = _WORKER
    return _run_chunk(w["evaluator"], w["shoe"], w["seed"], indices, w["cut_card"])


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundFigures:
    """One round number of the shoe, for one bet.

    >>> r = RoundFigures(3, 10, 2, Fraction(-1, 20), Fraction(1, 50), Fraction(2))
    >>> r.round, r.edge_rounds / r.rounds  # EV > 0 in 2 of the 10 shoes that reached round 3
    (3, 0.2)
    """

    round: int
    rounds: int  # shoes that reached this round
    edge_rounds: int  # of which the bet had EV > 0
    mean_ev: Fraction  # mean exact EV at this round
    expected_gain: Fraction  # Σ EV over rounds with EV > 0
    realized_gain: Fraction  # Σ dealt results over rounds with EV > 0


@dataclass(frozen=True)
class BetExposure:
    """Computer-perfect play of one bet over a run, without and with its ``max_round``.

    >>> by_round = (RoundFigures(1, 10, 1, Fraction(-1, 20), Fraction(1, 100), Fraction(1)),
    ...             RoundFigures(2, 10, 3, Fraction(-1, 20), Fraction(3, 100), Fraction(-3)))
    >>> b = BetExposure("pair", "Pair", 1, by_round)  # offered on round 1 only
    >>> b.rounds, b.edge_rounds(), b.edge_rounds(limited=True)
    (20, 4, 1)
    >>> b.expected_gain(), b.expected_gain(limited=True), b.realized_gain()
    (Fraction(1, 25), Fraction(1, 100), Fraction(-2, 1))
    """

    bet_id: str
    name: str
    max_round: int | None
    by_round: tuple[RoundFigures, ...]

    def _sum(self, attr: str, limit: int | None) -> Any:
        rows = [r for r in self.by_round if limit is None or r.round <= limit]
        return sum((getattr(r, attr) for r in rows), Fraction(0) if "gain" in attr else 0)

    @property
    def rounds(self) -> int:
        """Rounds dealt in the run."""
        return int(self._sum("rounds", None))

    def edge_rounds(self, limited: bool = False) -> int:
        """Rounds on which the bet had EV > 0 (offered rounds only when ``limited``)."""
        return int(self._sum("edge_rounds", self.max_round if limited else None))

    def expected_gain(self, limited: bool = False) -> Fraction:
        """Σ of the positive EVs (one unit per favourable round), exact."""
        return Fraction(self._sum("expected_gain", self.max_round if limited else None))

    def realized_gain(self, limited: bool = False) -> Fraction:
        """Σ of the dealt results of the units staked."""
        return Fraction(self._sum("realized_gain", self.max_round if limited else None))


@dataclass(frozen=True)
class Simulation:
    """Result of :func:`simulate`.

    >>> rounds = (RoundFigures(1, 2, 0, Fraction(-1, 20), Fraction(0), Fraction(0)),)
    >>> Simulation(2, 7, 14, Shoe.decks(8), (BetExposure("tie", "Tie", None, rounds),)).rounds
    2
    """

    shoes: int
    seed: int
    cut_card: int
    shoe: Shoe
    bets: tuple[BetExposure, ...]

    @property
    def rounds(self) -> int:
        """Rounds dealt in the run."""
        return self.bets[0].rounds if self.bets else 0


def _finish(
    evaluator: BatchEvaluator, tally: _Tally, shoe: Shoe, seed: int, cut: int
) -> Simulation:
    out = []
    rounds = sorted(tally.rounds)
    for j, bet in enumerate(evaluator.bet_ids):
        scale = evaluator.scales[j]
        ev_sum: dict[int, Fraction] = {}
        gain: dict[int, Fraction] = {}
        for (jj, k, n), num in tally.ev_sum.items():
            if jj == j:
                ev_sum[k] = ev_sum.get(k, Fraction(0)) + Fraction(num, scale * perm(n, 6))
        for (jj, k, n), num in tally.gain.items():
            if jj == j:
                gain[k] = gain.get(k, Fraction(0)) + Fraction(num, scale * perm(n, 6))
        rows = tuple(
            RoundFigures(
                k,
                tally.rounds[k],
                tally.edge.get((j, k), 0),
                ev_sum.get(k, Fraction(0)) / tally.rounds[k],
                gain.get(k, Fraction(0)),
                Fraction(tally.realized.get((j, k), 0), scale),
            )
            for k in rounds
        )
        out.append(BetExposure(bet, evaluator.bet_names[j], evaluator.max_rounds[j], rows))
    return Simulation(tally.shoes, seed, cut, shoe, tuple(out))


def simulate(
    evaluator: BatchEvaluator,
    shoe: Shoe,
    *,
    shoes: int,
    seed: int,
    cut_card: int = 14,
    workers: int = 1,
    progress: Progress | None = None,
    chunk: int = 10,
) -> Simulation:
    """Deal ``shoes`` shoes and tally computer-perfect play of every compiled bet."""
    if shoes < 1:
        raise SimulationError(f"number of shoes must be at least 1, not {shoes!r}")
    if seed < 0:
        raise SimulationError(f"seed must be a non-negative integer, not {seed!r}")
    if not 0 <= cut_card < shoe.size:
        raise SimulationError(f"cut card position {cut_card!r} must be 0..{shoe.size - 1}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers!r}")
    check_limits(shoes, shoe, workers)
    chunks = [list(range(i, min(i + chunk, shoes))) for i in range(0, shoes, chunk)]
    workers = min(workers, len(chunks))  # a worker per chunk of shoes at most
    total = _Tally()
    done = 0
    for part in _chunks(
        evaluator=evaluator, shoe=shoe, seed=seed, cut_card=cut_card, workers=workers, chunks=chunks
    ):
        total.merge(part)
        done += part.shoes
        if progress is not None:
            progress(done, shoes)
    return _finish(evaluator, total, shoe, seed, cut_card)


def check_limits(shoes: int, shoe: Shoe, workers: int) -> None:
    """Refuse a run beyond the limits of :mod:`exactodds.limits` (shoes, shoe size, cards
    dealt, workers) before any work: :func:`simulate` calls it first.

    >>> check_limits(2, Shoe.decks(8), workers=10_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: 10,000 workers is more than the ... CPUs available
    """
    check_count(shoes, MAX_SHOES, "number of shoes", SimulationError)
    if shoe.size > MAX_SIMULATION_SHOE:
        raise SimulationError(
            f"a shoe of {shoe.size:,} cards is over the limit of {MAX_SIMULATION_SHOE:,} cards "
            f"({MAX_SIMULATION_SHOE // 52} decks) for a simulation"
        )
    check_count(
        shoes * shoe.size, MAX_SIMULATED_CARDS, "cards dealt (shoes × cards)", SimulationError
    )
    cpus = available_cpus()
    if workers > cpus:
        raise SimulationError(f"{workers:,} workers is more than the {cpus} CPUs available")


def _chunks(
    *,
    evaluator: BatchEvaluator,
    shoe: Shoe,
    seed: int,
    cut_card: int,
    workers: int,
    chunks: list[list[int]],
) -> Iterator[_Tally]:
    if workers == 1:
        for c in chunks:
            yield _run_chunk(evaluator, shoe, seed, c, cut_card)
        return
    with ProcessPoolExecutor(
        max_workers=workers,
        initializer=_init_worker,
        initargs=(evaluator, shoe, seed, cut_card),
    ) as pool:
        yield from pool.map(_worker_chunk, chunks)


# -- output -------------------------------------------------------------------------------------


def _per(x: Fraction, n: int, times: int = 1) -> Fraction:
    return x * times / n if n else Fraction(0)


def simulation_json(sim: Simulation, paytable: str = "") -> dict[str, Any]:
    """JSON-ready: exact figures as "p/q" strings, counts as integers."""
    bets = {}
    for b in sim.bets:
        entry: dict[str, Any] = {"name": b.name, "max_round": b.max_round}
        for label, limited in (("unlimited", False), ("with_max_round", True)):
            exp, real = b.expected_gain(limited), b.realized_gain(limited)
            entry[label] = {
                "edge_rounds": b.edge_rounds(limited),
                "expected_gain": str(exp),
                "expected_per_100_rounds": str(_per(exp, sim.rounds, 100)),
                "expected_per_shoe": str(_per(exp, sim.shoes)),
                "realized_gain": str(real),
                "realized_per_100_rounds": str(_per(real, sim.rounds, 100)),
                "realized_per_shoe": str(_per(real, sim.shoes)),
            }
        entry["edge_share"] = str(Fraction(b.edge_rounds(), b.rounds or 1))
        entry["by_round"] = [
            {
                "round": r.round,
                "rounds": r.rounds,
                "edge_rounds": r.edge_rounds,
                "mean_ev": str(r.mean_ev),
                "expected_gain": str(r.expected_gain),
                "realized_gain": str(r.realized_gain),
            }
            for r in b.by_round
        ]
        bets[b.bet_id] = entry
    return {
        "paytable": paytable,
        "shoe": sim.shoe.describe(),
        "shoes": sim.shoes,
        "seed": sim.seed,
        "cut_card": sim.cut_card,
        "rounds": sim.rounds,
        "bets": bets,
    }


def render_simulation(sim: Simulation, paytable: str = "", bucket: int = 10) -> str:
    """Markdown: per bet the share of favourable rounds and computer-perfect win rates."""
    from tabulate import tabulate

    def f(x: Fraction, digits: int = 3) -> str:
        return f"{float(x):+.{digits}f}"

    head = [
        f"# Shoe simulation — {paytable}" if paytable else "# Shoe simulation",
        "",
        f"{sim.shoes} shoes of {sim.shoe.describe()}, seed {sim.seed}, cut card "
        f"{sim.cut_card} cards from the end: {sim.rounds} rounds. A computer-perfect player "
        "bets one unit whenever the exact EV from the cards left is positive. Win rates in units "
        "(expected = Σ exact EVs; dealt = results of the rounds dealt).",
        "",
    ]
    rows = []
    for b in sim.bets:
        share = Fraction(b.edge_rounds(), b.rounds or 1)
        row = [b.name, f"{float(share) * 100:.2f}%"]
        for limited in (False, True):
            if limited and b.max_round is None:
                row += ["—", "—", "—"]
                continue
            exp = b.expected_gain(limited)
            row += [
                f(_per(exp, sim.rounds, 100), 4),
                f(_per(exp, sim.shoes)),
                f(_per(b.realized_gain(limited), sim.shoes)),
            ]
        row.append(str(b.max_round or "—"))
        rows.append(row)
    headers = [
        "Bet",
        "edge > 0",
        "exp./100 rds",
        "exp./shoe",
        "dealt/shoe",
        "exp./100 rds (max rd)",
        "exp./shoe (max rd)",
        "dealt/shoe (max rd)",
        "max rd",
    ]
    table = tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)
    # by round number, in buckets: share of favourable rounds (%)
    rounds = sorted({r.round for b in sim.bets for r in b.by_round})
    brows = []
    for lo in range(1, (max(rounds) if rounds else 0) + 1, bucket):
        hi = lo + bucket - 1
        cells = [f"{lo}–{hi}"]
        for b in sim.bets:
            sel = [r for r in b.by_round if lo <= r.round <= hi]
            n = sum(r.rounds for r in sel)
            e = sum(r.edge_rounds for r in sel)
            g = sum((r.expected_gain for r in sel), Fraction(0))
            cells.append(f"{100 * e / n:.1f}% {float(g * 100 / n):+.2f}" if n else "")
        brows.append(cells)
    by_round = tabulate(
        brows,
        headers=["Rounds", *(b.bet_id for b in sim.bets)],
        tablefmt="github",
        disable_numparse=True,
    )
    note = (
        "By round number: share of rounds with EV > 0, then the computer-perfect expected win "
        "per 100 rounds played at those round numbers."
    )
    return "\n".join([*head, table, "", "## By round number", "", note, "", by_round])


def stderr_progress(label: str = "simulate") -> Progress | None:
    """A one-line progress bar on stderr, or None when stderr is not a terminal.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()):
    ...     print(stderr_progress())
    None
    """
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done >= total else ""
        print(f"\r{label} [{bar}] {done}/{total} shoes", end=end, file=sys.stderr, flush=True)

    return show
