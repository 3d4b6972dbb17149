"""The work a request asks for, estimated before any work and refused over one CPU budget.

The limits of :mod:`exactodds.limits` bound each input alone; a paytable within all of them can
still ask for far more work than another. So each command (and each library entry point, with
the same ``budget=``) first estimates the CPU seconds of one core it takes and refuses in one
line what is over the budget: :data:`~exactodds.limits.CPU_BUDGET` (30 s), ``--budget SECONDS``
or ``EXACTODDS_BUDGET`` (:func:`budget_seconds`, :func:`spending`, :func:`check_seconds`):

- card-level bets are counted by the card engine, whose seconds a probe measures on a sample of
  each count's blocks (:func:`bet_seconds`, :mod:`exactodds.counting.probe`): every command
  that counts them checks the sum, times the shoes it counts them on (:func:`check_card_work`,
  :func:`check_removal_work`), with what makes the costliest bet costly
  (:mod:`exactodds.bets.costly`);
- ``simulate`` deals its shoes (:func:`simulation_seconds`), plays its streak bets
  (:func:`streak_seconds`) and asks the card engine for an EV per card-level bet and round
  (:func:`check_card_rounds`): their sum is checked; a counter's EVs as it spends them
  (:class:`CardSpend`); a sheet's one-shoe model of its streak bets (:func:`check_streak_play`)
  and a Monte Carlo check's settling of card-level bets (:func:`check_dealt_cards`) likewise;
- some budgets stay in their own units, as they bound memory or an outside tool: the CRT moduli
  of exact EVs (bets × moduli, bets × moduli²: :func:`check_evaluation`), ``compare``'s
  variants × rows and formulas (:func:`check_compare`), a PDF's rows and digits
  (:func:`check_pdf`).

Each ``check_*`` raises :class:`BudgetError` (exit 2 from the CLI) saying how long the request
would take and the option that allows it; ``benchmarks/budget.py`` prints the estimates against
the CPU measured on a calibration set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import Token
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, lcm, perm

from exactodds.bets.multipliers import DEALING_ORDER_REVEALS
from exactodds.bets.paytable import Bet
from exactodds.cpus import BUDGET_IN_FORCE
from exactodds.deal.shoe import MIN_CARDS, Card, Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ExactOddsError, quote
from exactodds.limits import (
    CPU_BUDGET,
    MAX_COMPARE_WORK,
    MAX_CPU_BUDGET,
    MAX_DIGITS,
    MAX_EVALUATION_MODULI,
    MAX_EVALUATION_WORK,
    MAX_FORMULA_DIGITS,
    MAX_FORMULA_WORK,
    MAX_PDF_DIGITS,
    MAX_PDF_ROWS,
)

Known = dict[str, frozenset[tuple[int, int]]]
"""Cards known at positions (``P1`` … ``B3``), as the card engine takes them."""

__all__ = [
    "BUDGET_VARIABLE",
    "CARD_OPS_PER_SECOND",
    "BudgetError",
    "CardSpend",
    "Evaluation",
    "bet_denominator",
    "bet_seconds",
    "bet_work",
    "budget_seconds",
    "card_round_work",
    "card_work",
    "card_work_over",
    "check_budget",
    "check_card_rounds",
    "check_card_work",
    "check_compare",
    "check_dealt_cards",
    "check_evaluation",
    "check_pdf",
    "check_removal_work",
    "check_seconds",
    "check_simulation",
    "check_streak_play",
    "dealing_shoes",
    "dealt_card_work",
    "dealt_shoe",
    "estimate_evaluation",
    "expected_rounds",
    "live_count_seconds",
    "live_seconds",
    "parse_budget",
    "removal_shoes",
    "reset_budget",
    "seconds_text",
    "set_budget",
    "spending",
    "streak_seconds",
    "uses_rank_grid",
]

_PRIME_BITS = 24
"""Bits each prime modulus adds, at least: primes are 2³² − c, or (63 − bits(terms)) / 2 bits
when the weights are large, as with wide denominators (at least 24 bits for fewer than 2¹⁵
terms a group): the estimate errs towards more moduli."""


_FORMULA_GROUP_ROWS = 2_000
"""The fixed cost of a formula group (nine enumerations and sympy's interpolation) in rows
settled: measured with ``benchmarks/limits.py`` (about 0.6 s, as 2,000 rows)."""


_RECOMBINATION = 4
"""Cost of a round whose exact EVs need several moduli, per modulus, in word-only rounds
(``benchmarks/limits.py``: 413 shoes at 242 moduli took 55 s of CPU)."""


class BudgetError(ExactOddsError):
    """The inputs ask for more work than the command's budget allows."""


BUDGET_VARIABLE = "EXACTODDS_BUDGET"
"""The environment variable holding the CPU budget in seconds (``--budget`` overrides it)."""

_BUDGET = BUDGET_IN_FORCE


def parse_budget(text: str, what: str = "--budget") -> float:
    """A CPU budget in seconds from text (``30``, ``120.5``), one clear error otherwise.

    >>> parse_budget("90"), parse_budget("0.5")
    (90.0, 0.5)
    >>> parse_budget("soon", "EXACTODDS_BUDGET")
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: EXACTODDS_BUDGET 'soon' is not a number of seconds above 0
    """
    cleaned = text.strip()
    ok = 0 < len(cleaned) <= MAX_DIGITS and all(c in "0123456789." for c in cleaned)
    value = float(cleaned) if ok and cleaned.count(".") <= 1 and cleaned != "." else 0.0
    if not value > 0:
        raise BudgetError(f"{what} {quote(text, 40)} is not a number of seconds above 0")
    return check_budget(value, what)


def check_budget(value: float, what: str = "--budget") -> float:
    """``value``, a budget in seconds, if it is above 0 and at most
    :data:`~exactodds.limits.MAX_CPU_BUDGET`; else one clear error."""
    if not 0 < value <= MAX_CPU_BUDGET:
        raise BudgetError(
            f"{what} {value:g} is not a number of seconds above 0 and at most {MAX_CPU_BUDGET:,}"
        )
    return float(value)


def budget_seconds(budget: float | None = None) -> float:
    """The CPU budget in seconds: ``budget`` if given, else the one in force
    (:func:`spending`), else ``EXACTODDS_BUDGET``, else :data:`~exactodds.limits.CPU_BUDGET`.

    >>> budget_seconds(), budget_seconds(5)
    (30.0, 5.0)
    """
    if budget is not None:
        return check_budget(budget)
    current = _BUDGET.get()
    if current is not None:
        return current
    text = os.environ.get(BUDGET_VARIABLE, "")
    return parse_budget(text, BUDGET_VARIABLE) if text else float(CPU_BUDGET)


@contextmanager
def spending(budget: float | None) -> Iterator[float]:
    """Run the block under the CPU budget ``budget`` (seconds; None: the one in force): what
    the library entry points do with their ``budget=`` parameter, and the CLI's ``--budget``.

    >>> with spending(2):
    ...     budget_seconds()
    2.0
    """
    seconds = budget_seconds(budget)
    token = _BUDGET.set(seconds)
    try:
        yield seconds
    finally:
        _BUDGET.reset(token)


def set_budget(budget: float | None) -> float:
    """Put ``budget`` (seconds; None: ``EXACTODDS_BUDGET``'s or the default) in force for the
    rest of the current context (a command's ``--budget``; the CLI resets it after each
    command): the budget, checked."""
    seconds = budget_seconds(budget)
    _BUDGET.set(seconds)
    return seconds


def reset_budget() -> Token[float | None]:
    """Forget the budget in force (a new command starts from ``EXACTODDS_BUDGET``); the token
    restores it (``_BUDGET.reset``)."""
    return _BUDGET.set(None)


def seconds_text(seconds: float) -> str:
    """Seconds as a refusal says them: ``41 s``, ``0.4 s``, ``2.1 h``.

    >>> seconds_text(41.2), seconds_text(0.42), seconds_text(7560), seconds_text(3e7)
    ('41 s', '0.42 s', '2.1 h', '347 days')
    """
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        return f"{seconds:,.0f} s"
    if seconds < 86400 * 3:
        return f"{seconds / 3600:.2g} h"
    return f"{seconds / 86400:,.0f} days"


def check_seconds(
    seconds: float, what: str, budget: float | None = None, *, hint: str = "", why: str = ""
) -> None:
    """Refuse work estimated at ``seconds`` of CPU over the budget in force (or ``budget``):
    the one refusal line, naming ``what`` would take how long, the budget and the option that
    allows it (``EXACTODDS_BUDGET`` does too: the docs say so, the line stays short), ``why``
    it costs so much (in the middle: the part a long line loses first) and ``hint``, what
    fits, at the end.

    >>> check_seconds(10, "counting bet 'x'")
    >>> check_seconds(41.2, "counting bet 'x'")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: counting bet 'x' would take about 41 s of CPU, over the
    budget of 30 s (--budget 50 allows it)
    >>> check_seconds(3e7, "counting bet 'x'")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: counting bet 'x' would take about 347 days of CPU, over the
    budget of 30 s (beyond the largest --budget, 1,000,000)
    """
    allowed = budget_seconds(budget)
    if seconds <= allowed:
        return
    needed = _round_up(seconds * 1.2)
    allows = (
        f"--budget {needed} allows it"
        if seconds <= MAX_CPU_BUDGET
        else f"beyond the largest --budget, {MAX_CPU_BUDGET:,}"
    )
    extra = f"; {hint}" if hint else ""
    because = f" ({why})" if why else ""
    raise BudgetError(
        f"{what}{because} would take about {seconds_text(seconds)} of CPU, over the budget of "
        f"{allowed:g} s ({allows}){extra}"
    )


def _round_up(seconds: float) -> int:
    """``seconds`` rounded up to two significant digits (a budget to suggest)."""
    whole = max(1, ceil(seconds))
    step = 10 ** max(0, len(str(whole)) - 2)
    return int(min(MAX_CPU_BUDGET, -(-whole // step) * step))


def bet_denominator(bet: Bet) -> int:
    """The common denominator of a bet's net payouts (their least common multiple).

    >>> from exactodds.bets.loader import load_paytable
    >>> bet_denominator(load_paytable("classic").bet("banker"))  # 0.95:1
    20
    """
    return lcm(*(bet.row_net(row).denominator for row in bet.rows))


def _digits(n: int) -> int:
    """Decimal digits of a positive integer (from its bits: no conversion)."""
    return max(1, (n.bit_length() * 30103) // 100000 + 1)


@dataclass(frozen=True)
class Evaluation:
    """What exact EVs of ``bets`` on a shoe of ``cards`` cards cost: the widest bet's common
    denominator (digits), the moduli of each EV, and bets × moduli (memory) and bets × moduli²
    (recombination time)."""

    bets: int
    digits: int
    moduli: int

    @property
    def size(self) -> int:
        """Bets × moduli: residues held per state (memory)."""
        return self.bets * self.moduli

    @property
    def work(self) -> int:
        """Bets × moduli²: the recombination of each EV from its residues (time)."""
        return self.bets * self.moduli**2


def estimate_evaluation(bets: Sequence[Bet], cards: int) -> Evaluation:
    """The moduli an exact EV of ``bets`` needs on a shoe of ``cards`` cards: its numerators are
    bounded by the largest |net| × common denominator × the (cards)₆ six-card sequences.

    >>> from exactodds.bets.loader import load_paytable
    >>> estimate_evaluation(load_paytable("classic").bets, 416)
    Evaluation(bets=14, digits=2, moduli=1)
    """
    widest = 1
    digits = 1
    for bet in bets:
        scale = bet_denominator(bet)
        digits = max(digits, _digits(scale))
        top = max((abs(bet.row_net(row)) for row in bet.rows), default=0)
        widest = max(widest, int(top * scale) + 1)
    bits = (2 * widest * perm(max(cards, 6), 6)).bit_length() + 1
    moduli = 1 + max(0, -(-(bits - 64) // _PRIME_BITS))
    return Evaluation(len(bets), digits, moduli)


def check_evaluation(bets: Sequence[Bet], cards: int) -> Evaluation:
    """Refuse exact EVs (``eor``, ``simulate``) whose moduli would take more than the budget
    of memory (:data:`~exactodds.limits.MAX_EVALUATION_MODULI`) or time
    (:data:`~exactodds.limits.MAX_EVALUATION_WORK`).

    >>> from exactodds.bets.loader import load_paytable
    >>> check_evaluation(load_paytable("classic").bets, 416).moduli
    1
    """
    e = estimate_evaluation(bets, cards)
    why = (
        f"{e.bets:,} bets whose common denominators have up to {e.digits:,} digits "
        f"need {e.moduli:,} moduli per exact EV"
    )
    if e.size > MAX_EVALUATION_MODULI:
        raise BudgetError(
            f"{why}: bets × moduli = {e.size:,} is over the budget of "
            f"{MAX_EVALUATION_MODULI:,} (MAX_EVALUATION_MODULI; fewer bets or simpler payouts)"
        )
    if e.work > MAX_EVALUATION_WORK:
        raise BudgetError(
            f"{why}: bets × moduli² = {e.work:,} is over the budget of "
            f"{MAX_EVALUATION_WORK:,} (MAX_EVALUATION_WORK; fewer bets or simpler payouts)"
        )
    return e


DEAL_CARD_NS = 1_000
"""CPU nanoseconds of ``simulate`` per card dealt, besides its bets (shuffling, drawing, the
count): ``simulate banker-streak`` and ``simulate classic``, 2,800 eight-deck shoes each."""

DEAL_BET_CARD_NS = 80
"""CPU nanoseconds per card dealt and value-level bet (its exact EV and settling, word-only),
measured as :data:`DEAL_CARD_NS` (classic's 14 bets: 0.9 ms an eight-deck shoe)."""


def simulation_seconds(bets: Sequence[Bet], cards: int, shoes: int) -> float:
    """CPU seconds of dealing ``shoes`` shoes of ``cards`` cards with the value-level ``bets``
    (their EVs, where each needs several moduli, cost 4 × moduli word-only EVs: 413 eight-deck
    shoes of four bets at 242 moduli took 55 s).

    >>> from exactodds.bets.loader import load_paytable
    >>> round(simulation_seconds(load_paytable("classic").bets, 416, 100_000))
    88
    """
    e = estimate_evaluation(bets, cards)
    cost = _RECOMBINATION * e.moduli if e.moduli > 1 else 1
    return shoes * cards * (DEAL_CARD_NS + DEAL_BET_CARD_NS * len(bets) * cost) / 1e9


def check_simulation(
    bets: Sequence[Bet],
    cards: int,
    shoes: int,
    *,
    streaks: int = 0,
    cut_card: int = 14,
    budget: float | None = None,
    cluster: bool = False,
) -> float:
    """Refuse a simulation whose dealing (:func:`simulation_seconds`) and play of ``streaks``
    streak bets (:func:`streak_seconds`) would take longer than the CPU budget, or whose exact
    EVs need too many moduli (:func:`check_evaluation`); else their seconds (on a ``cluster``
    of one's own the seconds are the cluster's: never refused here, 0 returned).

    >>> from exactodds.bets.loader import load_paytable
    >>> round(check_simulation(load_paytable("classic").bets, 416, 30_000))
    26
    """
    check_evaluation(bets, cards)
    rounds = expected_rounds(shoes, cards, cut_card)
    seconds = simulation_seconds(bets, cards, shoes) + streak_seconds(streaks, rounds)
    if cluster:
        return 0.0
    most = int(shoes * budget_seconds(budget) / seconds) if seconds else shoes
    valued = f" with {len(bets):,} value-level bets" if bets else ""  # card-level: their own
    also = f" and playing {streaks:,} streak bets" if streaks else ""
    check_seconds(
        seconds,
        f"dealing {shoes:,} shoes of {cards:,} cards{valued}{also}",
        budget,
        hint=f"at most {most:,} shoes fit",
    )
    return seconds


STREAK_ROUND_NS = 2_500
"""CPU nanoseconds of one streak bet played over one dealt round by ``simulate`` (round by
round in Python: ``benchmarks/budget.py``)."""

SHEET_STREAK_ROUND_NS = 5_000
"""The same for a sheet's one-shoe model of its streak bets (it deals the rounds too)."""


def streak_seconds(streaks: int, rounds: int, *, sheet: bool = False) -> float:
    """CPU seconds of playing ``streaks`` streak bets over ``rounds`` dealt rounds (``sheet``:
    a sheet's one-shoe model, which deals its rounds too).

    >>> streak_seconds(2, expected_rounds(100_000, 416, 14))
    41.0
    """
    per = SHEET_STREAK_ROUND_NS if sheet else STREAK_ROUND_NS
    return streaks * rounds * per / 1e9


def check_streak_play(
    streaks: int, rounds: int, *, sheet: bool = False, budget: float | None = None
) -> None:
    """Refuse playing ``streaks`` streak bets over ``rounds`` dealt rounds when that would
    take longer than the CPU budget (:func:`streak_seconds`; ``sheet``: a sheet's model).

    >>> check_streak_play(2, expected_rounds(50_000, 416, 14))
    >>> check_streak_play(1, expected_rounds(2000, 1000 * 52, 14), sheet=True)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: playing 1 streak bet over 21,048,000 rounds would take ...
    """
    bets = "streak bet" if streaks == 1 else "streak bets"
    check_seconds(
        streak_seconds(streaks, rounds, sheet=sheet),
        f"playing {streaks:,} {bets} over {rounds:,} rounds",
        budget,
        hint=f"fewer {'streak bets or decks' if sheet else 'streak bets, shoes or decks'}",
    )


def card_rounds(shoes: int, cards: int, cut_card: int) -> int:
    """Most rounds ``shoes`` shoes of ``cards`` cards deal before the cut card: a round takes
    at least 4 cards (an upper bound; the burn is ignored).

    >>> card_rounds(10, 52, 14)
    100
    """
    return shoes * max(0, -(-(cards - cut_card) // 4))


def expected_rounds(shoes: int, cards: int, cut_card: int) -> int:
    """Rounds ``shoes`` shoes of ``cards`` cards deal before the cut card, as expected: a round
    takes :data:`CARDS_PER_ROUND` cards on average (what a simulation's work grows with).

    >>> expected_rounds(10, 52, 14), card_rounds(10, 52, 14)
    (80, 100)
    """
    return shoes * max(0, int(-(-(cards - cut_card) // CARDS_PER_ROUND)))


CARD_OPS_PER_SECOND = 5 * 10**8
"""Cell operations of the card engine one core does in a second, at least: the slowest rate
measured against its estimate, by ``benchmarks/cardround.py`` for the bundled bets on a dealt
shoe (Colour Match 6.1·10⁸; the others 1.1·10⁹ to 5.5·10⁹, where the engine settles rounds
early) and by ``benchmarks/cards.py`` (a colour bet on the player's hand, 5·10⁸)."""

_CARD_SETTLE_WORK = 10_000
"""The work of reading one dealt round for one card-level bet (its offer, its row), in cell
operations: about 0.1 ms."""

_EV_FIXED_WORK = 1_000_000
"""The fixed cost of one exact EV by the card engine (planning the count, its prefixes and
suit symmetries), in cell operations: about 2 ms (``simulate lucky-nines --decks 1``: 300
one-deck shoes took 5.7 s, 2.4 ms a round, though each count's blocks cost almost nothing)."""

_OFFER_PROBE_WORK = 10**8
"""Most card-engine work spent, over all bets, on the probability of their offers (about
1 s); beyond it an offer is taken to hold on every round (an upper bound)."""


def card_round_work(
    bets: Sequence[Bet],
    shoe: Shoe,
    tableau: Tableau = BUILTIN["punto-banco"],
    cut_card: int = 14,
) -> list[tuple[Fraction, int]]:
    """Per card-level or offered bet: the share of rounds that offer it (1 without an offer;
    exact on the full shoe when cheap, else 1) and the engine's estimated work of one exact EV
    (:func:`bet_work`, cell operations), the mean over the shoe as it is dealt
    down to the cut card (:func:`dealing_shoes`: a small shoe's EVs get much cheaper as it
    empties), without enumerating the rounds.

    >>> from exactodds.bets.loader import load_paytable
    >>> insurance = load_paytable("insurance")
    >>> share, work = card_round_work(insurance.bets[:1], insurance.shoe)[0]
    >>> f"{float(share):.4%}", work > 0  # Player 0 v Banker 5 after the first four cards
    ('1.3997%', True)
    """
    from exactodds.counting import row_counts, work
    from exactodds.language import OTHERWISE

    out: list[tuple[Fraction, int]] = []
    probes = 0
    dealt = dealing_shoes(shoe, cut_card)
    for bet in bets:
        share = Fraction(1)
        if bet.offer is not None:
            probe = work([OTHERWISE], shoe, tableau, offer=bet.offer)
            if probes + probe <= _OFFER_PROBE_WORK:
                probes += probe
                counts = row_counts([OTHERWISE], shoe, tableau, offer=bet.offer)
                share = Fraction(counts.offered, counts.universe)
        # An EV before a round costs about what the probe measures for a count on that shoe
        # (``simulate perfect-9 --decks 8 --shoes 1``: 67 s of CPU, 74 s estimated).
        mean = sum(bet_work(bet, s, tableau) for s in dealt) // len(dealt) + _EV_FIXED_WORK
        out.append((share, mean))
    return out


_DEPTHS = 4
"""Shoes at which :func:`dealing_shoes` samples a shoe as it is dealt."""

CARDS_PER_ROUND = Fraction(494, 100)
"""Cards a round deals on average (4 to 6: about 4.94 from eight decks of Punto Banco)."""


def dealing_shoes(shoe: Shoe, cut_card: int = 14) -> list[Shoe]:
    """``shoe`` as a simulation finds it before its rounds: :data:`_DEPTHS` shoes, dealt
    evenly down to the cut card (the middle of each quarter), cards gone in a fixed
    pseudo-random order (:func:`dealt_shoe` where fewer would go: a full shoe's suit
    symmetry is gone once a few cards are dealt).

    >>> [s.size for s in dealing_shoes(Shoe.decks(1))]
    [46, 38, 29, 19]
    >>> [s.size for s in dealing_shoes(Shoe.decks(8))]
    [366, 266, 165, 65]
    """
    import random

    cards = [
        Card(r, u) for r, row in enumerate(shoe.counts) for u, n in enumerate(row) for _ in range(n)
    ]
    order = random.Random(0).sample(cards, len(cards))
    dealable = max(0, shoe.size - max(cut_card, MIN_CARDS))
    out = []
    for i in range(_DEPTHS):
        gone = dealable * (2 * i + 1) // (2 * _DEPTHS)
        out.append(shoe.remove(order[:gone]) if gone >= MIN_CARDS else dealt_shoe(shoe))
    return out


def dealt_shoe(shoe: Shoe) -> Shoe:
    """``shoe`` as a simulation deals from it: a few cards gone, one, two and three of the
    second, third and fourth suits, so that no suit permutation keeps it (the card engine's
    suit symmetry, which a full shoe has, is gone once cards are dealt). Its estimate is what
    an EV during the shoe costs; a shoe too small to lose them is kept as it is.

    >>> dealt_shoe(Shoe.decks(1)).size, dealt_shoe(Shoe.decks(1).remove("2c 3c 4c")).size
    (46, 43)
    """
    gone: list[Card] = []
    for suit, n in ((1, 1), (2, 2), (3, 3)):
        ranks = [r for r in range(len(shoe.counts)) if shoe.counts[r][suit]][:n]
        gone += [Card(r, suit) for r in ranks]
    return shoe.remove(gone) if shoe.size - len(gone) >= MIN_CARDS else shoe


def check_card_rounds(
    bets: Sequence[Bet],
    shoe: Shoe,
    tableau: Tableau,
    shoes: int,
    cut_card: int,
    *,
    counting: bool = False,
    budget: float | None = None,
    extra: float = 0.0,
) -> None:
    """Refuse a simulation whose card-level or offered ``bets`` would keep the card engine
    busy longer than the CPU budget (:func:`budget_seconds`, less ``extra`` seconds the run
    spends besides: dealing, streak play): per bet, the rounds
    (:func:`card_rounds`; for an offer, times the share of rounds that offer it) × the
    estimated work of one EV (:func:`card_round_work`, on a dealt shoe), plus the reading of
    every dealt round. A counter (``counting``) asks for the EVs of the rounds it bets only,
    unknown up front: only the reading is checked here, its EVs as the run spends them
    (:class:`CardSpend`).

    >>> from exactodds.bets.loader import load_paytable
    >>> colour = load_paytable("colour-match")
    >>> check_card_rounds(colour.bets, colour.shoe, colour.tableau, 5, 14)
    >>> check_card_rounds(colour.bets, colour.shoe, colour.tableau, 10_000, 14)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: the exact EVs of 1 card-level or offered bet over 820,000 ...
    """
    if not bets:
        return
    rounds = expected_rounds(shoes, shoe.size, cut_card)
    per_round = Fraction(0)
    costliest = (Fraction(-1), "")
    works = (
        [(Fraction(0), 0)] * len(bets)
        if counting
        else card_round_work(bets, shoe, tableau, cut_card)
    )
    for bet, (share, ev) in zip(bets, works, strict=True):
        cost = share * ev + _CARD_SETTLE_WORK
        per_round += cost
        costliest = max(costliest, (cost, bet.id))
    total = rounds * per_round
    seconds = float(total) / CARD_OPS_PER_SECOND + extra
    # A shoe's EVs and its share of ``extra`` (dealing and streak play grow with the shoes too).
    per_shoe = max(1, expected_rounds(1, shoe.size, cut_card)) * per_round
    per_shoe += Fraction(extra) * CARD_OPS_PER_SECOND / max(1, shoes)
    most = int(Fraction(budget_seconds(budget)) * CARD_OPS_PER_SECOND // per_shoe)
    hint = f"at most {most:,} shoes fit" if most else "not one shoe fits: fewer decks or bets"
    plural = "s" if len(bets) != 1 else ""
    check_seconds(
        seconds,
        f"the exact EVs of {len(bets):,} card-level or offered bet{plural} over {rounds:,} "
        f"rounds (the costliest {costliest[1]!r})",
        budget,
        hint=hint,
    )


@dataclass(frozen=True)
class CardSpend:
    """The card engine's budget of a counter's run, spent as it goes: each exact EV costs its
    bet's estimate (:func:`card_round_work`, on a dealt shoe); the run stops with one line
    once the work spent is over ``budget`` (cell operations: the CPU budget × the engine's rate,
    :data:`CARD_OPS_PER_SECOND`).

    >>> spend = CardSpend(("nines",), (10**9,), 15 * 10**9)
    >>> spend.check(14 * 10**9, 3, 10), spend.check(16 * 10**9, 10, 10)  # within; done
    (None, None)
    >>> spend.check(16 * 10**9, 3, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: a counter's exact EVs of the card-level bets took about \
32 s of CPU after 3 of 10 shoes, over the budget of 30 s: ...
    """

    bet_ids: tuple[str, ...]
    costs: tuple[int, ...]  # estimated work of one EV per bet
    budget: int = CPU_BUDGET * CARD_OPS_PER_SECOND

    @classmethod
    def of(
        cls, bets: Sequence[Bet], shoe: Shoe, tableau: Tableau, budget: int | None = None
    ) -> CardSpend:
        """The estimates of ``bets`` on ``shoe``, within ``budget`` (cell operations; None:
        the CPU budget in force)."""
        costs = tuple(ev for _, ev in card_round_work(bets, shoe, tableau))
        if budget is None:
            budget = int(budget_seconds() * CARD_OPS_PER_SECOND)
        return cls(tuple(b.id for b in bets), costs, budget)

    def check(self, spent: int, shoes_done: int, shoes: int) -> None:
        """Stop the run (:class:`BudgetError`) when ``spent`` is over the budget and shoes are
        left to deal (work done is not thrown away: the last shoe may end beyond it)."""
        if spent <= self.budget or shoes_done >= shoes:
            return
        seconds = self.budget / CARD_OPS_PER_SECOND
        raise BudgetError(
            f"a counter's exact EVs of the card-level bets took about "
            f"{seconds_text(spent / CARD_OPS_PER_SECOND)} of CPU after {shoes_done:,} of "
            f"{shoes:,} shoes, over the budget of {seconds:g} s: fewer shoes, fewer decks or a "
            f"higher --trigger (--budget or {BUDGET_VARIABLE} allows more)"
        )


COUNT_SECONDS = 0.025
"""CPU seconds of one count by the card engine besides its blocks (planning it, its classes,
prefixes and suit symmetries on a new shoe): ``eor lucky-nines --decks 1``, 53 counts whose
blocks cost almost nothing, took 1.35 s besides the command's fixed cost."""

EXAMPLE_ROW_SECONDS = 0.06
"""CPU seconds of a sheet's worked example of one card-level row (``benchmarks/budget.py``:
0.03 s a row for Lucky Nines and the Jackpot bet, 0.12 s for 200 small bets of two rows, 48 s
on their examples against 2 s counting): 0.06 keeps both within ×2."""


MULTIPLIED_SECONDS = 0.15
"""CPU seconds of counting one more multiplied bet by rank on a shoe (:mod:`exactodds.counting.
ranks`: the same 13⁶ cells whatever the shoe, their grid built once a shoe, which
:data:`RANK_GRID_SECONDS` adds): 60 bets of two rows took 8 s with their sheet, Lightning's five
bets 0.3–1.0 s each (``benchmarks/live.py``)."""

RANK_GRID_SECONDS = 0.5
"""CPU seconds of the first bet counted by rank on a shoe: the grid of ranks and weights."""

PEEK_RULE_SECONDS = 0.1
"""CPU seconds of one reveal rule of a peek bet whose rows read values (its cells counted by
value, the rest in closed form): Peek's Player and Banker, four rules each, 0.35–0.38 s."""

PEEK_RANK_RULE_SECONDS = 0.25
"""The same for a bet whose rows read ranks, counted on the rank grid: a Player Pair with four
rules, 1.35 s with the grid (``benchmarks/peek.py``)."""


def live_count_seconds(bet: Bet) -> float:
    """The CPU seconds of counting a bet with multipliers or a peek (0 for any other bet): a
    multiplied bet, or a peek's distinct reveal rules, its own and the four its sheet shows,
    besides the rank grid (:func:`uses_rank_grid`).

    >>> from exactodds.bets.loader import load_paytable
    >>> [live_count_seconds(b) for b in load_paytable("lightning").bets][:2]
    [0.15, 0.15]
    >>> [live_count_seconds(b) for b in load_paytable("peek").bets][:3]
    [0.4, 0.4, 0.0]
    """
    if any(row.multiply is not None for row in bet.rows):
        return MULTIPLIED_SECONDS
    if bet.peek is not None:
        rules = {positions for positions, _ in bet.peek.reveals} | set(DEALING_ORDER_REVEALS)
        return (PEEK_RANK_RULE_SECONDS if bet.reads_ranks else PEEK_RULE_SECONDS) * len(rules)
    return 0.0


def uses_rank_grid(bet: Bet) -> bool:
    """Whether counting the bet builds the rank grid (:mod:`exactodds.counting.ranks`): a
    multiplied bet, or a peek keyed by ranks."""
    multiplied = any(row.multiply is not None for row in bet.rows)
    return multiplied or (bet.peek is not None and bet.reads_ranks)


def card_work(
    bets: Sequence[Bet],
    shoe: Shoe,
    tableau: Tableau,
    known: Known | None = None,
    *,
    examples: bool = False,
) -> dict[str, float]:
    """The card engine's CPU seconds (:func:`bet_seconds`, one core) for each card-level bet
    of ``bets`` on ``shoe``, by bet id, and the counting by rank of each multiplied or peek bet
    (:func:`live_count_seconds`); value-level bets cost it nothing and are left out.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.tableau import BUILTIN
    >>> table = load_paytable("jackpot-baccarat")
    >>> list(card_work(table.bets, Shoe.decks(8), BUILTIN["punto-banco"]))
    ['jackpot']
    """
    extra = EXAMPLE_ROW_SECONDS if examples else 0.0  # a worked example per row, on a sheet
    work = {
        b.id: COUNT_SECONDS + bet_seconds(b, shoe, tableau, known) + extra * len(b.rows)
        for b in bets
        if b.card_level and not live_count_seconds(b)
    }
    grid = RANK_GRID_SECONDS  # built once a shoe, for the first bet that needs it
    for b in bets:  # multiplied and peek bets are counted apart (counting/ranks.py, peek)
        if seconds := live_count_seconds(b):
            work[b.id] = seconds + (grid if uses_rank_grid(b) else 0.0) + extra * len(b.rows)
            grid = 0.0 if uses_rank_grid(b) else grid
    return work


def bet_work(bet: Bet, shoe: Shoe, tableau: Tableau, known: Known | None = None) -> int:
    """The card engine's estimated work of counting ``bet``'s rows, among its offered rounds,
    on ``shoe`` (in the rounds that agree with ``known`` cards, as ``odds --given`` counts
    them: a known card breaks the suit symmetry, which can cost more than the whole shoe), in
    cell operations at :data:`CARD_OPS_PER_SECOND`: :func:`bet_seconds` × that rate."""
    return round(bet_seconds(bet, shoe, tableau, known) * CARD_OPS_PER_SECOND)


def bet_seconds(bet: Bet, shoe: Shoe, tableau: Tableau, known: Known | None = None) -> float:
    """The card engine's CPU seconds (one core) of counting ``bet``'s rows on ``shoe``,
    measured by a probe (:func:`exactodds.counting.probe.probe_count`: a sample of the count's
    blocks run, their work counted and extrapolated; the static bound where that is small).

    >>> from exactodds.bets.loader import load_paytable
    >>> bet = load_paytable("perfect-9").bet("perfect_9")
    >>> 0 < bet_seconds(bet, Shoe.decks(8), BUILTIN["punto-banco"]) < 1
    True
    """
    from exactodds.counting.probe import probe_count

    conditions = [row.when for row in bet.rows]
    return probe_count(conditions, shoe, tableau, offer=bet.offer, known=known).seconds


def removal_shoes(shoe: Shoe) -> int:
    """How many shoes an effect of removal counts a bet on: ``shoe``, and ``shoe`` less one
    card of each kind it holds (what ``eor`` and a counter's default tags cost).

    >>> removal_shoes(Shoe.decks(8)), removal_shoes(Shoe.decks(1).remove("Ac"))
    (53, 52)
    """
    return 1 + sum(1 for row in shoe.counts for n in row if n)


def check_card_work(
    bets: Sequence[Bet],
    shoe: Shoe,
    tableau: Tableau,
    times: int = 1,
    known: Known | None = None,
    *,
    examples: bool = False,
    budget: float | None = None,
) -> None:
    """Refuse, before any counting, card-level bets whose counts would take the card engine
    longer than the CPU budget (:func:`budget_seconds`): their seconds on ``shoe``
    (:func:`card_work`; with ``known`` cards, and a sheet's worked ``examples``) times
    ``times``, the shoes or variants they are counted on.

    >>> from exactodds.language import OTHERWISE, parse_condition
    >>> from exactodds.bets.paytable import Bet, Row
    >>> from exactodds.bets.payout import parse_payout
    >>> from exactodds.deal.tableau import BUILTIN
    >>> both = parse_condition("player.poker == flush and banker.poker == flush")
    >>> flush = Bet("flushes", "Two flushes", (Row(both, parse_payout("99:1"), "Both"),
    ...     Row(OTHERWISE, parse_payout("lose"), "Other")))
    >>> check_card_work([flush], Shoe.decks(8), BUILTIN["punto-banco"])
    >>> pb = BUILTIN["punto-banco"]
    >>> check_card_work([flush], Shoe.decks(8), pb, 53, budget=5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: counting bet 'flushes' × 53 shoes (its costliest row ...
    """
    per_bet = card_work(bets, shoe, tableau, known, examples=examples)
    over = card_work_over(per_bet, times, budget, hint=_why(bets, per_bet, shoe, tableau))
    if over is not None:
        raise BudgetError(over[1])


def _why(bets: Sequence[Bet], per_bet: Mapping[str, float], shoe: Shoe, tableau: Tableau) -> str:
    """What makes the costliest of ``bets`` costly (:func:`exactodds.bets.costly.why_costly`),
    or nothing when none is card-level."""
    from exactodds.bets.costly import why_costly

    if not per_bet:
        return ""
    largest = max(per_bet, key=per_bet.__getitem__)
    return why_costly(next(b for b in bets if b.id == largest), shoe, tableau)


def check_removal_work(
    bets: Sequence[Bet], shoe: Shoe, tableau: Tableau, *, budget: float | None = None
) -> None:
    """:func:`check_card_work` of an effect of removal: the bets counted on ``shoe`` and on
    each shoe less one card (:func:`removal_shoes`), those estimated on the shoe less its
    first card (one card gone breaks the suit symmetry of a full shoe, which can cost the
    engine several times as much).

    >>> from exactodds.bets.loader import load_paytable
    >>> nines = load_paytable("lucky-nines", counted=False)
    >>> check_removal_work(nines.bets, Shoe.decks(1), nines.tableau)
    """
    times = removal_shoes(shoe)
    first = next(Card(r, u) for r, row in enumerate(shoe.counts) for u, n in enumerate(row) if n)
    less = shoe.remove([first])
    per_bet = card_work(bets, shoe, tableau)
    per_less = card_work(bets, less, tableau)
    mean = {b: (per_bet[b] + (times - 1) * per_less[b]) / times for b in per_bet}
    over = card_work_over(mean, times, budget, hint=_why(bets, mean, less, tableau))
    if over is not None:
        raise BudgetError(over[1])


def card_work_over(
    per_bet: Mapping[str, float],
    times: int = 1,
    budget: float | None = None,
    *,
    hint: str = "",
) -> tuple[str, str] | None:
    """The bet that asks the card engine for the most and the refusal line (with ``hint``, what
    makes it costly: :func:`exactodds.bets.costly.why_costly`), when ``per_bet``
    (:func:`card_work`, seconds) × ``times`` is over the CPU budget (:func:`budget_seconds`);
    else None.

    >>> card_work_over({"a": 0.1, "b": 100.0})[0], card_work_over({"a": 0.1}, 53)
    ('b', None)
    """
    total = sum(per_bet.values()) * times
    if total <= budget_seconds(budget):
        return None
    largest = max(per_bet, key=per_bet.__getitem__)
    on = f" × {times:,} shoes" if times > 1 else ""
    others = f" (with {len(per_bet) - 1:,} other card-level bets)" if len(per_bet) > 1 else ""
    try:
        what = f"counting bet {largest!r}{on}{others}"
        check_seconds(total, what, budget, why=hint)
    except BudgetError as exc:
        return largest, str(exc)
    return None  # pragma: no cover - the total is over the budget


_DEALT_NODE_NS = 15
"""Nanoseconds of CPU per condition node and dealt round when a Monte Carlo check settles a
card-level or offered bet on the cards as dealt (``benchmarks/budget.py``: 3 to 16)."""

_DEALT_POKER_NODES = 20
"""A poker category read on dealt cards, in condition nodes."""


def dealt_card_work(bets: Sequence[Bet], rounds: int) -> int:
    """Condition nodes × rounds a Monte Carlo check evaluates to settle the card-level and
    offered ``bets`` on ``rounds`` dealt rounds (a poker node as :data:`_DEALT_POKER_NODES`).

    >>> from exactodds.bets.loader import load_paytable
    >>> dealt_card_work(load_paytable("classic").bets, 10**6)  # value-level: no card work
    0
    """
    from exactodds.language import Var, walk

    def nodes(bet: Bet) -> int:
        roots = [row.when.node for row in bet.rows]
        roots += [bet.offer.node] if bet.offer is not None else []
        return sum(
            _DEALT_POKER_NODES if isinstance(n, Var) and n.name.endswith(".poker") else 1
            for root in roots
            for n in walk(root)
        )

    return rounds * sum(nodes(b) for b in bets if b.settled_from_cards or b.live)


LIVE_ROUND_NS = 10_000
"""CPU nanoseconds of a Monte Carlo round with live bets, besides them (its multiplier cards
drawn with an exact integer RNG, its hands read): ``montecarlo`` of the live test paytables on
one deck, 100,000 rounds, one bet and all of them (``benchmarks/budget.py``-style)."""

LIVE_BET_NS = 15_000
"""CPU nanoseconds of one live bet settled on one dealt round (its product over the group,
a peek's reveal drawn and its decision read, the net counted): 8 to 15 µs measured."""


def live_seconds(bets: Sequence[Bet], rounds: int) -> float:
    """CPU seconds of playing the live ``bets`` (fee, multipliers, peek) on ``rounds`` dealt
    rounds in a Monte Carlo check: Python work per round and bet.

    >>> from exactodds.bets.loader import load_paytable
    >>> live_seconds(load_paytable("tests/data/live-lightning.toml").bets, 10**6)
    55.0
    >>> live_seconds(load_paytable("classic").bets, 10**6)
    0.0
    """
    live = sum(1 for b in bets if b.live)
    return rounds * (LIVE_ROUND_NS + LIVE_BET_NS * live) / 1e9 if live else 0.0


def check_dealt_cards(bets: Sequence[Bet], rounds: int, *, budget: float | None = None) -> None:
    """Refuse a Monte Carlo check whose card-level, live and offered bets would take longer than
    the CPU budget to settle on the dealt cards (:func:`dealt_card_work`, :func:`live_seconds`).

    >>> from exactodds.bets.loader import load_paytable
    >>> check_dealt_cards(load_paytable("insurance").bets, 10**8)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: settling the card-level and offered bets on 100,000,000 ...
    """
    work = dealt_card_work(bets, rounds)
    seconds = work * _DEALT_NODE_NS / 10**9 + live_seconds(bets, rounds)
    most = int(rounds * budget_seconds(budget) / seconds) if seconds else rounds
    live = ", live" if any(b.live for b in bets) else ""
    check_seconds(
        seconds,
        f"settling the card-level{live} and offered bets on {rounds:,} dealt rounds",
        budget,
        hint=f"at most about {most:,} rounds fit",
    )


def check_compare(bets: Sequence[Bet], variants: int, formula_groups: int) -> None:
    """Refuse a comparison whose variants × rows exceed
    :data:`~exactodds.limits.MAX_COMPARE_WORK`, or whose formulas (``formula_groups``
    tableau × Tie × Banker groups) exceed :data:`~exactodds.limits.MAX_FORMULA_WORK` groups ×
    (rows + the nine enumerations of a group, counted as 2,000 rows) or have coefficients
    wider than :data:`~exactodds.limits.MAX_FORMULA_DIGITS`.

    >>> from exactodds.bets.loader import load_paytable
    >>> check_compare(load_paytable("classic").bets, 256, 6)
    """
    rows = sum(len(b.rows) for b in bets) + 1  # and the Tie of every variant
    if variants * rows > MAX_COMPARE_WORK:
        raise BudgetError(
            f"compare: {variants:,} variants × {rows:,} rows = {variants * rows:,} is over the "
            f"budget of {MAX_COMPARE_WORK:,} (MAX_COMPARE_WORK; fewer variants or bets)"
        )
    if not formula_groups:
        return
    work = formula_groups * (rows + _FORMULA_GROUP_ROWS)
    if work > MAX_FORMULA_WORK:
        raise BudgetError(
            f"compare --formula: {formula_groups:,} tableau × Tie × Banker groups × "
            f"({rows:,} rows + {_FORMULA_GROUP_ROWS:,}) = {work:,} is over the budget of "
            f"{MAX_FORMULA_WORK:,} (MAX_FORMULA_WORK; fewer rules, Tie or Banker variants, "
            "or bets)"
        )
    digits = max((_digits(bet_denominator(b)) for b in bets), default=1)
    if digits > MAX_FORMULA_DIGITS:
        raise BudgetError(
            f"compare --formula: a common denominator of {digits:,} digits is over the budget "
            f"of {MAX_FORMULA_DIGITS:,} digits (MAX_FORMULA_DIGITS) for a formula's coefficients"
        )


def check_pdf(bets: Sequence[Bet], sheets: int = 1) -> None:
    """Refuse PDF sheets of ``bets`` printing more than :data:`~exactodds.limits.MAX_PDF_ROWS`
    rows of return tables, or exact fractions over a common denominator of more than
    :data:`~exactodds.limits.MAX_PDF_DIGITS` digits: WeasyPrint's time grows much faster than
    the pages (one bet of 21 rows over 600-digit denominators takes half a minute of CPU).

    >>> from exactodds.bets.loader import load_paytable
    >>> check_pdf(load_paytable("classic").bets * 20)
    Traceback (most recent call last):
    ...
    exactodds.bets.budget.BudgetError: report --format pdf: 980 rows of return tables in 1 sheet \
is over the budget of 300 (MAX_PDF_ROWS; fewer bets with --bet, or --format html)
    """
    rows = sum(len(b.rows) for b in bets)
    plural = "s" if sheets != 1 else ""
    if rows > MAX_PDF_ROWS:
        raise BudgetError(
            f"report --format pdf: {rows:,} rows of return tables in {sheets:,} sheet{plural} "
            f"is over the budget of {MAX_PDF_ROWS:,} (MAX_PDF_ROWS; fewer bets with --bet, "
            "or --format html)"
        )
    digits = max((_digits(bet_denominator(b)) for b in bets), default=1)
    if digits > MAX_PDF_DIGITS:
        raise BudgetError(
            f"report --format pdf: a common denominator of {digits:,} digits is over the "
            f"budget of {MAX_PDF_DIGITS:,} digits (MAX_PDF_DIGITS; --format html prints "
            "the same sheet)"
        )
