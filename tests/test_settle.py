"""`exactodds settle`: rule text 4's worked examples, legality against the engine, rounding."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from exactodds import Shoe, joint_distribution
from exactodds.bets.loader import load_paytable
from exactodds.bets.settle import check_round, parse_round_cards, settle_round
from exactodds.deal.round import Hand, Outcome, PairKind
from exactodds.deal.shoe import Card
from exactodds.deal.tableau import BUILTIN
from exactodds.errors import ExactOddsError, PaytableError, RoundError
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
CLASSIC = DATA / "designer_classic.toml"


# Rule text 4, "Пример 1-4": the card images are missing; these cards fit the text.
TEXT_4 = {
    # 1: natural 8 with a pair of nines against a banker 7; Player wins 8 to 7
    "1": "P: 9s 9h | B: Kd 7c",
    # 2: banker draws and wins 8 to 1 (player 1 draws a ten: 1; banker 2 draws a six: 8)
    "2": "P: Ac Kh Qd | B: 2s Jc 6h",
    # 3: player 4 draws an eight (2); banker stands on 3 against the eight and wins 3 to 2
    "3": "P: Ks 4h 8c | B: Jd 3s",
    # 4: tie 7:7, both stand
    "4": "P: 7h Kc | B: 7d Qs",
}


def amounts(cards: str, bets: list[tuple[str, int]]) -> list[tuple[str, str]]:
    """(event, money won or lost as an exact number) of each bet."""
    s = settle_round(load_paytable(CLASSIC), cards, bets)
    return [(x.row.event, str(x.amount)) for x in s.settlements]


def test_rule_text_4_example_1_natural_and_pair() -> None:
    o = check_round(TEXT_4["1"]).outcome
    assert (o.player.total, o.banker.total, o.winner.value) == (8, 7, "player")
    assert o.player.natural and o.player.pair and not o.banker.natural
    assert amounts(TEXT_4["1"], [("player", 100), ("banker", 100), ("player_pair", 100)]) == [
        ("Player wins", "100"),
        ("Player wins", "-100"),
        ("Player pair", "1100"),
    ]


def test_rule_text_4_example_2_banker_draws() -> None:
    o = check_round(TEXT_4["2"]).outcome
    assert (o.player.total, o.banker.total, o.banker.cards) == (1, 8, 3)
    assert amounts(TEXT_4["2"], [("banker", 100), ("player", 100)]) == [
        ("Banker wins", "95"),
        ("Banker wins", "-100"),
    ]


def test_rule_text_4_example_3_banker_stands_on_3_against_an_eight() -> None:
    o = check_round(TEXT_4["3"]).outcome
    assert (o.player.third, o.banker.initial, o.banker.cards) == (8, 3, 2)
    assert (o.player.total, o.banker.total, o.winner.value) == (2, 3, "banker")
    assert amounts(TEXT_4["3"], [("banker", 200), ("banker", 100)]) == [
        ("Banker wins", "190"),
        ("Banker wins", "95"),
    ]
    # the same hands with a banker third card are refused with the reason
    with pytest.raises(RoundError, match="banker has 3 and must stand against a player third"):
        check_round("P: Ks 4h 8c | B: Jd 3s 5c")


def test_rule_text_4_example_4_tie_pushes() -> None:
    bets = [("tie", 100), ("player", 100), ("banker", 100)]
    assert amounts(TEXT_4["4"], bets) == [("Tie", "800"), ("Tie", "0"), ("Tie", "0")]


@pytest.mark.parametrize("example", sorted(TEXT_4))
def test_examples_are_outcomes_the_engine_counts(example: str) -> None:
    outcome = check_round(TEXT_4[example]).outcome
    joint = joint_distribution(Shoe.decks(8))
    assert joint.counts[outcome] > 0


def _card(value: int, suit: int) -> Card:
    return Card(12 if value == 0 else value - 1, suit)  # a king for 0


def _hand_cards(initial: int, third: int | None, suit: int) -> list[Card]:
    """Two cards of different ranks with this total, and the third card if any."""
    first = next(v for v in (2, 3) if (initial - v) % 10 != v)
    cards = [_card(first, suit), _card((initial - first) % 10, suit)]
    if third is not None:
        cards.append(_card(third, suit))
    return cards


@pytest.mark.parametrize("rules", ["punto-banco", "mini", "pronto"])
def test_legality_agrees_with_the_engine(rules: str) -> None:
    """Every hand shape is accepted exactly when the engine counts it."""
    tableau = BUILTIN[rules]
    counted = joint_distribution(Shoe.decks(8), tableau).counts
    thirds: list[int | None] = [None, *range(10)]
    accepted = 0
    for p_init, b_init, p3, b3 in product(range(10), range(10), thirds, thirds):
        outcome = Outcome(Hand(p_init, p3, PairKind.NONE), Hand(b_init, b3, PairKind.NONE))
        hands = (_hand_cards(p_init, p3, 0), _hand_cards(b_init, b3, 1))
        try:
            dealt = check_round(hands, tableau)
        except RoundError:
            assert outcome not in counted, outcome
            continue
        assert dealt.outcome == outcome
        assert counted[outcome] > 0
        accepted += 1
    assert accepted == sum(1 for o in counted if o.player.pair_kind == o.banker.pair_kind == 0)


@pytest.mark.parametrize(
    ("cards", "rules", "reason"),
    [
        ("P: 3c 2d | B: Kd 7c", "punto-banco", "player has 5 and must draw a third card"),
        ("P: 3c 3d 2h | B: Kd 7c", "punto-banco", "player has 6 and must stand (no third card)"),
        ("P: Kc 5d | B: Kd 5c", "punto-banco", "player has 5 and must draw a third card"),
        ("P: Kc 6d | B: Kd 5c", "punto-banco", "banker has 5 and must draw a third card when"),
        ("P: 9c Kd 2h | B: Kd 5c", "punto-banco", "natural 9, so the deal stops"),
        ("P: Kc 3d | B: Kd 8c 2c", "punto-banco", "banker has a natural 8"),
        ("P: Kc 6d | B: Kd 4c 2c", "mini", "banker has 4 and must stand when the player stood"),
        ("P: 2c 2d 5h | B: Kd 5c 2s", "pronto", "banker has 5 and must stand against"),
        ("P: 2c 2d 5h 4s | B: Kd 5c", "punto-banco", "player has 4 card(s)"),
        ("P: 2c | B: Kd 5c", "punto-banco", "player has 1 card(s)"),
        ("P: 2c 3c", "punto-banco", "no banker hand"),
        ("P: 2c 3c | P: 4c 5c", "punto-banco", "player hand twice"),
        ("Q: 2c 3c | B: 4c 5c", "punto-banco", "cannot read hand 'Q: 2c 3c'"),
        ("9s 9h Kd", "punto-banco", "at least four cards"),
        ("Kc Kd 6h 6c 2s 3s", "punto-banco", "too many cards"),
    ],
)
def test_illegal_rounds_are_refused_with_the_reason(cards: str, rules: str, reason: str) -> None:
    with pytest.raises(RoundError) as info:
        check_round(cards, BUILTIN[rules])
    assert reason in str(info.value)


def test_deal_order_and_labelled_forms_agree() -> None:
    assert parse_round_cards("9s Kd 9h 7c") == parse_round_cards(TEXT_4["1"])
    assert parse_round_cards("Ac 2s Kh Jc Qd 6h") == parse_round_cards(TEXT_4["2"])
    assert parse_round_cards("Ks Jd 4h 3s 8c") == parse_round_cards(TEXT_4["3"])
    # the player stood on 6, so a fifth card is the banker's
    player, banker = parse_round_cards("Kc Kd 6h 5c 2s")
    assert (len(player), len(banker)) == (2, 3)


def test_rounding_per_stake_uses_the_bet_rule() -> None:
    table = load_paytable(DATA / "designer_rounded.toml")
    cards = TEXT_4["2"]  # a banker win
    # rule text 2: 0.10 returns 0.19, 0.30 returns 0.58 (1.95 × stake rounded down to the cent)
    got = settle_round(table, cards, [("banker", "0.10"), ("banker", "0.30"), ("banker", 100)])
    assert [x.returned for x in got.settlements] == [Fraction(19, 100), Fraction(58, 100), 195]
    assert [x.amount for x in got.settlements] == [Fraction(9, 100), Fraction(28, 100), 95]


def test_perfect_pair_needs_suits_and_the_shoe_needs_the_cards() -> None:
    table = load_paytable(CLASSIC)
    got = settle_round(table, "P: 9s 9s | B: Kd 7c", [("perfect_pair", 10), ("player_pair", 10)])
    assert [x.amount for x in got.settlements] == [250, 110]
    got = settle_round(table, "P: 9s 9h | B: Kd 7c", [("perfect_pair", 10)])
    assert got.settlements[0].amount == -10
    assert settle_round(table, "P: 9 9 | B: K 7", [("player_pair", 1)]).net == 11
    with pytest.raises(RoundError, match="give the suits of the player's first two cards"):
        settle_round(table, "P: 9 9 | B: K 7", [("perfect_pair", 1)])
    one_deck = replace(table, decks=1)
    with pytest.raises(RoundError, match="cannot remove 9s: no 9s left"):
        settle_round(one_deck, "P: 9s 9s | B: Kd 7c")


def test_a_round_from_a_shoe_of_few_cards() -> None:
    """The shoe must hold the round's cards, however few it keeps (a shoe has at least six)."""
    shoe = Shoe.from_rank_counts({"7": 1, "6": 1, "K": 4})
    assert check_round("P: 7c Kc | B: 6c Kd", shoe=shoe).outcome.winner.value == "player"
    with pytest.raises(RoundError, match="cannot remove 7d: no 7d left"):
        check_round("P: 7d Kc | B: 6c Kd", shoe=shoe)


def test_bad_bets() -> None:
    table = load_paytable(CLASSIC)
    with pytest.raises(PaytableError, match=r"unknown bet id 'lucky' \(known: player, banker"):
        settle_round(table, TEXT_4["1"], [("lucky", 1)])
    with pytest.raises(ExactOddsError, match="stake must be positive"):
        settle_round(table, TEXT_4["1"], [("player", 0)])


def test_cli_example_1_on_the_bundled_classic(cli: Cli) -> None:
    argv = ["settle", "--cards", TEXT_4["1"], "--bet", "player=100", "--bet", "banker=100"]
    code, out, err = cli([*argv, "--bet", "player_pair=100"])
    assert (code, err) == (0, "")
    assert "Player  9s 9h    natural 8, pair" in out
    assert "Banker  Kd 7c    7, stands" in out
    assert "Player wins 8 to 7." in out
    assert "wins 1100" in out and "loses 100" in out  # the bundled labels may change
    assert "Net result: +1100" in out
    code, out, _ = cli(["settle", str(CLASSIC), "--cards", TEXT_4["3"], "-b", "banker=200"])
    assert "Player  Ks 4h    4, draws 8c -> 2" in out and "wins 190" in out
    code, out, _ = cli(["settle", "--cards", TEXT_4["3"], "--rules", "pronto"])
    assert code == 2  # under Pronto the banker draws on 3


def test_cli_json_of_example_2(cli: Cli) -> None:
    """Rule text 4's example 2 (banker 2 draws a six: 8 against a player 1) as JSON: exact
    values as "p/q", the round and the rules used."""
    argv = ["settle", "--cards", TEXT_4["2"], "--format", "json"]
    code, out, err = cli([*argv, "--bet", "banker=10", "--bet", "player=10", "-b", "tie=5"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["bets"] == [
        {"bet": "banker", "name": "Banker", "stake": "10/1", "event": "Banker wins",
         "pays": "0.95:1", "net": "19/2", "returns": "39/2"},
        {"bet": "player", "name": "Player", "stake": "10/1", "event": "Banker wins",
         "pays": "lose", "net": "-10/1", "returns": "0/1"},
        {"bet": "tie", "name": "Tie", "stake": "5/1", "event": "No tie", "pays": "lose",
         "net": "-5/1", "returns": "0/1"},
    ]  # fmt: skip
    assert data["net"] == "-11/2"
    r = data["round"]
    assert r["cards"] == "P: Ac Kh Qd | B: 2s Jc 6h"
    assert (r["winner"], r["margin"], r["cards_dealt"]) == ("banker", 7, 6)
    assert r["player"] == {"cards": ["Ac", "Kh", "Qd"], "initial": 1, "third": 0, "total": 1,
                           "natural": False, "pair": False, "perfect_pair": False}  # fmt: skip
    assert (r["banker"]["initial"], r["banker"]["third"], r["banker"]["total"]) == (2, 6, 8)
    assert data["rules"]["name"] == "punto-banco" and data["rules"]["banker_draw"]["3"][-1] == 9
    assert (data["file"], data["shoe"]) == ("paytables/classic.toml", "8 decks (416 cards)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--cards", TEXT_4["1"], "--format", "xml"],
            "--format: 'xml' is not one of 'text', 'json'",
        ),
        (["--cards", "P: 3c 2d | B: Kd 7c"], "player has 5 and must draw a third card"),
        (["--cards", "P: 3x 2d | B: Kd 7c"], "unknown suit 'x' in card '3x'"),
        (["--cards", TEXT_4["1"], "--bet", "player"], "--bet 'player': must be ID=STAKE"),
        (["--cards", TEXT_4["1"], "--bet", "player=ten"], "--bet 'player=ten': the stake 'ten'"),
        (
            ["--cards", TEXT_4["1"], "--bet", "player=" + "9" * 40],
            "the stake has 40 digits, more than the limit of 30",
        ),
        (["--cards", TEXT_4["1"], "--bet", "player=1e400"], "'1e400' is not a number like 100"),
        (["--cards", TEXT_4["1"], "--decks", "1", "--remove", "9s 9s"], "--remove: cannot"),
        (["--cards", TEXT_4["1"], "--bet", "foo=1"], "unknown bet id 'foo'"),
        (["--cards", TEXT_4["1"], "--rules", "nope"], "unknown rules 'nope'"),
        ([], "missing option '--cards'"),
    ],
)
def test_cli_errors(argv: list[str], message: str, cli: Cli) -> None:
    code, out, err = cli(["settle", *argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_help_has_example(cli: Cli) -> None:
    code, out, _ = cli(["settle", "--help"])
    assert code == 0 and "exactodds settle classic --cards 'P: 9s 9h | B: Kd 7c'" in out


def _cards_for(hand: dict[str, object], suits: tuple[int, int]) -> list[Card]:
    """Cards for a hand given as {initial, third?, pair?} in tests/data/rule_text_examples.toml."""
    initial, third = int(str(hand["initial"])), hand.get("third")
    if hand.get("pair"):
        value = next(v for v in range(10) if 2 * v % 10 == initial)
        cards = [_card(value, suits[0]), _card(value, suits[1])]
    else:
        cards = _hand_cards(initial, None, suits[0])
    if third is not None:
        cards.append(_card(int(str(third)), suits[1]))
    return cards


def test_reference_worked_examples_settle_as_listed() -> None:
    """The shared reference data of rule text 4's examples, played through settle."""
    import tomllib

    data = tomllib.loads((DATA / "rule_text_examples.toml").read_text(encoding="utf-8"))
    examples = data["worked_example"]
    assert len(examples) == 5
    table = load_paytable(CLASSIC)
    for ex in examples:
        hands = (_cards_for(ex["player"], (0, 2)), _cards_for(ex["banker"], (1, 3)))
        stake = Fraction(ex["stake"])
        got = settle_round(table, hands, [(bet_id, stake) for bet_id in ex["net"]])
        assert {x.bet.id: x.amount for x in got.settlements} == {
            k: Fraction(v) for k, v in ex["net"].items()
        }, ex["text"]
