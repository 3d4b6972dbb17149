"""``exactodds session``: a flat unit bet over N independent rounds (the exact distribution of
the net result, risk of ruin) and the programmes around it (loss rebates, dead chips,
theoretical win)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BudgetOpt,
    DecksOpt,
    PaytableArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    format_option,
    use_budget,
)

__all__ = ["session"]

EPILOG = """Examples:

\b
  exactodds session classic --bet banker --rounds 200
  exactodds session classic --bet banker --rounds 200 --bankroll 20 --rebate 10%
  exactodds session classic --bet player --rounds 100 --dead-chips --commission 1.25%
  exactodds session classic --bet banker --rounds 560 --hands-per-hour 70 --average-bet 100
  exactodds session classic --bet tie --rounds 10000 --format json
  exactodds session peek --bet banker --rounds 200 --bankroll 20

Rounds are independent (each from the full shoe: a continuous shuffler, the model of published
analyses); up to 1,000 rounds every figure is an exact fraction, beyond each probability lies
between bounds proven to --digits significant digits (default 30). Rounds dealt from one shoe
are not independent: exactodds simulate deals them. --rebate returns that share of the net
session loss; --dead-chips bets a chip until it loses (wins paid in cash), --commission pays a
rolling commission on the dead chips bought. A bet with an offer is counted per offered round.
A live bet's round is its exact outcomes (every multiplier product, a peek's optimal raises)
less its fee, one unit base stake; its ruin is a bankroll below what a round may take (stake,
largest raise and fee)."""


def _text(help_text: str, metavar: str, name: str) -> Any:
    """A text option (parsed exactly by the session, never as a float)."""
    return typer.Option(name, metavar=metavar, help=help_text, show_default=False)


def session(  # noqa: PLR0917 - one parameter per command-line option
    paytable: PaytableArg = None,
    bet: Annotated[str, typer.Option("--bet", "-b", metavar="ID", help="The bet's id.")] = "",
    rounds: Annotated[str, _text("Rounds in the session (flat unit bets).", "N", "--rounds")] = "",
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    bankroll: Annotated[
        str | None, _text("Bankroll in units: add the risk of ruin.", "B", "--bankroll")
    ] = None,
    rebate: Annotated[
        str | None,
        _text("Share of the net session loss returned, e.g. 10%.", "PERCENT", "--rebate"),
    ] = None,
    dead_chips: Annotated[
        bool, typer.Option("--dead-chips", help="Add the dead-chip figures of the bet.")
    ] = False,
    commission: Annotated[
        str | None,
        _text("Rolling commission on dead chips bought, e.g. 1.25%.", "PERCENT", "--commission"),
    ] = None,
    hands_per_hour: Annotated[
        str | None, _text("Rounds per hour: add the theoretical win.", "H", "--hands-per-hour")
    ] = None,
    average_bet: Annotated[
        str | None, _text("Average bet (money) of the theoretical win.", "A", "--average-bet")
    ] = None,
    digits: Annotated[
        int,
        typer.Option(
            "--digits",
            metavar="D",
            help="Significant digits of the bounds beyond 1,000 rounds (10 to 100; default: 30).",
            show_default=False,
        ),
    ] = 30,
    fmt: Annotated[
        str, format_option("text", "md", "json", "csv", "html", default="text")
    ] = "text",
    budget: BudgetOpt = None,
) -> None:
    """A flat unit bet over N independent rounds: the exact distribution of the net result, risk
    of ruin, loss rebates, dead chips and theoretical win."""
    use_budget(budget)
    from exactodds.errors import SessionError

    chosen = check_format(fmt, ("text", "md", "json", "csv", "html"))
    if not bet:
        raise SessionError("--bet ID is required (the bet of the session)")
    n = _rounds(rounds)
    from exactodds.report.session_render import render_session
    from exactodds.session.result import session as run

    result = run(
        paytable,
        bet,
        n,
        bankroll=bankroll,
        rebate=rebate,
        dead_chips=dead_chips,
        commission=commission,
        hands_per_hour=hands_per_hour,
        average_bet=average_bet,
        digits=digits,
        game=GameChoice(decks, remove, shoe_file, rules),
        output=str(chosen),
    )
    typer.echo(render_session(result, str(chosen)), nl=False)


def _rounds(text: str) -> int:
    """``--rounds`` as a whole number, refused with one line (also ``10**12``, ``nan``)."""
    from exactodds.errors import SessionError, quote
    from exactodds.limits import MAX_SESSION_ROUNDS

    body = text.strip().replace(",", "").replace("_", "")
    if not body:
        raise SessionError("--rounds N is required (rounds in the session)")
    if not body.isascii() or not body.isdigit() or len(body) > 30:
        raise SessionError(f"--rounds {quote(text)}: give a whole number of rounds")
    n = int(body)
    if n < 1:
        raise SessionError("--rounds 0: a session has at least one round")
    if n > MAX_SESSION_ROUNDS:
        raise SessionError(f"--rounds {n:,} is over the limit of {MAX_SESSION_ROUNDS:,}")
    return n
