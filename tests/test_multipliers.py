"""Random multipliers (issue 34): the product distributions against brute force over every set
of drawn identities and every value, the identity patterns against every ordered suit
sequence, and the paytable keys: a round trip through the writer and each hostile key refused
in one line (exit 2)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations, product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import load_paytable
from exactodds.bets.multipliers import (
    MultiplierTable,
    Repeat,
    draw_multipliers,
    group_products,
    identity_patterns,
    product_of,
)
from exactodds.bets.paytable_toml import load_text, paytable_toml
from exactodds.deal.shoe import Shoe
from tests.cli_helpers import Cli
from tests.conftest import WriteFile

Weights = tuple[tuple[int, Fraction], ...]
Cards = list[tuple[int, int]]


def _table(
    cards: Weights, values: Weights, cap: int | None = None, once: bool = False
) -> MultiplierTable:
    return MultiplierTable("t", cards, values, cap=cap, repeat=Repeat.ONCE if once else Repeat.EACH)


def brute(table: MultiplierTable, cards: Cards) -> dict[int, Fraction]:
    """The product's distribution over every k-subset of the 52 identities and every value of
    each drawn identity, by :func:`product_of` on the concrete ``cards``."""
    dist: dict[int, Fraction] = {}
    for k, pk in table.cards:
        for subset in combinations(range(52), k):
            for assignment in product(table.values, repeat=k):
                drawn = {divmod(i, 4): v for i, (v, _) in zip(subset, assignment, strict=True)}
                p = pk / comb(52, k)
                for _, q in assignment:
                    p *= q
                value = product_of(table, cards, drawn)
                dist[value] = dist.get(value, Fraction(0)) + p
    return {v: p for v, p in sorted(dist.items()) if p}


def multiplicities(cards: Cards) -> tuple[int, ...]:
    return tuple(sorted(Counter(cards).values(), reverse=True))


HALF = Fraction(1, 2)


@pytest.mark.parametrize(
    ("table", "cards"),
    [
        (_table(((1, Fraction(1)),), ((2, HALF), (5, HALF))), [(0, 0)]),
        (
            _table(((1, Fraction(1, 3)), (2, Fraction(2, 3))), ((2, HALF), (3, HALF))),
            [(0, 0), (0, 0), (12, 3)],
        ),
        (_table(((2, Fraction(1)),), ((2, HALF), (8, HALF)), cap=20), [(0, 0), (0, 0), (12, 3)]),
        (
            _table(((1, HALF), (2, HALF)), ((2, Fraction(1, 4)), (4, Fraction(3, 4))), once=True),
            [(3, 1), (3, 1), (7, 2)],
        ),
        (_table(((3, Fraction(1)),), ((3, Fraction(1)),)), [(0, 0), (0, 1), (0, 1), (9, 2)]),
    ],
    ids=["one-card", "pair-and-one", "capped", "once", "three-drawn"],
)
def test_product_distribution_against_every_draw(table: MultiplierTable, cards: Cards) -> None:
    expected = brute(table, cards)
    assert table.product_distribution(multiplicities(cards)) == expected
    assert sum(expected.values()) == 1


def test_one_card_one_value_by_hand() -> None:
    """One multiplier card, always ×8: a dealt card is drawn with chance 1/52, so
    E[product] = 1 + (1/52)·7 = 59/52; with 5 cards, 1 + (5/52)·7 = 87/52."""
    for k, mean in ((1, Fraction(59, 52)), (5, Fraction(87, 52))):
        dist = _table(((k, Fraction(1)),), ((8, Fraction(1)),)).product_distribution((1,))
        assert sum(v * p for v, p in dist.items()) == mean


def test_product_of_on_concrete_cards() -> None:
    table = _table(((2, Fraction(1)),), ((2, Fraction(1)),))
    drawn = {(0, 0): 3, (12, 3): 5}
    assert product_of(table, [(0, 0), (0, 0), (12, 3), (4, 1)], drawn) == 45
    assert product_of(_table(table.cards, table.values, once=True), [(0, 0), (0, 0)], drawn) == 3
    assert (
        product_of(_table(table.cards, table.values, cap=40), [(0, 0), (0, 0), (12, 3)], drawn)
        == 40
    )


small_weights = st.lists(st.integers(1, 5), min_size=1, max_size=3)


def _weights(keys: list[int], raw: list[int]) -> Weights:
    total = sum(raw)
    return tuple((k, Fraction(w, total)) for k, w in zip(keys, raw, strict=False))


@settings(max_examples=12, deadline=None)
@given(
    cards=small_weights,
    values=small_weights,
    pattern=st.sampled_from([[(0, 0)], [(0, 0), (1, 2)], [(5, 1), (5, 1)]]),
    cap=st.sampled_from([None, 6]),
)
def test_random_small_weights_against_every_draw(
    cards: list[int], values: list[int], pattern: Cards, cap: int | None
) -> None:
    table = _table(_weights([1, 2], cards[:2]), _weights([2, 3, 5], values), cap=cap)
    assert table.product_distribution(multiplicities(pattern)) == brute(table, pattern)


@settings(max_examples=40, deadline=None)
@given(cards=st.lists(st.integers(1, 9), min_size=1, max_size=5), values=small_weights)
def test_one_identity_closed_form(cards: list[int], values: list[int]) -> None:
    """E[product] of one dealt card = 1 + P(drawn)·(E[v] − 1), P(drawn) = E[k]/52."""
    table = _table(_weights([1, 3, 5, 20, 52], cards), _weights([2, 4, 9], values))
    mean_k = sum(k * p for k, p in table.cards)
    mean_v = sum(v * p for v, p in table.values)
    dist = table.product_distribution((1,))
    assert sum(v * p for v, p in dist.items()) == 1 + mean_k / 52 * (mean_v - 1)


@pytest.mark.parametrize(
    ("suits", "g"), [((2, 1, 0, 3), 3), ((1, 1, 1, 1), 4), ((3, 0, 0, 2), 4), ((2, 2, 2, 2), 0)]
)
def test_identity_patterns_against_every_ordered_suit_sequence(
    suits: tuple[int, ...], g: int
) -> None:
    physical = [s for s, n in enumerate(suits) for _ in range(n)]
    labelled = list(enumerate(physical))
    seen: Counter[tuple[int, ...]] = Counter()
    for sequence in permutations(labelled, g):
        seen[multiplicities([(0, s) for _, s in sequence])] += 1
    total = sum(seen.values())
    assert identity_patterns(suits, g) == {k: Fraction(n, total) for k, n in seen.items()}


def _small_shoe() -> Shoe:
    counts = [(0, 0, 0, 0)] * 13
    counts[0] = (2, 1, 0, 0)  # aces: two clubs, a diamond
    counts[12] = (1, 1, 1, 0)  # kings: one of three suits
    return Shoe(tuple(counts))


@pytest.mark.parametrize(
    "table",
    [
        _table(((1, Fraction(1)),), ((2, HALF), (5, HALF))),
        _table(
            ((1, HALF), (2, HALF)), ((2, Fraction(1, 3)), (3, Fraction(2, 3))), cap=10, once=True
        ),
    ],
    ids=["each", "once-capped"],
)
def test_group_products_against_every_suit_assignment(table: MultiplierTable) -> None:
    """Two aces and a king dealt from the small shoe: every ordered choice of the physical
    cards, each with the brute-force product distribution of its identities."""
    shoe = _small_shoe()
    physical = {
        r: [(r, s) for s, n in enumerate(shoe.counts[r]) for _ in range(n)] for r in (0, 12)
    }
    expected: dict[int, Fraction] = {}
    sequences = [
        [aces[0], aces[1], king] for aces in permutations(physical[0], 2) for king in physical[12]
    ]
    memo: dict[tuple[tuple[int, int], ...], dict[int, Fraction]] = {}
    for cards in sequences:  # each sequence weighs the same; its identities' brute force once
        key = tuple(sorted(cards))
        if key not in memo:
            memo[key] = brute(table, cards)
        for v, p in memo[key].items():
            expected[v] = expected.get(v, Fraction(0)) + p / len(sequences)
    assert group_products(table, (1, 13, 1), shoe) == expected


def test_draw_multipliers_is_a_draw_of_the_table() -> None:
    table = _table(((2, HALF), (4, HALF)), ((3, HALF), (7, HALF)))
    rng = random.Random(7)
    sizes = Counter(len(draw_multipliers(table, rng)) for _ in range(200))
    assert set(sizes) == {2, 4}
    drawn = draw_multipliers(table, rng)
    assert all(0 <= r <= 12 and 0 <= s <= 3 and v in (3, 7) for (r, s), v in drawn.items())


GAME = """name = "Lightning test"
decks = 8
[multipliers.lightning]
deck = 52
cards = { 1 = "0.2", 2 = "0.3", 3 = "0.5" }
values = { 2 = "0.5", 3 = "0.3", 8 = "0.2" }
cap = 512

[bets.player]
fee = "20%"
rows = [
  { when = "player.wins", pays = "1:1", multiply = "player", commission = "5%" },
  { when = "winner == tie", pays = "push", event = "Tie" },
  { when = "otherwise", pays = "lose", event = "Banker wins" },
]
[bets.banker]
peek = { fee = "20%", reveal = "B1 P1" }
rows = [
  { when = "banker.wins", pays = "1:1", event = "Banker wins" },
  { when = "otherwise", pays = "lose" },
]
"""
SECOND = """
[multipliers.gold]
cards = 5
values = { 2 = "1/3", 5 = "2/3" }
repeat = "once"
[bets.gold]
rows = [
  { when = "banker.wins", pays = "1:1", multiply = "gold: banker.card1 player.card1" },
  { when = "otherwise", pays = "lose" },
]
[bets.peek]
rows = [{ when = "player.wins", pays = "1:1" }, { when = "otherwise", pays = "lose" }]
[bets.peek.peek]
reveal = [{ cards = "P1", p = "0.25" }, { cards = "P2 B2 P1 B1", p = "3/4" }]
raise = [4]
"""


def test_the_keys_load_and_round_trip(write_file: WriteFile) -> None:
    table = load_paytable(write_file("game.toml", GAME), counted=False)
    (lightning,) = table.multipliers
    assert lightning.cards == ((1, Fraction(1, 5)), (2, Fraction(3, 10)), (3, HALF))
    assert lightning.cap == 512 and lightning.repeat is Repeat.EACH
    player, banker = table.bets
    assert player.fee == Fraction(1, 5) and player.rows[0].multiply is not None
    assert (
        player.rows[0].multiply.cards == ("player",)
        and player.rows[0].multiply.table.name == "lightning"
    )
    assert banker.fee == Fraction(1, 5) and player.rows[0].commission == Fraction(1, 20)
    assert banker.peek is not None and banker.peek.reveals == ((("P1", "B1"), Fraction(1)),)
    assert banker.peek.raises == (2, 3)
    both = load_paytable(
        write_file(
            "both.toml",
            GAME.replace('"player", comm', '"lightning: player", comm') + SECOND,
        ),
        counted=False,
    )
    gold = both.round_bet("gold")
    assert gold.rows[0].multiply is not None
    assert gold.rows[0].multiply.cards == ("player.card1", "banker.card1")
    assert both.multipliers[0].name == "gold" and both.multipliers[0].repeat is Repeat.ONCE
    peek = both.round_bet("peek").peek
    assert peek is not None and peek.raises == (4,)
    assert peek.reveals == ((("P1",), Fraction(1, 4)), (("P1", "B1", "P2", "B2"), Fraction(3, 4)))
    for loaded in (table, both):
        again = load_text(paytable_toml(loaded))
        assert (again.bets, again.multipliers) == (loaded.bets, loaded.multipliers)


PROGRESSIVE = """[bets.jack]
stake = 5
progressive = { reset = 1000, increment = "6%" }
rows = [{ when = "player.pair", pays = "jackpot" }, { when = "otherwise", pays = "lose" }]
"""


@pytest.mark.parametrize(
    "case",
    [
        ('8 = "0.2"', '8 = "0.3"', 6, "the probabilities sum to 1.1, not exactly 1"),
        ('2 = "0.5"', '2 = "nan"', 6, "not a number: 'nan'"),
        ('2 = "0.5"', '2 = "-0.5"', 6, "not a number: '-0.5'"),
        ('2 = "0.5"', "2 = 0.5", 6, 'a probability must be a string such as "0.2"'),
        ('1 = "0.2"', '1 = "1.2"', 5, "probability '1.2' is not between 0 and 1"),
        (
            'cards = { 1 = "0.2", 2 = "0.3", 3 = "0.5" }',
            "cards = 1000000",
            5,
            "cards 1000000 is not a count 1..52",
        ),
        (
            'cards = { 1 = "0.2", 2 = "0.3", 3 = "0.5" }',
            'cards = { 1000000 = "1" }',
            5,
            "count '1000000' is not an integer 1..52",
        ),
        ("deck = 52", "deck = 0", 4, "only the 52 rank-suit identities are supported"),
        ("deck = 52", "deck = 104", 4, "only the 52 rank-suit identities are supported"),
        (
            'values = { 2 = "0.5", 3 = "0.3", 8 = "0.2" }',
            "values = {}",
            6,
            "values must be a non-empty table",
        ),
        (
            'values = { 2 = "0.5", 3 = "0.3", 8 = "0.2" }',
            'values = { 0 = "1" }',
            6,
            "multiplier '0' is not an integer 1..10000",
        ),
        ("cap = 512", "cap = 0", 7, "cap must be an integer of at least 1, not 0"),
        (
            'values = { 2 = "0.5", 3 = "0.3", 8 = "0.2" }',
            "values = { " + ", ".join(f'{v} = "1/13"' for v in range(2, 15)) + " }",
            6,
            "13 multipliers is over the limit of 12",
        ),
        (
            "cap = 512",
            "cpa = 512",
            7,
            "unknown key 'cpa' (expected one of ['cap', 'cards', 'deck', 'repeat', 'values']);"
            " did you mean 'cap'?",
        ),
        ("cap = 512", 'repeat = "twice"', 7, "repeat 'twice' is not one of each, once"),
        (
            '"push", event',
            '"push", multiply = "player", event',
            13,
            "multiply on a push row (a multiplied push)",
        ),
        (
            '"lose" }',
            '"lose", commission = "5%" }',
            20,
            "commission on a loss row (a multiplied loss)",
        ),
        (
            'multiply = "player"',
            'multiply = "lightnin: player"',
            12,
            "unknown multiplier table 'lightnin' (known: lightning); did you mean 'lightning'?",
        ),
        ('multiply = "player"', 'multiply = "playr"', 12, "did you mean 'player'?"),
        (
            'fee = "20%"\nrows',
            'fee = "20%"\nrounding = { step = "0.01" }\nrows',
            13,
            "multiply with rounding",
        ),
        (
            'reveal = "B1 P1" }',
            'reveal = "B1 P1" }\noffer = "player.initial == 0"',
            17,
            "peek on a bet with an offer",
        ),
        (
            'fee = "20%"\nrows',
            'fee = "20%"\noffer = "player.initial == 0"\nrows',
            11,
            "multiply on a bet with an offer",
        ),
        ('"1:1", event', '"1:1", multiply = "banker", event', 19, "multiply on a bet with a peek"),
        (
            '"1:1", event',
            '"1:1", commission = "5%", event',
            19,
            "commission is for a multiplied row",
        ),
        ('reveal = "B1 P1"', 'reveal = "B1 P3"', 17, "reveal 'P3' is not one of P1 B1 P2 B2"),
        ('reveal = "B1 P1"', 'revel = "B1 P1"', 17, "did you mean 'reveal'?"),
        (
            'reveal = "B1 P1"',
            'reveal = [{ cards = "P1", p = "0.5" }]',
            17,
            "the reveal probabilities sum to 0.5, not exactly 1",
        ),
        (
            'reveal = "B1 P1" }',
            'reveal = "B1 P1" }\nfee = "10%"',
            18,
            "fee 10% differs from the peek fee 20%",
        ),
        ('fee = "20%"\nrows', 'fee = "120%"\nrows', 10, "fee '120%' is over 100%"),
        ('fee = "20%"\nrows', 'fee = "20"\nrows', 10, "write a percentage with %"),
        ('fee = "20%"\nrows', 'feee = "20%"\nrows', 10, "did you mean 'fee'?"),
    ],
)
def test_each_hostile_key_is_one_line_exit_2(
    case: tuple[str, str, int, str], write_file: WriteFile, cli: Cli
) -> None:
    """(text replaced in GAME, its replacement, the line cited, the message)."""
    old, new, line, message = case
    assert old in GAME
    path = write_file("game.toml", GAME.replace(old, new, 1))
    code, out, err = cli(["report", str(path)])
    assert code == 2 and out == "", err
    assert err.startswith(f"exactodds: error: {path}:{line}: ") and err.count("\n") == 1, err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            GAME.split("[multipliers", maxsplit=1)[0] + GAME.split("cap = 512\n")[1],
            "multiply but the paytable has no [multipliers.NAME] table",
        ),
        (
            GAME + PROGRESSIVE.replace("stake = 5", 'stake = 5\nfee = "20%"'),
            "bet 'jack': fee on a progressive bet",
        ),
        (
            GAME
            + PROGRESSIVE.replace('pays = "jackpot" }', 'pays = "jackpot", multiply = "player" }'),
            "multiply on a progressive bet",
        ),
        (GAME + SECOND, 'multiply must name its table ("gold: player")'),
    ],
    ids=["no-table", "progressive-fee", "progressive-multiply", "two-tables-unnamed"],
)
def test_refusals_without_a_fixed_line(
    body: str, message: str, write_file: WriteFile, cli: Cli
) -> None:
    path = write_file("game.toml", body)
    code, _, err = cli(["report", str(path)])
    assert code == 2 and err.startswith(f"exactodds: error: {path}:") and err.count("\n") == 1
    assert message in err, err


def test_group_products_edges() -> None:
    """No card: the product is 1; a rank outside 1..13 or more cards than the shoe holds of a
    rank is refused, never read as another rank."""
    table = _table(((1, Fraction(1)),), ((2, Fraction(1)),))
    assert group_products(table, (), Shoe.decks(1)) == {1: Fraction(1)}
    with pytest.raises(ValueError, match=r"ranks must be 1\.\.13"):
        group_products(table, (0,), Shoe.decks(1))
    with pytest.raises(ValueError, match="cannot draw 5 cards of 4"):
        group_products(table, (1, 1, 1, 1, 1), Shoe.decks(1))
