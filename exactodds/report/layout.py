"""The sheet as a document of headings, paragraphs and tables, shared by Markdown and HTML.

Numbers are formatted here, once, from the exact figures (see :mod:`exactodds.report.numbers`),
so the Markdown and HTML sheets show the same digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.payout import Payout, format_number
from exactodds.paytable import Bet
from exactodds.report.numbers import exact, fixed, grouped, one_in, percent, signed, sqrt_fixed
from exactodds.report.sheet import BetSheet, Sheet
from exactodds.shoe import RANKS, SUITS

__all__ = [
    "PRECISION",
    "Block",
    "Code",
    "Document",
    "Heading",
    "Inline",
    "Para",
    "Strong",
    "Table",
    "document",
]

PRECISION = {"probability": 10, "return": 10, "percent": 4, "std_dev": 4}
"""Decimal places shown for probabilities, returns, percentages and standard deviations."""

FLAG = "PLAYER-FAVOURABLE"


@dataclass(frozen=True)
class Code:
    """Inline code (bet ids, file names, hashes)."""

    text: str


@dataclass(frozen=True)
class Strong:
    """Inline strong emphasis."""

    text: str


Inline = str | Code | Strong | tuple["str | Code | Strong", ...]


@dataclass(frozen=True)
class Heading:
    """A section heading; ``anchor`` is its stable id in HTML."""

    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class Para:
    """A paragraph; ``style`` is ``""``, ``"flag"`` (a warning) or ``"note"``."""

    text: Inline
    style: str = ""


@dataclass(frozen=True)
class Table:
    """A table; ``align`` has one ``l`` or ``r`` per column; ``total`` is an emphasised last row."""

    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    align: str
    total: tuple[Inline, ...] | None = None
    caption: str = ""
    css: str = ""


Block = Heading | Para | Table


@dataclass(frozen=True)
class Document:
    """A titled list of blocks, with the date and version the renderers stamp on it."""

    title: str
    blocks: tuple[Block, ...]
    date: str
    version: str


def _pct(x: Fraction | None) -> str:
    return "—" if x is None else percent(x, PRECISION["percent"])


def _money(stake: Fraction) -> str:
    """A stake in money form (``0.10``, ``2.00``) when it is a whole number of cents."""
    return fixed(stake, 2) if (stake * 100).denominator == 1 else format_number(stake)


def _bet_label(bet: Bet) -> tuple[str | Code | Strong, ...]:
    return (bet.name, " (", Code(bet.id), ")")


def _largest(b: BetSheet) -> tuple[str, str]:
    f = b.figures
    if f.largest_win <= 0:
        return "—", "—"
    return Payout(f.largest_win).to_one(), one_in(f.largest_win_probability)


def _summary(sheet: Sheet) -> list[Block]:
    rows = []
    for b in sheet.bets:
        f = b.figures
        win, odds = _largest(b)
        rows.append(
            (
                _bet_label(b.bet),
                _pct(f.house_edge),
                _pct(f.house_edge_resolved),
                _pct(f.rtp),
                _pct(f.hit_frequency),
                sqrt_fixed(f.variance, PRECISION["std_dev"]),
                win,
                odds,
                str(b.bet.max_round or "—"),
                Strong(FLAG) if f.player_favourable else "",
            )
        )
    blocks: list[Block] = [
        Heading(2, "Summary", "summary"),
        Table(
            (
                "Bet",
                "House edge",
                "Per resolved bet",
                "RTP",
                "Hit frequency",
                "Std dev",
                "Largest win",
                "Its odds",
                "Max round",
                "Flag",
            ),
            tuple(rows),
            "lrrrrrrrrl",
            caption="House edge counts pushes as bets; 'per resolved bet' leaves pushes out. "
            "Standard deviation of the net result per unit stake.",
        ),
    ]
    favourable = [b.bet for b in sheet.bets if b.figures.player_favourable]
    if favourable:
        names = ", ".join(f"{bet.name} ({bet.id})" for bet in favourable)
        blocks.append(Para((Strong(f"{FLAG}:"), f" {names} — expected value above zero."), "flag"))
    return blocks


def _game(sheet: Sheet) -> list[Block]:
    t = sheet.paytable
    blocks: list[Block] = [Heading(2, "Game", "game")]
    if t.description:
        blocks.append(Para(t.description))
    if t.source:
        blocks.append(Para(f"Source: {t.source}"))
    rules = f"Drawing rules: {sheet.tableau.name}"
    if sheet.tableau.description:
        rules += f" — {sheet.tableau.description}"
    blocks.append(Para(f"Shoe: {sheet.shoe.describe()}. {rules}"))
    return blocks


def _shoe(sheet: Sheet) -> list[Block]:
    shoe = sheet.shoe
    ranks = shoe.rank_counts
    rows: list[tuple[Inline, ...]] = [("Cards", *(str(n) for n in ranks))]
    if any(len(set(row)) > 1 for row in shoe.counts):
        for s, suit in enumerate(SUITS):
            rows.append((f"of suit {suit}", *(str(row[s]) for row in shoe.counts)))
    values = shoe.value_counts
    return [
        Heading(2, "Shoe", "shoe"),
        Para(f"{shoe.describe()}: {shoe.size} cards, each round dealt from this full composition."),
        Table(("Rank", *RANKS), tuple(rows), "l" + "r" * len(RANKS)),
        Table(
            ("Value", *(str(v) for v in range(10))),
            (("Cards", *(str(n) for n in values)),),
            "l" + "r" * 10,
            caption="Baccarat values: ace 1, two to nine at face value, ten and faces 0.",
        ),
    ]


def _tableau(sheet: Sheet) -> list[Block]:
    t = sheet.tableau

    def player(total: int) -> str:
        if total >= 8:
            return "N"
        return "D" if t.player_draws(total) else "S"

    banker_rows = tuple(
        (str(total), *("D" if d else "S" for d in draws)) for total, draws in t.rows()
    )
    banker_rows += tuple((str(total), *("N" for _ in range(11))) for total in (8, 9))
    return [
        Heading(2, f"Drawing rules: {t.name}", "rules"),
        Para(
            "D = draws a third card, S = stands, N = natural (a two-card 8 or 9 in either hand "
            "ends the deal)."
        ),
        Table(
            ("Player two-card total", *(str(v) for v in range(10))),
            (("Player", *(player(v) for v in range(10))),),
            "l" + "c" * 10,
        ),
        Table(
            ("Banker two-card total", "Player stood", *(f"3rd {v}" for v in range(10))),
            banker_rows,
            "l" + "c" * 11,
            caption="Columns: the player stood, or the value of the player's third card.",
            css="tableau",
        ),
    ]


def _paytable(sheet: Sheet) -> list[Block]:
    rows: list[tuple[Inline, ...]] = []
    notes: list[Block] = []
    for b in sheet.bets:
        bet = b.bet
        for i, row in enumerate(bet.rows):
            rows.append(
                (
                    _bet_label(bet) if i == 0 else "",
                    row.event,
                    Code(str(row.when)),
                    row.pays.text or str(row.pays),
                    row.pays.to_one(),
                    row.pays.for_one(),
                )
            )
        if bet.max_round is not None:
            notes.append(
                Para((bet.name, ": closed after round ", str(bet.max_round), " of a shoe."))
            )
        if bet.rounding is not None:
            notes.append(
                Para(
                    f"{bet.name}: the return (stake included) is rounded {bet.rounding.mode.value} "
                    f"to a multiple of {format_number(bet.rounding.step)}, so its RTP depends on "
                    "the stake (see its RTP-by-stake table)."
                )
            )
    return [
        Heading(2, "Paytable", "paytable"),
        Para("Rows are tried in order; the first whose condition holds settles the bet."),
        Table(
            ("Bet", "Event", "When", "Pays", "To 1", "For 1"),
            tuple(rows),
            "lllrrr",
            caption="'To 1' is the net win per unit staked; 'for 1' the return, stake included.",
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
        blocks.append(
            Para((Strong(f"{FLAG}:"), f" EV = {signed(f.ev, r)} per unit staked."), "flag")
        )
    rows = tuple(
        (
            row.event,
            row.pays.text or str(row.pays),
            grouped(row.combinations),
            fixed(row.probability, p),
            signed(row.ret, r),
        )
        for row in f.rows
    )
    blocks.append(
        Table(
            ("Event", "Pays", "Combinations", "Probability", "Return"),
            rows,
            "llrrr",
            total=(Strong("Total"), "", grouped(f.total), fixed(1, p), signed(f.ev, r)),
        )
    )
    win, odds = _largest(b)
    summary: list[tuple[Inline, ...]] = [
        ("House edge (pushes counted)", _pct(f.house_edge)),
        ("House edge per resolved bet", _pct(f.house_edge_resolved)),
        ("RTP", _pct(f.rtp)),
        ("Expected value per unit", signed(f.ev, r)),
        ("Hit frequency", _pct(f.hit_frequency)),
        ("Push probability", _pct(f.push_probability)),
        ("Standard deviation", sqrt_fixed(f.variance, PRECISION["std_dev"])),
        ("Largest win", win),
        ("Odds of the largest win", odds),
        ("Max round", str(bet.max_round) if bet.max_round else "no limit"),
    ]
    if f.player_favourable:
        summary.append(("Flag", Strong(FLAG)))
    blocks.append(Table(("Figure", "Value"), tuple(summary), "lr"))
    if b.rtp_by_stake and b.unrounded_rtp is not None:
        base = b.unrounded_rtp
        blocks.append(
            Table(
                ("Stake", "RTP", "Difference", "Equals unrounded"),
                tuple(
                    (
                        _money(s.stake),
                        _pct(s.rtp),
                        f"{signed((s.rtp - base) * 100, PRECISION['percent'])} pp",
                        "yes (exact)" if s.equals_unrounded else "no",
                    )
                    for s in b.rtp_by_stake
                ),
                "rrrl",
                caption=f"RTP by stake with rounding; unrounded RTP {_pct(base)}. "
                "Difference in percentage points.",
            )
        )
    return blocks


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
    ]


def _appendix(sheet: Sheet) -> list[Block]:
    blocks: list[Block] = [Heading(2, "Appendix: exact fractions", "appendix")]
    for b in sheet.bets:
        f = b.figures
        he_res = f.house_edge_resolved
        blocks.append(Heading(3, f"{b.bet.name} ({b.bet.id}) — exact", f"exact-{b.bet.id}"))
        figures: list[tuple[Inline, ...]] = [
            ("EV", exact(f.ev)),
            ("RTP", exact(f.rtp)),
            ("House edge", exact(f.house_edge)),
            ("House edge per resolved bet", "—" if he_res is None else exact(he_res)),
            ("Hit frequency", exact(f.hit_frequency)),
            ("Push probability", exact(f.push_probability)),
            ("Variance", exact(f.variance)),
            ("Largest win", exact(f.largest_win)),
            ("Probability of the largest win", exact(f.largest_win_probability)),
        ]
        if b.unrounded_rtp is not None:
            figures.append(("Unrounded RTP", exact(b.unrounded_rtp)))
            figures.extend(
                (f"RTP at stake {_money(s.stake)}", exact(s.rtp)) for s in b.rtp_by_stake
            )
        blocks.append(Table(("Figure", "Exact value"), tuple(figures), "ll", css="exact"))
        blocks.append(
            Table(
                ("Event", "Probability", "Return"),
                tuple((row.event, exact(row.probability), exact(row.ret)) for row in f.rows),
                "lll",
                css="exact",
            )
        )
    return blocks


def _verification(sheet: Sheet) -> list[Block]:
    """The optional Monte Carlo section (only on sheets built with a verification)."""
    from exactodds.analysis.verify import Z99
    from exactodds.report.verification import STATEMENT, verdict

    check = sheet.verification
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
    t = sheet.paytable
    plain = sheet.shoe == t.shoe() and sheet.tableau == t.tableau and len(sheet.bets) == len(t.bets)
    if sheet.file and plain:  # overridden shoe, rules or bets: the command would need them too
        blocks.append(
            Para(
                (
                    "Rerun: ",
                    Code(
                        f"exactodds report {sheet.file} --verify-rounds {check.rounds} "
                        f"--seed {check.seed}"
                    ),
                )
            )
        )
    for i, (b, c) in enumerate(zip(sheet.bets, check.bets, strict=True)):
        rows = tuple(
            (
                row.event,
                fixed(row.probability, p),
                fixed(Fraction(k.observed, k.rounds), p),
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
            Para((Strong("Verdict:"), f" {verdict(sheet, i)}")),
        ]
    return blocks


def _inputs(sheet: Sheet) -> list[Block]:
    rows = tuple((i.role, Code(i.path), Code(i.sha256)) for i in sheet.inputs)
    blocks: list[Block] = [Heading(2, "Inputs and provenance", "inputs")]
    if rows:
        blocks.append(Table(("Input", "File", "SHA-256"), rows, "lll", css="exact"))
    blocks.append(
        Table(
            ("Item", "Value"),
            (
                ("Software", sheet.software),
                ("Shoe", sheet.shoe.describe()),
                ("Drawing rules", sheet.tableau.name),
                ("Date", sheet.date),
            ),
            "ll",
        )
    )
    return blocks


def document(sheet: Sheet) -> Document:
    """The full math sheet as a document."""
    t = sheet.paytable
    head: tuple[tuple[Inline, ...], ...] = (
        ("Paytable", (t.name, " — ", Code(sheet.file)) if sheet.file else t.name),
        ("Shoe", sheet.shoe.describe()),
        ("Drawing rules", sheet.tableau.name),
        ("Bets", str(len(sheet.bets))),
        ("Universe", f"{grouped(sheet.universe)} ordered six-card sequences"),
        ("Software", sheet.software),
        ("Date", sheet.date),
    )
    if sheet.verification is not None:
        v = sheet.verification
        head += (
            (
                "Monte Carlo check",
                f"{grouped(v.rounds)} rounds, seed {v.seed} "
                "(a statistical check; see Monte Carlo verification)",
            ),
        )
    blocks: list[Block] = [Table(("Item", "Value"), head, "ll")]
    blocks += _summary(sheet)
    blocks += _game(sheet)
    blocks += _shoe(sheet)
    blocks += _tableau(sheet)
    blocks += _paytable(sheet)
    blocks.append(Heading(2, "Bets", "bets"))
    blocks.append(
        Para(
            "Per bet: each row's combinations and probability, and its return (probability × net "
            "result per unit staked); the total return is the expected value (EV)."
        )
    )
    for b in sheet.bets:
        blocks += _bet(sheet, b)
    blocks += _method(sheet)
    blocks += _appendix(sheet)
    blocks += _verification(sheet)
    blocks += _inputs(sheet)
    return Document(f"{t.name} — math sheet", tuple(blocks), sheet.date, sheet.version)
