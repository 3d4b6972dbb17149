"""Confidence ranges and the volatility index against independent computations: the z-values
against the normal distribution (mpmath at 60 digits, and statistics.NormalDist in floats), and
every printed digit against a 60-digit Decimal computation of RTP ± z·SD/√N."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from statistics import NormalDist

import mpmath
import pytest

from exactodds.analysis.confidence import (
    LEVELS,
    ROUNDS,
    Z_DIGITS,
    confidence_ranges,
    fixed_z_sqrt,
    volatility_index,
)
from exactodds.bets.loader import load_paytable
from exactodds.figures.metrics import BetFigures, paytable_figures

# z-values to 50 digits from mpmath's inverse error function, not from the library's constants.
mpmath.mp.dps = 60
Z50 = {
    level: mpmath.nstr(
        mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(level.numerator) / level.denominator), 50
    )
    for level in LEVELS
}


@pytest.mark.parametrize("level", LEVELS, ids=str)
def test_z_values_are_the_two_sided_normal_quantiles(level: Fraction) -> None:
    z = mpmath.mpf(Z_DIGITS[level])
    coverage = 2 * mpmath.ncdf(z) - 1  # Φ(z) − Φ(−z)
    target = mpmath.mpf(level.numerator) / level.denominator
    assert abs(coverage - target) < mpmath.mpf(10) ** -39
    float_z = NormalDist().inv_cdf(1 - (1 - float(level)) / 2)
    assert float(Z_DIGITS[level]) == pytest.approx(float_z, rel=1e-14)
    assert Z50[level].startswith(Z_DIGITS[level][:-1])  # 40 decimals, truncated


def _decimal_bound(
    center: Fraction, sign: int, level: Fraction, radicand: Fraction, places: int
) -> str:
    """center + sign·z·√radicand to ``places`` decimals with 60-digit Decimal arithmetic."""
    with localcontext() as ctx:
        ctx.prec = 60
        root = (Decimal(radicand.numerator) / Decimal(radicand.denominator)).sqrt()
        value = (
            Decimal(center.numerator) / Decimal(center.denominator)
            + sign * Decimal(Z50[level]) * root
        )
        return str(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


CLASSIC = paytable_figures(load_paytable("classic"))


@pytest.mark.parametrize("figures", CLASSIC, ids=lambda f: f.bet.id)
def test_every_bound_of_a_sheet_matches_a_high_precision_computation(figures: BetFigures) -> None:
    ranges = confidence_ranges(figures.rtp, figures.variance)
    assert [(r.rounds, r.level) for r in ranges] == [(n, v) for n in ROUNDS for v in LEVELS]
    sd = math.sqrt(figures.variance)
    for r in ranges:
        spread = figures.variance / r.rounds
        assert r.low(10) == _decimal_bound(figures.rtp, -1, r.level, spread, 10)
        assert r.high(10) == _decimal_bound(figures.rtp, 1, r.level, spread, 10)
        assert (
            r.low_percent(4)
            == _decimal_bound(figures.rtp * 100, -1, r.level, spread * 10**4, 4) + "%"
        )
        # the normal approximation in floats agrees to float precision
        z = NormalDist().inv_cdf(1 - (1 - float(r.level)) / 2)
        half = z * sd / math.sqrt(r.rounds)
        assert float(r.low(10)) == pytest.approx(float(figures.rtp) - half, abs=1e-9)
        assert float(r.high(10)) == pytest.approx(float(figures.rtp) + half, abs=1e-9)
    assert volatility_index(figures.variance, 10) == _decimal_bound(
        Fraction(0), 1, Fraction(9, 10), figures.variance, 10
    )
    assert float(volatility_index(figures.variance, 6)) == pytest.approx(
        1.6448536269514722 * sd, abs=1e-6
    )


def test_a_value_next_to_a_rounding_boundary_still_gets_its_correct_last_digit() -> None:
    """center + z·√2 lies 10⁻²⁵ above (and below) a half-unit of the 6th decimal: only more
    guard digits decide the rounding, and the answer must agree with 60-digit arithmetic."""
    level = Fraction(95, 100)
    with localcontext() as ctx:
        ctx.prec = 60
        spread = Decimal(Z50[level]) * Decimal(2).sqrt()
    for offset in (Fraction(1, 10**25), -Fraction(1, 10**25)):
        center = Fraction("0.0000005") - Fraction(spread) + offset  # value ≈ 0.0000005 + offset
        expected = _decimal_bound(center, 1, level, Fraction(2), 6)
        assert fixed_z_sqrt(center, 1, level, Fraction(2), 6) == expected
        assert expected == ("0.000001" if offset > 0 else "0.000000")


def test_no_spread_is_the_rtp_itself_and_bad_input_is_refused() -> None:
    (r,) = confidence_ranges(Fraction(1), Fraction(0), [1000], [Fraction(99, 100)])
    assert (r.low(4), r.high(4)) == ("1.0000", "1.0000")
    with pytest.raises(ValueError, match="negative"):
        fixed_z_sqrt(Fraction(0), 1, Fraction(9, 10), Fraction(-1), 4)
    with pytest.raises(ValueError, match="no z-value for level 80%"):
        fixed_z_sqrt(Fraction(0), 1, Fraction(8, 10), Fraction(1), 4)
