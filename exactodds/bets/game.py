"""Which game a command works on: the shoe and drawing rules chosen by ``--decks``, ``--remove``,
``--shoe`` and ``--rules``, or a paytable's own.

One value, :class:`GameChoice`, travels from the command line to every command and to a sheet's
rerun command, which it writes back as options (:meth:`GameChoice.options`).

>>> from exactodds.bets.loader import load_paytable
>>> choice = GameChoice(decks=6, remove="6 6", rules="mini")
>>> shoe, tableau = choice.resolve(load_paytable("classic"))
>>> shoe.describe(), tableau.name, choice.options()
('6 decks less 6c 6d (310 cards)', 'mini', ['--decks', '6', '--remove', '6 6', '--rules', 'mini'])
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.bets.bundled import command_path

if TYPE_CHECKING:
    from exactodds.bets.paytable import Paytable
    from exactodds.deal.shoe import Shoe
    from exactodds.deal.tableau import Tableau

__all__ = ["PAYTABLE_GAME", "GameChoice"]

DEFAULT_DECKS = 8
"""Decks of the shoe when neither the options nor a paytable say."""


@dataclass(frozen=True)
class GameChoice:
    """The options that choose a game; each one left None takes the paytable's own (8 decks of
    Punto Banco without a paytable). ``remove`` is the cards as given (``"6 6 7h"``),
    ``shoe_file`` a shoe composition file, ``rules`` a built-in tableau name or a rules file."""

    decks: int | None = None
    remove: str | None = None
    shoe_file: Path | None = None
    rules: str | None = None

    def shoe(self, paytable: Paytable | None = None) -> Shoe:
        """The shoe: the options', else the paytable's decks (:meth:`Shoe.from_options`).

        >>> GameChoice(remove="Kd").shoe().describe()
        '8 decks less Kd (415 cards)'
        """
        from exactodds.deal.shoe import Shoe

        default = DEFAULT_DECKS if paytable is None else paytable.decks
        return Shoe.from_options(self.decks, self.remove, self.shoe_file, default_decks=default)

    def tableau(self, paytable: Paytable | None = None) -> Tableau:
        """The drawing rules: ``rules``, else the paytable's (Punto Banco without one)."""
        from exactodds.deal.tableau import load_tableau

        if self.rules is not None:
            return load_tableau(self.rules)
        return load_tableau("punto-banco") if paytable is None else paytable.tableau

    def resolve(self, paytable: Paytable | None = None) -> tuple[Shoe, Tableau]:
        """The shoe and the drawing rules of ``paytable`` under these options."""
        return self.shoe(paytable), self.tableau(paytable)

    @property
    def rules_file(self) -> Path | None:
        """The rules file named by ``rules`` (None for a built-in tableau or none).

        >>> GameChoice(rules="mini").rules_file, GameChoice(rules="my.toml").rules_file
        (None, PosixPath('my.toml'))
        """
        from exactodds.deal.tableau import BUILTIN

        return None if self.rules is None or self.rules in BUILTIN else Path(self.rules)

    def options(self) -> list[str]:
        """The command-line options that give this choice (``--decks``, ``--shoe``,
        ``--remove``, ``--rules``, in that order), files by their absolute paths (a rerun
        command runs from any folder).

        >>> import os
        >>> options = GameChoice(shoe_file=Path("./shoes/s.toml"), rules="pronto").options()
        >>> options[1] == os.path.join(os.getcwd(), "shoes", "s.toml"), options[::2]
        (True, ['--shoe', '--rules'])
        """
        out: list[str] = []
        if self.decks is not None:
            out += ["--decks", str(self.decks)]
        if self.shoe_file is not None:
            out += ["--shoe", command_path(self.shoe_file)]
        if self.remove:
            out += ["--remove", self.remove]
        if self.rules is not None:
            rules_file = self.rules_file
            out += ["--rules", self.rules if rules_file is None else command_path(rules_file)]
        return out

    @classmethod
    def of(cls, paytable: Paytable, shoe: Shoe, tableau: Tableau) -> GameChoice | None:
        """The choice that gives ``shoe`` and ``tableau`` for ``paytable``: full or depleted
        decks and a built-in tableau, each only where it differs from the paytable's; None
        when options cannot say them (a shoe of arbitrary composition, rules of a file).

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.deal.shoe import Shoe
        >>> from exactodds.deal.tableau import Tableau
        >>> classic = load_paytable("classic")
        >>> GameChoice.of(classic, Shoe.from_options(6, "6 6"), Tableau.named("mini"))
        GameChoice(decks=6, remove='6c 6d', shoe_file=None, rules='mini')
        >>> GameChoice.of(classic, classic.shoe, classic.tableau)
        GameChoice(decks=None, remove=None, shoe_file=None, rules=None)
        """
        from exactodds.deal.tableau import BUILTIN

        decks: int | None = None
        remove: str | None = None
        rules: str | None = None
        if shoe != paytable.shoe:
            depleted = shoe.depletion()
            if depleted is None:
                return None
            n, cards = depleted
            decks = n if n != paytable.decks else None
            remove = " ".join(str(c) for c in cards) or None
        if tableau != paytable.tableau:
            if BUILTIN.get(tableau.name) != tableau:
                return None
            rules = tableau.name
        return cls(decks, remove, None, rules)


PAYTABLE_GAME = GameChoice()
"""No option given: every paytable on its own shoe and rules."""
