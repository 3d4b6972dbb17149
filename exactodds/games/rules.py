"""Chemin de fer rules as data: which cells of the tableau are a free choice, and the models.

A rules set names the Player totals where the Player chooses to draw or stand and the Banker
cells — (Banker total 0-7, Player's third card 0-9 or "stood") — where the Banker chooses; every
other cell follows a base tableau (punto banco's unless the file names another built-in one).

>>> r = CheminRules.named("traditional")
>>> sorted(r.player_free), sorted(r.banker_free)
([5], [(3, 9), (4, 1), (5, 4), (6, 10)])
>>> len(CheminRules.named("free-everywhere").banker_free)
88
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exactodds.deal.tableau import STOOD, Tableau
from exactodds.errors import ExactOddsError, named, quote
from exactodds.files import names_file, read_data
from exactodds.limits import MAX_NAME_CHARS, MAX_TEXT_CHARS, check_length
from exactodds.suggest import did_you_mean

__all__ = ["BUILTIN_RULES", "CheminRules", "GameError", "Model", "column_name", "load_rules"]


class GameError(ExactOddsError):
    """A bad model name, rules file or option of a game with choices."""


class Model(enum.Enum):
    """How the cards are dealt and what each side sees of his own two cards."""

    KEMENY_SNELL = "kemeny-snell"
    """With replacement; each side sees his own total only (Kemeny & Snell 1957)."""
    DOWNTON_LOCKWOOD = "downton-lockwood"
    """Without replacement; the Banker sees his two cards, the Player his total (1975)."""
    ETHIER_GAMEZ = "ethier-gamez"
    """Without replacement; each side sees his own two cards (Ethier & Gámez 2013)."""

    @property
    def replacement(self) -> bool:
        """Whether the cards are dealt with replacement."""
        return self is Model.KEMENY_SNELL

    @property
    def player_sees_cards(self) -> bool:
        """Whether the Player's information is his two cards (else his total)."""
        return self is Model.ETHIER_GAMEZ

    @property
    def banker_sees_cards(self) -> bool:
        """Whether the Banker's information is his two cards (else his total)."""
        return self is not Model.KEMENY_SNELL

    @classmethod
    def named(cls, name: str) -> Model:
        """The model of a name; a misspelt one gets a suggestion.

        >>> Model.named("Downton_Lockwood").value
        'downton-lockwood'
        >>> Model.named("kemeny-snel")
        Traceback (most recent call last):
        ...
        exactodds.games.rules.GameError: unknown model 'kemeny-snel' (use kemeny-snell, \
downton-lockwood, ethier-gamez); did you mean 'kemeny-snell'?
        """
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        known = [m.value for m in cls]
        if key not in known:
            raise GameError(
                f"unknown model {quote(name, 40)} (use {', '.join(known)})"
                + did_you_mean(key, known)
            )
        return cls(key)


def column_name(col: int) -> str:
    """A Banker column as text: the Player's third card, or ``stood``."""
    return "stood" if col == STOOD else str(col)


_COLUMNS = (*range(10), STOOD)


@dataclass(frozen=True)
class CheminRules:
    """Free cells of chemin de fer; the rest follow ``base``."""

    name: str
    player_free: frozenset[int]
    banker_free: frozenset[tuple[int, int]]
    base: Tableau = field(default_factory=lambda: Tableau.named("punto-banco"))
    description: str = ""

    def player_draws(self, total: int) -> bool:
        """The fixed Player rule at a total (meaningless where the Player is free)."""
        return total in self.base.player

    def banker_draws(self, total: int, col: int) -> bool:
        """The fixed Banker rule at a cell (meaningless where the Banker is free)."""
        return col in self.base.banker[total]

    @classmethod
    def named(cls, name: str) -> CheminRules:
        """A built-in rules set: ``traditional`` or ``free-everywhere``."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        if key not in BUILTIN_RULES:
            raise GameError(
                f"unknown rules {quote(name, 40)}: use one of {', '.join(BUILTIN_RULES)} or a "
                "TOML file" + did_you_mean(key, BUILTIN_RULES)
            )
        return BUILTIN_RULES[key]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], default_name: str = "custom") -> CheminRules:
        """Rules from parsed TOML: ``name``, ``description``, ``base`` (a built-in tableau),
        ``player_free`` (Player totals 0-7, or ``"all"``) and ``banker_free`` (a table of Banker
        totals 0-7, each a list of third cards 0-9 and ``"stood"``, or ``"all"``), or ``"all"``.

        >>> CheminRules.from_mapping({"player_free": [5], "banker_free": {"8": [1]}})
        Traceback (most recent call last):
        ...
        exactodds.games.rules.GameError: rules 'custom': banker_free: there is no Banker cell \
at total '8' (a two-card 8 or 9 is a natural: the Banker chooses at totals 0-7)
        """
        known = {"name", "description", "base", "player_free", "banker_free"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise GameError(
                f"unknown key {quote(unknown[0], 40)} in rules "
                f"(expected {', '.join(sorted(known))})" + did_you_mean(str(unknown[0]), known)
            )
        name = data.get("name", default_name)
        if not isinstance(name, str):
            raise GameError(f"rules name must be a string, not {quote(name)}")
        check_length(name, MAX_NAME_CHARS, "rules name", GameError, show=True)
        where = f"rules {name!r}"
        description = data.get("description", "")
        if not isinstance(description, str):
            raise GameError(f"{where}: description must be a string")
        check_length(description, MAX_TEXT_CHARS, f"{where}: description", GameError)
        base_name = data.get("base", "punto-banco")
        if not isinstance(base_name, str):
            raise GameError(f"{where}: base must be a built-in tableau name")
        try:
            base = Tableau.named(base_name)
        except ExactOddsError as exc:
            raise GameError(f"{where}: base: {exc}") from None
        player = data.get("player_free", [5])
        if _is_all(player):
            player = list(range(8))
        if not isinstance(player, list):
            raise GameError(f'{where}: player_free must be a list of Player totals 0-7, or "all"')
        player_free: set[int] = set()
        for v in player:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 7:
                raise GameError(
                    f"{where}: player_free: there is no Player choice at {quote(v, 20)} (the "
                    "Player chooses at totals 0-7; 8 and 9 are naturals)"
                )
            if v in player_free:  # a typo for another total, likely: never silently merged
                raise GameError(f"{where}: player_free names the total {v} twice")
            player_free.add(v)
        return cls(
            name,
            frozenset(player_free),
            _banker_cells(data.get("banker_free", {}), f"{where}: banker_free"),
            base,
            description,
        )

    @classmethod
    def from_file(cls, path: str | Path) -> CheminRules:
        """Rules from a TOML or JSON file (see :meth:`from_mapping`)."""
        data = read_data(path).data
        with named(str(path), GameError):
            return cls.from_mapping(data, default_name=Path(path).stem)


def _is_all(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in ("all", "any")


def _banker_cells(value: Any, where: str) -> frozenset[tuple[int, int]]:
    if _is_all(value):
        return frozenset((t, c) for t in range(8) for c in _COLUMNS)
    if not isinstance(value, Mapping):
        raise GameError(f'{where} must be a table of Banker totals 0-7, or "all"')
    out: set[tuple[int, int]] = set()
    for key, cols in value.items():
        text = str(key).strip()
        if text not in {str(t) for t in range(8)}:
            raise GameError(
                f"{where}: there is no Banker cell at total {quote(key, 20)} (a two-card 8 or 9 "
                "is a natural: the Banker chooses at totals 0-7)"
            )
        total = int(text)
        if any(t == total for t, _ in out):  # " 3" and "3" in JSON: one total, twice
            raise GameError(f"{where}: the Banker total {total} is named twice")
        if _is_all(cols):
            out.update((total, c) for c in _COLUMNS)
            continue
        if not isinstance(cols, list):
            raise GameError(f'{where}.{total} must be a list of third cards 0-9 and "stood"')
        for c in cols:
            if isinstance(c, str) and c.strip().lower() == "stood":
                cell = (total, STOOD)
            elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 9:
                cell = (total, c)
            else:
                raise GameError(
                    f"{where}.{total}: there is no cell {quote(c, 20)} (a column is the "
                    'Player\'s third card 0-9 or "stood")'
                )
            if cell in out:  # a typo for another column, likely: never silently merged
                raise GameError(f"{where}.{total}: names the cell {quote(c, 20)} twice")
            out.add(cell)
    return frozenset(out)


BUILTIN_RULES: dict[str, CheminRules] = {
    "traditional": CheminRules(
        "traditional",
        frozenset({5}),
        frozenset({(3, 9), (4, 1), (5, 4), (6, STOOD)}),
        description=(
            "Chemin de fer as casinos print it: the Player draws on 0-4, stands on 6-7 and "
            "chooses on 5; the Banker follows the punto banco tableau except four optional "
            "cells: 3 against a third card 9, 4 against 1, 5 against 4, 6 when the Player stood."
        ),
    ),
    "free-everywhere": CheminRules(
        "free-everywhere",
        frozenset({5}),
        frozenset((t, c) for t in range(8) for c in _COLUMNS),
        description=(
            "The game of Kemeny & Snell and Ethier & Gámez: the Player chooses on 5 only; the "
            "Banker chooses in all 88 cells (totals 0-7 × third card 0-9 or stood)."
        ),
    ),
}
"""The rules sets that ship with exactodds."""


def load_rules(spec: str | CheminRules | None) -> CheminRules:
    """Rules from a built-in name, a file path or a rules object (default traditional)."""
    if spec is None:
        return BUILTIN_RULES["traditional"]
    if isinstance(spec, CheminRules):
        return spec
    key = spec.strip().lower().replace("_", "-")
    if key in BUILTIN_RULES:
        return BUILTIN_RULES[key]
    if spec.endswith((".toml", ".json")) or names_file(spec):
        return CheminRules.from_file(spec)
    return CheminRules.named(spec)
