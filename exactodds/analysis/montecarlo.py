"""Monte Carlo check: deal many rounds and compare them with the exact figures.

Why: an independent, physical check of the exact combinatorics that a test lab can rerun. Every
round is dealt from a freshly shuffled shoe (six cards drawn without replacement, uniformly, as
with a continuous shuffler), by the tableau, with real ranks and suits. For every bet and every
distinct net result the observed count is compared with the exact probability (z-score and 99%
interval of the count), and the mean observed return with the exact EV (z-score with the exact
standard deviation). Counts and means are exact; z-scores and intervals are floats, for people.

Dealing is vectorised with numpy (seeded ``numpy.random.default_rng(seed)``), about a million
rounds a second.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from exactodds.analysis.batch import BetLike
from exactodds.analysis.dealing import deal_outcome_codes
from exactodds.bets.meters import figure_label
from exactodds.bets.paytable import Bet
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import (
    OUTCOME_CODES,
    Outcome,
)
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ExactOddsError
from exactodds.formats import Format
from exactodds.limits import MAX_MONTE_CARLO_ROUNDS, check_count

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "Z99",
    "BetCheck",
    "ClassCheck",
    "Dealt",
    "MonteCarloCheck",
    "bet_check",
    "check_options",
    "count_by",
    "deal_outcome_codes",
    "deal_outcome_counts",
    "deal_rounds",
    "monte_carlo_check",
    "render_monte_carlo_check",
]

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

Z99 = 2.5758293035489004
"""Two-sided 99% normal quantile."""


def deal_outcome_counts(
    shoe: Shoe,
    tableau: Tableau,
    rounds: int,
    seed: int,
    block: int = 1 << 18,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, int]:
    """Deal ``rounds`` rounds, each from a fresh shuffle of ``shoe``; count outcome codes
    (``progress(rounds done, rounds)`` after each block).

    Every dealt outcome is one the exact enumeration counts (a check of the dealing):

    >>> pb = BUILTIN["punto-banco"]
    >>> dealt = deal_outcome_counts(Shoe.decks(8), pb, 1000, seed=5)
    >>> exact = joint_distribution(Shoe.decks(8), pb).counts
    >>> sum(dealt.values()), all(exact.get(Outcome.from_code(c), 0) > 0 for c in dealt)
    (1000, True)
    """
    return deal_rounds(shoe, tableau, rounds, seed, block=block, progress=progress).outcomes


_CARD_BLOCK = 1 << 14
"""Rounds whose card-level bets are settled at once (the evaluator's arrays per feature)."""


@dataclass(frozen=True)
class Dealt:
    """What :func:`deal_rounds` saw: outcome code → rounds, and per physically settled bet
    the rounds that offered it and the rounds each of its rows settled."""

    outcomes: dict[int, int]
    offered: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]


def deal_rounds(
    shoe: Shoe,
    tableau: Tableau,
    rounds: int,
    seed: int,
    bets: Sequence[Bet] = (),
    *,
    block: int = 1 << 18,
    progress: Callable[[int, int], None] | None = None,
    observe: Callable[[IntArray, IntArray], None] | None = None,
) -> Dealt:
    """Deal ``rounds`` rounds, each from a fresh shuffle of ``shoe``: count their outcome
    codes, and settle ``bets`` (card-level or offered) on the cards as dealt
    (:func:`~exactodds.analysis.carddeal.dealt_rows`); ``progress(rounds done, rounds)``
    after each block; ``observe(cards, outcome codes)`` sees every block (live bets,
    :mod:`exactodds.analysis.montecarlo_live`). The same seed deals the same rounds whatever
    the bets.

    >>> from exactodds.bets.loader import load_paytable
    >>> colour = load_paytable("colour-match").bet("colour_match")
    >>> seen = deal_rounds(Shoe.decks(1), BUILTIN["punto-banco"], 500, 3, [colour])
    >>> seen.offered, sum(seen.rows[0]), sum(seen.outcomes.values())
    ((500,), 500, 500)
    """
    import numpy as np

    from exactodds.analysis.carddeal import dealt_rows

    check_count(rounds, MAX_MONTE_CARLO_ROUNDS, "number of rounds")
    rng = np.random.default_rng(seed)
    flat = np.array(shoe.counts, dtype=np.int64).reshape(-1)
    cards = np.repeat(np.arange(flat.size), flat)  # card code rank·4 + suit per physical card
    n = cards.size
    total = np.zeros(OUTCOME_CODES, dtype=np.int64)
    offered = [0] * len(bets)
    tallies = [np.zeros(len(b.rows), dtype=np.int64) for b in bets]
    done = 0
    while done < rounds:
        m = min(block, rounds - done)
        # six distinct positions, uniformly ordered: the j-th draw picks among the n − j cards
        # left, then skips the positions already taken (in increasing order)
        taken = np.empty((m, 0), dtype=np.int64)
        picks = []
        for j in range(6):
            idx = rng.integers(0, n - j, size=m)
            for col in range(j):
                idx += idx >= taken[:, col]
            picks.append(idx)
            taken = np.sort(np.column_stack([taken, idx]), axis=1)
        dealt = np.stack([cards[i] for i in picks])  # the j-th card of every round in row j
        codes = deal_outcome_codes(dealt, tableau)
        total += np.bincount(codes, minlength=OUTCOME_CODES)
        if observe is not None:
            observe(dealt, codes)
        for start in range(0, m if bets else 0, _CARD_BLOCK):
            rows = dealt_rows(bets, dealt[:, start : start + _CARD_BLOCK], tableau)
            for k, row in enumerate(rows):
                live = row[row >= 0]
                offered[k] += int(live.size)
                tallies[k] += np.bincount(live, minlength=len(bets[k].rows))
        done += m
        if progress is not None:
            progress(done, rounds)
    return Dealt(
        {int(i): int(total[i]) for i in np.flatnonzero(total)},
        tuple(offered),
        tuple(tuple(int(x) for x in t) for t in tallies),
    )


@dataclass(frozen=True)
class ClassCheck:
    """One net result of a bet: exact probability against the observed count.

    >>> c = ClassCheck(Fraction(8), Fraction(1, 10), observed=12, rounds=100)
    >>> c.expected, c.sd, round(c.z, 4)  # sd = √(100 · 0.1 · 0.9) = 3
    (Fraction(10, 1), 3.0, 0.6667)
    """

    net: Fraction
    probability: Fraction
    observed: int
    rounds: int

    @property
    def expected(self) -> Fraction:
        """Expected count."""
        return self.probability * self.rounds

    @property
    def sd(self) -> float:
        """Standard deviation of the count (binomial)."""
        return math.sqrt(self.rounds * self.probability * (1 - self.probability))

    @property
    def z(self) -> float:
        """(observed − expected) / sd; 0 when the class is certain or impossible."""
        sd = self.sd
        return float(self.observed - self.expected) / sd if sd else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """99% interval of the count."""
        e = float(self.expected)
        return e - Z99 * self.sd, e + Z99 * self.sd


@dataclass(frozen=True)
class BetCheck:
    """A bet: its classes and its mean return against the exact EV.

    A fair coin bet (±1, variance 1) observed at +0.1 over 100 rounds is one σ/√100 high:

    >>> b = BetCheck("coin", "Coin", Fraction(0), Fraction(1), Fraction(1, 10), 100, ())
    >>> round(b.z, 6), [round(x, 4) for x in b.interval]
    (1.0, [-0.2576, 0.2576])
    """

    bet_id: str
    name: str
    ev: Fraction
    variance: Fraction
    observed_return: Fraction  # Σ net over the dealt rounds / rounds
    rounds: int
    classes: tuple[ClassCheck, ...]

    @property
    def z(self) -> float:
        """(observed mean − EV) / (σ / √rounds)."""
        if not self.variance or not self.rounds:  # no round dealt offered the bet
            return 0.0
        return float(self.observed_return - self.ev) / math.sqrt(self.variance / self.rounds)

    @property
    def interval(self) -> tuple[float, float]:
        """99% interval of the mean return."""
        half = Z99 * math.sqrt(self.variance / max(1, self.rounds))
        return float(self.ev) - half, float(self.ev) + half

    @property
    def max_abs_z(self) -> float:
        """Largest |z| of the bet (return and classes)."""
        return max([abs(self.z), *(abs(c.z) for c in self.classes)])


def count_by(counts: Iterable[tuple[T, int]], classify: Callable[[T], K]) -> Counter[K]:
    """Counts added up by class: ``classify`` maps each item (an outcome, an outcome code, a
    feature record) to its class (a net result, a paytable row).

    >>> count_by([("a", 2), ("b", 3), ("c", 4)], lambda item: item != "b")
    Counter({True: 6, False: 3})
    """
    out: Counter[K] = Counter()
    for item, n in counts:
        out[classify(item)] += n
    return out


def bet_check(
    bet_id: str,
    name: str,
    classes: Sequence[tuple[Fraction, Fraction]],
    observed: Sequence[int],
    rounds: int,
) -> BetCheck:
    """The check of a bet whose every round falls in one of ``classes`` — (net result, exact
    probability) each — from the dealt rounds in each class: the exact EV and variance, the
    observed mean return, and a :class:`ClassCheck` per class.

    >>> half = Fraction(1, 2)
    >>> coin = bet_check("coin", "Coin", [(Fraction(1), half), (Fraction(-1), half)], [60, 40], 100)
    >>> coin.ev, coin.variance, coin.observed_return, [c.observed for c in coin.classes]
    (Fraction(0, 1), Fraction(1, 1), Fraction(1, 5), [60, 40])
    """
    ev = sum((p * net for net, p in classes), Fraction(0))
    variance = sum((p * net * net for net, p in classes), Fraction(0)) - ev * ev
    pairs = list(zip(classes, observed, strict=True))
    mean = sum((net * n for (net, _), n in pairs), Fraction(0)) / max(1, rounds)
    checks = tuple(ClassCheck(net, p, n, rounds) for (net, p), n in pairs)
    return BetCheck(bet_id, name, ev, variance, mean, rounds, checks)


@dataclass(frozen=True)
class MonteCarloCheck:
    """Result of :func:`monte_carlo_check`.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> tie = load_paytable(default_paytable()).bet("tie")
    >>> v = monte_carlo_check([tie], Shoe.decks(8), rounds=1000, seed=2)
    >>> v.checks, [c.net for c in v.bets[0].classes]  # the return and the two net results
    (3, [Fraction(8, 1), Fraction(-1, 1)])
    """

    shoe: Shoe
    rounds: int
    seed: int
    bets: tuple[BetCheck, ...]

    @property
    def outside_99(self) -> int:
        """How many z-scores fall outside the 99% interval (about 1% are expected to)."""
        return sum((abs(b.z) > Z99) + sum(abs(c.z) > Z99 for c in b.classes) for b in self.bets)

    @property
    def checks(self) -> int:
        """Number of z-scores."""
        return sum(1 + len(b.classes) for b in self.bets)

    def to_json(self, paytable: str = "") -> dict[str, Any]:
        """JSON-ready: exact figures as "p/q", counts as integers, z-scores as floats.

        >>> from exactodds.bets.loader import load_paytable
        >>> tie = load_paytable("classic").bet("tie")
        >>> data = monte_carlo_check([tie], Shoe.decks(8), rounds=500, seed=2).to_json("classic")
        >>> tie_data = data["bets"]["tie"]
        >>> data["rounds"], tie_data["ev"], tie_data["results"][0]["probability"]
        (500, '-103841353768/723147898655', '619306544887/6508331087895')
        """
        return {
            "paytable": paytable,
            "shoe": self.shoe.describe(),
            "rounds": self.rounds,
            "seed": self.seed,
            "checks": self.checks,
            "outside_99": self.outside_99,
            "bets": {
                b.bet_id: {
                    "name": b.name,
                    "ev": str(b.ev),
                    "observed_return": str(b.observed_return),
                    "z": round(b.z, 3),
                    "interval_99": [round(x, 6) for x in b.interval],
                    "results": [
                        {
                            "net": str(c.net),
                            "probability": str(c.probability),
                            "observed": c.observed,
                            "expected": str(c.expected),
                            "z": round(c.z, 3),
                            "interval_99": [round(x, 1) for x in c.interval],
                        }
                        for c in b.classes
                    ],
                }
                for b in self.bets
            },
        }


def check_options(rounds: int, seed: int) -> None:
    """Refuse fewer than one round, more than the limit, or a negative seed (one line).

    >>> check_options(1, -1)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: seed must be a non-negative integer, not -1
    """
    if rounds < 1:
        raise ExactOddsError(f"number of rounds must be at least 1, not {rounds!r}")
    check_count(rounds, MAX_MONTE_CARLO_ROUNDS, "number of rounds")
    if seed < 0:
        raise ExactOddsError(f"seed must be a non-negative integer, not {seed!r}")


def monte_carlo_check(
    bets: Sequence[BetLike],
    shoe: Shoe,
    tableau: Tableau | None = None,
    *,
    rounds: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> MonteCarloCheck:
    """Deal ``rounds`` rounds from fresh shoes and compare every bet with its exact figures
    (``progress(rounds done, rounds)`` as blocks of rounds are dealt).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> tie = load_paytable(default_paytable()).bet("tie")
    >>> check = monte_carlo_check([tie], Shoe.decks(8), rounds=1000, seed=2).bets[0]
    >>> f"{float(-check.ev):.4%}", sum(c.observed for c in check.classes)  # docs/rules.md §9
    ('14.3596%', 1000)
    >>> monte_carlo_check([tie], Shoe.decks(8), rounds=0, seed=2)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: number of rounds must be at least 1, not 0
    """
    check_options(rounds, seed)
    from exactodds.analysis.carddeal import physical

    tab = tableau if tableau is not None else BUILTIN["punto-banco"]
    joint = joint_distribution(shoe, tab)
    live = [b for b in bets if isinstance(b, Bet) and b.live]
    cards = [b for b in bets if isinstance(b, Bet) and physical(b) and b not in live]
    play = None
    if live:
        from exactodds.analysis.montecarlo_live import LivePlay
        from exactodds.figures.metrics import bet_figures

        figures = [bet_figures(joint, b) for b in live]
        play = LivePlay(live, [f.peek for f in figures], tab, seed)
    observe = None if play is None else play.observe
    dealt = deal_rounds(shoe, tab, rounds, seed, cards, progress=progress, observe=observe)
    dealt_outcomes = [(Outcome.from_code(code), n) for code, n in dealt.outcomes.items()]
    out = []
    for bet in bets:
        if play is not None and bet in live:
            k = live.index(bet)
            live_classes, observed = play.classes(k, figures[k])
            out.append(bet_check(bet.id, figure_label(bet), live_classes, observed, rounds))
            continue
        if isinstance(bet, Bet) and bet in cards:
            k = cards.index(bet)
            out.append(_physical_check(bet, joint, dealt.offered[k], dealt.rows[k]))
            continue
        net_of = {o: Fraction(bet.net(o)) for o, _ in joint}
        exact = count_by(joint, net_of.__getitem__)
        seen = count_by(dealt_outcomes, net_of.__getitem__)
        nets = sorted(exact.keys() | seen.keys(), reverse=True)
        classes = [(net, Fraction(exact[net], joint.total)) for net in nets]
        out.append(
            bet_check(bet.id, figure_label(bet), classes, [seen[net] for net in nets], rounds)
        )
    return MonteCarloCheck(shoe, rounds, seed, tuple(out))


def _physical_check(bet: Bet, joint: Joint, offered: int, rows: Sequence[int]) -> BetCheck:
    """The check of a card-level or offered bet: its rows' exact counts among the offered
    rounds (the card engine's, or the outcomes') against the dealt rounds each row settled,
    gathered by net result; ``offered`` dealt rounds offered it (its rounds)."""
    exact = bet.row_combinations(joint)
    universe = bet.offered(joint)
    by_net: dict[Fraction, list[int]] = {}
    for row, n, seen in zip(bet.rows, exact, rows, strict=True):
        pair = by_net.setdefault(bet.row_net(row), [0, 0])
        pair[0] += n
        pair[1] += seen
    nets = sorted(by_net, reverse=True)
    classes = [(net, Fraction(by_net[net][0], universe)) for net in nets]
    return bet_check(bet.id, figure_label(bet), classes, [by_net[net][1] for net in nets], offered)


def render_monte_carlo_check(v: MonteCarloCheck, paytable: str = "", fmt: str = "md") -> str:
    """Markdown (``md``): per bet, the return and each net result against the exact figures;
    or ``json``: :meth:`MonteCarloCheck.to_json`.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> tie = load_paytable(default_paytable()).bet("tie")
    >>> check = monte_carlo_check([tie], Shoe.decks(8), rounds=500, seed=2)
    >>> text = render_monte_carlo_check(check, "classic")
    >>> print(text)  # doctest: +ELLIPSIS
    # Monte Carlo verification — classic
    <BLANKLINE>
    500 rounds, each dealt from a freshly shuffled 8 decks (416 cards), seed 2. ...
    <BLANKLINE>
    | Bet   | Result   | Exact     | Observed   | 99% interval ...
    |:------|:---------|:----------|:-----------|...
    | Tie   | return   | -0.143596 | ...
    |       | net 8    | 0.095156  | ...
    |       | net -1   | 0.904844  | ...
    """
    fmt = Format.check(fmt, (Format.MD, Format.JSON))
    if fmt is Format.JSON:
        return json.dumps(v.to_json(paytable), indent=2)
    from exactodds.escape import md_cell
    from exactodds.tables import pipe_table

    rows = []
    for b in v.bets:
        lo, hi = b.interval
        rows.append(
            [md_cell(b.name), "return", f"{float(b.ev):+.6f}", f"{float(b.observed_return):+.6f}",
             f"[{lo:+.6f}, {hi:+.6f}]", f"{b.z:+.2f}"]
        )  # fmt: skip
        for c in b.classes:
            lo, hi = c.interval
            rows.append(
                ["", f"net {c.net}", f"{float(c.probability):.6f}", f"{c.observed}",
                 f"[{lo:.0f}, {hi:.0f}]", f"{c.z:+.2f}"]
            )  # fmt: skip
    table = pipe_table(rows, ["Bet", "Result", "Exact", "Observed", "99% interval", "z"])
    head = [
        f"# Monte Carlo verification — {paytable}" if paytable else "# Monte Carlo verification",
        "",
        f"{v.rounds:,} rounds, each dealt from a freshly shuffled {v.shoe.describe()}, seed "
        f"{v.seed}. Exact = probability of the net result (or EV for the return); observed = "
        f"count (or mean return). {v.outside_99} of {v.checks} z-scores are outside the 99% "
        "interval (about 1% expected by chance).",
        "",
    ]
    return "\n".join([*head, table])
