"""Benchmark: combinations of every paytable row, from bitsets against record by record.

``Bet.row_combinations`` evaluates each row's condition once per distinct feature value over all
the joint's records (as bitsets). The reference here tries the rows in order for each group of
records, as exactodds did before: its work grows as rows × records, which a hostile paytable
(rows that never match, naming every feature) turns into minutes. Both must agree; prints the
time of each and their ratio, for the bundled classic paytable and for such a bet.

    python benchmarks/rows.py
"""

from __future__ import annotations

import time
from typing import Any

from exactodds.conditions import OTHERWISE, parse_condition
from exactodds.engine import Joint, joint_distribution
from exactodds.payout import LOSE, parse_payout
from exactodds.paytable import Bet, Row, _record_index, _row_combinations
from exactodds.paytable_loader import load_paytable
from exactodds.shoe import Shoe

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


if __name__ == "__main__":
    main()
