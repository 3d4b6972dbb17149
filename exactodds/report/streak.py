"""Streak bets on the sheets: each row's probability when rounds are independent (exact), and
the return when the rounds are dealt from one shoe (simulated, with its range), as document
blocks (Markdown, HTML, PDF), the sheet's ``streaks`` JSON list and CSV lines. On the HTML page
the payouts are inputs and the exact figures fields the designer recomputes; the one-shoe
figures are ``one_shoe.*`` fields it marks as not recomputed."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any

from exactodds.analysis.streak import SHOE_RULE, ShoeStreak, simulate_streak
from exactodds.bets.payout import Notation
from exactodds.bets.streak import (
    STREAK_MARK,
    StreakBet,
    StreakFigures,
    streak_figures,
)
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.numbers import exact, fixed, grouped, percent, signed
from exactodds.report.document import (
    Block,
    Code,
    Field,
    Heading,
    Inline,
    Para,
    PayoutField,
    Strong,
    Table,
)
from exactodds.report.figures import Kind, View, in_view
from exactodds.report.sheet import Sheet

__all__ = [
    "CUT_CARD",
    "SHOES",
    "SHOE_SEED",
    "check_sheet_streaks",
    "sheet_streaks",
    "streak_blocks",
    "streak_csv",
    "streak_json",
    "streak_models",
    "streak_paytable_rows",
    "streak_summary_rows",
]

SHOES = 2_000
"""Shoes dealt for the one-shoe model on a sheet (about a second per bet)."""
SHOE_SEED = 27
"""Seed of that simulation, so the sheet is the same every time."""
CUT_CARD = 14


@lru_cache(maxsize=64)
def streak_models(
    bet: StreakBet, shoe: Shoe, tableau: Tableau, shoes: int
) -> tuple[StreakFigures, ShoeStreak]:
    """The bet's exact independent-rounds figures and its one-shoe simulation of ``shoes``
    shoes (seed :data:`SHOE_SEED`)."""
    exact_figures = streak_figures(bet, shoe, tableau)
    dealt = simulate_streak(bet, shoe, tableau, shoes, seed=SHOE_SEED, cut_card=CUT_CARD)
    return exact_figures, dealt


def check_sheet_streaks(streaks: int, shoe: Shoe) -> None:
    """Refuse, before any work, a one-shoe model of ``streaks`` streak bets over
    :data:`SHOES` shoes like ``shoe`` beyond its budget (a shoe of hundreds of decks)."""
    from exactodds.bets.budget import check_streak_play, expected_rounds

    check_streak_play(streaks, expected_rounds(SHOES, shoe.size, CUT_CARD), sheet=True)


def sheet_streaks(sheet: Sheet) -> list[tuple[StreakBet, StreakFigures, ShoeStreak]]:
    """Each streak bet of the sheet with its exact figures and its one-shoe simulation."""
    return [(bet, *streak_models(bet, sheet.shoe, sheet.tableau, SHOES)) for bet in sheet.streaks]


def _label(bet: StreakBet) -> tuple[str | Code, ...]:
    return (bet.name, " (", Code(bet.id), f") {STREAK_MARK}")


def streak_summary_rows(sheet: Sheet, view: View = View.SUMMARY) -> list[tuple[Inline, ...]]:
    """A row of the sheet's summary table per streak bet (after the round bets'): the
    figures of ``view`` from its exact figures with rounds independent, each a field the
    designer page recomputes as it does a round bet's (max round: none). Its flag is empty,
    as the designer keeps it: the sheet flags no streak bet; a player-favourable one shows
    a negative house edge (and JSON and CSV give ``player_favourable``)."""
    rows: list[tuple[Inline, ...]] = []
    for bet in sheet.streaks:
        f = streak_figures(bet, sheet.shoe, sheet.tableau)
        cells: list[Inline] = []
        for figure in in_view(view):
            text = figure.text_of(figure.value_in(f), sheet.notation, in_summary=True)
            if figure.kind is Kind.FLAG:  # a sheet flags no streak bet (its negative edge shows)
                cells.append(Field(bet.id, figure.key, ""))
            else:
                cells.append(Field(bet.id, figure.key, text) if figure.recomputed else text)
        rows.append((_label(bet), *cells))
    return rows


def streak_paytable_rows(sheet: Sheet) -> tuple[list[tuple[Inline, ...]], list[Block]]:
    """The rows of the sheet's streak bets in its Paytable table (``when``: the streak its
    row names; the payouts fields as a round bet's) and a note per bet saying what it
    counts."""
    rows: list[tuple[Inline, ...]] = []
    notes: list[Block] = []
    for bet in sheet.streaks:
        for i, row in enumerate(bet.rows):
            pays: tuple[Inline, ...] = (
                (
                    Field(bet.id, "pays", row.pays.stated(Notation.BOTH), i),
                    Field(bet.id, "to_one", row.pays.to_one(), i),
                    Field(bet.id, "for_one", row.pays.for_one(), i),
                )
                if sheet.notation is Notation.BOTH
                else (Field(bet.id, "pays", row.pays.stated(sheet.notation), i),)
            )
            rows.append((_label(bet) if i == 0 else "", row.event, Code(row.text), *pays))
        cap = f"; the bet ends after {bet.max_streak}" if bet.max_streak is not None else ""
        notes.append(
            Para(
                (
                    f"{bet.name} {STREAK_MARK}: a streak bet; streak counts the consecutive "
                    "rounds, from the round after it is made, where ",
                    Code(str(bet.condition)),
                    f" holds{cap} (section Streak bets).",
                )
            )
        )
    return rows, notes


def streak_blocks(sheet: Sheet) -> list[Block]:
    """The section of the sheet's streak bets (nothing when it has none)."""
    if not sheet.streaks:
        return []
    blocks: list[Block] = [
        Heading(2, "Streak bets", "streaks"),
        Para(
            "A streak bet counts the consecutive rounds, from the round after it is made, for "
            "which its condition holds; the first row matching that count settles it. Rounds "
            "independent: every round from the full shoe, so the streak is k with probability "
            "p^k (1 − p) (exact; published analyses assume it). Dealt from one shoe: shoes "
            f"dealt by the shoe procedure (cut card {CUT_CARD} cards from the end); {SHOE_RULE}. "
            "Simulated, as exactodds simulate plays it; 99% range over shoes, normal "
            "approximation."
        ),
    ]
    for bet, f, dealt in sheet_streaks(sheet):
        blocks.append(Heading(3, f"{bet.name} ({bet.id})", f"streak-{bet.id}"))
        if bet.description:
            blocks.append(Para(bet.description))
        cap = f"; the bet ends after {bet.max_streak}" if bet.max_streak is not None else ""
        blocks.append(
            Para(
                (
                    "Counts the rounds where ",
                    Code(str(bet.condition)),
                    f"{cap}. Probability of the condition on one round p = "
                    f"{fixed(f.p, 10)} ({exact(f.p)}).",
                )
            )
        )
        rows = tuple(
            (
                row.event,
                Code(row.text),
                PayoutField(
                    bet.id,
                    k,
                    row.pays.stated(sheet.notation),
                    f"Payout of {bet.name}, row {k + 1}: {row.event}",
                ),
                fixed(q, 10),
                Field(bet.id, "return", signed(q * row.pays.net), k),
            )
            for k, (row, q) in enumerate(zip(bet.rows, f.probabilities, strict=True))
        )
        total = Field(bet.id, "ev", signed(f.ev))
        blocks.append(
            Table(
                ("Event", "Streak", "Pays", "Probability", "Return"),
                rows,
                "llrrr",
                total=(Strong("Total"), "", "", fixed(Fraction(1), 10), total),
                caption="Rounds independent: exact.",
            )
        )
        blocks.append(_figures_table(bet, f, dealt))
    return blocks


def _figures_table(bet: StreakBet, f: StreakFigures, dealt: ShoeStreak) -> Table:
    """The bet's figures in both models: the exact ones are fields the designer page
    recomputes, the simulated ones fields it marks as not recomputed (``one_shoe.*``)."""

    def exact_field(figure: str, value: Fraction) -> Field:
        return Field(bet.id, figure, percent(value, 4))

    def simulated(figure: str, text: str) -> Field:
        return Field(bet.id, f"one_shoe.{figure}", text)

    rtp, edge, bounds = dealt.rtp, dealt.house_edge, dealt.range_99
    if rtp is None or edge is None or bounds is None:  # never made: no return to state
        caption = (
            f"No bet was made in the {grouped(dealt.shoes)} shoes dealt: its condition never "
            "failed, and the bet is made only after a round it fails"
        )
        shown = ("—", "—", "—")
    else:
        difference = signed((rtp - f.rtp) * 100, 4)
        caption = (
            f"Difference of the one-shoe RTP from the exact one: {difference} pp, within its "
            "99% range"
            if dealt.covers(f.rtp)
            else "The exact RTP lies outside the one-shoe 99% range: dealing from one shoe "
            f"changes the return by about {difference} pp"
        )
        shown = (percent(rtp, 4), percent(edge, 4), f"{bounds[0]:.4%} to {bounds[1]:.4%}")
    return Table(
        ("Figure", "Rounds independent (exact)", "Dealt from one shoe (simulated)"),
        (
            ("RTP", exact_field("rtp", f.rtp), simulated("rtp", shown[0])),
            (
                "House edge",
                exact_field("house_edge", f.house_edge),
                simulated("house_edge", shown[1]),
            ),
            ("99% range of the RTP", "—", simulated("range", shown[2])),
            ("Hit frequency", exact_field("hit_frequency", f.hit_frequency), "—"),
            ("Expected rounds per bet", fixed(f.expected_rounds, 4), "—"),
            ("House edge per round played", exact_field("edge_per_round", f.edge_per_round), "—"),
            ("Bets settled", "—", grouped(dealt.bets)),
            ("Shoes (seed)", "—", f"{grouped(dealt.shoes)} ({dealt.seed})"),
        ),
        "lrr",
        caption=simulated("caption", caption),
    )


def streak_json(sheet: Sheet) -> list[dict[str, Any]]:
    """The sheet's streak bets JSON-ready: every figure a round bet has under the same key
    (rounds independent, per bet; ``model`` says so), the independent-rounds rows and figures
    as ``"p/q"``, the simulation's as exact observed totals and decimal ranges."""
    out = []
    for bet, f, dealt in sheet_streaks(sheet):
        out.append(
            {
                "id": bet.id,
                "name": bet.name,
                "streak": str(bet.condition),
                "max_streak": bet.max_streak,
                "p": exact(f.p),
                "model": f.model,
                **{
                    figure.key: figure.json_of(value)
                    for figure in in_view(View.JSON)
                    if (value := figure.value_in(f)) is not None or not figure.optional
                },
                "independent": {
                    "rtp": exact(f.rtp),
                    "house_edge": exact(f.house_edge),
                    "hit_frequency": exact(f.hit_frequency),
                    "variance": exact(f.variance),
                    "expected_rounds": exact(f.expected_rounds),
                    "edge_per_round": exact(f.edge_per_round),
                    "rows": [
                        {
                            "event": row.event,
                            "when": row.text,
                            "pays": row.pays.to_one(),
                            "net": exact(row.pays.net),
                            "probability": exact(q),
                            "return": exact(q * row.pays.net),
                        }
                        for row, q in zip(bet.rows, f.probabilities, strict=True)
                    ],
                },
                "one_shoe": {
                    "shoes": dealt.shoes,
                    "seed": dealt.seed,
                    "cut_card": dealt.cut_card,
                    "bets": dealt.bets,
                    "void": dealt.void,
                    "rtp": None if dealt.rtp is None else exact(dealt.rtp),
                    "range_99": None
                    if dealt.range_99 is None
                    else [round(x, 6) for x in dealt.range_99],
                    "covers_independent": None if dealt.rtp is None else dealt.covers(f.rtp),
                },
            }
        )
    return out


def streak_csv(sheet: Sheet) -> Iterator[dict[str, str]]:
    """CSV lines of the streak bets: a ``streak_row`` per row, ``streak_figure`` per figure."""
    for bet, f, dealt in sheet_streaks(sheet):
        base = {"paytable": sheet.paytable.name, "bet_id": bet.id, "bet": bet.name}
        for row, q in zip(bet.rows, f.probabilities, strict=True):
            yield base | {
                "kind": "streak_row",
                "item": row.event,
                "pays": row.pays.to_one(),
                "probability": fixed(q, 10),
                "return": fixed(q * row.pays.net, 10),
                "exact": f"{exact(q)};{exact(q * row.pays.net)}",
            }
        for figure in in_view(View.CSV):  # a round bet's figures, rounds independent
            if (value := figure.value_in(f)) is not None or not figure.optional:
                yield base | {"kind": "streak_figure", "item": figure.key} | figure.csv_of(value)
        for item, value in (
            ("expected_rounds", f.expected_rounds),
            ("edge_per_round", f.edge_per_round),
            ("one_shoe_rtp", dealt.rtp),  # None: never made in the shoes dealt
        ):
            yield base | {
                "kind": "streak_figure",
                "item": item,
                "value": "" if value is None else fixed(value, 10),
                "exact": "" if value is None else exact(value),
            }
