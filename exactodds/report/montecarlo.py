"""The math sheet's optional Monte Carlo section: dealt rounds against the sheet's exact rows.

Why: a test lab can rerun an independent, physical check of the exact figures from the sheet
itself (``exactodds report --monte-carlo-rounds N``). Rounds are dealt and tallied by
:mod:`exactodds.analysis.montecarlo` (each from a freshly shuffled shoe, seeded
``numpy.random.default_rng(seed)``), on the sheet's own shoe and drawing rules. Each dealt outcome
is settled by every bet's paytable, so the observed count of each *row* is compared with the
row's exact probability, and the observed mean return with the exact EV. Counts and observed
frequencies are exact; z-scores and intervals are floats, for people. numpy is imported only
here, when a Monte Carlo section is asked for.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> sheet = build_sheet(load_paytable("classic"), bet_ids=["tie"], date="2024-01-01")
>>> check = monte_carlo_sheet(sheet, rounds=2000, seed=1).monte_carlo
>>> check is not None and (check.rounds, check.seed, sum(c.observed for c in check.bets[0].classes))
(2000, 1, 2000)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from exactodds.errors import ReportError, about, parameter
from exactodds.numbers import fixed, grouped, signed
from exactodds.report.document import Block, Code, Heading, Para, Strong, Table
from exactodds.report.figures import PRECISION
from exactodds.report.sheet import Sheet, SheetMonteCarlo

__all__ = [
    "STATEMENT",
    "check_monte_carlo_options",
    "checks_outside",
    "monte_carlo_blocks",
    "monte_carlo_sheet",
    "monte_carlo_sheets",
    "verdict_line",
]

Progress = Callable[[int, int], None]
"""Called with (rounds dealt, rounds in all) as blocks of rounds are dealt."""

STATEMENT = (
    "This is a statistical check of the exact figures, not a source of them: every figure "
    "elsewhere on this sheet comes from complete enumeration."
)
"""What the section is (printed in every format)."""


def check_monte_carlo_options(rounds: int, seed: int) -> None:
    """Reject a number of rounds below 1 or a negative seed (one-line :class:`ReportError`).

    >>> check_monte_carlo_options(0, 1)
    Traceback (most recent call last):
    ...
    exactodds.errors.ReportError: rounds must be at least 1, not 0
    """
    if rounds < 1:
        raise about(ReportError(f"rounds must be at least 1, not {rounds!r}"), "rounds")
    if seed < 0:
        raise about(ReportError(f"seed must be a non-negative integer, not {seed!r}"), "seed")


def monte_carlo_sheet(
    sheet: Sheet, *, rounds: int, seed: int = 1, progress: Progress | None = None
) -> Sheet:
    """The sheet with a Monte Carlo section of ``rounds`` rounds dealt with ``seed``: per bet,
    the dealt rounds tallied by the paytable row that settles them (``progress(rounds dealt,
    rounds)`` as blocks of rounds are dealt)."""
    from exactodds.analysis.carddeal import physical
    from exactodds.analysis.montecarlo import bet_check, count_by, deal_rounds
    from exactodds.deal.round import Outcome, feature_record

    check_monte_carlo_options(rounds, seed)
    cards = [b.bet for b in sheet.bets if physical(b.bet)]  # settled on the cards as dealt
    live = [b for b in sheet.bets if b.bet.live]  # also played: multipliers, raises, fee
    play = None
    if live:
        from exactodds.analysis.montecarlo_live import LivePlay

        play = LivePlay([b.bet for b in live], [b.figures.peek for b in live], sheet.tableau, seed)
    dealt = deal_rounds(
        sheet.shoe,
        sheet.tableau,
        rounds,
        seed,
        cards,
        progress=progress,
        observe=None if play is None else play.observe,
    )
    records = [(feature_record(Outcome.from_code(code)), n) for code, n in dealt.outcomes.items()]
    checks = []
    for b in sheet.bets:
        classes = [(row.net, row.probability) for row in b.figures.rows]
        if b.bet in cards:
            k = cards.index(b.bet)
            observed, bet_rounds = list(dealt.rows[k]), dealt.offered[k]
        else:
            seen = count_by(records, b.bet.row_of_record)
            observed, bet_rounds = [seen[i] for i in range(len(classes))], rounds
        check = bet_check(b.bet.id, b.bet.name, classes, observed, bet_rounds)
        if play is not None and b in live:  # the return as played, against the headline EV
            played = play.seen[live.index(b)]
            mean = sum((net * n for net, n in played.items()), Fraction(0)) / rounds
            f = b.figures
            check = replace(check, ev=f.ev, variance=f.variance, observed_return=mean)
        checks.append(check)
    return replace(sheet, monte_carlo=SheetMonteCarlo(rounds, seed, tuple(checks)))


def monte_carlo_sheets(
    sheets: Sequence[Sheet], *, rounds: int, seed: int = 1, progress: Progress | None = None
) -> list[Sheet]:
    """:func:`monte_carlo_sheet` for each sheet (each dealt with the same ``seed``);
    ``progress(rounds dealt, rounds of every sheet)``."""
    from exactodds.bets.budget import check_dealt_cards

    check_monte_carlo_options(rounds, seed)
    with parameter("rounds", prefix=False):
        check_dealt_cards([b.bet for s in sheets for b in s.bets], rounds)
    total = rounds * len(sheets)
    return [
        monte_carlo_sheet(
            sheet,
            rounds=rounds,
            seed=seed,
            progress=None if progress is None else _offset(progress, i * rounds, total),
        )
        for i, sheet in enumerate(sheets)
    ]


def _offset(progress: Progress, before: int, total: int) -> Progress:
    """``progress`` of one sheet's rounds as part of all the sheets' rounds."""
    return lambda done, _: progress(before + done, total)


def checks_outside(sheet: Sheet, index: int) -> list[str]:
    """Labels of the checks of the ``index``-th bet whose |z| exceeds the 99% bound."""
    from exactodds.analysis.montecarlo import Z99

    assert sheet.monte_carlo is not None
    check = sheet.monte_carlo.bets[index]
    bad = [
        f"{row.event} (z = {c.z:+.2f})"
        for row, c in zip(sheet.bets[index].figures.rows, check.classes, strict=True)
        if abs(c.z) > Z99
    ]
    if abs(check.z) > Z99:
        bad.append(f"return (z = {check.z:+.2f})")
    return bad


def verdict_line(sheet: Sheet, index: int) -> str:
    """One line: every |z| of the bet within the 99% bound, or which are not."""
    from exactodds.analysis.montecarlo import Z99

    assert sheet.monte_carlo is not None
    n = len(sheet.monte_carlo.bets[index].classes) + 1
    bad = checks_outside(sheet, index)
    if not bad:
        return f"All {n} |z| within the 99% bound ({Z99:.3f})."
    return (
        f"{len(bad)} of {n} |z| outside the 99% bound ({Z99:.3f}): {'; '.join(bad)} "
        "(about 1% of checks fall outside by chance)."
    )


def monte_carlo_blocks(sheet: Sheet) -> list[Block]:
    """The sheet's Monte Carlo section as document blocks (none for a sheet without one)."""
    from exactodds.analysis.montecarlo import Z99

    check = sheet.monte_carlo
    if check is None:
        return []
    p, r = PRECISION["probability"], PRECISION["return"]
    intro = (
        f"{grouped(check.rounds)} rounds, each dealt from a freshly shuffled shoe of "
        f"{sheet.shoe.describe()}: six cards drawn uniformly without replacement and played by "
        f"the drawing rules above; seed {check.seed} (numpy default_rng). {STATEMENT} Per bet, "
        "each paytable row's observed count is compared with its exact probability, and the "
        "mean net result with the exact EV; z = (observed − exact) / standard deviation. "
        f"About 1% of z-scores fall outside the 99% bound (|z| ≤ {Z99:.3f}) by chance."
    )
    blocks: list[Block] = [Heading(2, "Monte Carlo verification", "verification"), Para(intro)]
    if sheet.command is not None:
        blocks.append(Para(("Rerun: ", Code(sheet.command))))
    for i, (b, c) in enumerate(zip(sheet.bets, check.bets, strict=True)):
        rows = tuple(
            (
                row.event,
                fixed(row.probability, p),
                fixed(Fraction(k.observed, k.rounds), p) if k.rounds else "—",
                grouped(k.observed),
                "{:,.0f} to {:,.0f}".format(*k.interval),
                f"{k.z:+.2f}",
            )
            for row, k in zip(b.figures.rows, c.classes, strict=True)
        )
        blocks += [
            Heading(3, f"{b.bet.name} ({b.bet.id}) — verification", f"verify-{b.bet.id}"),
            Table(
                ("Result", "Exact", "Observed", "Observed count", "99% interval", "z"),
                rows,
                "lrrrrr",
                total=(
                    Strong("Return (EV)"),
                    signed(c.ev, r),
                    signed(c.observed_return, r),
                    "",
                    "{:+.6f} to {:+.6f}".format(*c.interval),
                    f"{c.z:+.2f}",
                ),
                caption="Rows: exact probability and observed frequency, 99% interval of the "
                "count. Return: exact EV and observed mean net result per unit staked, 99% "
                "interval of the mean.",
            ),
            Para((Strong("Verdict:"), f" {verdict_line(sheet, i)}")),
        ]
    return blocks
