"""Effect of removal (EOR): how each bet's exact EV moves when one card of a rank leaves the shoe,
and balanced integer counting tags derived from it.

Why: a bet whose EV moves a lot with the removed cards can be tracked by a card counter (SPEC §1,
game protection). The EOR of rank r is the count-weighted mean over its suits of
EV(shoe − one card) − EV(shoe), exact. Because a random card removed before the deal changes
nothing on average, Σ_r n_r·EOR_r = 0 exactly (tested).

Tags: integers of at most ``level`` in size, summing to zero over one deck (one card of each rank,
so a full shoe counts 0), chosen among roundings of c·EOR at every scale c for the best
correlation with the EORs (see :func:`counting_tags`).

>>> counting_tags({"A": Fraction(3), "2": Fraction(-1), "3": Fraction(-2)}, level=2)
{'A': 2, '2': -1, '3': -1}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.analysis.batch import BatchEvaluator, BetLike, compile_bets
from exactodds.errors import ShoeError
from exactodds.numbers import signed
from exactodds.shoe import MIN_CARDS, RANKS, SUITS, Card, Shoe
from exactodds.tableau import Tableau

__all__ = [
    "EffectOfRemoval",
    "counting_tags",
    "effect_of_removal",
    "eor_json",
    "render_eor",
]


@dataclass(frozen=True)
class EffectOfRemoval:
    """Exact EV and per-rank effect of removal of every bet, with counting tags.

    Player Pair on one deck: P(pair) = 3/51 = 1/17 and stays 1/17 with any one card removed
    ((3·2 + 12·4·3) / (51·50)), so the EV is −5/17 and every EOR and tag is zero:

    >>> zero = dict.fromkeys(RANKS, Fraction(0))
    >>> e = EffectOfRemoval(Shoe.decks(1), ("player_pair",), ("Player Pair",),
    ...     {"player_pair": Fraction(-5, 17)}, {"player_pair": zero},
    ...     {"player_pair": counting_tags(zero)}, 3)
    >>> e.weighted_sum("player_pair"), e.tags["player_pair"] == dict.fromkeys(RANKS, 0)
    (Fraction(0, 1), True)
    """

    shoe: Shoe
    bet_ids: tuple[str, ...]
    bet_names: tuple[str, ...]
    ev: Mapping[str, Fraction]
    eor: Mapping[str, Mapping[str, Fraction | None]]  # bet → rank → EV change (None: no card)
    tags: Mapping[str, Mapping[str, int]]
    level: int

    def weighted_sum(self, bet: str) -> Fraction:
        """Σ_r n_r·EOR_r over the shoe: zero exactly (a check of the figures)."""
        counts = self.shoe.rank_counts
        return sum(
            (counts[i] * e for i, r in enumerate(RANKS) if (e := self.eor[bet][r]) is not None),
            Fraction(0),
        )

    def correlation(self, bet: str) -> float:
        """Correlation of the tags with the EORs over one deck (for display: tag quality)."""
        pairs = [(t, self.eor[bet][r]) for r, t in self.tags[bet].items()]
        e = [(t, x) for t, x in pairs if x is not None]
        num = sum((t * x for t, x in e), Fraction(0))
        den2 = sum(t * t for t, _ in e) * sum((x * x for _, x in e), Fraction(0))
        return float(num) / math.sqrt(den2) if den2 else 0.0


def effect_of_removal(
    bets: Sequence[BetLike],
    shoe: Shoe,
    tableau: Tableau | None = None,
    *,
    evaluator: BatchEvaluator | None = None,
    level: int = 3,
) -> EffectOfRemoval:
    """Exact EOR of every rank for every bet, from the batch evaluator (53 states at most)."""
    ev_ = evaluator if evaluator is not None else compile_bets(bets, tableau)
    if shoe.size <= MIN_CARDS:
        raise ShoeError(
            f"effect of removal needs a shoe of more than {MIN_CARDS} cards, not {shoe.size}"
        )
    cards = [(r, s) for r in range(len(RANKS)) for s in range(len(SUITS)) if shoe.counts[r][s]]
    states = [shoe] + [shoe.remove([Card(r, s)]) for r, s in cards]
    result = ev_.evaluate(states)
    n0 = math.perm(shoe.size, 6)
    n1 = math.perm(shoe.size - 1, 6)
    ids = ev_.bet_ids
    eor: dict[str, dict[str, Fraction | None]] = {}
    base: dict[str, Fraction] = {}
    for j, bet in enumerate(ids):
        scale = result.scales[j]
        base[bet] = Fraction(int(result.numerators[0, j]), scale * n0)
        sums = [0] * len(RANKS)
        for i, (r, s) in enumerate(cards):
            sums[r] += shoe.counts[r][s] * int(result.numerators[i + 1, j])
        per_rank: dict[str, Fraction | None] = {}
        for r, name in enumerate(RANKS):
            n_r = shoe.rank_counts[r]
            per_rank[name] = Fraction(sums[r], n_r * scale * n1) - base[bet] if n_r else None
        eor[bet] = per_rank
    tags = {b: counting_tags(eor[b], level=level) for b in ids}
    return EffectOfRemoval(shoe, ids, ev_.bet_names, base, eor, tags, level)


def _round_half_away(x: Fraction) -> int:
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


def counting_tags(eor: Mapping[str, Fraction | None], *, level: int = 3) -> dict[str, int]:
    """Integer tags in −level..level, summing to zero over one deck, best correlated with EOR.

    Candidates are round(c·EOR) (half away from zero) for every scale c ≤ level / max|EOR| at
    which some rounding changes; a candidate that does not sum to zero over one deck is
    balanced by moving back, one step at a time, the tag rounded furthest in the direction of
    the excess (ties: rank order). The candidate with the highest correlation to the EORs wins
    (ties: the larger scale).

    >>> counting_tags({"A": Fraction(1), "5": Fraction(-1), "K": None}, level=1)
    {'A': 1, '5': -1, 'K': 0}
    """
    known = {r: e for r, e in eor.items() if e is not None and e != 0}
    top = max((abs(e) for e in known.values()), default=Fraction(0))
    if top == 0 or level < 1:
        return dict.fromkeys(eor, 0)
    c_max = Fraction(level) / top
    cuts = {
        (m + Fraction(1, 2)) / abs(e)
        for e in known.values()
        for m in range(level + 1)
        if (m + Fraction(1, 2)) / abs(e) <= c_max
    }
    best: dict[str, int] = {}
    best_score = (Fraction(-2), 0)
    for c in sorted(cuts | {c_max}, reverse=True):
        raw = {r: c * e for r, e in known.items()}
        tags = {r: _round_half_away(x) for r, x in raw.items()}
        order = list(raw)
        while (total := sum(tags.values())) != 0:
            step = 1 if total > 0 else -1
            r = max(order, key=lambda k: ((tags[k] - raw[k]) * step, -order.index(k)))
            tags[r] -= step
        score = (_signed_corr2(tags, known), 0)
        if score > best_score:
            best, best_score = tags, score
    return {r: best.get(r, 0) for r in eor}


def _signed_corr2(tags: Mapping[str, int], eor: Mapping[str, Fraction]) -> Fraction:
    """sign(corr)·corr² of tags and EORs, exact (for comparing tag sets without floats)."""
    num = sum((tags[r] * e for r, e in eor.items()), Fraction(0))
    den = sum(t * t for t in tags.values()) * sum((e * e for e in eor.values()), Fraction(0))
    if not den:
        return Fraction(0)
    return (1 if num >= 0 else -1) * num * num / den


def eor_json(result: EffectOfRemoval, paytable: str = "") -> dict[str, Any]:
    """JSON-ready: exact EORs as "p/q" strings, EVs, tags."""
    return {
        "paytable": paytable,
        "shoe": result.shoe.describe(),
        "ev": {b: str(result.ev[b]) for b in result.bet_ids},
        "eor": {
            b: {r: (None if e is None else str(e)) for r, e in result.eor[b].items()}
            for b in result.bet_ids
        },
        "tags": {b: dict(result.tags[b]) for b in result.bet_ids},
        "tag_level": result.level,
        "tag_rule": (
            f"round(c*EOR) half away from zero for each scale c with |tag| <= {result.level}, "
            "balanced to sum to zero over one deck, best correlation with EOR kept"
        ),
    }


def render_eor(result: EffectOfRemoval, paytable: str = "") -> str:
    """Markdown: EOR per rank in percentage points of EV, then the counting tags."""
    from tabulate import tabulate

    head = [
        f"# Effect of removal — {paytable}" if paytable else "# Effect of removal",
        "",
        f"Shoe: {result.shoe.describe()}. Each cell: change of the bet's EV, in % of the stake, "
        "when one card of that rank is removed (exact values in --format json).",
        "",
    ]
    rows = []
    for b, name in zip(result.bet_ids, result.bet_names, strict=True):
        cells = ["—" if (e := result.eor[b][r]) is None else signed(e * 100, 5) for r in RANKS]
        rows.append([name, signed(result.ev[b] * 100, 4), *cells])
    table = tabulate(
        rows, headers=["Bet", "EV %", *RANKS], tablefmt="github", disable_numparse=True
    )
    tag_rows = []
    for b, name in zip(result.bet_ids, result.bet_names, strict=True):
        tags = [f"{result.tags[b][r]:+d}" for r in RANKS]
        tag_rows.append([name, *tags, f"{result.correlation(b):.3f}"])
    tag_table = tabulate(
        tag_rows, headers=["Bet", *RANKS, "corr."], tablefmt="github", disable_numparse=True
    )
    note = (
        f"Counting tags: rounded multiples of the EORs, at most ±{result.level}, balanced to sum "
        "to zero over one deck (a full shoe counts 0), the best-correlated scale kept. "
        "A player counts "
        "the tags of the cards seen; corr. = correlation of tags with EOR. A bet whose EORs are "
        "all zero (pairs on a full shoe) cannot be counted by rank."
    )
    return "\n".join([*head, table, "", "## Counting tags", "", note, "", tag_table])
