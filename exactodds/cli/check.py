"""``exactodds check``: paytables against jurisdiction profiles; exit 1 when a check fails."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from exactodds.bets.game import GameChoice
from exactodds.bets.payout import Notation
from exactodds.cli.common import (
    EXIT_INCOMPLETE,
    AllowPlayerEdgeOpt,
    BetIdsOpt,
    BudgetOpt,
    DecksOpt,
    PaytablesArg,
    RemoveOpt,
    RulesOverrideOpt,
    ShoeOpt,
    check_format,
    format_option,
    use_budget,
)

__all__ = ["check"]

EPILOG = """Examples:

\b
  exactodds check classic --against gli-11,adm,mga
  exactodds check classic ez --against nj --format json
  exactodds check examples/my-game.toml --against examples/my-profile.toml --decks 6
  exactodds check banker-streak --against mga --bet banker_streak --bet tie

Bundled profiles: adm (Italy: RTP at least 90%), mga (Malta: at least 85%), gli-11 (top award at
least once in 100,000,000 rounds), nj (New Jersey: payouts stated "to"). Payouts are stated as
the profiles require (--notation to under nj), unless --notation says otherwise. A profile file
is TOML: name, source and a [rules] table (min_rtp, max_rtp, top_award_max_odds,
payout_notation). Every profile also carries exactodds' own rule that no bet favours the player
(RTP at most 100%), unless it has its own max_rtp, says allow_player_edge = true, or
--allow-player-edge is given. Every rule is checked per bet, on the shoe and rules in use; a
streak bet on its figures with independent rounds. Exit code 0 when every check passes, 1 when
one fails, 3 (incomplete) when none fails but one could not be judged (an n/a row, named in the
output), 2 on bad input."""


def check(
    paytables: PaytablesArg = None,
    *,
    against: Annotated[
        str,
        typer.Option(
            "--against",
            metavar="PROFILES",
            help="Jurisdiction profiles, comma-separated: adm, gli-11, mga, nj or a profile "
            "TOML file.",
        ),
    ],
    fmt: Annotated[str, format_option("md", "json", default="md")] = "md",
    decks: DecksOpt = None,
    remove: RemoveOpt = None,
    shoe_file: ShoeOpt = None,
    rules: RulesOverrideOpt = None,
    notation: Annotated[
        Notation | None,
        typer.Option(
            "--notation",
            metavar="to|for|both",
            help="Payouts stated 'a to 1', 'a for 1', or both (default: the notation the "
            "profiles require, else both).",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    allow_player_edge: AllowPlayerEdgeOpt = False,
    bets: BetIdsOpt = None,
    budget: BudgetOpt = None,
) -> None:
    """Check every bet of paytables against jurisdiction profiles (RTP limits, top award odds,
    payout notation), with exact values."""
    use_budget(budget)
    from exactodds.errors import ProfileError
    from exactodds.report.compliance_report import CHECK_FORMATS, check_paytables, render_checks

    fmt = check_format(fmt, CHECK_FORMATS)
    if not against.strip():
        raise ProfileError("--against needs profiles such as gli-11,adm,mga or a file")
    results = check_paytables(
        paytables or [],
        against,
        game=GameChoice(decks, remove, shoe_file, rules),
        notation=notation,
        allow_player_edge=allow_player_edge,
        bet_ids=bets or (),
    )
    typer.echo(render_checks(results, fmt), nl=False)
    total = sum(len(r.compliance.checks) for r in results)
    failed = sum(len(r.compliance.failures()) for r in results)
    if failed:
        print(f"exactodds: {failed} of {total} checks fail", file=sys.stderr)
        raise typer.Exit(1)
    unjudged = sum(len(r.compliance.unjudged()) for r in results)
    if unjudged:
        print(f"exactodds: incomplete: {unjudged} of {total} checks n/a", file=sys.stderr)
        raise typer.Exit(EXIT_INCOMPLETE)
