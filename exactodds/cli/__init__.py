"""The ``exactodds`` command line: a thin typer layer over the Python API.

Each command lives in its own module and registers itself on :data:`app`. Every
:class:`~exactodds.errors.ExactOddsError` is caught once, here, and printed as one line.
"""

from __future__ import annotations

import sys

import typer

from exactodds.errors import ExactOddsError

__all__ = ["app", "main"]

app = typer.Typer(
    name="exactodds",
    help="Exact combinatorial odds for baccarat and its side bets.",
    epilog=(
        "Examples: exactodds report  |  exactodds report mini --format html --out sheets/  |  "
        "exactodds odds --decks 6 --remove '6 6 7h'"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from exactodds import __version__

        typer.echo(f"exactodds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Exact combinatorial odds for baccarat and its side bets.

    Example: exactodds odds --decks 8
    """


# Importing a command module registers its commands on ``app``.
from exactodds.cli import (  # noqa: E402, F401
    check,
    compare,
    eor,
    odds,
    report,
    settle,
    simulate,
    solve,
    validate,
)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning project errors into one line and exit code 2."""
    try:
        app(args=argv, prog_name="exactodds")
    except ExactOddsError as exc:
        print(f"exactodds: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(1)
