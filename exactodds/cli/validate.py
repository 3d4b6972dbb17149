"""``exactodds validate``: report every problem of paytable files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli import app

__all__ = ["validate"]


@app.command(epilog="Example: exactodds validate paytables/classic.toml my-game.toml")
def validate(
    files: Annotated[list[Path], typer.Argument(help="Paytable TOML files to check.")],
) -> None:
    """Check paytable files: syntax, features, keys, payouts, unreachable rows, 'otherwise'.

    A row that only the paytable's own shoe cannot settle (a perfect pair on one deck) is a
    warning, not a problem: the file is valid and its sheet shows the row with 0 combinations.
    """
    from exactodds.paytable import check_paytable, load_paytable

    bad = 0
    for path in files:
        problems = check_paytable(path)
        if problems:
            bad += 1
            for problem in problems:
                print(problem, file=sys.stderr)
        else:
            for warning in load_paytable(path).warnings:
                print(f"exactodds: warning: {warning}", file=sys.stderr)
            typer.echo(f"{path}: ok")
    if bad:
        print(f"exactodds: {bad} of {len(files)} file(s) have problems", file=sys.stderr)
        raise typer.Exit(2)
