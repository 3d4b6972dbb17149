"""Judging a paytable's rows and offers under the game a command actually uses: its shoe and
rules, the card engine's budget first. A row no round of any shoe reaches is an error (a warning
when the file allows unreachable rows); one that only this shoe or these rules cannot reach is a
warning, naming the built-in rules that rescue it; an offer no round makes is refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from exactodds.bets.game import PAYTABLE_GAME, GameChoice
from exactodds.bets.paytable import REFERENCE_DECKS, Bet, Occurrence, Paytable, row_occurrence
from exactodds.bets.streak import condition_probability, never_ends
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import quote
from exactodds.toml_lines import KeyPath

__all__ = ["Problems", "bet_path", "judge_rows", "never_offered", "row_path"]


class Problems(Protocol):
    """Where judging reports: an error or a warning, each at the first key path found."""

    def add(self, message: str, *paths: KeyPath) -> None: ...

    def warn(self, message: str, *paths: KeyPath) -> None: ...


def bet_path(bet_id: str, *more: str | int) -> KeyPath:
    return ("bets", bet_id, *more)


def row_path(bet_id: str, n: int, *more: str) -> KeyPath:
    """Key path of row ``n`` (1-based) of a bet, or of a key of it."""
    return ("bets", bet_id, "rows", n - 1, *more)


def judge_rows(
    table: Paytable,
    problems: Problems,
    game: GameChoice | None,
    counted: bool,
    *,
    allow: bool = False,
    examples: bool = False,
) -> None:
    """Judge the rows and offers of ``table`` under the game actually used: ``game`` applied
    (its shoe and rules), else the paytable's own. Card-level bets are judged only where the
    command counts them on that shoe (``counted``): their work is checked first, and the
    counts are those the command then uses (cached), so judging costs nothing more."""
    shoe, tableau = (game or PAYTABLE_GAME).resolve(table)
    judged = table.bets if counted else tuple(b for b in table.bets if not b.card_level)
    if counted and not _check_card_work(table, shoe, tableau, problems, examples):
        return
    if judged:
        _check_occurrence(judged, shoe, tableau, problems, allow)
    for bet in table.streaks:  # one that would never be settled
        problem = never_ends(bet, condition_probability(bet.condition, shoe, tableau))
        if problem is not None:
            problems.add(problem, bet_path(bet.id, "streak"))


def _check_card_work(
    table: Paytable, shoe: Shoe, tableau: Tableau, problems: Problems, examples: bool = False
) -> bool:
    """Whether the card-level bets are within the card engine's budget on the shoe used
    (:func:`~exactodds.bets.budget.check_card_work`): checked before they are counted."""
    from exactodds.bets.budget import card_work, card_work_over
    from exactodds.bets.costly import why_costly

    per_bet = card_work(table.bets, shoe, tableau, examples=examples)
    over = card_work_over(per_bet)
    if over is not None:  # said again, with what makes the costliest bet costly
        over = card_work_over(per_bet, hint=why_costly(table.round_bet(over[0]), shoe, tableau))
    if over is None:
        return True
    bet_id, message = over
    problems.add(message, bet_path(bet_id))
    return False


def _check_occurrence(
    bets: Sequence[Bet], shoe: Shoe, tableau: Tableau, problems: Problems, allow: bool = False
) -> None:
    """Offers that no round of the game makes (an error: the bet is never offered), and rows
    that never occur in it: an error when no shoe could ever settle them under these rules nor
    under any built-in tableau (dead text; a warning when ``allow``ed: generated tables), a
    warning when only this shoe or these rules cannot (``--rules`` may rescue it; see
    :func:`~exactodds.bets.paytable.row_occurrence`)."""
    joint = joint_distribution(shoe, tableau)
    for bet in bets:
        never = never_offered(bet, joint)
        if never is not None:
            problems.add(never, bet_path(bet.id, "offer"))
            continue
        for n, (row, seen) in enumerate(zip(bet.rows, row_occurrence(bet, joint), strict=True), 1):
            if seen is Occurrence.NEVER:
                rescue = _rules_rescuing(bet, n - 1, tableau)
                if rescue is not None:
                    problems.warn(
                        f"bet {bet.id!r} row {n} ({row.event!r}): never occurs under "
                        f"{tableau.name} rules (its sheet shows 0 combinations); it occurs "
                        f"under {rescue} rules (--rules {rescue})",
                        row_path(bet.id, n),
                    )
                    continue
                reason = (
                    "earlier rows take every round it names"
                    if not row.when.is_otherwise
                    else "earlier rows cover every round"
                )
                message = (
                    f"bet {bet.id!r} row {n} ({row.event!r}): can never match, on any shoe "
                    f"({reason} or it names an impossible round)"
                )
                if allow:
                    problems.warn(f"{message}; allowed (allow_unreachable)", row_path(bet.id, n))
                else:
                    problems.add(message, row_path(bet.id, n))
            elif seen is Occurrence.NOT_WITH_THIS_SHOE:
                problems.warn(
                    f"bet {bet.id!r} row {n} ({row.event!r}): {seen.value} "
                    f"({shoe.describe()}); its sheet shows 0 combinations",
                    row_path(bet.id, n),
                )


def never_offered(bet: Bet, joint: Joint) -> str | None:
    """Why ``bet`` is refused on ``joint``'s shoe and rules when its offer is made in no round
    (its sheet would have no offered round to give a figure of), else None: one judgement for
    every command and format.

    >>> from dataclasses import replace
    >>> from exactodds.language import parse_condition
    >>> from exactodds.bets.loader import load_paytable
    >>> nines = parse_condition("count(initial, rank == 9 and suit == hearts) >= 2")
    >>> bet = replace(load_paytable("classic").bet("player"), offer=nines)
    >>> never_offered(bet, joint_distribution(Shoe.decks(1)))  # doctest: +ELLIPSIS
    "bet 'player': its offer 'count(initial, rank == 9 and suit == hearts) >= 2' is never ..."
    >>> never_offered(bet, joint_distribution(Shoe.decks(2))) is None
    True
    """
    if bet.offer is None or bet.offered(joint):
        return None
    game = f"{joint.shoe.describe()}, {joint.tableau.name} rules"
    return (
        f"bet {bet.id!r}: its offer {quote(bet.offer.text)} is never made ({game}): no round "
        "offers the bet (more decks, or another offer)"
    )


def _rules_rescuing(bet: Bet, index: int, dead_under: Tableau) -> str | None:
    """The first built-in tableau under which row ``index`` of ``bet`` settles some round on
    the reference shoe, or None. Card-level bets are tried only where the card engine's
    estimate is small (:data:`_RESCUE_WORK`): else the row stays an error."""
    reference = Shoe.decks(REFERENCE_DECKS)
    for name, tableau in BUILTIN.items():
        if tableau == dead_under:
            continue
        if bet.card_level and bet.card_work(reference, tableau) > _RESCUE_WORK:
            continue
        if bet.row_combinations(joint_distribution(reference, tableau))[index]:
            return name
    return None


_RESCUE_WORK = 5 * 10**8
"""Most card-engine work (about 1 s) spent per tableau on whether another tableau rescues a
card-level row that is dead under the file's own rules."""
