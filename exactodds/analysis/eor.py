"""Effect of removal (EOR): how each bet's exact EV moves when one card of a rank leaves the shoe,
and integer counting tags derived from it.

Why: a bet whose EV moves a lot with the removed cards can be tracked by a card counter (rules.md
§1, game protection). The EOR of rank r is the count-weighted mean over its suits of
EV(shoe − one card) − EV(shoe), exact. Because a random card removed before the deal changes
nothing on average, Σ_r n_r·EOR_r = 0 exactly (tested).

Tags (:func:`counting_tags`) are a function of the EOR alone: ranks whose EORs are exactly equal
get equal tags. They are integers of at most ``level`` in size, the rounded multiple of the
EORs best correlated with them. A count whose tags do not sum to zero over a deck is unbalanced;
:class:`CountTags` converts its running count to a true count that is 0 on average all the same.

>>> counting_tags({"A": Fraction(3), "2": Fraction(-1), "3": Fraction(-2)}, level=2).tags
{'A': 2, '2': -1, '3': -1}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from exactodds.analysis.batch import BatchEvaluator, BetLike, compile_bets
from exactodds.bets.kinds import condition_bet, refuse_live
from exactodds.bets.meters import figure_label
from exactodds.bets.paytable import settled_from_cards
from exactodds.bets.streak import STREAK_MARK, StreakBet, streak_figures_at
from exactodds.deal.shoe import MIN_CARDS, RANKS, SUITS, Card, Shoe, parse_cards
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ExactOddsError, ShoeError, about, quote, require

__all__ = [
    "DECK_RANK_CARDS",
    "MAX_LEVEL",
    "STREAK_EOR",
    "TRUE_COUNT",
    "CountTags",
    "EffectOfRemoval",
    "check_level",
    "counting_tags",
    "effect_of_removal",
    "no_bets",
    "with_streak_bets",
]

MAX_LEVEL = 20
"""Largest counting tag level (``eor --level``): the work of :func:`counting_tags` grows with
it, so a level from Python is bounded as the option is."""


def check_level(level: object) -> None:
    """Refuse a counting tag level that is not a whole number 1 to :data:`MAX_LEVEL`.

    >>> check_level(10**100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: level must be a whole number 1-20, not an integer of about ...
    """
    require(level, (int,), "level")
    if isinstance(level, bool) or not (isinstance(level, int) and 1 <= level <= MAX_LEVEL):
        message = f"level must be a whole number 1-{MAX_LEVEL}, not {quote(level, 10)}"
        raise about(ExactOddsError(message), "level")


@dataclass(frozen=True)
class EffectOfRemoval:
    """Exact EV and per-rank effect of removal of every bet, with counting tags.

    Player Pair on one deck: P(pair) = 3/51 = 1/17 and stays 1/17 with any one card removed
    ((3·2 + 12·4·3) / (51·50)), so the EV is −5/17 and every EOR and tag is zero:

    >>> zero = dict.fromkeys(RANKS, Fraction(0))
    >>> e = EffectOfRemoval(Shoe.decks(1), ("player_pair",), ("Player Pair",),
    ...     {"player_pair": Fraction(-5, 17)}, {"player_pair": zero},
    ...     {"player_pair": counting_tags(zero)}, 3)
    >>> e.weighted_sum("player_pair"), e.tags["player_pair"].tags == dict.fromkeys(RANKS, 0)
    (Fraction(0, 1), True)
    """

    shoe: Shoe
    bet_ids: tuple[str, ...]
    bet_names: tuple[str, ...]
    ev: Mapping[str, Fraction]
    eor: Mapping[str, Mapping[str, Fraction | None]]  # bet → rank → EV change (None: no card)
    tags: Mapping[str, CountTags]
    level: int
    eor_suits: Mapping[str, Mapping[str, Fraction | None]] = field(default_factory=dict)
    """For bets that read suits: EV change when one card of each suit (c d h s) is removed."""
    streaks: tuple[str, ...] = ()
    """Ids of the streak bets among :attr:`bet_ids` (:data:`STREAK_EOR`; see
    :func:`with_streak_bets`)."""

    def weighted_sum(self, bet: str) -> Fraction:
        """Σ_r n_r·EOR_r over the shoe: zero exactly (a check of the figures)."""
        counts = self.shoe.rank_counts
        return sum(
            (counts[i] * e for i, r in enumerate(RANKS) if (e := self.eor[bet][r]) is not None),
            Fraction(0),
        )

    def correlation(self, bet: str) -> float:
        """Pearson correlation of the tags with the EORs over one deck (for display: how well
        the count tracks the bet)."""
        known = {r: e for r, e in self.eor[bet].items() if e is not None}
        tags = self.tags[bet].tags
        r2 = _signed_corr2(list(known.values()))([tags[r] for r in known])
        return math.copysign(math.sqrt(abs(r2)), r2)

    def to_json(self, paytable: str = "") -> dict[str, Any]:
        """JSON-ready: exact EORs as "p/q" strings, EVs, tags (``paytable``: its name).

        >>> zero = dict.fromkeys(RANKS, Fraction(0))
        >>> e = EffectOfRemoval(Shoe.decks(1), ("tie",), ("Tie",), {"tie": Fraction(-1, 7)},
        ...     {"tie": zero}, {"tie": counting_tags(zero)}, 3)
        >>> data = e.to_json("house")
        >>> data["ev"], data["eor"]["tie"]["A"], data["balanced"]
        ({'tie': '-1/7'}, '0', {'tie': True})
        """
        return {
            "paytable": paytable,
            "shoe": self.shoe.describe(),
            "ev": {b: str(self.ev[b]) for b in self.bet_ids},
            "eor": {
                b: {r: (None if e is None else str(e)) for r, e in self.eor[b].items()}
                for b in self.bet_ids
            },
            "tags": {b: dict(self.tags[b].tags) for b in self.bet_ids},
            "balanced": {b: self.tags[b].balanced for b in self.bet_ids},
            "imbalance_per_deck": {b: self.tags[b].imbalance_per_deck for b in self.bet_ids},
            "tag_level": self.level,
            "tag_rule": (
                "round(c*EOR) half away from zero (equal EOR, equal tag) for each scale c with "
                f"|tag| <= {self.level}; the scale whose tags correlate best with EOR (Pearson, "
                "over one deck) kept, a balanced one on ties"
            ),
            "true_count": TRUE_COUNT,
            **(
                {"streak_bets": {"ids": list(self.streaks), "model": STREAK_EOR}}
                if self.streaks
                else {}
            ),
            **(
                {
                    "eor_suits": {
                        b: {u: (None if e is None else str(e)) for u, e in per.items()}
                        for b, per in self.eor_suits.items()
                    }
                }
                if self.eor_suits
                else {}
            ),
        }


def effect_of_removal(
    bets: Sequence[BetLike],
    shoe: Shoe,
    tableau: Tableau | None = None,
    *,
    evaluator: BatchEvaluator | None = None,
    level: int = 3,
    budget: float | None = None,
) -> EffectOfRemoval:
    """Exact EOR of every rank for every bet, from the batch evaluator (53 states at most);
    bets that read the cards or have an offer are counted by the card engine on each state
    (:func:`_card_eor`), in the bets' order, refused first if that would take longer than
    ``budget`` CPU seconds (default: ``EXACTODDS_BUDGET``, else 30)."""
    require(shoe, (Shoe,), "shoe")
    require(tableau, (Tableau, type(None)), "tableau")
    require(evaluator, (BatchEvaluator, type(None)), "evaluator")
    check_level(level)
    refuse_live(bets, "the effect of removal")
    if shoe.size <= MIN_CARDS:
        raise ShoeError(
            f"effect of removal needs a shoe of more than {MIN_CARDS} cards, not {shoe.size}"
        )
    card = [b for b in bets if settled_from_cards(b)]
    if card:  # the card engine on the shoe and each shoe less a card
        from exactodds.bets.budget import check_removal_work
        from exactodds.bets.paytable import Bet

        counted = [b for b in card if isinstance(b, Bet)]
        check_removal_work(counted, shoe, tableau or BUILTIN["punto-banco"], budget=budget)
    if card and evaluator is None:
        return _card_eor(bets, card, shoe, tableau, level)
    ev_ = evaluator if evaluator is not None else compile_bets(bets, tableau)
    cards = [(r, s) for r in range(len(RANKS)) for s in range(len(SUITS)) if shoe.counts[r][s]]
    states = [shoe] + [shoe.remove([Card(r, s)]) for r, s in cards]
    result = ev_.evaluate(states)
    n0 = math.perm(shoe.size, 6)
    n1 = math.perm(shoe.size - 1, 6)
    ids = ev_.bet_ids
    eor: dict[str, dict[str, Fraction | None]] = {}
    base: dict[str, Fraction] = {}
    for j, bet in enumerate(ids):
        scale = result.scales[j]
        base[bet] = Fraction(int(result.numerators[0, j]), scale * n0)
        sums = [0] * len(RANKS)
        for i, (r, s) in enumerate(cards):
            sums[r] += shoe.counts[r][s] * int(result.numerators[i + 1, j])
        per_rank: dict[str, Fraction | None] = {}
        for r, name in enumerate(RANKS):
            n_r = shoe.rank_counts[r]
            per_rank[name] = Fraction(sums[r], n_r * scale * n1) - base[bet] if n_r else None
        eor[bet] = per_rank
    tags = {b: counting_tags(eor[b], level=level) for b in ids}
    return EffectOfRemoval(shoe, ids, ev_.bet_names, base, eor, tags, level)


def _card_eor(
    bets: Sequence[BetLike],
    card: Sequence[BetLike],
    shoe: Shoe,
    tableau: Tableau | None,
    level: int,
) -> EffectOfRemoval:
    """EOR with card-level or offered bets: value-level bets by the batch evaluator, the others
    by their exact figures on the shoe less each card (EV per offered round for an offer)."""
    from exactodds.bets.paytable import Bet
    from exactodds.counting import reads_suits
    from exactodds.deal.engine import joint_distribution
    from exactodds.deal.tableau import BUILTIN
    from exactodds.figures.metrics import bet_figures

    rules = tableau if tableau is not None else BUILTIN["punto-banco"]
    plain = [b for b in bets if b not in card]
    value = effect_of_removal(plain, shoe, tableau, level=level) if plain else None
    cards = [(r, s) for r in range(len(RANKS)) for s in range(len(SUITS)) if shoe.counts[r][s]]
    ev: dict[str, Fraction] = {}
    eor: dict[str, dict[str, Fraction | None]] = {}
    eor_suits: dict[str, dict[str, Fraction | None]] = {}
    # Shoe by shoe, every bet on it: a value-level offer indexes each shoe's joint once (the
    # index is cached for a few joints only; bet by bet, it was rebuilt per bet and shoe).
    typed = [b for b in card if isinstance(b, Bet)]
    assert len(typed) == len(card)
    bases = [bet_figures(joint_distribution(shoe, rules), b).ev for b in typed]
    less_of: list[list[Fraction]] = [[] for _ in typed]
    for r, s in cards:
        joint = joint_distribution(shoe.remove([Card(r, s)]), rules)
        for k, b in enumerate(typed):
            less_of[k].append(bet_figures(joint, b).ev)
    for k, bet in enumerate(typed):
        base = bases[k]
        sums = [Fraction(0)] * len(RANKS)
        by_suit = [Fraction(0)] * len(SUITS)
        for (r, s), less in zip(cards, less_of[k], strict=True):
            sums[r] += shoe.counts[r][s] * less
            by_suit[s] += shoe.counts[r][s] * less
        if reads_suits([row.when for row in bet.rows] + ([bet.offer] if bet.offer else [])):
            in_suit = [sum(row[s] for row in shoe.counts) for s in range(len(SUITS))]
            eor_suits[bet.id] = {
                name: (by_suit[s] / in_suit[s] - base) if in_suit[s] else None
                for s, name in enumerate(SUITS)
            }
        ev[bet.id] = base
        eor[bet.id] = {
            name: (sums[r] / shoe.rank_counts[r] - base) if shoe.rank_counts[r] else None
            for r, name in enumerate(RANKS)
        }
    if value is not None:
        ev.update(value.ev)
        eor.update({b: dict(e) for b, e in value.eor.items()})
    ids = tuple(b.id for b in bets)
    names = tuple(figure_label(b) for b in bets)
    tags = {b: counting_tags(eor[b], level=level) for b in ids}
    return EffectOfRemoval(shoe, ids, names, ev, eor, tags, level, eor_suits)


STREAK_EOR = (
    "streak bet: EV per bet, rounds independent, every round dealt from the shoe less the card"
)
"""What a streak bet's EV and EOR are (marked with the streak mark, ‡, where they are shown)."""


def with_streak_bets(
    result: EffectOfRemoval, streaks: Sequence[StreakBet], tableau: Tableau | None = None
) -> EffectOfRemoval:
    """``result`` with the exact EOR of each streak bet added: its EV per bet is a function
    of p, the probability of its round condition
    (:func:`~exactodds.bets.streak.streak_figures_at`), so its EOR of rank r is
    EV(p_r) − EV(p), p_r that probability on the shoe less a card of rank r (a round
    condition reads values, so every suit of a rank gives one p_r). p_r comes from a bet
    paying 1:1 when the condition holds, EV 2p − 1, on the batch evaluator. Unlike a round
    bet's, the EORs need not sum to zero over the shoe (EV is not linear in p). Counting tags
    as for any bet."""
    if not streaks:
        return result
    shoe = result.shoe
    probes = [condition_bet(b.condition, b.id) for b in streaks]
    found = effect_of_removal(probes, shoe, tableau, level=result.level)
    ev, eor = dict(result.ev), {b: dict(e) for b, e in result.eor.items()}
    for bet in streaks:
        p = (1 + found.ev[bet.id]) / 2
        ev[bet.id] = streak_figures_at(bet, p).ev
        eor[bet.id] = {
            r: None if d is None else streak_figures_at(bet, p + d / 2).ev - ev[bet.id]
            for r, d in found.eor[bet.id].items()
        }
    ids = (*result.bet_ids, *(b.id for b in streaks))
    names = (*result.bet_names, *(f"{b.name} {STREAK_MARK}" for b in streaks))
    tags = {b: result.tags.get(b) or counting_tags(eor[b], level=result.level) for b in ids}
    streak_ids = (*result.streaks, *(b.id for b in streaks))
    return replace(result, bet_ids=ids, bet_names=names, ev=ev, eor=eor, tags=tags,
                   streaks=streak_ids)  # fmt: skip


def no_bets(shoe: Shoe, level: int = 3) -> EffectOfRemoval:
    """The EOR of no bet on ``shoe`` (a paytable of streak bets only starts from it)."""
    return EffectOfRemoval(shoe, (), (), {}, {}, {}, level)


def _round_half_away(x: Fraction) -> int:
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


DECK_RANK_CARDS = 4
"""Cards of each rank in one standard 52-card deck."""


@dataclass(frozen=True)
class CountTags:
    """Counting tags per rank, and how to turn a running count into a true count.

    A counter adds the tag of every card seen: the running count. Over one standard deck the
    tags add up to :attr:`imbalance_per_deck` ``b`` = 4·Σ_r t_r; a balanced count has b = 0.
    After ``k`` cards of a shoe of full decks, each seen card is of every rank with probability
    1/13, so the running count is k·b/52 on average: ``b`` times the decks seen. The true count
    removes that drift and scales by the decks left,

        true count = (running count − b · cards_seen / 52) / (cards_left / 52),

    which is 0 on average at any depth of the shoe, balanced or not (for b = 0 it is the usual
    running count per deck remaining). Exact: a :class:`~fractions.Fraction`.

    >>> ko = CountTags({"A": 0, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 0,
    ...                 "9": 0, "T": -1, "J": -1, "Q": -1, "K": -1})  # a KO-like count
    >>> ko.balanced, ko.imbalance_per_deck
    (False, 8)
    >>> ko.running_count("2h 7c Kd 5s")
    2
    >>> ko.true_count(running=10, cards_seen=104, cards_left=312)  # (10 - 8·2) / 6 decks
    Fraction(-1, 1)
    """

    tags: Mapping[str, int]

    @property
    def imbalance_per_deck(self) -> int:
        """Running count of one full standard deck: 4·Σ_r t_r (0 for a balanced count)."""
        return DECK_RANK_CARDS * sum(self.tags.values())

    @property
    def balanced(self) -> bool:
        """Whether a full deck counts 0."""
        return self.imbalance_per_deck == 0

    def running_count(self, cards: str | Iterable[Card]) -> int:
        """Sum of the tags of ``cards`` (a card string such as ``"6 7h Kd"`` or cards)."""
        seen = parse_cards(cards) if isinstance(cards, str) else cards
        return sum(self.tags.get(RANKS[card.rank], 0) for card in seen)

    def true_count(self, running: int, cards_seen: int, cards_left: int) -> Fraction:
        """The running count less its drift ``b``·decks seen, per deck left (see above)."""
        if cards_left <= 0 or cards_seen < 0:
            raise ShoeError(
                f"true count needs cards left > 0 and cards seen >= 0, not {cards_left!r} "
                f"and {cards_seen!r}"
            )
        drift = Fraction(self.imbalance_per_deck * cards_seen, 52)
        return (running - drift) / Fraction(cards_left, 52)


def counting_tags(eor: Mapping[str, Fraction | None], *, level: int = 3) -> CountTags:
    """Integer tags in −level..level, a function of the EOR alone, best correlated with it.

    The candidates are round(c·EOR), half away from zero, for every scale c ≤ level / max|EOR|
    at which some rounding changes: ranks with exactly equal EOR always get equal tags. The
    candidate with the highest correlation to the EORs over one deck (Pearson: tags and EORs
    less their means, as the true count of :class:`CountTags` uses the tags) wins; ties go to a
    balanced candidate, then to the simpler one (smaller Σ|tag|), then to the larger scale. The
    tags are not pushed to sum to zero: with equal tags for equal EORs that can cost most of
    the correlation (Player Natural at level 3: 0.63 at best balanced, against 1.00 counting
    only the 8s and 9s), and the true count is exact for an unbalanced count too. Ranks without
    cards (EOR None) get 0.

    >>> counting_tags({"A": Fraction(1), "5": Fraction(-1), "K": None}, level=1).tags
    {'A': 1, '5': -1, 'K': 0}
    >>> tens = {"A": Fraction(3), "T": Fraction(-1), "J": Fraction(-1), "Q": Fraction(-1)}
    >>> counting_tags(tens, level=3)  # equal tags for T, J, Q; 3 - 1 - 1 - 1 = 0
    CountTags(tags={'A': 3, 'T': -1, 'J': -1, 'Q': -1})
    >>> natural = {r: Fraction(2) for r in RANKS} | {"8": Fraction(-11), "9": Fraction(-11)}
    >>> n = counting_tags(natural, level=3)  # the shape of Player Natural's EORs
    >>> [r for r, t in n.tags.items() if t], n.tags["8"], n.balanced, n.imbalance_per_deck
    (['8', '9'], -1, False, -8)
    """
    check_level(level)
    return CountTags(dict(zip(eor, _tags(tuple(eor.items()), level), strict=True)))


@lru_cache(maxsize=1024)  # bets of equal EORs (a paytable may repeat one) share their tags
def _tags(eor: tuple[tuple[str, Fraction | None], ...], level: int) -> tuple[int, ...]:
    """:func:`counting_tags` of the EORs ``(rank, eor)``, in their order."""
    known = {r: e for r, e in eor if e is not None}
    top = max((abs(e) for e in known.values()), default=Fraction(0))
    if top == 0 or level < 1:
        return (0,) * len(eor)
    c_max = Fraction(level) / top
    cuts = {
        (m + Fraction(1, 2)) / abs(e)
        for e in set(known.values())
        if e != 0
        for m in range(level + 1)
        if (m + Fraction(1, 2)) / abs(e) <= c_max
    }
    best: dict[str, int] = {}
    best_score: tuple[Fraction, bool, int] | None = None
    correlation = _signed_corr2(list(known.values()))
    for c in sorted(cuts | {c_max}, reverse=True):
        tags = {r: _round_half_away(c * e) for r, e in known.items()}
        simpler = -sum(abs(t) for t in tags.values())
        score = (correlation(list(tags.values())), sum(tags.values()) == 0, simpler)
        if best_score is None or score > best_score:
            best, best_score = tags, score
    return tuple(best.get(r, 0) for r, _ in eor)


def _signed_corr2(eor: Sequence[Fraction]) -> Callable[[Sequence[int]], Fraction]:
    """sign(r)·r² of the Pearson correlation r of tags (in the order of ``eor``) and EORs over
    one card of each rank, exact (for comparing tag sets without floats). In integers: the EORs
    times their common denominator D, which scales the covariance by D and the EORs' variance by
    D², so r is unchanged.

    >>> corr2 = _signed_corr2([Fraction(1, 2), Fraction(-1, 3), Fraction(0)])
    >>> corr2([1, -1, 0]), corr2([-1, 1, 0]), corr2([1, 1, 1])  # 15² / (6 · 38) for 6·EOR
    (Fraction(75, 76), Fraction(-75, 76), Fraction(0, 1))
    """
    n = len(eor)
    d = math.lcm(*(e.denominator for e in eor))
    scaled = [e.numerator * (d // e.denominator) for e in eor]
    e_sum = sum(scaled)
    e_var = n * sum(a * a for a in scaled) - e_sum**2

    def corr2(tags: Sequence[int]) -> Fraction:
        t_sum = sum(tags)
        num = n * sum(t * a for t, a in zip(tags, scaled, strict=True)) - t_sum * e_sum
        t_var = n * sum(t * t for t in tags) - t_sum**2
        if not t_var or not e_var:
            return Fraction(0)
        return Fraction((1 if num >= 0 else -1) * num * num, t_var * e_var)

    return corr2


TRUE_COUNT = (
    "True count = (running count - b x cards seen / 52) / (cards left / 52), b = the count of "
    "one full deck (0 when balanced): 0 on average at any depth of the shoe."
)
"""How a running count becomes a true count (see :class:`CountTags`), as printed."""
