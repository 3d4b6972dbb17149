"""Play one given round card by card and settle bets on it.

The cards must form a legal round under the tableau: they are played through the round
module's :class:`~exactodds.deal.round.RoundState` (naturals stop the deal, the player draws exactly
when its two-card total is in the tableau's draw set, and the banker draws exactly as the matrix
says for the player's third card or a player stand). Anything else is refused with the reason.
The round becomes an :class:`~exactodds.deal.round.Outcome`, so each bet is settled by the same rows
the odds are computed from.

>>> r = check_round("P: 9s 9h | B: Kd 7c")
>>> r.outcome.player.total, r.outcome.banker.total, r.outcome.winner.value, r.outcome.player.pair
(8, 7, 'player', True)
>>> check_round("P: 3c 2d | B: Kd 7c")
Traceback (most recent call last):
...
exactodds.errors.RoundError: player has 5 and must draw a third card
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.bets.bundled import display_path
from exactodds.bets.payout import Notation, format_number
from exactodds.bets.paytable import Bet, Paytable, Row
from exactodds.bets.progressive import JackpotPayout, amount_text
from exactodds.bets.settle_live import (
    Drawn,
    drawn_data,
    live_lines,
    parse_multipliers,
    parse_peeks,
    peek_multiple,
    row_product,
)
from exactodds.bets.settle_stakes import check_stake, parse_stake
from exactodds.bets.settle_text import hand_line, money_result, result_sentence
from exactodds.deal.round import Hand, Outcome, RoundState, Side
from exactodds.deal.shoe import Card, Shoe, parse_cards
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import (
    ExactOddsError,
    RoundError,
    ShoeError,
    about,
    require,
)
from exactodds.formats import Format
from exactodds.numbers import exact

__all__ = [
    "DealtRound",
    "SettledRound",
    "Settlement",
    "check_round",
    "check_stake",
    "format_round_cards",
    "money_result",
    "parse_round_cards",
    "parse_stake",
    "render_settled",
    "result_sentence",
    "round_data",
    "settle_bet",
    "settle_round",
]

_LABELS = {
    "p": "player",
    "player": "player",
    "punto": "player",
    "b": "banker",
    "banker": "banker",
    "banco": "banker",
}


def parse_round_cards(
    text: str, tableau: Tableau = BUILTIN["punto-banco"]
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Player and banker cards from ``"P: 9s 9h | B: Kd 7c"`` or from cards in deal order.

    In deal order (``"9s Kd 9h 7c"``) the first four cards go player, banker, player, banker;
    a fifth goes to the player if the player draws, and any other to the banker.

    >>> p, b = parse_round_cards("Ac 2s Kh Jc Qd 6h")
    >>> [str(c) for c in p], [str(c) for c in b]
    (['Ac', 'Kh', 'Qd'], ['2s', 'Jc', '6h'])
    """
    if ":" not in text:
        cards = list(parse_cards(text))
        if len(cards) < 4:
            raise RoundError(
                f"cards {text!r}: a round needs at least four cards "
                "(give them in deal order, or as 'P: … | B: …')"
            )
        player, banker, extra = [cards[0], cards[2]], [cards[1], cards[3]], cards[4:]
        state = RoundState(tableau)
        for card in cards[:4]:
            state.deal(card)
        if extra and state.can_draw("player"):
            player.append(extra.pop(0))
        if extra:
            banker.append(extra.pop(0))
        if extra:
            raise RoundError(f"cards {text!r}: too many cards for one round")
        return tuple(player), tuple(banker)
    hands: dict[str, tuple[Card, ...]] = {}
    for segment in re.split(r"[|;]", text):
        if not segment.strip():
            continue
        label, sep, rest = segment.partition(":")
        side = _LABELS.get(label.strip().lower())
        if not sep or side is None:
            raise RoundError(f"cannot read hand {segment.strip()!r} (write 'P: 9s 9h | B: Kd 7c')")
        if side in hands:
            raise RoundError(f"cards {text!r} give the {side} hand twice")
        hands[side] = parse_cards(rest)
    for side in ("player", "banker"):
        if side not in hands:
            raise RoundError(f"cards {text!r} have no {side} hand (write 'P: 9s 9h | B: Kd 7c')")
    return hands["player"], hands["banker"]


def format_round_cards(player: Sequence[Card], banker: Sequence[Card]) -> str:
    """The hands in the notation :func:`parse_round_cards` reads (``"P: 9s 9h | B: Kd 7c"``).

    >>> format_round_cards(*parse_round_cards("9s Kd 9h 7c"))
    'P: 9s 9h | B: Kd 7c'
    """
    return f"P: {' '.join(map(str, player))} | B: {' '.join(map(str, banker))}"


def _play(player: Sequence[Card], banker: Sequence[Card], tableau: Tableau) -> Outcome:
    """Play the hands through :class:`RoundState`; raise :class:`RoundError` with the reason if
    they are not a legal round."""
    hands: tuple[tuple[Side, Sequence[Card]], ...] = (("player", player), ("banker", banker))
    for side, cards in hands:
        if len(cards) not in (2, 3):
            raise RoundError(f"{side} has {len(cards)} card(s); a hand has two or three")
    state = RoundState(tableau)
    for card in (player[0], banker[0], player[1], banker[1]):
        state.deal(card)
    for side, cards in hands:
        if len(cards) == 3:
            state.draw(side, cards[2])
        else:
            state.verify_stand(side)
    return state.outcome


@dataclass(frozen=True)
class DealtRound:
    """A legal round: the cards of each hand, the tableau, and the engine's outcome.

    >>> r = check_round("P: 9 9 | B: Kd 7c")
    >>> r.outcome.player.pair_kind, r.suitless_pair  # a pair, but perfect or not is unknown
    (<PairKind.PAIR: 1>, 'player')
    """

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    tableau: Tableau

    @property
    def outcome(self) -> Outcome:
        """The round as the engine counts it."""
        return _play(self.player, self.banker, self.tableau)

    @property
    def suitless_pair(self) -> str | None:
        """The hand whose first two cards share a rank without both suits given, if any."""
        for side, cards in (("player", self.player), ("banker", self.banker)):
            a, b = cards[0], cards[1]
            if a.rank == b.rank and (a.suit is None or b.suit is None):
                return side
        return None


def check_round(
    cards: str | tuple[Sequence[Card], Sequence[Card]],
    tableau: Tableau = BUILTIN["punto-banco"],
    shoe: Shoe | None = None,
) -> DealtRound:
    """Check that the cards form a legal round under ``tableau`` (and can come from ``shoe``).

    After a player stand the banker draws on 5 under punto-banco but stands under mini:

    >>> check_round("P: 7c Kd | B: 5h Kc", BUILTIN["mini"]).outcome.banker
    Hand(initial=5, third=None, pair_kind=<PairKind.NONE: 0>)
    >>> check_round("P: 7c Kd | B: 5h Kc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: banker has 5 and must draw a third card when the player ...
    >>> check_round("Kd Kd 9h 7c", shoe=Shoe.decks(1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: these cards cannot all come from the shoe: cannot remove Kd: ...
    """
    player, banker = parse_round_cards(cards, tableau) if isinstance(cards, str) else cards
    _play(player, banker, tableau)
    if shoe is not None:
        try:
            shoe.counts_after([*player, *banker])
        except ShoeError as exc:
            raise RoundError(f"these cards cannot all come from the shoe: {exc}") from None
    return DealtRound(tuple(player), tuple(banker), tableau)


@dataclass(frozen=True)
class Settlement:
    """One bet settled: the row that matched and the money won (+), pushed (0) or lost (−).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> banker = load_paytable(default_paytable()).bet("banker")
    >>> s = Settlement(banker, Fraction(100), banker.rows[0])  # Banker wins, 0.95:1
    >>> s.amount, s.returned
    (Fraction(95, 1), Fraction(195, 1))
    """

    bet: Bet
    stake: Fraction
    row: Row
    product: int = 1
    """The product of the drawn multipliers on a multiplied row's group (1: none)."""
    multiple: int = 1
    """The stake multiple a peek bet played (1: kept)."""

    @property
    def amount(self) -> Fraction:
        """Net money result, after the bet's rounding at this stake, the product, the raise
        and the fee (charged on the base stake, never returned): Banker ×8, 5%: +7.95 − fee."""
        net = self.bet.row_net(self.row, self.stake)
        if self.product != 1:
            net = self.row.net_at(self.product)
        return self.stake * (self.multiple * net - self.bet.fee)

    @property
    def paid(self) -> Fraction:
        """Money paid for the bet: the stake (raised by a peek) and the fee."""
        return self.stake * (self.multiple + self.bet.fee)

    @property
    def returned(self) -> Fraction:
        """What the player gets back: the money paid plus the net result (a fee never)."""
        return self.paid + self.amount

    @property
    def pays(self) -> str:
        """The row's payout as stated; a jackpot row's with the meter it pays (the reset)."""
        pays = self.row.pays
        progressive = self.bet.progressive
        if isinstance(pays, JackpotPayout) and progressive is not None:
            return f"{pays.text} at meter {amount_text(progressive.meter(pays.level).reset)}"
        return pays.stated(Notation.BOTH)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the bet, stake, event, pays, net and returns (exact values ``"p/q"``);
        a live bet's fee, product of multipliers, stake multiple, money paid and net per paid."""
        out: dict[str, Any] = {
            "bet": self.bet.id,
            "name": self.bet.name,
            "stake": exact(self.stake),
            "event": self.row.event,
            "pays": self.pays,
            "net": exact(self.amount),
            "returns": exact(self.returned),
        }
        if self.bet.live:
            out |= {
                "fee": exact(self.stake * self.bet.fee),
                "product": self.product if self.row.multiply is not None else None,
                "multiple": self.multiple,
                "paid": exact(self.paid),
                "net_per_paid": exact(self.amount / self.paid),
            }
        return out


@dataclass(frozen=True)
class SettledRound:
    """A legal round and the settlement of every bet placed on it.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = settle_round(load_paytable(default_paytable()), "P: 4c 4d | B: 8h Kc",
    ...                  [("tie", 10), ("either_pair", 10), ("banker", 20)])
    >>> [str(x.amount) for x in s.settlements], s.net  # 8:1 tie, 5:1 pair, banker pushes
    (['80', '50', '0'], Fraction(130, 1))
    """

    paytable: Paytable
    round: DealtRound
    settlements: tuple[Settlement, ...]
    shoe: Shoe
    """The shoe the round was dealt from (the paytable's unless another was given)."""
    drawn: Drawn | None = None
    """The multiplier cards drawn, per table (None: not given, so none drawn)."""

    @property
    def net(self) -> Fraction:
        """Total money result of all bets."""
        return sum((s.amount for s in self.settlements), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the paytable and rules used, the round (each hand's cards, two-card
        total, third card, final total, natural and pairs; winner and margin) and per bet its
        stake, the row that settled it (event, pays) and the money won or lost (``net``) and
        returned, exact values as ``"p/q"`` strings.

        >>> from exactodds.bets.loader import load_paytable
        >>> s = settle_round(load_paytable("classic"), "P: 9s 9h | B: Kd 7c", [("banker", 100)])
        >>> data = s.to_json()
        >>> data["round"]["cards"], data["round"]["winner"], data["round"]["player"]["total"]
        ('P: 9s 9h | B: Kd 7c', 'player', 8)
        >>> for key, value in data["bets"][0].items():
        ...     print(key, value)
        bet banker
        name Banker
        stake 100/1
        event Player wins
        pays lose
        net -100/1
        returns 0/1
        """
        t = self.paytable
        return {
            "bets": [x.to_json() for x in self.settlements],
            "net": exact(self.net),
            "round": round_data(self.round),
            "paytable": t.name,
            "file": display_path(t.path) or None,
            "sha256": t.sha256,
            "shoe": self.shoe.describe(),
            "rules": self.round.tableau.data(),
        } | ({"multipliers": drawn_data(self.drawn)} if self.paytable.multipliers else {})


def settle_round(
    paytable: Paytable,
    cards: str | tuple[Sequence[Card], Sequence[Card]],
    bets: Sequence[tuple[str, Fraction | int | str]] = (),
    tableau: Tableau | None = None,
    shoe: Shoe | None = None,
    *,
    multipliers: Drawn | str | Sequence[str] | None = None,
    peeks: Mapping[str, int] | str | Sequence[str] | None = None,
) -> SettledRound:
    """Deal ``cards`` from ``shoe`` under ``tableau`` (defaults: the paytable's) and settle
    ``bets``. The cards must all be in the shoe: a round of a sheet computed on another shoe
    (``report --decks 2 --remove …``) is replayed with that shoe. ``multipliers``: the drawn
    multiplier cards (``"Ah:8 Kd:2"``, as :func:`~exactodds.bets.settle_live.parse_multipliers`
    reads them, or its result; None: none drawn); ``peeks``: the stake multiple each peek bet
    played (``"double"``, ``["banker=triple"]``, or ``{"banker": 3}``; default keep).

    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("tests/data/live-lightning.toml")
    >>> s = settle_round(table, "Kh Ah Qs 5d 2c", [("banker", 1)], multipliers="Ah:8 Kd:2")
    >>> s.settlements[0].product, s.settlements[0].amount  # 8 − 5% − the 20% fee
    (8, Fraction(31, 4))

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> table = load_paytable(default_paytable())
    >>> s = settle_round(table, "P: 9s 9h | B: Kd 7c",
    ...                  [("player", 100), ("banker", 100), ("player_pair", 100)])
    >>> [(x.row.event, str(x.amount)) for x in s.settlements]
    [('Player wins', '100'), ('Player wins', '-100'), ('Player pair', '1100')]
    >>> one_nine_of_spades = Shoe.decks(8).remove(" ".join(["9s"] * 7))
    >>> settle_round(table, "P: 9s 9s | B: Kd 7c", shoe=one_nine_of_spades)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.RoundError: these cards cannot all come from the shoe: cannot remove 9s: ...
    """
    require(paytable, (Paytable,), "paytable")
    require(tableau, (Tableau, type(None)), "tableau")
    require(shoe, (Shoe, type(None)), "shoe")
    require(bets, (list, tuple), "bets")
    require(cards, (str, tuple), "cards")
    if isinstance(cards, tuple) and len(cards) != 2:
        raise TypeError(
            f"cards must be a string or a (player, banker) pair, not {len(cards)} items"
        )
    drawn = _drawn(paytable, multipliers)
    decisions: Mapping[str, int] = {}
    if isinstance(peeks, str | list | tuple):
        decisions = parse_peeks([peeks] if isinstance(peeks, str) else peeks)
    elif isinstance(peeks, Mapping):
        decisions = peeks
    rules = tableau or paytable.tableau
    shoe = shoe or paytable.shoe
    dealt = check_round(cards, rules, shoe)
    placed: list[Settlement] = []
    for item in bets:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            raise TypeError(f"bets must be (bet id, stake) pairs, not {item!r:.60}")
        bet_id, stake = item
        bet = paytable.round_bet(bet_id, "settling one round")
        amount = stake if isinstance(stake, Fraction) else parse_stake(f"{bet_id}={stake}")[1]
        check_stake(bet, amount)
        row = settle_bet(bet, dealt)
        product = 1
        if row.multiply is not None:
            product = row_product(row.multiply, dealt.player, dealt.banker, drawn or {})
        placed.append(Settlement(bet, amount, row, product, peek_multiple(bet, decisions)))
    side = dealt.suitless_pair
    if side is not None:
        looks = [s.bet.id for s in placed if any("perfect_pair" in f for f in s.bet.features)]
        if looks:
            raise RoundError(
                f"give the suits of the {side}'s first two cards: bet {looks[0]!r} "
                "depends on whether they are a perfect pair"
            )
    if decisions and not any(s.bet.peek is not None for s in placed):
        raise about(ExactOddsError("peeks: none of the bets placed has a peek"), "peeks")
    for bet_id in decisions.keys() - {s.bet.id for s in placed} - {""}:
        message = f"peeks: bet {bet_id!r} is not placed"
        raise about(ExactOddsError(message), "peeks")
    return SettledRound(paytable, dealt, tuple(placed), shoe, drawn)


def _drawn(paytable: Paytable, multipliers: Drawn | str | Sequence[str] | None) -> Drawn | None:
    """The drawn multiplier cards, read from ``"Ah:8 Kd:2"`` texts where given so."""
    if multipliers is None or isinstance(multipliers, Mapping):
        return multipliers
    texts = [multipliers] if isinstance(multipliers, str) else list(multipliers)
    return parse_multipliers(texts, paytable.multipliers)


def settle_bet(bet: Bet, dealt: DealtRound) -> Row:
    """The row ``bet`` settles on for the dealt round (the cards where the bet reads them or has
    an offer, else the outcome); a round where the bet is not offered is refused.

    >>> from exactodds.bets.loader import load_paytable
    >>> settle_bet(load_paytable("classic").bet("banker"), check_round("P: 9s 9h | B: Kd 7c")).event
    'Player wins'
    """
    return _card_row(bet, dealt) if bet.settled_from_cards else bet.settle(dealt.outcome)


def _card_row(bet: Bet, dealt: DealtRound) -> Row:
    """The row settling a bet that reads the cards (or has an offer) for the dealt cards."""
    from exactodds.counting import holds_for_cards, reads_suits, round_slots

    conditions = [row.when for row in bet.rows] + ([bet.offer] if bet.offer else [])
    cards = [*dealt.player, *dealt.banker]
    if reads_suits(conditions) and any(c.suit is None for c in cards):
        missing = next(str(c) for c in cards if c.suit is None)
        raise RoundError(f"give the suit of every card: bet {bet.id!r} reads suits ({missing!r})")
    slots = round_slots(
        [(c.rank, c.suit or 0) for c in dealt.player], [(c.rank, c.suit or 0) for c in dealt.banker]
    )
    if bet.offer is not None and not holds_for_cards(bet.offer, slots, dealt.tableau):
        raise RoundError(f"bet {bet.id!r} is not offered on this round (offer: {bet.offer})")
    for row in bet.rows:
        if holds_for_cards(row.when, slots, dealt.tableau):
            return row
    raise RoundError(f"bet {bet.id!r}: no row matches (the last row must be 'otherwise')")


# -- text ------------------------------------------------------------------------------------------


def render_settled(s: SettledRound, fmt: str = "text") -> str:
    """Human-readable ``text`` of a settled round, or ``json``: :meth:`SettledRound.to_json`
    as one JSON object (ends with a newline).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> s = settle_round(load_paytable(default_paytable()), "P: 3c 2d 4h | B: Kd 7c",
    ...                  [("player", 10), ("player_bonus", 10)])
    >>> print(render_settled(s))
    Rules: punto-banco    Paytable: Classic (commission) (8 decks)
    Player  3c 2d    5, draws 4h -> 9
    Banker  Kd 7c    7, stands
    Player wins 9 to 7.
    <BLANKLINE>
    | Bet          |   Stake | Event         | Pays   | Result   |
    |:-------------|--------:|:--------------|:-------|:---------|
    | Player       |      10 | Player wins   | 1:1    | wins 10  |
    | Player Bonus |      10 | Other results | lose   | loses 10 |
    <BLANKLINE>
    Net result: 0
    """
    fmt = Format.check(fmt, (Format.TEXT, Format.JSON))
    if fmt is Format.JSON:
        return json.dumps(s.to_json(), indent=2, ensure_ascii=False) + "\n"
    from exactodds.tables import pipe_table

    r, o = s.round, s.round.outcome
    lines = [
        f"Rules: {r.tableau.name}    Paytable: {s.paytable.name} ({s.paytable.decks} decks)"
        + ("" if s.shoe == s.paytable.shoe else f"    Shoe: {s.shoe.describe()}"),
        hand_line("Player", r.player, o.player),
        hand_line("Banker", r.banker, o.banker),
    ]
    lines.append(result_sentence(o))
    if not s.settlements:
        return "\n".join(lines)
    body = [
        (
            x.bet.name,
            format_number(x.stake),
            x.row.event,
            x.pays,
            money_result(x.amount),
        )
        for x in s.settlements
    ]
    table = pipe_table(
        body, ["Bet", "Stake", "Event", "Pays", "Result"], ["left", "right", "left", "left", "left"]
    )
    net = s.net
    sign = "+" if net > 0 else ""
    live = [(x.bet, x.row, x.product, x.multiple, x.amount, x.paid) for x in s.settlements]
    notes = live_lines([item for item in live if item[0].live], s.drawn)
    return "\n".join(
        [
            *lines,
            "",
            table,
            *(["", *notes] if notes else []),
            "",
            f"Net result: {sign}{format_number(net)}",
        ]
    )


# -- JSON ------------------------------------------------------------------------------------------


def round_data(dealt: DealtRound) -> dict[str, Any]:
    """JSON-ready round: its cards, each hand, the winner and margin, the cards dealt."""
    r, o = dealt, dealt.outcome
    return {
        "cards": format_round_cards(r.player, r.banker),
        "player": _hand_data(r.player, o.player),
        "banker": _hand_data(r.banker, o.banker),
        "winner": o.winner.value,
        "margin": o.margin,
        "cards_dealt": o.cards,
    }


def _hand_data(cards: tuple[Card, ...], hand: Hand) -> dict[str, Any]:
    return {
        "cards": [str(c) for c in cards],
        "initial": hand.initial,
        "third": hand.third,
        "total": hand.total,
        "natural": hand.natural,
        "pair": hand.pair,
        "perfect_pair": hand.perfect_pair,
    }
