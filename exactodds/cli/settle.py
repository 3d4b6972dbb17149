"""``exactodds settle``: play one given round and settle bets on it."""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli import app
from exactodds.cli.common import PaytableArg, check_format

__all__ = ["settle"]

_EXAMPLE = (
    "Example: exactodds settle classic --cards 'P: 9s 9h | B: Kd 7c' "
    "--bet player=100 --bet banker=100 --bet player_pair=100"
)


@app.command(epilog=_EXAMPLE)
def settle(
    paytable: PaytableArg = None,
    cards: Annotated[
        str,
        typer.Option(
            "--cards",
            "-c",
            metavar="CARDS",
            help="The round: 'P: 9s 9h | B: Kd 7c', or cards in deal order (T or 10 for tens).",
        ),
    ] = "",
    bets: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", metavar="ID=STAKE", help="A bet ID=STAKE, e.g. player=100 (repeatable)."
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="RULES",
            help="Tableau: punto-banco, mini, pronto or a file (default: the paytable's).",
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="text|json",
            help="text (default), or json: each bet's stake, event, pays and net, the round and "
            "the rules, exact values as 'p/q' strings.",
        ),
    ] = "text",
) -> None:
    """Play one exact round: check it is legal, show totals and draws, and settle the bets.

    A round that breaks the drawing rules is refused with the reason.
    """
    from exactodds.errors import ExactOddsError
    from exactodds.limits import MAX_CARD_TEXT
    from exactodds.paytable_loader import load_paytable
    from exactodds.settle import parse_stake, render_settled, settle_round
    from exactodds.tableau import load_tableau

    fmt = check_format(fmt, ("text", "json"))
    if not cards.strip():
        raise ExactOddsError("give the round with --cards, like --cards 'P: 9s 9h | B: Kd 7c'")
    if len(cards) > MAX_CARD_TEXT:
        raise ExactOddsError(
            f"--cards of {len(cards):,} characters is longer than the limit of {MAX_CARD_TEXT:,}"
        )
    stakes = [parse_stake(b) for b in bets or []]
    table = load_paytable(paytable)
    tableau = load_tableau(rules) if rules is not None else None
    out = render_settled(settle_round(table, cards, stakes, tableau), fmt)
    typer.echo(out, nl=not out.endswith("\n"))
