"""Baccarat Gold: punto banco where the Player bettor may hit or stand on 5, and a Banker facing
a drawn third card draws on 0-3, on 4-5 only against a 3-7, never on 6-7; Tie pays 9 to 1.

The Banker's play is fixed, so the choice on 5 is a decision, not a game: for each two-card 5
the bettor holds (0+5, 1+4, 2+3, 6+9, 7+8; a 0 is a ten or a face) the Player bet's expected
value when hitting and when standing is summed from the enumerated deal. The Banker and Tie bets
then have an edge for each policy of the Player bettor.

>>> g = baccarat_gold()
>>> [(str(d), d.hit) for d in g.decisions]  # 8 decks: hit every 5
[('0+5', True), ('1+4', True), ('2+3', True), ('6+9', True), ('7+8', True)]
>>> [(p.name, p.player_wins) for p in g.policies][1]
('always hit', 2232878486302976)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import perm

from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD, Tableau
from exactodds.games.chemin import Form, build_form, hand_text
from exactodds.games.equilibrium import Game
from exactodds.games.rules import CheminRules, Model

__all__ = ["GOLD", "GoldDecision", "GoldPolicy", "GoldResult", "baccarat_gold"]

GOLD = Tableau(
    "baccarat-gold",
    frozenset(range(6)),
    tuple(
        frozenset(range(11))
        if t <= 3
        else frozenset({STOOD, 3, 4, 5, 6, 7})
        if t <= 5
        else frozenset()
        for t in range(8)
    ),
    "Baccarat Gold with the Player hitting 5: after a Player third card the Banker draws on "
    "0-3, on 4-5 only against a 3-7, never on 6-7; when the Player stood, on 0-5.",
)
"""Baccarat Gold's tableau (the Player hitting 5); examples/baccarat-gold.toml holds the same."""

TIE_PAYS = 9
BANKER_PAYS = Fraction(19, 20)


@dataclass(frozen=True)
class GoldDecision:
    """The bettor's better play with a two-card 5 and the Player bet's EV given that hand."""

    hand: tuple[int, int]
    hit: bool
    ev_hit: Fraction
    ev_stand: Fraction

    def __str__(self) -> str:
        return hand_text(self.hand)


@dataclass(frozen=True)
class GoldPolicy:
    """A policy of the Player bettor on 5: the round's counts and each bet's house edge."""

    name: str
    player_wins: int
    banker_wins: int
    ties: int
    total: int

    @property
    def player_edge(self) -> Fraction:
        """House edge of the Player bet (pays 1 to 1)."""
        return Fraction(self.banker_wins - self.player_wins, self.total)

    @property
    def banker_edge(self) -> Fraction:
        """House edge of the Banker bet (pays 19 to 20)."""
        return Fraction(self.player_wins, self.total) - BANKER_PAYS * Fraction(
            self.banker_wins, self.total
        )

    @property
    def tie_edge(self) -> Fraction:
        """House edge of the Tie bet (pays 9 to 1)."""
        return 1 - (TIE_PAYS + 1) * Fraction(self.ties, self.total)


@dataclass(frozen=True)
class GoldResult:
    """The bettor's decisions on 5 and the three policies (optimal, always hit, always stand)."""

    shoe: str
    decisions: tuple[GoldDecision, ...]
    policies: tuple[GoldPolicy, ...]


def baccarat_gold(shoe: Shoe | None = None) -> GoldResult:
    """Baccarat Gold on ``shoe`` (default 8 decks)."""
    return _gold(shoe if shoe is not None else Shoe.decks(8))


@lru_cache(maxsize=8)
def _gold(cards: Shoe) -> GoldResult:
    """Baccarat Gold on ``cards`` (results are immutable: kept for the next call)."""
    form = build_form(Model.ETHIER_GAMEZ, cards)
    game = Game(form, CheminRules("baccarat-gold", frozenset({5}), frozenset(), GOLD))
    decisions = []
    best = list(game.pin_x)
    for i in sorted(game.free_x, key=lambda i: form.players[i]):
        hit = game.player_line(i, True, game.pin_y, set())[0]
        stand = game.player_line(i, False, game.pin_y, set())[0]
        weight = _weight(cards, form.players[i])
        a, b = form.players[i]
        decisions.append(GoldDecision((a, b), hit > stand, hit / weight, stand / weight))
        best[i] = Fraction(int(hit > stand))
    policies = []
    for name, x in (
        ("optimal", best),
        ("always hit", [Fraction(1) if i in game.free_x else v for i, v in enumerate(best)]),
        ("always stand", [Fraction(0) if i in game.free_x else v for i, v in enumerate(best)]),
    ):
        policies.append(_policy(form, name, x, game.pin_y))
    return GoldResult(cards.describe(), tuple(decisions), tuple(policies))


def _policy(form: Form, name: str, x: list[Fraction], y: list[Fraction]) -> GoldPolicy:
    pw, bw = form.wins(x, y)
    assert pw.denominator == bw.denominator == 1
    p, b = int(pw), int(bw)
    return GoldPolicy(name, p, b, form.universe - p - b, form.universe)


def _weight(shoe: Shoe, hand: tuple[int, ...]) -> int:
    """Card sequences where the Player holds ``hand`` and the Banker no natural (the hands
    where the bettor chooses), out of the six-card universe."""
    counts = list(shoe.value_counts)
    a, b = hand
    w = counts[a] * (counts[b] - (a == b)) * (1 if a == b else 2)
    counts[a] -= 1
    counts[b] -= 1
    banker = 0
    for c in range(10):
        for d in range(10):
            if (c + d) % 10 < 8:
                banker += counts[c] * (counts[d] - (c == d))
    n = shoe.size
    return w * banker * perm(n - 4, 2)
