"""``exactodds settle``: play given rounds and settle bets on them (a round bet on one round,
a streak bet over the rounds after it is made, one ``--cards`` each)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    DecksOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    format_option,
)

if TYPE_CHECKING:
    from exactodds.bets.paytable import Paytable

__all__ = ["settle"]

EPILOG = """Examples:

\b
  exactodds settle classic --cards 'P: 9s 9h | B: Kd 7c' --bet player=100 --bet player_pair=100
  exactodds settle touch --cards '9s Kd 9h 7c' --bet banker=0.30 --format json
  exactodds settle classic --decks 2 --remove '6 6' --rules mini --cards 'P: Kc Kc | B: 4d 4d'
  exactodds settle banker-streak -b banker_streak=10 -c 'K 8 Q K' -c 'K 9 Q K' -c '9 K 9 7'
  exactodds settle lightning -c 'Kh Ah Qs 5d 2c' -b banker=10 -m 'Ah:8 Kd:2'
  exactodds settle peek -c 'P: Kh Qs 2c | B: Ah 5d' -b banker=10 --peek triple

The third replays a worked example of a sheet made with options (exactodds report classic
--decks 2 --remove '6 6' --rules mini): settle takes the same options. The fourth settles a streak
bet over three rounds: give one --cards per round, in the order dealt from the round after the
bet is made (two Banker wins, then a Player win: a streak of 2, which loses). A round bet is
settled on one round only; all the rounds must come from the one shoe.

The last two settle live bets (one round each): --multipliers gives the multiplier cards drawn
(Ah ×8 lands on Banker's ace: Banker wins 8 less 5% of the stake, 7.95 a unit; without the
option none are drawn, and the output says so); --peek the stake multiple a peek bet played. A
fee is paid on the base stake (never on a raise) and counted in the net, with the net per money
paid."""


def settle(
    paytable: PaytableArg = None,
    *,
    cards: Annotated[
        list[str],
        typer.Option(
            "--cards",
            "-c",
            metavar="CARDS",
            help="The round: 'P: 9s 9h | B: Kd 7c', or cards in deal order (T or 10 for tens). "
            "Repeat it for a streak bet: one --cards per round, in the order dealt.",
        ),
    ],
    bets: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", metavar="ID=STAKE", help="A bet ID=STAKE, e.g. player=100 (repeatable)."
        ),
    ] = None,
    multipliers: Annotated[
        list[str] | None,
        typer.Option(
            "--multipliers",
            "-m",
            metavar="CARDS",
            help="The multiplier cards drawn and their values: 'Ah:8 Kd:2' (several tables: "
            "'lightning: Ah:8', one option each). Without it none are drawn.",
        ),
    ] = None,
    peeks: Annotated[
        list[str] | None,
        typer.Option(
            "--peek",
            metavar="DECISION",
            help="A peek bet's decision: keep, double, triple or a stake multiple, for every "
            "peek bet or as ID=DECISION (repeatable; default: keep).",
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
    """Play exact rounds: check each is legal, show totals and draws, and settle the bets.

    A round that breaks the drawing rules, or whose cards are not all in the shoe (the
    paytable's, or the one --decks, --remove and --shoe give, as for report), is refused with
    the reason. A streak bet is settled over the rounds given (one --cards each); one still
    running after them is shown as open.
    """
    from exactodds.bets.loader import load_paytable
    from exactodds.bets.settle import check_stake, parse_stake, render_settled, settle_round
    from exactodds.bets.settle_rounds import check_bet_ids
    from exactodds.errors import (
        CardError,
        ExactOddsError,
        RoundError,
        ShoeError,
        named,
    )
    from exactodds.limits import MAX_CARD_TEXT, MAX_SETTLE_ROUNDS, check_length

    fmt = check_format(fmt, ("text", "json"))
    if len(cards) > MAX_SETTLE_ROUNDS:
        raise ExactOddsError(
            f"--cards: {len(cards):,} rounds, more than the limit of {MAX_SETTLE_ROUNDS}"
        )
    for text in cards:
        if not text.strip():
            raise ExactOddsError("give each round with --cards, like --cards 'P: 9s 9h | B: Kd 7c'")
        check_length(text, MAX_CARD_TEXT, "--cards")
    stakes = [parse_stake(b) for b in bets or []]
    from exactodds.bets.settle_live import parse_multipliers, parse_peeks

    decisions = parse_peeks(peeks or [])
    game = GameChoice(decks, remove, shoe_file, rules)
    table = load_paytable(paytable, game, counted=False)  # rounds settled, nothing counted
    shoe, tableau = game.resolve(table)
    with named("--bet"):
        check_bet_ids(table, [bet_id for bet_id, _ in stakes])
        streak_ids = {b.id for b in table.streaks}
        for bet_id, stake in stakes:
            if bet_id not in streak_ids:
                check_stake(table.round_bet(bet_id), stake)
    drawn = None if multipliers is None else parse_multipliers(multipliers, table.multipliers)
    if len(cards) > 1 or any(bet_id in streak_ids for bet_id, _ in stakes):
        _one_round_only(table, stakes, multipliers, peeks)
        from exactodds.bets.settle_rounds import render_rounds, settle_rounds

        with named("--cards", CardError, RoundError, ShoeError):
            several = settle_rounds(table, cards, stakes, tableau, shoe)
        out = render_rounds(several, fmt)
        typer.echo(out, nl=not out.endswith("\n"))
        return
    with named("--cards", CardError, RoundError, ShoeError):
        settled = settle_round(
            table, cards[0], stakes, tableau, shoe, multipliers=drawn, peeks=decisions
        )
    out = render_settled(settled, fmt)
    typer.echo(out, nl=not out.endswith("\n"))


def _one_round_only(
    table: Paytable,
    stakes: Sequence[tuple[str, Fraction]],
    multipliers: Sequence[str] | None,
    peeks: Sequence[str] | None,
) -> None:
    """Refuse live bets and their options over several rounds: they settle on one round."""
    from exactodds.errors import ExactOddsError

    ids = {bet_id for bet_id, _ in stakes}
    live = [b for b in table.bets if b.live and b.id in ids]
    if live or multipliers or peeks:
        what = (
            f"bet {live[0].id!r} has {' and '.join(live[0].live)}"
            if live
            else "--multipliers and --peek are"
        )
        raise ExactOddsError(
            f"{what}: settle it on one round (one --cards, and no streak bet with it)"
        )
