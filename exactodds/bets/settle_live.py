"""Settling live bets on one given round: the multiplier cards drawn, a peek's decision, a fee.

``settle --multipliers "Ah:8 Kd:2"`` gives the round's drawn multiplier cards (identity and
multiplier); a multiplied row's product is :func:`~exactodds.bets.multipliers.product_of` over
the row's group as dealt, the one definition of a product. ``--peek double`` gives the stake
multiple a peek bet played. The fee is charged on the base stake and counted in the net.

>>> parse_multipliers(["Ah:8 Kd:2"], ())
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: multipliers: the paytable has no multiplier table
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from exactodds.bets.multiplier_keys import percent_text
from exactodds.bets.multipliers import MultiplierTable, Multiply, product_of
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.shoe import Card, parse_card
from exactodds.errors import CardError, ExactOddsError, RoundError, naming, quote
from exactodds.limits import MAX_BETS, MAX_CARD_TEXT, MAX_NAME_CHARS, check_length

__all__ = [
    "DECISION_MULTIPLES",
    "Drawn",
    "LiveItem",
    "check_multiple",
    "drawn_data",
    "group_cards",
    "live_lines",
    "parse_multipliers",
    "parse_peeks",
    "peek_multiple",
    "row_product",
]

Drawn = Mapping[str, Mapping[tuple[int, int], int]]
"""Per multiplier table name, the drawn identities (rank index, suit index) and multipliers."""

DECISION_MULTIPLES: Mapping[str, int] = {"keep": 1, "double": 2, "triple": 3}
"""The peek decisions by name and the stake multiple each plays."""

_HANDS = {"player": (0, 2, 4), "banker": (1, 3, 5), "initial": (0, 1, 2, 3), "round": range(6)}
"""Deal positions (P1 B1 P2 B2 P3 B3) of each group of a ``multiply``."""

_NAMED = {f"{side}.card{i}": 2 * (i - 1) + k for k, side in enumerate(("player", "banker"))
          for i in (1, 2, 3)}  # fmt: skip
"""Deal position of each named card of a ``multiply``."""


@naming("multipliers")
def parse_multipliers(texts: Sequence[str], tables: Sequence[MultiplierTable]) -> Drawn:
    """The ``--multipliers`` values: ``"Ah:8 Kd:2"`` (one table: no prefix needed) or
    ``"lightning: Ah:8 Kd:2"``, one value per table; each card a whole identity of the table's
    deck, once, with one of the table's multipliers, and as many cards as the table can draw.

    >>> from exactodds.bets.loader import load_paytable
    >>> tables = load_paytable("tests/data/live-lightning.toml").multipliers
    >>> parse_multipliers(["Ah:8 Kd:2"], tables)
    {'lightning': {(0, 2): 8, (12, 1): 2}}
    >>> parse_multipliers(["lightning: Ah:7"], tables)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: multipliers: 'Ah:7': 7 is not a multiplier of table ...
    """
    out: dict[str, dict[tuple[int, int], int]] = {}
    if texts and not tables:
        raise ExactOddsError("multipliers: the paytable has no multiplier table")
    by_name = {t.name: t for t in tables}
    for text in texts:
        check_length(text, MAX_CARD_TEXT, "multipliers")
        head, _, body = text.partition(":")
        words = text.split()
        name = head.strip()
        if (words and words[0].endswith(":")) or name in by_name:
            if name not in by_name:
                raise ExactOddsError(
                    f"multipliers: no table {quote(name, 30)} (tables: {', '.join(by_name)})"
                )
            table = by_name[name]
        elif len(tables) == 1:
            table, body = tables[0], text
        else:
            raise ExactOddsError(
                f"multipliers {quote(text, 40)}: name the table, as 'NAME: Ah:8 Kd:2' "
                f"(tables: {', '.join(by_name)})"
            )
        if table.name in out:
            raise ExactOddsError(f"multipliers: table {table.name!r} is given twice")
        out[table.name] = _draw(table, body)
    return out


def _draw(table: MultiplierTable, text: str) -> dict[tuple[int, int], int]:
    """One table's drawn cards from ``"Ah:8 Kd:2"``."""
    drawn: dict[tuple[int, int], int] = {}
    values = {v for v, p in table.values if p}
    for token in text.replace(",", " ").split():
        where = f"multipliers: {quote(token, 30)}"
        card_text, sep, value_text = token.partition(":")
        if not sep:
            raise ExactOddsError(f"{where}: write each card with its multiplier, as Ah:8")
        try:
            card = parse_card(card_text)
        except CardError as exc:
            raise ExactOddsError(f"{where}: {exc}") from None
        if card.suit is None:
            raise ExactOddsError(f"{where}: a multiplier card is one identity: give its suit")
        body = value_text.strip()
        if not (body.isascii() and body.isdigit() and len(body) <= 12):
            raise ExactOddsError(f"{where}: the multiplier must be a whole number, as Ah:8")
        value = int(body)
        if value not in values:
            shown = ", ".join(str(v) for v in sorted(values))
            raise ExactOddsError(
                f"{where}: {value} is not a multiplier of table {table.name!r} ({shown})"
            )
        identity = (card.rank, card.suit)
        if card.rank * 4 + card.suit >= table.deck:
            raise ExactOddsError(f"{where}: {card} is not in table {table.name!r}'s deck")
        if identity in drawn:
            raise ExactOddsError(f"{where}: {card} is drawn twice (the cards are distinct)")
        drawn[identity] = value
    counts = {k for k, p in table.cards if p}
    if len(drawn) not in counts:
        shown = ", ".join(str(k) for k in sorted(counts))
        raise ExactOddsError(
            f"multipliers: {len(drawn)} card(s) for table {table.name!r}, which draws {shown}"
        )
    return drawn


@naming("peeks")
def parse_peeks(texts: Sequence[str]) -> dict[str, int]:
    """The ``--peek`` values: ``DECISION`` for every peek bet placed, or ``ID=DECISION`` for one;
    a decision is keep, double, triple or the stake multiple (``4``). Key ``""``: every bet.

    >>> parse_peeks(["double", "banker=keep"])
    {'': 2, 'banker': 1}
    >>> parse_peeks(["player=quadruple"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: peeks 'player=quadruple': give keep, double, triple or ...
    """
    out: dict[str, int] = {}
    if len(texts) > MAX_BETS:
        raise ExactOddsError(f"peeks: {len(texts):,} decisions, more than the {MAX_BETS} bets")
    for text in texts:
        check_length(text, MAX_NAME_CHARS, "peeks")
        bet_id, sep, decision = text.rpartition("=")
        key = bet_id.strip()
        word = decision.strip().lower()
        multiple = DECISION_MULTIPLES.get(word)
        if multiple is None and word.isascii() and word.isdigit() and len(word) <= 6:
            multiple = int(word)
        if multiple is None or multiple < 1 or (sep and not key):
            raise ExactOddsError(
                f"peeks {quote(text, 40)}: give keep, double, triple or a stake multiple, "
                "for every peek bet or as ID=DECISION"
            )
        if key in out:
            raise ExactOddsError(f"peeks: {'bet ' + repr(key) if key else 'a decision'} twice")
        out[key] = multiple
    return out


@naming("peeks")
def check_multiple(bet: Bet, multiple: int) -> None:
    """Refuse a stake multiple the bet's peek does not offer (or any raise without a peek).

    >>> from exactodds.bets.loader import load_paytable
    >>> check_multiple(load_paytable("classic").bet("player"), 2)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: peeks: bet 'player' has no peek (no raise to play)
    """
    if bet.peek is None:
        if multiple != 1:
            raise ExactOddsError(f"peeks: bet {bet.id!r} has no peek (no raise to play)")
        return
    allowed = (1, *bet.peek.raises)
    if multiple not in allowed:
        shown = ", ".join(f"×{r}" for r in allowed)
        raise ExactOddsError(
            f"peeks: bet {bet.id!r} is played at ×{multiple}; its peek offers {shown}"
        )


def peek_multiple(bet: Bet, peeks: Mapping[str, int]) -> int:
    """The stake multiple ``bet`` plays: its own ``--peek``, else the one for every peek bet,
    else keep (1); checked against the bet's raises."""
    multiple = peeks.get(bet.id, peeks.get("", 1) if bet.peek is not None else 1)
    check_multiple(bet, multiple)
    return multiple


def group_cards(
    multiply: Multiply, player: Sequence[Card], banker: Sequence[Card]
) -> list[tuple[int, int]]:
    """The dealt cards (rank index, suit) of a row's ``multiply`` group: a hand's cards, the
    first four, the round's, or named cards (a third card only where dealt). A card without a
    suit is refused: the product reads identities."""
    slots: list[Card | None] = [None] * 6
    for i, card in enumerate(player):
        slots[(0, 2, 4)[i]] = card
    for i, card in enumerate(banker):
        slots[(1, 3, 5)[i]] = card
    group = multiply.cards
    positions = _HANDS[group[0]] if len(group) == 1 and group[0] in _HANDS else None
    chosen = [slots[i] for i in (positions or [_NAMED[c] for c in group])]
    out = []
    for dealt in chosen:
        if dealt is None:
            continue
        card = dealt
        if card.suit is None:
            raise RoundError(
                f"give the suit of every card: a multiplied row reads identities ({card})"
            )
        out.append((card.rank, card.suit))
    return out


def row_product(
    multiply: Multiply, player: Sequence[Card], banker: Sequence[Card], drawn: Drawn
) -> int:
    """The product of the drawn multipliers on the row's group as dealt (1: none drawn on it).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.shoe import parse_cards
    >>> row = load_paytable("tests/data/live-lightning.toml").bet("banker").rows[0]
    >>> draws = {"lightning": {(0, 2): 8, (12, 1): 2}}
    >>> row_product(row.multiply, parse_cards("9s 9h"), parse_cards("Ah Kd 5c"), draws)
    16
    """
    table = multiply.table
    chosen = drawn.get(table.name)
    if not chosen:  # nothing drawn: every product is 1, whatever the suits
        return 1
    return product_of(table, group_cards(multiply, player, banker), chosen)


def drawn_data(drawn: Drawn | None) -> dict[str, dict[str, int]] | None:
    """JSON-ready drawn cards: per table, card → multiplier (None: not given, none drawn).

    >>> drawn_data({"lightning": {(0, 2): 8}})
    {'lightning': {'Ah': 8}}
    """
    if drawn is None:
        return None
    return {name: {str(Card(*c)): v for c, v in cards.items()} for name, cards in drawn.items()}


LiveItem = tuple[Bet, Row, int, int, Fraction, Fraction]
"""A settled live bet: the bet, its row, the product, the stake multiple, net and money paid."""


def live_lines(items: Sequence[LiveItem], drawn: Drawn | None) -> list[str]:
    """What a settled round says of its live bets, a line each: the multiplier cards drawn (or
    that none were given), then per bet its product, raise and fee, and net per money paid.

    >>> from exactodds.bets.loader import load_paytable
    >>> banker = load_paytable("tests/data/live-lightning.toml").bet("banker")
    >>> row = banker.rows[0]
    >>> for line in live_lines([(banker, row, 8, 1, Fraction(155, 2), Fraction(12))], None):
    ...     print(line)
    Multiplier cards: none given, so none drawn (give them with --multipliers 'Ah:8 Kd:2').
    Banker: ×8 on Banker wins, less 5%; fee 2 of 12 paid; net +77.5, 155/24 per money paid.
    """
    from exactodds.bets.payout import format_number

    lines = []
    multiplied = any(r.multiply is not None for bet, *_ in items for r in bet.rows)
    if drawn is None and multiplied:
        lines.append(
            "Multiplier cards: none given, so none drawn "
            "(give them with --multipliers 'Ah:8 Kd:2')."
        )
    for name, cards in sorted((drawn or {}).items()):
        shown = ", ".join(f"{Card(*c)} ×{v}" for c, v in cards.items())
        lines.append(f"Multiplier cards ({name}): {shown or 'none'}.")
    for bet, row, product, multiple, amount, paid in items:
        parts = []
        if row.multiply is not None:
            taken = f", less {percent_text(row.commission)}" if row.commission else ""
            parts.append(f"×{product} on {row.event}{taken}")
        if bet.peek is not None:
            parts.append(DECISIONS_BY_MULTIPLE.get(multiple, f"×{multiple}") + " after the peek")
        stake = paid / (multiple + bet.fee)
        if bet.fee:
            parts.append(f"fee {format_number(stake * bet.fee)} of {format_number(paid)} paid")
        per = format_number(amount / paid)
        sign = "+" if amount > 0 else ""
        parts.append(f"net {sign}{format_number(amount)}, {per} per money paid")
        lines.append(f"{bet.name}: {'; '.join(parts)}.")
    return lines


DECISIONS_BY_MULTIPLE: Mapping[int, str] = {v: k for k, v in DECISION_MULTIPLES.items()}
"""The decision's name by stake multiple (keep, double, triple)."""
