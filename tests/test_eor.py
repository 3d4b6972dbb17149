"""Effect of removal: against the engine on the shoe less one card, and the zero-sum identity."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exactodds import Card, Shoe, ShoeError, joint_distribution
from exactodds.analysis.eor import EffectOfRemoval, counting_tags, effect_of_removal
from exactodds.cli import main
from exactodds.metrics import bet_figures
from exactodds.paytable import Paytable, load_paytable
from exactodds.shoe import RANKS


@pytest.fixture(scope="module")
def classic() -> Paytable:
    return load_paytable("classic")


@pytest.fixture(scope="module")
def classic_eor(classic: Paytable) -> EffectOfRemoval:
    return effect_of_removal(classic.bets, classic.shoe(), classic.tableau)


def _engine_ev(table: Paytable, shoe: Shoe) -> dict[str, Fraction]:
    joint = joint_distribution(shoe, table.tableau)
    return {b.id: bet_figures(joint, b).ev for b in table.bets}


def test_eor_matches_engine_on_the_shoe_less_one_card(
    classic: Paytable, classic_eor: EffectOfRemoval
) -> None:
    full = classic.shoe()
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
    bets = [classic.bet("perfect_pair"), classic.bet("tie")]
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


def test_tags_are_balanced_and_bounded(classic_eor: EffectOfRemoval) -> None:
    for bet in classic_eor.bet_ids:
        tags = classic_eor.tags[bet]
        assert sum(tags.values()) == 0
        assert all(abs(t) <= classic_eor.level for t in tags.values())
    assert set(classic_eor.tags["player_pair"].values()) == {0}
    # a rank whose removal helps the bet the most gets the largest tag
    lucky = classic_eor.tags["lucky_six_2"]
    assert lucky["6"] == -3 and max(lucky.values()) > 0
    assert classic_eor.correlation("banker") > 0.9


def test_counting_tags_by_hand() -> None:
    # scale 1 rounds to (1, -1, 0): balanced, correlation 0.5/sqrt(2·...) is beaten by scale 2/3
    tags = counting_tags({"A": Fraction(3), "2": Fraction(-1), "3": Fraction(-2)}, level=2)
    assert tags == {"A": 2, "2": -1, "3": -1}
    assert counting_tags({"A": Fraction(0), "2": None}) == {"A": 0, "2": 0}


def test_eor_needs_more_than_six_cards(classic: Paytable) -> None:
    with pytest.raises(ShoeError, match="more than 6 cards"):
        effect_of_removal(classic.bets[:1], Shoe.from_rank_counts({"A": 6}))


def test_cli_json_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["eor", "classic", "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["eor"]["tie"]) == list(RANKS)
    assert Fraction(data["eor"]["tie"]["6"]) < 0 < Fraction(data["eor"]["tie"]["8"])
    assert sum(Fraction(x) for x in data["eor"]["banker"].values()) == 0  # 32 of each rank
    assert sum(data["tags"]["banker"].values()) == 0
    with pytest.raises(SystemExit):
        main(["eor", "classic"])
    out = capsys.readouterr().out
    assert "| Lucky Six" in out and "## Counting tags" in out
    with pytest.raises(SystemExit) as info:
        main(["eor", "classic", "--format", "xml"])
    assert info.value.code == 2
