"""What a strategy wins on a bet over simulated shoes: exact figures, JSON and Markdown.

Definitions (as in Jacobson's and Wizard of Odds' counting studies; Schlesinger's DI). Rounds
*offered* are every round dealt, or with the bet's ``max_round`` the rounds 1..max_round of each
shoe. X is the result of one round offered: the net of one unit when the strategy bets, 0 when
it does not.

- bet frequency = rounds bet / rounds offered;
- edge when betting = mean exact EV of the rounds bet (from the cards left, exact);
- units per 100 rounds = 100 · E[X] with E[X] = Σ exact EVs of the rounds bet / rounds offered
  ("expected"; "dealt" uses the dealt results instead), per shoe = Σ / shoes;
- SD per 100 rounds = 10 · SD(X), SD(X) from the dealt results: √(mean X² − (mean X)²);
- DI = 1000 · E[X] / SD(X) (= 100 · units per 100 / SD per 100); N0 = (SD(X) / E[X])², the
  rounds after which the expected win equals one SD (only when E[X] > 0).

Exact values are fractions ("p/q" in JSON); SD, DI and N0 are floats (SD is irrational; N0 is a
ratio of sample moments, rounded for reading).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactodds.analysis.count import COUNTER_TRUE_COUNT, BetCount
from exactodds.analysis.tally import RoundFigures
from exactodds.deal.shoe import Shoe
from exactodds.errors import SimulationError
from exactodds.escape import md_cell, one_line
from exactodds.formats import Format
from exactodds.numbers import exact, fixed, signed
from exactodds.tables import Align

if TYPE_CHECKING:
    import pandas as pd

    from exactodds.analysis.streak import ShoeStreak

__all__ = ["STRATEGIES", "BetRun", "RoundFigures", "Simulation", "StreakRun", "render_simulation"]

STRATEGIES = ("perfect", "count")
"""``perfect``: bet whenever the exact EV from the cards left is positive (a computer that knows
them); ``count``: bet when the true count of the bet's tags reaches its trigger."""


@dataclass(frozen=True)
class BetRun:
    """One bet played by a strategy over a run, without and with its ``max_round``.

    >>> f = Fraction
    >>> by_round = (RoundFigures(1, 10, 1, f(-1, 20), f(1, 100), f(1), f(1)),
    ...             RoundFigures(2, 10, 3, f(-1, 20), f(3, 100), f(-3), f(3)))
    >>> b = BetRun("pair", "Pair", 1, by_round)  # offered on round 1 only
    >>> b.rounds, b.bet_rounds(), b.bet_rounds(limited=True), b.rounds_offered(limited=True)
    (20, 4, 1, 10)
    >>> b.expected_gain(), b.expected_gain(limited=True), b.realized_gain()
    (Fraction(1, 25), Fraction(1, 100), Fraction(-2, 1))
    >>> b.bet_frequency(), b.edge_when_betting(), b.units_per_round()
    (Fraction(1, 5), Fraction(1, 100), Fraction(1, 500))
    >>> round(b.sd_per_round(), 6), round(b.di(), 4), round(b.n0(), 1)  # SD √(4/20 − 1/100)
    (0.43589, 4.5883, 47500.0)
    """

    bet_id: str
    name: str
    max_round: int | None
    by_round: tuple[RoundFigures, ...]
    count: BetCount | None = None
    offer: str | None = None
    """The bet's offer (a condition on the first four cards), if it has one: ``by_round``
    then counts the rounds offered only."""
    dealt: int | None = None
    """Rounds dealt in the run, for a bet with an offer."""

    def _rows(self, limited: bool) -> list[RoundFigures]:
        limit = self.max_round if limited else None
        return [r for r in self.by_round if limit is None or r.round <= limit]

    @property
    def rounds(self) -> int:
        """Rounds dealt in the run."""
        return self.rounds_offered() if self.dealt is None else self.dealt

    def rounds_offered(self, limited: bool = False) -> int:
        """Rounds on which the bet was offered (every round, or up to ``max_round``; for a
        bet with an offer, those whose first four cards met it)."""
        return sum(r.rounds for r in self._rows(limited))

    def bet_rounds(self, limited: bool = False) -> int:
        """Rounds on which the strategy bet."""
        return sum(r.bet_rounds for r in self._rows(limited))

    def expected_gain(self, limited: bool = False) -> Fraction:
        """Σ exact EV of the rounds bet (one unit each)."""
        return sum((r.expected_gain for r in self._rows(limited)), Fraction(0))

    def realized_gain(self, limited: bool = False) -> Fraction:
        """Σ dealt results of the units staked."""
        return sum((r.realized_gain for r in self._rows(limited)), Fraction(0))

    def realized_square(self, limited: bool = False) -> Fraction:
        """Σ squared dealt results of the units staked."""
        return sum((r.realized_square for r in self._rows(limited)), Fraction(0))

    def bet_frequency(self, limited: bool = False) -> Fraction:
        """Rounds bet / rounds offered."""
        return Fraction(self.bet_rounds(limited), self.rounds_offered(limited) or 1)

    def edge_when_betting(self, limited: bool = False) -> Fraction | None:
        """Mean exact EV of the rounds bet (None when the strategy never bet)."""
        n = self.bet_rounds(limited)
        return self.expected_gain(limited) / n if n else None

    def units_per_round(self, limited: bool = False, realized: bool = False) -> Fraction:
        """Expected (or dealt) win per round offered, E[X]."""
        gain = self.realized_gain(limited) if realized else self.expected_gain(limited)
        return gain / (self.rounds_offered(limited) or 1)

    def variance_per_round(self, limited: bool = False) -> Fraction:
        """Variance of the dealt result per round offered, exact (sample moments)."""
        n = self.rounds_offered(limited) or 1
        mean = self.realized_gain(limited) / n
        return self.realized_square(limited) / n - mean * mean

    def sd_per_round(self, limited: bool = False) -> float:
        """SD of the dealt result per round offered."""
        return math.sqrt(self.variance_per_round(limited))

    def di(self, limited: bool = False) -> float | None:
        """Desirability index 1000·E[X]/SD(X) (None when SD is 0)."""
        sd = self.sd_per_round(limited)
        return 1000 * float(self.units_per_round(limited)) / sd if sd else None

    def n0(self, limited: bool = False) -> float | None:
        """N0 = (SD(X)/E[X])²: rounds to win one SD (None unless E[X] > 0)."""
        ev = self.units_per_round(limited)
        return float(self.variance_per_round(limited) / (ev * ev)) if ev > 0 else None


@dataclass(frozen=True)
class StreakRun:
    """A streak bet played in the run's shoes (:data:`~exactodds.analysis.streak.SHOE_RULE`), beside
    its exact return when rounds are independent."""

    dealt: ShoeStreak
    independent_rtp: Fraction

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: exact totals and RTPs as ``"p/q"``, the range as decimals."""
        d = self.dealt
        return {
            "name": d.bet.name,
            "streak": str(d.bet.condition),
            "max_streak": d.bet.max_streak,
            "bets": d.bets,
            "void": d.void,
            "net": exact(d.net),
            "returned": exact(d.bets + d.net),
            "rtp": None if d.rtp is None else exact(d.rtp),
            "range_99": None if d.range_99 is None else [round(x, 6) for x in d.range_99],
            "independent_rtp": exact(self.independent_rtp),
            "covers_independent": d.covers(self.independent_rtp) if d.bets else None,
        }

    def row(self) -> list[str]:
        """The Markdown table's row."""
        d = self.dealt
        if d.rtp is None or d.range_99 is None:  # never made: no return to state
            return [md_cell(d.bet.name), "0", f"{d.void:,}", "—", "—", "—",
                    f"{float(self.independent_rtp):.4%}"]  # fmt: skip
        return [
            md_cell(d.bet.name),
            f"{d.bets:,}",
            f"{d.void:,}",
            fixed(d.bets + d.net, 2),
            f"{float(d.rtp):.4%}",
            f"{d.range_99[0]:.4%} to {d.range_99[1]:.4%}",
            f"{float(self.independent_rtp):.4%}",
        ]


@dataclass(frozen=True)
class Simulation:
    """Result of :func:`~exactodds.analysis.simulate.simulate`.

    >>> f = Fraction
    >>> rounds = (RoundFigures(1, 2, 0, f(-1, 20), f(0), f(0), f(0)),)
    >>> sim = Simulation(2, 7, 14, Shoe.decks(8), (BetRun("tie", "Tie", None, rounds),))
    >>> sim.rounds, sim.to_json()["bets"]["tie"]["unlimited"]["edge_rounds"]
    (2, 0)
    """

    shoes: int
    seed: int
    cut_card: int
    shoe: Shoe
    bets: tuple[BetRun, ...]
    strategy: str = "perfect"
    see_burns: bool = False
    rules: str = "punto-banco"
    streaks: tuple[StreakRun, ...] = ()

    @property
    def rounds(self) -> int:
        """Rounds dealt in the run."""
        return self.bets[0].rounds if self.bets else 0

    def _per(self, x: Fraction, n: int, times: int = 1) -> Fraction:
        return x * times / n if n else Fraction(0)

    # -- notebooks ---------------------------------------------------------------------------

    def __repr__(self) -> str:
        """One line: the run (shoes, seed, strategy, shoe) and its size."""
        return (
            f"<Simulation {self.strategy}: {self.shoes:,} shoes of {self.shoe.describe()}, "
            f"seed {self.seed}, {self.rounds:,} rounds, {len(self.bets)} bets>"
        )

    _HEADERS = (
        "bet",
        "bet_rounds",
        "bet_frequency",
        "edge_when_betting",
        "expected_gain",
        "realized_gain",
    )

    def _table(self) -> list[tuple[object, ...]]:
        rows: list[tuple[object, ...]] = [
            (
                b.bet_id,
                b.bet_rounds(),
                b.bet_frequency(),
                b.edge_when_betting(),
                b.expected_gain(),
                b.realized_gain(),
            )
            for b in self.bets
        ]
        for r in self.streaks:  # bets settled; expected: the exact EV with rounds independent
            ev, d = r.independent_rtp - 1, r.dealt
            made = Fraction(d.bets, self.rounds) if self.rounds else None  # per round dealt
            rows.append((d.bet.id, d.bets, made, ev, d.bets * ev, d.net))
        return rows

    def _repr_html_(self) -> str:
        """Per bet: rounds bet, bet frequency, edge when betting, expected and dealt gain (in
        units, exact in the tooltip); a streak bet's row counts the bets it settled, its edge and
        expected gain from its exact EV with rounds independent."""
        from exactodds.notebook import html_table

        rows = [
            (i, n, freq, "-" if edge is None else edge, str(exp), str(real))
            for i, n, freq, edge, exp, real in self._table()
        ]
        return html_table(self._HEADERS, rows, repr(self)[1:-1])

    def to_frame(self) -> pd.DataFrame:
        """Per bet, exact figures of the run as a DataFrame (extra ``pandas``), streak bets
        included as in :meth:`_repr_html_`."""
        from exactodds.notebook import frame

        return frame(self._HEADERS, self._table())

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self, paytable: str = "") -> dict[str, Any]:
        """JSON-ready: exact figures as "p/q" strings, counts as integers, SD/DI/N0 floats."""
        bets = {b.bet_id: self._bet_json(b) for b in self.bets}
        out: dict[str, Any] = {
            "paytable": paytable,
            "shoe": self.shoe.describe(),
            "rules": self.rules,
            "shoes": self.shoes,
            "seed": self.seed,
            "cut_card": self.cut_card,
            "strategy": self.strategy,
            "rounds": self.rounds,
        }
        if self.strategy == "count":
            out["see_burns"] = self.see_burns
            out["true_count"] = COUNTER_TRUE_COUNT
        out["bets"] = bets
        if self.streaks:
            from exactodds.analysis.streak import SHOE_RULE

            out["streak_rule"] = SHOE_RULE
            out["streaks"] = {r.dealt.bet.id: r.to_json() for r in self.streaks}
        return out

    def _bet_json(self, b: BetRun) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": b.name, "max_round": b.max_round}
        if b.offer is not None:  # figures per round offered
            entry["offer"] = b.offer
            entry["rounds_offered"] = b.rounds_offered()
        if b.count is None:
            for label, limited in (("unlimited", False), ("with_max_round", True)):
                exp, real = b.expected_gain(limited), b.realized_gain(limited)
                offered = b.rounds_offered()
                entry[label] = {
                    "edge_rounds": b.bet_rounds(limited),
                    "expected_gain": str(exp),
                    "expected_per_100_rounds": str(self._per(exp, offered, 100)),
                    "expected_per_shoe": str(self._per(exp, self.shoes)),
                    "realized_gain": str(real),
                    "realized_per_100_rounds": str(self._per(real, offered, 100)),
                    "realized_per_shoe": str(self._per(real, self.shoes)),
                }
            entry["edge_share"] = str(Fraction(b.bet_rounds(), b.rounds_offered() or 1))
        else:
            c = b.count
            entry["count"] = {
                "tags": dict(c.tags.tags),
                "tags_source": c.tags_source,
                "imbalance_per_deck": c.tags.imbalance_per_deck,
                "ev": exact(c.ev),
                "slope_per_true_count": None if c.slope is None else exact(c.slope),
                "derived_trigger": _opt(c.derived_trigger),
                "trigger": _opt(c.trigger),
                "trigger_source": c.trigger_source,
                **self._count_json(b, limited=False),
                "with_max_round": (
                    None if b.max_round is None else self._count_json(b, limited=True)
                ),
            }
        entry["by_round"] = [
            {
                "round": r.round,
                "rounds": r.rounds,
                ("edge_rounds" if b.count is None else "rounds_bet"): r.bet_rounds,
                **({} if r.mean_ev is None else {"mean_ev": str(r.mean_ev)}),
                "expected_gain": str(r.expected_gain),
                "realized_gain": str(r.realized_gain),
            }
            for r in b.by_round
        ]
        return entry

    def _count_json(self, b: BetRun, limited: bool) -> dict[str, Any]:
        di, n0 = b.di(limited), b.n0(limited)
        return {
            "rounds_offered": b.rounds_offered(limited),
            "rounds_bet": b.bet_rounds(limited),
            "bet_frequency": exact(b.bet_frequency(limited)),
            "edge_when_betting": _opt(b.edge_when_betting(limited)),
            "units_per_100_rounds": exact(100 * b.units_per_round(limited)),
            "units_per_shoe": exact(self._per(b.expected_gain(limited), self.shoes)),
            "realized_units_per_100_rounds": exact(100 * b.units_per_round(limited, True)),
            "realized_units_per_shoe": exact(self._per(b.realized_gain(limited), self.shoes)),
            "sd_per_100_rounds": round(10 * b.sd_per_round(limited), 6),
            "di": None if di is None else round(di, 6),
            "n0": None if n0 is None else round(n0, 3),
        }

    # -- Markdown ---------------------------------------------------------------------------

    def _markdown(self, paytable: str = "", bucket: int = 10) -> str:
        """Markdown: per bet the strategy's win rates (and for a count its tags and trigger)."""
        title = "Card counting" if self.strategy == "count" else "Shoe simulation"
        head = [
            f"# {title} — {one_line(paytable)}" if paytable else f"# {title}",
            "",
            f"{self.shoes:,} shoes of {self.shoe.describe()}, {self.rules} rules, seed "
            f"{self.seed}, cut card {self.cut_card} cards from the end: {self.rounds:,} rounds.",
            "",
        ]
        body = self._render_count() if self.strategy == "count" else self._render_perfect(bucket)
        return "\n".join([*head, *body, *self._render_streaks()])

    def _render_streaks(self) -> list[str]:
        """The streak bets' section (empty without)."""
        if not self.streaks:
            return []
        from exactodds.analysis.streak import SHOE_RULE
        from exactodds.tables import pipe_table

        table = pipe_table(
            [r.row() for r in self.streaks],
            ["Bet", "bets settled", "void", "returned", "RTP", "99% range", "RTP (exact, "
             "rounds independent)"],
            _name_then_numbers(6),
        )  # fmt: skip
        note = (
            f"Streak bets are staked one unit at every chance, whatever the strategy: {SHOE_RULE}. "
            "Returned: units paid back, stakes included. The 99% range is over shoes (normal "
            "approximation); the exact RTP assumes every round dealt from the full shoe."
        )
        return ["", "## Streak bets", "", note, "", table]

    def _render_count(self) -> list[str]:
        from exactodds.tables import pipe_table

        seen = (
            "every card out of the shoe, the burned cards included (--see-burns: an upper bound)"
            if self.see_burns
            else "every card dealt and the burn card turned face up (not the burned cards "
            "dealt face down)"
        )
        intro = (
            f"A counter sees {seen} and stakes one unit on a bet when the bet's true count is at "
            "least its trigger, on the rounds the bet is offered. Per round offered: bet "
            "frequency; edge when betting = mean exact EV of the rounds bet; units won per 100 "
            "rounds, expected (Σ exact EVs) and dealt; SD per 100 rounds of the dealt result; "
            "DI = 1000·EV/SD per round; N0 = (SD/EV)² rounds. Rows `≤ N` close the bet after "
            "round N of the shoe (its max round)."
        )
        rows = []
        for b in self.bets:
            for limited in (False, True) if b.max_round is not None else (False,):
                di, n0 = b.di(limited), b.n0(limited)
                edge = b.edge_when_betting(limited)
                rows.append([
                    md_cell(b.name) if not limited else f"≤ {b.max_round}",
                    _tc(b.count.trigger if b.count else None),
                    f"{float(b.bet_frequency(limited)):.3%}",
                    "—" if edge is None else f"{float(edge):+.3%}",
                    signed(100 * b.units_per_round(limited), 4),
                    signed(100 * b.units_per_round(limited, realized=True), 4),
                    signed(self._per(b.expected_gain(limited), self.shoes), 4),
                    f"{10 * b.sd_per_round(limited):.3f}",
                    "—" if di is None else f"{di:+.3f}",
                    "—" if n0 is None else f"{n0:,.0f}",
                ])  # fmt: skip
        table = pipe_table(
            rows,
            [
                "Bet", "trigger", "bet freq.", "edge when betting", "units/100 (exp.)",
                "units/100 (dealt)", "units/shoe (exp.)", "SD/100", "DI", "N0",
            ],
            _name_then_numbers(9),
        )  # fmt: skip
        tag_rows = []
        for b in self.bets:
            c = b.count
            if c is None:
                continue
            tags = " ".join(f"{r}{t:+d}" for r, t in c.tags.tags.items() if t) or "none"
            per_deck = "balanced" if c.tags.balanced else f"{c.tags.imbalance_per_deck:+d}"
            slope = "—" if c.slope is None else f"{float(c.slope):+.5%}"
            tag_rows.append([
                md_cell(b.name), tags, per_deck, md_cell(c.tags_source), f"{float(c.ev):+.4%}",
                slope, _tc(c.derived_trigger), f"{_tc(c.trigger)} ({c.trigger_source})",
            ])  # fmt: skip
        tags_table = pipe_table(
            tag_rows,
            [
                "Bet", "tags", "per deck", "from", "EV (full shoe)", "EV per TC", "derived",
                "trigger used",
            ],
            ["left", "left", "right", "left", "right", "right", "right", "left"],
        )  # fmt: skip
        note = (
            f"{COUNTER_TRUE_COUNT} Derived trigger: "
            "where the linear estimate EV + slope·TC crosses 0, the slope being the "
            "least-squares EV change per unit of true count from the exact effects of removal "
            "(see exactodds.analysis.count); 'never' when the tags carry no information."
        )
        return [intro, "", table, "", "## Counts and triggers", "", note, "", tags_table]

    def _render_perfect(self, bucket: int) -> list[str]:
        from exactodds.tables import pipe_table

        def f(x: Fraction, digits: int = 3) -> str:
            return f"{float(x):+.{digits}f}"

        intro = (
            "A computer-perfect player bets one unit whenever the exact EV from the cards left "
            "is positive. Win rates in units (expected = Σ exact EVs; dealt = results of the "
            "rounds dealt)."
        )
        rows = []
        for b in self.bets:
            offered = b.rounds_offered()
            share = Fraction(b.bet_rounds(), offered or 1)
            row = [md_cell(b.name), f"{float(share) * 100:.2f}%"]
            for limited in (False, True):
                if limited and b.max_round is None:
                    row += ["—", "—", "—"]
                    continue
                exp = b.expected_gain(limited)
                row += [
                    f(self._per(exp, offered, 100), 4),
                    f(self._per(exp, self.shoes)),
                    f(self._per(b.realized_gain(limited), self.shoes)),
                ]
            row.append(str(b.max_round or "—"))
            rows.append(row)
        headers = [
            "Bet", "edge > 0", "exp./100 rds", "exp./shoe", "dealt/shoe", "exp./100 rds (max rd)",
            "exp./shoe (max rd)", "dealt/shoe (max rd)", "max rd",
        ]  # fmt: skip
        table = pipe_table(rows, headers, _name_then_numbers(8))
        rounds = sorted({r.round for b in self.bets for r in b.by_round})
        brows = []
        for lo in range(1, (max(rounds) if rounds else 0) + 1, bucket):
            hi = lo + bucket - 1
            cells = [f"{lo}–{hi}"]
            for b in self.bets:
                sel = [r for r in b.by_round if lo <= r.round <= hi]
                n = sum(r.rounds for r in sel)
                e = sum(r.bet_rounds for r in sel)
                g = sum((r.expected_gain for r in sel), Fraction(0))
                cells.append(f"{100 * e / n:.1f}% {float(g * 100 / n):+.2f}" if n else "")
            brows.append(cells)
        by_round = pipe_table(
            brows,
            ["Rounds", *(md_cell(b.bet_id) for b in self.bets)],
            _name_then_numbers(len(self.bets)),
        )
        note = (
            "By round number: share of rounds with EV > 0, then the computer-perfect expected "
            "win per 100 rounds played at those round numbers."
        )
        return [
            intro, "", table, *self._offers(), "", "## By round number", "", note, "", by_round,
        ]  # fmt: skip

    def _offers(self) -> list[str]:
        """Lines saying how many rounds offered each bet with an offer (empty without)."""
        lines = []
        for b in self.bets:
            if b.offer is None:
                continue
            n, of = b.rounds_offered(), b.rounds
            share = f" ({n / of:.2%})" if of else ""
            lines.append(
                f"- {md_cell(b.name)}: offered on {n:,} of {of:,} rounds{share} "
                f"(offer: `{one_line(b.offer)}`)"
            )
        if not lines:
            return []
        return [
            "",
            "Bets with an offer count only the rounds whose first four cards meet it: their "
            "figures are per round offered, the EV per offered round from the cards left.",
            "",
            *lines,
        ]


def render_simulation(sim: Simulation, paytable: str = "", fmt: str = "md") -> str:
    """Markdown (``md``): per bet the strategy's win rates (for a count also its tags and
    trigger), by round number for perfect play; or ``json``: :meth:`Simulation.to_json`."""
    fmt = Format.check(fmt, (Format.MD, Format.JSON), SimulationError)
    if fmt is Format.JSON:
        import json

        return json.dumps(sim.to_json(paytable), indent=2)
    return sim._markdown(paytable)


def _name_then_numbers(numbers: int) -> list[Align]:
    """Column alignment of a table with one text column and then ``numbers`` number columns."""
    right: list[Align] = ["right"] * numbers
    return ["left", *right]


def _opt(x: Fraction | None) -> str | None:
    return None if x is None else exact(x)


def _tc(x: Fraction | None) -> str:
    """A true count for people: two decimals, or 'never'."""
    return "never" if x is None else f"{float(x):+.2f}"
