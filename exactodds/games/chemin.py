"""Chemin de fer as a two-person zero-sum game, solved exactly.

The deal is enumerated once by card values (suits never matter) into the game's *form*: for each
Player information set ``i``, Banker cell ``j`` (his information and the Player's third card or
"stood") and Banker action, the card sequences won by each side. The payoff is then bilinear in
the Player's draw probabilities ``x`` and the Banker's ``y``, and the Banker's best reply
decomposes cell by cell, so the Player's problem is the linear program

    max  C(x) + Σ_j t_j   with   t_j <= draw_j(x),  t_j <= stand_j(x),  0 <= x <= 1,

where cells whose better action does not depend on ``x`` are folded into ``C`` first (exact
simplex over Fractions, :mod:`exactodds.games.simplex`). The Banker's optimal strategies are
the best replies to the Player's optimum that leave the Player no better pure deviation: a
polytope, found and checked for a single point by the same simplex (likewise the Player's).

>>> from exactodds.games.equilibrium import solve
>>> from exactodds.games.rules import CheminRules
>>> s = solve(build_form(Model.KEMENY_SNELL, None), CheminRules.named("free-everywhere"))
>>> s.value, s.player[0].draw, [(str(c), c.draw) for c in s.mixed_cells()]
(Fraction(-679568, 53094899), Fraction(9, 11), [('6 v stood', Fraction(859, 2288))])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, perm

from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD
from exactodds.games.rules import Model, column_name

__all__ = ["Cell", "Form", "Info", "build_form", "hand_text", "hand_total"]

Hand = tuple[int, ...]
"""A side's information: ``(total,)`` or the two card values ``(low, high)``."""


def hand_text(hand: Hand) -> str:
    """``5`` for a total, ``0+5`` for two cards."""
    return "+".join(map(str, hand))


def hand_total(hand: Hand) -> int:
    """The total of a hand."""
    return hand[0] if len(hand) == 1 else sum(hand) % 10


@dataclass(frozen=True)
class Info:
    """A Player information set and his probability of drawing there."""

    hand: Hand
    draw: Fraction
    free: bool

    def __str__(self) -> str:
        return hand_text(self.hand)


@dataclass(frozen=True)
class Cell:
    """A Banker cell (his hand, the Player's third card or stood) and his draw probability."""

    hand: Hand
    col: int
    draw: Fraction
    free: bool

    def __str__(self) -> str:
        return f"{hand_text(self.hand)} v {column_name(self.col)}"


Key = tuple[int, int, int]  # (player set, banker cell, banker draws 0/1)


@dataclass(frozen=True)
class Form:
    """The enumerated deal: card sequences won by each side, by information and actions."""

    model: Model
    universe: int
    shoe_text: str
    natural: tuple[int, int]
    players: tuple[Hand, ...]
    cells: tuple[tuple[Hand, int], ...]
    terms: Mapping[Key, tuple[int, int]]

    def payoff(
        self,
        x: Sequence[Fraction],
        y: Sequence[Fraction],
        commission: Fraction = Fraction(0),
    ) -> tuple[Fraction, Fraction]:
        """(Player's, Banker's) expected payoff per hand of strategies ``x`` and ``y``; the
        Banker pays ``commission`` on his wins (the Player's payoff is the same either way).

        Summed in integers over the common denominators of ``x`` and ``y`` (fast and exact).
        """
        dx = lcm(*(Fraction(v).denominator for v in x)) if x else 1
        dy = lcm(*(Fraction(v).denominator for v in y)) if y else 1
        xs = [int(v * dx) for v in x]
        ys = [int(v * dy) for v in y]
        pw = bw = 0
        for (i, j, b), (p, q) in self.terms.items():
            f = (xs[i] if self.cells[j][1] != STOOD else dx - xs[i]) * (ys[j] if b else dy - ys[j])
            pw += f * p
            bw += f * q
        scale = dx * dy
        pw_ = Fraction(pw, scale) + self.natural[0]
        bw_ = Fraction(bw, scale) + self.natural[1]
        return (pw_ - bw_) / self.universe, ((1 - commission) * bw_ - pw_) / self.universe

    def wins(self, x: Sequence[Fraction], y: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
        """(Player wins, Banker wins) of strategies ``x`` and ``y``, in card sequences out of
        :attr:`universe` (integers for pure strategies)."""
        player, _ = self.payoff(x, y)
        _, banker_even = self.payoff(x, y, Fraction(1))  # a Banker paid nothing: -P wins
        pw = -banker_even * self.universe
        return pw, pw - player * self.universe


def _value_counts(shoe: Shoe | None) -> tuple[int, ...]:
    return (4, 1, 1, 1, 1, 1, 1, 1, 1, 1) if shoe is None else shoe.value_counts


def build_form(model: Model, shoe: Shoe | None, replacement: bool | None = None) -> Form:
    """Enumerate the deal of ``shoe`` (``None``: an infinite shoe) under ``model``.

    Cards are dealt with replacement in the Kemeny-Snell model and for an infinite shoe.
    """
    replace = (model.replacement or shoe is None) if replacement is None else replacement
    dealer = _Dealer(list(_value_counts(shoe)), replace)
    pkey = _cards if model.player_sees_cards else _total
    bkey = _cards if model.banker_sees_cards else _total
    counts, take = dealer.counts, dealer.take
    for p1 in range(10):
        for p2 in range(p1, 10):
            wp = 2 * counts[p1] * counts[p2] if p1 != p2 else counts[p1] * (counts[p1] - take)
            if wp <= 0:
                continue
            counts[p1] -= take
            counts[p2] -= take
            for b1 in range(10):
                for b2 in range(b1, 10):
                    wb = (
                        2 * counts[b1] * counts[b2]
                        if b1 != b2
                        else counts[b1] * (counts[b1] - take)
                    )
                    if wb > 0:
                        counts[b1] -= take
                        counts[b2] -= take
                        dealer.deal(
                            wp * wb, pkey(p1, p2), bkey(b1, b2), (p1 + p2) % 10, (b1 + b2) % 10
                        )
                        counts[b1] += take
                        counts[b2] += take
            counts[p1] += take
            counts[p2] += take
    n = dealer.size
    return Form(
        model,
        n**6 if replace else perm(n, 6),
        "infinite shoe"
        if shoe is None
        else shoe.describe() + (", with replacement" if replace else ""),
        (dealer.natural[0], dealer.natural[1]),
        tuple(dealer.players),
        tuple(dealer.cells),
        {k: (v[0], v[1]) for k, v in dealer.terms.items()},
    )


def _cards(a: int, b: int) -> Hand:
    return (a, b)


def _total(a: int, b: int) -> Hand:
    return ((a + b) % 10,)


class _Dealer:
    """The enumeration's state: the cards left (by value) and the sums found so far."""

    def __init__(self, counts: list[int], replace: bool) -> None:
        self.counts = counts
        self.size = sum(counts)
        self.take = 0 if replace else 1
        n = self.size
        # sequences of the unused cards, so every deal counts six-card sequences
        self.r4, self.r5 = (n**2, n) if replace else ((n - 4) * (n - 5), n - 5)
        self.players: dict[Hand, int] = {}
        self.cells: dict[tuple[Hand, int], int] = {}
        self.terms: dict[Key, list[int]] = {}
        self.natural = [0, 0]

    def add(self, key: Key, p: int, q: int) -> None:
        if p or q:
            acc = self.terms.setdefault(key, [0, 0])
            acc[0] += p
            acc[1] += q

    def deal(self, w: int, ph: Hand, bh: Hand, pt: int, bt: int) -> None:
        """The rest of a deal of weight ``w`` once both hands are dealt: both actions of both
        sides after a deal without naturals."""
        counts, take, r4, r5 = self.counts, self.take, self.r4, self.r5
        if pt >= 8 or bt >= 8:
            if pt != bt:
                self.natural[0 if pt > bt else 1] += w * r4
            return
        i = self.players.setdefault(ph, len(self.players))
        j = self.cells.setdefault((bh, STOOD), len(self.cells))
        self.add((i, j, 0), w * r4 if pt > bt else 0, w * r4 if bt > pt else 0)
        p, q = _banker_draws(counts, pt, bt)
        self.add((i, j, 1), p * w * r5, q * w * r5)
        for p3 in range(10):
            n3 = counts[p3]
            if not n3:
                continue
            counts[p3] -= take
            pf = (pt + p3) % 10
            j = self.cells.setdefault((bh, p3), len(self.cells))
            w3 = w * n3
            self.add((i, j, 0), w3 * r5 if pf > bt else 0, w3 * r5 if bt > pf else 0)
            p, q = _banker_draws(counts, pf, bt)
            self.add((i, j, 1), p * w3, q * w3)  # six cards: nothing left to count
            counts[p3] += take


def _banker_draws(counts: list[int], pf: int, bt: int) -> tuple[int, int]:
    """Third cards (by count) with which a drawing Banker on ``bt`` loses, and wins, against a
    Player's final ``pf``."""
    p = q = 0
    for b3, n in enumerate(counts):
        f = (bt + b3) % 10
        if pf > f:
            p += n
        elif f > pf:
            q += n
    return p, q
