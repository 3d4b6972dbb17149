"""Options shared by several commands, and the shoe they describe."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from exactodds.payout import Notation

__all__ = [
    "AgainstOpt",
    "DecksOpt",
    "FormatOpt",
    "JsonOpt",
    "NotationOpt",
    "PaytableArg",
    "PaytablesArg",
    "RemoveOpt",
    "RulesOpt",
    "RulesOverrideOpt",
    "ShoeOpt",
]

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
PaytableArg = Annotated[
    str | None,
    typer.Argument(
        help="Paytable TOML file or bundled name: classic, ez, mini, … (default: classic).",
        show_default=False,
    ),
]
AgainstOpt = Annotated[
    str | None,
    typer.Option(
        "--against",
        help="Jurisdiction profiles, comma-separated: adm, gli-11, mga, nj or a profile TOML file.",
        show_default=False,
    ),
]
NotationOpt = Annotated[
    Notation,
    typer.Option(
        "--notation",
        help="Payouts stated 'a to 1', 'a for 1', or both beside the payout as written.",
        case_sensitive=False,
    ),
]
PaytablesArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Paytable files or bundled names (e.g. classic). Default: classic.",
        show_default=False,
    ),
]
RulesOverrideOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help="Tableau instead of the paytable's: punto-banco, mini, pronto or a file.",
    ),
]
