"""The optional game-protection section of a math sheet (``report --protection``): what the
standard procedures' leaks are worth to a player who bets best on them, per bet.

Four procedures, each analysed by :mod:`exactodds.protection.exposure` on the sheet's shoe and
rules: the standard high/low edge sort (6 7 8 9 against the rest) seen on the first card and on the
first four cards, a flashed first card (the Player's first, its rank), and a burn card seen (its
rank; the card is not dealt). Per bet: its EV without information and the player's edge per
round dealt when that bet alone may be made whenever its EV given the signal is positive; and
for the whole paytable, the edge with the best bet on every signal.

>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.report.sheet import build_sheet
>>> sheet = protection_sheet(build_sheet(load_paytable("punto-banco"), date="2024-01-01"))
>>> [p.key for p in sheet.protection.procedures]
['sort_1', 'sort_4', 'flash_p1', 'burn']
>>> from exactodds.numbers import percent
>>> percent(sheet.protection.procedures[1].exposure.edge_per_round, 3)  # Jacobson: 20.928%
'20.928%'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from exactodds.numbers import exact, fixed, percent

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet
    from exactodds.deal.shoe import Shoe
    from exactodds.deal.tableau import Tableau
    from exactodds.protection.exposure import Exposure
    from exactodds.report.document import Block
    from exactodds.report.sheet import Sheet

__all__ = [
    "PROCEDURES",
    "SIGNALS",
    "SheetProtection",
    "check_protection_work",
    "counted_bets",
    "protection_blocks",
    "protection_csv_lines",
    "protection_sheet",
    "protection_sheets",
    "protection_xlsx",
]

HIGH = "6 7 8 9"
"""The standard sort's high group (the rest is low)."""

PROCEDURES: tuple[tuple[str, str, str], ...] = (
    ("sort_1", "Sort 6-9 / rest, 1st card seen", "bets before any card is dealt; turned shuffles"),
    ("sort_4", "Sort 6-9 / rest, 4 cards seen", "bets before any card is dealt; turned shuffles"),
    ("flash_p1", "Flashed first card", "deal face down, no card shown before bets close"),
    ("burn", "Burn card seen", "burn card face down"),
)
"""(key, column title, the procedure that closes the leak)."""

STATEMENT = (
    "A player sees the signal before betting and makes the bet with the highest EV given it, "
    "or no bet when none is positive. Edges are per round dealt; a sorted card's group is seen "
    "before the bet; a seen burn card is the rank of a card that is not dealt this round."
)


@dataclass(frozen=True)
class Procedure:
    """One procedure's analysis on the sheet's bets."""

    key: str
    title: str
    remedy: str
    exposure: Exposure


@dataclass(frozen=True)
class SheetProtection:
    """The game-protection section: one :class:`Procedure` per :data:`PROCEDURES`."""

    procedures: tuple[Procedure, ...]
    left_out: tuple[tuple[str, str, str], ...] = ()
    """(bet id, name, reason) of the bets the section leaves out: a fee, multipliers or a peek
    (:func:`~exactodds.bets.kinds.live_unhandled`), never counted as an ordinary bet."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, every figure exact (``"p/q"``)."""
        return {
            "note": STATEMENT,
            "procedures": [
                {
                    "key": p.key,
                    "procedure": p.exposure.procedure,
                    "remedy": p.remedy,
                    "edge_per_round": exact(p.exposure.edge_per_round),
                    "edge_per_bet": None
                    if p.exposure.edge_per_bet is None
                    else exact(p.exposure.edge_per_bet),
                    "bet_probability": exact(p.exposure.bet_probability),
                    "bets": [
                        {"id": b, "edge": exact(e)}
                        for b, e in zip(p.exposure.bet_ids, p.exposure.per_bet_edges, strict=True)
                    ],
                }
                for p in self.procedures
            ],
            "left_out": [{"bet": b, "name": n, "reason": r} for b, n, r in self.left_out],
        }


def protection_sheet(sheet: Sheet) -> Sheet:
    """``sheet`` with a game-protection section computed on its shoe, rules and bets."""
    from exactodds.bets.kinds import live_unhandled
    from exactodds.protection.exposure import analyse_flash, analyse_sort, parse_sort

    bets = [b.bet for b in sheet.bets]
    counted = counted_bets(bets)
    ids = {b.id for b in counted}
    left = tuple(
        (b.id, b.name, live_unhandled(b, "report --protection")) for b in bets if b.id not in ids
    )
    table = replace(sheet.paytable, bets=tuple(counted))
    shoe, tableau = sheet.shoe, sheet.tableau
    group = parse_sort(HIGH)
    results = (
        analyse_sort(table, group, 1, shoe, tableau),
        analyse_sort(table, group, 4, shoe, tableau),
        analyse_flash(table, "P1", shoe, tableau),
        analyse_flash(table, "burn", shoe, tableau),
    )
    procedures = tuple(
        Procedure(key, title, remedy, result)
        for (key, title, remedy), result in zip(PROCEDURES, results, strict=True)
    )
    return replace(sheet, protection=SheetProtection(procedures, left))


SIGNALS = 2 + 2**4 + 13 + 13
"""Signals the section counts bets on: the sort seen on one card and on four, a flashed first
card's rank, a burn card's rank (an upper bound on the card engine's runs)."""


SIGNAL_SECONDS = 0.03
"""CPU seconds of one signal of the section besides the card engine (its joint distribution and
every value-level bet's figures on it): ``report classic --protection``, 44 signals, 1.4 s."""


def counted_bets(bets: Sequence[Bet]) -> list[Bet]:
    """The bets the section counts: not those with a fee, multipliers or a peek, which it leaves
    out (:func:`~exactodds.bets.kinds.live_unhandled`) and so neither counts nor weighs."""
    from exactodds.bets.kinds import live_unhandled

    return [b for b in bets if not live_unhandled(b)]


def check_protection_work(bets: Sequence[Bet], shoe: Shoe, tableau: Tableau) -> None:
    """Refuse a protection section whose card-level bets, counted on each of its
    :data:`SIGNALS`, are over the card engine's budget
    (:func:`~exactodds.bets.budget.check_card_work`)."""
    from exactodds.bets.budget import check_card_work

    check_card_work(counted_bets(bets), shoe, tableau, SIGNALS)


def check_protections(games: Sequence[tuple[Sequence[Bet], Shoe, Tableau]]) -> None:
    """Refuse, before any of them, the protection sections of several paytables (``report
    --all --protection``) whose sum is over the CPU budget: per paytable, its card-level bets'
    counts and :data:`SIGNAL_SECONDS` on each signal (one paytable's section is checked by
    :func:`check_protection_work`, naming its costliest bet)."""
    from exactodds.bets.budget import card_work, check_seconds

    if len(games) < 2:
        return
    total = sum(
        SIGNALS * (sum(card_work(counted_bets(bets), shoe, tableau).values()) + SIGNAL_SECONDS)
        for bets, shoe, tableau in games
    )
    check_seconds(total, f"the protection sections of {len(games):,} paytables")


def protection_sheets(sheets: Sequence[Sheet]) -> list[Sheet]:
    """:func:`protection_sheet` of each sheet, each checked first against the card engine's
    budget (:func:`check_protection_work`)."""
    for s in sheets:
        check_protection_work([b.bet for b in s.bets], s.shoe, s.tableau)
    return [protection_sheet(s) for s in sheets]


def protection_blocks(sheet: Sheet) -> list[Block]:
    """The section as document blocks (Markdown, HTML, PDF), on sheets that have one."""
    from exactodds.report.document import Heading, Inline, Para, Strong, Table

    section = sheet.protection
    if section is None:
        return []
    procs = section.procedures
    first = procs[0].exposure
    rows = tuple(
        (
            f"{name} ({bet_id})",
            percent(first.full_evs[i], 4),
            *(percent(p.exposure.per_bet_edges[i], 4) for p in procs),
        )
        for i, (bet_id, name) in enumerate(zip(first.bet_ids, first.bet_names, strict=True))
    )
    total: tuple[Inline, ...] = (
        Strong("Best bet on every signal"),
        "",
        *(Strong(percent(p.exposure.edge_per_round, 4)) for p in procs),
    )
    blocks: list[Block] = [
        Heading(2, "Game protection", "protection"),
        Para(
            f"What a leak of information before the bet is worth, exactly, on "
            f"{sheet.shoe.describe()} with drawing rules {sheet.tableau.name}. {STATEMENT} "
            "Per bet: its EV without information, and the player's edge when only that bet may "
            "be made (0.0000% when the signal never makes it profitable); a bet with an offer "
            "is made when offered, and its figures here are per round dealt."
        ),
        Table(
            ("Bet", "EV without information", *(p.title for p in procs)),
            rows,
            "l" + "r" * (len(procs) + 1),
            total=total,
            caption="Player's edge per round dealt with the best strategy for each procedure.",
        ),
    ]
    leaks = [p for p in procs if p.exposure.edge_per_round > 0]
    if leaks:
        blocks.append(
            Para(
                "The game must enforce: "
                + "; ".join(
                    f"{p.title.lower()} ({percent(p.exposure.edge_per_round, 3)} per round "
                    f"dealt) — {p.remedy}"
                    for p in leaks
                )
                + ".",
                "flag",
            )
        )
    else:
        blocks.append(Para("None of these procedures gives a player a positive edge."))
    if section.left_out:
        blocks.append(
            Para(
                "Left out of this section: "
                + "; ".join(f"{name} ({bet_id}): {why}" for bet_id, name, why in section.left_out)
                + ".",
                "flag",
            )
        )
    if sheet.command is not None:
        from exactodds.report.document import Code

        blocks.append(Para(("Rerun: ", Code(sheet.command))))
    return blocks


def protection_csv_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    """CSV lines of kind ``protection`` (per procedure and bet: ``item`` = the procedure key,
    ``value`` = the edge as a decimal, ``exact`` = ``p/q``; a line without a bet for the best
    bet on every signal, ``note`` = the procedure that closes the leak)."""
    section = sheet.protection
    if section is None:
        return
    for p in section.procedures:
        e = p.exposure
        yield {
            "paytable": sheet.paytable.name,
            "kind": "protection",
            "item": p.key,
            "value": fixed(e.edge_per_round, 10),
            "exact": exact(e.edge_per_round),
            "note": f"{e.procedure}; best bet on every signal; remedy: {p.remedy}",
        }
        for bet_id, name, edge in zip(e.bet_ids, e.bet_names, e.per_bet_edges, strict=True):
            yield {
                "paytable": sheet.paytable.name,
                "bet_id": bet_id,
                "bet": name,
                "kind": "protection",
                "item": p.key,
                "value": fixed(edge, 10),
                "exact": exact(edge),
            }
    for bet_id, name, why in section.left_out:
        yield {
            "paytable": sheet.paytable.name,
            "bet_id": bet_id,
            "bet": name,
            "kind": "protection",
            "item": "left_out",
            "note": why,
        }


def protection_xlsx(w: Any, sheet: Sheet, number_format: str) -> None:
    """The section on its own worksheet (``w``: the XLSX writer of :mod:`exactodds.report.xlsx`):
    per bet and procedure the edge as a number in ``number_format`` with ``p/q`` beside it."""
    section = sheet.protection
    assert section is not None
    procs = section.procedures
    w.line("Game protection", bold=True)
    w.line(STATEMENT)
    w.row += 1
    header = ["Bet", "EV without information", "(exact)"]
    for p in procs:
        header += [p.title, "(exact)"]
    w.line(*header, bold=True)
    first = procs[0].exposure
    for i, name in enumerate(first.bet_names):
        w.line(name)
        w.exact(2, first.full_evs[i], number_format)
        for j, p in enumerate(procs):
            w.exact(4 + 2 * j, p.exposure.per_bet_edges[i], number_format)
    w.line("Best bet on every signal", bold=True)
    for j, p in enumerate(procs):
        w.exact(4 + 2 * j, p.exposure.edge_per_round, number_format)
    w.row += 1
    w.line("Procedure", "Closes the leak", bold=True)
    for p in procs:
        w.line(p.exposure.procedure, p.remedy)
    if section.left_out:
        w.row += 1
        w.line("Left out", "Why", bold=True)
        for _, name, why in section.left_out:
            w.line(name, why)
    w.widths(30, 14, 30, *([16, 30] * len(procs)))
