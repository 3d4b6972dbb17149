"""``exactodds odds``: Banker/Player/Tie combinations and the table of final totals."""

from __future__ import annotations

import typer

from exactodds.cli.common import DecksOpt, JsonOpt, RemoveOpt, RulesOpt, ShoeOpt
from exactodds.shoe import Shoe

__all__ = ["odds"]


EPILOG = "Example: exactodds odds --decks 6 --remove '6 6 7h Kd' --rules mini --json"


def odds(
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOpt = "punto-banco",
    as_json: JsonOpt = False,
) -> None:
    """Exact Banker / Player / Tie odds of one round from a shoe, with the final totals."""
    from exactodds.odds import odds_summary, render_odds

    shoe = Shoe.from_options(decks, remove, shoe_file)
    typer.echo(render_odds(odds_summary(shoe, rules), "json" if as_json else "text"))
