"""The bundled paytables (paytables/*.toml) against independent references.

* every bet of every file against a plain-Python reading of rules.md §6 (an oracle per bet), as the
  exact distribution of the net result, for 8 and 6 decks;
* pair, perfect-pair and natural bets against the closed forms of tests/independent.py;
* docs/rules.md §9's published 8-deck figures (tests/data/published_8_decks.toml);
* rule text 2's rounding and rule text 4's commission, cheat-sheet and worked examples
  (tests/data/rule_text_examples.toml) through ``bet.net(outcome, stake)``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.loader import (
    bundled_paytables,
    default_paytable,
    load_paytable,
    validate_paytable,
)
from exactodds.bets.paytable import Bet, Paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Hand, Outcome, PairKind, Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD, Tableau
from exactodds.figures.metrics import bet_figures
from tests.independent import (
    both_pairs_probability,
    both_perfect_pairs_probability,
    either_pair_probability,
    either_perfect_pair_probability,
    ev,
    exactly_one_perfect_pair_probability,
    natural_probability,
    percent,
    perfect_pair_probability,
    player_pair_probability,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"), parse_float=Fraction)


PUBLISHED = _data("published_8_decks.toml")
RULE_TEXT_EXAMPLES = _data("rule_text_examples.toml")
DECKS = (8, 6)

# -- an oracle per bet: net result per unit stake, written from rules.md §6 ------------------------

Oracle = Callable[[Outcome], Fraction | int]


def _wins(o: Outcome, side: str) -> bool:
    return o.winner == Winner(side)


def _hand(o: Outcome, side: str) -> Hand:
    return o.player if side == "player" else o.banker


def even_money(side: str, win: Fraction | int) -> Oracle:
    return lambda o: win if _wins(o, side) else 0 if o.winner == Winner.TIE else -1


def banker_no_commission(o: Outcome) -> Fraction | int:
    if _wins(o, "banker"):
        return Fraction(1, 2) if o.banker.total == 6 else 1
    return 0 if o.winner == Winner.TIE else -1


def banker_ez(o: Outcome) -> Fraction | int:
    if _wins(o, "banker"):
        return 0 if (o.banker.total, o.banker.cards) == (7, 3) else 1
    return 0 if o.winner == Winner.TIE else -1


def tie(win: int) -> Oracle:
    return lambda o: win if o.winner == Winner.TIE else -1


def pair(side: str) -> Oracle:
    return lambda o: 11 if _hand(o, side).pair else -1


def either_pair(o: Outcome) -> int:
    return 5 if o.player.pair or o.banker.pair else -1


def perfect_pair_once(o: Outcome) -> int:
    return 25 if o.player.perfect_pair or o.banker.perfect_pair else -1


def perfect_pair_200(o: Outcome) -> int:
    n = o.player.perfect_pair + o.banker.perfect_pair
    return {0: -1, 1: 25, 2: 200}[n]


def natural(side: str) -> Oracle:
    return lambda o: Fraction(7, 2) if _hand(o, side).natural else -1


BONUS_BY_MARGIN = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}


def bonus(side: str) -> Oracle:
    def net(o: Outcome) -> int:
        if _hand(o, side).natural:
            if _wins(o, side):
                return 1
            if o.winner == Winner.TIE:
                return 0
            return -1
        if _wins(o, side):
            return BONUS_BY_MARGIN.get(o.margin, -1)
        return -1

    return net


def banker_six(cards: int, win: int) -> Oracle:
    return lambda o: (
        win if _wins(o, "banker") and (o.banker.total, o.banker.cards) == (6, cards) else -1
    )


def lucky_six(o: Outcome) -> int:
    if _wins(o, "banker") and o.banker.total == 6:
        return 12 if o.banker.cards == 2 else 20
    return -1


def dragon_7(o: Outcome) -> int:
    return 40 if _wins(o, "banker") and (o.banker.total, o.banker.cards) == (7, 3) else -1


def panda_8(o: Outcome) -> int:
    return 25 if _wins(o, "player") and (o.player.total, o.player.cards) == (8, 3) else -1


COMMISSION = Fraction(19, 20)
PLAYER = even_money("player", 1)
BANKER = even_money("banker", COMMISSION)
TIE = tie(8)
PLAYER_PAIR = pair("player")
BANKER_PAIR = pair("banker")
PLAYER_BONUS = bonus("player")
BANKER_BONUS = bonus("banker")
STANDARD: dict[str, Oracle] = {"player": PLAYER, "banker": BANKER, "tie": TIE}
RULE_TEXT_0_BETS: dict[str, Oracle] = {
    **STANDARD,
    "player_pair": PLAYER_PAIR,
    "banker_pair": BANKER_PAIR,
    "either_pair": either_pair,
    "perfect_pair": perfect_pair_once,
    "player_natural": natural("player"),
    "banker_natural": natural("banker"),
    "player_bonus": PLAYER_BONUS,
    "banker_bonus": BANKER_BONUS,
    "lucky_six": lucky_six,
    "lucky_six_2": banker_six(2, 22),
    "lucky_six_3": banker_six(3, 50),
}

# file -> (rules, {bet id: oracle}) — bet ids in file order
EXPECTED: dict[str, tuple[str, dict[str, Oracle]]] = {
    "classic.toml": ("punto-banco", RULE_TEXT_0_BETS),
    "no-commission.toml": ("punto-banco", {**RULE_TEXT_0_BETS, "banker": banker_no_commission}),
    "punto-banco.toml": ("punto-banco", STANDARD),
    "mini.toml": ("mini", STANDARD),
    "pronto.toml": ("pronto", STANDARD),
    # at stake 1 the rounded-down 1.95 return is exact
    "touch.toml": ("punto-banco", STANDARD),
    "bonus-pairs.toml": (
        "punto-banco",
        {
            **STANDARD,
            "perfect_pair": perfect_pair_200,
            "either_pair": either_pair,
            "player_bonus": PLAYER_BONUS,
            "banker_bonus": BANKER_BONUS,
        },
    ),
    "trainer.toml": (
        "punto-banco",
        {**STANDARD, "player_pair": PLAYER_PAIR, "banker_pair": BANKER_PAIR},
    ),
    "ez.toml": (
        "punto-banco",
        {**STANDARD, "banker": banker_ez, "dragon_7": dragon_7, "panda_8": panda_8},
    ),
    "super6.toml": (
        "punto-banco",
        {**STANDARD, "banker": banker_no_commission, "lucky_six": lucky_six},
    ),
    "tie-9.toml": ("punto-banco", {**STANDARD, "tie": tie(9)}),
}

MAX_ROUNDS = {
    "player_pair": 60,
    "banker_pair": 60,
    "either_pair": 50,
    "perfect_pair": 50,
    "player_natural": 50,
    "banker_natural": 50,
    "lucky_six": 50,
    "lucky_six_2": 50,
    "lucky_six_3": 50,
}
RULES_BET_IDS = {*RULE_TEXT_0_BETS, "dragon_7", "panda_8"}
SOURCES = {
    "classic.toml": "rule text 0",
    "no-commission.toml": "rule text 0",
    "punto-banco.toml": "rule text 1",
    "mini.toml": "rule text 1",
    "pronto.toml": "rule text 1",
    "touch.toml": "rule text 2",
    "bonus-pairs.toml": "rule text 3",
    "trainer.toml": "rule text 4",
    "ez.toml": "rule text 4",
    "super6.toml": "rule text 4",
    "tie-9.toml": "rule text 4",
}


@cache
def table(name: str) -> Paytable:
    return load_paytable(ROOT / "paytables" / name)


def figures_ev(name: str, bet_id: str, decks: int = 8) -> Fraction:
    pt = table(name)
    joint = joint_distribution(Shoe.decks(decks), pt.tableau)
    return bet_figures(joint, pt.round_bet(bet_id)).ev


# -- the set of files ----------------------------------------------------------------------------


# The market side bets of issue 16 item 5, checked by tests/test_market_paytables.py.
MARKET = {f"{name}.toml" for name in _data("market_edges.toml")}
# Bets written with shape/most, checked against published tables by tests/test_shapes.py.
SHAPES = {"lucky-match.toml"}
# The published progressive and streak bets of issue 27 (tests/test_progressive.py,
# tests/test_streak.py).
PROGRESSIVE = {"dragon-dragon.toml", "banker-streak.toml"}
# The live-casino games of issue 34 (fees, random multipliers, peeks; tests/test_live_games.py).
LIVE = {"lightning.toml", "golden-wealth.toml", "prosperity-tree.toml", "peek.toml"}


def test_bundled_set_is_the_expected_files() -> None:
    expected = sorted({*EXPECTED, *MARKET, *SHAPES, *PROGRESSIVE, *LIVE})
    assert sorted(p.name for p in bundled_paytables()) == expected
    assert sorted(p.name for p in (ROOT / "paytables").glob("*.toml")) == expected
    assert default_paytable().name == "classic.toml"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_file_cites_its_source_and_checks_clean(name: str) -> None:
    path = ROOT / "paytables" / name
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# Source: ")
    assert SOURCES[name] in first
    assert validate_paytable(path) == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bet_ids_rules_decks_and_max_rounds(name: str) -> None:
    rules, oracles = EXPECTED[name]
    pt = table(name)
    assert pt.decks == 8
    assert pt.tableau == Tableau.named(rules)
    assert [b.id for b in pt.bets] == list(oracles)
    assert {b.id for b in pt.bets} <= RULES_BET_IDS
    rule_text_0 = name in ("classic.toml", "no-commission.toml")
    for bet in pt.bets:
        assert bet.max_round == (MAX_ROUNDS.get(bet.id) if rule_text_0 else None), bet.id
        assert bet.rows[-1].when.is_otherwise
        assert bet.rounding is None or name == "touch.toml"


# -- every bet against its rules.md §6 oracle ------------------------------------------------------


@cache
def oracle_distribution(
    name: str, bet_id: str, decks: int
) -> dict[Fraction, int]:  # combinations by net result
    rules, oracles = EXPECTED[name]
    joint = joint_distribution(Shoe.decks(decks), Tableau.named(rules))
    out: dict[Fraction, int] = {}
    f = oracles[bet_id]
    for o, n in joint.counts.items():
        key = Fraction(f(o))
        out[key] = out.get(key, 0) + n
    return out


def file_distribution(bet: Bet, tableau: Tableau, decks: int) -> dict[Fraction, int]:
    joint = joint_distribution(Shoe.decks(decks), tableau)
    out: dict[Fraction, int] = {}
    for row, n in zip(bet.rows, bet.row_combinations(joint), strict=True):
        if n:
            key = bet.row_net(row)
            out[key] = out.get(key, 0) + n
    return out


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_bet_pays_as_spec_section_6(name: str, decks: int) -> None:
    pt = table(name)
    for bet in pt.bets:
        assert file_distribution(bet, pt.tableau, decks) == oracle_distribution(
            name, bet.id, decks
        ), f"{name}: {bet.id}"


# -- closed forms (tests/independent.py) --------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
def test_pair_bets_equal_closed_forms(decks: int) -> None:
    shoe = Shoe.decks(decks)
    pair_ev = ev([(player_pair_probability(shoe), 11)])
    for name in ("classic.toml", "no-commission.toml", "trainer.toml"):
        assert figures_ev(name, "player_pair", decks) == pair_ev
        assert figures_ev(name, "banker_pair", decks) == pair_ev
    either_ev = ev([(either_pair_probability(shoe), 5)])
    for name in ("classic.toml", "no-commission.toml", "bonus-pairs.toml"):
        assert figures_ev(name, "either_pair", decks) == either_ev
    # rule text 0: paid once
    once = ev([(either_perfect_pair_probability(shoe), 25)])
    assert figures_ev("classic.toml", "perfect_pair", decks) == once
    assert figures_ev("no-commission.toml", "perfect_pair", decks) == once
    # rule text 3: 25:1 one hand, 200:1 both
    assert figures_ev("bonus-pairs.toml", "perfect_pair", decks) == ev(
        [
            (exactly_one_perfect_pair_probability(shoe), 25),
            (both_perfect_pairs_probability(shoe), 200),
        ]
    )


@pytest.mark.parametrize("decks", DECKS)
def test_pair_rows_equal_closed_forms(decks: int) -> None:
    shoe = Shoe.decks(decks)
    for name, bet_id, both in (
        ("classic.toml", "either_pair", both_pairs_probability(shoe)),
        ("bonus-pairs.toml", "either_pair", both_pairs_probability(shoe)),
        ("classic.toml", "perfect_pair", both_perfect_pairs_probability(shoe)),
        ("bonus-pairs.toml", "perfect_pair", both_perfect_pairs_probability(shoe)),
    ):
        pt = table(name)
        rows = bet_figures(joint_distribution(shoe, pt.tableau), pt.round_bet(bet_id)).rows
        assert rows[0].probability == both, (name, bet_id)
    rows = bet_figures(
        joint_distribution(shoe, table("bonus-pairs.toml").tableau),
        table("bonus-pairs.toml").round_bet("perfect_pair"),
    ).rows
    one_side = perfect_pair_probability(shoe) - both_perfect_pairs_probability(shoe)
    assert rows[1].probability == rows[2].probability == one_side


@pytest.mark.parametrize("decks", DECKS)
def test_natural_bets_equal_closed_form(decks: int) -> None:
    natural_ev = ev([(natural_probability(Shoe.decks(decks)), Fraction(7, 2))])
    for name in ("classic.toml", "no-commission.toml"):
        assert figures_ev(name, "player_natural", decks) == natural_ev
        assert figures_ev(name, "banker_natural", decks) == natural_ev


# -- rules.md §9 -----------------------------------------------------------------------------------


def _published(bet: str) -> tuple[Fraction, int]:
    entry = PUBLISHED["house_edge"][bet]
    return Fraction(entry["percent"]), int(entry["decimals"])


def _standard_files(bet_id: str, oracle: Oracle) -> list[str]:
    """Punto Banco files whose bet ``bet_id`` is exactly ``oracle``."""
    return [
        name
        for name, (rules, oracles) in EXPECTED.items()
        if rules == "punto-banco" and oracles.get(bet_id) is oracle
    ]


def test_published_results_through_the_player_bet() -> None:
    counts = PUBLISHED["counts"]
    pt = table("punto-banco.toml")
    joint = joint_distribution(Shoe.decks(PUBLISHED["decks"]), pt.tableau)
    assert joint.total == counts["total"]
    by_event = {r.event: r.combinations for r in bet_figures(joint, pt.round_bet("player")).rows}
    assert by_event == {
        "Player wins": counts["player_wins"],
        "Tie": counts["tie"],
        "Banker wins": counts["banker_wins"],
    }


def test_published_house_edges() -> None:
    cases = [
        ("banker", BANKER),
        ("player", PLAYER),
        ("tie", TIE),
        ("player_pair", PLAYER_PAIR),
        ("player_bonus", PLAYER_BONUS),
    ]
    checked = 0
    for bet_id, oracle in cases:
        published, decimals = _published(bet_id)
        files = _standard_files(bet_id, oracle)
        assert files, bet_id
        for name in files:
            assert percent(-figures_ev(name, bet_id), decimals) == published, (name, bet_id)
            checked += 1
    assert checked >= 20


def test_published_player_bonus_counts() -> None:
    published = PUBLISHED["player_bonus"]["counts"]
    for name in ("classic.toml", "no-commission.toml", "bonus-pairs.toml"):
        pt = table(name)
        joint = joint_distribution(Shoe.decks(8), pt.tableau)
        by_event = {
            r.event: r.combinations for r in bet_figures(joint, pt.round_bet("player_bonus")).rows
        }
        assert by_event["Natural win"] == published["natural_win"]
        assert by_event["Natural tie"] == published["natural_tie"]
        assert by_event["Win by 9"] == published["win_by_9"]


def test_tie_9_to_1_from_published_counts() -> None:
    counts = PUBLISHED["counts"]
    p_tie = Fraction(counts["tie"], counts["total"])
    assert figures_ev("tie-9.toml", "tie") == ev([(p_tie, 9)])
    assert figures_ev("touch.toml", "tie") == ev([(p_tie, 8)])


def test_only_mini_and_pronto_player_bets_favour_the_player() -> None:
    favourable = set()
    for name in EXPECTED:
        pt = table(name)
        joint = joint_distribution(pt.shoe, pt.tableau)
        for bet in pt.bets:
            if bet_figures(joint, bet).player_favourable:
                favourable.add((name, bet.id))
    assert favourable == {("mini.toml", "player"), ("pronto.toml", "player")}


# -- seed examples ------------------------------------------------------------------------------


def _outcome(player: Mapping[str, Any], banker: Mapping[str, Any]) -> Outcome:
    def hand(h: Mapping[str, Any]) -> Hand:
        kind = PairKind.PAIR if h.get("pair", False) else PairKind.NONE
        return Hand(int(h["initial"]), h.get("third"), kind)

    return Outcome(hand(player), hand(banker))


BANKER_WIN = _outcome({"initial": 6}, {"initial": 7})


def test_rule_text_2_rounding_examples() -> None:
    banker = table("touch.toml").round_bet("banker")
    assert banker.rounding is not None
    assert banker.rounding.step == Fraction(1, 100)
    assert str(banker.rounding.mode) == "down"
    assert banker.settle(BANKER_WIN).pays.net == COMMISSION
    for ex in RULE_TEXT_EXAMPLES["touch_banker_rounding"]:
        stake = Fraction(ex["stake"])
        assert stake * (1 + COMMISSION) == Fraction(ex["unrounded"])
        assert stake * (1 + banker.net(BANKER_WIN, stake)) == Fraction(ex["returns"])


def test_rule_text_2_rtp_at_the_example_stakes() -> None:
    # by hand from rules.md §9's counts: a win returns the rounded amount, a loss loses the stake
    counts = PUBLISHED["counts"]
    pt = table("touch.toml")
    joint = joint_distribution(pt.shoe, pt.tableau)
    for ex in RULE_TEXT_EXAMPLES["touch_banker_rounding"]:
        stake, paid = Fraction(ex["stake"]), Fraction(ex["returns"])
        expected = Fraction(
            counts["banker_wins"] * (paid - stake) / stake - counts["player_wins"],
            counts["total"],
        )
        assert bet_figures(joint, pt.round_bet("banker"), stake).ev == expected


def test_rule_text_4_commission_examples() -> None:
    for name in ("trainer.toml", "classic.toml", "punto-banco.toml", "tie-9.toml"):
        banker = table(name).round_bet("banker")
        for ex in RULE_TEXT_EXAMPLES["banker_commission"]:
            stake = Fraction(ex["stake"])
            win = stake * banker.net(BANKER_WIN, stake)
            assert win == Fraction(ex["win"]), name
            assert stake - win == Fraction(ex["commission"]), name


def test_rule_text_4_cheat_sheet() -> None:
    pt = table("trainer.toml")
    cases = {
        "banker": BANKER_WIN,
        "player": _outcome({"initial": 7}, {"initial": 6}),
        "tie": _outcome({"initial": 7}, {"initial": 7}),
        "pair": _outcome({"initial": 6, "pair": True}, {"initial": 7}),
    }
    for row in RULE_TEXT_EXAMPLES["cheat_sheet"]:
        stake = Fraction(row["stake"])
        for column, outcome in cases.items():
            bet = pt.round_bet("player_pair" if column == "pair" else column)
            assert stake * bet.net(outcome, stake) == Fraction(row[column]), (row, column)


def _legal(o: Outcome, tableau: Tableau) -> bool:
    p, b = o.player, o.banker
    if p.initial >= 8 or b.initial >= 8:
        return p.third is None and b.third is None
    if (p.third is not None) != (p.initial in tableau.player):
        return False
    column = STOOD if p.third is None else p.third
    return (b.third is not None) == (column in tableau.banker[b.initial])


def test_rule_text_4_worked_examples() -> None:
    pt = table("trainer.toml")
    for ex in RULE_TEXT_EXAMPLES["worked_example"]:
        outcome = _outcome(ex["player"], ex["banker"])
        assert _legal(outcome, pt.tableau), ex["text"]
        stake = Fraction(ex["stake"])
        for bet_id, net in ex["net"].items():
            assert stake * pt.round_bet(bet_id).net(outcome, stake) == Fraction(net), ex["text"]
