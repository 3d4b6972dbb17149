"""The work of a session, estimated before any of it is done: the distribution (exact or bounded),
the risk-of-ruin programme and the output, in operations on one core (about 10⁹ a second), so
that a session over :data:`~exactodds.limits.MAX_SESSION_WORK` is refused in one line up front.

>>> from fractions import Fraction as F
>>> coin = Round.of([(F(1), 1), (F(-1), 1)])
>>> w = session_work(coin, 4, None, 30, "text")
>>> w.method, w.ruin, w.total == w.distribution + w.output
('exact', 0, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from exactodds.errors import SessionError, parameter
from exactodds.session.lattice import Round

__all__ = ["SessionWork", "check_session_work", "exact_work", "session_work"]

BOUNDED_STEP = 12
"""Operations per bit of precision of one term of the bounded recurrence (measured: Banker over
10,000 rounds, 780,000 terms of 146 bits, 1.35 CPU seconds)."""

RUIN_STEP = (400, 60)
"""Operations per state update of the risk-of-ruin programme: exact (big integers), bounded."""

TAIL_GROWTH = 50_000
"""Writing a bound whose binary exponent has t bits costs about t·(1 + t/50,000) operations (a
power of ten of t·0.3 digits, by multiplications that grow faster than their size; measured:
Tie over 30,000 and 50,000 rounds in JSON, 5.5 and 18 CPU seconds)."""

POINT_OUTPUT = 1_000
"""Operations to write one lattice point (an exact ``p/q`` capped in size, or a short bound)."""


def exact_work(rounds: int, degree: int, total: int) -> int:
    """The work of an exact distribution: lattice points × rounds × bits of a round's total."""
    return (rounds * degree + 1) * rounds * total.bit_length()


def signed_gap(one: Round, rounds: int) -> bool:
    """Whether the bounded recurrence meets terms of both signs (bets of four or more net values):
    its bounds may then fail to reach the digits asked, and only the exact power is sure."""
    if len(one.exponents) < 4:
        return False
    mirror = one.reversed()
    size = rounds * one.degree + 1
    return (rounds + 1) * one.exponents[1] < size - 1 - (rounds + 1) * mirror.exponents[1]


def tail_bits(one: Round, rounds: int) -> int:
    """Bits of the binary exponent of the least likely end of the distribution (what writing
    one bound in decimal costs): rounds × log2(total / count of an end), in integers."""
    total, end = one.total, min(one.counts[0], one.counts[-1])
    per64 = (total**64).bit_length() - (end**64).bit_length() + 1
    return rounds * per64 // 64 + 1


@dataclass(frozen=True)
class SessionWork:
    """A session's estimated work (operations) and how its distribution will be computed:
    ``exact``, ``bounded``, or ``bounded, else exact`` (bets whose bounds may fail)."""

    rounds: int
    points: int
    method: str
    distribution: int
    ruin_steps: int
    ruin: int
    output: int
    fmt: str

    @property
    def total(self) -> int:
        """All of the session's work."""
        return self.distribution + self.ruin + self.output

    @property
    def exact(self) -> bool:
        """Whether the distribution will be exact Fractions (the bounded attempt may still
        fall back to exact; the risk of ruin is then bounded anyway)."""
        return self.method == "exact"


def session_work(
    one: Round, rounds: int, bankroll: Fraction | None, digits: int, fmt: str | None
) -> SessionWork:
    """The estimate of a session of ``rounds`` rounds of ``one`` (``fmt``: the output format,
    None for none): no work is done."""
    from exactodds.limits import (
        EXACT_RUIN_WORK,
        EXACT_SESSION_ROUNDS,
        EXACT_SESSION_WORK,
        MAX_SESSION_EXACT_WORK,
    )
    from exactodds.session.ruin import ruin_work

    points = rounds * one.degree + 1
    terms = len(one.exponents) - 1
    exact = exact_work(rounds, one.degree, one.total)
    bits = math.ceil(digits * math.log2(10)) + points.bit_length() + 24
    bounded = points * terms * BOUNDED_STEP * bits
    if rounds <= EXACT_SESSION_ROUNDS and exact <= EXACT_SESSION_WORK:
        method, work = "exact", exact
    elif signed_gap(one, rounds) and exact <= MAX_SESSION_EXACT_WORK:
        method, work = "bounded, else exact", bounded + exact
    elif signed_gap(one, rounds):
        method, work = "unprovable", bounded + exact
    else:
        method, work = "bounded", bounded
    steps = 0 if bankroll is None else ruin_work(one, rounds, bankroll)
    may_be_exact = method in {"exact", "bounded, else exact"} and steps <= EXACT_RUIN_WORK
    ruin = steps * RUIN_STEP[0 if may_be_exact else 1]
    output = 0
    if fmt in {"json", "csv"}:
        tail = tail_bits(one, rounds) if method != "exact" else 0
        output = points * max(tail * (TAIL_GROWTH + tail) // TAIL_GROWTH, POINT_OUTPUT)
    return SessionWork(rounds, points, method, work, steps, ruin, output, fmt or "")


def check_session_work(work: SessionWork, bet: str, digits: int) -> None:
    """Refuse, in one line, a session whose estimate is over a limit (before any work)."""
    from exactodds.limits import (
        MAX_RUIN_WORK,
        MAX_SESSION_EXACT_WORK,
        MAX_SESSION_POINTS,
        MAX_SESSION_WORK,
    )

    with parameter("rounds", prefix=False):  # each message names the rounds first
        n = f"rounds {work.rounds:,}"
        if work.points > MAX_SESSION_POINTS:
            raise SessionError(
                f"{n}: {bet} has {work.points:,} possible net results over the session, over the "
                f"limit of {MAX_SESSION_POINTS:,}; use fewer rounds"
            )
        if work.method == "unprovable":
            raise SessionError(
                f"{n}: {bet} has terms of both signs in its recurrence, so its bounds cannot "
                f"be proven to {digits} digits over this many rounds, and the exact distribution "
                f"needs about {_sci(work.distribution)} operations, over the limit of "
                f"{_sci(MAX_SESSION_EXACT_WORK)}; use fewer rounds"
            )
        if work.ruin_steps > MAX_RUIN_WORK:
            raise SessionError(
                f"{n}: the risk of ruin needs about {_sci(work.ruin_steps)} steps, over the "
                f"limit of {_sci(MAX_RUIN_WORK)}; use fewer rounds"
            )
        if work.total > MAX_SESSION_WORK:
            parts = [f"distribution {_sci(work.distribution)}"]
            if work.ruin:
                parts.append(f"risk of ruin {_sci(work.ruin)}")
            if work.output:
                parts.append(f"{work.fmt} output {_sci(work.output)}")
            advice = "; use fewer rounds" + (
                " or a text output" if work.output > MAX_SESSION_WORK // 2 else ""
            )
            raise SessionError(
                f"{n}: this session needs about {_sci(work.total)} operations "
                f"({', '.join(parts)}), over the limit of {_sci(MAX_SESSION_WORK)} "
                f"(about 10 CPU seconds){advice}"
            )


def _sci(value: int) -> str:
    """A work figure to two significant digits, rounded up (``1.5e10``: an estimate over a limit
    reads as over it), or whole below a million.

    >>> _sci(999_999), _sci(14_321_000_000), _sci(10**10), _sci(10**10 + 1)
    ('999,999', '1.5e10', '1e10', '1.1e10')
    """
    if value < 10**6:
        return f"{value:,}"
    size = len(str(value)) - 2
    text = str(-(-value // 10**size) * 10**size)
    head = text[0] if text[1] == "0" else f"{text[0]}.{text[1]}"
    return f"{head}e{len(text) - 1}"
