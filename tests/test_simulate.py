"""Shoe simulation (determinism, shoe procedure, exact tallies), the Monte Carlo check and plots."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exactodds import Shoe
from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.analysis.eor import effect_of_removal
from exactodds.analysis.montecarlo import ClassCheck, deal_outcome_counts, monte_carlo_check
from exactodds.analysis.simulate import (
    SimulationError,
    deal_round_at,
    play_shoe,
    simulate,
    simulation_json,
)
from exactodds.cli import main
from exactodds.engine import joint_distribution
from exactodds.metrics import bet_figures
from exactodds.paytable import Paytable
from exactodds.paytable_loader import load_paytable
from exactodds.round import Hand, Outcome, PairKind
from exactodds.shoe import RANK_VALUES
from exactodds.tableau import BUILTIN


@pytest.fixture(scope="module")
def classic() -> Paytable:
    return load_paytable("classic")


@pytest.fixture(scope="module")
def evaluator(classic: Paytable) -> BatchEvaluator:
    return compile_bets(classic.bets, classic.tableau)


def _k(rank: str, suit: str) -> int:
    return "A23456789TJQK".index(rank) * 4 + "cdhs".index(suit)


def _deal(cards: list[int]) -> tuple[Outcome, int]:
    code, pos = deal_round_at(cards, 0, BUILTIN["punto-banco"])
    return Outcome.from_code(code), pos


def test_deal_round_at_follows_the_tableau() -> None:
    none, pair, perfect = PairKind.NONE, PairKind.PAIR, PairKind.PERFECT
    # player 2+3 = 5 draws an 8; banker 3 stands on an 8 (SPEC §3)
    cards = [_k("2", "c"), _k("A", "d"), _k("3", "h"), _k("2", "s"), _k("8", "c"), _k("9", "c")]
    assert _deal(cards) == (Outcome(Hand(5, 8, none), Hand(3, None, none)), 5)
    # a natural ends the deal; pairs by rank and suit
    cards = [_k("9", "c"), _k("K", "d"), _k("9", "c"), _k("K", "h"), _k("5", "c")]
    assert _deal(cards) == (Outcome(Hand(8, None, perfect), Hand(0, None, pair)), 4)
    # player stands on 6, banker 5 draws
    cards = [_k("6", "c"), _k("5", "d"), _k("T", "h"), _k("J", "s"), _k("4", "c")]
    assert _deal(cards) == (Outcome(Hand(6, None, none), Hand(5, 4, none)), 5)


def test_play_shoe_burns_and_ends_one_round_after_the_cut_card() -> None:
    shoe = Shoe.decks(8)
    for index in range(5):
        rounds = play_shoe(shoe, BUILTIN["punto-banco"], 11, index, 14)
        sizes = [sum(counts) for counts, _ in rounds]
        used = [Outcome.from_code(code).cards for _, code in rounds]  # cards of each round
        burn = 416 - sizes[0]
        assert 2 <= burn <= 11
        assert all(a - u == b for a, u, b in zip(sizes, used, sizes[1:], strict=False))
        left = [s - u for s, u in zip(sizes, used, strict=True)]
        cut_round = next(i for i, n in enumerate(left) if n < 14)
        assert len(rounds) == cut_round + 2  # the round of the cut card, then one more
        # the burn: the first card and as many more as its value (10 for a ten or face), with
        # the documented per-shoe seed; cards listed in rank, suit order
        first = int(np.random.default_rng([11, index]).permutation(416)[0])
        value = RANK_VALUES[first // 32]  # 32 cards of each rank, suits inside
        assert burn == 1 + (value or 10)


def test_same_seed_same_result_and_workers_agree(evaluator: BatchEvaluator) -> None:
    shoe = Shoe.decks(8)
    one = simulate(evaluator, shoe, shoes=6, seed=5, chunk=4)
    again = simulate(evaluator, shoe, shoes=6, seed=5, chunk=1)
    two = simulate(evaluator, shoe, shoes=6, seed=5, workers=2, chunk=2)
    other = simulate(evaluator, shoe, shoes=6, seed=6)
    assert simulation_json(one) == simulation_json(again) == simulation_json(two)
    assert simulation_json(one) != simulation_json(other)


def test_tallies_are_the_exact_sums_over_dealt_rounds(
    classic: Paytable, evaluator: BatchEvaluator
) -> None:
    shoe = classic.shoe()
    sim = simulate(evaluator, shoe, shoes=3, seed=9)
    states = [r for i in range(3) for r in enumerate(play_shoe(shoe, classic.tableau, 9, i, 14))]
    result = evaluator.evaluate([Shoe(_rows(counts)) for _, (counts, _) in states])
    for bet in sim.bets:
        gain = Fraction(0)
        gain_limited = Fraction(0)
        real = Fraction(0)
        edges = 0
        for i, (k, (_, code)) in enumerate(states):
            ev = result.ev(i, bet.bet_id)
            if ev > 0:
                edges += 1
                gain += ev
                real += classic.bet(bet.bet_id).net(Outcome.from_code(code))
                if bet.max_round is None or k + 1 <= bet.max_round:
                    gain_limited += ev
        assert bet.rounds == len(states)
        assert bet.edge_rounds() == edges
        assert bet.expected_gain() == gain
        assert bet.expected_gain(limited=True) == gain_limited
        assert bet.realized_gain() == real
    # one state checked against the engine, through the paytable's own metrics
    last = Shoe(_rows(states[-1][1][0]))
    joint = joint_distribution(last, classic.tableau)
    assert (
        result.ev(len(states) - 1, "lucky_six") == bet_figures(joint, classic.bet("lucky_six")).ev
    )


def _rows(counts: list[int]) -> tuple[tuple[int, int, int, int], ...]:
    return tuple((counts[i], counts[i + 1], counts[i + 2], counts[i + 3]) for i in range(0, 52, 4))


def test_bad_parameters(evaluator: BatchEvaluator) -> None:
    with pytest.raises(SimulationError, match="cut card position 416"):
        simulate(evaluator, Shoe.decks(8), shoes=1, seed=1, cut_card=416)
    with pytest.raises(SimulationError, match="shoes"):
        simulate(evaluator, Shoe.decks(8), shoes=0, seed=1)


def test_monte_carlo_check_on_a_million_rounds(classic: Paytable) -> None:
    check = monte_carlo_check(
        classic.bets, classic.shoe(), classic.tableau, rounds=1_000_000, seed=2
    )
    assert check.checks == 57
    assert max(b.max_abs_z for b in check.bets) < 4.5
    assert check.outside_99 <= 4  # about 0.6 expected
    tie = next(b for b in check.bets if b.bet_id == "tie")
    assert tie.ev == bet_figures(joint_distribution(classic.shoe()), classic.bet("tie")).ev
    assert sum(c.observed for c in tie.classes) == 1_000_000


def test_monte_carlo_check_detects_a_wrong_shoe(classic: Paytable) -> None:
    # deal from a shoe without eights and nines, compare with the full shoe: naturals collapse
    wrong = Shoe.decks(8).remove(" ".join(["8", "9"] * 32))
    dealt = deal_outcome_counts(wrong, classic.tableau, 20_000, seed=1)
    naturals = sum(n for code, n in dealt.items() if Outcome.from_code(code).player.natural)
    joint = joint_distribution(classic.shoe(), classic.tableau)
    p = joint.probability(lambda o: o.player.natural)
    assert ClassCheck(Fraction(1), p, naturals, 20_000).z < -20


def test_cli_simulate_and_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "classic", "--shoes", "2", "--seed", "3", "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shoes"] == 2 and data["rounds"] > 100
    assert set(data["bets"]["perfect_pair"]) >= {"unlimited", "with_max_round", "by_round"}
    with pytest.raises(SystemExit):
        main(["simulate", "classic", "--monte-carlo", "--rounds", "5000", "--seed", "1"])
    assert "Monte Carlo verification" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["simulate", "classic", "--shoes", "1", "--cut-card", "500"])
    assert info.value.code == 2
    assert "cut card position 500" in capsys.readouterr().err


def test_plots_png_and_svg(tmp_path: Path, classic: Paytable, evaluator: BatchEvaluator) -> None:
    pytest.importorskip("matplotlib")
    from exactodds.analysis.plots import plot_edge_by_round, plot_eor

    sim = simulate(evaluator, classic.shoe(), shoes=2, seed=1)
    eor = effect_of_removal(classic.bets[:4], classic.shoe(), classic.tableau)
    paths = plot_edge_by_round(sim, tmp_path) + plot_eor(eor, tmp_path)
    assert [p.name for p in paths] == [
        "edge-by-round.png",
        "edge-by-round.svg",
        "eor.png",
        "eor.svg",
    ]
    for p in paths:
        head = p.read_bytes()[:64]
        assert head.startswith(b"\x89PNG") if p.suffix == ".png" else b"<svg" in p.read_bytes()
