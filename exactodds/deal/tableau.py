"""Drawing rules (the tableau) as data: who draws a third card, by two-card totals.

A tableau is a player draw set and a banker matrix indexed by banker two-card total (0–7) and
the player's third-card value, or :data:`STOOD` when the player did not draw. It is only data:
:mod:`exactodds.deal.round` interprets it (naturals, a two-card 8 or 9 in either hand, always end
the deal).

>>> pb = Tableau.named("punto-banco")
>>> 8 in pb.banker[3], 9 in pb.banker[3], STOOD in pb.banker[5]
(False, True, True)
>>> STOOD in Tableau.named("mini").banker[5]
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactodds.errors import TableauError, named, quote, require
from exactodds.files import names_file, read_data
from exactodds.limits import MAX_NAME_CHARS, MAX_TEXT_CHARS, check_length
from exactodds.suggest import did_you_mean

__all__ = ["BUILTIN", "STOOD", "Tableau", "load_tableau"]

STOOD = 10
"""Column of the banker matrix used when the player stood (had no third card); wherever a third
card is an int (outcome codes, numpy arrays), this is the value for "none"."""

_ALL = frozenset(range(11))


@dataclass(frozen=True)
class Tableau:
    """Third-card rules. ``banker`` has 8 rows (banker total 0..7) of draw columns, each a
    frozenset of player third-card values 0..9 and/or :data:`STOOD`.

    >>> rules = {"player_draw": list(range(6)), "banker_draw": {str(t): "any" for t in range(6)}}
    >>> Tableau.from_mapping(rules)
    Traceback (most recent call last):
    ...
    exactodds.errors.TableauError: rules 'custom': banker_draw is missing total 6
    >>> rules["banker_draw"] |= {"6": ["stood", 6, 7], "7": "none"}
    >>> t = Tableau.from_mapping(rules)
    >>> STOOD in t.banker[6], 8 in t.banker[6], 6 in t.banker[7]
    (True, False, False)
    """

    name: str
    player: frozenset[int]
    banker: tuple[frozenset[int], ...]
    description: str = ""

    def __post_init__(self) -> None:
        bad = sorted(t for t in self.player if t not in range(8))
        if bad:
            raise TableauError(
                f"tableau {self.name!r}: player draw total {bad[0]!r} must be 0..7 "
                "(8 and 9 are naturals)"
            )
        if len(self.banker) != 8:
            raise TableauError(f"tableau {self.name!r}: banker matrix needs rows 0..7")
        for total, row in enumerate(self.banker):
            extra = sorted(c for c in row if c not in _ALL)
            if extra:
                raise TableauError(
                    f"tableau {self.name!r}: banker total {total}: column {extra[0]!r} must be "
                    "'stood' or a third-card value 0..9"
                )

    def data(self) -> dict[str, Any]:
        """The tableau as JSON-ready data, in the shape :meth:`from_mapping` reads (columns
        sorted, ``"stood"`` first).

        >>> d = BUILTIN["punto-banco"].data()
        >>> d["player_draw"], d["banker_draw"]["6"], Tableau.from_mapping(d).banker == BUILTIN[
        ...     "punto-banco"
        ... ].banker
        ([0, 1, 2, 3, 4, 5], [6, 7], True)
        """
        return {
            "name": self.name,
            "player_draw": sorted(self.player),
            "banker_draw": {
                str(total): [
                    "stood" if v == STOOD else v
                    for v in sorted(row, key=lambda v: -1 if v == STOOD else v)
                ]
                for total, row in enumerate(self.banker)
            },
        }

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def named(cls, name: str) -> Tableau:
        """A built-in tableau: ``punto-banco``, ``mini`` or ``pronto``."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        key = {"puntobanco": "punto-banco", "standard": "punto-banco"}.get(key, key)
        if key not in BUILTIN:
            raise TableauError(
                f"unknown rules {quote(name)}: use one of {', '.join(BUILTIN)} or a TOML file"
                + did_you_mean(key, BUILTIN)
            )
        return BUILTIN[key]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], default_name: str = "custom") -> Tableau:
        """Build a tableau from parsed TOML data.

        Keys: ``name``, ``description``, ``player_draw`` (list of totals) and ``banker_draw`` (a
        table with keys "0".."7", each a list of third-card values and/or "stood", or "any" /
        "none").
        """
        known = {"name", "description", "player_draw", "banker_draw"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TableauError(
                f"unknown key {quote(unknown[0])} in rules (expected {sorted(known)})"
                + did_you_mean(str(unknown[0]), known)
            )
        name = data.get("name", default_name)
        if not isinstance(name, str):
            raise TableauError(f"rules name must be a string, not {quote(name)}")
        check_length(name, MAX_NAME_CHARS, "rules name", TableauError, show=True)
        if "player_draw" not in data:
            raise TableauError(f"rules {name!r}: missing 'player_draw' (list of totals 0..7)")
        if "banker_draw" not in data:
            raise TableauError(f"rules {name!r}: missing 'banker_draw' table for totals 0..7")
        player = _int_list(data["player_draw"], f"rules {name!r}: player_draw")
        banker_data = data["banker_draw"]
        if not isinstance(banker_data, Mapping):
            raise TableauError(f"rules {name!r}: 'banker_draw' must be a table with keys 0..7")
        rows: list[frozenset[int]] = []
        keys: dict[str, Any] = {}
        for k, v in banker_data.items():
            if str(k).strip() in keys:
                raise TableauError(
                    f"rules {name!r}: banker_draw total {quote(k, 20)} is given twice"
                )
            keys[str(k).strip()] = v
        extra = sorted(set(keys) - {str(t) for t in range(8)})
        if extra:
            raise TableauError(
                f"rules {name!r}: banker_draw key {quote(extra[0], 20)} is not a banker total 0..7"
            )
        for total in range(8):
            if str(total) not in keys:
                raise TableauError(f"rules {name!r}: banker_draw is missing total {total}")
            rows.append(_banker_row(keys[str(total)], f"rules {name!r}: banker_draw.{total}"))
        description = data.get("description", "")
        if not isinstance(description, str):
            raise TableauError(
                f"rules {name!r}: description must be a string, not {quote(description)}"
            )
        check_length(description, MAX_TEXT_CHARS, f"rules {name!r}: description", TableauError)
        return cls(name, frozenset(player), tuple(rows), description)

    @classmethod
    def from_file(cls, path: str | Path) -> Tableau:
        """Read a custom tableau from a TOML file (see :meth:`from_mapping`)."""
        data = read_data(path).data
        with named(str(path), TableauError):
            return cls.from_mapping(data, default_name=Path(path).stem)


def _int_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise TableauError(f"{where} must be a list of totals, not {quote(value)}")
    out = []
    for v in value:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 7:
            raise TableauError(f"{where}: {quote(v)} is not a total 0..7")
        out.append(v)
    return out


def _banker_row(value: Any, where: str) -> frozenset[int]:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("any", "all", "always"):
            return _ALL
        if word in ("none", "never"):
            return frozenset()
        raise TableauError(f"{where}: {quote(value)} is not a list, 'any' or 'none'")
    if not isinstance(value, list):
        raise TableauError(f"{where} must be a list of values 0..9 and 'stood', not {quote(value)}")
    out = set()
    for v in value:
        if isinstance(v, str) and v.strip().lower() == "stood":
            out.add(STOOD)
        elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9:
            out.add(v)
        else:
            raise TableauError(f"{where}: {quote(v)} is not a third-card value 0..9 or 'stood'")
    return frozenset(out)


def _matrix(stood: range, table: Mapping[int, Iterable[int]]) -> tuple[frozenset[int], ...]:
    return tuple(
        frozenset(table.get(t, ())) | (frozenset({STOOD}) if t in stood else frozenset())
        for t in range(8)
    )


_PB_THIRD = {
    0: range(10),
    1: range(10),
    2: range(10),
    3: (0, 1, 2, 3, 4, 5, 6, 7, 9),
    4: range(2, 8),
    5: range(4, 8),
    6: (6, 7),
}

BUILTIN: dict[str, Tableau] = {
    "punto-banco": Tableau(
        "punto-banco",
        frozenset(range(6)),
        _matrix(range(6), _PB_THIRD),
        "Standard Punto Banco: banker draws on 0-5 when the player stood, else by the table.",
    ),
    "mini": Tableau(
        "mini",
        frozenset(range(6)),
        _matrix(range(4), _PB_THIRD),
        "Mini: the banker follows the third-card table alone (0-2 draw; 3 draws unless the "
        "player's third card is an 8; 4 on 2-7; 5 on 4-7; 6 on 6-7); a player who stood has no "
        "third card, so the banker then draws on 0-3.",
    ),
    "pronto": Tableau(
        "pronto",
        frozenset(range(6)),
        tuple(_ALL if t <= 4 else frozenset() for t in range(8)),
        "Pronto: the banker draws on 0-4 and stands on 5-7, whatever the player did.",
    ),
}
"""The tableaux that ship with exactodds (docs/rules.md §3)."""


def load_tableau(spec: str | Tableau | None) -> Tableau:
    """A tableau from a built-in name, a TOML file path, or an existing tableau.

    >>> load_tableau(None).name, load_tableau("Mini") is BUILTIN["mini"]
    ('punto-banco', True)
    """
    require(spec, (str, Tableau, type(None)), "spec")
    if spec is None:
        return BUILTIN["punto-banco"]
    if isinstance(spec, Tableau):
        return spec
    key = spec.strip().lower().replace("_", "-")
    if key in BUILTIN or key in ("puntobanco", "standard"):
        return Tableau.named(spec)
    if spec.endswith((".toml", ".json")) or names_file(spec):
        return Tableau.from_file(spec)
    return Tableau.named(spec)
