"""A paytable as TOML text whose payouts can be replaced in place: its own file when that is
what was loaded, else the loader's inverse (:func:`paytable_toml`).

The designer page (:mod:`exactodds.report.designer`) exports an edited paytable by patching
this text, so the export is the file as loaded — every key, comment and line, known to this
version or not — with only the edited payouts (and, once edited, the description) changed.
:func:`patchable` cuts the text into pieces around the value of every row's ``pays`` and of
the ``description`` (:func:`~exactodds.toml_lines.toml_values` finds them), and proves the cut
by parsing a probe in which every slot holds a marker: each marker must land on its own key
and nothing else may change.

>>> from exactodds.bets.loader import load_paytable
>>> table = load_paytable("tie-9")
>>> cut = patchable(table, default_source(table))
>>> cut.from_source, cut.text() == default_source(table)
(True, True)
>>> edited = load_text(cut.patched({("tie", 0): "10:1"}, "Tie at 10:1."))
>>> edited.bet("tie").rows[0].pays.net, edited.description
(Fraction(10, 1), 'Tie at 10:1.')
>>> streak = load_paytable("banker-streak")
>>> cut = patchable(streak, default_source(streak))
>>> load_text(cut.patched({("banker_streak", 1): "200:1"}, None)).streaks[0].rows[1].pays.net
Fraction(200, 1)
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from exactodds.bets.multiplier_keys import bet_keys_toml, multiplier_toml, row_keys_toml
from exactodds.bets.payout import format_number
from exactodds.bets.paytable import Bet, Paytable
from exactodds.bets.progressive import progressive_toml
from exactodds.bets.streak import StreakBet, streak_toml
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import ExactOddsError
from exactodds.files import parse_data, read_text
from exactodds.toml_lines import KeyPath, toml_values

__all__ = [
    "Patchable",
    "Slot",
    "default_source",
    "load_text",
    "patchable",
    "paytable_toml",
    "toml_key",
    "toml_string",
]

_ESCAPES = {
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}
_BARE = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    """A TOML basic string holding exactly ``text`` (controls escaped; lone surrogates, which
    no TOML text can hold, become U+FFFD).

    >>> print(toml_string('say "]]"\\n\\x7f é'))
    "say \\"]]\\"\\n\\u007f é"
    """
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, else quoted.

    >>> toml_key("tie"), toml_key("a b")
    ('tie', '"a b"')
    """
    return key if _BARE.fullmatch(key) else toml_string(key)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return f"[{', '.join(_value(v) for v in value)}]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{toml_key(str(k))} = {_value(v)}" for k, v in value.items())
        return f"{{ {items} }}"
    return str(value)


def _rules(tableau: Tableau) -> str:
    """A built-in rules name, else the whole tableau as an inline table."""
    if BUILTIN.get(tableau.name) == tableau:
        return toml_string(tableau.name)
    data = tableau.data()
    if tableau.description:
        data = {"name": data.pop("name"), "description": tableau.description, **data}
    return _value(data)


def paytable_toml(table: Paytable) -> str:
    """``table`` as a paytable file: the loader reads it back to an equal paytable (every
    field of the paytable and of its bets, rows, rounding and offer).

    >>> from exactodds.bets.loader import load_paytable
    >>> insurance = load_paytable("insurance")
    >>> load_text(paytable_toml(insurance)).bets == insurance.bets
    True
    >>> print(paytable_toml(insurance).split("\\n\\n")[1])
    [bets.player_0_v_5]
    name = "Player Win insurance, Player 0 v Banker 5"
    offer = "player.initial == 0 and banker.initial == 5"
    rows = [
      { when = "player.wins", pays = "2:1", event = "Player wins" },
      { when = "winner == tie", pays = "push", event = "Tie" },
      { when = "otherwise", pays = "lose", event = "Banker wins" },
    ]
    """
    lines = [f"name = {toml_string(table.name)}"]
    if table.description:
        lines.append(f"description = {toml_string(table.description)}")
    if table.source:
        lines.append(f"source = {toml_string(table.source)}")
    lines += [f"decks = {table.decks}", f"rules = {_rules(table.tableau)}"]
    lines += multiplier_toml(table.multipliers)
    for bet in table.bets:
        lines += ["", f"[bets.{toml_key(bet.id)}]", f"name = {toml_string(bet.name)}"]
        if bet.description:
            lines.append(f"description = {toml_string(bet.description)}")
        if bet.max_round is not None:
            lines.append(f"max_round = {bet.max_round}")
        if bet.rounding is not None:
            step, mode = format_number(bet.rounding.step), bet.rounding.mode.value
            lines.append(f"rounding = {{ step = {toml_string(step)}, mode = {toml_string(mode)} }}")
        if bet.offer is not None:
            lines.append(f"offer = {toml_string(str(bet.offer))}")
        if bet.progressive is not None:
            lines += progressive_toml(bet.progressive)
        lines += bet_keys_toml(bet.fee, bet.peek)
        lines.append("rows = [")
        for row in bet.rows:
            when, pays = toml_string(str(row.when)), toml_string(row.pays.text or str(row.pays))
            pays += row_keys_toml(row)  # multiply, commission
            lines.append(f"  {{ when = {when}, pays = {pays}, event = {toml_string(row.event)} }},")
        lines.append("]")
    for streak in table.streaks:
        lines += ["", *streak_toml(streak)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Slot:
    """A value of the text that an edit replaces: a row's ``pays`` (``bet`` and ``row``) or,
    with ``bet`` empty, the ``description``. ``text`` is the value as written; ``insert``: the
    text has no description, and one goes here as a whole ``description = …`` line."""

    text: str
    bet: str = ""
    row: int = 0
    insert: bool = False


@dataclass(frozen=True)
class Patchable:
    """A paytable's TOML text cut around its slots: ``pieces`` alternate text and
    :class:`Slot`. ``from_source``: the text is the paytable's own file (else
    :func:`paytable_toml`)."""

    pieces: tuple[str | Slot, ...]
    from_source: bool

    def text(self) -> str:
        """The text as it is (every slot as written)."""
        return self.patched({}, None)

    def patched(self, payouts: Mapping[tuple[str, int], str], description: str | None) -> str:
        """The text with these payouts (``(bet id, row index)`` → payout text) and, unless
        None, this description; the designer page's script does the same."""
        out = []
        for piece in self.pieces:
            if isinstance(piece, str):
                out.append(piece)
            elif piece.bet:
                pays = payouts.get((piece.bet, piece.row))
                out.append(piece.text if pays is None else toml_string(pays))
            elif description is None:
                out.append(piece.text)
            else:
                text = toml_string(description)
                out.append(f"description = {text}\n" if piece.insert else text)
        return "".join(out)

    def data(self) -> list[Any]:
        """The pieces as JSON-ready data (a slot as an object) for the designer page."""
        return [
            p
            if isinstance(p, str)
            else {"text": p.text, "bet": p.bet, "row": p.row, "insert": p.insert}
            for p in self.pieces
        ]


def default_source(table: Paytable) -> str | None:
    """The text of the file ``table`` was read from, if it still holds exactly those bytes
    (its SHA-256), else None."""
    if table.path is None or table.sha256 is None:
        return None
    try:
        text, raw = read_text(table.path)
    except (ExactOddsError, OSError):
        return None
    return text if hashlib.sha256(raw).hexdigest() == table.sha256 else None


def load_text(text: str, origin: str = "<export>") -> Paytable:
    """A paytable from TOML text, checked as the loader checks a file.

    >>> load_text('decks = 6\\n[bets.tie]\\nrows = [{ when = "otherwise", pays = "lose" }]').decks
    6
    """
    from exactodds.bets.loader import parse_paytable
    from exactodds.errors import PaytableError, first_problem

    table, problems = parse_paytable(parse_data(text, origin), origin, text)
    if table is None:
        raise first_problem(PaytableError, problems, "")
    return table


def _same(a: Paytable, b: Paytable) -> bool:
    """Whether two paytables state the same game (their files aside)."""
    keys = ("name", "description", "decks", "tableau", "bets", "source", "streaks", "multipliers")
    return all(getattr(a, k) == getattr(b, k) for k in keys)


def _cut(text: str, table: Paytable) -> Patchable | None:
    """The text cut around the slots of ``table``'s rows and description, proved by a probe;
    None where a slot cannot be found or the probe does not land."""
    spans = toml_values(text)
    wanted: list[tuple[KeyPath, Slot, tuple[int, int]]] = []
    bets: list[Bet | StreakBet] = list(table.every_bet)  # streak rows patched alike
    for bet in bets:
        for k in range(len(bet.rows)):
            path: KeyPath = ("bets", bet.id, "rows", k, "pays")
            if path not in spans:
                return None
            start, end = spans[path]
            wanted.append((path, Slot(text[start:end], bet.id, k), spans[path]))
    if ("description",) in spans:
        start, end = spans["description",]
        wanted.append((("description",), Slot(text[start:end]), (start, end)))
    else:
        wanted.append((("description",), Slot("", insert=True), (0, 0)))
    wanted.sort(key=lambda w: w[2])
    pieces: list[str | Slot] = []
    probe: list[str] = []
    at = 0
    for n, (_, slot, (start, end)) in enumerate(wanted):
        if start < at:
            return None
        pieces += [text[at:start], slot]
        marker = toml_string(f"\x00slot {n}")
        probe += [text[at:start], f"description = {marker}\n" if slot.insert else marker]
        at = end
    pieces.append(text[at:])
    probe.append(text[at:])
    try:
        original, probed = tomllib.loads(text), tomllib.loads("".join(probe))
    except tomllib.TOMLDecodeError:
        return None
    for n, (path, _, _) in enumerate(wanted):
        if _pop(probed, path) != f"\x00slot {n}":
            return None
        _pop(original, path)
    if probed != original:
        return None
    return Patchable(tuple(pieces), from_source=True)


def _pop(data: Any, path: KeyPath) -> Any:
    """Remove and return the value at ``path`` (None when it is not there)."""
    try:
        for key in path[:-1]:
            data = data[key]
        return data.pop(path[-1], None)
    except (KeyError, IndexError, TypeError):
        return None


def patchable(table: Paytable, source: str | None = None) -> Patchable:
    """``table``'s text ready for patching: ``source`` (the text of its file) when it states
    exactly ``table`` and every slot is found, else :func:`paytable_toml` of ``table``.

    >>> from exactodds.bets.loader import load_paytable
    >>> tie = load_paytable("tie-9")
    >>> patchable(tie.with_payout("tie", 0, "10:1"), default_source(tie)).from_source
    False
    """
    if source is not None:
        try:
            loaded = load_text(source)
        except ExactOddsError:
            loaded = None
        if loaded is not None and _same(loaded, table):
            cut = _cut(source, table)
            if cut is not None:
                return cut
    text = paytable_toml(table)
    cut = _cut(text, table)
    if cut is None:  # pragma: no cover - the writer's own text always cuts
        raise AssertionError("paytable_toml text could not be cut into slots")
    return Patchable(cut.pieces, from_source=False)
