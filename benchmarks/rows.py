"""Benchmark: combinations of every paytable row, from bitsets against record by record; and
compiling a paytable for the batch evaluator (``simulate``, ``eor``) the same two ways.

``Bet.row_combinations`` evaluates each row's condition once per distinct feature value over all
the joint's records (as bitsets). The reference here tries the rows in order for each group of
records, as exactodds did before: its work grows as rows × records, which a hostile paytable
(rows that never match, naming every feature) turns into minutes. Both must agree; prints the
time of each and their ratio, for the bundled classic paytable and for such a bet.

``compile_bets`` settles every bet on each of the ~14,000 outcomes it compiles; it uses the same
bitsets (``Bet.row_hits``). The reference asks each bet outcome by outcome (``net_of_record``,
remembered per combination of the features the bet looks at), as exactodds did before. Cases:
classic, and two valid hostile paytables at the 1 MiB file limit whose rows all can match but
only late (240 bets × 48 rows; 44 bets × 256 rows). Both must compile to the same integers;
prints the time of each and their ratio.

    python benchmarks/rows.py
"""

from __future__ import annotations

import tempfile
import time
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from exactodds.analysis.batch.compiler import _compile
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import LOSE, parse_payout
from exactodds.bets.paytable import Bet, Row, _row_combinations
from exactodds.bets.records import _record_index
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import Outcome, feature_record
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition

HOSTILE = (
    "player.initial == 0 and player.third == 11 and banker.initial == 0 and banker.third == 11"
    " and player.perfect_pair and banker.perfect_pair"
)


def by_record(joint: Joint, bet: Bet) -> tuple[int, ...]:
    """The reference: group records by the bet's features, try the rows in order per group."""
    groups: dict[object, list[Any]] = {}
    for record, n in joint.records:
        slot = groups.setdefault(bet._project(record), [record, 0])
        slot[1] += n
    out = [0] * len(bet.rows)
    for record, n in groups.values():
        out[next(i for i, row in enumerate(bet.rows) if row.when.test(record))] += n
    return tuple(out)


def hostile_bet(rows: int) -> Bet:
    """A bet of ``rows`` rows that never match and name every feature that splits records."""
    row = Row(parse_condition(HOSTILE), parse_payout("1:1"), "never")
    return Bet("hostile", "Hostile", (row,) * rows + (Row(OTHERWISE, LOSE, "other"),))


class OutcomeByOutcome:
    """The reference for compiling: a bet settled outcome by outcome, as before bitsets."""

    def __init__(self, bet: Bet) -> None:
        self.bet = bet
        self.id, self.name, self.max_round = bet.id, bet.name, bet.max_round

    def net(self, outcome: Outcome) -> Fraction:
        return self.bet.net_of_record(_record(outcome))


_record = lru_cache(maxsize=None)(feature_record)  # one record per outcome, as before


def hostile_paytable(bets: int, rows: int) -> str:
    """A valid paytable whose rows each name one (player.initial, banker.initial, player.third)
    that occurs (the player draws): most outcomes try many rows before one matches."""
    combos = [(a, b, c) for c in range(10) for a in range(6) for b in range(8)][: rows - 1]
    lines = ['name = "hostile"', "decks = 8", 'rules = "punto-banco"']
    for k in range(bets):
        lines += [f"[bets.b{k}]", "rows = ["]
        lines += [
            f'{{when="player.third == {c} and banker.initial == {b} and player.initial == {a}",'
            'pays="1:1"},'
            for a, b, c in combos
        ]
        lines.append('{when="otherwise",pays="lose"}]')
    return "\n".join(lines) + "\n"


def compile_cases() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"classic (14 bets)": load_paytable("classic").bets}
        for bets, rows in ((240, 48), (44, 256)):
            path = Path(tmp, f"hostile-{bets}x{rows}.toml")
            path.write_text(hostile_paytable(bets, rows), encoding="utf-8")
            size = path.stat().st_size
            cases[f"hostile ({bets} bets × {rows} rows, {size:,} bytes)"] = load_paytable(path).bets
    tableau = BUILTIN["punto-banco"]
    _compile([load_paytable("classic").round_bet("tie")], tableau)  # per-tableau tables, once
    for label, table_bets in cases.items():
        start = time.perf_counter()
        reference = _compile([OutcomeByOutcome(b) for b in table_bets], tableau)
        by_outcome = time.perf_counter() - start
        start = time.perf_counter()
        got = _compile(table_bets, tableau)
        bitsets = time.perf_counter() - start
        assert (got.scales, got.nets) == (reference.scales, reference.nets), label
        print(
            f"compile {label}: outcome by outcome {by_outcome:.2f} s, bitsets {bitsets:.2f} s "
            f"(ratio {by_outcome / bitsets:.1f})"
        )


def main() -> None:
    joint = joint_distribution(Shoe.decks(8))
    joint.records  # noqa: B018 - computed once, outside the timings
    cases = {
        "classic (14 bets)": list(load_paytable("classic").bets),
        "hostile (1 bet, 200 rows)": [hostile_bet(200)],
    }
    for label, bets in cases.items():
        start = time.perf_counter()
        expected = [by_record(joint, bet) for bet in bets]
        reference = time.perf_counter() - start
        _row_combinations.cache_clear()
        _record_index.cache_clear()  # the bitsets of the records are built in the timing
        start = time.perf_counter()
        got = [_row_combinations(joint, bet) for bet in bets]
        bitsets = time.perf_counter() - start
        assert got == expected, label
        print(
            f"{label}: record by record {reference:.3f} s, bitsets {bitsets:.3f} s "
            f"(ratio {reference / bitsets:.1f})"
        )
    compile_cases()


if __name__ == "__main__":
    main()
