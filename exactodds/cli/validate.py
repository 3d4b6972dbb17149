"""``exactodds validate``: report every problem of paytable files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli.common import (
    BudgetOpt,
    DecksOpt,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    use_budget,
)

__all__ = ["SHOWN", "validate"]

SHOWN = 20
"""Problems printed per file; the rest are counted."""


EPILOG = """Examples:

\b
  exactodds validate examples/my-game.toml
  exactodds validate paytables/classic.toml examples/lucky-six.toml
  exactodds validate --allow-unreachable examples/my-game.toml
  exactodds validate examples/my-game.toml --rules pronto --decks 6"""


def validate(
    files: Annotated[
        list[Path], typer.Argument(metavar="FILE...", help="Paytable TOML files to check.")
    ],
    *,
    allow_unreachable: Annotated[
        bool,
        typer.Option(
            "--allow-unreachable",
            help="A row no round can reach is a warning, not a problem (generated tables; "
            "the file's allow_unreachable = true does the same for every command).",
        ),
    ] = False,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    budget: BudgetOpt = None,
) -> None:
    """Check paytable files: syntax, features, keys, payouts, unreachable rows, 'otherwise'.

    Each problem is one line (at most 20 per file, then how many more). A row that only the
    paytable's own shoe cannot settle (a perfect pair on one deck) is a warning, not a problem:
    the file is valid and its sheet shows the row with 0 combinations. So is a row that never
    occurs under the file's own rules but does under another built-in tableau (--rules). With
    --decks, --remove, --shoe or --rules, rows are judged under that game, as the commands
    given them judge them.
    """
    use_budget(budget)
    from exactodds.bets.game import GameChoice
    from exactodds.bets.loader import examine_paytable
    from exactodds.errors import error_line
    from exactodds.escape import printable

    game = GameChoice(decks, remove, shoe_file, rules)
    alone = None if game == GameChoice() else game
    bad = 0
    for path in files:
        table, problems = examine_paytable(path, alone, allow_unreachable=allow_unreachable)
        if table is None:
            bad += 1
            for problem in problems[:SHOWN]:
                print(error_line(problem), file=sys.stderr)
            if len(problems) > SHOWN:
                more = error_line(f"{path}: … and {len(problems) - SHOWN} more problems")
                print(more, file=sys.stderr)
        else:
            for warning in table.warnings:
                print(error_line(warning, "warning"), file=sys.stderr)
            typer.echo(f"{printable(str(path))}: ok")
    if bad and len(files) > 1:
        print(error_line(f"{bad} of {len(files)} files have problems"), file=sys.stderr)
    if bad:
        raise typer.Exit(2)
