"""Every dealer agrees: the same card sequences, under the built-in, an odd and random tableaux,
dealt by the round state, the shoe simulation, the vectorised Monte Carlo dealer, settle's
legality check, the batch evaluator's tails and the engine's counts, against the independent
hand-written dealer of tests/bruteforce.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.analysis.batch.basis import round_tails
from exactodds.analysis.dealing import deal_round_at, deal_rounds
from exactodds.bets.settle import check_round
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import (
    FEATURES,
    OUTCOME_CODES,
    Outcome,
    RoundState,
    continuations,
    feature_record,
    hand_code,
    outcome_code,
    pair_kind,
    pair_kinds_by_code,
)
from exactodds.deal.shoe import RANK_VALUES, RANKS, Card
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import RoundError
from tests.bruteforce import PhysicalCard, play_round, shoe_of
from tests.test_engine_bruteforce import TABLEAU_IDS, TABLEAUX, cards, random_tableaux

_RANK_OF_VALUE = {v: RANK_VALUES.index(v) for v in range(1, 10)} | {0: RANKS.index("K")}


def _two(total: int, variant: int, suit: int) -> list[PhysicalCard]:
    """Two cards with this two-card total: variant 0 no pair (a ten and a king for a total of
    0), 1 a pair, 2 a perfect pair (pairs only on even totals)."""
    if total % 2 == 0 and variant:
        rank = _RANK_OF_VALUE[total // 2]
        return [(rank, suit), (rank, suit if variant == 2 else (suit + 1) % 4)]
    if total == 0:
        return [(RANKS.index("T"), suit), (RANKS.index("K"), suit)]
    first = 3 if total != 6 else 4
    return [(_RANK_OF_VALUE[first], suit), (_RANK_OF_VALUE[(total - first) % 10], suit)]


def sequences() -> list[list[PhysicalCard]]:
    """Six-card sequences with every pair of two-card totals, every fifth card value and a
    varied sixth, pair kinds and suits varied along."""
    out = []
    for p in range(10):
        for b in range(10):
            for fifth in range(10):
                i = p * 100 + b * 10 + fifth
                player, banker = _two(p, i % 3, i % 4), _two(b, i // 3 % 3, (i + 1) % 4)
                sixth = (fifth * 7 + p + b) % 10
                tail = [(_RANK_OF_VALUE[fifth], i % 4), (_RANK_OF_VALUE[sixth], (i + 2) % 4)]
                out.append([player[0], banker[0], player[1], banker[1], *tail])
    return out


SEQUENCES = sequences()


def _card(c: PhysicalCard) -> Card:
    return Card(c[0], c[1])


def _code(c: PhysicalCard) -> int:
    return c[0] * 4 + c[1]


def by_state(seq: Sequence[PhysicalCard], tableau: Tableau) -> tuple[Outcome, RoundState]:
    """Deal the sequence card by card through the round state until the round is over."""
    state = RoundState(tableau)
    deck = iter(seq)
    while not state.over:
        state.deal(_card(next(deck)))
    return state.outcome, state


def check_every_dealer(tableau: Tableau, seqs: Sequence[Sequence[PhysicalCard]]) -> None:
    codes, used_by = deal_rounds(np.array([[_code(c) for c in s] for s in seqs]).T, tableau)
    table = continuations(tableau)
    for seq, vectorised, vectorised_used in zip(
        seqs, codes.tolist(), used_by.tolist(), strict=True
    ):
        expected = play_round(seq, tableau)  # the independent dealer
        outcome, state = by_state(seq, tableau)
        assert outcome == expected, seq
        used = outcome.cards
        assert len(state.player) + len(state.banker) == used
        # the shoe simulation's dealer and the vectorised Monte Carlo dealer
        assert deal_round_at([_code(c) for c in seq], 0, tableau) == (outcome.code, used)
        assert (vectorised, vectorised_used) == (outcome.code, used)
        # settle: the hands as dealt are legal, in either notation; one card more or less is not
        player, banker = state.player, state.banker
        assert check_round((player, banker), tableau).outcome == outcome
        text = " ".join(str(_card(c)) for c in seq[:used])
        assert check_round(text, tableau).outcome == outcome
        for more in ((*player, _card(seq[4])), banker), (player, (*banker, _card(seq[4]))):
            if len(more[0]) <= 3 and len(more[1]) <= 3:
                with pytest.raises(RoundError):
                    check_round(more, tableau)
        for fewer in (player[:2], banker), (player, banker[:2]):
            if fewer != (player, banker):
                with pytest.raises(RoundError):
                    check_round(fewer, tableau)
        # the batch evaluator's tails: exactly one continuation fits cards five and six
        values = [RANK_VALUES[c[0]] for c in seq]
        p, b = outcome.player.initial, outcome.banker.initial
        fits = [t for t in round_tails(table[p][b]) if list(t[0]) == values[4 : 4 + len(t[0])]]
        third = [STOOD if h.third is None else h.third for h in outcome]
        assert [(len(t[0]), t[1], t[2], t[3]) for t in fits] == [(used - 4, 6 - used, *third)]


@pytest.mark.parametrize("tableau", TABLEAUX, ids=TABLEAU_IDS)
def test_every_dealer_agrees_on_every_shape(tableau: Tableau) -> None:
    check_every_dealer(tableau, SEQUENCES)


def test_the_sequences_cover_every_shape() -> None:
    """The grid is not toothless: every pair kind, natural and draw shape occurs."""
    outcomes = [play_round(s, BUILTIN["punto-banco"]) for s in SEQUENCES]
    kinds = {(o.player.pair_kind, o.banker.pair_kind) for o in outcomes}
    assert kinds == {(a, b) for a in range(3) for b in range(3)}
    assert {o.cards for o in outcomes} == {4, 5, 6}
    assert any(o.player.natural and not o.banker.natural for o in outcomes)


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(random_tableaux, st.lists(st.sampled_from(SEQUENCES), min_size=1, max_size=150))
def test_every_dealer_agrees_under_random_tableaux(
    tableau: Tableau, seqs: list[list[PhysicalCard]]
) -> None:
    check_every_dealer(tableau, seqs)


# -- the engine counts what the dealers deal ----------------------------------------------------

SMALL_SHOES = ["Ac Ac Ad Ks Ks 5h 2d", "4c 4d 9s 9s 8d 2c Th", "5s 5s 5d 6c Tc Kc 3h"]


def _all_dealt(text: str, tableau: Tableau) -> list[Counter[Outcome]]:
    seqs = list(permutations(cards(text), 6))
    coded = [[_code(c) for c in s] for s in seqs]
    return [
        Counter(by_state(s, tableau)[0] for s in seqs),
        Counter(Outcome.from_code(deal_round_at(s, 0, tableau)[0]) for s in coded),
        Counter(map(Outcome.from_code, deal_rounds(np.array(coded).T, tableau)[0].tolist())),
    ]


@pytest.mark.parametrize("tableau", TABLEAUX, ids=TABLEAU_IDS)
@pytest.mark.parametrize("text", SMALL_SHOES)
def test_engine_counts_what_every_dealer_deals(text: str, tableau: Tableau) -> None:
    expected = dict(joint_distribution(shoe_of(cards(text)), tableau).counts)
    for dealt in _all_dealt(text, tableau):
        assert dict(dealt) == expected


@settings(max_examples=10, deadline=None, database=None)
@given(random_tableaux, st.sampled_from(SMALL_SHOES))
def test_engine_counts_what_every_dealer_deals_under_random_tableaux(
    tableau: Tableau, text: str
) -> None:
    expected = dict(joint_distribution(shoe_of(cards(text)), tableau).counts)
    for dealt in _all_dealt(text, tableau):
        assert dict(dealt) == expected


# -- the pieces --------------------------------------------------------------------------------


def test_codes_round_trip() -> None:
    for code in range(0, 330 * 330, 7):
        outcome = Outcome.from_code(code)
        assert outcome.code == code
        p, b = outcome
        third = [STOOD if h.third is None else h.third for h in outcome]
        assert code == outcome_code(
            hand_code(p.initial, third[0], p.pair_kind), hand_code(b.initial, third[1], b.pair_kind)
        )


def test_feature_records_hold_every_feature() -> None:
    """The record built hand by hand is each feature's own function, on every outcome."""
    for code in range(0, OUTCOME_CODES, 5):
        outcome = Outcome.from_code(code)
        expected = tuple(get(outcome) for get in FEATURES.values())
        record = feature_record(outcome)
        assert record == expected
        assert list(map(type, record)) == list(map(type, expected))


def test_pair_kind_by_code_is_pair_kind() -> None:
    kinds = pair_kinds_by_code()
    for a in range(52):
        for b in range(52):
            assert kinds[a][b] == pair_kind(Card(a // 4, a % 4), Card(b // 4, b % 4))
    assert pair_kind(Card(8), Card(8, 1)) == pair_kind(Card(8), Card(8)) == 1  # suits unknown


def test_round_state_refuses_out_of_turn() -> None:
    state = RoundState()
    with pytest.raises(RoundError, match="first four cards are not dealt yet"):
        state.verify_draw("player")
    with pytest.raises(RoundError, match="first four cards are not dealt yet"):
        _ = state.outcome
    for card in cards("2c Kd 3h 5s"):  # player 5 draws; banker 5 waits for the player's card
        state.deal(_card(card))
    assert not state.over and state.next_side == "player"
    with pytest.raises(RoundError, match="the banker cannot draw before the player's third"):
        state.draw("banker", Card(0, 0))
    state.draw("player", Card(2, 0))  # a 3: the banker 5 stands on it
    assert state.over and state.can_stand("banker") and not state.can_draw("player")
    with pytest.raises(RoundError, match="the player already has a third card"):
        state.verify_draw("player")
    with pytest.raises(RoundError, match="the round is over"):
        state.deal(Card(0, 0))
    assert state.outcome.banker.third is None and state.outcome.player.total == 8
