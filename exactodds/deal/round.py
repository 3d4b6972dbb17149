"""One baccarat round, written once: its vocabulary, its encoding, and the drawing rule.

The tableau (:mod:`exactodds.deal.tableau`) is data; this module is its one interpreter. Naturals
end the deal; otherwise the player draws by its draw set and the banker by its matrix. Every dealer
drives the rule from here: the engine and the batch evaluator enumerate :func:`continuations`,
the shoe simulation and the Monte Carlo check deal by them, settle checks a given round with
:class:`RoundState`, and the math sheet prints :func:`player_action` / :func:`banker_action`.

A round is dealt card by card (like pokerkit's ``State``: ``can_x`` answers, ``verify_x`` raises
:class:`~exactodds.errors.RoundError` with the reason, ``x`` acts):

>>> from exactodds.deal.shoe import parse_cards
>>> state = RoundState()
>>> for card in parse_cards("3c Kd 2h 5s"):  # player 3 + 2 = 5, banker 0 + 5 = 5
...     side = state.deal(card)
>>> state.next_side, state.can_draw("banker")
('player', False)
>>> state.verify_stand("player")
Traceback (most recent call last):
...
exactodds.errors.RoundError: player has 5 and must draw a third card
>>> state.draw("player", parse_cards("4d")[0])
>>> state.verify_stand("banker")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactodds.errors.RoundError: banker has 5 and must draw a third card against a player third ...
>>> state.deal(parse_cards("9c")[0]), state.over, state.outcome.winner.value
('banker', True, 'player')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import IntEnum, StrEnum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

from exactodds.deal.shoe import RANKS, SUITS, Card
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import RoundError

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "FEATURES",
    "FEATURE_INDEX",
    "FEATURE_KINDS",
    "HAND_CODES",
    "OUTCOME_CODES",
    "Action",
    "Continuation",
    "FeatureKind",
    "Hand",
    "Outcome",
    "PairKind",
    "RoundState",
    "Side",
    "Winner",
    "banker_action",
    "continuations",
    "feature_record",
    "hand_code",
    "outcome_code",
    "pair_kind",
    "pair_kinds_by_code",
    "player_action",
]

Side = Literal["player", "banker"]
"""A hand of the round."""


# -- vocabulary ---------------------------------------------------------------------------------


class PairKind(IntEnum):
    """What the first two cards of a hand form.

    >>> Hand(8, None, PairKind.PERFECT).pair, Hand(8, None, PairKind.PAIR).perfect_pair
    (True, False)
    """

    NONE = 0
    PAIR = 1  # same rank, different suits
    PERFECT = 2  # same rank and suit


class Winner(StrEnum):
    """Result of the round; the value is the word used in conditions (``winner == tie``).

    >>> Outcome(Hand(7, None, PairKind.NONE), Hand(7, None, PairKind.NONE)).winner
    <Winner.TIE: 'tie'>
    """

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def pair_kind(first: Card, second: Card) -> PairKind:
    """The pair kind of a hand's first two cards: same rank is a pair (a ten and a king are not),
    same rank and suit a perfect pair. A card without a suit never makes a perfect pair.

    >>> from exactodds.deal.shoe import parse_cards
    >>> [pair_kind(*parse_cards(two)) for two in ("9s 9s", "9s 9h", "9 9", "Ts Ks")]
    [<PairKind.PERFECT: 2>, <PairKind.PAIR: 1>, <PairKind.PAIR: 1>, <PairKind.NONE: 0>]
    """
    if first.rank != second.rank:
        return PairKind.NONE
    if first.suit is not None and first.suit == second.suit:
        return PairKind.PERFECT
    return PairKind.PAIR


@lru_cache(maxsize=1)
def pair_kinds_by_code() -> tuple[tuple[PairKind, ...], ...]:
    """:func:`pair_kind` of every two cards given as card codes ``rank·4 + suit`` (the order of
    a shoe's counts, flattened), for the dealers that work on codes.

    >>> kinds = pair_kinds_by_code()
    >>> kinds[4 * 8 + 3][4 * 8 + 3], kinds[4 * 8 + 3][4 * 8 + 2], kinds[0][4]  # 9s 9s, 9s 9h, Ac 2c
    (<PairKind.PERFECT: 2>, <PairKind.PAIR: 1>, <PairKind.NONE: 0>)
    """
    cards = [Card(rank, suit) for rank in range(len(RANKS)) for suit in range(len(SUITS))]
    return tuple(tuple(pair_kind(a, b) for b in cards) for a in cards)


def _natural(total: int) -> bool:
    """A two-card total of 8 or 9: the deal stops after the first four cards."""
    return total >= 8


class Hand(NamedTuple):
    """One hand of a dealt round: two-card total, third card value (or None) and pair kind.

    >>> h = Hand(5, 9, PairKind.NONE)  # 5 draws a 9: final total 4
    >>> h.total, h.cards, h.natural
    (4, 3, False)
    """

    initial: int
    third: int | None
    pair_kind: PairKind

    @property
    def total(self) -> int:
        """Final total 0..9."""
        return self.initial if self.third is None else (self.initial + self.third) % 10

    @property
    def cards(self) -> int:
        """Number of cards in the hand (2 or 3)."""
        return 2 if self.third is None else 3

    @property
    def natural(self) -> bool:
        """Two-card total of 8 or 9."""
        return _natural(self.initial)

    @property
    def pair(self) -> bool:
        """First two cards of equal rank (a ten and a king are not a pair)."""
        return self.pair_kind != PairKind.NONE

    @property
    def perfect_pair(self) -> bool:
        """First two cards of equal rank and suit."""
        return self.pair_kind == PairKind.PERFECT

    @property
    def code(self) -> int:
        """This hand as an int below :data:`HAND_CODES` (see :func:`hand_code`)."""
        return hand_code(self.initial, STOOD if self.third is None else self.third, self.pair_kind)

    @classmethod
    def from_code(cls, code: int) -> Hand:
        """The hand of a hand code (one shared object per hand)."""
        return _HANDS[code]


# -- the outcome code ---------------------------------------------------------------------------
#
# An outcome as one small int, for dictionaries and numpy: each hand is the digit triple
# (two-card total 0-9, third card 0-9 or STOOD for none, pair kind 0-2), and the outcome is the
# player's hand code followed by the banker's. None (a hand without a third card) becomes STOOD
# here and only here.

HAND_CODES = 10 * 11 * 3
"""Number of hand codes: (two-card total · 11 + third card or STOOD) · 3 + pair kind."""

OUTCOME_CODES = HAND_CODES * HAND_CODES
"""Number of outcome codes: player hand code · :data:`HAND_CODES` + banker hand code."""

_HANDS: tuple[Hand, ...] = tuple(
    Hand(initial, None if third == STOOD else third, PairKind(kind))
    for initial in range(10)
    for third in range(11)
    for kind in range(3)
)


@overload
def hand_code(initial: int, third: int, kind: int) -> int: ...
@overload
def hand_code(initial: IntArray, third: IntArray, kind: IntArray) -> IntArray: ...
def hand_code(initial: Any, third: Any, kind: Any) -> Any:
    """The code of a hand with this two-card total, third card (:data:`STOOD` for none) and
    pair kind; works elementwise on numpy integer arrays.

    >>> Hand.from_code(hand_code(5, STOOD, 1))
    Hand(initial=5, third=None, pair_kind=<PairKind.PAIR: 1>)
    """
    return (initial * 11 + third) * 3 + kind


@overload
def outcome_code(player: int, banker: int) -> int: ...
@overload
def outcome_code(player: IntArray, banker: IntArray) -> IntArray: ...
def outcome_code(player: Any, banker: Any) -> Any:
    """The outcome code of a player and a banker hand code; works elementwise on numpy arrays.

    >>> code = outcome_code(hand_code(5, 4, 0), hand_code(7, STOOD, 0))  # 5 draws a 4; 7 stands
    >>> o = Outcome.from_code(code)
    >>> o.player.total, o.banker.third, o.winner.value, o.code == code
    (9, None, 'player', True)
    """
    return player * HAND_CODES + banker


class Outcome(NamedTuple):
    """A round as the engine distinguishes it; every docs/rules.md §4 feature is derived from this.

    >>> o = Outcome(Hand(4, 5, PairKind.NONE), Hand(0, 0, PairKind.NONE))  # 9 against 0
    >>> o.winner, o.margin, o.cards
    (<Winner.PLAYER: 'player'>, 9, 6)
    """

    player: Hand
    banker: Hand

    @property
    def winner(self) -> Winner:
        """Who won, or a tie."""
        p, b = self.player.total, self.banker.total
        return Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE

    @property
    def margin(self) -> int:
        """Difference of the final totals (0 on a tie)."""
        return abs(self.player.total - self.banker.total)

    @property
    def cards(self) -> int:
        """Cards used in the round (4–6)."""
        return self.player.cards + self.banker.cards

    @property
    def code(self) -> int:
        """This outcome as an int below :data:`OUTCOME_CODES` (see :func:`outcome_code`)."""
        return outcome_code(self.player.code, self.banker.code)

    @classmethod
    def from_code(cls, code: int) -> Outcome:
        """The outcome of an outcome code (hands are shared, not rebuilt).

        >>> Outcome.from_code(outcome_code(hand_code(8, STOOD, 1), hand_code(7, STOOD, 0))).player
        Hand(initial=8, third=None, pair_kind=<PairKind.PAIR: 1>)
        """
        player, banker = divmod(code, HAND_CODES)
        return cls(_HANDS[player], _HANDS[banker])


# -- features: what a bet may look at (rules.md §4) ------------------------------------------------


class FeatureKind(StrEnum):
    """The values a feature takes (conditions are type-checked against it)."""

    INTEGER = "integer"
    BOOLEAN = "true/false"
    WINNER = "player/banker/tie"
    THIRD = "0-9 or none"


def _hand_features(side: Side) -> dict[str, Callable[[Outcome], object]]:
    def hand(o: Outcome) -> Hand:
        return o.player if side == "player" else o.banker

    winner = Winner(side)
    return {
        f"{side}.total": lambda o: hand(o).total,
        f"{side}.cards": lambda o: hand(o).cards,
        f"{side}.initial": lambda o: hand(o).initial,
        f"{side}.natural": lambda o: hand(o).natural,
        f"{side}.third": lambda o: hand(o).third,
        f"{side}.pair": lambda o: hand(o).pair,
        f"{side}.perfect_pair": lambda o: hand(o).perfect_pair,
        f"{side}.wins": lambda o: o.winner == winner,
    }


FEATURES: Mapping[str, Callable[[Outcome], object]] = {
    **_hand_features("player"),
    **_hand_features("banker"),
    "winner": lambda o: o.winner.value,
    "margin": lambda o: o.margin,
    "cards": lambda o: o.cards,
}
"""Every round feature a bet may look at (rules.md §4), by name, as a function of an outcome."""

FEATURE_KINDS: Mapping[str, FeatureKind] = {
    "winner": FeatureKind.WINNER,
    "margin": FeatureKind.INTEGER,
    "cards": FeatureKind.INTEGER,
    **{
        f"{side}.{name}": kind
        for side in ("player", "banker")
        for name, kind in (
            ("total", FeatureKind.INTEGER),
            ("cards", FeatureKind.INTEGER),
            ("initial", FeatureKind.INTEGER),
            ("natural", FeatureKind.BOOLEAN),
            ("third", FeatureKind.THIRD),
            ("pair", FeatureKind.BOOLEAN),
            ("perfect_pair", FeatureKind.BOOLEAN),
            ("wins", FeatureKind.BOOLEAN),
        )
    },
}
"""What values each feature of :data:`FEATURES` takes.

>>> FEATURE_KINDS["player.third"].value, set(FEATURE_KINDS) == set(FEATURES)
('0-9 or none', True)
"""

FEATURE_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(FEATURES)}
"""Position of each feature in a :func:`feature_record`."""


def feature_record(outcome: Outcome) -> tuple[object, ...]:
    """All features of an outcome as a tuple, in :data:`FEATURE_INDEX` order: the value of
    each of :data:`FEATURES`, the features of each hand looked up once per hand.

    >>> o = Outcome(Hand(8, None, PairKind.PAIR), Hand(7, None, PairKind.NONE))
    >>> r = feature_record(o)
    >>> r[FEATURE_INDEX["player.natural"]], r[FEATURE_INDEX["winner"]], r[FEATURE_INDEX["margin"]]
    (True, 'player', 1)
    >>> r == tuple(get(o) for get in FEATURES.values())
    True
    """
    player, banker = outcome
    p, b = player.total, banker.total
    winner = Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE
    return (
        *_hand_record(player),
        winner is Winner.PLAYER,
        *_hand_record(banker),
        winner is Winner.BANKER,
        winner.value,
        abs(p - b),
        player.cards + banker.cards,
    )


@cache  # a few hundred hands exist (HAND_CODES)
def _hand_record(hand: Hand) -> tuple[object, ...]:
    """The features of one hand, in the order of :func:`_hand_features` (``wins`` apart)."""
    return (
        hand.total,
        hand.cards,
        hand.initial,
        hand.natural,
        hand.third,
        hand.pair,
        hand.perfect_pair,
    )


# -- the rule -----------------------------------------------------------------------------------


class Action(StrEnum):
    """What a hand does after the first four cards."""

    DRAW = "draw"
    STAND = "stand"
    NATURAL = "natural"  # a two-card 8 or 9: the deal stops


def player_action(tableau: Tableau, total: int) -> Action:
    """What the player does on a two-card ``total`` (when the banker has no natural).

    >>> [player_action(BUILTIN["punto-banco"], t).value for t in (5, 6, 8)]
    ['draw', 'stand', 'natural']
    """
    if _natural(total):
        return Action.NATURAL
    return Action.DRAW if total in tableau.player else Action.STAND


def banker_action(tableau: Tableau, total: int, player_third: int | None) -> Action:
    """What the banker does on a two-card ``total`` after the player's third card (None: the
    player stood), when the player has no natural.

    >>> pb = BUILTIN["punto-banco"]
    >>> [banker_action(pb, 3, third).value for third in (8, 9, None)]
    ['stand', 'draw', 'draw']
    >>> banker_action(BUILTIN["mini"], 5, None).value, banker_action(pb, 9, 0).value
    ('stand', 'natural')
    """
    if _natural(total):
        return Action.NATURAL
    column = STOOD if player_third is None else player_third
    return Action.DRAW if column in tableau.banker[total] else Action.STAND


class Continuation(NamedTuple):
    """What follows the first four cards, for one pair of two-card totals.

    ``banker_draws`` is indexed by the player's third card 0..9, or :data:`STOOD` when the
    player stood; entries the player cannot reach are False, and a natural draws nothing.
    """

    natural: bool
    player_draws: bool
    banker_draws: tuple[bool, ...]

    @property
    def player_thirds(self) -> tuple[int, ...]:
        """The player's possible third cards: every value 0..9, or only :data:`STOOD`.

        >>> [len(continuations(BUILTIN["punto-banco"])[p][0].player_thirds) for p in (5, 6)]
        [10, 1]
        """
        return tuple(range(10)) if self.player_draws else (STOOD,)


@lru_cache(maxsize=32)
def continuations(tableau: Tableau) -> tuple[tuple[Continuation, ...], ...]:
    """The continuation of every first four cards under ``tableau``, by [player total][banker
    total]: the rule as the counting engines and the dealers use it, computed once per tableau.

    >>> table = continuations(BUILTIN["punto-banco"])
    >>> table[5][3].player_draws, table[5][3].banker_draws[8], table[5][3].banker_draws[9]
    (True, False, True)
    >>> table[6][5].banker_draws[STOOD], table[8][0].natural, table[8][0].banker_draws[STOOD]
    (True, True, False)
    """
    out = []
    for p in range(10):
        row = []
        for b in range(10):
            player = player_action(tableau, p)
            natural = Action.NATURAL in (player, banker_action(tableau, b, None))
            draws = not natural and player is Action.DRAW
            banker = [False] * 11
            if not natural:
                for x in range(10) if draws else (STOOD,):
                    third = None if x == STOOD else x
                    banker[x] = banker_action(tableau, b, third) is Action.DRAW
            row.append(Continuation(natural, draws, tuple(banker)))
        out.append(tuple(row))
    return tuple(out)


# -- the round, card by card --------------------------------------------------------------------


def _refuse(reason: str | None) -> None:
    if reason is not None:
        raise RoundError(reason)


def _against(third: int | None) -> str:
    if third is None:
        return "when the player stood"
    return f"against a player third card of {third}"


class RoundState:
    """A round being dealt under a tableau: player, banker, player, banker, then the third cards
    the tableau calls for. Only legal rounds can be built; each refusal names its reason.

    >>> from exactodds.deal.shoe import parse_cards
    >>> state = RoundState(BUILTIN["mini"])
    >>> for card in parse_cards("7c 5h Kd Kc"):
    ...     side = state.deal(card)
    >>> state.over, state.outcome.banker  # mini: a banker 5 stands after a player stand
    (True, Hand(initial=5, third=None, pair_kind=<PairKind.NONE: 0>))
    >>> state.verify_draw("banker")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: banker has 5 and must stand when the player stood (mini rules)
    """

    __slots__ = ("_cards", "_table", "tableau")

    def __init__(self, tableau: Tableau = BUILTIN["punto-banco"]) -> None:
        self.tableau = tableau
        self._table = continuations(tableau)
        self._cards: dict[Side, list[Card]] = {"player": [], "banker": []}

    @property
    def player(self) -> tuple[Card, ...]:
        """The player's cards so far."""
        return tuple(self._cards["player"])

    @property
    def banker(self) -> tuple[Card, ...]:
        """The banker's cards so far."""
        return tuple(self._cards["banker"])

    def _dealt(self) -> int:
        return len(self._cards["player"]) + len(self._cards["banker"])

    def _initial(self, side: Side) -> int:
        first, second = self._cards[side][:2]
        return (first.value + second.value) % 10

    def _player_third(self) -> int | None:
        cards = self._cards["player"]
        return cards[2].value if len(cards) == 3 else None

    def _continuation(self) -> Continuation:
        return self._table[self._initial("player")][self._initial("banker")]

    @property
    def next_side(self) -> Side | None:
        """The hand the next card goes to, or None when the round is over."""
        dealt = self._dealt()
        if dealt < 4:
            return "player" if dealt % 2 == 0 else "banker"
        cont = self._continuation()
        if len(self._cards["player"]) == 2 and cont.player_draws:
            return "player"
        third = self._player_third()
        if len(self._cards["banker"]) == 2 and cont.banker_draws[STOOD if third is None else third]:
            return "banker"
        return None

    @property
    def over(self) -> bool:
        """Whether the round is complete (no hand draws any more)."""
        return self.next_side is None

    def _rules(self) -> str:
        return f"({self.tableau.name} rules)"

    def _why_not_draw(self, side: Side) -> str | None:
        if self._dealt() < 4:
            return "the first four cards are not dealt yet"
        if self.next_side == side:
            return None
        p, b = self._initial("player"), self._initial("banker")
        if self._continuation().natural:
            who, total = ("player", p) if _natural(p) else ("banker", b)
            return (
                f"{who} has a natural {total}, so the deal stops: "
                f"the {side} cannot draw a third card"
            )
        if len(self._cards[side]) == 3:
            return f"the {side} already has a third card"
        if side == "player":
            return f"player has {p} and must stand (no third card)"
        if self.next_side == "player":
            return "the banker cannot draw before the player's third card"
        return f"banker has {b} and must stand {_against(self._player_third())} {self._rules()}"

    def can_draw(self, side: Side) -> bool:
        """Whether ``side`` draws the next card (a third card) now."""
        return self._why_not_draw(side) is None

    def verify_draw(self, side: Side) -> None:
        """Raise :class:`RoundError` with the reason unless ``side`` draws the next card now."""
        _refuse(self._why_not_draw(side))

    def draw(self, side: Side, card: Card) -> None:
        """Give ``side`` its third card, after :meth:`verify_draw`."""
        self.verify_draw(side)
        self._cards[side].append(card)

    def _why_not_stand(self, side: Side) -> str | None:
        if self._dealt() < 4:
            return "the first four cards are not dealt yet"
        if self.next_side != side:
            return None
        if side == "player":
            return f"player has {self._initial('player')} and must draw a third card"
        b, third = self._initial("banker"), self._player_third()
        return f"banker has {b} and must draw a third card {_against(third)} {self._rules()}"

    def can_stand(self, side: Side) -> bool:
        """Whether ``side``'s hand may end with the cards it holds (it need not draw)."""
        return self._why_not_stand(side) is None

    def verify_stand(self, side: Side) -> None:
        """Raise :class:`RoundError` with the reason if ``side`` must still draw a card."""
        _refuse(self._why_not_stand(side))

    def deal(self, card: Card) -> Side:
        """Give the next card to the hand it goes to (:attr:`next_side`); return that hand."""
        side = self.next_side
        if side is None:
            raise RoundError(f"the round is over: card {str(card)!r} is not dealt")
        self._cards[side].append(card)
        return side

    @property
    def outcome(self) -> Outcome:
        """The finished round as an :class:`Outcome` (raises with the reason while a hand must
        still draw)."""
        side = self.next_side
        if side is not None:
            self.verify_stand(side)

        def hand(side: Side) -> Hand:
            cards = self._cards[side]
            third = cards[2].value if len(cards) == 3 else None
            return Hand(self._initial(side), third, pair_kind(cards[0], cards[1]))

        return Outcome(hand("player"), hand("banker"))
