"""``simulate --strategy count`` with card-level and offered bets: the counter's decisions against
a hand replay of the dealt shoes (running count of the cards seen, true count, trigger), the EV of
every round bet against brute force over the physical cards left (tests/cardforce.py), the card
engine asked for the rounds bet only, the run-time budget, and the command line end to end."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.analysis import cardround
from exactodds.analysis.batch import compile_bets
from exactodds.analysis.count import count_strategy
from exactodds.analysis.dealing import shoe_rng
from exactodds.analysis.eor import CountTags
from exactodds.analysis.simulate import SimulationError, simulate
from exactodds.bets.budget import BudgetError
from exactodds.bets.paytable import Bet
from exactodds.cli import main
from exactodds.deal.shoe import RANKS, Shoe
from exactodds.deal.tableau import BUILTIN
from tests.bruteforce import PhysicalCard, card_value, physical_cards, shoe_of
from tests.cardforce import deal, holds
from tests.test_simulate_cards import (
    BEHIND,
    OFFERED,
    RED_FOUR,
    SMALL,
    TIE,
    brute_ev,
    brute_net,
    make_bet,
)

PB = BUILTIN["punto-banco"]
NINES = make_bet(
    "nines",
    [("count(initial, rank == 9) >= 2", "8:1"), ("count(initial, rank == 9) == 1", "1:1")],
)


def tags_of(**tags: int) -> CountTags:
    """Tags by rank name (``T`` for ten), 0 for the ranks not given."""
    return CountTags(dict.fromkeys(RANKS, 0) | {r.removeprefix("r"): t for r, t in tags.items()})


def replay_seen(
    shoe: Shoe, seed: int, index: int, *, see_burns: bool = False
) -> list[tuple[Shoe, list[PhysicalCard], list[PhysicalCard]]]:
    """Shoe ``index`` of run ``seed`` dealt again card by card (cut card 0): per round, the
    cards left, the round's cards and the cards a counter has seen before it (the burn card
    turned face up and every earlier round's cards; the burned cards under it are unseen
    unless ``see_burns``)."""
    cards = physical_cards(shoe)
    seq = [cards[i] for i in shoe_rng(seed, index).permutation(len(cards))]
    pos = 1 + (card_value(seq[0]) or 10)
    seen = seq[:pos] if see_burns else [seq[0]]
    out = []
    while len(seq) - pos >= 6:
        rnd = deal(seq[pos : pos + 6])
        used = len(rnd.player) + len(rnd.banker)
        out.append((shoe_of(seq[pos:]), seq[pos : pos + used], list(seen)))
        seen += seq[pos : pos + used]
        pos += used
    return out


def hand_bets(tags: CountTags, trigger: Fraction, seen: list[PhysicalCard], shoe: Shoe) -> bool:
    """The counter's decision worked by hand: running count less the full shoe's count per
    card times the cards seen, per deck unseen (the documented true count)."""
    running = sum(tags.tags[RANKS[rank]] for rank, _ in seen)
    per_card = Fraction(sum(tags.tags[RANKS[r]] * n for r, n in enumerate(shoe.rank_counts)))
    per_card /= shoe.size
    true_count = (running - per_card * len(seen)) / Fraction(shoe.size - len(seen), 52)
    return true_count >= trigger


def offered(bet: Bet, cards: list[PhysicalCard]) -> bool:
    """The bet's offer on the round's first four cards (read by the brute-force interpreter)."""
    return bet.offer is None or holds(bet.offer.node, deal(cards + cards[:2]))


def full(cards: list[PhysicalCard]) -> list[PhysicalCard]:
    """A round's cards padded to six for the brute-force dealer (the padding is never read)."""
    return cards + [cards[0]] * (6 - len(cards))


def test_decisions_match_a_hand_replay_on_one_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    shoe, seed, shoes = Shoe.decks(1), 3, 3
    bets = (NINES, RED_FOUR)
    tags = {"nines": tags_of(r9=-1), "red_four": tags_of(K=1, r2=-1, r5=-1)}
    triggers = {"nines": Fraction(0), "red_four": Fraction(1, 2)}
    evaluator = compile_bets([TIE], PB)
    count = count_strategy(
        evaluator, shoe, tags=tags, tags_source="given", triggers=triggers, card_bets=bets
    )
    asked: list[str] = []
    engine = cardround.card_round_ev

    def counted(bet: Bet, left: Shoe, tableau: object = PB) -> Fraction | None:
        asked.append(bet.id)
        return engine(bet, left)

    monkeypatch.setattr(cardround, "card_round_ev", counted)
    sim = simulate(evaluator, shoe, shoes=shoes, seed=seed, cut_card=0, count=count, card_bets=bets)
    rounds = [r for i in range(shoes) for r in replay_seen(shoe, seed, i)]
    assert sim.rounds == len(rounds)
    for run, bet in zip(sim.bets[1:], bets, strict=True):
        assert run.count is not None and run.count.tags == tags[bet.id]
        bet_on = [
            (left, cards)
            for left, cards, seen in rounds
            if hand_bets(tags[bet.id], triggers[bet.id], seen, shoe)
        ]
        assert 0 < len(bet_on) < len(rounds)  # the count both bet and sat out
        assert run.bet_rounds() == len(bet_on) == asked.count(bet.id)  # EVs of rounds bet only
        assert run.expected_gain() == sum(engine(bet, left) or 0 for left, _ in bet_on)
        assert run.realized_gain() == sum(brute_net(bet, full(c)) for _, c in bet_on)
        assert all(r.mean_ev is None for r in run.by_round)  # not every round evaluated


def test_each_ev_bet_is_the_brute_force_ev() -> None:
    # Nine low cards: one round a shoe, the counter sees the burn card only; tag A +1, 2 −1.
    tags = {b: tags_of(A=1, r2=-1) for b in ("colour", "offered", "behind")}
    triggers = dict.fromkeys(tags, Fraction(0))
    bets = (make_bet("colour", [("player.colour == red", "3:1")]), OFFERED, BEHIND)
    evaluator = compile_bets([], PB)
    count = count_strategy(evaluator, SMALL, tags=tags, triggers=triggers, card_bets=bets)
    seed, shoes = 4, 12
    sim = simulate(
        evaluator, SMALL, shoes=shoes, seed=seed, cut_card=0, count=count, card_bets=bets
    )
    rounds = [r for i in range(shoes) for r in replay_seen(SMALL, seed, i)]
    for run, bet in zip(sim.bets, bets, strict=True):
        bet_on = [
            (left, cards)
            for left, cards, seen in rounds
            if offered(bet, cards) and hand_bets(tags[bet.id], Fraction(0), seen, SMALL)
        ]
        evs = [brute_ev(bet, left) for left, _ in bet_on]
        assert run.rounds_offered() == sum(offered(bet, c) for _, c, _ in rounds)
        assert run.bet_rounds() == len(bet_on)
        assert run.expected_gain() == sum(ev or 0 for ev in evs)
        assert run.realized_gain() == sum(brute_net(bet, full(c)) for _, c in bet_on)
    assert sum(run.bet_rounds() for run in sim.bets) > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=9, max_size=9, unique=True
    ),
    seed=st.integers(0, 2**32),
    tags=st.lists(st.integers(-3, 3), min_size=4, max_size=4),
    trigger=st.fractions(-4, 4, max_denominator=6),
    see_burns=st.booleans(),
)
def test_drawn_shoes_counts_and_triggers_match_a_hand_replay(
    cards: list[PhysicalCard],
    seed: int,
    tags: list[int],
    trigger: Fraction,
    see_burns: bool,
) -> None:
    shoe = shoe_of(cards)  # low ranks: short burns, one round a shoe from at most 7 cards
    counted = tags_of(A=tags[0], r2=tags[1], r3=tags[2], r4=tags[3])
    bets = (OFFERED, BEHIND)
    evaluator = compile_bets([], PB)
    count = count_strategy(
        evaluator,
        shoe,
        tags=dict.fromkeys(("offered", "behind"), counted),
        triggers=dict.fromkeys(("offered", "behind"), trigger),
        see_burns=see_burns,
        card_bets=bets,
    )
    sim = simulate(evaluator, shoe, shoes=3, seed=seed, cut_card=0, count=count, card_bets=bets)
    rounds = [r for i in range(3) for r in replay_seen(shoe, seed, i, see_burns=see_burns)]
    assert sim.see_burns == see_burns
    for run, bet in zip(sim.bets, bets, strict=True):
        bet_on = [
            (left, dealt)
            for left, dealt, seen in rounds
            if offered(bet, dealt) and hand_bets(counted, trigger, seen, shoe)
        ]
        assert run.bet_rounds() == len(bet_on)
        assert run.expected_gain() == sum(brute_ev(bet, left) or 0 for left, _ in bet_on)
        assert run.realized_gain() == sum(brute_net(bet, full(c)) for _, c in bet_on)


def test_derived_tags_are_eors_and_pool_gives_the_same_figures() -> None:
    evaluator = compile_bets([TIE], PB)
    shoe = Shoe.decks(1)
    count = count_strategy(evaluator, shoe, card_bets=(NINES,))
    nines = count.bets[1]
    assert [b.bet_id for b in count.bets] == ["tie", "nines"]
    assert nines.tags.tags["9"] < 0 and nines.tags_source == "eor (level 3)"
    assert nines.slope is not None and nines.slope > 0 and nines.trigger == nines.derived_trigger
    args = {"shoes": 4, "seed": 2, "count": count, "card_bets": (NINES,)}
    one = simulate(evaluator, shoe, **args)  # type: ignore[arg-type]
    pool = simulate(evaluator, shoe, workers=2, chunk=1, **args)  # type: ignore[arg-type]
    assert one.to_json() == pool.to_json()
    assert one.to_json()["bets"]["nines"]["count"]["trigger_source"] == "derived"


def test_the_run_stops_once_the_budget_is_spent() -> None:
    evaluator = compile_bets([], PB)
    shoe = Shoe.decks(1)
    count = count_strategy(
        evaluator, shoe, triggers={"nines": Fraction(-(10**6))}, card_bets=(NINES,)
    )  # bets every round
    with pytest.raises(BudgetError, match=r"after 1 of 5 shoes, over the budget of .*--budget"):
        simulate(evaluator, shoe, shoes=5, seed=1, count=count, card_bets=(NINES,), card_budget=1)
    done = simulate(
        evaluator, shoe, shoes=1, seed=1, count=count, card_bets=(NINES,), card_budget=1
    )
    assert done.bets[0].bet_rounds() == done.rounds > 0  # the last shoe is kept, over or not


def test_a_count_for_other_bets_is_refused() -> None:
    evaluator = compile_bets([TIE], PB)
    count = count_strategy(evaluator, Shoe.decks(1))
    with pytest.raises(SimulationError, match="counts other bets than the run's"):
        simulate(evaluator, Shoe.decks(1), shoes=1, seed=1, count=count, card_bets=(RED_FOUR,))
    with pytest.raises(SimulationError, match="unknown bet 'nine'"):
        count_strategy(evaluator, Shoe.decks(1), triggers={"nine": Fraction(1)}, card_bets=(NINES,))


def test_cli_count_on_colour_match(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "colour-match", "--decks", "1", "--shoes", "2", "--strategy", "count"]
    with pytest.raises(SystemExit) as info:
        main([*args, "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    colour = data["bets"]["colour_match"]
    assert data["strategy"] == "count" and data["rounds"] > 10
    # A rank count cannot see colours: every rank's EOR is 0, the count never bets.
    assert set(colour["count"]["tags"].values()) == {0} and colour["count"]["trigger"] is None
    assert sum(r["rounds_bet"] for r in colour["by_round"]) == 0
    with pytest.raises(SystemExit) as info:  # a trigger of its own: bets when TC ≥ 0 (always)
        main([*args, "--trigger", "colour_match=0"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "| Colour Match |" in out and "100.000%" in out and "--trigger" in out


def test_cli_count_tags_file_for_a_card_bet(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    tags = tmp_path / "tags.toml"
    tags.write_text("[colour_match]\nA = 1\nK = -1\n")
    args = ["simulate", "colour-match", "--decks", "1", "--shoes", "1", "--strategy", "count"]
    with pytest.raises(SystemExit) as info:
        main([*args, "--tags", str(tags), "--trigger", "colour_match=1/2", "--format", "json"])
    assert info.value.code == 0
    count = json.loads(capsys.readouterr().out)["bets"]["colour_match"]["count"]
    assert count["tags"]["A"] == 1 and count["tags_source"] == str(tags)
    tags.write_text("[colour_match]\nA = 1.5\n")
    with pytest.raises(SystemExit) as info:
        main([*args, "--tags", str(tags)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "tags.toml:2: bet 'colour_match', rank 'A'" in err
