"""The one builder of the ``exactodds report`` command that rebuilds a sheet.

Every option that shapes a sheet is a field of :class:`ReportCommand` and is written back by
:meth:`ReportCommand.args`, so the sheet's Command line, its sections' Rerun lines and the
terminal summary all name the same command. A new option is one field and one line there.

>>> from exactodds.bets.game import GameChoice
>>> cmd = ReportCommand("classic", GameChoice(decks=1), bets=("tie",), protection=True)
>>> cmd.line()
'exactodds report classic --decks 1 --bet tie --protection'
>>> cmd.with_sections(protection=False, monte_carlo=(300, 5)).line()
'exactodds report classic --decks 1 --bet tie --monte-carlo-rounds 300 --seed 5'
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from exactodds.bets.game import PAYTABLE_GAME, GameChoice
from exactodds.bets.payout import Notation

__all__ = ["ReportCommand"]


@dataclass(frozen=True)
class ReportCommand:
    """``exactodds report PAYTABLE OPTIONS…`` that recomputes one sheet: the paytable as a
    command names it, the game choice, the bets shown, the compliance profiles (as given to
    ``--against``, and ``--allow-player-edge``), the payout notation, and the optional
    sections (``--protection``, ``--monte-carlo-rounds N --seed S``, ``--session N``). Defaults
    are left out."""

    paytable: str
    game: GameChoice = PAYTABLE_GAME
    bets: tuple[str, ...] = ()
    against: tuple[str, ...] = ()
    allow_player_edge: bool = False
    notation: Notation = Notation.BOTH
    protection: bool = False
    monte_carlo: tuple[int, int] | None = None
    """Rounds and seed of the Monte Carlo verification, if the sheet has one."""
    session: int | None = None
    """Rounds of the session section, if the sheet has one."""

    def args(self) -> tuple[str, ...]:
        """The arguments after ``exactodds report``, in a fixed order.

        >>> ReportCommand("mini", against=("adm", "mga"), notation=Notation.TO).args()
        ('mini', '--against', 'adm,mga', '--notation', 'to')
        """
        out = [self.paytable, *self.game.options()]
        out += [arg for bet in self.bets for arg in ("--bet", bet)]
        if self.against:
            out += ["--against", ",".join(self.against)]
        if self.allow_player_edge:
            out.append("--allow-player-edge")
        if self.notation is not Notation.BOTH:
            out += ["--notation", self.notation.value]
        if self.protection:
            out.append("--protection")
        if self.monte_carlo is not None:
            rounds, seed = self.monte_carlo
            out += ["--monte-carlo-rounds", str(rounds), "--seed", str(seed)]
        if self.session is not None:
            out += ["--session", str(self.session)]
        return tuple(out)

    def line(self) -> str:
        """The command quoted for a POSIX shell.

        >>> ReportCommand("./my game.toml", bets=("tie",)).line()
        "exactodds report './my game.toml' --bet tie"
        """
        return shlex.join(("exactodds", "report", *self.args()))

    def with_sections(
        self,
        *,
        protection: bool,
        monte_carlo: tuple[int, int] | None,
        session: int | None = None,
    ) -> ReportCommand:
        """The same command with the sections a sheet carries."""
        return replace(self, protection=protection, monte_carlo=monte_carlo, session=session)
