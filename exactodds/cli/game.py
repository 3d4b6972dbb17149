"""The shoe and drawing rules a command works with: the paytable's, or the ones the options
``--decks``, ``--remove``, ``--shoe`` and ``--rules`` give (as for ``report``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exactodds.paytable import Paytable
    from exactodds.shoe import Shoe
    from exactodds.tableau import Tableau

__all__ = ["game_shoe_and_rules"]


def game_shoe_and_rules(
    table: Paytable,
    decks: int | None,
    remove: str | None,
    shoe_file: Path | None,
    rules: str | None,
) -> tuple[Shoe, Tableau]:
    """The shoe (:meth:`~exactodds.shoe.Shoe.from_options`, default the paytable's decks) and
    the tableau (``rules``, else the paytable's).

    >>> from exactodds.paytable_loader import load_paytable
    >>> shoe, tableau = game_shoe_and_rules(load_paytable("classic"), 6, "6 6", None, "mini")
    >>> shoe.describe(), tableau.name
    ('6 decks less 6c 6d (310 cards)', 'mini')
    """
    from exactodds.shoe import Shoe
    from exactodds.tableau import load_tableau

    shoe = Shoe.from_options(decks, remove, shoe_file, default_decks=table.decks)
    return shoe, table.tableau if rules is None else load_tableau(rules)
