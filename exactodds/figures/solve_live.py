"""Solve a live bet (issue 34: a fee, multipliers, a peek) for a target RTP, per money paid.

Money returned per base stake, ``R = paid + EV``, does not depend on the fee (a fee is never
returned; a peek's optimal raise compares the raised stakes' EVs, which the fee does not enter),
and the money paid is ``paid₀ − fee₀ + fee``. So ``RTP(fee) = R / (paid₀ − fee₀ + fee)``: the
fee for a target RTP ``t`` is ``R / t − paid₀ + fee₀``, exact.

A row's base pay ``x`` enters the mean net linearly: ``p · (E[M] · x − c)`` (``E[M]``: the mean
product of its multipliers, 1 when not multiplied; ``c``: the commission taken from a multiplied
win), so the pay for a target is exact too (not for a peek: its decisions move with the pay).

The RTP as a function of one multiplier weight ``w`` (the table's other weights rescaled by
``(1 − w) / (1 − w₀)`` to keep the sum 1) is a polynomial: a product over ``k`` drawn identities
of the group is a product of ``k`` weights, each linear in ``w``, so its degree is at most the
most identities of a group that can be drawn. It is interpolated exactly (sympy) from the exact
RTP at that many + 1 weights over the rows' identity patterns (``RowFigures.patterns``, which do
not depend on the weights), checked at one more, and ``RTP(w) = t`` is solved on [0, 1] with
sympy's exact real-root isolation, the root given to 30 digits with its isolating interval.

>>> from exactodds.bets.loader import load_paytable
>>> s = solve_fee(load_paytable("tests/data/live-lightning.toml"), "player", "98.76%")
>>> s.value, s.rtp_at(s.value) == Fraction(9876, 10000)
(Fraction(157489785857765713, 1205180209200956625), True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from exactodds.bets.multipliers import MultiplierTable
from exactodds.bets.payout import format_number, parse_percent
from exactodds.bets.paytable import Bet, Paytable
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.errors import ExactOddsError, about
from exactodds.figures.metrics import BetFigures, RowFigures, bet_figures
from exactodds.figures.multiplied import mean_product
from exactodds.figures.reweigh import with_table
from exactodds.figures.solve import format_decimal
from exactodds.numbers import exact, percent

__all__ = [
    "LiveSolution",
    "WeightSolution",
    "parse_rtp",
    "solve_fee",
    "solve_live_pay",
    "solve_weight",
]

DIGITS = 30
"""Significant digits of an irrational root (its isolating interval is narrower)."""


def parse_rtp(text: str | Fraction) -> Fraction:
    """A target RTP from a percentage, ``98.76%`` (exact).

    >>> parse_rtp("98.76%")
    Fraction(2469, 2500)
    """
    if isinstance(text, Fraction):
        return text
    rtp = parse_percent(text, "target RTP")
    if rtp <= 0:
        raise ExactOddsError(f"target RTP {text!r} must be above 0%")
    return rtp


@dataclass(frozen=True)
class LiveSolution:
    """A fee, or a row's base pay, that gives a target RTP per money paid, exactly."""

    bet: Bet
    row: int | None
    """The solved row's index, None for the fee."""
    target: Fraction
    value: Fraction
    current: Fraction
    current_rtp: Fraction
    returned: Fraction
    """Money returned per base stake at the solution, ``R``."""
    paid: Fraction
    """Money paid per base stake at the solution."""
    slope: Fraction = Fraction(0)
    """Money returned per unit of the solved pay (0 for a fee)."""

    def rtp_at(self, value: Fraction) -> Fraction:
        """The RTP when the solved quantity is ``value``: ``R / paid`` with the fee in the money
        paid, or the pay in the money returned."""
        if self.row is None:
            return self.returned / (self.paid - self.value + value)
        return (self.returned + self.slope * (value - self.value)) / self.paid

    @property
    def label(self) -> str:
        """What was solved, in words."""
        if self.row is None:
            return "fee"
        row = self.bet.rows[self.row]
        before = ", before multipliers" if row.multiply is not None else ""
        return f"pay of {row.event!r} (to 1{before})"

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``p/q``."""
        return {
            "bet": self.bet.id,
            "solve": "fee" if self.row is None else "pay",
            "event": None if self.row is None else self.bet.rows[self.row].event,
            "row": None if self.row is None else self.row + 1,
            "target_rtp": exact(self.target),
            "value": exact(self.value),
            "current": exact(self.current),
            "current_rtp": exact(self.current_rtp),
            "money_returned": exact(self.returned),
            "money_paid": exact(self.paid),
        }

    def text(self) -> str:
        """Plain lines for ``exactodds solve``."""
        fee = self.row is None
        shown = (
            f"{percent(self.value, 6)} ({self.value})"
            if fee
            else f"{format_decimal(self.value)} to 1 ({self.value} exactly)"
        )
        now = percent(self.current, 4) if fee else f"{format_number(self.current)} to 1"
        name = self.label
        return "\n".join(
            [
                f"Bet: {self.bet.name} ({self.bet.id}); RTP = money returned / money paid",
                f"As the paytable stands: {name} {now} -> RTP {percent(self.current_rtp, 6)}",
                f"{name[0].upper()}{name[1:]} for RTP {percent(self.target, 6)}: {shown}",
            ]
        )


def _figures(paytable: Paytable, bet: Bet, joint: Joint | None) -> BetFigures:
    joint = joint or joint_distribution(paytable.shoe, paytable.tableau)
    return bet_figures(joint, bet)


def solve_fee(
    paytable: Paytable, bet_id: str, target_rtp: str | Fraction, joint: Joint | None = None
) -> LiveSolution:
    """The fee (per unit base stake) giving ``target_rtp``, exactly (a peek bet's too: its
    decisions do not depend on the fee); refused when even no fee returns less than the
    target."""
    bet = paytable.round_bet(bet_id, "solve")
    target = parse_rtp(target_rtp)
    f = _figures(paytable, bet, joint)
    returned = f.paid + f.ev
    base = f.paid - f.fee
    fee = returned / target - base
    if fee < 0:
        raise ExactOddsError(
            f"target RTP {percent(target)} is out of reach by a fee: bet {bet.id!r} returns "
            f"{percent(returned / base)} of the stake with no fee"
        )
    return LiveSolution(bet, None, target, fee, f.fee, f.rtp, returned, base + fee)


def solve_live_pay(
    paytable: Paytable,
    bet_id: str,
    row_index: int,
    target_rtp: str | Fraction,
    joint: Joint | None = None,
) -> LiveSolution:
    """The base pay ("to 1", before multipliers) of row ``row_index`` giving ``target_rtp``:
    linear in the pay, exact. Refused for a peek (its decisions move with the pay)."""
    bet = paytable.round_bet(bet_id, "solve")
    if bet.peek is not None:
        raise ExactOddsError(
            f"bet {bet.id!r} has a peek: its optimal raise moves with the pay, so solve its fee "
            "instead"
        )
    target = parse_rtp(target_rtp)
    f = _figures(paytable, bet, joint)
    row: RowFigures = f.rows[row_index]
    if row.probability == 0 or not row.pays.is_win:
        raise ExactOddsError(
            f"bet {bet.id!r}: row {row.event!r} is not a win that happens, so no pay of it "
            "moves the RTP"
        )
    slope = row.probability * mean_product(row.products)
    commission = row.pays.net - row.net if row.products else Fraction(0)
    rest = f.mean_net - row.ret
    # RTP = (1 + rest + slope·x − p·c) / paid, paid = 1 + fee
    x = (target * f.paid - 1 - rest + row.probability * commission) / slope
    if x < 0:
        raise ExactOddsError(f"target RTP {percent(target)} needs a negative pay ({x} to 1)")
    returned = 1 + rest + slope * x - row.probability * commission
    return LiveSolution(bet, row_index, target, x, row.pays.net, f.rtp, returned, f.paid, slope)


@dataclass(frozen=True)
class WeightSolution:
    """One multiplier weight giving a target RTP: the exact polynomial RTP(w) and its roots."""

    bet: Bet
    table: str
    value: int
    target: Fraction
    current: Fraction
    coefficients: tuple[Fraction, ...]
    """RTP(w) = Σ cₖ wᵏ, exact, ascending powers."""
    roots: tuple[tuple[Fraction, Fraction, str], ...]
    """Per root in [0, 1]: its isolating interval (exact) and its value to 30 digits."""

    def rtp_at(self, w: Fraction) -> Fraction:
        """RTP(w), exactly, from the polynomial."""
        return sum((c * w**k for k, c in enumerate(self.coefficients)), Fraction(0))

    def polynomial(self) -> str:
        """RTP(w) as text (sympy's form)."""
        import sympy

        w = sympy.Symbol("w")
        expr = sum(
            sympy.Rational(c.numerator, c.denominator) * w**k
            for k, c in enumerate(self.coefficients)
        )
        return str(sympy.expand(expr))

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``p/q`` (``polynomial``: its coefficients in ascending powers of w),
        roots as isolating intervals and 30-digit decimals."""
        return {
            "bet": self.bet.id,
            "solve": f"weight {self.table}:{self.value}",
            "target_rtp": exact(self.target),
            "current_weight": exact(self.current),
            "polynomial": [exact(c) for c in self.coefficients],
            "polynomial_text": f"RTP(w) = {self.polynomial()}",
            "roots": [{"low": exact(a), "high": exact(b), "value": v} for a, b, v in self.roots],
        }

    def text(self) -> str:
        """Plain lines for ``exactodds solve``."""
        lines = [
            f"Bet: {self.bet.name} ({self.bet.id}); weight w of multiplier {self.value} in table "
            f"{self.table!r} (now {format_number(self.current)}), the others rescaled",
            f"RTP(w) = {self.polynomial()}",
        ]
        for a, b, v in self.roots:
            lines.append(f"w for RTP {percent(self.target, 6)}: {v} (in [{a}, {b}])")
        return "\n".join(lines)


def _rescaled(table: MultiplierTable, value: int, w: Fraction) -> MultiplierTable:
    w0 = dict(table.values)[value]
    scale = (1 - w) / (1 - w0)
    return replace(
        table, values=tuple((v, w if v == value else q * scale) for v, q in table.values)
    )


def solve_weight(
    paytable: Paytable,
    bet_id: str,
    weight: str,
    target_rtp: str | Fraction,
    joint: Joint | None = None,
) -> WeightSolution:
    """The weight of one multiplier value (``TABLE:VALUE``, or ``VALUE`` with one table) giving
    ``target_rtp``, the table's other weights rescaled proportionally: the exact polynomial and
    its real roots in [0, 1]."""
    import sympy

    bet = paytable.round_bet(bet_id, "solve")
    if bet.peek is not None:
        raise ExactOddsError(f"bet {bet.id!r} has a peek: solve its fee instead")
    target = parse_rtp(target_rtp)
    table, value = _weight_of(paytable, weight)
    w0 = dict(table.values)[value]
    if w0 == 1:
        raise _weight_error(f"weight {weight}: it is the only multiplier (weight 1)")
    f = _figures(paytable, bet, joint)
    used = {row.multiply.table.name for row in bet.rows if row.multiply is not None}
    if table.name not in used:
        raise ExactOddsError(f"bet {bet.id!r} has no row multiplied by table {table.name!r}")
    if len(used) > 1:
        raise ExactOddsError(
            f"bet {bet.id!r} is multiplied by tables {', '.join(sorted(used))}: a weight is "
            "solved for a bet of one table"
        )
    most = max(k for k, _ in table.cards)
    degree = max(min(len(pattern), most) for r in f.rows for pattern, _ in r.patterns)

    def rtp(w: Fraction) -> Fraction:  # the rows reweighed, nothing counted again
        return with_table(f, _rescaled(table, value, w)).rtp

    points = [Fraction(k + 1, degree + 3) for k in range(degree + 2)]  # one more to check
    values = [rtp(p) for p in points]
    w = sympy.Symbol("w")
    known = zip(points[:-1], values[:-1], strict=True)
    poly = sympy.interpolate([(_rational(p), _rational(v)) for p, v in known], w)
    coefficients = tuple(
        Fraction(int(c.p), int(c.q)) for c in reversed(sympy.Poly(poly, w).all_coeffs())
    )
    solution = WeightSolution(bet, table.name, value, target, w0, coefficients, ())
    if solution.rtp_at(points[-1]) != values[-1] or solution.rtp_at(w0) != f.rtp:
        raise ArithmeticError("the weight polynomial disagrees with the exact RTP: a bug")
    equation = sympy.Poly(poly - _rational(target), w)
    roots = []
    eps = sympy.Rational(1, 10 ** (DIGITS + 2))
    for (low, high), _ in equation.intervals(inf=0, sup=1):
        low, high = equation.refine_root(low, high, eps=eps)  # noqa: PLW2901
        a, b = sorted((Fraction(int(low.p), int(low.q)), Fraction(int(high.p), int(high.q))))
        roots.append((a, b, _digits(a) if a == b else _digits((a + b) / 2)))
    if not roots:
        raise ExactOddsError(
            f"no weight of {table.name}:{value} in [0, 1] gives RTP {percent(target)}: "
            f"RTP(0) = {percent(solution.rtp_at(Fraction(0)))}, RTP(1) = "
            f"{percent(solution.rtp_at(Fraction(1)))} (a polynomial of degree {degree})"
        )
    return replace(solution, roots=tuple(roots))


def _rational(x: Fraction) -> Any:
    import sympy

    return sympy.Rational(x.numerator, x.denominator)


def _digits(x: Fraction) -> str:
    """``x`` to :data:`DIGITS` significant digits (exact decimal arithmetic)."""
    from decimal import Context

    c = Context(prec=DIGITS)
    return str(c.divide(c.create_decimal(x.numerator), c.create_decimal(x.denominator)))


def _weight_of(paytable: Paytable, text: str) -> tuple[MultiplierTable, int]:
    """The table and value of ``weight`` ``TABLE:VALUE`` (``VALUE`` alone with one table)."""
    name, sep, value_text = text.rpartition(":")
    tables = {t.name: t for t in paytable.multipliers}
    if not tables:
        raise _weight_error(f"weight {text!r}: the paytable has no multiplier table")
    if not sep:
        if len(tables) != 1:
            raise _weight_error(f"weight {text!r}: say the table, like {next(iter(tables))}:8")
        name = next(iter(tables))
    if name not in tables:
        raise _weight_error(f"weight {text!r}: no table {name!r} ({', '.join(tables)})")
    table = tables[name]
    values = {str(v): v for v, _ in table.values}
    if value_text.strip() not in values:
        raise _weight_error(f"weight {text!r}: table {name!r} has multipliers {', '.join(values)}")
    return table, values[value_text.strip()]


def _weight_error(message: str) -> ExactOddsError:
    """An error about the ``weight`` parameter (the command line shows ``--weight``)."""
    return about(ExactOddsError(message), "weight")
