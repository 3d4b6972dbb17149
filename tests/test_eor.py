"""Effect of removal: against the engine on the shoe less one card, and the zero-sum identity."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Card, Shoe, ShoeError, joint_distribution
from exactodds.analysis.batch import BatchEvaluator
from exactodds.analysis.eor import CountTags, EffectOfRemoval, counting_tags, effect_of_removal
from exactodds.bets.paytable import Paytable
from exactodds.deal.shoe import RANKS
from exactodds.figures.metrics import bet_figures
from tests.cli_helpers import Cli


@pytest.fixture(scope="module")
def classic_eor(classic: Paytable, classic_evaluator: BatchEvaluator) -> EffectOfRemoval:
    return effect_of_removal(classic.bets, classic.shoe, evaluator=classic_evaluator)


def _engine_ev(table: Paytable, shoe: Shoe) -> dict[str, Fraction]:
    joint = joint_distribution(shoe, table.tableau)
    return {b.id: bet_figures(joint, b).ev for b in table.bets}


def test_eor_matches_engine_on_the_shoe_less_one_card(
    classic: Paytable, classic_eor: EffectOfRemoval
) -> None:
    full = classic.shoe
    base = _engine_ev(classic, full)
    assert dict(classic_eor.ev) == base
    for rank in RANKS:  # a full shoe: every suit gives the same EV, remove the club
        less = _engine_ev(classic, full.remove(rank + "c"))
        for bet in classic.bets:
            assert classic_eor.eor[bet.id][rank] == less[bet.id] - base[bet.id], (bet.id, rank)


def test_count_weighted_eor_sums_to_zero(classic_eor: EffectOfRemoval) -> None:
    for bet in classic_eor.bet_ids:
        assert classic_eor.weighted_sum(bet) == 0
    # an unrelated, visible property: on a full shoe no rank changes a pair bet
    assert set(classic_eor.eor["player_pair"].values()) == {Fraction(0)}
    six, eight = classic_eor.eor["lucky_six_2"]["6"], classic_eor.eor["lucky_six_2"]["8"]
    assert six is not None and eight is not None and six < 0 < eight


def test_unbalanced_shoe_weights_suits_by_their_counts(classic: Paytable) -> None:
    shoe = Shoe.from_rank_counts({r: 5 for r in RANKS}).remove("Kc Kd Ac 7h 7s")
    bets = [classic.round_bet("perfect_pair"), classic.round_bet("tie")]
    result = effect_of_removal(bets, shoe, classic.tableau)
    for bet in ("perfect_pair", "tie"):
        assert result.weighted_sum(bet) == 0
    # rank 7: suits (2, 1, 0, 0), whose removals differ; mean over its cards, from the engine
    base = _engine_ev(classic, shoe)["perfect_pair"]
    counts = shoe.counts[6]
    want = sum(
        n * (_engine_ev(classic, shoe.remove([Card(6, s)]))["perfect_pair"] - base)
        for s, n in enumerate(counts)
        if n
    ) / sum(counts)
    assert result.eor["perfect_pair"]["7"] == want


def test_tags_are_a_function_of_the_eor_and_bounded(classic_eor: EffectOfRemoval) -> None:
    for bet in classic_eor.bet_ids:
        count = classic_eor.tags[bet]
        assert all(abs(t) <= classic_eor.level for t in count.tags.values())
        eor = classic_eor.eor[bet]
        for r in RANKS:
            for q in RANKS:
                if eor[r] == eor[q]:
                    assert count.tags[r] == count.tags[q], (bet, r, q)
        assert count.imbalance_per_deck == 4 * sum(count.tags.values())
        assert count.balanced == (count.imbalance_per_deck == 0)
    # Player: the four ten-valued ranks have one EOR, so one tag (it was T, J -1 and Q, K 0)
    player = classic_eor.tags["player"].tags
    assert len({classic_eor.eor["player"][r] for r in "TJQK"}) == 1
    assert len({player[r] for r in "TJQK"}) == 1
    assert set(classic_eor.tags["player_pair"].tags.values()) == {0}
    # a rank whose removal helps the bet the most gets the largest tag
    lucky = classic_eor.tags["lucky_six_2"].tags
    assert lucky["6"] == -3 and max(lucky.values()) > 0
    assert classic_eor.correlation("banker") > 0.98
    # Player Natural: eleven ranks share one EOR; counting the 8s and 9s tracks it
    natural = classic_eor.tags["player_natural"]
    assert {r for r, t in natural.tags.items() if t} == {"8", "9"}
    assert natural.tags["8"] == natural.tags["9"] < 0 and not natural.balanced
    assert classic_eor.correlation("player_natural") > 0.999


def test_counting_tags_by_hand() -> None:
    # scale 1 rounds to (1, -1, 0), scale 2/3 to (2, -1, -1): the second correlates better
    tags = counting_tags({"A": Fraction(3), "2": Fraction(-1), "3": Fraction(-2)}, level=2)
    assert tags.tags == {"A": 2, "2": -1, "3": -1} and tags.balanced
    assert counting_tags({"A": Fraction(0), "2": None}).tags == {"A": 0, "2": 0}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.fractions(min_value=-1, max_value=1, max_denominator=50), min_size=1, max_size=6),
    st.lists(st.integers(0, 5), min_size=13, max_size=13),
    st.integers(1, 4),
)
def test_equal_eor_gets_equal_tags(values: list[Fraction], picks: list[int], level: int) -> None:
    """Ranks drawing the same value (forced ties) always get one tag, within ±level."""
    eor: dict[str, Fraction | None] = {
        r: values[k % len(values)] for r, k in zip(RANKS, picks, strict=True)
    }
    count = counting_tags(eor, level=level)
    assert list(count.tags) == list(RANKS)
    for r in RANKS:
        assert abs(count.tags[r]) <= level
        for q in RANKS:
            if eor[r] == eor[q]:
                assert count.tags[r] == count.tags[q]
    if len(set(eor.values())) > 1:  # two EOR values or more: the count follows the EORs
        corr = EffectOfRemoval(
            Shoe.decks(1), ("x",), ("X",), {"x": Fraction(0)}, {"x": eor}, {"x": count}, level
        ).correlation("x")
        assert corr > 0


def test_true_count_is_zero_on_average_at_every_depth() -> None:
    """Brute force over every set of k cards seen from one deck: the mean true count is 0 for
    a balanced and for an unbalanced count."""
    deck = [Card(r, s) for r in range(13) for s in range(4)]
    for tags in (
        dict(zip(RANKS, [1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1], strict=True)),
        dict(zip(RANKS, [0, 1, 1, 1, 1, 1, 1, 0, 0, -1, -1, -1, -1], strict=True)),  # KO-like
        dict.fromkeys(RANKS, 0) | {"8": -1, "9": -1},
    ):
        count = CountTags(tags)
        for k in (1, 2, 3):
            seen = list(combinations(deck, k))
            total = sum(
                (count.true_count(count.running_count(c), k, 52 - k) for c in seen), Fraction(0)
            )
            assert total == 0, (tags, k)
    with pytest.raises(ShoeError, match="cards left > 0"):
        count.true_count(0, 52, 0)


def test_eor_needs_more_than_six_cards(classic: Paytable) -> None:
    with pytest.raises(ShoeError, match="more than 6 cards"):
        effect_of_removal(classic.bets[:1], Shoe.from_rank_counts({"A": 6}))


def test_cli_json_and_markdown(cli: Cli) -> None:
    code, out, _ = cli(["eor", "classic", "--format", "json"])
    assert code == 0
    data = json.loads(out)
    assert list(data["eor"]["tie"]) == list(RANKS)
    assert Fraction(data["eor"]["tie"]["6"]) < 0 < Fraction(data["eor"]["tie"]["8"])
    assert sum(Fraction(x) for x in data["eor"]["banker"].values()) == 0  # 32 of each rank
    tags = data["tags"]["banker"]
    assert data["imbalance_per_deck"]["banker"] == 4 * sum(tags.values())
    assert data["balanced"]["banker"] == (sum(tags.values()) == 0)
    assert data["tags"]["player"]["T"] == data["tags"]["player"]["K"]
    assert "True count = (running count - b x cards seen / 52)" in data["true_count"]
    code, out, _ = cli(["eor", "classic"])
    assert "| Lucky Six" in out and "## Counting tags" in out and "True count = " in out
    assert "| per deck" in out
    assert cli(["eor", "classic", "--format", "xml"])[0] == 2
