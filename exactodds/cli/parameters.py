"""The command line's names for the library's parameters: an error of the library names the
parameter of the Python call (``seed``, ``hands_per_hour``); the CLI, where it reports the error,
shows the option that gives it (``--seed``, ``--hands-per-hour``).

>>> from exactodds.errors import SessionError, about
>>> cli_message(about(SessionError("hands_per_hour and average_bet go together"),
...                   "hands_per_hour", "average_bet"))
'--hands-per-hour and --average-bet go together'
"""

from __future__ import annotations

import re

from exactodds.errors import ExactOddsError

__all__ = ["BY_COMMAND", "OPTIONS", "cli_message"]

OPTIONS: dict[str, str] = {
    "against": "--against",
    "all_bundled": "--all",
    "allow_player_edge": "--allow-player-edge",
    "average_bet": "--average-bet",
    "backend": "--backend",
    "bankroll": "--bankroll",
    "bet": "--bet",
    "bet_ids": "--bet",
    "by": "--by",
    "commission": "--commission",
    "cut_card": "--cut-card",
    "date": "--date",
    "decks": "--decks",
    "dead_chips": "--dead-chips",
    "digits": "--digits",
    "flash": "--flash",
    "fmt": "--format",
    "given": "--given",
    "hands_per_hour": "--hands-per-hour",
    "analyse_sort": "--sort",
    "model": "--model",
    "multipliers": "--multipliers",
    "optimise_sort": "--optimise",
    "out": "--out",
    "peeks": "--peek",
    "plots": "--plots",
    "rebate": "--rebate",
    "remove": "--remove",
    "rounds": "--rounds",
    "scheduler": "--scheduler",
    "seed": "--seed",
    "seen": "--seen",
    "session": "--session",
    "shoe_file": "--shoe",
    "sort": "--sort",
    "specs": "PAYTABLE names",
    "triggers": "--trigger",
    "weight": "--weight",
}
"""Library parameter → the option of the commands that gives it (one table for every command;
:data:`BY_COMMAND` where a command's option differs)."""

BY_COMMAND: dict[str, dict[str, str]] = {
    "report": {"rounds": "--monte-carlo-rounds"},  # the sheet's Monte Carlo section
}
"""Per command, the parameters its options name otherwise than :data:`OPTIONS`."""


def cli_message(exc: ExactOddsError, command: str = "") -> str:
    """The error's message with each parameter it names (:attr:`ExactOddsError.parameters`:
    its first word of that name) shown as the option of ``command``; a parameter with no option
    keeps its name.

    >>> from exactodds.errors import SessionError, about
    >>> cli_message(about(SessionError("rounds 0: give whole rounds, fewer rounds"), "rounds"))
    '--rounds 0: give whole rounds, fewer rounds'
    """
    message = str(exc)
    options = OPTIONS | BY_COMMAND.get(command, {})
    for name in dict.fromkeys(exc.parameters):
        option = options.get(name)
        if option is not None:
            word = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            message = re.sub(word, option, message, count=1)  # an option holds no backslash
    return message
