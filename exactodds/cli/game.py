"""``exactodds game``: games with choices, one command per game (chemin de fer, Baccarat Gold)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from exactodds.cli.common import (
    ForceOpt,
    OutDirOpt,
    RemoveOpt,
    ShoeOpt,
    check_format,
    format_option,
)

if TYPE_CHECKING:
    from fractions import Fraction

    from exactodds.deal.shoe import Shoe

__all__ = ["EPILOG", "app", "banque", "chemin_de_fer"]

EPILOG = """Examples:

\b
  exactodds game chemin-de-fer --decks 6 --model downton-lockwood
  exactodds game chemin-de-fer --decks 1-8,inf --model kemeny-snell
  exactodds game chemin-de-fer --decks 6 --commission 5%
  exactodds game baccarat-gold
  exactodds game banque --decks inf"""

app = typer.Typer(
    name="game",
    help="Games with choices: chemin de fer and baccara banque solved exactly, Baccarat Gold's "
    "decision on 5.",
    epilog=EPILOG,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

MAX_SHOES = 12
"""Most shoes one ``--decks`` list compares."""

CHEMIN_EPILOG = """Examples:

\b
  exactodds game chemin-de-fer --decks 6 --model downton-lockwood
  exactodds game chemin-de-fer --decks 1-8,inf --model kemeny-snell --format json
  exactodds game chemin-de-fer --decks 6 --rules free-everywhere --format html --out pages/
  exactodds game chemin-de-fer --decks 6 --commission 5%
  exactodds game chemin-de-fer --shoe examples/my-shoe.toml --rules examples/chemin-rules.toml

Models: kemeny-snell (with replacement, totals only), downton-lockwood (without replacement;
the Banker sees his cards, the Player his total), ethier-gamez (each sees his cards). Rules:
traditional (default), free-everywhere, or a TOML file naming the free cells."""


def _decks(spec: str) -> list[int | None]:
    """``6``, ``1-8,inf`` or ``inf`` as deck counts (``None`` for an infinite shoe)."""
    from exactodds.errors import quote
    from exactodds.games.rules import GameError
    from exactodds.limits import MAX_DECKS

    out: list[int | None] = []
    for part in spec.split(","):
        item = part.strip().lower()
        low, dash, high = item.partition("-")
        if item in ("inf", "infinite", "∞"):
            out.append(None)
        elif dash and low.isdigit() and high.isdigit() and len(low) < 7 and len(high) < 7:
            if not 1 <= int(low) <= int(high) <= MAX_DECKS:
                raise GameError(f"--decks: {quote(part, 30)} is not a range of 1 to {MAX_DECKS:,}")
            if int(high) - int(low) >= MAX_SHOES:
                raise GameError(f"--decks: at most {MAX_SHOES} shoes in one comparison")
            out.extend(range(int(low), int(high) + 1))
        elif item.isdigit() and len(item) < 7 and 1 <= int(item) <= MAX_DECKS:
            out.append(int(item))
        else:
            raise GameError(
                f"--decks: {quote(part, 30)} is not a number of decks 1-{MAX_DECKS:,}, a range "
                "such as 1-8, or inf"
            )
        if len(out) > MAX_SHOES:
            raise GameError(f"--decks: at most {MAX_SHOES} shoes in one comparison")
    twice = next((n for i, n in enumerate(out) if n in out[:i]), 0)  # 0: none (never a count)
    if twice != 0:  # as compare --decks: the table would repeat a shoe
        name = "inf" if twice is None else str(twice)
        raise GameError(f"--decks: the decks list names the same value twice: {name}")
    return out


def _shoes(decks: str | None, remove: str | None, shoe_file: Path | None) -> list[Shoe | None]:
    """The shoes of ``--decks`` (default 8; ``None`` for inf) or of ``--shoe``, less
    ``--remove``."""
    from exactodds.deal.shoe import Shoe
    from exactodds.games.rules import GameError

    counts: list[int | None] = _decks(decks) if decks is not None else [8]
    if shoe_file is not None and decks is not None:
        raise GameError("give either --decks or --shoe, not both")
    if shoe_file is not None:
        return [Shoe.from_options(shoe_file=shoe_file, remove=remove)]
    if remove and None in counts:
        raise GameError("--remove: an infinite shoe has no cards to remove")
    return [None if n is None else Shoe.from_options(decks=n, remove=remove) for n in counts]


def _rate(text: str) -> Fraction:
    """``5%`` as a commission rate under 1; a bare number is refused (``PERCENT_RULE``), as
    by every percentage option."""
    from exactodds.bets.payout import parse_percent
    from exactodds.errors import ExactOddsError, quote
    from exactodds.games.rules import GameError

    try:
        rate = parse_percent(text, "--commission")
    except ExactOddsError as exc:
        why = str(exc).partition(": ")[2]
        raise GameError(f"--commission: {quote(text, 30)} is not a rate like 5%: {why}") from None
    if rate >= 1:
        raise GameError(f"--commission: {quote(text, 30)} is not under 100%")
    return rate


def _write(text: str, out: Path | None, stem: str, fmt: str, force: bool) -> None:
    if out is None:
        typer.echo(text)
        return
    from exactodds.cli.common import check_outputs
    from exactodds.files import write_atomic

    name = f"{stem}.{fmt}"
    check_outputs("--out", out, [name], force=force)
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / name, text if text.endswith("\n") else text + "\n")
    typer.echo(f"wrote {out / name}")


@app.command("chemin-de-fer", epilog=CHEMIN_EPILOG)
def chemin_de_fer(  # noqa: PLR0917 - one parameter per command-line option
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            metavar="MODEL",
            help="kemeny-snell, downton-lockwood or ethier-gamez (default: downton-lockwood).",
            show_default=False,
        ),
    ] = "downton-lockwood",
    decks: Annotated[
        str | None,
        typer.Option(
            "--decks",
            "-d",
            metavar="DECKS",
            help="Decks in the shoe: N, or a list such as 1-8,inf to compare shoes (default: 8).",
        ),
    ] = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="RULES",
            help="traditional, free-everywhere or a rules file (default: traditional).",
        ),
    ] = None,
    commission: Annotated[
        str | None,
        typer.Option(
            "--commission",
            metavar="RATE",
            help="Also solve the casino game where the Banker pays this on wins, e.g. 5%.",
        ),
    ] = None,
    fmt: Annotated[str, format_option("md", "json", "html", default="md")] = "md",
    out: OutDirOpt = None,
    force: ForceOpt = False,
) -> None:
    """Chemin de fer as a two-person game: its exact value, both sides' optimal strategies,
    whether they are unique, and what common fixed rules cost."""
    from exactodds.games.api import chemin_de_fer as solve_game
    from exactodds.games.rules import Model, load_rules
    from exactodds.report.games import render_chemin

    chosen = check_format(fmt, ("md", "json", "html"))
    game_model = Model.named(model)
    rule_set = load_rules(rules)
    rate = None if commission is None else _rate(commission)
    if out is not None:
        from exactodds.cli.common import check_outputs

        check_outputs("--out", out, [f"chemin-de-fer.{chosen}"], force=force)
    shoes = _shoes(decks, remove, shoe_file)
    results = [solve_game(game_model, s, rule_set, rate, infinite=s is None) for s in shoes]
    page = render_chemin(results[0] if len(results) == 1 else results, str(chosen))
    _write(page, out, "chemin-de-fer", str(chosen), force)


GOLD_EPILOG = """Examples:

\b
  exactodds game baccarat-gold
  exactodds game baccarat-gold --decks 6 --format json
  exactodds game baccarat-gold --remove '5 5 5 5 T T' --format html --out pages/"""


@app.command("baccarat-gold", epilog=GOLD_EPILOG)
def baccarat_gold(  # noqa: PLR0917 - one parameter per command-line option
    decks: Annotated[
        int | None,
        typer.Option("--decks", "-d", metavar="N", help="Number of 52-card decks (default: 8)."),
    ] = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    fmt: Annotated[str, format_option("md", "json", "html", default="md")] = "md",
    out: OutDirOpt = None,
    force: ForceOpt = False,
) -> None:
    """Baccarat Gold: the Player bettor's best play on 5 by his cards, and the exact house edge
    of the Player, Banker and Tie bets for that play, always hitting and always standing."""
    from exactodds.deal.shoe import Shoe
    from exactodds.games.gold import baccarat_gold as solve_gold
    from exactodds.report.games import render_gold

    chosen = check_format(fmt, ("md", "json", "html"))
    if out is not None:
        from exactodds.cli.common import check_outputs

        check_outputs("--out", out, [f"baccarat-gold.{chosen}"], force=force)
    shoe = Shoe.from_options(decks, remove, shoe_file)
    page = render_gold(solve_gold(shoe), str(chosen))
    _write(page, out, "baccarat-gold", str(chosen), force)


BANQUE_EPILOG = """Examples:

\b
  exactodds game banque
  exactodds game banque --decks inf --format json
  exactodds game banque --remove '5 5 5 5 T T' --format html --out pages/

One Banker against two Player hands, cards dealt with replacement (model kemeny-snell, the
only one built): the shoe gives the proportions of the card values."""


@app.command("banque", epilog=BANQUE_EPILOG)
def banque(  # noqa: PLR0917 - one parameter per command-line option
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            metavar="MODEL",
            help="kemeny-snell (with replacement; the only model built for banque).",
            show_default=False,
        ),
    ] = "kemeny-snell",
    decks: Annotated[
        str | None,
        typer.Option(
            "--decks",
            "-d",
            metavar="DECKS",
            help="Decks in the shoe, or inf (default: 8; full decks all give inf's odds).",
        ),
    ] = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    fmt: Annotated[str, format_option("md", "json", "html", default="md")] = "md",
    out: OutDirOpt = None,
    force: ForceOpt = False,
) -> None:
    """Baccara banque: one Banker against two Player hands, solved exactly against the hands
    as a team; the value, the Banker's edge per hand, both sides' strategies, and the
    three-person game's equilibria with equal, independent Player mixes."""
    from exactodds.games.api import baccara_banque
    from exactodds.games.rules import GameError, Model
    from exactodds.report.banque import render_banque

    chosen = check_format(fmt, ("md", "json", "html"))
    game_model = Model.named(model)
    if out is not None:
        from exactodds.cli.common import check_outputs

        check_outputs("--out", out, [f"banque.{chosen}"], force=force)
    shoes = _shoes(decks, remove, shoe_file)
    if len(shoes) > 1:
        raise GameError("--decks: baccara banque takes one shoe (N or inf), not a list")
    shoe = shoes[0]
    result = baccara_banque(game_model, shoe, infinite=shoe is None)
    _write(render_banque(result, str(chosen)), out, "banque", str(chosen), force)
