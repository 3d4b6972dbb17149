"""Payout notation (docs/rules.md §5)."""

from __future__ import annotations

import contextlib
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds.bets.payout import Payout, format_number, parse_payout
from exactodds.errors import ExactOddsError, PaytableError


@pytest.mark.parametrize(
    ("text", "net"),
    [
        ("1:1", Fraction(1)),
        ("11:1", Fraction(11)),
        ("0.95:1", Fraction(19, 20)),
        ("19:20", Fraction(19, 20)),
        ("1:2", Fraction(1, 2)),
        ("8 to 1", Fraction(8)),
        ("9 for 1", Fraction(8)),  # rule text 2 "PAYS 9 FOR 1", rule text 1 "stake multiplied by 9"
        ("2 for 1", Fraction(1)),  # rule text 2: Player paid "2:1 (double)" = stake back plus 1
        ("1.95 for 1", Fraction(19, 20)),
        ("2 for 1 less 5%", Fraction(19, 20)),  # rule text 2: double less 5% of the win
        ("1:1 less 5%", Fraction(19, 20)),  # commission is a percentage of the win
        ("1:1 - 5%", Fraction(19, 20)),
        ("25:1", Fraction(25)),
        ("200 : 1", Fraction(200)),
        ("push", Fraction(0)),
        ("Push", Fraction(0)),
        ("lose", Fraction(-1)),
    ],
)
def test_parse_payout(text: str, net: Fraction) -> None:
    assert parse_payout(text).net == net


@pytest.mark.parametrize(("stake", "won"), [(100, 95), (40, 38), (200, 190), (400, 380)])
def test_rule_text_4_commission_examples(stake: int, won: int) -> None:
    assert parse_payout("1:1 less 5%").net * stake == won


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-3:1", "negative payouts are not allowed"),
        ("abc", "cannot read payout 'abc'"),
        ("1:0", "division by zero"),
        ("0.5 for 1", "returns less than the stake"),
        ("1:1 less 150%", "commission in payout '1:1 less 150%' is over 100%"),
        ("", "cannot read payout ''"),
    ],
)
def test_bad_payouts_name_the_value(text: str, message: str) -> None:
    with pytest.raises(PaytableError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_payout(text)


def test_payout_must_be_text() -> None:
    with pytest.raises(PaytableError, match="must be a string"):
        parse_payout(11)


def test_to_one_and_for_one_forms() -> None:
    assert (parse_payout("11:1").to_one(), parse_payout("11:1").for_one()) == (
        "11 to 1",
        "12 for 1",
    )
    assert parse_payout("push").for_one() == "1 for 1"
    assert parse_payout("lose").for_one() == "0 for 1"
    assert parse_payout("1:3").to_one() == "1/3 to 1"


@given(st.fractions(min_value=0, max_value=10_000, max_denominator=10**20))
def test_canonical_text_round_trips(net: Fraction) -> None:
    payout = Payout(net)
    assert parse_payout(str(payout)).net == net


@given(st.integers(0, 10**6), st.integers(1, 10**6), st.sampled_from([":", " to ", " for "]))
def test_ratio_forms(a: int, b: int, op: str) -> None:
    if op == " for " and a < b:
        with pytest.raises(PaytableError):
            parse_payout(f"{a}{op}{b}")
        return
    expected = Fraction(a, b) - (1 if op == " for " else 0)
    assert parse_payout(f"{a}{op}{b}").net == expected


@given(st.text(max_size=40))
def test_arbitrary_text_raises_only_project_errors(text: str) -> None:
    with contextlib.suppress(ExactOddsError):
        parse_payout(text)


def test_format_number_is_exact() -> None:
    assert format_number(Fraction(1, 8)) == "0.125"
    assert format_number(Fraction(-3, 4)) == "-0.75"
    assert format_number(Fraction(2, 3)) == "2/3"


@pytest.mark.parametrize(
    ("text", "net"),
    [
        ("1.5/2:1", Fraction(3, 4)),  # a decimal over an integer: (1.5)/2
        ("3/4 to 0.5/2", Fraction(3)),
        ("1:1 less 10.5/2%", Fraction(379, 400)),  # 5.25% commission
        ("0/1:1", Fraction(0)),
    ],
)
def test_numbers_with_a_decimal_and_a_fraction(text: str, net: Fraction) -> None:
    assert parse_payout(text).net == net


@pytest.mark.parametrize("text", ["١١:١", "11:١", "１１:1", "1:1 less ٥%"])
def test_only_ascii_digits(text: str) -> None:
    """Other scripts' digits are refused, as the HTML sheet's script refuses them."""
    with pytest.raises(PaytableError, match="cannot read payout"):
        parse_payout(text)


_NUMBERS = st.from_regex(r"[0-9]{1,4}(\.[0-9]{1,3})?(/[0-9]{1,3})?", fullmatch=True)


def _value(number: str) -> Fraction | None:
    """An independent reading of a number of the grammar (None when it divides by zero)."""
    top, _, bottom = number.partition("/")
    whole, _, decimals = top.partition(".")
    value = Fraction(int(whole + decimals), 10 ** len(decimals))
    return None if bottom and int(bottom) == 0 else value / int(bottom or 1)


@given(_NUMBERS, st.sampled_from([":", " to ", "for"]), _NUMBERS, st.none() | _NUMBERS)
def test_every_number_form_reads_exactly_or_fails_cleanly(
    a: str, op: str, b: str, commission: str | None
) -> None:
    text = f"{a}{op}{b}" + ("" if commission is None else f" less {commission}%")
    top, bottom = _value(a), _value(b)
    cut = Fraction(0) if commission is None else _value(commission)
    if top is None or bottom is None or bottom == 0 or cut is None or cut > 100:
        with pytest.raises(PaytableError):
            parse_payout(text)
        return
    net = top / bottom - (1 if op == "for" else 0)
    if net < 0:
        with pytest.raises(PaytableError, match="less than the stake"):
            parse_payout(text)
        return
    assert parse_payout(text).net == net * (1 - cut / 100)
