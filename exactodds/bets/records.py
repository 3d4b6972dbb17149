"""The joint distribution's feature records as bitsets: each condition of a paytable row is
evaluated once over all records (:meth:`~exactodds.bets.paytable.Bet.row_hits`), and the
combinations of a set of records summed by bit planes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from exactodds.deal.engine import Joint
from exactodds.deal.round import FEATURE_INDEX
from exactodds.language import Index, Memo

__all__ = ["record_index"]


@dataclass(frozen=True)
class _RecordBits:
    """The joint's records as bitsets (bit j: record j): feature → value → the records with
    that value; the combinations as bit planes (shift k, the records whose count has bit k), so
    the combinations of any set of records is Σ popcount(set & plane) · 2^k; all records; and
    what was already evaluated on them (conditions, and the combinations of sets of records),
    shared by every bet."""

    index: Index
    planes: tuple[tuple[int, int], ...]
    everything: int
    memo: Memo = field(default_factory=dict)
    counted: dict[int, int] = field(default_factory=dict)

    def combinations(self, records: int) -> int:
        """The combinations of a set of records."""
        n = self.counted.get(records)
        if n is None:
            n = self.counted[records] = sum(
                (records & plane).bit_count() << shift for shift, plane in self.planes
            )
        return n


@lru_cache(maxsize=16)
def _record_index(joint: Joint) -> _RecordBits:
    """The joint's records as :class:`_RecordBits`."""
    index, everything = record_index([record for record, _ in joint.records])
    width = max((n.bit_length() for _, n in joint.records), default=0)
    digits = [format(n, f"0{width}b") for _, n in joint.records]
    planes = tuple(
        (width - 1 - k, int("".join(bits)[::-1], 2))
        for k, bits in enumerate(zip(*digits, strict=True))
    )
    return _RecordBits(index, planes, everything)


def record_index(records: Sequence[tuple[object, ...]]) -> tuple[Index, int]:
    """Feature records (:func:`~exactodds.deal.round.feature_record`) as bitsets for
    :meth:`Bet.row_hits`, bit j standing for record j: feature → value → the records with that
    value; and the set of all records.

    >>> from exactodds.deal.round import Hand, Outcome, PairKind, feature_record
    >>> tie = Outcome(Hand(4, None, PairKind.NONE), Hand(4, None, PairKind.NONE))
    >>> win = Outcome(Hand(9, None, PairKind.NONE), Hand(4, None, PairKind.NONE))
    >>> index, everything = record_index([feature_record(tie), feature_record(win)])
    >>> index["winner"]["tie"], everything
    (1, 3)
    """
    if not records:
        return {name: {} for name in FEATURE_INDEX}, 0
    columns = zip(FEATURE_INDEX, zip(*records, strict=True), strict=True)
    return {name: _bitsets(column) for name, column in columns}, (1 << len(records)) - 1


def _bitsets(column: tuple[object, ...]) -> dict[object, int]:
    """Value → bitset of the positions holding it (built with C-speed bytes operations)."""
    try:  # small numbers and true/false are their own codes
        data = bytes(column)  # type: ignore[arg-type]
        codes = {v: int(v) for v in set(column)}  # type: ignore[call-overload]
    except (TypeError, ValueError):  # none, winners
        codes = {v: i for i, v in enumerate(set(column))}
        data = bytes(codes[v] for v in column)
    out = {}
    for v, i in codes.items():
        table = bytes(49 if c == i else 48 for c in range(256))  # "1" at value i, else "0"
        out[v] = int(data.translate(table)[::-1], 2)
    return out
