"""Sessions and programmes: the exact distribution of a flat unit bet's net result over N
independent rounds, risk of ruin, loss rebates, dead chips and theoretical win
(docs/programmes.md).

>>> from exactodds.session import session
>>> session("classic", "tie", 2).distribution.outcomes()[-1][0]  # two Ties: +16
Fraction(16, 1)
"""

from __future__ import annotations

from exactodds.session.distribution import PERCENTILES, Range, SessionDistribution
from exactodds.session.programme import DeadChip, TheoWin, dead_chip, edge_after_rebate
from exactodds.session.result import INDEPENDENT_NOTE, Session, session

__all__ = [
    "INDEPENDENT_NOTE",
    "PERCENTILES",
    "DeadChip",
    "Range",
    "Session",
    "SessionDistribution",
    "TheoWin",
    "dead_chip",
    "edge_after_rebate",
    "session",
]
