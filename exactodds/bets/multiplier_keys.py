"""The paytable keys of random multipliers, fees and peeks, read from untrusted TOML data.

``[multipliers.NAME]`` tables become :class:`~exactodds.bets.multipliers.MultiplierTable`;
a bet's ``fee`` and ``peek`` and its rows' ``multiply`` and ``commission`` are bound to a
parsed bet by :func:`bind_multipliers`. Each problem raises one :class:`KeyProblem` naming the
key it is on, which the loader cites as ``FILE:LINE`` (:mod:`exactodds.bets.loader`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from exactodds.bets.judge import bet_path, row_path
from exactodds.bets.multipliers import (
    MULTIPLY_CARDS,
    MULTIPLY_GROUPS,
    PEEK_POSITIONS,
    MultiplierTable,
    Multiply,
    Peek,
    Repeat,
)
from exactodds.bets.payout import format_number, parse_number, parse_percent
from exactodds.bets.paytable import Bet, Row
from exactodds.errors import ExactOddsError, PaytableError, quote
from exactodds.suggest import did_you_mean
from exactodds.toml_lines import KeyPath

__all__ = [
    "BET_KEYS",
    "ROW_KEYS",
    "TABLE_KEYS",
    "KeyProblem",
    "bet_keys_toml",
    "bind_multipliers",
    "multiplier_toml",
    "parse_multiplier_tables",
    "percent_text",
    "row_keys_toml",
]

TABLE_KEYS = ("deck", "cards", "values", "cap", "repeat")
"""The keys of a ``[multipliers.NAME]`` table."""
BET_KEYS = ("fee", "peek")
"""The keys a bet gains (besides the loader's)."""
ROW_KEYS = ("multiply", "commission")
"""The keys a row gains (besides the loader's)."""
_PEEK_KEYS = ("fee", "reveal", "raise")
DECK = 52
"""The only multiplier deck: the 52 rank-suit identities, one of each."""
MAX_MULTIPLIER = 10_000
MAX_VALUES = 12
"""Most distinct multipliers of a table: bounds the distinct products of a six-card group
(C(12 + 6, 6) = 18,564), so counting a product distribution stays bounded work."""
MAX_RAISE = 100
_NAME = re.compile(r"^[a-z][a-z0-9_]*\Z")
_DIGITS = re.compile(r"^[0-9]{1,6}\Z")


class KeyProblem(PaytableError):
    """A problem with a multiplier, fee or peek key, and the key path it is on."""

    def __init__(self, message: str, *paths: KeyPath) -> None:
        super().__init__(message)
        self.paths = paths


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _probability(value: Any, where: str, path: KeyPath) -> Fraction:
    """An exact probability in [0, 1] from a string (:func:`parse_number`) or an int."""
    if _int(value):
        p = Fraction(value)
    elif isinstance(value, str):
        try:
            p = parse_number(value)
        except PaytableError as exc:
            raise KeyProblem(f'{where}: {exc} (a probability such as "0.2")', path) from None
    else:
        raise KeyProblem(
            f'{where}: a probability must be a string such as "0.2" or an integer, '
            f"not {quote(value)}",
            path,
        )
    if not 0 <= p <= 1:
        raise KeyProblem(f"{where}: probability {quote(value)} is not between 0 and 1", path)
    return p


def _weights(
    value: Any, where: str, path: KeyPath, *, high: int, what: str
) -> tuple[tuple[int, Fraction], ...]:
    """A table ``{ int = probability }`` of ints ``low..high``, probabilities summing to 1,
    ascending."""
    low = 1
    if not isinstance(value, Mapping) or not value:
        raise KeyProblem(f"{where} must be a non-empty table {{ {what} = probability }}", path)
    out: dict[int, Fraction] = {}
    for key, p in value.items():
        text = str(key).strip()
        if not _DIGITS.match(text) or not low <= int(text) <= high:
            raise KeyProblem(f"{where}: {what} {quote(key)} is not an integer {low}..{high}", path)
        out[int(text)] = _probability(p, f"{where} {text}", path)
    total = sum(out.values(), Fraction(0))
    if total != 1:
        raise KeyProblem(
            f"{where}: the probabilities sum to {format_number(total)}, not exactly 1", path
        )
    return tuple(sorted(out.items()))


def _table(name: str, data: Any) -> MultiplierTable:
    here: KeyPath = ("multipliers", name)
    where = f"multipliers {name!r}"
    if not _NAME.match(name):
        raise KeyProblem(f"{where}: a table name must be lower-case letters, digits and _", here)
    if not isinstance(data, Mapping):
        raise KeyProblem(f"{where} must be a table", here)
    for key in sorted(set(data) - set(TABLE_KEYS)):
        message = f"{where}: unknown key {key!r} (expected one of {sorted(TABLE_KEYS)})"
        raise KeyProblem(message + did_you_mean(str(key), TABLE_KEYS), (*here, key), here)
    deck = data.get("deck", DECK)
    if deck != DECK or not _int(deck):
        raise KeyProblem(
            f"{where}: deck {quote(deck)}: only the 52 rank-suit identities are supported "
            "(deck = 52)",
            (*here, "deck"),
            here,
        )
    cards_raw = data.get("cards")
    cards_path = (*here, "cards")
    if cards_raw is None:
        raise KeyProblem(f"{where}: missing 'cards' (a count 1..52, or {{ count = p }})", here)
    if _int(cards_raw):
        if not 1 <= cards_raw <= DECK:
            raise KeyProblem(
                f"{where}: cards {quote(cards_raw)} is not a count 1..{DECK}", cards_path, here
            )
        cards: tuple[tuple[int, Fraction], ...] = ((cards_raw, Fraction(1)),)
    else:
        cards = _weights(cards_raw, f"{where} cards", cards_path, high=DECK, what="count")
    if "values" not in data:
        raise KeyProblem(f"{where}: missing 'values' ({{ multiplier = probability }})", here)
    if isinstance(data["values"], Mapping) and len(data["values"]) > MAX_VALUES:
        raise KeyProblem(
            f"{where}: {len(data['values'])} multipliers is over the limit of {MAX_VALUES}",
            (*here, "values"),
        )
    values = _weights(
        data["values"], f"{where} values", (*here, "values"), high=MAX_MULTIPLIER, what="multiplier"
    )
    cap = data.get("cap")
    if cap is not None and (not _int(cap) or cap < 1):
        raise KeyProblem(
            f"{where}: cap must be an integer of at least 1, not {quote(cap)}", (*here, "cap")
        )
    repeat = data.get("repeat", Repeat.EACH.value)
    try:
        how = Repeat(repeat)
    except ValueError:
        known = [r.value for r in Repeat]
        raise KeyProblem(
            f"{where}: repeat {quote(repeat)} is not one of {', '.join(known)}"
            + did_you_mean(str(repeat), known),
            (*here, "repeat"),
        ) from None
    return MultiplierTable(name, cards, values, DECK, cap, how)


def parse_multiplier_tables(paytable: Mapping[str, Any]) -> tuple[MultiplierTable, ...]:
    """The ``[multipliers.NAME]`` tables of a paytable's data, by name order.

    >>> x = {"x": {"cards": 2, "values": {"2": "0.5", "3": "1/2"}}}
    >>> (t,) = parse_multiplier_tables({"multipliers": x})
    >>> t.cards, t.values
    (((2, Fraction(1, 1)),), ((2, Fraction(1, 2)), (3, Fraction(1, 2))))
    >>> parse_multiplier_tables({"multipliers": {"x": {"cards": 2, "values": {"2": "0.5"}}}})
    Traceback (most recent call last):
    ...
    exactodds.bets.multiplier_keys.KeyProblem: multipliers 'x' values: the probabilities sum to 0.5, not exactly 1
    """  # noqa: E501
    data = paytable.get("multipliers")
    if data is None:
        return ()
    if not isinstance(data, Mapping) or not data:
        raise KeyProblem("'multipliers' must hold [multipliers.NAME] tables", ("multipliers",))
    return tuple(_table(str(name), data[name]) for name in sorted(data, key=str))


def percent_text(share: Fraction) -> str:
    """A share as the percentage a file writes.

    >>> percent_text(Fraction(1, 5)), percent_text(Fraction(1, 300))
    ('20%', '1/3%')
    """
    return f"{format_number(share * 100)}%"


def _percent(value: Any, where: str, path: KeyPath) -> Fraction:
    """A share 0..100% from ``"5%"`` (:func:`parse_percent`)."""
    if not isinstance(value, str):
        raise KeyProblem(f'{where} must be a percentage such as "5%", not {quote(value)}', path)
    try:
        share = parse_percent(value, where)
    except ExactOddsError as exc:
        raise KeyProblem(str(exc), path) from None
    if share > 1:
        raise KeyProblem(f"{where} {quote(value)} is over 100%", path)
    return share


def _multiply(
    value: Any, where: str, path: KeyPath, known: Sequence[MultiplierTable] | None
) -> Multiply:
    """``GROUP``, ``"card names"`` or ``"TABLE: …"`` read against the paytable's tables
    (None: unreadable, so any name is taken and the load fails on the tables' own problem)."""
    by_name = {t.name: t for t in known or ()}
    tables = None if known is None else list(by_name)

    def bound(name: str) -> MultiplierTable:
        return by_name.get(name) or MultiplierTable(name, ((1, Fraction(1)),), ((1, Fraction(1)),))

    if not isinstance(value, str):
        raise KeyProblem(f"{where}: multiply must be a string, not {quote(value)}", path)
    name, colon, rest = value.partition(":")
    if tables is None:
        tables = [name.strip()] if colon else [""]
    if not tables:
        raise KeyProblem(
            f"{where}: multiply but the paytable has no [multipliers.NAME] table", path
        )
    if colon:
        name = name.strip()
        if name not in tables:
            raise KeyProblem(
                f"{where}: unknown multiplier table {quote(name)} (known: {', '.join(tables)})"
                + did_you_mean(name, tables),
                path,
            )
    elif len(tables) == 1:
        name, rest = tables[0], value
    else:
        raise KeyProblem(
            f'{where}: multiply must name its table ("{tables[0]}: player") among '
            f"{', '.join(tables)}",
            path,
        )
    cards = tuple(rest.split())
    if len(cards) == 1 and cards[0] in MULTIPLY_GROUPS:
        return Multiply(bound(name), cards)
    for card in cards:
        if card not in MULTIPLY_CARDS:
            choices = (*MULTIPLY_GROUPS, *MULTIPLY_CARDS)
            raise KeyProblem(
                f"{where}: multiply {quote(card)} is not a group ({', '.join(MULTIPLY_GROUPS)}) "
                "or cards such as player.card1" + did_you_mean(card, choices),
                path,
            )
    if not cards or len(set(cards)) != len(cards):
        raise KeyProblem(f"{where}: multiply needs distinct cards, not {quote(value)}", path)
    return Multiply(bound(name), tuple(sorted(cards, key=MULTIPLY_CARDS.index)))


def _reveal(value: Any, where: str, path: KeyPath) -> tuple[tuple[str, ...], ...]:
    """The positions a peek shows: ``"P1 B1"`` (distinct, 1 to 4, in dealing order)."""
    positions = value.split() if isinstance(value, str) else None
    if positions is None or not 1 <= len(positions) <= len(PEEK_POSITIONS):
        raise KeyProblem(
            f"{where}: reveal must be 1 to 4 of {' '.join(PEEK_POSITIONS)}, not {quote(value)}",
            path,
        )
    for p in positions:
        if p not in PEEK_POSITIONS:
            raise KeyProblem(
                f"{where}: reveal {quote(p)} is not one of {' '.join(PEEK_POSITIONS)}"
                + did_you_mean(p, PEEK_POSITIONS),
                path,
            )
    if len(set(positions)) != len(positions):
        raise KeyProblem(f"{where}: reveal {quote(value)} names a card twice", path)
    return (tuple(sorted(positions, key=PEEK_POSITIONS.index)),)


def _peek(value: Any, where: str, path: KeyPath) -> tuple[Peek, Fraction | None]:
    """A bet's ``peek`` and the fee it states (None: none)."""
    if not isinstance(value, Mapping):
        raise KeyProblem(f'{where}: peek must be {{ fee = "20%", reveal = "P1 B1" }}', path)
    for key in sorted(set(value) - set(_PEEK_KEYS)):
        raise KeyProblem(
            f"{where}: peek: unknown key {key!r} (expected one of {sorted(_PEEK_KEYS)})"
            + did_you_mean(str(key), _PEEK_KEYS),
            path,
        )
    fee = None if "fee" not in value else _percent(value["fee"], f"{where}: peek fee", path)
    raw = value.get("reveal")
    if isinstance(raw, list) and raw:
        reveals: dict[tuple[str, ...], Fraction] = {}
        for item in raw:
            if not isinstance(item, Mapping) or set(item) != {"cards", "p"}:
                raise KeyProblem(
                    f'{where}: a random reveal is a list of {{ cards = "P1", p = "0.5" }}', path
                )
            (shown,) = _reveal(item["cards"], where, path)
            if shown in reveals:
                raise KeyProblem(f"{where}: reveal {quote(' '.join(shown))} listed twice", path)
            reveals[shown] = _probability(item["p"], f"{where}: reveal", path)
        total = sum(reveals.values(), Fraction(0))
        if total != 1:
            raise KeyProblem(
                f"{where}: the reveal probabilities sum to {format_number(total)}, not exactly 1",
                path,
            )
        chosen = tuple(reveals.items())
    else:
        chosen = ((_reveal(raw, where, path)[0], Fraction(1)),)
    raises = value.get("raise", [2, 3])
    if (
        not isinstance(raises, list)
        or not raises
        or not all(_int(r) and 2 <= r <= MAX_RAISE for r in raises)
        or len(set(raises)) != len(raises)
    ):
        raise KeyProblem(
            f"{where}: peek raise must be distinct integers 2..{MAX_RAISE}, not {quote(raises)}",
            path,
        )
    return Peek(chosen, tuple(sorted(raises))), fee


def bind_multipliers(
    bet: Bet, data: Mapping[str, Any], tables: Sequence[MultiplierTable] | None
) -> Bet:
    """A parsed ``bet`` with its ``fee`` and ``peek`` and its rows' ``multiply`` and
    ``commission`` (``data``: the bet's TOML table; ``tables``: the paytable's, None when
    they could not be read: a row's table is then not looked for, its problem already told).

    >>> from exactodds.bets.payout import parse_payout
    >>> from exactodds.language import parse_condition
    >>> rows = (Row(parse_condition("banker.wins"), parse_payout("1:1"), "Banker wins"),
    ...         Row(parse_condition("otherwise"), parse_payout("lose"), "Other"))
    >>> spec = {"fee": "20%", "rows": [{"multiply": "banker", "commission": "5%"}, {}]}
    >>> table = MultiplierTable("lightning", ((1, Fraction(1)),), ((2, Fraction(1)),))
    >>> bet = bind_multipliers(Bet("banker", "Banker", rows), spec, [table])
    >>> bet.fee, bet.peek, bet.rows[0].multiply.cards, bet.rows[0].commission
    (Fraction(1, 5), None, ('banker',), Fraction(1, 20))
    """
    bet_id, progressive = bet.id, bet.progressive is not None
    where = f"bet {bet_id!r}"
    fee_path, peek_path = bet_path(bet_id, "fee"), bet_path(bet_id, "peek")
    if progressive:
        for key in ("fee", "peek"):
            if key in data:
                raise KeyProblem(f"{where}: {key} on a progressive bet", bet_path(bet_id, key))
    fee = Fraction(0) if "fee" not in data else _percent(data["fee"], f"{where}: fee", fee_path)
    peek = None
    if "peek" in data:
        if bet.offer is not None:
            raise KeyProblem(f"{where}: peek on a bet with an offer", peek_path)
        peek, peek_fee = _peek(data["peek"], where, peek_path)
        if peek_fee is not None:
            if "fee" in data and peek_fee != fee:
                raise KeyProblem(
                    f"{where}: fee {percent_text(fee)} differs from the peek fee "
                    f"{percent_text(peek_fee)}",
                    fee_path,
                )
            fee = peek_fee
    rows_data = data.get("rows")
    out = list(bet.rows)
    for n, row in enumerate(bet.rows, 1):
        raw = rows_data[n - 1] if isinstance(rows_data, list) else {}
        if isinstance(raw, Mapping) and set(raw) & set(ROW_KEYS):
            keys = _BetKeys(bet_id, tables, progressive, bet.rounding is not None, peek is not None)
            out[n - 1] = _bind_row(keys, n, row, raw)
    if bet.offer is not None and any(row.multiply is not None for row in out):
        raise KeyProblem(f"{where}: multiply on a bet with an offer", bet_path(bet_id, "offer"))
    return replace(bet, fee=fee, peek=peek, rows=tuple(out))


@dataclass(frozen=True)
class _BetKeys:
    """What a row's keys are checked against: its bet and the paytable's tables."""

    bet_id: str
    tables: Sequence[MultiplierTable] | None
    progressive: bool
    rounding: bool
    peek: bool


def _bind_row(bet: _BetKeys, n: int, row: Row, raw: Mapping[str, Any]) -> Row:
    """``row`` with its ``multiply`` and ``commission`` keys (``raw``: the row's TOML)."""
    here = f"bet {bet.bet_id!r} row {n}"
    key = "multiply" if "multiply" in raw else "commission"
    path = row_path(bet.bet_id, n, key)
    if bet.progressive:
        raise KeyProblem(f"{here}: {key} on a progressive bet", path)
    if not row.pays.is_win:
        kind = "push" if row.pays.is_push else "loss"
        raise KeyProblem(f"{here}: {key} on a {kind} row (a multiplied {kind})", path)
    multiply = None
    if "multiply" in raw:
        if bet.rounding:
            raise KeyProblem(f"{here}: multiply with rounding", path)
        if bet.peek:
            raise KeyProblem(f"{here}: multiply on a bet with a peek", path)
        multiply = _multiply(raw["multiply"], here, path, bet.tables)
    commission = Fraction(0)
    if "commission" in raw and multiply is None:
        raise KeyProblem(
            f'{here}: commission is for a multiplied row (a plain win writes pays = "1:1 less 5%")',
            path,
        )
    if "commission" in raw:
        where = row_path(bet.bet_id, n, "commission")
        commission = _percent(raw["commission"], f"{here}: commission", where)
    return replace(row, multiply=multiply, commission=commission)


def multiplier_toml(tables: Sequence[MultiplierTable]) -> list[str]:
    """The ``[multipliers.NAME]`` tables as a paytable file writes them (read back equal).

    >>> t = MultiplierTable("x", ((5, Fraction(1)),), ((2, Fraction(1, 2)), (3, Fraction(1, 2))))
    >>> print("\\n".join(multiplier_toml([t])))
    <BLANKLINE>
    [multipliers.x]
    cards = 5
    values = { 2 = "0.5", 3 = "0.5" }
    """
    lines: list[str] = []
    for table in tables:
        lines += ["", f"[multipliers.{table.name}]"]
        if len(table.cards) == 1 and table.cards[0][1] == 1:
            lines.append(f"cards = {table.cards[0][0]}")
        else:
            lines.append(f"cards = {_inline(table.cards)}")
        lines.append(f"values = {_inline(table.values)}")
        if table.cap is not None:
            lines.append(f"cap = {table.cap}")
        if table.repeat is not Repeat.EACH:
            lines.append(f'repeat = "{table.repeat.value}"')
    return lines


def _inline(weights: Sequence[tuple[int, Fraction]]) -> str:
    return "{ " + ", ".join(f'{k} = "{format_number(p)}"' for k, p in weights) + " }"


def row_keys_toml(row: Row) -> str:
    """A row's ``multiply`` and ``commission`` keys as a file writes them (``""``: none).

    >>> from exactodds.bets.payout import parse_payout
    >>> from exactodds.language import parse_condition
    >>> table = MultiplierTable("lightning", ((1, Fraction(1)),), ((2, Fraction(1)),))
    >>> row = Row(parse_condition("banker.wins"), parse_payout("1:1"), "Banker wins",
    ...           Multiply(table, ("banker",)), Fraction(1, 20))
    >>> row_keys_toml(row)
    ', multiply = "lightning: banker", commission = "5%"'
    """
    out = ""
    if row.multiply is not None:
        out += f', multiply = "{row.multiply.table.name}: {" ".join(row.multiply.cards)}"'
    if row.commission:
        out += f', commission = "{percent_text(row.commission)}"'
    return out


def bet_keys_toml(fee: Fraction, peek: Peek | None) -> list[str]:
    """A bet's ``fee`` and ``peek`` lines as a file writes them.

    >>> bet_keys_toml(Fraction(1, 5), Peek(((("P1",), Fraction(1, 2)), (("B1",), Fraction(1, 2)))))
    ['peek = { fee = "20%", reveal = [{ cards = "P1", p = "0.5" }, { cards = "B1", p = "0.5" }], raise = [2, 3] }']
    """  # noqa: E501
    if peek is None:
        return [f'fee = "{percent_text(fee)}"'] if fee else []
    parts = [f'fee = "{percent_text(fee)}"'] if fee else []
    if len(peek.reveals) == 1 and peek.reveals[0][1] == 1:
        parts.append(f'reveal = "{" ".join(peek.reveals[0][0])}"')
    else:
        items = ", ".join(
            f'{{ cards = "{" ".join(shown)}", p = "{format_number(p)}" }}'
            for shown, p in peek.reveals
        )
        parts.append(f"reveal = [{items}]")
    parts.append(f"raise = [{', '.join(map(str, peek.raises))}]")
    return [f"peek = {{ {', '.join(parts)} }}"]
