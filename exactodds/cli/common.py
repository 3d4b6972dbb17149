"""Options shared by several commands, the one ``--format`` option, and the checks of the files
commands write.

One grammar for every command: an output format is ``--format`` (never a flag of its own), its
choices listed as the option's metavar (``md|json``) and in its help; literal choices are written
in lower case (``to|for|both``), placeholders in upper case (``N``, ``FILE``, ``CARDS``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from exactodds.bets.payout import Notation
from exactodds.formats import Format

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet, Paytable

__all__ = [
    "AgainstOpt",
    "AllowPlayerEdgeOpt",
    "BetIdsOpt",
    "DecksOpt",
    "ForceOpt",
    "Format",
    "LeftOut",
    "NotationOpt",
    "OutDirOpt",
    "PaytableArg",
    "PaytablesArg",
    "RemoveOpt",
    "RulesOverrideOpt",
    "ShoeOpt",
    "bets_left_out",
    "check_format",
    "check_outputs",
    "check_plot_outputs",
    "deprecated",
    "echo_leaving_out",
    "format_option",
    "live_left_out",
    "streaks_left_out",
]

DecksOpt = Annotated[
    int | None,
    typer.Option("--decks", "-d", metavar="N", help="Number of 52-card decks in the shoe."),
]
RemoveOpt = Annotated[
    str | None,
    typer.Option(
        "--remove",
        "-r",
        metavar="CARDS",
        help="Cards removed from the shoe, e.g. '6 6 7h Kd' (T or 10 for tens).",
    ),
]
ShoeOpt = Annotated[
    Path | None,
    typer.Option(
        "--shoe",
        metavar="FILE",
        help="Shoe composition file (TOML or JSON: decks, ranks or cards).",
    ),
]
PaytableArg = Annotated[
    str | None,
    typer.Argument(
        metavar="PAYTABLE",
        help="Paytable TOML file or bundled name: classic, ez, mini, … (default: classic).",
        show_default=False,
    ),
]


def format_option(*choices: str, default: str | None, note: str = "") -> Any:
    """The ``--format`` option of a command taking ``choices``: listed as its metavar and in
    its help, with the default and a ``note``.

    >>> format_option("md", "json", default="md").metavar
    'md|json'
    """
    assert all(c in Format.__members__.values() for c in choices), choices
    text = f"Output format: {', '.join(choices)}"
    if default is not None:
        text += f" (default: {default})"
    return typer.Option(
        "--format",
        "-f",
        metavar="|".join(choices),
        help=f"{text}{'; ' + note if note else ''}.",
        show_default=False,
    )


@dataclass(frozen=True)
class LeftOut:
    """A bet a command left out, and why (a sentence)."""

    bet: str
    name: str
    reason: str


STREAK_REASON = (
    "a streak bet, settled over several rounds: exactodds simulate and exactodds report "
    "play it (or leave it out with --bet)"
)


def streaks_left_out(table: Paytable) -> list[LeftOut]:
    """The streak bets of ``table``, left out by a command that reads single rounds (the live
    bets too: :func:`bets_left_out`)."""
    return [LeftOut(b.id, b.name, STREAK_REASON) for b in table.streaks]


def bets_left_out(
    table: Paytable, command: str = "", handles: Iterable[str] = ()
) -> tuple[Paytable, list[LeftOut]]:
    """``table`` without the bets a command reading single rounds cannot settle, and those bets
    with the reason: the streak bets, and the bets with a live feature (``Bet.live``: fee,
    multipliers, peek) not in ``handles`` (``command`` names the command in the reason). The
    one place that decides what a command leaves out (tests/test_left_out.py).

    >>> from exactodds.bets.loader import load_paytable
    >>> kept, left = bets_left_out(load_paytable("tests/data/live-peek.toml"), "eor")
    >>> [b.id for b in kept.bets], [b.bet for b in left]
    (['tie'], ['player', 'banker'])
    >>> left[0].reason.partition(":")[0]
    'a fee on the stake and a peek and a raise'
    """
    from dataclasses import replace

    kept, live = live_left_out(table.bets, command, handles)
    left = [*streaks_left_out(table), *live]
    if len(kept) == len(table.bets):
        return table, left
    return replace(table, bets=tuple(kept)), left


def live_left_out(
    bets: Iterable[Bet], command: str = "", handles: Iterable[str] = ()
) -> tuple[list[Bet], list[LeftOut]]:
    """``bets`` split into those a command can count and those it leaves out: a bet with a
    live feature (fee, multipliers, peek) not in ``handles``, with the reason."""
    from exactodds.bets.kinds import live_unhandled

    kept: list[Bet] = []
    left: list[LeftOut] = []
    for b in bets:
        reason = live_unhandled(b, command, handles)
        if reason:
            left.append(LeftOut(b.id, b.name, reason))
        else:
            kept.append(b)
    return kept, left


def echo_leaving_out(text: str, fmt: str, left: Sequence[LeftOut], command: str) -> None:
    """Print ``text``, a command's output in ``fmt``, naming the bets it ``left`` out and why
    (JSON: a ``left_out`` list; CSV: ``left_out`` lines; text and md: a last section); then,
    if any, one line on stderr and exit :data:`EXIT_INCOMPLETE` (tests/test_left_out.py).
    """
    if left:
        text = _with_left_out(text, Format(fmt), left)
    typer.echo(text, nl=not text.endswith("\n"))
    if left:
        from exactodds.errors import error_line

        ids = ", ".join(b.bet for b in left)
        print(error_line(f"{command} left out {ids} (named in its output)", "incomplete"),
              file=sys.stderr)  # fmt: skip
        raise typer.Exit(EXIT_INCOMPLETE)


def _with_left_out(text: str, fmt: Format, left: Sequence[LeftOut]) -> str:
    r"""``text`` with the bets ``left`` out named, in its format.

    >>> print(_with_left_out("# Odds", Format.MD, [LeftOut("s", "Streak", "why")]))
    # Odds
    <BLANKLINE>
    ## Left out
    <BLANKLINE>
    - Streak (`s`): why
    <BLANKLINE>
    >>> print(_with_left_out("kind,bet,value\nev,b,1\n", Format.CSV, [LeftOut("s", "S", "why")]))
    kind,bet,value
    ev,b,1
    left_out,s,why
    <BLANKLINE>
    """
    import csv
    import io
    import json

    if fmt is Format.JSON:
        data = json.loads(text)
        data["left_out"] = [{"bet": b.bet, "name": b.name, "reason": b.reason} for b in left]
        return json.dumps(data, indent=2)
    if fmt is Format.CSV:
        rows = list(csv.reader(io.StringIO(text)))
        header = rows[0]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for b in left:  # kind left_out, the bet's id, and the reason in the value column
            cells = {"kind": "left_out", "bet": b.bet, "value": b.reason}
            writer.writerow([cells.get(column, "") for column in header])
        return (text if text.endswith("\n") else text + "\n") + out.getvalue()
    if fmt is Format.MD:
        items = "\n".join(f"- {b.name} (`{b.bet}`): {b.reason}" for b in left)
        return f"{text.rstrip()}\n\n## Left out\n\n{items}\n"
    if fmt is Format.HTML:
        from html import escape

        lis = "".join(
            f"<li>{escape(b.name)} (<code>{escape(b.bet)}</code>): {escape(b.reason)}</li>"
            for b in left
        )
        section = f'<section id="left-out"><h2>Left out</h2><ul>{lis}</ul></section>\n'
        at = text.rfind("</body>")
        return text[:at] + section + text[at:] if at >= 0 else text + section
    items = "\n".join(f"  {b.bet} ({b.name}): {b.reason}" for b in left)
    return f"{text.rstrip()}\n\nLeft out:\n{items}\n"


def deprecated(old: str, new: str) -> None:
    """The one-line notice on stderr of an option or command kept for one release."""
    from exactodds.errors import error_line

    message = f"{old} is deprecated and will be removed in the next release; use {new}"
    print(error_line(message, "warning"), file=sys.stderr)


def check_format(fmt: str, formats: Sequence[str]) -> Format:
    """The ``--format`` value as one of ``formats`` (any case; ``markdown`` for ``md``), checked
    before any work; otherwise a usage error naming the choices (one line, exit 2).

    >>> check_format(" JSON", ("md", "json")), check_format("Markdown", ("md", "json"))
    (<Format.JSON: 'json'>, <Format.MD: 'md'>)
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
        from exactodds.suggest import did_you_mean

        choices = ", ".join(repr(str(f)) for f in formats)
        hint = did_you_mean(wanted, [str(f) for f in formats])
        raise typer.BadParameter(f"{fmt!r} is not one of {choices}{hint}", param_hint="--format")
    return Format(wanted)


ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Replace existing output files (refused otherwise)."),
]
OutDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", metavar="DIR", help="Write files into this directory instead of printing."
    ),
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
        metavar="PROFILES",
        help="Jurisdiction profiles, comma-separated: adm, gli-11, mga, nj or a profile TOML file.",
        show_default=False,
    ),
]
BetIdsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--bet",
        "-b",
        metavar="ID",
        help="Only this bet id, a round or a streak bet (repeatable; default: every bet).",
    ),
]
"""``--bet ID``, repeatable: the bets a command takes (the others left out)."""

AllowPlayerEdgeOpt = Annotated[
    bool,
    typer.Option(
        "--allow-player-edge",
        help="Let bets favour the player: drop exactodds' own rule (RTP at most 100%, house "
        "edge at least 0) that every profile is checked by.",
    ),
]
NotationOpt = Annotated[
    Notation,
    typer.Option(
        "--notation",
        metavar="to|for|both",
        help="Payouts stated 'a to 1', 'a for 1', or both beside the payout as written "
        "(default: both).",
        case_sensitive=False,
        show_default=False,
    ),
]
PaytablesArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="PAYTABLE...",
        help="Paytable files or bundled names (e.g. classic; default: classic).",
        show_default=False,
    ),
]
BudgetOpt = Annotated[
    float | None,
    typer.Option(
        "--budget",
        metavar="SECONDS",
        help="CPU budget in seconds of one core (default: EXACTODDS_BUDGET, else 30): work "
        "estimated over it is refused up front.",
        show_default=False,
    ),
]


def use_budget(seconds: float | None) -> None:
    """Put the command's ``--budget`` (else ``EXACTODDS_BUDGET``'s) in force, checked."""
    from exactodds.bets.budget import set_budget

    set_budget(seconds)


RulesOverrideOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="RULES",
        help="Tableau instead of the paytable's: punto-banco, mini, pronto or a file.",
    ),
]


EXIT_INCOMPLETE = 3
"""Exit code of a command that left out, or could not judge, some bet (its output names them)."""
