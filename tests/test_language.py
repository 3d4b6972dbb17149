"""The meaning of the condition language, checked three ways: conditions drawn by hypothesis
from the whole grammar (arithmetic with negative and huge literals, ``none`` on both sides,
``in`` after sums, counts and ``most``, poker, offers) on random small shoes (suits asymmetric,
ranks missing) and random tableaux give, row by row, the same counts from the card engine, from
the round-level path where the condition reads round features only, and from the brute-force
dealer over every ordered sequence of physical cards (tests/cardforce.py); plus hand-checked
examples of each decision (docs/paytables.md, "Integers and absent cards")."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import parse_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.counting import poker_category, row_counts
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import ConditionError
from exactodds.language import OTHERWISE, Condition, absent_comparisons, parse_condition
from exactodds.language import POKER as POKER_NAMES
from tests.bruteforce import shoe_of
from tests.cardforce import brute_rows

INTS = ["player.total", "banker.total", "player.initial", "banker.initial", "margin", "cards"]
THIRDS = ["player.third", "banker.third"]
VALUES = [f"{s}.card{i}.value" for s in ("player", "banker") for i in (1, 2, 3)]
ABSENT = [*THIRDS, "player.card3.value", "banker.card3.value"]
HUGE = [2**63 - 1, -(2**63), 10**29, -(10**29) + 7, 2**64 + 3]
SIDES = ("player", "banker")
POKER = ["straight_flush", "four_of_a_kind", "three_of_a_kind", "straight", "flush", "pair"]
POKER += ["two_pair", "high_card"]

literals = st.integers(-12, 12) | st.sampled_from(HUGE)


@st.composite
def card_test(draw: st.DrawFn) -> str:
    """A condition over one card, inside count."""
    return draw(
        st.sampled_from(
            [
                f"rank == {draw(st.sampled_from(['A', '9', 'K', '10']))}",
                f"suit == {draw(st.sampled_from(['hearts', 'clubs']))}",
                f"colour == {draw(st.sampled_from(['red', 'black']))}",
                f"value - {draw(st.integers(-3, 3))} >= {draw(st.integers(-2, 9))}",
                f"value in [{draw(st.integers(-1, 9))}, {draw(st.integers(0, 9))}]",
            ]
        )
    )


@st.composite
def term(draw: st.DrawFn, first_four: bool, value_level: bool) -> str:
    """An integer operand: a feature (maybe absent), a count or a literal."""
    if value_level:
        pool = ["player.initial", "banker.initial"] if first_four else [*INTS, *THIRDS]
        return draw(st.sampled_from(pool) | literals.map(str))
    features = ["player.initial", "banker.initial", *VALUES[:2], *VALUES[3:5]]
    if not first_four:
        features = [*INTS, *THIRDS, *VALUES]
    choice = draw(st.integers(0, 3))
    group = "initial" if first_four else draw(st.sampled_from(["player", "round", "banker"]))
    if choice == 0:
        return f"count({group}, {draw(card_test())})"
    if choice == 3:
        return f"most({group}, {draw(st.sampled_from(['rank', 'suit', 'color', 'value']))})"
    if choice == 1:
        return str(draw(literals))
    return draw(st.sampled_from(features))


@st.composite
def integer(draw: st.DrawFn, first_four: bool = False, value_level: bool = False) -> str:
    """A sum of one to three terms (one term only on the round-level path)."""
    n = 1 if value_level else draw(st.integers(1, 3))
    out = draw(term(first_four, value_level))
    for _ in range(n - 1):
        out += f" {draw(st.sampled_from(['+', '-']))} {draw(term(first_four, value_level))}"
    return out


def _parses(text: str) -> bool:
    try:
        parse_condition(text)
    except ConditionError:
        return False
    return True


@st.composite
def atom(draw: st.DrawFn, first_four: bool = False, value_level: bool = False) -> str:
    choice = draw(st.sampled_from([0, 1, 2, 2] if value_level else [0, 1, 2, 2, 3, 3, 4, 5]))
    if choice == 0:  # integers compared: features, sums, literals; none where a side may be absent
        left = draw(integer(first_four, value_level))
        right = draw(integer(first_four, value_level) | st.just("none"))
        text = f"{left} {draw(st.sampled_from(['==', '!=', '<', '<=', '>', '>=']))} {right}"
        return text if _parses(text) else f"player.total != {draw(literals)}"
    if choice == 1:  # membership after any integer expression
        values = draw(st.lists(literals.map(str) | st.just("none"), min_size=1, max_size=3))
        left = draw(integer(first_four, value_level))
        neg = draw(st.sampled_from(["in", "not in"]))
        text = f"{left} {neg} [{', '.join(values)}]"
        return text if _parses(text) else f"banker.total {neg} [{draw(literals)}]"
    if choice == 2:  # features that can both be absent, and naturals and pairs
        if first_four:
            return draw(st.sampled_from(["player.natural", "banker.pair", "player.initial > 5"]))
        pool = THIRDS if value_level else ABSENT
        a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        return f"{a} {draw(st.sampled_from(['==', '!=', '<', '>=']))} {b}"
    cards = (1, 2) if first_four else (1, 2, 3)
    card = f"{draw(st.sampled_from(SIDES))}.card{draw(st.sampled_from(cards))}"
    other = f"{draw(st.sampled_from(SIDES))}.card{draw(st.sampled_from(cards))}"
    attr = draw(st.sampled_from(["rank", "suit", "colour"]))
    if choice == 3:  # card features, with none on either side or both
        right = draw(st.sampled_from([f"{other}.{attr}", "none"]))
        return f"{card}.{attr} {draw(st.sampled_from(['==', '!=']))} {right}"
    if choice == 4:  # poker of two, three and four cards
        group = "initial" if first_four else draw(st.sampled_from([*SIDES, "initial"]))
        wanted = draw(st.lists(st.sampled_from(POKER), min_size=1, max_size=2))
        return f"{group}.poker in [{', '.join(wanted)}]"
    rank = draw(st.sampled_from(["A", "9", "K", "none"]))
    return f"{card}.rank {draw(st.sampled_from(['==', '!=']))} {rank}"


@st.composite
def condition(draw: st.DrawFn, first_four: bool = False, value_level: bool = False) -> str:
    a = draw(atom(first_four, value_level))
    shape = draw(st.integers(0, 3))
    if shape == 0:
        return a
    if shape == 1:
        return f"not ({a})"
    b = draw(atom(first_four, value_level))
    return f"{a} {draw(st.sampled_from(['and', 'or', 'and not']))} ({b})"


@st.composite
def small_shoe(draw: st.DrawFn) -> Shoe:
    """Six or seven physical cards: some ranks missing, suits not symmetric, repeats allowed."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=5, unique=True))
    cards = st.tuples(st.sampled_from(ranks), st.integers(0, 3))
    return shoe_of(draw(st.lists(cards, min_size=6, max_size=7)))


@st.composite
def tableau(draw: st.DrawFn) -> Tableau:
    """The standard tableau, or third-card rules drawn at random."""
    if draw(st.booleans()):
        return BUILTIN["punto-banco"]
    columns = st.frozensets(st.sampled_from([STOOD, *range(10)]))
    player = draw(st.frozensets(st.integers(0, 7)))
    return Tableau("drawn", player, tuple(draw(columns) for _ in range(8)))


def _value_level_rows(conditions: list[Condition], shoe: Shoe, table: Tableau) -> list[int]:
    pays = parse_payout("1:1")
    rows = tuple(Row(c, pays, str(i)) for i, c in enumerate(conditions))
    return list(Bet("x", "X", rows).row_combinations(joint_distribution(shoe, table)))


@settings(max_examples=35, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    shoe=small_shoe(),
    table=tableau(),
    value_level=st.booleans(),
)
def test_engine_round_level_and_brute_force_agree(
    data: st.DataObject, shoe: Shoe, table: Tableau, value_level: bool
) -> None:
    texts = data.draw(st.lists(condition(value_level=value_level), min_size=1, max_size=3))
    offer_text = data.draw(st.none() | condition(first_four=True, value_level=value_level))
    conditions = [parse_condition(t) for t in texts] + [OTHERWISE]
    offer = parse_condition(offer_text) if offer_text else None
    got = row_counts(conditions, shoe, table, offer=offer)
    want, offered = brute_rows(
        [c.node for c in conditions], shoe, offer.node if offer else None, table
    )
    assert (list(got.rows), got.offered) == (want, offered), (texts, offer_text)
    if value_level and offer is None:
        assert not any(c.card_level for c in conditions)
        assert _value_level_rows(conditions, shoe, table) == want, texts


# -- hand-checked examples of each decision ------------------------------------------------------

SIX_THREES = shoe_of([(2, 0)] * 6)  # six 3♣: both hands 6, stand; 720 ordered sequences


@pytest.mark.parametrize(
    ("text", "rounds"),
    [
        ("player.initial - 7 == player.third", 0),  # -1 is a number, not the absent card
        ("player.initial - 9 <= player.card1.value", 720),  # -3 <= 3
        ("player.initial - 10 < player.card1.value", 720),
        ("banker.initial - player.initial < banker.card1.value", 720),  # 0 < 3
        ("player.total + 9223372036854775807 < 0", 0),  # no int64 wrap
        ("count(round, rank == 3) - 9223372036854775807 - 9223372036854775807 < 3", 720),
        ("player.total - 999999999999999999999999999999 < -10", 720),  # 30 digits
        ("player.third == banker.third", 0),  # nobody drew: two absent features are not equal
        ("player.third != banker.third", 0),
        ("player.third == none and banker.card3.rank == none", 720),
        ("player.third != 5", 720),  # against a literal, none equals only none
        ("not (player.third == banker.third)", 720),  # not negates the whole
        ("player.card3.value + 1 == none", 720),  # a sum reading an absent card is none
        ("player.total + banker.total in [12, -1]", 720),
        ("count(initial, value == 3) in [4]", 720),
        ("most(round, rank) in [4, 6]", 720),
        ("most(player, suit) - 3 == player.third", 0),  # -1, and the Player stood
        ("most(banker, color) - 3 in [-1]", 720),
        ("player.total == -6", 0),
    ],
)
def test_integers_and_absent_cards_by_hand(text: str, rounds: int) -> None:
    counts = row_counts([parse_condition(text), OTHERWISE], SIX_THREES)
    assert counts.rows[0] == rounds
    assert brute_rows([parse_condition(text).node, OTHERWISE.node], SIX_THREES)[0][0] == rounds


def test_two_card_poker_ranks_by_rarity() -> None:
    """On one deck (hand-counted): of the 1,326 pairs of cards, 52 are straight flushes (13
    runs A-2 … K-A, 4 suits), 78 pairs, 156 straights (13 × 16 − 52), 260 flushes (4 × 78 −
    52), 780 high cards; the ranking is by rarity, as Three Card Poker's."""
    cards = [(r + 1, s) for r in range(13) for s in range(4)]
    tally: dict[str, int] = {}
    for (r1, s1), (r2, s2) in combinations(cards, 2):
        name = POKER_NAMES[int(poker_category((r1, r2), (s1, s2)))]
        tally[name] = tally.get(name, 0) + 1
    assert tally == {
        "straight_flush": 52,
        "pair": 78,
        "straight": 156,
        "flush": 260,
        "high_card": 780,
    }
    # Two identical cards of a multi-deck shoe are a pair, not a flush.
    assert POKER_NAMES[int(poker_category((7, 7), (2, 2)))] == "pair"


def test_comparisons_of_two_absent_features_are_reported() -> None:
    text = "player.card3.rank == banker.card3.rank or player.third + 1 > banker.card3.value"
    assert absent_comparisons(parse_condition(text)) == [
        "player.card3.rank == banker.card3.rank",
        "player.third + 1 > banker.card3.value",
    ]
    assert absent_comparisons(parse_condition("player.card3.rank == player.card1.rank")) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("player.total + banker.total in [1, red]", "not 'red' at column 36"),
        ("K in [K]", "on its left at column 3"),  # a number alone works: 7 in [1]
        ("player.total == true", "not 'true' at column 17"),
        ("player.poker > pair", "'>' needs numbers, not player.poker at column 14"),
        ("player.total + player.pair > 1", "not 'player.pair' at column 16"),
        ("player.totl == 9", "did you mean 'player.total'?"),
        ("count(rnd, rank == 9) > 1", "did you mean 'round'?"),
        ("count(round, rnk == 9) > 1", "did you mean 'rank'?"),
        ("winner == 'bankr'", "did you mean 'banker'?"),
        ("- player.total > 1", "'-' before a feature"),
        (
            "player.third < none",
            "none is not ordered: '<' needs numbers (use == none) at column 14",
        ),
    ],
)
def test_errors_point_at_the_token_and_suggest(text: str, message: str) -> None:
    with pytest.raises(ConditionError) as info:
        parse_condition(text)
    assert message in str(info.value)


def test_color_reads_as_colour_and_text_round_trips() -> None:
    assert parse_condition("player.color == red") == parse_condition("player.colour == red")
    c = parse_condition("count(round, color == red) - -3 in [5, -2] and player.card1.COLOR != none")
    assert c.text == "count(round, colour == red) - -3 in [5, -2] and player.card1.colour != none"
    assert parse_condition(c.text) == c


def test_validate_judges_rows_with_the_counting_semantics() -> None:
    """'Can never match' is the count on 8 decks, by the same evaluator: a row true on every
    round (a negative difference) is valid, a 30-digit literal is read, none is flagged."""
    rows = [
        {"when": "player.initial - 10 < player.card1.value and player.wins", "pays": "1:1"},
        {"when": "otherwise", "pays": "lose"},
    ]
    huge = [
        {
            "when": "player.total + 999999999999999999999999999999 > 5 and banker.wins",
            "pays": "1:1",
        },
        {"when": "otherwise", "pays": "lose"},
    ]
    never = [
        {"when": "player.initial - 7 == player.third and player.third == 9", "pays": "9:1"},
        {"when": "otherwise", "pays": "lose"},
    ]
    table, problems = parse_paytable({"bets": {"a": {"rows": rows}, "b": {"rows": huge}}})
    assert problems == [] and table is not None and table.warnings == ()
    _, problems = parse_paytable({"bets": {"c": {"rows": never}}})
    assert len(problems) == 1 and "can never match" in problems[0]  # initial 16 is not a total


@pytest.mark.parametrize(
    "text",
    [
        "player.wins or count(round, rank == K) - 9223372036854775807 - 9223372036854775807 > 3",
        "player.wins or player.total + 9223372036854775807 < 0",
    ],
)
def test_no_int64_wrap_on_eight_decks(text: str) -> None:
    """The sums are never true, so the row is the Player win."""
    # Source: published Punto Banco figures, 8 decks (docs/rules.md §9, tests/data/spec9.toml):
    # Player wins 2,230,518,282,592,256 of 4,998,398,275,503,360.
    counts = row_counts([parse_condition(text), OTHERWISE], Shoe.decks(8))
    assert counts.rows == (2_230_518_282_592_256, 4_998_398_275_503_360 - 2_230_518_282_592_256)
