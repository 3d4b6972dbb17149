"""The card-level engine (exactodds.counting) against brute force over physical card sequences,
with hand-written and hypothesis-drawn conditions, shoes and offers; suit and colour symmetry;
and agreement with the value engine on every bundled bet."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactodds.counting as cards_module
import exactodds.counting.engine as engine_module
import exactodds.counting.plan as plan_module
from exactodds.bets.loader import load_paytable
from exactodds.counting import row_counts
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.errors import ConditionError
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import shoe_of
from tests.cardforce import brute_rows

RANK_WORDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]
POKER = [
    "four_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "flush",
    "straight",
    "two_pair",
    "pair",
    "high_card",
]


def check(rows: list[str], shoe: Shoe, offer: str | None = None) -> None:
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    offer_c = parse_condition(offer) if offer else None
    got = row_counts(conditions, shoe, offer=offer_c)
    want, offered = brute_rows(
        [c.node for c in conditions], shoe, offer_c.node if offer_c else None
    )
    assert (list(got.rows), got.offered) == (want, offered), rows


# Shoes: a handful of physical cards (8), repeated ranks and suits included.
SMALL = [
    shoe_of([(0, 0), (0, 1), (12, 2), (11, 2), (8, 3), (8, 0), (4, 1), (3, 3)]),
    shoe_of([(8, 1), (8, 1), (7, 1), (12, 1), (12, 0), (11, 1), (0, 2), (1, 3)]),
    shoe_of([(r, s) for r in (0, 12) for s in range(4)]),  # suit-symmetric: A and K
]

HAND_WRITTEN = [
    ["player.colour == red", "player.colour == black", "banker.colour == mixed"],
    ["player.suited and player.cards == 3", "banker.suited"],
    ["player.card1.suit == player.card2.suit and player.card1.rank in [K, Q]"],
    ["count(initial, rank == 9) >= 2", "count(round, suit == diamonds and value > 3) == 1"],
    [
        "player.total + banker.total == 9",
        "count(player, colour == red) - count(banker, colour == red) >= 1",
    ],
    [
        "initial.poker == two_pair",
        "initial.poker in [flush, straight, straight_flush]",
        "initial.poker == pair",
    ],
    ["player.poker == pair", "banker.poker != high_card and banker.cards == 3"],
    [
        "player.card3.rank == none",
        "banker.card3.value >= 5",
        "player.card3.suit == banker.card3.suit",
    ],
    [
        "player.card1.colour == banker.card1.colour and player.wins",
        "winner == tie and banker.perfect_pair",
    ],
    ["count(banker, rank == A) + count(player, rank == K) >= 2 or margin > 6"],
]


@pytest.mark.parametrize("rows", HAND_WRITTEN)
def test_hand_written_conditions_match_brute_force(rows: list[str]) -> None:
    for shoe in SMALL:
        check(rows, shoe)


def test_offers_count_per_offered_round() -> None:
    for shoe in SMALL:
        check(["player.total > banker.total"], shoe, offer="player.initial < banker.initial")
        check(["banker.card3.rank != none"], shoe, offer="count(initial, colour == red) == 2")


def test_symmetry_and_blocks_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of one cell: every slot is looped over and suit symmetry is used on the
    symmetric shoe (the others have none)."""
    monkeypatch.setattr(plan_module, "_CELLS", 8)
    for rows in HAND_WRITTEN[:4]:
        for shoe in SMALL[1:]:
            check(rows, shoe)


def test_every_bundled_bet_matches_the_value_engine() -> None:
    """A value-level bet counted by the card engine gives the value engine's combinations."""
    table = load_paytable("classic")
    for shoe in (Shoe.decks(8), Shoe.decks(2).remove("K K K 9 9 5h 5h 2c")):
        joint = joint_distribution(shoe)
        for bet in table.bets:
            got = row_counts([r.when for r in bet.rows], shoe)
            assert list(got.rows) == bet.row_combinations(joint), bet.id


def test_suit_relabelling_and_colour_swap() -> None:
    """On 2 decks (symmetric), relabelling suits in a condition leaves its counts unchanged;
    swapping red and black too."""
    shoe = Shoe.decks(2)
    base = row_counts(
        [parse_condition("player.card1.suit == hearts and banker.card2.colour == red"), OTHERWISE],
        shoe,
    )
    for suit in ("diamonds", "clubs", "spades"):
        colour = "red" if suit == "diamonds" else "black"
        text = f"player.card1.suit == {suit} and banker.card2.colour == {colour}"
        assert row_counts([parse_condition(text), OTHERWISE], shoe) == base


# -- hypothesis: random shoes and random conditions drawn from the grammar -------------------

RANK_FEATURES = [f"{s}.card{i}.rank" for s in ("player", "banker") for i in (1, 2, 3)]
SUIT_FEATURES = [f"{s}.card{i}.suit" for s in ("player", "banker") for i in (1, 2, 3)]
COLOUR_FEATURES = [f"{s}.card{i}.colour" for s in ("player", "banker") for i in (1, 2, 3)]
VALUE_FEATURES = [f"{s}.card{i}.value" for s in ("player", "banker") for i in (1, 2, 3)]
INT_FEATURES = [
    "player.total",
    "banker.total",
    "player.initial",
    "banker.initial",
    "margin",
    "cards",
    "player.cards",
]


@st.composite
def card_condition(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["rank", "suit", "colour", "value"]))
    if kind == "rank":
        return f"rank {draw(st.sampled_from(['==', '!=']))} {draw(st.sampled_from(RANK_WORDS))}"
    if kind == "suit":
        return f"suit == {draw(st.sampled_from(SUITS))}"
    if kind == "colour":
        return f"colour == {draw(st.sampled_from(['red', 'black']))}"
    return f"value {draw(st.sampled_from(['<', '>=', '==']))} {draw(st.integers(0, 9))}"


@st.composite
def integer(draw: st.DrawFn, first_four: bool) -> str:
    groups = ["initial"] if first_four else ["player", "banker", "initial", "round"]
    ints = ["player.initial", "banker.initial"] if first_four else INT_FEATURES
    choice = draw(st.integers(0, 2))
    if choice == 0:
        inner = draw(card_condition())
        if draw(st.booleans()):
            inner = f"{inner} or {draw(card_condition())}"
        return f"count({draw(st.sampled_from(groups))}, {inner})"
    if choice == 1:
        return draw(st.sampled_from(ints))
    a, b = draw(integer(first_four)), draw(st.sampled_from(ints))
    return f"{a} {draw(st.sampled_from(['+', '-']))} {b}"


@st.composite
def atom(draw: st.DrawFn, first_four: bool = False) -> str:
    cards = (1, 2) if first_four else (1, 2, 3)
    sides = ("player", "banker")
    choice = draw(st.integers(0, 6))
    if choice == 0:
        op = draw(st.sampled_from(["==", ">=", "<", "!="]))
        return f"{draw(integer(first_four))} {op} {draw(st.integers(0, 10))}"
    card = f"{draw(st.sampled_from(sides))}.card{draw(st.sampled_from(cards))}"
    if choice == 1:
        rank = draw(st.sampled_from([*RANK_WORDS, "none"]))
        return f"{card}.rank {draw(st.sampled_from(['==', '!=']))} {rank}"
    if choice == 2:
        other = f"{draw(st.sampled_from(sides))}.card{draw(st.sampled_from(cards))}"
        attr = draw(st.sampled_from(["rank", "suit", "colour"]))
        return f"{card}.{attr} == {other}.{attr}"
    if choice == 3:
        return f"{card}.value >= {draw(st.integers(0, 9))}"
    if choice == 4:
        return f"{card}.suit in [{draw(st.sampled_from(SUITS))}, {draw(st.sampled_from(SUITS))}]"
    if choice == 5:
        if first_four:
            return f"initial.poker == {draw(st.sampled_from(POKER))}"
        group = draw(st.sampled_from(["player", "banker", "initial"]))
        return f"{group}.poker == {draw(st.sampled_from(POKER))}"
    if first_four:
        return draw(st.sampled_from(["player.natural", "banker.pair", "player.perfect_pair"]))
    side = draw(st.sampled_from(sides))
    return draw(
        st.sampled_from(
            [
                f"{side}.suited",
                f"{side}.colour == {draw(st.sampled_from(['red', 'black', 'mixed']))}",
                f"{side}.wins",
                "winner == tie",
            ]
        )
    )


@st.composite
def condition(draw: st.DrawFn, first_four: bool = False) -> str:
    a = draw(atom(first_four))
    if draw(st.booleans()):
        return a
    b = draw(atom(first_four))
    op = draw(st.sampled_from(["and", "or", "and not"]))
    return f"{a} {op} ({b})"


@st.composite
def small_shoe(draw: st.DrawFn) -> Shoe:
    cards = draw(
        st.lists(
            st.tuples(st.sampled_from([0, 1, 4, 7, 8, 9, 11, 12]), st.integers(0, 3)),
            min_size=6,
            max_size=8,
        )
    )
    return shoe_of(cards)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(condition(), min_size=1, max_size=3),
    offer=st.none() | condition(first_four=True),
    shoe=small_shoe(),
    block=st.sampled_from([8, 64, 1 << 20]),
)
def test_random_conditions_match_brute_force(
    rows: list[str], offer: str | None, shoe: Shoe, block: int
) -> None:
    old = plan_module._CELLS
    plan_module._CELLS = block
    try:
        check(rows, shoe, offer)
    finally:
        plan_module._CELLS = old


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("count(initial, " * 40 + "rank == 9" + ") > 0" * 40, "cannot be nested"),
        ("(" * 70 + "player.suited" + ")" * 70, "nested more than 64"),
        (" + ".join(["player.total"] * 70) + " == 9", "more than 64 terms"),
        ("player.card1.rank == Z", "unknown feature 'Z'"),
        ("player.card1.suit == red", "takes suits"),
        ("count(dealer, rank == 9) > 1", "count needs a group"),
        ("count(initial, player.total == 9) > 1", "unknown card feature"),
        ("player.card3.suit + 1 == 2", "take integers"),
        ("player.poker > pair", "needs numbers"),
    ],
)
def test_hostile_conditions_give_one_message(text: str, message: str) -> None:
    with pytest.raises(ConditionError, match=message):
        parse_condition(text)


def test_value_level_offers_use_the_joint_and_agree() -> None:
    """An offer on initial totals over value-level rows is counted from the value engine's
    joint; the card engine gives the same offered rounds and rows."""
    from exactodds.bets.payout import parse_payout
    from exactodds.bets.paytable import Bet, Row

    rows = (
        Row(parse_condition("player.wins"), parse_payout("2:1"), "Player wins"),
        Row(parse_condition("winner == tie"), parse_payout("push"), "Tie"),
        Row(OTHERWISE, parse_payout("lose"), "Banker wins"),
    )
    offer = parse_condition("player.initial < banker.initial and banker.initial in [5, 6]")
    bet = Bet("insurance", "Insurance", rows, offer=offer)
    assert not bet.card_level
    for shoe in (Shoe.decks(8), Shoe.decks(1).remove("5 5 5 K 2h")):
        joint = joint_distribution(shoe)
        got = row_counts([r.when for r in rows], shoe, offer=offer)
        assert (list(got.rows), got.offered) == (bet.row_combinations(joint), bet.offered(joint))
        assert sum(got.rows) == got.offered < got.universe


@pytest.mark.parametrize(
    "text",
    [
        "player.total == 0 and player.card1.suit in [clubs, clubs]",
        "player.card1.suit in [clubs]",
        "player.card1.colour in [red]",
        "count(initial, suit in [diamonds]) >= 1",
    ],
)
def test_literals_in_a_list_break_the_suit_symmetry(text: str) -> None:
    """A suit or colour named only inside ``in [...]`` is named all the same: the engine must
    not treat the condition as symmetric under suit permutations (small blocks force the
    outer loop, where the symmetry is used)."""
    shoe = shoe_of([(0, 0), (0, 0), (0, 1), (0, 1), (0, 2), (7, 2)])
    old = plan_module._CELLS
    plan_module._CELLS = 8
    try:
        check([text], shoe, None)
    finally:
        plan_module._CELLS = old


def test_work_grows_with_what_the_engine_enumerates() -> None:
    """``work`` follows the engine's plan: more slots and finer classes cost more, a known card
    costs less."""
    shoe = Shoe.decks(8)

    def work(text: str, **kw: object) -> int:
        return cards_module.work([parse_condition(text), OTHERWISE], shoe, **kw)  # type: ignore[arg-type]

    value = work("player.total == 9")
    colour = work("player.colour == red")
    four = work("initial.poker == flush")
    six = work("player.poker == flush and banker.poker == flush")
    assert value < colour < six and four < six
    assert six > 50 * colour
    assert work("player.card1.rank == 9", known={"P1": [(8, 0)]}) < work("player.card1.rank == 9")


@pytest.mark.parametrize(
    ("text", "shoe", "known"),
    [
        ("player.total == 9", Shoe.decks(8), None),
        (  # three ranks of 8 decks: the suit-asymmetric six-card case, in seconds
            "banker.card3.suit == hearts and count(round, colour == red) >= 3",
            shoe_of([(r, s) for r in (0, 4, 12) for s in range(4)] * 8),
            None,
        ),
        # (never decided early: between a count's dealt cards and its cards to come, some
        # value is in the list and some not)
        ("count(round, colour == red) in [1, 3, 5]", Shoe.decks(8), None),
        ("player.poker == pair", Shoe.decks(1).remove("Kh Qh 9c 9d 2s 5h 6h 7h 8h"), None),
        ("banker.card3.rank == 9", Shoe.decks(2), {"P1": [(8, 0), (8, 1)], "B3": [(8, 2)]}),
        (  # (suited alone: its first two cards decide it where they differ; work bounds it)
            "player.suited or player.colour == red",
            shoe_of([(r, s) for r in (0, 4, 12) for s in range(4)] * 2),
            None,
        ),
    ],
)
def test_work_counts_the_cells_the_engine_evaluates(
    text: str,
    shoe: Shoe,
    known: dict[str, list[tuple[int, int]]] | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cells :func:`exactodds.counting.work` counts are within 30% of those the engine
    evaluates (exact but for the shares of draws), on the staged path and off it, for
    conditions that the first cards never decide (or that never read the sixth card)."""
    conditions = [parse_condition(text), OTHERWISE]
    tableau = BUILTIN["punto-banco"]
    settle = engine_module._Tally.settle
    for staged in (True, False):
        monkeypatch.setattr(plan_module, "_STAGED", staged)
        evaluated = 0

        def counting(self: object, rnd: object, cells: object, *args: object) -> None:
            nonlocal evaluated
            evaluated += cells.size  # type: ignore[attr-defined]
            settle(self, rnd, cells, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(engine_module._Tally, "settle", counting)
        row_counts(conditions, shoe, known=known)
        monkeypatch.setattr(engine_module._Tally, "settle", settle)
        plan = plan_module._plan(conditions, shoe, tableau, offer=None, known=known)
        estimate, _ = plan_module._cells(plan, tableau)
        assert 0.7 * evaluated <= estimate <= 1.3 * evaluated, (staged, evaluated, estimate)


def test_work_is_an_upper_bound_when_the_first_cards_decide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the first five cards decide a round (a player flush needs a suited hand), the
    engine deals fewer sixth cards than ``work`` counts: never more."""
    shoe = shoe_of([(r, s) for r in (0, 4, 12) for s in range(4)] * 2)
    conditions = [parse_condition("player.poker == flush and banker.poker == flush"), OTHERWISE]
    evaluated = 0
    settle = engine_module._Tally.settle

    def counting(self: object, rnd: object, cells: object, *args: object) -> None:
        nonlocal evaluated
        evaluated += cells.size  # type: ignore[attr-defined]
        settle(self, rnd, cells, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_module._Tally, "settle", counting)
    row_counts(conditions, shoe)
    plan = plan_module._plan(conditions, shoe, BUILTIN["punto-banco"], offer=None, known=None)
    estimate, _ = plan_module._cells(plan, BUILTIN["punto-banco"])
    assert evaluated < 0.7 * estimate  # the flushes decided after five cards
