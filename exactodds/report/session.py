"""The optional session section of a math sheet (``report --session N``): per bet, a flat unit
bet over N independent rounds (P(ahead), P(even), percentiles, the 95% range of the house's win)
and, where dead chips apply, their wagers and house edge per chip (docs/programmes.md).

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> sheet = session_sheet(build_sheet(load_paytable("classic"), bet_ids=["banker"]), 200)
>>> s = sheet.session.sessions[0]
>>> s.bet, s.rounds, f"{float(s.distribution.p_ahead.lower):.4%}"
('banker', 200, '44.0191%')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.numbers import fixed
from exactodds.session.distribution import INDEPENDENT_NOTE

if TYPE_CHECKING:
    from exactodds.report.document import Block
    from exactodds.report.sheet import Sheet
    from exactodds.session.result import Session

__all__ = [
    "SheetSession",
    "check_session_rounds",
    "session_blocks",
    "session_csv_lines",
    "session_json",
    "session_sheet",
    "session_xlsx",
]

_PLACES = (Fraction(1, 20), Fraction(1, 2), Fraction(19, 20))
"""The percentiles the sheet's table shows (JSON and CSV give them all)."""

_META = ("paytable", "shoe", "rules", "note")
"""Keys of a session's JSON that the sheet says once, not per bet."""


@dataclass(frozen=True)
class SheetSession:
    """The session section: one :class:`~exactodds.session.Session` per bet of the sheet."""

    rounds: int
    sessions: tuple[Session, ...]


def check_session_rounds(rounds: int) -> None:
    """Refuse, before any work, a ``--session`` that is not a whole number of rounds from 1 to
    :data:`~exactodds.limits.EXACT_SESSION_ROUNDS` (a sheet's figures stay exact)."""
    from exactodds.errors import ReportError, about
    from exactodds.limits import EXACT_SESSION_ROUNDS

    if not 1 <= rounds <= EXACT_SESSION_ROUNDS:
        message = (
            f"session {rounds:,}: give the rounds of a session, 1 to {EXACT_SESSION_ROUNDS:,} "
            "(longer sessions: exactodds session)"
        )
        raise about(ReportError(message), "session")


def session_sheet(sheet: Sheet, rounds: int) -> Sheet:
    """``sheet`` with a session section of ``rounds`` rounds per bet (a bet never offered on
    the sheet's shoe has none)."""
    from exactodds.errors import parameter
    from exactodds.session.result import bet_session

    check_session_rounds(rounds)
    _check_seconds(sheet, rounds)
    names = (sheet.paytable.name, sheet.shoe.describe(), sheet.tableau.name)
    with parameter("session"):  # each distribution summed up and let go: bounded memory
        sessions = tuple(
            _summed_up(bet_session(b.figures, rounds, names)) for b in sheet.bets if b.figures.total
        )
    return replace(sheet, session=SheetSession(rounds, sessions))


SESSION_OPS_PER_SECOND = 10**9
"""Operations of a session's estimated work (:func:`exactodds.session.work.session_work`) one
core does in a second: ``report classic --session 1000``, 5.8·10⁹ operations, took 6.6 s."""


def _check_seconds(sheet: Sheet, rounds: int) -> None:
    """Refuse, before any of them, sessions of the sheet's bets that would take longer than
    the CPU budget together (each bet's own limits are checked as it is computed)."""
    from exactodds.bets.budget import check_seconds
    from exactodds.session.lattice import Round
    from exactodds.session.result import round_outcomes
    from exactodds.session.work import session_work

    bets = [b for b in sheet.bets if b.figures.total]
    work = sum(  # a live bet's round: every product and raise, less the fee, as bet_session
        session_work(Round.of(round_outcomes(b.figures)), rounds, None, 30, None).total
        for b in bets
    )
    plural = "s" if len(bets) != 1 else ""
    what = f"sessions of {rounds:,} rounds of {len(bets):,} bet{plural}"
    check_seconds(work / SESSION_OPS_PER_SECOND, what, hint="fewer rounds or --bet")


@dataclass(frozen=True)
class _Summary:
    """What a sheet reads of a session's distribution, kept instead of it: at 1,000 rounds
    an exact distribution holds thousands of integers of thousands of digits (classic's 14
    bets held 2.1 GiB at once; one at a time, their peak is Banker's alone)."""

    exact: bool
    digits: int | None
    p_ahead: Any
    p_even: Any
    p_behind: Any
    percentiles: tuple[tuple[Fraction, Any], ...]
    quantiles: tuple[tuple[Fraction, Any], ...]

    def percentile(self, alpha: Fraction) -> Any:
        """The quantile at ``alpha`` (one the sheet shows)."""
        return dict(self.quantiles)[alpha]


_QUANTILES = (*_PLACES, Fraction(1, 40), Fraction(39, 40))
"""The quantiles a sheet reads: its table's, and the 95% range of the house's win."""


def _summed_up(s: Session) -> Session:
    """``s`` with its distribution replaced by what the sheet reads of it (:class:`_Summary`)."""
    d = s.distribution
    summary = _Summary(
        d.exact,
        d.digits,
        d.p_ahead,
        d.p_even,
        d.p_behind,
        d.percentiles,
        tuple((q, d.percentile(q)) for q in _QUANTILES),
    )
    return replace(s, distribution=summary)  # type: ignore[arg-type]


def _figures(s: Session) -> dict[str, Any]:
    """A bet's session figures as JSON data (those of ``exactodds session``, without the
    distribution and what the sheet says once)."""
    from exactodds.report.session_render import session_data

    data = session_data(s, distribution=False)
    return {key: value for key, value in data.items() if key not in _META}


def session_json(sheet: Sheet) -> dict[str, Any]:
    """The section as JSON data: exact ``p/q`` strings (bounds as ``{"lower", "upper"}``)."""
    section = sheet.session
    assert section is not None
    return {
        "rounds": section.rounds,
        "note": INDEPENDENT_NOTE,
        "bets": [_figures(s) for s in section.sessions],
    }


def _row(s: Session) -> tuple[str, ...]:
    from exactodds.report.session_render import net_text, shown

    d = s.distribution
    low, high = s.hold_range
    chip = s.dead_chip
    return (
        f"{s.figures.bet.name} ({s.bet})",
        shown(d.p_ahead, "%"),
        shown(d.p_even, "%"),
        *(net_text(d.percentile(p)) for p in _PLACES),
        f"{net_text(low)} to {net_text(high)}",
        "—" if chip is None else fixed(chip.wagers_per_chip, 4),
        "—" if chip is None else shown(chip.edge_per_chip, "%"),
    )


_HEADER = (
    "Bet",
    "P(ahead)",
    "P(even)",
    "5%",
    "Median",
    "95%",
    "House win, 95%",
    "Wagers per dead chip",
    "Edge per dead chip",
)


def session_blocks(sheet: Sheet) -> list[Block]:
    """The section as document blocks (Markdown, HTML, PDF), on sheets that have one."""
    from exactodds.report.document import Heading, Para, Table

    section = sheet.session
    if section is None:
        return []
    n = section.rounds
    return [
        Heading(2, f"Sessions of {n:,} rounds", "session"),
        Para(
            f"A flat bet of one unit on each bet over {n:,} rounds (a bet with an offer: "
            "offered rounds): the chance to be ahead or even at the end, percentiles of the net "
            "result (units), and the house's win that holds with probability at least 95%; "
            "exact, from the distribution of the net result. A dead chip is bet until it loses "
            "(wins paid in cash): the wagers it makes and the house's gain per chip, for the "
            "bets that lose the whole stake only. "
            "Formulas: docs/programmes.md; every figure and the distribution: exactodds session."
        ),
        Table(_HEADER, tuple(_row(s) for s in section.sessions), "lrrrrrrrr"),
        Para(INDEPENDENT_NOTE, "note"),
    ]


def session_csv_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    """CSV lines of kind ``session``: per bet and figure (``item`` = its JSON key, nested keys
    joined by ``.``), ``value`` a decimal and ``exact`` the ``p/q``; a bounded figure has its
    bounds in ``note``."""
    from exactodds.report.session_render import flat

    section = sheet.session
    if section is None:
        return
    for s in section.sessions:
        base = {
            "paytable": sheet.paytable.name,
            "bet_id": s.bet,
            "bet": s.figures.bet.name,
            "kind": "session",
        }
        for item, value in flat("", _figures(s)):
            line = base | {"item": item.lstrip(".")}
            if isinstance(value, dict):
                yield line | {"note": f"between {value['lower']} and {value['upper']}"}
            elif isinstance(value, str) and "/" in value:
                yield line | {"value": fixed(Fraction(value), 10), "exact": value}
            else:
                yield line | {"value": "" if value is None else str(value).lower()}


def session_xlsx(w: Any, sheet: Sheet, number_format: str) -> None:
    """The section on its own worksheet (``w``: the XLSX writer of :mod:`exactodds.report.xlsx`):
    per bet its figures as numbers in ``number_format`` with ``p/q`` beside them."""
    section = sheet.session
    assert section is not None
    w.line(f"Sessions of {section.rounds:,} rounds", bold=True)
    w.line(INDEPENDENT_NOTE)
    w.row += 1
    header = ["Bet"]
    for title in _HEADER[1:]:
        header += [title, "" if title.startswith("House win") else "(exact)"]
    w.line(*header, bold=True)
    for s in section.sessions:
        d = s.distribution
        low, high = s.hold_range
        chip = s.dead_chip
        values = [
            d.p_ahead,
            d.p_even,
            *(d.percentile(p) for p in _PLACES),
            low,
            chip.wagers_per_chip if chip is not None else None,
            chip.edge_per_chip if chip is not None else None,
        ]
        w.line(s.figures.bet.name)
        for j, value in enumerate(values):
            column = 2 + 2 * j
            if j == 5:  # the house's win: its range as text
                from exactodds.report.session_render import net_text

                w.text(column, f"{net_text(low)} to {net_text(high)}")
                continue
            exact = value if isinstance(value, Fraction) or value is None else value.exact
            if exact is not None:
                _exact_cell(w, column, exact, number_format)
            elif value is not None and not isinstance(value, Fraction):
                w.text(column, f"{value.lower} .. {value.upper}")


_CELL = 32767
"""Characters in one spreadsheet cell."""


def _exact_cell(w: Any, column: int, value: Fraction | int, number_format: str) -> None:
    """The value as a number, and as ``p/q`` beside it where a cell holds it (an exact fraction
    of a long session can have tens of thousands of digits: then the JSON sheet has it)."""
    from exactodds.numbers import exact

    text = exact(value)
    if len(text) <= _CELL:
        w.exact(column, value, number_format)
        return
    w.number(column, value, number_format)
    w.text(column + 1, f"p/q of {len(text):,} characters: in the JSON sheet")
