"""``exactodds settle``: play one given round and settle bets on it."""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.common import (
    DecksOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    format_option,
)
from exactodds.game import GameChoice

__all__ = ["settle"]

EPILOG = """Examples:

\b
  exactodds settle classic --cards 'P: 9s 9h | B: Kd 7c' --bet player=100 --bet player_pair=100
  exactodds settle touch --cards '9s Kd 9h 7c' --bet banker=0.30 --format json
  exactodds settle classic --decks 2 --remove '6 6' --rules mini --cards 'P: Kc Kc | B: 4d 4d'

The last replays a worked example of a sheet made with options (exactodds report classic
--decks 2 --remove '6 6' --rules mini): settle takes the same options."""


def settle(
    paytable: PaytableArg = None,
    *,
    cards: Annotated[
        str,
        typer.Option(
            "--cards",
            "-c",
            metavar="CARDS",
            help="The round: 'P: 9s 9h | B: Kd 7c', or cards in deal order (T or 10 for tens).",
        ),
    ],
    bets: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", metavar="ID=STAKE", help="A bet ID=STAKE, e.g. player=100 (repeatable)."
        ),
    ] = None,
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    fmt: Annotated[
        str,
        format_option(
            "text",
            "json",
            default="text",
            note="json gives each bet's stake, event, pays and net, the round and the rules, "
            "exact values as 'p/q' strings",
        ),
    ] = "text",
) -> None:
    """Play one exact round: check it is legal, show totals and draws, and settle the bets.

    A round that breaks the drawing rules, or whose cards are not all in the shoe (the
    paytable's, or the one --decks, --remove and --shoe give, as for report), is refused with
    the reason.
    """
    from exactodds.errors import CardError, ExactOddsError, RoundError, ShoeError, named
    from exactodds.limits import MAX_CARD_TEXT, check_length
    from exactodds.paytable_loader import load_paytable
    from exactodds.settle import parse_stake, render_settled, settle_round

    fmt = check_format(fmt, ("text", "json"))
    if not cards.strip():
        raise ExactOddsError("give the round with --cards, like --cards 'P: 9s 9h | B: Kd 7c'")
    check_length(cards, MAX_CARD_TEXT, "--cards")
    stakes = [parse_stake(b) for b in bets or []]
    game = GameChoice(decks, remove, shoe_file, rules)
    table = load_paytable(paytable, game, counted=False)  # one round settled, nothing counted
    shoe, tableau = game.resolve(table)
    for bet_id, _stake in stakes:
        with named("--bet"):
            table.bet(bet_id)
    with named("--cards", CardError, RoundError, ShoeError):
        settled = settle_round(table, cards, stakes, tableau, shoe)
    out = render_settled(settled, fmt)
    typer.echo(out, nl=not out.endswith("\n"))
