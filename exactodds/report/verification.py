"""The math sheet's optional Monte Carlo section: dealt rounds against the sheet's exact rows.

Why: a test lab can rerun an independent, physical check of the exact figures from the sheet
itself. Rounds are dealt as in :mod:`exactodds.analysis.montecarlo` (each from a freshly shuffled
shoe, seeded ``numpy.random.default_rng(seed)``), on the sheet's own shoe and drawing rules. Each
dealt outcome is settled by every bet's paytable, so the observed count of each *row* is compared
with the row's exact probability, and the observed mean return with the exact EV. Counts and
observed frequencies are exact; z-scores and intervals are floats, for people. numpy is imported
only here, when a verification is asked for.

>>> from exactodds.paytable_loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01")
>>> check = verify_sheet(sheet, rounds=2000, seed=1).verification
>>> check is not None and (check.rounds, check.seed, sum(c.observed for c in check.bets[0].classes))
(2000, 1, 2000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from exactodds.errors import ReportError
from exactodds.report.sheet import Sheet, SheetVerification

__all__ = [
    "STATEMENT",
    "check_verify_options",
    "outside",
    "verdict",
    "verify_sheet",
    "verify_sheets",
]

STATEMENT = (
    "This is a statistical check of the exact figures, not a source of them: every figure "
    "elsewhere on this sheet comes from complete enumeration."
)
"""What the section is (printed in every format)."""


def check_verify_options(rounds: int, seed: int) -> None:
    """Reject a number of rounds below 1 or a negative seed (one-line :class:`ReportError`).

    >>> check_verify_options(0, 1)
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: --verify-rounds must be at least 1, not 0
    """
    if rounds < 1:
        raise ReportError(f"--verify-rounds must be at least 1, not {rounds!r}")
    if seed < 0:
        raise ReportError(f"--seed must be a non-negative integer, not {seed!r}")


def verify_sheet(sheet: Sheet, *, rounds: int, seed: int = 1) -> Sheet:
    """The sheet with a Monte Carlo verification of ``rounds`` rounds dealt with ``seed``."""
    from exactodds.analysis.montecarlo import BetCheck, ClassCheck, deal_outcome_counts
    from exactodds.round import FEATURE_INDEX, Outcome, feature_record

    check_verify_options(rounds, seed)
    dealt = deal_outcome_counts(sheet.shoe, sheet.tableau, rounds, seed)
    records = [(feature_record(Outcome.from_code(code)), n) for code, n in dealt.items()]
    checks = []
    for b in sheet.bets:
        bet, figures = b.bet, b.figures
        where = [FEATURE_INDEX[f] for f in bet.features]
        memo: dict[tuple[object, ...], int] = {}
        seen = [0] * len(bet.rows)
        for record, n in records:
            key = tuple(record[i] for i in where)
            row = memo.get(key)
            if row is None:
                row = memo[key] = bet.row_index(record)
            seen[row] += n
        classes = tuple(
            ClassCheck(r.net, r.probability, count, rounds)
            for r, count in zip(figures.rows, seen, strict=True)
        )
        observed = sum((r.net * n for r, n in zip(figures.rows, seen, strict=True)), Fraction(0))
        checks.append(
            BetCheck(
                bet.id,
                bet.name,
                figures.ev,
                figures.variance,
                observed / rounds,
                rounds,
                classes,
            )
        )
    return replace(sheet, verification=SheetVerification(rounds, seed, tuple(checks)))


def verify_sheets(sheets: Sequence[Sheet], *, rounds: int, seed: int = 1) -> list[Sheet]:
    """:func:`verify_sheet` for each sheet (each dealt with the same ``seed``)."""
    check_verify_options(rounds, seed)
    return [verify_sheet(s, rounds=rounds, seed=seed) for s in sheets]


def outside(sheet: Sheet, index: int) -> list[str]:
    """Labels of the checks of the ``index``-th bet whose |z| exceeds the 99% bound."""
    from exactodds.analysis.montecarlo import Z99

    assert sheet.verification is not None
    check = sheet.verification.bets[index]
    bad = [
        f"{row.event} (z = {c.z:+.2f})"
        for row, c in zip(sheet.bets[index].figures.rows, check.classes, strict=True)
        if abs(c.z) > Z99
    ]
    if abs(check.z) > Z99:
        bad.append(f"return (z = {check.z:+.2f})")
    return bad


def verdict(sheet: Sheet, index: int) -> str:
    """One line: every |z| of the bet within the 99% bound, or which are not."""
    from exactodds.analysis.montecarlo import Z99

    assert sheet.verification is not None
    n = len(sheet.verification.bets[index].classes) + 1
    bad = outside(sheet, index)
    if not bad:
        return f"All {n} |z| within the 99% bound ({Z99:.3f})."
    return (
        f"{len(bad)} of {n} |z| outside the 99% bound ({Z99:.3f}): {'; '.join(bad)} "
        "(about 1% of checks fall outside by chance)."
    )
