"""``exactodds odds``: Banker/Player/Tie combinations and the table of final totals."""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.cli.common import (
    BudgetOpt,
    DecksOpt,
    Format,
    RemoveOpt,
    ShoeOpt,
    bets_left_out,
    check_format,
    deprecated,
    echo_leaving_out,
    format_option,
    use_budget,
)

__all__ = ["odds"]


EPILOG = """Examples:

\b
  exactodds odds --decks 6 --remove '6 6 7h Kd' --rules mini --format json
  exactodds odds --shoe examples/my-shoe.toml --rules examples/my-rules.toml
  exactodds odds --given 'P: 9s ? | B: ? ?' --paytable classic"""


def odds(  # noqa: PLR0917 - one parameter per command-line option
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="RULES",
            help="Tableau: punto-banco, mini, pronto, or a TOML file (default: the paytable's, "
            "else punto-banco).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
    given: Annotated[
        str | None,
        typer.Option(
            "--given",
            metavar="CARDS",
            help="What is known of the cards by position: 'P: 9s ? | B: [6 7 8 9] ?' "
            "(a card, a rank, v0 for a value, a group of ranks, ? unknown; a third card "
            "means that hand draws).",
        ),
    ] = None,
    paytable: Annotated[
        str | None,
        typer.Option(
            "--paytable",
            metavar="PAYTABLE",
            help="With --given: every bet's figures of this paytable.",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        format_option("text", "json", "md", "csv", default="text", note="md and csv with --given"),
    ] = None,
    budget: BudgetOpt = None,
) -> None:
    """Exact Banker / Player / Tie odds of one round from a shoe, with the final totals; with
    --given, the odds (and a paytable's figures) given what is known of the cards."""
    use_budget(budget)
    from exactodds.errors import ExactOddsError
    from exactodds.figures.odds import odds_summary, render_odds

    if as_json:
        deprecated("odds --json", "--format json")
        if fmt is not None and check_format(fmt, ("json",)) != Format.JSON:
            raise ExactOddsError("odds: --json and --format say different things")
        fmt = Format.JSON
    if given is None:
        if paytable is not None:
            raise ExactOddsError("odds: --paytable goes with --given")
        chosen = check_format(fmt or "text", ("text", "json"))
        shoe = GameChoice(decks, remove, shoe_file).shoe()
        typer.echo(render_odds(odds_summary(shoe, rules), chosen))
        return
    from exactodds.protection.exposure import analyse_given
    from exactodds.protection.render import FORMATS, render_given

    chosen = check_format(fmt or "text", FORMATS)
    if paytable is not None:
        from exactodds.bets.loader import load_paytable

        game = GameChoice(decks, remove, shoe_file, rules)
        table = load_paytable(paytable, game, counted=False)  # counted given what is known
        shoe, tableau = game.resolve(table)
        table, left = bets_left_out(table, "odds --given")  # streak and live bets
        bets = table.bets
        from exactodds.bets.budget import check_card_work
        from exactodds.protection.exposure import given_known

        check_card_work(bets, shoe, tableau, known=given_known(given))
    else:
        shoe, tableau = GameChoice(decks, remove, shoe_file, rules).resolve()
        bets = ()
        left = []
    result = analyse_given(given, shoe, tableau, bets)
    text = render_given(given, result, shoe.describe(), tableau.name, chosen)
    echo_leaving_out(text, chosen, left, "odds --given")
