"""exactodds: exact combinatorial odds for baccarat and its side bets.

The package is laid out by the stages of the data flow, each importing only from earlier ones:
:mod:`~exactodds.deal` (shoe, tableau, round, joint distribution) → :mod:`~exactodds.language`
(paytable conditions) → :mod:`~exactodds.counting` (the card engine) → :mod:`~exactodds.bets`
(paytables) → :mod:`~exactodds.figures` (return, edge, solving, comparisons) →
:mod:`~exactodds.compliance` → :mod:`~exactodds.analysis` (removal, counting, simulation) →
:mod:`~exactodds.protection` → :mod:`~exactodds.session` → :mod:`~exactodds.report`
(sheets) → :mod:`~exactodds.cli`. The modules at the top are the helpers every stage shares.

>>> from exactodds import Shoe, joint_distribution
>>> joint_distribution(Shoe.decks(8)).total
4998398275503360
"""

from __future__ import annotations

from exactodds import _moved
from exactodds._version import VERSION
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import FEATURES, Hand, Outcome, PairKind, RoundState, Winner
from exactodds.deal.shoe import Card, Shoe, parse_card, parse_cards
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau, load_tableau
from exactodds.errors import (
    CardError,
    ExactOddsError,
    InputFileError,
    PaytableError,
    RoundError,
    ShoeError,
    TableauError,
)

_moved.install()

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
