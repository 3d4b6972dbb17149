"""A paytable made ready for a shoe simulation: its bets split between the batch evaluator
(value-level bets) and the card engine (card-level and offered bets), its streak bets, every
budget checked before the seconds of compiling, and a counter's strategy built.

:func:`~exactodds.analysis.simulate.simulate` calls :func:`prepare` when it is given a
:class:`~exactodds.bets.paytable.Paytable`, so that a Python user, like the ``simulate``
command, passes the paytable and how to play it, not its bets split by engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.analysis.count import CountStrategy, count_strategy
from exactodds.analysis.eor import CountTags
from exactodds.bets.budget import (
    check_card_rounds,
    check_removal_work,
    check_simulation,
    check_streak_play,
    expected_rounds,
)
from exactodds.bets.paytable import Bet, Paytable
from exactodds.bets.streak import StreakBet
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import SimulationError

__all__ = ["Counting", "Prepared", "check_strategy", "prepare"]


@dataclass(frozen=True)
class Counting:
    """How a counter plays a paytable (``simulate(paytable, count=Counting())``): ``tags`` per
    bet (default: each bet's EOR tags at ``level``, ±level at most), ``triggers`` per bet as
    true counts (default: derived from the EOR), and whether the counter sees the burned cards.
    ``tags_source`` names where the tags came from, for the result."""

    tags: Mapping[str, CountTags] | None = None
    triggers: Mapping[str, Fraction] | None = None
    see_burns: bool = False
    level: int = 3
    tags_source: str = ""


@dataclass(frozen=True)
class Prepared:
    """What a simulation of a paytable deals with: the compiled value-level bets, the card
    engine's bets, the result's order of bet ids, the streak bets and a counter's strategy."""

    evaluator: BatchEvaluator
    card_bets: tuple[Bet, ...]
    order: tuple[str, ...] | None
    """The bet ids of the result (None: the compiled bets, then the card bets)."""
    streak_bets: tuple[StreakBet, ...]
    count: CountStrategy | None


def prepare(
    game: Paytable | BatchEvaluator,
    shoe: Shoe,
    tableau: Tableau,
    *,
    shoes: int,
    cut_card: int,
    count: Counting | CountStrategy | None = None,
    given: tuple[tuple[Bet, ...], tuple[str, ...] | None, tuple[StreakBet, ...]] = ((), None, ()),
    cluster: bool = False,
) -> Prepared:
    """A paytable's bets split by engine, every budget checked against the CPU budget in force
    (before compiling, which takes seconds; on a ``cluster`` of one's own only what runs here),
    its value-level bets compiled under ``tableau`` and the count strategy of ``count`` (None:
    computer-perfect play) built on ``shoe``; or compiled bets as they are, with the ``given``
    card bets, order of the result and streak bets, their card EVs and streak play checked."""
    card_bets, order, streak_bets = given
    counting = count is not None
    if isinstance(game, BatchEvaluator):
        if isinstance(count, Counting):
            raise SimulationError("compiled bets are counted by a CountStrategy of them")
        check_card_rounds(card_bets, shoe, game.tableau, shoes, cut_card, counting=counting)
        check_streak_play(len(streak_bets), expected_rounds(shoes, shoe.size, cut_card))
        return Prepared(game, card_bets, order, streak_bets, count)
    if isinstance(count, CountStrategy) or card_bets or streak_bets or order is not None:
        raise SimulationError("a paytable's run splits its bets itself: give it a Counting")
    card = tuple(b for b in game.bets if b.settled_from_cards)
    value = [b for b in game.bets if b not in card]
    dealing = check_simulation(
        value, shoe.size, shoes, streaks=len(game.streaks), cut_card=cut_card, cluster=cluster
    )
    if not cluster:  # a counter's EVs are budgeted as the run spends them (CardSpend)
        check_card_rounds(card, shoe, tableau, shoes, cut_card, counting=counting, extra=dealing)
    if counting:  # its default tags and triggers: the EOR, the shoe less each card
        check_removal_work(card, shoe, tableau)
    evaluator = compile_bets(value, tableau)
    strategy = None
    if count is not None:
        strategy = count_strategy(
            evaluator,
            shoe,
            tags=count.tags,
            tags_source=count.tags_source,
            triggers=count.triggers,
            see_burns=count.see_burns,
            level=count.level,
            card_bets=card,
        )
    order = tuple(b.id for b in game.bets)
    return Prepared(evaluator, card, order, game.streaks, strategy)


def check_strategy(
    evaluator: BatchEvaluator, card_bets: Sequence[Bet], count: CountStrategy | None
) -> None:
    """Refuse a count strategy that does not count the run's bets: the compiled bets, then
    ``card_bets``, in that order (:func:`~exactodds.analysis.count.count_strategy` with the
    same ``card_bets``)."""
    if count is None:
        return
    counted = [b.bet_id for b in count.bets]
    if counted != [*evaluator.bet_ids, *(b.id for b in card_bets)]:
        raise SimulationError(
            "the count strategy counts other bets than the run's: build it with the same "
            f"bets and card_bets (it counts {', '.join(map(repr, counted)) or 'none'})"
        )
