"""Shoe simulation: the dealer against a card-by-card one, determinism across workers, chunks and
backends, exact tallies against recomputation, the Monte Carlo check and plots."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exactodds import Shoe
from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.analysis.dealing import deal_round_at, deal_shoes, play_shoe, shoe_rng
from exactodds.analysis.eor import effect_of_removal
from exactodds.analysis.montecarlo import ClassCheck, deal_outcome_counts, monte_carlo_check
from exactodds.analysis.simulate import SimulationError, simulate
from exactodds.analysis.tally import Tally
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.cli import main
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Hand, Outcome, PairKind
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.figures.metrics import bet_figures
from tests.extras import need


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
    # player 2+3 = 5 draws an 8; banker 3 stands on an 8 (docs/rules.md §3)
    cards = [_k("2", "c"), _k("A", "d"), _k("3", "h"), _k("2", "s"), _k("8", "c"), _k("9", "c")]
    assert _deal(cards) == (Outcome(Hand(5, 8, none), Hand(3, None, none)), 5)
    # a natural ends the deal; pairs by rank and suit
    cards = [_k("9", "c"), _k("K", "d"), _k("9", "c"), _k("K", "h"), _k("5", "c")]
    assert _deal(cards) == (Outcome(Hand(8, None, perfect), Hand(0, None, pair)), 4)
    # player stands on 6, banker 5 draws
    cards = [_k("6", "c"), _k("5", "d"), _k("T", "h"), _k("J", "s"), _k("4", "c")]
    assert _deal(cards) == (Outcome(Hand(6, None, none), Hand(5, 4, none)), 5)


def _card_by_card(
    shoe: Shoe, tableau: Tableau, seed: int, index: int, cut_card: int
) -> list[tuple[list[int], int]]:
    """The shoe procedure written out card by card with the scalar dealer (independent of the
    vectorised one): shuffle by the documented stream, burn, deal until one round after the cut
    card."""
    flat = [n for row in shoe.counts for n in row]
    cards = [c for c, n in enumerate(flat) for _ in range(n)]
    dealt = [cards[i] for i in shoe_rng(seed, index).permutation(len(cards)).tolist()]
    pos = min(1 + (RANK_VALUES[dealt[0] >> 2] or 10), len(dealt))
    counts = flat.copy()
    for c in dealt[:pos]:
        counts[c] -= 1
    out = []
    cut_seen = len(dealt) - pos < cut_card
    while len(dealt) - pos >= 6:
        code, end = deal_round_at(dealt, pos, tableau)
        out.append((counts.copy(), code))
        for c in dealt[pos:end]:
            counts[c] -= 1
        pos = end
        if cut_seen:
            break
        cut_seen = len(dealt) - pos < cut_card
    return out


@pytest.mark.parametrize(
    ("shoe", "rules", "cut"),
    [
        (Shoe.decks(8), "punto-banco", 14),
        (Shoe.decks(1), "mini", 16),
        (Shoe.decks(2).remove("6 6 6 7h 8 8 9"), "pronto", 0),
        (Shoe.decks(1), "punto-banco", 45),  # the cut card comes out with the burn
    ],
)
def test_vectorised_dealer_equals_the_card_by_card_one(shoe: Shoe, rules: str, cut: int) -> None:
    tableau = BUILTIN[rules]
    indices = [0, 5, 2, 9]
    dealt = deal_shoes(shoe, tableau, 3, indices, cut)
    for s, index in enumerate(indices):
        rows = np.flatnonzero(dealt.shoe == s)
        expected = _card_by_card(shoe, tableau, 3, index, cut)
        assert dealt.states[rows].tolist() == [counts for counts, _ in expected]
        assert dealt.codes[rows].tolist() == [code for _, code in expected]
        assert dealt.round[rows].tolist() == list(range(1, len(expected) + 1))
        assert play_shoe(shoe, tableau, 3, index, cut) == expected


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
        # the documented per-shoe stream; cards listed in rank, suit order
        first = int(np.random.default_rng(np.random.SeedSequence(11).spawn(index + 1)[index])
                    .permutation(416)[0])  # fmt: skip
        value = RANK_VALUES[first // 32]  # 32 cards of each rank, suits inside
        assert burn == 1 + (value or 10)


def test_same_seed_same_json_whatever_the_workers_and_chunks(evaluator: BatchEvaluator) -> None:
    shoe = Shoe.decks(8)
    one = simulate(evaluator, shoe, shoes=6, seed=5, chunk=4)
    again = simulate(evaluator, shoe, shoes=6, seed=5, chunk=1)
    two = simulate(evaluator, shoe, shoes=6, seed=5, workers=2, chunk=2)
    other = simulate(evaluator, shoe, shoes=6, seed=6)
    assert one.to_json() == again.to_json() == two.to_json()
    assert one.to_json() != other.to_json()


def test_perfect_play_tallies_are_the_exact_sums_over_dealt_rounds(
    classic: Paytable, evaluator: BatchEvaluator
) -> None:
    shoe = classic.shoe
    sim = simulate(evaluator, shoe, shoes=3, seed=9)
    states = [
        r for i in range(3) for r in enumerate(_card_by_card(shoe, classic.tableau, 9, i, 14))
    ]
    result = evaluator.evaluate([Shoe(_rows(counts)) for _, (counts, _) in states])
    for bet in sim.bets:
        gain = gain_limited = real = square = Fraction(0)
        edges = 0
        for i, (k, (_, code)) in enumerate(states):
            ev = result.ev(i, bet.bet_id)
            if ev > 0:
                net = classic.round_bet(bet.bet_id).net(Outcome.from_code(code))
                edges += 1
                gain += ev
                real += net
                square += net * net
                if bet.max_round is None or k + 1 <= bet.max_round:
                    gain_limited += ev
        assert bet.rounds == len(states)
        assert bet.bet_rounds() == edges
        assert bet.expected_gain() == gain
        assert bet.expected_gain(limited=True) == gain_limited
        assert bet.realized_gain() == real
        assert bet.realized_square() == square
        mean = sum((result.ev(i, bet.bet_id) for i in range(len(states))), Fraction(0))
        assert sum((r.mean_ev * r.rounds for r in bet.by_round if r.mean_ev), Fraction(0)) == mean
    # one state checked against the engine, through the paytable's own metrics
    last = Shoe(_rows(states[-1][1][0]))
    joint = joint_distribution(last, classic.tableau)
    assert (
        result.ev(len(states) - 1, "lucky_six")
        == bet_figures(joint, classic.round_bet("lucky_six")).ev
    )


def _rows(counts: list[int]) -> tuple[tuple[int, int, int, int], ...]:
    return tuple((counts[i], counts[i + 1], counts[i + 2], counts[i + 3]) for i in range(0, 52, 4))


def _three_rounds(numerators: np.ndarray, nets: np.ndarray) -> Tally:
    """A tally of three rounds of one bet, all at round 1 with 9 cards left, bet where EV > 0."""
    return Tally.of_rounds(
        bets=1,
        shoes=1,
        rounds=np.array([1, 1, 1]),
        sizes=np.array([9, 9, 9]),
        numerators=numerators,
        bet=numerators > 0,
        nets=nets,
        evaluated=True,
    )


def test_tally_sums_numerators_beyond_int64_exactly() -> None:
    big = np.array([[(1 << 70) + 3], [-(1 << 69)], [5]], dtype=object)
    (row,) = _three_rounds(big, np.array([[1 << 40], [-1], [2]])).by_round([1])[0]
    assert row.mean_ev == Fraction((1 << 70) + 3 - (1 << 69) + 5, 3 * 60480)
    assert row.expected_gain == Fraction((1 << 70) + 8, 60480)
    assert row.realized_square == (1 << 80) + 4
    # int64 numerators near the limit: the 32-bit halves sum exactly
    near = np.array([[2**62 + 1], [2**62 + 1], [-(2**63)]], dtype=np.int64)
    t = _three_rounds(near, np.zeros((3, 1), dtype=np.int64))
    assert t.sums[1, 9][0, 0] == 2 * (2**62 + 1) - 2**63
    assert t.sums[1, 9][2, 0] == 2 * (2**62 + 1)


def test_bad_parameters(evaluator: BatchEvaluator) -> None:
    with pytest.raises(SimulationError, match=r"^cut_card 416 must be 0\.\.415"):  # a parameter
        simulate(evaluator, Shoe.decks(8), shoes=1, seed=1, cut_card=416)
    with pytest.raises(SimulationError, match="shoes"):
        simulate(evaluator, Shoe.decks(8), shoes=0, seed=1)
    with pytest.raises(SimulationError, match="unknown backend 'spark'"):
        simulate(evaluator, Shoe.decks(8), shoes=1, seed=1, backend="spark")
    with pytest.raises(SimulationError, match="only to the dask backend"):
        simulate(evaluator, Shoe.decks(8), shoes=1, seed=1, scheduler="tcp://127.0.0.1:1")


def test_monte_carlo_check_on_a_million_rounds(classic: Paytable) -> None:
    seen: list[int] = []
    check = monte_carlo_check(
        classic.bets,
        classic.shoe,
        classic.tableau,
        rounds=1_000_000,
        seed=2,
        progress=lambda done, total: seen.append(done),
    )
    assert seen[-1] == 1_000_000 and seen == sorted(seen)
    assert check.checks == 57
    assert max(b.max_abs_z for b in check.bets) < 4.5
    assert check.outside_99 <= 4  # about 0.6 expected
    tie = next(b for b in check.bets if b.bet_id == "tie")
    assert tie.ev == bet_figures(joint_distribution(classic.shoe), classic.round_bet("tie")).ev
    assert sum(c.observed for c in tie.classes) == 1_000_000


def test_monte_carlo_check_detects_a_wrong_shoe(classic: Paytable) -> None:
    # deal from a shoe without eights and nines, compare with the full shoe: naturals collapse
    wrong = Shoe.decks(8).remove(" ".join(["8", "9"] * 32))
    dealt = deal_outcome_counts(wrong, classic.tableau, 20_000, seed=1)
    naturals = sum(n for code, n in dealt.items() if Outcome.from_code(code).player.natural)
    joint = joint_distribution(classic.shoe, classic.tableau)
    p = joint.probability(lambda o: o.player.natural)
    assert ClassCheck(Fraction(1), p, naturals, 20_000).z < -20


def test_cli_simulate_and_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "classic", "--shoes", "2", "--seed", "3", "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shoes"] == 2 and data["rounds"] > 100 and data["strategy"] == "perfect"
    assert set(data["bets"]["perfect_pair"]) >= {"unlimited", "with_max_round", "by_round"}
    with pytest.raises(SystemExit):
        main(["montecarlo", "classic", "--rounds", "5000", "--seed", "1"])
    assert "Monte Carlo verification" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["simulate", "classic", "--shoes", "1", "--cut-card", "500"])
    assert info.value.code == 2
    assert "--cut-card 500 must be 0..415" in capsys.readouterr().err


def test_cli_eor_and_simulate_take_the_shoe_and_rules_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = ["--decks", "6", "--remove", "6 6 7h", "--rules", "mini"]
    with pytest.raises(SystemExit) as info:
        main(["eor", "classic", *options, "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    shoe = Shoe.decks(6).remove("6 6 7h")
    expected = effect_of_removal(load_paytable("classic").bets[:1], shoe, BUILTIN["mini"]).ev[
        "player"
    ]
    assert data["shoe"] == shoe.describe() and data["ev"]["player"] == str(expected)
    with pytest.raises(SystemExit) as info:
        main(["simulate", "classic", *options, "--shoes", "1", "--format", "json"])
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["shoe"], data["rules"]) == (shoe.describe(), "mini")
    assert data["bets"]["tie"]["by_round"][0]["rounds"] == 1
    assert sum(r["rounds"] for r in data["bets"]["tie"]["by_round"]) == data["rounds"] > 50


@pytest.mark.slow
def test_plots_png_and_svg(tmp_path: Path, classic: Paytable, evaluator: BatchEvaluator) -> None:
    need("matplotlib", "plots")
    from exactodds.analysis.plots import plot_edge_by_round, plot_eor

    sim = simulate(evaluator, classic.shoe, shoes=2, seed=1)
    eor = effect_of_removal(classic.bets[:4], classic.shoe, classic.tableau)
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


def test_a_paytable_simulates_as_its_bets_split_by_hand() -> None:
    """``simulate(paytable)`` splits the bets itself: the same run as the compiled value-level
    bets with the card engine's bets and the paytable's order, perfect play and counting."""
    from dataclasses import replace

    from exactodds.analysis.count import count_strategy
    from exactodds.analysis.prepare import Counting
    from exactodds.bets.payout import parse_payout
    from exactodds.bets.paytable import Bet, Row
    from exactodds.language import OTHERWISE, parse_condition

    classic = load_paytable("classic")
    hearts = "player.card1.suit == hearts"
    rows = (
        Row(parse_condition(hearts), parse_payout("3:1"), "Hearts"),
        Row(OTHERWISE, parse_payout("lose"), "Other"),
    )
    card = (Bet("hearts", "Hearts", rows),)
    table = replace(classic, bets=(classic.round_bet("player"), card[0]))
    shoe = Shoe.decks(1)
    value = compile_bets([table.round_bet("player")], table.tableau)
    by_hand = simulate(value, shoe, shoes=2, seed=3, card_bets=card, order=["player", "hearts"])
    assert simulate(table, shoe, shoes=2, seed=3).to_json() == by_hand.to_json()
    triggers = {"player": Fraction(1)}  # a counter (value-level bets: the card EOR is slow)
    counted = count_strategy(value, shoe, triggers=triggers)
    by_hand = simulate(value, shoe, shoes=2, seed=3, count=counted)
    player = replace(table, bets=(table.round_bet("player"),))
    ours = simulate(player, shoe, shoes=2, seed=3, count=Counting(triggers=triggers))
    assert ours.to_json() == by_hand.to_json()
    with pytest.raises(SimulationError, match="splits its bets itself"):
        simulate(table, shoe, shoes=2, seed=3, card_bets=card)
    with pytest.raises(SimulationError, match="counted by a CountStrategy"):
        simulate(value, shoe, shoes=2, seed=3, count=Counting())
