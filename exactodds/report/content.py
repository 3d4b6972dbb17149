"""The math sheet's content: a :class:`~exactodds.report.document.Document` of headings,
paragraphs and tables that Markdown, HTML and PDF render.

Numbers are formatted here and in :mod:`exactodds.report.figures`, once, from the exact figures
(see :mod:`exactodds.numbers`), so the Markdown and HTML sheets show the same digits.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from exactodds.analysis.confidence import LEVELS, ROUNDS, confidence_ranges, level_label
from exactodds.bets.meters import meter_note
from exactodds.bets.payout import Notation, format_number
from exactodds.bets.paytable import Bet, Occurrence
from exactodds.bets.streak import STREAK_LEGEND
from exactodds.figures.worked_examples import EXAMPLE_RULE, example_stake
from exactodds.numbers import exact, fixed, grouped, percent, signed
from exactodds.report.charts import return_bars
from exactodds.report.compliance_report import compliance_blocks
from exactodds.report.document import (
    Block,
    Chart,
    Code,
    Document,
    Field,
    Heading,
    Inline,
    Para,
    PayoutField,
    Strong,
    Table,
)
from exactodds.report.figures import FLAG, LIVE_FIGURES, PRECISION, Kind, View, in_view
from exactodds.report.game_sections import game_blocks, shoe_blocks, tableau_blocks
from exactodds.report.live import (
    fee_rows,
    fee_summary_blocks,
    live_bet_blocks,
    return_outcomes,
    return_scope,
    summary_label_mark,
)
from exactodds.report.live_tables import multipliers_blocks
from exactodds.report.montecarlo import monte_carlo_blocks
from exactodds.report.progressive import progressive_blocks
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.report.streak import streak_blocks, streak_paytable_rows, streak_summary_rows

__all__ = ["document"]


def _pct(x: Fraction | None) -> str:
    return "—" if x is None else percent(x, PRECISION["percent"])


def _money(stake: Fraction) -> str:
    """A stake in money form (``0.10``, ``2.00``) when it is a whole number of cents."""
    return fixed(stake, 2) if (stake * 100).denominator == 1 else format_number(stake)


def _bet_label(bet: Bet) -> tuple[str | Code | Strong, ...]:
    return (bet.name, " (", Code(bet.id), ")")


def _field(bet: Bet, figure: str, content: str | Strong, row: int | None = None) -> Field:
    return Field(bet.id, figure, content, row)


def _exact(bet: Bet, figure: str, value: Fraction | None, row: int | None = None) -> Field:
    return Field(bet.id, figure, "—" if value is None else exact(value), row, "exact")


def _shown(sheet: Sheet, b: BetSheet, view: View) -> list[tuple[str, Inline]]:
    """The figures of ``view`` for bet ``b``: (label, what the sheet shows), each a
    :class:`Field` where the designer recomputes it."""
    out: list[tuple[str, Inline]] = []
    for figure in in_view(view):
        if not figure.present(b) and view is not View.SUMMARY:
            continue
        if view is View.EXACT:
            label = figure.exact_label or figure.label
            out.append((label, Field(b.bet.id, figure.key, figure.exact_text(b), None, "exact")))
            continue
        content = figure.shown(b, sheet.notation, in_summary=view is View.SUMMARY)
        label = figure.short or figure.label if view is View.SUMMARY else figure.label
        if view is View.FIGURES and content == "":
            continue  # a flag that is not set has no row
        hooked = figure.recomputed or figure.key in LIVE_FIGURES  # the designer fills it
        out.append((label, _field(b.bet, figure.key, content) if hooked else content))
    return out


def _summary(sheet: Sheet) -> list[Block]:
    figures = in_view(View.SUMMARY)
    rows = tuple(
        (
            _bet_label(b.bet) + summary_label_mark(b),
            *(content for _, content in _shown(sheet, b, View.SUMMARY)),
        )
        for b in sheet.bets
    ) + tuple(streak_summary_rows(sheet))
    blocks: list[Block] = [
        Heading(2, "Summary", "summary"),
        Table(
            ("Bet", *(f.short or f.label for f in figures)),
            rows,
            "l" + "".join("l" if f.kind is Kind.FLAG else "r" for f in figures),
            caption="House edge counts pushes as bets; 'per resolved bet' leaves pushes out. "
            "Standard deviation of the net result per unit stake."
            + (f" {STREAK_LEGEND}" if sheet.streaks else ""),
        ),
    ]
    blocks += fee_summary_blocks(sheet)
    note = meter_note([b.bet for b in sheet.bets])
    if note:
        blocks.append(Para(note))
    favourable = [b.bet for b in sheet.bets if b.figures.player_favourable]
    if favourable:
        names = Field(None, "favourable_bets", ", ".join(f"{b.name} ({b.id})" for b in favourable))
        blocks.append(
            Para((Strong(f"{FLAG}:"), " ", names, " — expected value above zero."), "flag")
        )
    return blocks


def _compliance(sheet: Sheet) -> list[Block]:
    """Checks of every bet against the profiles of ``--against`` (only on such sheets)."""
    if sheet.compliance is None:
        return []
    shoe_and_rules = f"{sheet.shoe.describe()}, drawing rules {sheet.tableau.name}"
    return [
        Heading(2, "Compliance", "compliance"),
        *compliance_blocks(sheet.compliance, shoe_and_rules),
    ]


_PAYS_HEADERS = {
    Notation.BOTH: ("Pays", "To 1", "For 1"),
    Notation.TO: ("Pays (to 1)",),
    Notation.FOR: ("Pays (for 1)",),
}
_PAYS_CAPTIONS = {
    Notation.BOTH: "'To 1' is the net win per unit staked; 'for 1' the return, stake included.",
    Notation.TO: "Payouts as the net win per unit staked ('a to 1').",
    Notation.FOR: "Payouts as the return per unit staked, stake included ('a for 1').",
}


def _paytable(sheet: Sheet) -> list[Block]:
    rows: list[tuple[Inline, ...]] = []
    notes: list[Block] = []
    for b in sheet.bets:
        bet = b.bet
        for i, row in enumerate(bet.rows):
            pays = (
                (
                    _field(bet, "pays", row.pays.stated(Notation.BOTH), i),
                    _field(bet, "to_one", row.pays.to_one(), i),
                    _field(bet, "for_one", row.pays.for_one(), i),
                )
                if sheet.notation is Notation.BOTH
                else (_field(bet, "pays", row.pays.stated(sheet.notation), i),)
            )
            rows.append((_bet_label(bet) if i == 0 else "", row.event, Code(str(row.when)), *pays))
        if bet.max_round is not None:
            notes.append(
                Para((bet.name, ": closed after round ", str(bet.max_round), " of a shoe."))
            )
        if bet.offer is not None and b.figures.offer_probability is not None:
            p = b.figures.offer_probability
            notes.append(
                Para(
                    (
                        bet.name,
                        ": offered after the first four cards only when ",
                        Code(str(bet.offer)),
                        f"; probability of the offer {percent(p, 4)} ({exact(p)}). "
                        "Its figures are per offered round.",
                    )
                )
            )
        if bet.rounding is not None:
            notes.append(
                Para(
                    f"{bet.name}: the return (stake included) is rounded {bet.rounding.mode.value} "
                    f"to a multiple of {format_number(bet.rounding.step)}, so its RTP depends on "
                    "the stake (see its RTP-by-stake table)."
                )
            )
    streak_rows, streak_notes = streak_paytable_rows(sheet)
    rows += streak_rows
    notes += streak_notes
    return [
        Heading(2, "Paytable", "paytable"),
        Para("Rows are tried in order; the first whose condition holds settles the bet."),
        Table(
            ("Bet", "Event", "When", *_PAYS_HEADERS[sheet.notation]),
            tuple(rows),
            "lll" + "r" * len(_PAYS_HEADERS[sheet.notation]),
            caption=_PAYS_CAPTIONS[sheet.notation],
        ),
        *notes,
    ]


def _bet(sheet: Sheet, b: BetSheet) -> list[Block]:
    f = b.figures
    bet = b.bet
    p, r = PRECISION["probability"], PRECISION["return"]
    blocks: list[Block] = [Heading(3, f"{bet.name} ({bet.id})", f"bet-{bet.id}")]
    if bet.description:
        blocks.append(Para(bet.description))
    if f.player_favourable:
        ev = _field(bet, "ev", signed(f.ev, r))
        blocks.append(Para((Strong(f"{FLAG}:"), " EV = ", ev, " per unit staked."), "flag"))
    rows = tuple(
        (
            f"{row.event} ({note})" if note else row.event,
            PayoutField(
                bet.id,
                k,
                row.pays.stated(sheet.notation),
                f"Payout of {bet.name}, row {k + 1}: {row.event}",
            ),
            grouped(row.combinations),
            fixed(row.probability, p),
            _field(bet, "return", signed(row.ret, r), k),
        )
        for k, (row, note) in enumerate(zip(f.rows, b.notes, strict=True))
    )
    total = _field(bet, "ev", signed(f.ev, r))
    blocks.append(
        Table(
            ("Event", "Pays", "Combinations", "Probability", "Return"),
            rows + tuple(fee_rows(b)),
            "llrrr",
            total=(Strong("Total"), "", grouped(f.total), fixed(1, p), total),
        )
    )
    never = [row.event for row, note in zip(f.rows, b.notes, strict=True) if note]
    if never:
        blocks.append(Para(_never_note(sheet, never, b.notes), "note"))
    blocks += live_bet_blocks(b)
    blocks += _examples(b)
    summary: list[tuple[Inline, ...]] = list(_shown(sheet, b, View.FIGURES))
    blocks.append(Table(("Figure", "Value"), tuple(summary), "lr"))
    blocks.append(_confidence(b))
    blocks += progressive_blocks(b)
    if b.rtp_by_stake and b.unrounded_rtp is not None:
        base = b.unrounded_rtp
        blocks.append(
            Table(
                ("Stake", "RTP", "Difference", "Equals unrounded"),
                tuple(
                    (
                        _money(s.stake),
                        _field(bet, "rtp_by_stake.rtp", _pct(s.rtp), i),
                        _field(
                            bet,
                            "rtp_by_stake.difference",
                            f"{signed((s.rtp - base) * 100, PRECISION['percent'])} pp",
                            i,
                        ),
                        _field(
                            bet,
                            "rtp_by_stake.equals_unrounded",
                            "yes (exact)" if s.equals_unrounded else "no",
                            i,
                        ),
                    )
                    for i, s in enumerate(b.rtp_by_stake)
                ),
                "rrrl",
                caption=(
                    "RTP by stake with rounding; unrounded RTP ",
                    _field(bet, "unrounded_rtp", _pct(base)),
                    ". Difference in percentage points.",
                ),
            )
        )
    bars = return_bars(return_outcomes(b))
    title = f"Return distribution of {bet.name} (net result per unit{return_scope(b)})"
    blocks.append(Chart(title, tuple(bars), key="return"))
    return blocks


def _examples(b: BetSheet) -> list[Block]:
    """The worked examples of a bet: per row one round that settles on it (``—`` where the row
    never occurs) and what a stake of 100 (a progressive bet's fixed wager) returns."""
    if not b.examples:
        return []
    stake = format_number(example_stake(b.bet))
    assumes = any(ex is not None and ex.assumes for ex in b.examples)
    rows = tuple(
        (row.event, "—", "—", *(("—",) if assumes else ()))
        if ex is None
        else (
            row.event,
            Code(ex.cards),
            _field(b.bet, "example.returns", format_number(ex.returns), k),
            *((ex.assumes or "—",) if assumes else ()),
        )
        for k, (row, ex) in enumerate(zip(b.bet.rows, b.examples, strict=True))
    )
    return [
        Table(
            ("Event", "Example round", f"{stake} returns", *(("Assumes",) if assumes else ())),
            rows,
            "llr" + ("l" if assumes else ""),
            caption=f"Worked examples: a round that settles on each row, and what a stake of "
            f"{stake} returns (stake included; 0 when lost). Chosen as the Method says.",
        )
    ]


def _confidence(b: BetSheet) -> Table:
    """The RTP range over N rounds at each confidence level (normal approximation): one row per
    number of rounds, one column per level."""
    ranges = _ranges(b.figures.rtp, b.figures.variance, PRECISION["percent"])
    rows: tuple[tuple[Inline, ...], ...] = tuple(
        (
            grouped(n),
            *(
                _field(b.bet, "confidence", text, i * len(LEVELS) + j)
                for j, text in enumerate(ranges[i])
            ),
        )
        for i, n in enumerate(ROUNDS)
    )
    return Table(
        ("Rounds", *(level_label(level) for level in LEVELS)),
        rows,
        "r" * (1 + len(LEVELS)),
        caption="RTP range over N rounds at each confidence level: RTP ± z·SD/√N (normal "
        "approximation, see Method).",
    )


@lru_cache(maxsize=256)  # bets of equal figures (a paytable may repeat one) share them
def _ranges(rtp: Fraction, variance: Fraction, places: int) -> tuple[tuple[str, ...], ...]:
    """Per number of rounds (:data:`ROUNDS`), the range at each level, as percentages."""
    return tuple(
        tuple(
            f"{r.low_percent(places)} to {r.high_percent(places)}"
            for r in confidence_ranges(rtp, variance, [n])
        )
        for n in ROUNDS
    )


def _never_note(sheet: Sheet, events: list[str], notes: tuple[str, ...]) -> str:
    """Why rows show 0 combinations: the shoe holds no such round (or no shoe does)."""
    names = ", ".join(events)
    if Occurrence.NOT_WITH_THIS_SHOE.value in notes:
        return (
            f"Never occurs with this shoe ({sheet.shoe.describe()}): {names}. The shoe holds too "
            "few cards of the kinds such a round needs, so these rows have 0 combinations here; "
            "on a full 8-deck shoe they occur."
        )
    return (
        f"Never occurs, on any shoe, with the drawing rules {sheet.tableau.name}: {names}. "
        "Earlier rows take every round it names, or it names an impossible round."
    )


def _method(sheet: Sheet) -> list[Block]:
    n = sheet.shoe.size
    return [
        Heading(2, "Method", "method"),
        Para(
            "Complete enumeration. Every round is counted as an ordered sequence of six cards "
            "drawn without replacement from the shoe (cards five and six may go unused), so all "
            "sequences are equally likely and every bet on this sheet shares one universe of "
            f"{n}·{n - 1}·{n - 2}·{n - 3}·{n - 4}·{n - 5} = {grouped(sheet.universe)} sequences."
        ),
        Para(
            "Each sequence is dealt by the drawing rules above and settled by the first matching "
            "paytable row. Counts are integers and every figure is an exact fraction of the "
            "universe; decimals are rounded only for display (probabilities and returns to "
            f"{PRECISION['probability']} places, percentages to {PRECISION['percent']}). The exact "
            "values are in the appendix."
        ),
        Para(EXAMPLE_RULE),
        Para(
            "Confidence ranges and volatility use the normal approximation: the average return "
            "of N independent rounds lies within RTP ± z·SD/√N with probability about the "
            "confidence level, where SD is the exact standard deviation of one round's net "
            "result per unit stake and z = 1.6449, 1.9600, 2.5758 for 90%, 95%, 99% (two-sided). "
            "The volatility index is VI = z·SD with the 90% z. The approximation needs N large "
            "against 1 / P(largest win); a range reaching below 0% or above the largest return "
            "means N is too small for it. Bounds are computed from the exact RTP and variance "
            "with 40-digit z-values in integer arithmetic, so every printed digit is correct."
        ),
    ]


def _appendix(sheet: Sheet) -> list[Block]:
    blocks: list[Block] = [Heading(2, "Appendix: exact fractions", "appendix")]
    for b in sheet.bets:
        f = b.figures
        bet = b.bet
        blocks.append(Heading(3, f"{bet.name} ({bet.id}) — exact", f"exact-{bet.id}"))
        figures: list[tuple[Inline, ...]] = list(_shown(sheet, b, View.EXACT))
        if b.unrounded_rtp is not None:
            figures.extend(
                (
                    f"RTP at stake {_money(s.stake)}",
                    _exact(bet, "rtp_by_stake.rtp", s.rtp, i),
                )
                for i, s in enumerate(b.rtp_by_stake)
            )
        blocks.append(Table(("Figure", "Exact value"), tuple(figures), "ll", css="exact"))
        blocks.append(
            Table(
                ("Event", "Probability", "Return"),
                tuple(
                    (row.event, exact(row.probability), _exact(bet, "return", row.ret, k))
                    for k, row in enumerate(f.rows)
                ),
                "lll",
                css="exact",
            )
        )
    return blocks


def _protection(sheet: Sheet) -> list[Block]:
    """The optional game-protection section (``report --protection``)."""
    if sheet.protection is None:
        return []
    from exactodds.report.protection import protection_blocks

    return protection_blocks(sheet)


def _session(sheet: Sheet) -> list[Block]:
    """The optional session section (``report --session N``)."""
    if sheet.session is None:
        return []
    from exactodds.report.session import session_blocks

    return session_blocks(sheet)


def _inputs(sheet: Sheet) -> list[Block]:
    rows = tuple((i.role, Code(i.path), Code(i.sha256)) for i in sheet.inputs)
    blocks: list[Block] = [Heading(2, "Inputs and provenance", "inputs")]
    if rows:
        blocks.append(Table(("Input", "File", "SHA-256"), rows, "lll", css="exact"))
    facts: list[tuple[Inline, ...]] = [
        ("Software", sheet.software),
        ("Shoe", sheet.shoe.describe()),
        ("Drawing rules", sheet.tableau.name),
        ("Date", sheet.date),
    ]
    if sheet.command is not None:
        facts.append(("Command", Code(sheet.command)))
    blocks.append(
        Table(
            ("Item", "Value"),
            tuple(facts),
            "ll",
            caption="The command recomputes this sheet from any folder (bundled paytables by "
            "name, files by the path shown); the date is --date or today.",
        )
    )
    return blocks


def document(sheet: Sheet) -> Document:
    """The full math sheet as a document.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> from exactodds.report.sheet import build_sheet
    >>> doc = document(build_sheet(load_paytable(default_paytable()), date="2024-01-01"))
    >>> doc.title, doc.date, doc.blocks[0].rows[0][0]
    ('Classic (commission) — math sheet', '2024-01-01', 'Paytable')
    >>> [b.text for b in doc.blocks if isinstance(b, Heading) and b.level == 2][:3]
    ['Summary', 'Game', 'Shoe']
    """
    t = sheet.paytable
    head: tuple[tuple[Inline, ...], ...] = (
        ("Paytable", (t.name, " — ", Code(sheet.file)) if sheet.file else t.name),
        ("Shoe", sheet.shoe.describe()),
        ("Drawing rules", sheet.tableau.name),
        *((("Differs from the paytable", " ".join(sheet.overrides)),) if sheet.overrides else ()),
        ("Bets", str(len(sheet.bets) + len(sheet.streaks))),
        ("Universe", f"{grouped(sheet.universe)} ordered six-card sequences"),
        ("Software", sheet.software),
        ("Date", sheet.date),
    )
    if sheet.monte_carlo is not None:
        v = sheet.monte_carlo
        head += (
            (
                "Monte Carlo check",
                f"{grouped(v.rounds)} rounds, seed {v.seed} "
                "(a statistical check; see Monte Carlo verification)",
            ),
        )
    blocks: list[Block] = [Table(("Item", "Value"), head, "ll")]
    blocks += _summary(sheet)
    blocks += _compliance(sheet)
    blocks += _protection(sheet)
    blocks += _session(sheet)
    blocks += game_blocks(sheet)
    blocks += shoe_blocks(sheet)
    blocks += tableau_blocks(sheet)
    blocks += _paytable(sheet)
    blocks += multipliers_blocks(sheet)
    if sheet.bets:  # a sheet of streak bets only has their section alone
        blocks += [
            Heading(2, "Bets", "bets"),
            Para(
                "Per bet: each row's combinations and probability, and its return (probability "
                "× net result per unit staked); the total return is the expected value (EV)."
            ),
        ]
    for b in sheet.bets:
        blocks += _bet(sheet, b)
    blocks += streak_blocks(sheet)
    blocks += _method(sheet)
    blocks += _appendix(sheet)
    blocks += monte_carlo_blocks(sheet)
    blocks += _inputs(sheet)
    title = f"{t.name} — math sheet"
    if sheet.overrides:  # the title names the shoe and rules actually used
        title += f" — {sheet.shoe.describe()}, drawing rules {sheet.tableau.name}"
    return Document(
        title,
        tuple(blocks),
        sheet.date,
        sheet.version,
        _source(sheet),
    )


def _source(sheet: Sheet) -> str:
    """The paytable file and its SHA-256, for the foot of every printed page."""
    sha = sheet.paytable.sha256
    if sha is None:
        return ""
    return f"{Path(sheet.file).name or sheet.paytable.name} SHA-256 {sha}"
