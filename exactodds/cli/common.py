"""Options shared by several commands, and the shoe they describe."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from exactodds.shoe import Shoe

__all__ = ["DecksOpt", "FormatOpt", "JsonOpt", "RemoveOpt", "RulesOpt", "ShoeOpt", "build_shoe"]

DecksOpt = Annotated[
    int | None, typer.Option("--decks", "-d", help="Number of 52-card decks in the shoe.")
]
RemoveOpt = Annotated[
    str | None,
    typer.Option(
        "--remove", "-r", help="Cards removed from the shoe, e.g. '6 6 7h Kd' (T or 10 for tens)."
    ),
]
ShoeOpt = Annotated[
    Path | None,
    typer.Option("--shoe", help="Shoe composition file (TOML or JSON: decks, ranks or cards)."),
]
RulesOpt = Annotated[
    str, typer.Option("--rules", help="Tableau: punto-banco, mini, pronto, or a TOML file.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="Output format.")]


def build_shoe(
    decks: int | None, remove: str | None, shoe_file: Path | None, default_decks: int = 8
) -> Shoe:
    """The shoe described by ``--decks``, ``--shoe`` and ``--remove`` (removals apply last).

    ``--decks`` is checked by :meth:`Shoe.decks`, so ``--decks 0`` is a one-line project error.
    """
    if shoe_file is not None and decks is not None:
        from exactodds.errors import ShoeError

        raise ShoeError("give either --decks or --shoe, not both")
    if shoe_file is not None:
        shoe = Shoe.from_file(shoe_file)
    else:
        shoe = Shoe.decks(default_decks if decks is None else decks)
    return shoe.remove(remove) if remove else shoe
