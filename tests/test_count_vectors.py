"""Count vectors (exactodds/counting/vectors.py): ``count(GROUP, ATTR == X)`` rows written one
per rank, compared with literals by every operator, joined by ``or``/``and`` so that many share
one comparison of the vector, against the brute-force dealer (tests/cardforce.py) over every
ordered six-card sequence of small shoes, hand-written and hypothesis-drawn."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactodds.counting.plan as plan_module
from exactodds.counting import row_counts
from exactodds.counting.evaluate import holds_for_cards
from exactodds.deal.shoe import Shoe
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import shoe_of
from tests.cardforce import brute_rows

VALUES = {
    "rank": ["A", "2", "5", "9", "10", "J", "K"],
    "suit": ["clubs", "diamonds", "hearts", "spades"],
    "colour": ["red", "black"],
    "value": ["0", "1", "5", "9"],
}
OPS = ["==", "!=", "<", "<=", ">", ">="]


def check(rows: list[str], shoe: Shoe) -> None:
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    got = row_counts(conditions, shoe)
    want, offered = brute_rows([c.node for c in conditions], shoe, None)
    assert (list(got.rows), got.offered) == (want, offered), rows


# Seven physical cards: aces and kings of several suits, a nine, a five (values 1, 0, 9, 5).
SMALL = [
    shoe_of([(0, 0), (0, 1), (0, 2), (12, 0), (12, 3), (8, 1), (4, 2)]),
    shoe_of([(12, 1), (12, 1), (12, 2), (12, 3), (0, 1), (9, 0), (8, 3)]),
]


def _any(test: str, values: list[str], group: str = "round", attr: str = "rank") -> str:
    return " or ".join(f"count({group}, {attr} == {v}) {test}" for v in values)


HAND_WRITTEN = [
    [  # Lucky Match as a designer writes it, on the ranks the shoes hold
        _any(">= 3", ["A", "K"]),
        f"count(round, rank == A) == 2 and ({_any('== 2', ['K', '9', '5'])})",
        f"({_any('== 2', ['A', 'K'])}) and not ({_any('>= 3', ['A', 'K'])})",
        _any("== 2", ["A", "K", "9", "5"]),
    ],
    [  # literals on the left, out of range, every operator; an and over one plane
        "3 <= count(round, rank == K) or 7 < count(round, rank == A)",
        "count(player, colour == red) != 1 and count(player, colour == black) != 1",
        "count(banker, value == 0) <= 1 and count(banker, value == 1) <= 1",
        "count(initial, suit == hearts) < 0 or count(initial, suit == clubs) > -5",  # all
    ],
    [  # counts read as numbers too: sums, comparisons with features, one plane per group
        "count(round, rank == K) + count(round, rank == A) >= cards - 1",
        "count(player, rank == K) == count(banker, rank == K)",
        "count(player, rank == A) >= 1 or count(banker, rank == A) >= 1",
    ],
]


@pytest.mark.parametrize("rows", HAND_WRITTEN)
def test_hand_written_count_rows_match_brute_force(rows: list[str]) -> None:
    for shoe in SMALL:
        check(rows, shoe)


def test_small_blocks_and_no_staging_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """One-cell blocks (the outer loop) and the draws dealt with the first four cards."""
    monkeypatch.setattr(plan_module, "_CELLS", 8)
    check(HAND_WRITTEN[0], SMALL[0])
    monkeypatch.setattr(plan_module, "_STAGED", False)
    check(HAND_WRITTEN[1], SMALL[1])


@st.composite
def comparison(draw: st.DrawFn, group: str, attr: str, op: str, literal: int) -> str:
    value = draw(st.sampled_from(VALUES[attr]))
    count = f"count({group}, {attr} == {value})"
    return f"{literal} {op} {count}" if draw(st.booleans()) else f"{count} {op} {literal}"


@st.composite
def junction(draw: st.DrawFn) -> str:
    """An ``or``/``and`` of comparisons, most of them sharing one group, attribute, operator
    and literal (one plane of the vector), with a comparison of another plane or a feature."""
    group = draw(st.sampled_from(["player", "banker", "initial", "round"]))
    attr = draw(st.sampled_from(list(VALUES)))
    op, literal = draw(st.sampled_from(OPS)), draw(st.integers(-1, 7))
    items = draw(st.lists(comparison(group, attr, op, literal), min_size=2, max_size=4))
    other = draw(st.sampled_from(["player.wins", "banker.cards == 3", "count(round, rank == K)"]))
    if other.startswith("count"):
        other = f"{other} {draw(st.sampled_from(OPS))} {draw(st.integers(0, 3))}"
    items.insert(draw(st.integers(0, len(items))), other)
    joined = f" {draw(st.sampled_from(['and', 'or']))} ".join(items)
    return f"not ({joined})" if draw(st.booleans()) else joined


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(junction(), min_size=1, max_size=2), which=st.integers(0, 1))
def test_random_count_junctions_match_brute_force(rows: list[str], which: int) -> None:
    check(rows, SMALL[which])


def test_one_round_reads_the_same_vectors() -> None:
    """The evaluator on one dealt round (worked examples): two kings and two aces among six
    cards, hand-checked."""
    # P: Kc Ac 3d, B: Kd Ad 2s (P1 B1 P2 B2 P3 B3): both hands draw (totals 1 and 1).
    cards = [(12, 0), (12, 1), (0, 0), (0, 1), (2, 1), (1, 3)]
    two_pairs = parse_condition(f"count(round, rank == K) == 2 and ({_any('== 2', ['A', '9'])})")
    assert holds_for_cards(two_pairs, cards)
    assert not holds_for_cards(parse_condition(_any(">= 3", ["A", "K", "3"])), cards)
    assert holds_for_cards(parse_condition("count(round, suit == diamonds) == 3"), cards)
