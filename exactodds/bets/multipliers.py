"""Random multipliers laid over the cards (Lightning-style), bet fees and peeks, as data.

A multiplier table (``[multipliers.NAME]`` in a paytable) is one random draw a round,
independent of the shoe: a number of distinct card identities of a 52-card deck (a fixed count
or a distribution), each with an independent multiplier drawn from ``values``. A row with
``multiply = GROUP`` multiplies its net win by the product of the multipliers on the group's
dealt cards whose identity was drawn (docs/multipliers.md).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb, lcm, prod

from exactodds.deal.shoe import Shoe

__all__ = [
    "DEALING_ORDER_REVEALS",
    "MULTIPLY_CARDS",
    "MULTIPLY_GROUPS",
    "PEEK_POSITIONS",
    "MultiplierTable",
    "Multiply",
    "Peek",
    "Repeat",
    "draw_multipliers",
    "group_patterns",
    "group_products",
    "identity_patterns",
    "pattern_products",
    "product_of",
]

MULTIPLY_GROUPS: tuple[str, ...] = ("player", "banker", "initial", "round")
"""The card groups a row may multiply over (besides a list of named cards)."""

MULTIPLY_CARDS: tuple[str, ...] = tuple(
    f"{side}.card{i}" for side in ("player", "banker") for i in (1, 2, 3)
)
"""The named cards a row may multiply over, e.g. ``multiply = "player.card1 player.card2"``."""

PEEK_POSITIONS: tuple[str, ...] = ("P1", "B1", "P2", "B2")
"""The first four cards, in dealing order, that a peek may show."""

DEALING_ORDER_REVEALS: tuple[tuple[str, ...], ...] = tuple(
    PEEK_POSITIONS[:n] for n in range(1, len(PEEK_POSITIONS) + 1)
)
"""The fixed reveal rules of 1, 2, 3 and 4 cards in dealing order (a peek's RTP by reveal)."""


class Repeat(StrEnum):
    """How an identity dealt twice from the shoe counts in a product."""

    EACH = "each"
    """Every dealt card multiplies: a drawn identity dealt twice multiplies twice (the default)."""
    ONCE = "once"
    """A drawn identity multiplies once, however many of its cards the group holds."""


@dataclass(frozen=True)
class MultiplierTable:
    """One multiplier draw a round: ``cards`` distinct identities of a ``deck`` of 52, each with
    an independent multiplier from ``values``; ``cap`` bounds a product."""

    name: str
    cards: tuple[tuple[int, Fraction], ...]
    """(number of multiplier cards, probability), ascending, probabilities summing to 1."""
    values: tuple[tuple[int, Fraction], ...]
    """(multiplier, probability) of each card, ascending, probabilities summing to 1."""
    deck: int = 52
    cap: int | None = None
    repeat: Repeat = Repeat.EACH

    @cached_property
    def _hash(self) -> int:
        # numbers only: the same in every process (a str hash is not), so a pickled table
        # carries a hash that stays true
        once = self.repeat is Repeat.ONCE
        return hash((self.cards, self.values, self.deck, self.cap, once))

    def __hash__(self) -> int:
        """Hashed once: the table keys the caches of every product distribution."""
        return self._hash

    def capped(self, product: int) -> int:
        """``product`` bounded by the table's cap (multipliers are at least 1, so capping each
        partial product gives the capped whole).

        >>> MultiplierTable("x", ((1, Fraction(1)),), ((2, Fraction(1)),), cap=512).capped(1024)
        512
        """
        return product if self.cap is None else min(product, self.cap)

    def drawn_chances(self, j: int) -> tuple[Fraction, ...]:
        """P(exactly a given t of ``j`` given identities are drawn, the others not), t = 0..j:
        Σ_k P(k)·C(deck−j, k−t)/C(deck, k) (the drawn set is a uniform k-subset).

        >>> MultiplierTable("x", ((1, Fraction(1)),), ((2, Fraction(1)),)).drawn_chances(1)
        (Fraction(51, 52), Fraction(1, 52))
        """
        return tuple(
            sum(
                (
                    p * comb(self.deck - j, k - t) / comb(self.deck, k)
                    for k, p in self.cards
                    if k >= t
                ),
                Fraction(0),
            )
            for t in range(j + 1)
        )

    def product_distribution(self, multiplicities: tuple[int, ...]) -> dict[int, Fraction]:
        """The exact distribution of the (capped) product of multipliers on a group whose
        distinct identities appear with these ``multiplicities`` (``(2, 1)``: one identity
        dealt twice, another once); each drawn identity gives ``v**m`` (``v`` once with
        ``repeat = "once"``). One card, one multiplier card, always ×8: E = 1 + 7/52.

        >>> table = MultiplierTable("x", ((1, Fraction(1)),), ((8, Fraction(1)),))
        >>> table.product_distribution((1,))
        {1: Fraction(51, 52), 8: Fraction(1, 52)}
        >>> sum(v * p for v, p in table.product_distribution((1,)).items()) == 1 + Fraction(7, 52)
        True
        """
        return dict(_product_distribution(self, tuple(sorted(multiplicities, reverse=True))))


@dataclass(frozen=True)
class Multiply:
    """What a row multiplies: the product over ``cards`` of table ``table``'s multipliers."""

    table: MultiplierTable
    cards: tuple[str, ...]
    """One group of :data:`MULTIPLY_GROUPS`, or named cards of :data:`MULTIPLY_CARDS`."""


@dataclass(frozen=True)
class Peek:
    """A decision after the first four cards: some of them are shown, then the player keeps the
    stake or raises it to one of ``raises`` times (no fee on the raise)."""

    reveals: tuple[tuple[tuple[str, ...], Fraction], ...]
    """(shown positions among :data:`PEEK_POSITIONS`, probability); probabilities sum to 1."""
    raises: tuple[int, ...] = (2, 3)


@lru_cache(maxsize=4096)
def _product_distribution(
    table: MultiplierTable, multiplicities: tuple[int, ...]
) -> tuple[tuple[int, Fraction], ...]:
    """:meth:`MultiplierTable.product_distribution`, ascending, remembered: a walk over the
    identities keeping (number drawn, capped product) → probability of the values."""
    states: dict[tuple[int, int], Fraction] = {(0, 1): Fraction(1)}
    for m in multiplicities:
        power = m if table.repeat is Repeat.EACH else 1
        step: dict[tuple[int, int], Fraction] = {}
        for (t, product), p in states.items():
            step[t, product] = step.get((t, product), Fraction(0)) + p
            for v, q in table.values:
                key = (t + 1, table.capped(product * v**power))
                step[key] = step.get(key, Fraction(0)) + p * q
        states = step
    chances = table.drawn_chances(len(multiplicities))
    out: dict[int, Fraction] = {}
    for (t, product), p in states.items():
        out[product] = out.get(product, Fraction(0)) + p * chances[t]
    return tuple(sorted((v, p) for v, p in out.items() if p))


def identity_patterns(suit_counts: Sequence[int], g: int) -> dict[tuple[int, ...], Fraction]:
    """The distribution of the multiplicities (descending) of distinct identities among ``g``
    cards drawn without replacement from one rank's cards with these per-suit counts.

    >>> identity_patterns((1, 1, 1, 1), 2)
    {(1, 1): Fraction(1, 1)}
    >>> identity_patterns((2, 2, 2, 2), 2)  # 8 same-suit pairs of the 28
    {(2,): Fraction(1, 7), (1, 1): Fraction(6, 7)}
    """
    return dict(_identity_patterns(tuple(suit_counts), g))


@lru_cache(maxsize=4096)
def _identity_patterns(
    suit_counts: tuple[int, ...], g: int
) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    total = sum(suit_counts)
    if not 0 <= g <= total:
        raise ValueError(f"cannot draw {g} cards of {total}")
    ways: dict[tuple[int, ...], int] = {}
    splits: list[tuple[tuple[int, ...], int]] = [((), 1)]
    for n in suit_counts:  # multivariate hypergeometric: every split of g over the suits
        splits = [((*xs, x), w * comb(n, x)) for xs, w in splits for x in range(min(n, g) + 1)]
        splits = [(xs, w) for xs, w in splits if sum(xs) <= g]
    for xs, w in splits:
        if sum(xs) == g and w:
            key = tuple(sorted((x for x in xs if x), reverse=True))
            ways[key] = ways.get(key, 0) + w
    whole = comb(total, g)
    return tuple(sorted(((k, Fraction(w, whole)) for k, w in ways.items()), reverse=True))


def group_products(
    table: MultiplierTable, ranks: tuple[int, ...], shoe: Shoe
) -> dict[int, Fraction]:
    """The product distribution of a group whose dealt cards have these ``ranks`` (1..13):
    the cards of one rank are an exchangeable draw of that rank's cards of ``shoe``, so the
    identity pattern depends only on the ranks (:func:`identity_patterns` per rank).

    >>> table = MultiplierTable("x", ((1, Fraction(1)),), ((2, Fraction(1)),))
    >>> group_products(table, (13,), Shoe.decks(8))
    {1: Fraction(51, 52), 2: Fraction(1, 52)}
    """
    if not all(1 <= r <= len(shoe.counts) for r in ranks):
        raise ValueError(f"ranks must be 1..13, not {ranks}")
    return dict(_group_products(table, tuple(sorted(ranks)), shoe.counts))


@lru_cache(maxsize=65536)
def _group_products(
    table: MultiplierTable, ranks: tuple[int, ...], counts: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, Fraction], ...]:
    return _mixture(table, _group_patterns(ranks, counts))


def group_patterns(ranks: tuple[int, ...], shoe: Shoe) -> dict[tuple[int, ...], Fraction]:
    """The distribution of the identity pattern (multiplicities of distinct identities,
    descending) of a group whose dealt cards have these ``ranks`` (1..13): what a product
    depends on, whatever the multiplier weights.

    >>> group_patterns((1, 1), Shoe.decks(8))  # two aces: the same identity 7 times in 31
    {(1, 1): Fraction(24, 31), (2,): Fraction(7, 31)}
    """
    if not all(1 <= r <= len(shoe.counts) for r in ranks):
        raise ValueError(f"ranks must be 1..13, not {ranks}")
    return dict(_group_patterns(tuple(sorted(ranks)), shoe.counts))


@lru_cache(maxsize=65536)
def _group_patterns(
    ranks: tuple[int, ...], counts: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    patterns: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for rank, g in sorted(Counter(ranks).items()):
        per_rank = _identity_patterns(tuple(counts[rank - 1]), g)
        joined: dict[tuple[int, ...], Fraction] = {}
        for pattern, p in patterns.items():
            for more, q in per_rank:
                key = tuple(sorted(pattern + more, reverse=True))
                joined[key] = joined.get(key, Fraction(0)) + p * q
        patterns = joined
    return tuple(sorted(patterns.items()))


def pattern_products(
    table: MultiplierTable, patterns: Mapping[tuple[int, ...], Fraction]
) -> dict[int, Fraction]:
    """The product distribution over a distribution of identity ``patterns``.

    >>> table = MultiplierTable("x", ((1, Fraction(1)),), ((2, Fraction(1)),))
    >>> pattern_products(table, {(2,): Fraction(1)})  # one identity twice: 2² if drawn
    {1: Fraction(51, 52), 4: Fraction(1, 52)}
    """
    return dict(_mixture(table, tuple(sorted((k, p) for k, p in patterns.items() if p))))


@lru_cache(maxsize=4096)
def _mixture(
    table: MultiplierTable, patterns: tuple[tuple[tuple[int, ...], Fraction], ...]
) -> tuple[tuple[int, Fraction], ...]:
    """The product distribution over identity ``patterns`` (pattern, probability): remembered
    per mixture, which many rank groups share (on whole decks it depends only on how the
    ranks repeat)."""
    whole = lcm(*(_scaled(table, pattern)[1] for pattern, _ in patterns))
    weights = lcm(*(p.denominator for _, p in patterns))
    out: dict[int, int] = {}  # numerators over whole × weights (ints: a 6-card group sums fast)
    for pattern, p in patterns:
        scaled, denominator = _scaled(table, pattern)
        factor = (whole // denominator) * p.numerator * (weights // p.denominator)
        for v, n in scaled:
            out[v] = out.get(v, 0) + n * factor
    return tuple(sorted((v, Fraction(n, whole * weights)) for v, n in out.items()))


@lru_cache(maxsize=4096)
def _scaled(
    table: MultiplierTable, multiplicities: tuple[int, ...]
) -> tuple[tuple[tuple[int, int], ...], int]:
    """:func:`_product_distribution` as integer numerators over one denominator."""
    dist = _product_distribution(table, multiplicities)
    denominator = lcm(*(p.denominator for _, p in dist))
    return tuple((v, p.numerator * (denominator // p.denominator)) for v, p in dist), denominator


def _pick(rng: random.Random, weights: tuple[tuple[int, Fraction], ...]) -> int:
    """One of the ints, drawn with its exact probability (integer arithmetic, no float)."""
    whole = prod({p.denominator for _, p in weights})
    at = rng.randrange(whole)
    for value, p in weights:
        at -= p.numerator * (whole // p.denominator)
        if at < 0:
            return value
    return weights[-1][0]  # pragma: no cover - the probabilities sum to 1


def draw_multipliers(table: MultiplierTable, rng: random.Random) -> dict[tuple[int, int], int]:
    """One round's draw, for simulation: each drawn identity (rank index 0..12, suit 0..3)
    and its multiplier.

    >>> table = MultiplierTable("x", ((3, Fraction(1)),), ((5, Fraction(1)),))
    >>> drawn = draw_multipliers(table, random.Random(1))
    >>> len(drawn), set(drawn.values())
    (3, {5})
    """
    k = _pick(rng, table.cards)
    return {divmod(i, 4): _pick(rng, table.values) for i in rng.sample(range(table.deck), k)}


def product_of(
    table: MultiplierTable, cards: Sequence[tuple[int, int]], drawn: Mapping[tuple[int, int], int]
) -> int:
    """The (capped) product over concrete dealt ``cards`` (rank index, suit) of the ``drawn``
    multipliers: the one definition of "the product" (settle, simulate, the tests).

    >>> table = MultiplierTable("x", ((2, Fraction(1)),), ((2, Fraction(1)),), cap=6)
    >>> product_of(table, [(0, 0), (0, 0), (5, 1)], {(0, 0): 2}), product_of(table, [], {})
    (4, 1)
    >>> product_of(table, [(0, 0), (0, 0), (5, 1)], {(0, 0): 2, (5, 1): 3})
    6
    """
    counted = cards if table.repeat is Repeat.EACH else set(cards)
    return table.capped(prod(drawn.get(card, 1) for card in counted))
