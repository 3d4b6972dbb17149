"""The deck-count formula: each bet's house edge as an exact rational function of the number of
decks, checked against the engine at 1–12 decks, and its d → ∞ limit against an independent
with-replacement enumeration written here."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
import sympy

from exactodds import Shoe, joint_distribution
from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.bets.streak import streak_figures_at
from exactodds.deal.round import Hand, Outcome, PairKind, Winner, feature_record
from exactodds.deal.shoe import RANK_VALUES
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import PaytableError
from exactodds.figures.compare import INFINITE, compare_variants
from exactodds.figures.formula import CHECKED_AT, DERIVED_FROM, EdgeFormula, edge_formulas
from exactodds.figures.metrics import bet_figures
from tests.bruteforce import outcome_winner
from tests.cli_helpers import Cli

# Dragon Dragon's "N of a kind over every rank" costs ~0.6 s of card counting a shoe, 19 shoes
# here; its counts are checked on 8 decks against the published ones (tests/test_progressive.py).
# Banker Streak's round bets are punto-banco's (its streak bets are not settled on one round).
# Peek's optimal raise changes with the deck count: no formula (refused, tested below). The
# multiplied games count each bet by rank on every shoe (~0.3 s a shoe, 5 bets, 21 shoes): one
# small multiplied bet with a fee stands for them (test_a_multiplied_bet_with_a_fee_has_...).
LIVE = ("peek", "lightning", "golden-wealth", "prosperity-tree")
BUNDLED = [
    p.stem for p in bundled_paytables() if p.stem not in ("dragon-dragon", "banker-streak", *LIVE)
]


@cache
def formulas(name: str) -> tuple[EdgeFormula, ...]:
    return edge_formulas(load_paytable(name))


@pytest.mark.parametrize("name", BUNDLED)
def test_formula_equals_the_engine_at_1_to_12_decks(name: str) -> None:
    table = load_paytable(name)
    found = formulas(name)
    assert [f.bet_id for f in found] == [b.id for b in table.bets]
    for decks in range(1, 13):
        joint = joint_distribution(Shoe.decks(decks), table.tableau)
        for bet, formula in zip(table.bets, found, strict=True):
            assert formula(decks) == bet_figures(joint, bet).house_edge, (bet.id, decks)


def test_checked_outside_the_points_it_is_derived_from() -> None:
    assert not set(CHECKED_AT) & set(DERIVED_FROM)
    assert len(DERIVED_FROM) == 7  # degree ≤ 6


def test_formulas_are_in_lowest_terms_and_degree_at_most_six() -> None:
    d = sympy.Symbol("d")
    for formula in formulas("classic"):
        num, den = formula.numerator, formula.denominator
        assert len(num) <= 7 and len(den) <= 7 and den[-1] > 0
        assert sympy.gcd(_poly(num, d), _poly(den, d)).is_number  # no common factor
        assert sympy.gcd_list([*num, *den]) == 1
        # the sympy expression reads back as the same function
        expr = sympy.sympify(formula.expression, locals={"d": d})
        assert sympy.simplify(expr - _poly(num, d) / _poly(den, d)) == 0


def _poly(coefficients: tuple[int, ...], d: sympy.Symbol) -> sympy.Expr:
    return sum(c * d**k for k, c in enumerate(coefficients))


def test_hand_checked_pair_and_natural_formulas() -> None:
    by_id = {f.bet_id: f for f in formulas("classic")}
    # Player Pair 11:1: P(pair) = 13·4d(4d−1) / (52d(52d−1)) = (4d−1)/(52d−1), so
    # H = 1 − 12(4d−1)/(52d−1) = (4d+11)/(52d−1).
    assert by_id["player_pair"].text() == "(4d + 11) / (52d − 1)"
    # Player Natural 7:2 (rules.md §6): H = 1 − 9/2·P(natural), P from the two first cards' values
    for decks in (1, 3, 8, 100):
        n = 52 * decks
        tens, other = 16 * decks, 4 * decks  # cards of value 0, and of each value 1..9
        counts = [tens] + [other] * 9
        natural = sum(
            counts[a] * (counts[b] - (a == b))
            for a in range(10)
            for b in range(10)
            if (a + b) % 10 >= 8
        )
        p = Fraction(natural, n * (n - 1))
        assert by_id["player_natural"](decks) == 1 - Fraction(9, 2) * p


# -- the infinite-deck limit against cards drawn with replacement ------------------------------


def _two_cards() -> dict[tuple[int, PairKind], Fraction]:
    """A hand's first two cards drawn with replacement: ranks uniform over 13, suits over 4."""
    out: dict[tuple[int, PairKind], Fraction] = defaultdict(Fraction)
    for a in range(13):
        for b in range(13):
            total = (RANK_VALUES[a] + RANK_VALUES[b]) % 10
            if a != b:
                out[total, PairKind.NONE] += Fraction(1, 169)
            else:  # same rank: the same suit one time in four
                out[total, PairKind.PERFECT] += Fraction(1, 169 * 4)
                out[total, PairKind.PAIR] += Fraction(3, 169 * 4)
    return out


THIRD = {v: Fraction(4 if v == 0 else 1, 13) for v in range(10)}  # a card's value


def with_replacement(tableau: Tableau) -> dict[Outcome, Fraction]:
    """Every outcome's probability when every card is drawn from an infinite shoe."""
    hands = _two_cards()
    out: dict[Outcome, Fraction] = defaultdict(Fraction)
    for (pt, pk), pp in hands.items():
        for (bt, bk), pb in hands.items():
            p = pp * pb
            if pt >= 8 or bt >= 8:
                out[Outcome(Hand(pt, None, pk), Hand(bt, None, bk))] += p
                continue
            draws: list[tuple[int | None, Fraction]] = (
                list(THIRD.items()) if pt in tableau.player else [(None, Fraction(1))]
            )
            for x, px in draws:
                if (STOOD if x is None else x) in tableau.banker[bt]:  # the tableau's data
                    for y, py in THIRD.items():
                        out[Outcome(Hand(pt, x, pk), Hand(bt, y, bk))] += p * px * py
                else:
                    out[Outcome(Hand(pt, x, pk), Hand(bt, None, bk))] += p * px
    return out


@cache
def infinite_outcomes(tableau: Tableau) -> tuple[tuple[tuple[object, ...], Fraction], ...]:
    return tuple((feature_record(o), p) for o, p in with_replacement(tableau).items())


def infinite_edge(table: Paytable, bet_id: str) -> Fraction:
    bet = table.round_bet(bet_id)
    return -sum(
        (p * bet.net_of_record(r) for r, p in infinite_outcomes(table.tableau)), Fraction(0)
    )


def test_with_replacement_enumeration_is_a_distribution() -> None:
    outcomes = with_replacement(BUILTIN["punto-banco"])
    assert sum(outcomes.values()) == 1
    pair = sum((p for o, p in outcomes.items() if o.player.pair), Fraction(0))
    perfect = sum((p for o, p in outcomes.items() if o.banker.perfect_pair), Fraction(0))
    assert (pair, perfect) == (Fraction(1, 13), Fraction(1, 52))


# The with-replacement oracle above deals card values: it reads value-level bets only, without
# a fee or multipliers (their formulas are checked against the engine at 1 to 12 decks above).
VALUE_LEVEL = [
    name
    for name in BUNDLED
    if not any(b.card_level or b.offer is not None or b.live for b in load_paytable(name).bets)
]


def test_a_multiplied_bet_with_a_fee_has_its_formula() -> None:
    """Derived at 1 to 7 decks and checked at 8 and 12 by edge_formulas itself; here at 10."""
    table = load_paytable("tests/data/live-one-card.toml")
    (formula,) = edge_formulas(table)
    (bet,) = table.bets
    assert formula(10) == bet_figures(joint_distribution(Shoe.decks(10)), bet).house_edge


def test_a_peek_bet_has_no_deck_count_formula() -> None:
    with pytest.raises(PaytableError, match="optimal play changes with the number of decks"):
        edge_formulas(load_paytable("peek"))


@pytest.mark.parametrize("name", VALUE_LEVEL)
def test_infinite_deck_limit_equals_with_replacement_enumeration(name: str) -> None:
    table = load_paytable(name)
    for formula in formulas(name):
        assert formula.limit == infinite_edge(table, formula.bet_id), formula.bet_id


def test_perfect_pair_limit_by_hand() -> None:
    # 25:1 when either hand's first two cards are the same card: 1 − (51/52)² = 103/2704
    by_id = {f.bet_id: f for f in formulas("classic")}
    assert by_id["perfect_pair"].limit == 1 - 26 * Fraction(103, 2704) == Fraction(1, 104)


# -- compare --decks …,inf and --formula ------------------------------------------------------


def test_compare_inf_variant_is_the_limit(classic: Paytable) -> None:
    c = compare_variants(classic, rules=["mini"], ties=["8:1"], decks=["6", "inf"])
    six, inf = c.results
    assert (six.variant.decks, inf.variant.decks) == (6, INFINITE)
    mini = load_paytable("mini")
    assert inf.house_edge["player"] == infinite_edge(mini, "player")
    assert inf.house_edge["player_pair"] == Fraction(1, 13)
    assert c.formulas == ()


def test_compare_inf_gives_a_streak_bet_its_with_replacement_figures() -> None:
    """A streak bet's edge per bet (rounds independent) at the infinite-deck limit is the
    function of p it is (tests/test_every_bet.py), p dealt here with replacement."""
    from dataclasses import replace

    table = replace(load_paytable("banker-streak"), bets=())  # its streak bets only
    (inf,) = compare_variants(table, decks=["inf"]).results
    outcomes = with_replacement(table.tableau)
    p = sum((q for o, q in outcomes.items() if outcome_winner(o) is Winner.BANKER), Fraction(0))
    assert list(inf.house_edge) == ["banker_streak", "banker_streak_2"]
    for bet in table.streaks:
        assert inf.house_edge[bet.id] == streak_figures_at(bet, p).house_edge


def test_compare_decks_6_8_inf_md_json_csv(cli: Cli, classic: Paytable) -> None:
    argv = ["compare", "classic", "--rules", "punto-banco", "--tie", "8:1", "--decks", "6,8,inf"]
    code, out, err = cli([*argv, "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [v["decks"] for v in data["variants"]] == [6, 8, "inf"]
    inf = data["variants"][2]["house_edge"]
    assert Fraction(inf["tie"]) == infinite_edge(classic, "tie")
    assert Fraction(inf["banker"]) == infinite_edge(classic, "banker")
    assert "formulas" not in data

    code, out, _ = cli([*argv, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["decks"] for r in rows[::14]] == ["6", "8", "inf"]
    assert "formula" not in rows[0]
    pair = next(r for r in rows if r["decks"] == "inf" and r["bet"] == "player_pair")
    assert pair["house_edge"] == "1/13" and pair["house_edge_percent"] == "7.692308"

    code, out, _ = cli(argv)
    lines = out.splitlines()
    assert code == 0
    table = [line for line in lines if line.startswith("| ")]
    assert [line.split("|")[1].strip() for line in table] == ["Decks", "6", "8", "∞"]
    assert "Every variant: punto-banco rules, Tie 8:1, Banker commission." in lines
    assert "14.3596%" in out  # docs/rules.md §9: Tie 8:1 on 8 decks


def test_compare_formula_md_json_csv(cli: Cli, classic: Paytable) -> None:
    argv = ["compare", "classic", "--rules", "punto-banco,mini", "--tie", "9:1", "--formula"]
    code, out, err = cli([*argv, "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [(f["rules"], f["tie"], f["banker"]) for f in data["formulas"]] == [
        ("punto-banco", "9:1", "commission"),
        ("mini", "9:1", "commission"),
    ]
    d = sympy.Symbol("d")
    for group, rules in zip(data["formulas"], ("punto-banco", "mini"), strict=True):
        joint = joint_distribution(Shoe.decks(5), BUILTIN[rules])
        for entry in group["bets"]:
            bet = classic.round_bet(entry["id"])
            if bet.id == "tie":
                bet = next(b for b in _tie_9(classic).bets if b.id == "tie")
            num = _poly(tuple(int(c) for c in entry["numerator"]), d)
            den = _poly(tuple(int(c) for c in entry["denominator"]), d)
            value = sympy.Rational(num.subs(d, 5)) / sympy.Rational(den.subs(d, 5))
            expr = sympy.sympify(entry["expression"], locals={"d": d}).subs(d, 5)
            exact = bet_figures(joint, bet).house_edge
            assert value == expr == sympy.Rational(exact.numerator, exact.denominator)
            assert entry["checked_at"] == [8, 12]

    code, out, _ = cli([*argv, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    pair = next(r for r in rows if r["rules"] == "mini" and r["bet"] == "player_pair")
    assert pair["formula"] == "(4*d + 11)/(52*d - 1)"

    code, out, _ = cli(argv)
    assert code == 0 and "mini rules, Tie 9:1, Banker commission:" in out
    pairs = [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in out.splitlines()
        if line.startswith("| Player Pair (player_pair)")
    ]
    assert pairs == [["Player Pair (player_pair)", "(4d + 11) / (52d − 1)", "7.6923%"]] * 2


def _tie_9(table: Paytable) -> Paytable:
    from exactodds.bets.payout import parse_payout
    from exactodds.figures.compare import Variant, apply_variant

    return apply_variant(table, Variant(BUILTIN["punto-banco"], 8, parse_payout("9:1")))


def test_bad_decks_value_still_one_line(cli: Cli) -> None:
    code, out, err = cli(["compare", "classic", "--decks", "infinit"])
    assert code == 2 and out == "" and "not 'infinit'" in err and err.count("\n") == 1
