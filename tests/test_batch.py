"""Batch evaluator: exact agreement with the recursive engine on many kinds of shoe."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import pytest

from exactodds import Outcome, Shoe, ShoeError, Winner, joint_distribution
from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.deal.tableau import BUILTIN, Tableau
from tests.extras import need


@dataclass(frozen=True)
class StandIn:
    """A bet with the shape the analysis needs (id, name, max_round, net)."""

    id: str
    rule: Callable[[Outcome], Fraction | int]
    max_round: int | None = None

    @property
    def name(self) -> str:
        return self.id

    def net(self, outcome: Outcome) -> Fraction:
        return Fraction(self.rule(outcome))


def _lucky6(o: Outcome) -> int:
    if o.winner == Winner.BANKER and o.banker.total == 6:
        return 12 if o.banker.cards == 2 else 20
    return -1


BETS = (
    StandIn("player", lambda o: 1 if o.winner == Winner.PLAYER else -(o.winner == Winner.BANKER)),
    StandIn(
        "banker",
        lambda o: Fraction(19, 20) if o.winner == Winner.BANKER else -(o.winner == Winner.PLAYER),
    ),
    StandIn("tie", lambda o: 8 if o.winner == Winner.TIE else -1),
    StandIn("player_pair", lambda o: 11 if o.player.pair else -1, 60),
    StandIn("either_pair", lambda o: 5 if o.player.pair or o.banker.pair else -1, 50),
    StandIn(
        "perfect_pair", lambda o: 25 if o.player.perfect_pair or o.banker.perfect_pair else -1, 50
    ),
    StandIn("player_natural", lambda o: Fraction(7, 2) if o.player.natural else -1, 50),
    StandIn("lucky_six", _lucky6, 50),
    # Pair kinds combined with the rest of the round: the full refined basis.
    StandIn("pair_and_win", lambda o: 30 if o.player.pair and o.winner == Winner.PLAYER else -1),
    StandIn(
        "mixed",
        lambda o: (
            200
            if o.player.perfect_pair and o.banker.pair
            else 3
            if o.banker.total == 6 and o.banker.cards == 3
            else -1
        ),
    ),
)


def engine_evs(shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> dict[str, Fraction]:
    """Independent figures: the recursive engine, Σ net × combinations / universe."""
    joint = joint_distribution(shoe, tableau)
    return {b.id: Fraction(sum(n * b.net(o) for o, n in joint), joint.total) for b in BETS}


def _random_shoe(rng: random.Random, high: int) -> Shoe:
    return Shoe(tuple(tuple(rng.randint(0, high) for _ in range(4)) for _ in range(13)))  # type: ignore[misc]


@pytest.fixture(scope="module")
def evaluator() -> BatchEvaluator:
    return compile_bets(BETS)


SHOES = [
    Shoe.decks(8),
    Shoe.decks(8).remove("A A A 5 5 Kd Kd Kd Qh 9 9 9 9 9 9 2c 2c 2c"),
    Shoe.decks(1),
    Shoe.from_rank_counts({"T": 7, "K": 5, "5": 3, "A": 2}),
    _random_shoe(random.Random(1), 2),
    _random_shoe(random.Random(2), 4),
]


def test_groups_cover_every_kind_of_bet(evaluator: BatchEvaluator) -> None:
    kinds = {(g.four, len(g.bets)) for g in evaluator.groups}
    # four-card value bets, four-card pair bets, six-card value bets, six-card pair bets
    assert len(evaluator.groups) == 4
    assert sum(n for _, n in kinds) == len(BETS)


@pytest.mark.slow
def test_batch_matches_engine(evaluator: BatchEvaluator) -> None:
    result = evaluator.evaluate(SHOES)
    for i, shoe in enumerate(SHOES):
        assert result.evs(i) == engine_evs(shoe), shoe.describe()


@pytest.mark.parametrize("mode", ["limbs", "object"])
def test_exact_fallbacks_give_the_same_numbers(evaluator: BatchEvaluator, mode: str) -> None:
    fast = evaluator.evaluate(SHOES[:3])
    slow = replace(evaluator, mode=mode).evaluate(SHOES[:3])
    assert (fast.numerators == slow.numerators).all()


@pytest.mark.parametrize("rules", ["mini", "pronto"])
def test_other_tableaux(rules: str) -> None:
    tableau = BUILTIN[rules]
    shoe = SHOES[1]
    result = compile_bets(BETS[:3] + BETS[7:8], tableau).evaluate([shoe])
    want = engine_evs(shoe, tableau)
    assert result.evs(0) == {b: want[b] for b in result.bet_ids}


def test_array_input_sign_and_published_tie_edge(evaluator: BatchEvaluator) -> None:
    counts = np.array([s.counts for s in SHOES[:2]], dtype=np.int64)
    result = evaluator.evaluate(counts)
    # docs/rules.md §9: Tie 8:1 house edge 14.3596% on 8 decks
    assert round(float(-result.ev(0, "tie")) * 100, 4) == 14.3596
    assert result.positive().tolist() == [
        [result.ev(i, b) > 0 for b in result.bet_ids] for i in range(2)
    ]
    assert result.denominator(0, "banker") == 20 * 416 * 415 * 414 * 413 * 412 * 411


def test_bad_states_raise_project_errors(evaluator: BatchEvaluator) -> None:
    small = np.zeros((2, 13, 4), dtype=np.int64)
    small[0] = 1
    small[1, 0, 0] = 5
    with pytest.raises(ShoeError, match="state 1 has 5 cards"):
        evaluator.evaluate(small)
    with pytest.raises(ShoeError, match="shape"):
        evaluator.evaluate(np.zeros((2, 13), dtype=np.int64))


def test_array_states_stop_at_the_largest_shoe(evaluator: BatchEvaluator) -> None:
    from exactodds.analysis.batch import shoe_counts

    states = np.full((2, 13, 4), 1000, dtype=np.int64)  # 1,000 decks: 52,000 cards, allowed
    assert shoe_counts(states).sum(axis=(1, 2)).tolist() == [52_000, 52_000]
    states[1, 0, 0] += 1
    with pytest.raises(ShoeError, match="state 1 has over 52,000 cards"):
        evaluator.evaluate(states)
    states[1, 0, 0] = 2**62  # a sum of such counts would overflow int64
    states[1, 0, 1] = 2**62
    with pytest.raises(ShoeError, match="state 1 has over 52,000 cards"):
        evaluator.evaluate(states)


@pytest.mark.parametrize("kernel", ["numpy", "numba"])
@pytest.mark.parametrize("mode", ["auto", "limbs", "object"])
def test_an_empty_batch_gives_an_empty_result(
    evaluator: BatchEvaluator, kernel: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exactodds.analysis.batch import shoe_counts

    if kernel == "numba":
        need("numba", "fast")
    monkeypatch.setenv("EXACTODDS_KERNEL", kernel)
    assert shoe_counts([]).shape == shoe_counts(np.zeros((0, 13, 4), np.int8)).shape == (0, 13, 4)
    result = replace(evaluator, mode=mode).evaluate([])
    assert (len(result), result.numerators.shape) == (0, (0, len(BETS)))
    assert result.positive().shape == (0, len(BETS))
    numerators = result.int64_numerators()
    assert numerators is not None and numerators.shape == (0, len(BETS))
