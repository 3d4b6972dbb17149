"""CSV rendering of math sheets: one table, one line per figure, loadable with :mod:`csv`.

Columns: ``paytable, bet_id, bet, kind, item, pays, combinations, probability, return, value,
exact, note``. ``kind`` says what a line is:

- ``row``: a paytable row (``item`` is the event); probability and return as decimals, ``exact``
  holds ``probability;return`` as ``p/q`` fractions; ``note`` says ``never occurs with this
  shoe`` for a row the shoe cannot settle (0 combinations);
- ``total``: the bet's total row (combinations = the universe, or the offered rounds for a bet
  with an offer, whose ``note`` then says ``per offered round``; return = EV);
- ``offer``: for a bet with an offer, after its total: ``item`` = the offer (a condition on the
  first four cards), ``combinations`` = the offered rounds, ``probability`` and ``exact`` = the
  probability of the offer, ``note`` = ``figures per offered round``;
- ``figure``: a bet figure (``item`` = its key in :data:`~exactodds.report.figures.BET_FIGURES`:
  house_edge, rtp, …) in ``value`` (decimal) and ``exact``;
- ``confidence``: the RTP range over N rounds (normal approximation), two lines per number of
  rounds and level: ``item`` = ``low`` or ``high``, ``combinations`` = the rounds N,
  ``probability`` = the confidence level, ``value`` = the bound (correctly rounded decimal; the
  figure line ``volatility_index`` likewise);
- ``compliance`` (with ``--against``): first the verdict (``item`` = ``verdict``, ``value`` =
  ``pass``, ``fail`` or ``incomplete`` when a check is ``n/a``, ``note`` = the bets not
  judged), then per profile rule a line without a bet (``item`` =
  ``PROFILE RULE``, ``value`` = the limit as printed, ``exact`` = the limit, ``note`` = its
  source), then per bet a check line (``value`` = ``pass``, ``fail`` or ``n/a``, ``exact`` =
  ``value;limit`` as ``p/q`` or notation words, ``note`` = the note);
- ``stake``: RTP at a stake (``item`` = the stake) for a bet with rounding; ``note`` says
  ``equals unrounded`` where it equals the unrounded RTP exactly;
- ``example``: a row's worked example, one line per paytable row after all the bets' figures
  (``item`` = the event, ``pays``; ``value`` = a round in ``exactodds settle`` notation that
  settles on the row; ``return`` = what a stake of 100 returns on it, stake included, as an
  exact decimal, and ``exact`` the same as ``p/q``); for a row that never occurs ``value`` and
  ``return`` are empty and ``note`` says ``never occurs with this shoe``;
- live-casino bets (:func:`~exactodds.report.live.live_csv_lines`): ``multiplier`` lines without
  a bet (each multiplier table the sheet uses), and per bet with a fee, multipliers or a peek a
  ``top_award`` line, ``product`` lines (per multiplied row and product), ``peek`` figures and
  ``peek_cell`` lines (the decision table);
- ``meta``: sheet information (software, date, shoe, rules, universe, payout notation, input
  files with SHA-256, each way the sheet differs from its paytable, the command that recomputes
  it);
- with a Monte Carlo section (``exactodds report --monte-carlo-rounds N``) also ``meta`` lines
  ``verification rounds``, ``verification seed``, ``verification note``, and per bet:
  ``verify_row`` (``item`` = event; ``probability`` = exact, ``value`` = observed frequency,
  ``combinations`` = observed count, ``exact`` = ``probability;observed frequency`` as ``p/q``,
  ``note`` = ``z=…; interval_99=lo..hi`` of the count), ``verify_return`` (``return`` = exact
  EV, ``value`` = observed mean, ``exact`` = both as ``p/q``, ``note`` = z and the interval of
  the mean) and ``verify_verdict`` (``value`` = ``pass`` or ``outside``, ``note`` = the verdict);
- with a game-protection section (``exactodds report --protection``) lines of kind
  ``protection``: per procedure (``item``: ``sort_1``, ``sort_4``, ``flash_p1``, ``burn``) one
  line without a bet (the edge with the best bet on every signal, per round dealt, in ``value``
  and ``exact``; ``note`` names the procedure and what closes the leak), then one per bet (the
  edge when only that bet may be made);
- with a session section (``exactodds report --session N``) lines of kind ``session``: per bet
  and figure (``item`` = its key in ``exactodds session``'s JSON, nested keys joined by ``.``)
  the value as a decimal and ``exact`` as ``p/q``.

Text cells that a spreadsheet would take for a formula (a name or event starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return) are written with a leading ``'``; numbers
(integers, decimals, ``p/q`` fractions) are written as they are (:func:`exactodds.escape.csv_cell`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import chain

from exactodds.analysis.confidence import confidence_ranges
from exactodds.bets.offers import PER_OFFERED_ROUND
from exactodds.bets.payout import format_number
from exactodds.escape import csv_cell
from exactodds.numbers import exact, fixed
from exactodds.report.figures import PRECISION, View, in_view
from exactodds.report.live import live_csv_lines
from exactodds.report.live_tables import multiplier_csv_lines
from exactodds.report.montecarlo import STATEMENT, checks_outside, verdict_line
from exactodds.report.ownership import MARKER
from exactodds.report.sheet import Sheet
from exactodds.report.streak import streak_csv

__all__ = ["COLUMNS", "render_csv"]

COLUMNS = (
    "paytable",
    "bet_id",
    "bet",
    "kind",
    "item",
    "pays",
    "combinations",
    "probability",
    "return",
    "value",
    "exact",
    "note",
)


def _dec(x: Fraction) -> str:
    return fixed(x, PRECISION["probability"])


def _lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    name = sheet.paytable.name
    meta = [
        (MARKER, f"generated by {sheet.software} (exactodds report); do not edit", ""),
        ("software", sheet.software, ""),
        ("date", sheet.date, ""),
        ("shoe", sheet.shoe.describe(), str(sheet.shoe.size)),
        ("rules", sheet.tableau.name, ""),
        ("universe", str(sheet.universe), str(sheet.universe)),
        ("notation", sheet.notation.value, ""),
    ]
    meta += [(f"input {i.role}", i.path, i.sha256) for i in sheet.inputs]
    meta += [("differs from the paytable", line, "") for line in sheet.overrides]
    if sheet.command is not None:
        meta.append(("command", sheet.command, ""))
    if sheet.monte_carlo is not None:
        meta += [
            ("verification rounds", str(sheet.monte_carlo.rounds), ""),
            ("verification seed", str(sheet.monte_carlo.seed), ""),
            ("verification note", STATEMENT, ""),
        ]
    for item, value, ex in meta:
        yield {"paytable": name, "kind": "meta", "item": item, "value": value, "exact": ex}
    yield from multiplier_csv_lines(sheet)
    for b in sheet.bets:
        f = b.figures
        base = {"paytable": name, "bet_id": b.bet.id, "bet": b.bet.name}
        for row, note in zip(f.rows, b.notes, strict=True):
            yield base | {
                "kind": "row",
                "item": row.event,
                "pays": row.pays.stated(sheet.notation),
                "combinations": str(row.combinations),
                "probability": _dec(row.probability),
                "return": _dec(row.ret),
                "exact": f"{exact(row.probability)};{exact(row.ret)}",
                "note": note,
            }
        offered = b.bet.offer is not None
        yield base | {
            "kind": "total",
            "item": "Total",
            "combinations": str(f.total),
            "probability": _dec(Fraction(1)),
            "return": _dec(f.ev),
            "exact": f"1/1;{exact(f.ev)}",
            "note": PER_OFFERED_ROUND if offered else "",
        }
        if offered and f.offer_probability is not None:
            yield base | {
                "kind": "offer",
                "item": str(b.bet.offer),
                "combinations": str(f.total),
                "probability": _dec(f.offer_probability),
                "exact": exact(f.offer_probability),
                "note": f"figures {PER_OFFERED_ROUND}",
            }
        for figure in in_view(View.CSV):
            if figure.present(b):
                yield base | {"kind": "figure", "item": figure.key, **figure.csv(b)}
        for s in b.rtp_by_stake:
            yield base | {
                "kind": "stake",
                "item": format_number(s.stake),
                "value": _dec(s.rtp),
                "exact": exact(s.rtp),
                "note": "equals unrounded" if s.equals_unrounded else "",
            }
        yield from live_csv_lines(b, base)


def _example_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    for b in sheet.bets:
        base = {"paytable": sheet.paytable.name, "bet_id": b.bet.id, "bet": b.bet.name}
        for row, ex, note in zip(b.bet.rows, b.examples, b.notes, strict=False):
            line = base | {
                "kind": "example",
                "item": row.event,
                "pays": row.pays.stated(sheet.notation),
            }
            if ex is None:
                yield line | {"note": note}
            else:
                yield line | {
                    "value": ex.cards,
                    "return": format_number(ex.returns),
                    "exact": exact(ex.returns),
                }


def _confidence_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    places = PRECISION["probability"]
    for b in sheet.bets:
        f = b.figures
        base = {"paytable": sheet.paytable.name, "bet_id": b.bet.id, "bet": b.bet.name}
        for r in confidence_ranges(f.rtp, f.variance):
            for item, bound in (("low", r.low(places)), ("high", r.high(places))):
                yield base | {
                    "kind": "confidence",
                    "item": item,
                    "combinations": str(r.rounds),
                    "probability": _dec(r.level),
                    "value": bound,
                }


def _compliance_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    c = sheet.compliance
    if c is None:
        return
    name = sheet.paytable.name
    unjudged = ", ".join(dict.fromkeys(k.bet for k in c.unjudged()))
    yield {
        "paytable": name,
        "kind": "compliance",
        "item": "verdict",
        "value": c.verdict.value,
        "note": f"not judged (n/a): {unjudged}" if unjudged else "",
    }
    for profile in c.profiles:
        for rule in profile.rules:
            limit = rule.limit
            yield {
                "paytable": name,
                "kind": "compliance",
                "item": f"{profile.id} {rule.kind.value}",
                "value": rule.limit_text,
                "exact": exact(limit) if isinstance(limit, Fraction) else str(limit),
                "note": rule.source or profile.source,
            }
            for k in c.checks:
                if k.profile != profile.id or k.rule is not rule.kind:
                    continue
                data = k.to_json()
                yield {
                    "paytable": name,
                    "bet_id": k.bet,
                    "bet": k.bet_name,
                    "kind": "compliance",
                    "item": f"{profile.id} {rule.kind.value}",
                    "value": k.verdict.value,
                    "exact": f"{data['value']};{data['limit']}",
                    "note": k.note,
                }


def _monte_carlo_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    check = sheet.monte_carlo
    if check is None:
        return
    for i, (b, c) in enumerate(zip(sheet.bets, check.bets, strict=True)):
        base = {"paytable": sheet.paytable.name, "bet_id": b.bet.id, "bet": b.bet.name}
        for row, k in zip(b.figures.rows, c.classes, strict=True):
            freq = Fraction(k.observed, k.rounds)
            lo, hi = k.interval
            yield base | {
                "kind": "verify_row",
                "item": row.event,
                "pays": row.pays.stated(sheet.notation),
                "combinations": str(k.observed),
                "probability": _dec(k.probability),
                "value": _dec(freq),
                "exact": f"{exact(k.probability)};{exact(freq)}",
                "note": f"z={k.z:+.4f}; interval_99={lo:.2f}..{hi:.2f}",
            }
        lo, hi = c.interval
        yield base | {
            "kind": "verify_return",
            "item": "return",
            "return": _dec(c.ev),
            "value": _dec(c.observed_return),
            "exact": f"{exact(c.ev)};{exact(c.observed_return)}",
            "note": f"z={c.z:+.4f}; interval_99={lo:.8f}..{hi:.8f}",
        }
        yield base | {
            "kind": "verify_verdict",
            "item": "verdict",
            "value": "outside" if checks_outside(sheet, i) else "pass",
            "note": verdict_line(sheet, i),
        }


def _protection_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    if sheet.protection is None:
        return iter(())
    from exactodds.report.protection import protection_csv_lines

    return protection_csv_lines(sheet)


def _session_lines(sheet: Sheet) -> Iterator[dict[str, str]]:
    if sheet.session is None:
        return iter(())
    from exactodds.report.session import session_csv_lines

    return session_csv_lines(sheet)


def render_csv(sheets: Sequence[Sheet]) -> str:
    """All sheets as one CSV text with a header line (``\\r\\n`` line ends, as :mod:`csv`);
    every cell passes :func:`~exactodds.escape.csv_cell`."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, restval="")
    writer.writeheader()
    for sheet in sheets:
        lines = chain(
            _lines(sheet),
            _confidence_lines(sheet),
            _compliance_lines(sheet),
            _example_lines(sheet),
            _monte_carlo_lines(sheet),
            _protection_lines(sheet),
            _session_lines(sheet),
            streak_csv(sheet),
        )
        for line in lines:
            writer.writerow({key: csv_cell(cell) for key, cell in line.items()})
    return buf.getvalue()
