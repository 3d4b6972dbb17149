"""Peek figures (exactodds/figures/peek.py) against brute force over every ordered card sequence
of small shoes: every reveal, the decision maximised per cell independently, every policy of a
tiny case; a case checked by hand; the 8-deck never-raise RTP against the engine's joint."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import load_paytable
from exactodds.bets.multipliers import Peek
from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Bet
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome, Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.errors import PaytableError
from exactodds.figures.metrics import bet_figures
from exactodds.figures.peek import PeekFigures, peek_figures
from tests.bruteforce import card_value, outcome_winner, physical_cards, play_round, shoe_of

CLASSIC = load_paytable("classic")


def round_bet(bet_id: str) -> Bet:
    bet = CLASSIC.bet(bet_id)
    assert isinstance(bet, Bet)
    return bet


PLAYER = round_bet("player")
# Banker paid 1:1 with 5% commission taken from the win (the live games' convention).
BANKER = replace(
    round_bet("banker"),
    rows=(
        replace(round_bet("banker").rows[0], pays=Payout(1), commission=Fraction(1, 20)),
        *round_bet("banker").rows[1:],
    ),
)
# Net per unit stake by the winner, written out again (not read from the rows).
NETS: dict[str, dict[Winner, Fraction]] = {
    "player": {Winner.PLAYER: Fraction(1), Winner.TIE: Fraction(0), Winner.BANKER: Fraction(-1)},
    "banker": {
        Winner.BANKER: Fraction(19, 20),
        Winner.TIE: Fraction(0),
        Winner.PLAYER: Fraction(-1),
    },
}
PB = BUILTIN["punto-banco"]
POSITION = {"P1": 0, "B1": 1, "P2": 2, "B2": 3}
Reveals = tuple[tuple[tuple[str, ...], Fraction], ...]


def peeking(bet: Bet, reveals: Reveals, raises: tuple[int, ...], fee: Fraction) -> Bet:
    return replace(bet, fee=fee, peek=Peek(reveals, raises))


def brute_cells(
    shoe: Shoe,
    net: Callable[[Outcome], Fraction],
    positions: Sequence[str],
    by_rank: bool = False,
    tableau: Tableau = PB,
) -> tuple[dict[tuple[int, ...], tuple[int, Fraction]], int]:
    """Per shown values (or ranks 1-13): (sequences, summed net per unit stake), dealing every
    ordered six."""
    cells: dict[tuple[int, ...], tuple[int, Fraction]] = defaultdict(lambda: (0, Fraction(0)))
    universe = 0
    for seq in permutations(physical_cards(shoe), 6):
        shown = [seq[POSITION[p]] for p in positions]
        key = tuple(c[0] + 1 if by_rank else card_value(c) for c in shown)
        n, total = cells[key]
        cells[key] = (n + 1, total + net(play_round(seq, tableau)))
        universe += 1
    return dict(cells), universe


def brute_figures(
    shoe: Shoe,
    side: str,
    reveals: Reveals,
    raises: tuple[int, ...],
    fee: Fraction,
    *,
    tableau: Tableau = PB,
) -> tuple[Fraction, Fraction, dict[tuple[str, ...], dict[tuple[int, ...], int]]]:
    """(net, paid, decisions per rule and cell) per base stake, each cell's stake chosen alone."""
    net, paid = -fee, fee
    decisions: dict[tuple[str, ...], dict[tuple[int, ...], int]] = {}
    for positions, q in reveals:
        cells, universe = brute_cells(
            shoe, lambda o: NETS[side][outcome_winner(o)], positions, tableau=tableau
        )
        decisions[positions] = {}
        for key, (n, total) in cells.items():
            best = max(sorted({1, *raises}), key=lambda r: (r * total, -r))
            decisions[positions][key] = best
            net += q * best * total / universe
            paid += q * best * Fraction(n, universe)
    return net, paid, decisions


def check_against_brute(
    shoe: Shoe,
    side: str,
    reveals: Reveals,
    raises: tuple[int, ...],
    fee: Fraction,
    *,
    tableau: Tableau = PB,
) -> PeekFigures:
    bet = peeking(PLAYER if side == "player" else BANKER, reveals, raises, fee)
    f = peek_figures(bet, shoe, tableau)
    net, paid, decisions = brute_figures(shoe, side, reveals, raises, fee, tableau=tableau)
    assert (f.ev, f.paid, f.rtp) == (net, paid, 1 + net / paid)
    assert sum(p for p, _ in f.outcomes()) == 1
    assert sum(p * net for p, net in f.outcomes()) - fee == f.ev  # the outcomes by cell
    for rule in f.decision_table:
        assert {c.shown: c.stake for c in rule.cells} == decisions[rule.positions]
    return f


def test_hand_checked_one_nine_and_five_kings() -> None:
    # The nine at P1 or P2 is a player natural 9 against 0; at B1 or B2 a banker natural; as
    # card 5 the player draws it (9 against a banker 0 that draws a K); as card 6 the banker
    # draws it. Seeing P1 = 9 the player wins surely (triple); seeing 0 he wins 2 of 5 (keep).
    shoe = shoe_of([(8, 0)] + [(12, s) for s in range(4)] + [(11, 0)])
    bet = peeking(PLAYER, ((("P1",), Fraction(1)),), (2, 3), Fraction(1, 5))
    f = peek_figures(bet, shoe)
    (rule,) = f.decision_table
    assert [(c.shown, c.probability, c.edge, c.decision) for c in rule.cells] == [
        ((0,), Fraction(5, 6), Fraction(1, 5), "keep"),
        ((9,), Fraction(1, 6), Fraction(-1), "triple"),
    ]
    # net = 1/6·3 − 5/6·1/5 − 1/5 = 2/15; paid = 1/6·3 + 5/6 + 1/5 = 23/15
    assert (f.ev, f.paid, f.rtp, f.house_edge) == (
        Fraction(2, 15),
        Fraction(23, 15),
        Fraction(25, 23),
        Fraction(-2, 23),
    )
    assert f.rtp_never_raise == Fraction(5, 6)  # 1 − (1/5)/(6/5)
    assert f.rtp_always_max == Fraction(15, 16)  # 1 − (1/5)/(16/5)
    assert f.value_of_peeking == Fraction(25, 23) - Fraction(5, 6)
    assert f.rtp_by_reveal["P1",] == f.rtp
    assert f.player_favourable


@pytest.mark.parametrize(
    ("cards", "side", "reveals", "raises", "fee"),
    [
        ("9c Ks Kh Kd 5c 4s 3h", "player", ((("P1",), Fraction(1)),), (2, 3), Fraction(1, 5)),
        (
            "8c 8d 2s 7h Kd 6c 5s 4h",
            "banker",
            ((("P1", "B1"), Fraction(1, 3)), (("B2", "P1", "P2"), Fraction(2, 3))),
            (2, 3),
            Fraction(1, 5),
        ),
        (
            "Ac 2d 9s 9h Kd 7c 6s",
            "player",
            ((("P1", "B1", "P2", "B2"), Fraction(1)),),
            (2,),
            Fraction(0),
        ),
    ],
)
def test_every_reveal_against_brute_force(
    cards: str, side: str, reveals: Reveals, raises: tuple[int, ...], fee: Fraction
) -> None:
    check_against_brute(Shoe.decks(1).remove(_complement(cards)), side, reveals, raises, fee)


def _complement(cards: str) -> str:
    """The cards of one deck not in ``cards`` (so removing them leaves ``cards``)."""
    keep = set(cards.split())
    return " ".join(f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in keep)


def test_rtp_by_reveal_against_brute_force() -> None:
    shoe = Shoe.decks(1).remove(_complement("9c 2s Kh Kd 5c 8s 3h"))
    fee = Fraction(1, 5)
    reveals = ((("B1",), Fraction(1, 4)), (("P1", "B1"), Fraction(3, 4)))
    f = peek_figures(peeking(BANKER, reveals, (2, 3), fee), shoe)
    for positions, rtp in f.rtp_by_reveal.items():
        net, paid, _ = brute_figures(shoe, "banker", ((positions, Fraction(1)),), (2, 3), fee)
        assert rtp == 1 + net / paid
    assert list(f.rtp_by_reveal) == [
        ("P1",),
        ("P1", "B1"),
        ("P1", "B1", "P2"),
        ("P1", "B1", "P2", "B2"),
    ]


def test_no_policy_beats_the_optimal_decision() -> None:
    # Four values at P1 (0 3 5 9): every one of the 3⁴ policies of keep/double/triple by cell.
    shoe = Shoe.decks(1).remove(_complement("9c 9s Kh Kd 5c 5s 3h"))
    fee = Fraction(1, 5)
    f = peek_figures(peeking(PLAYER, ((("P1",), Fraction(1)),), (2, 3), fee), shoe)
    cells, universe = brute_cells(shoe, lambda o: NETS["player"][outcome_winner(o)], ("P1",))
    keys = sorted(cells)
    assert len(keys) == 4
    nets = [
        sum((r * cells[k][1] for r, k in zip(policy, keys, strict=True)), Fraction(0)) / universe
        - fee
        for policy in product((1, 2, 3), repeat=len(keys))
    ]
    assert f.ev == max(nets)
    assert nets.count(max(nets)) == 1  # no tie: the optimum is the one policy found
    assert f.rtp_never_raise == 1 + nets[0] / (1 + fee)
    assert f.rtp_always_max == 1 + nets[-1] / (3 + fee)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=6, max_size=7, unique=True
    ),
    side=st.sampled_from(["player", "banker"]),
    rules=st.lists(
        st.lists(st.sampled_from(["P1", "B1", "P2", "B2"]), min_size=1, max_size=4, unique=True),
        min_size=1,
        max_size=2,
        unique_by=tuple,
    ),
    terms=st.tuples(
        st.sampled_from([(2, 3), (2,), (3,), (5, 2)]),  # raises
        st.sampled_from([Fraction(0), Fraction(1, 5), Fraction(1, 10)]),  # fee
    ),
    tableau=st.sampled_from(list(BUILTIN.values())),
)
def test_drawn_shoes_and_reveals_against_brute_force(
    cards: list[tuple[int, int]],
    side: str,
    rules: list[list[str]],
    terms: tuple[tuple[int, ...], Fraction],
    tableau: Tableau,
) -> None:
    q = Fraction(1, len(rules))
    reveals = tuple((tuple(r), q) for r in rules)
    check_against_brute(shoe_of(cards), side, reveals, *terms, tableau=tableau)


def test_never_raise_matches_the_engines_joint_on_eight_decks() -> None:
    shoe = Shoe.decks(8)
    f = peek_figures(peeking(PLAYER, ((("B2", "P1"), Fraction(1)),), (2, 3), Fraction(1, 5)), shoe)
    joint = joint_distribution(shoe).winner_counts()
    ev = Fraction(joint[Winner.PLAYER] - joint[Winner.BANKER], sum(joint.values()))
    assert f.rtp_never_raise == 1 + (ev - Fraction(1, 5)) / Fraction(6, 5)
    (rule,) = f.decision_table
    assert len(rule.cells) == 100
    assert sum(c.probability for c in rule.cells) == 1
    # Raising is worth it only where the shown cards favour the player: double never happens.
    assert {c.decision for c in rule.cells} == {"keep", "triple"}


def test_a_bet_on_pairs_is_keyed_by_the_shown_ranks() -> None:
    # Player pair 11:1: the shown ranks decide (a K and a Q are both 0 but no pair).
    shoe = Shoe.decks(1).remove(_complement("Kc Ks Qh 9d 9c 5s 3h"))
    reveals = ((("P1", "P2"), Fraction(1, 2)), (("P2",), Fraction(1, 2)))
    fee = Fraction(1, 10)
    f = peek_figures(peeking(round_bet("player_pair"), reveals, (2, 3), fee), shoe)
    net, paid = -fee, fee
    for (positions, q), rule in zip(reveals, f.decision_table, strict=True):
        assert rule.attr == "rank"
        cells, universe = brute_cells(
            shoe, lambda o: Fraction(11) if o.player.pair else Fraction(-1), positions, True
        )
        stakes = {k: 3 if total > 0 else 1 for k, (_, total) in cells.items()}
        assert {c.shown: c.stake for c in rule.cells} == stakes
        net += (
            q * sum((stakes[k] * total for k, (_, total) in cells.items()), Fraction(0)) / universe
        )
        paid += q * sum(
            (stakes[k] * Fraction(n, universe) for k, (n, _) in cells.items()), Fraction(0)
        )
    assert {c.shown: c.decision for c in f.decision_table[0].cells}[13, 13] == "triple"
    assert (f.ev, f.paid) == (net, paid)


@pytest.mark.parametrize(
    ("reveals", "raises", "message"),
    [
        (((("P3",), Fraction(1)),), (2,), "must name distinct cards of P1 B1 P2 B2"),
        (((("P1", "P1"), Fraction(1)),), (2,), "must name distinct cards"),
        (((("P1",), Fraction(1, 2)),), (2,), "must sum to 1"),
        (((("P1",), Fraction(3, 2)), (("B1",), Fraction(-1, 2))), (2,), "is negative"),
        (((("P1",), Fraction(1)),), (0,), "whole multiples of 2 or more"),
    ],
)
def test_a_peek_the_figures_cannot_mean_is_refused(
    reveals: Reveals, raises: tuple[int, ...], message: str
) -> None:
    with pytest.raises(PaytableError, match=message):
        peek_figures(peeking(PLAYER, reveals, raises, Fraction(0)), Shoe.decks(1))


def test_a_bet_without_a_peek_is_refused() -> None:
    with pytest.raises(PaytableError, match="has no peek"):
        peek_figures(PLAYER, Shoe.decks(1))


def test_bet_figures_of_a_peek_bet_are_optimal_play() -> None:
    """bet_figures gives a peek bet the headline figures of optimal play, its rows unraised."""
    player = load_paytable("classic").bet("player")
    assert isinstance(player, Bet)
    bet = replace(player, fee=Fraction(1, 5), peek=Peek(((("P1", "B1"), Fraction(1)),)))
    shoe = Shoe.decks(1)
    f = bet_figures(joint_distribution(shoe), bet)
    direct = peek_figures(bet, shoe)
    assert (f.rtp, f.paid, f.ev) == (direct.rtp, direct.paid, direct.ev)
    assert f.variance == direct.variance and f.peek is not None
    assert f.rows[0].net == 1 and f.rtp > f.peek.rtp_never_raise
