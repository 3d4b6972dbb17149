"""Files that ship with exactodds (paytables, jurisdiction profiles), and how a sheet names an
input file so that it reads the same on every machine.

>>> [p.stem for p in bundled_files("profiles")]
['adm', 'gli-11', 'mga', 'nj']
>>> display_path(bundled_dir("paytables") / "classic.toml")
'paytables/classic.toml'
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Literal

from exactodds.errors import ExactOddsError, InputFileError, elide
from exactodds.escape import printable
from exactodds.suggest import suggestion

__all__ = [
    "Kind",
    "bundled_dir",
    "bundled_files",
    "bundled_paytables",
    "command_path",
    "default_paytable",
    "display_path",
    "resolve",
    "resolve_paytable",
    "sheet_path",
]

Kind = Literal["paytables", "profiles"]
"""The kinds of bundled files, each in its folder of the package's ``data``."""


def bundled_dir(kind: Kind) -> Path:
    """The folder of the bundled files of ``kind``."""
    return Path(str(resources.files("exactodds") / "data" / kind))


def bundled_files(kind: Kind) -> list[Path]:
    """The bundled TOML files of ``kind``, sorted by file name.

    >>> [p.stem for p in bundled_files("paytables")][:3]
    ['banker-streak', 'bonus-pairs', 'classic']
    """
    return sorted(bundled_dir(kind).glob("*.toml"))


def resolve(
    kind: Kind, spec: str | Path, error: type[ExactOddsError] = InputFileError
) -> tuple[Path, bool]:
    """The file a command-line name means, and whether it is a bundled one: an existing file, else
    the bundled file of that name (``classic``, ``classic.toml``, ``adm``), else ``error``
    naming the bundled files.

    >>> [(path.name, bundled) for path, bundled in (resolve("profiles", "adm"),)]
    [('adm.toml', True)]
    >>> resolve("profiles", "adn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: adn: file not found (...); did you mean 'adm'?
    """
    path = Path(spec)
    try:
        exists = path.exists()
    except OSError:  # a name too long for the system, say: no such file
        exists = False
    if exists:
        return path, False
    if len(path.parts) == 1:
        name = path.name if path.suffix == ".toml" else f"{path.name}.toml"
        bundled = {p.name: p for p in bundled_files(kind)}
        if name in bundled:
            return bundled[name], True
    names = [p.stem for p in bundled_files(kind)]
    shown = elide(printable(str(spec)), 80)
    raise error(f"{shown}: file not found (bundled {kind}: {', '.join(names)}){_hint(path, names)}")


_MAX_NEARBY = 1000
"""Most entries of a folder read for a "did you mean" (a huge folder is not listed)."""


def _hint(path: Path, bundled: list[str]) -> str:
    """``; did you mean …?`` for a mistyped file: the closest ``.toml`` file of the named
    folder (the current one for a bare name), or for a bare name the closest bundled name when
    it is closer; ``""`` when nothing is close."""
    name = path.name if path.suffix == ".toml" else f"{path.name}.toml"
    beside = _toml_files(path.parent)
    known = beside + ([f"{n}.toml" for n in bundled] if len(path.parts) == 1 else [])
    best = suggestion(name, known)
    if best is None:
        return ""
    meant = (path.parent / best).as_posix() if best in beside else best.removesuffix(".toml")
    return f"; did you mean {printable(meant)!r}?"


def _toml_files(folder: Path) -> list[str]:
    """The names of the first :data:`_MAX_NEARBY` ``.toml`` files of ``folder`` (none when it
    cannot be listed)."""
    found: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for n, entry in enumerate(entries):
                if n >= _MAX_NEARBY:
                    break
                if entry.name.endswith(".toml") and entry.is_file():
                    found.append(entry.name)
    except OSError:  # no such folder, not a folder, not readable: nothing to suggest
        return []
    return sorted(found)


def display_path(path: Path | None) -> str:
    """How an input file is named on a sheet: bundled paytables as ``paytables/NAME.toml``
    (the same on every machine), other files relative to the working directory when inside it,
    control characters escaped (a sheet is also printed on a terminal).

    >>> display_path(Path("games/house.toml")), display_path(None)
    ('games/house.toml', '')
    >>> display_path(Path("games/\x1b[2Jhouse.toml"))
    'games/\\\\x1b[2Jhouse.toml'
    """
    if path is None:
        return ""
    bundled = {p.resolve() for p in bundled_files("paytables")}
    if path.resolve() in bundled:
        return f"paytables/{path.name}"
    if path.is_absolute():
        try:
            return printable(path.relative_to(Path.cwd()).as_posix())
        except ValueError:
            pass
    return printable(path.as_posix())


def command_path(path: Path) -> str:
    """How a rerun command names an input file so that it runs from any folder: its absolute
    path, normalised, control characters escaped (a command is also printed on a terminal).

    >>> import os
    >>> command_path(Path("games/../house.toml")) == os.path.join(os.getcwd(), "house.toml")
    True
    """
    return printable(os.path.abspath(path))


def sheet_path(path: Path | None) -> str:
    """How a sheet names an input file: a bundled paytable as ``paytables/NAME.toml``, any
    other file by the absolute path its rerun command gives (:func:`command_path`), so the
    sheet and its command are the same from whichever folder they are made or run.

    >>> import os
    >>> sheet_path(Path("games/house.toml")) == os.path.join(os.getcwd(), "games", "house.toml")
    True
    """
    if path is None:
        return ""
    bundled = {p.resolve() for p in bundled_files("paytables")}
    return f"paytables/{path.name}" if path.resolve() in bundled else command_path(path)


def bundled_paytables() -> list[Path]:
    """The paytables that ship with exactodds, sorted by file name.

    >>> [p.stem for p in bundled_paytables()][:3]
    ['banker-streak', 'bonus-pairs', 'classic']
    """
    return bundled_files("paytables")


def default_paytable() -> Path:
    """The default game: ``classic.toml`` (traditional commission game, 8 decks, side bets).

    >>> default_paytable().name, default_paytable() in bundled_paytables()
    ('classic.toml', True)
    """
    return bundled_dir("paytables") / "classic.toml"


def resolve_paytable(spec: str | Path) -> Path:
    """A paytable path from a file path or the name of a bundled paytable (``classic``); see
    :func:`~exactodds.bets.bundled.resolve`.

    >>> resolve_paytable("classic") == default_paytable()
    True
    >>> resolve_paytable("clasic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: clasic: file not found (...); did you mean 'classic'?
    """
    return resolve("paytables", spec)[0]
