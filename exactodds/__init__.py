"""exactodds: exact combinatorial odds for baccarat and its side bets.

The data flow is shoe → tableau → round (the drawing rule) → engine (joint distribution) →
paytable → metrics → reports.

>>> from exactodds import Shoe, joint_distribution
>>> joint_distribution(Shoe.decks(8)).total
4998398275503360
"""

from __future__ import annotations

from exactodds._version import VERSION
from exactodds.engine import Joint, joint_distribution
from exactodds.errors import (
    CardError,
    ExactOddsError,
    InputFileError,
    PaytableError,
    RoundError,
    ShoeError,
    TableauError,
)
from exactodds.round import FEATURES, Hand, Outcome, PairKind, RoundState, Winner
from exactodds.shoe import Card, Shoe, parse_card, parse_cards
from exactodds.tableau import BUILTIN, STOOD, Tableau, load_tableau

__version__ = VERSION
"""The installed version (see :mod:`exactodds._version`)."""

__all__ = [
    "BUILTIN",
    "FEATURES",
    "STOOD",
    "Card",
    "CardError",
    "ExactOddsError",
    "Hand",
    "InputFileError",
    "Joint",
    "Outcome",
    "PairKind",
    "PaytableError",
    "RoundError",
    "RoundState",
    "Shoe",
    "ShoeError",
    "Tableau",
    "TableauError",
    "Winner",
    "__version__",
    "joint_distribution",
    "load_tableau",
    "parse_card",
    "parse_cards",
]
