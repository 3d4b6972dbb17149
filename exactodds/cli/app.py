"""The typer application: the root options and every command, each from its own module (which
holds the command's function and its help epilog)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import typer

from exactodds.cli import (
    check,
    compare,
    eor,
    exposure,
    game,
    montecarlo,
    odds,
    report,
    session,
    settle,
    simulate,
    solve,
    validate,
)

__all__ = ["app", "command_for"]

app = typer.Typer(
    name="exactodds",
    help="Exact combinatorial odds for baccarat and its side bets.",
    epilog="""Examples:

\b
  exactodds report
  exactodds report mini --format html --out sheets/
  exactodds odds --decks 6 --remove '6 6 7h'""",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from exactodds._version import VERSION as __version__

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


for _module, _command in (
    (check, check.check),
    (compare, compare.compare),
    (eor, eor.eor),
    (exposure, exposure.exposure),
    (montecarlo, montecarlo.montecarlo),
    (odds, odds.odds),
    (report, report.report),
    (session, session.session),
    (settle, settle.settle),
    (simulate, simulate.simulate),
    (solve, solve.solve),
    (validate, validate.validate),
):
    app.command(epilog=_module.EPILOG)(_command)

app.add_typer(game.app, name="game")


def command_for(args: Sequence[str]) -> Any:
    """The click command that runs ``args``: when they start with a command's name, the root
    group holding only that command (typer builds every command's options from its signature,
    ~3 ms each, on every start), else the whole group. Usage, help and errors are the same."""
    name = args[0] if args else None
    only = [info for info in app.registered_commands if _name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not only and not groups:
        return typer.main.get_command(app)
    lean = copy.copy(app)
    lean.registered_commands = only
    lean.registered_groups = groups
    return typer.main.get_command(lean)


def _name(info: Any) -> str | None:
    """The command-line name of a registered command (as typer derives it)."""
    if info.name:
        return str(info.name)
    callback = info.callback
    return None if callback is None else callback.__name__.lower().replace("_", "-")
