"""Options shared by several commands, and the checks of the files they write."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from exactodds.payout import Notation

__all__ = [
    "AgainstOpt",
    "DecksOpt",
    "ForceOpt",
    "FormatOpt",
    "JsonOpt",
    "NotationOpt",
    "PaytableArg",
    "PaytablesArg",
    "RemoveOpt",
    "RulesOpt",
    "RulesOverrideOpt",
    "ShoeOpt",
    "check_format",
    "check_outputs",
    "check_plot_outputs",
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


def check_format(fmt: str, formats: Sequence[str]) -> str:
    """The ``--format`` value as one of ``formats`` (any case; ``markdown`` for ``md``), checked
    before any work; otherwise a usage error naming the choices (one line, exit 2).

    >>> check_format(" JSON", ("md", "json")), check_format("Markdown", ("md", "json"))
    ('json', 'md')
    >>> try:
    ...     check_format("xml", ("md", "json"))
    ... except typer.BadParameter as exc:
    ...     print(exc.format_message())
    Invalid value for --format: 'xml' is not one of 'md', 'json'
    """
    wanted = fmt.strip().lower()
    if wanted == "markdown" and "md" in formats:
        wanted = "md"
    if wanted not in formats:
        choices = ", ".join(repr(str(f)) for f in formats)
        raise typer.BadParameter(f"{fmt!r} is not one of {choices}", param_hint="--format")
    return wanted


ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Replace existing output files (refused otherwise)."),
]


def check_outputs(
    option: str,
    directory: Path,
    names: Iterable[str],
    *,
    force: bool,
    replaceable: Callable[[Path], bool] = lambda path: False,
) -> None:
    """Check, before any work, that ``names`` can be written into ``directory``: it is (or can
    be made) a directory we may write in, and no file there is replaced unless ``force`` or
    ``replaceable(path)`` (e.g. a sheet exactodds itself wrote). Never replaces a directory or
    a special file, even with ``force``."""
    from exactodds.errors import OutputError

    if directory.exists() and not directory.is_dir():
        raise OutputError(f"{option} {directory}: not a directory")
    parent = directory
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{option} {directory}: cannot write in {parent}")
    try:  # as the atomic writer will (access() says yes to root even where nothing can be made)
        fd, probe = tempfile.mkstemp(prefix=".exactodds-probe.", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputError(
            f"{option} {directory}: cannot write in {parent} ({exc.strerror or exc})"
        ) from None
    for name in names:
        path = directory / name
        if path.exists() and not path.is_file():
            raise OutputError(f"{path}: exists and is not a regular file")
        if (path.exists() or path.is_symlink()) and not force and not replaceable(path):
            raise OutputError(f"{path}: already exists (use --force to replace it)")


def check_plot_outputs(directory: Path, stem: str, force: bool) -> None:
    """Before any work: the ``plots`` extra is installed and the plot files may be written."""
    from exactodds.analysis.plots import check_plots, plot_names

    check_plots()
    check_outputs("--plots", directory, plot_names(stem), force=force)


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
