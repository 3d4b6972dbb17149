"""exactodds: exact combinatorial odds for baccarat and its side bets.

The names a user needs are here, in :data:`__all__` (docs/api.md lists them with their home
modules); each is imported on first use (PEP 562), so ``import exactodds`` stays cheap for the
command line, which imports the package on every command. Sessions are
:func:`exactodds.session.session` (``exactodds.session`` is the stage's package).

The package is laid out by the stages of the data flow, each importing only from earlier ones:
:mod:`~exactodds.deal` (shoe, tableau, round, joint distribution) → :mod:`~exactodds.language`
(paytable conditions) → :mod:`~exactodds.counting` (the card engine) → :mod:`~exactodds.bets`
(paytables) → :mod:`~exactodds.figures` (return, edge, solving, comparisons) →
:mod:`~exactodds.compliance` → :mod:`~exactodds.analysis` (removal, counting, simulation) →
:mod:`~exactodds.protection` → :mod:`~exactodds.session` → :mod:`~exactodds.report`
(sheets) → :mod:`~exactodds.cli`. The modules at the top are the helpers every stage shares.

>>> from exactodds import Shoe, joint_distribution, load_paytable, paytable_figures
>>> joint_distribution(Shoe.decks(8)).total
4998398275503360
>>> paytable_figures(load_paytable("classic"))[2]
<BetFigures tie: house edge 14.3596%, RTP 85.6404%, hit 9.5156%, largest win 8>
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from exactodds import _moved
from exactodds._version import VERSION

if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ imports
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.analysis.prepare import Counting
    from exactodds.analysis.simulate import simulate
    from exactodds.bets.loader import load_paytable, parse_paytable
    from exactodds.bets.multipliers import MultiplierTable, Multiply, Peek
    from exactodds.bets.payout import parse_payout
    from exactodds.bets.paytable import Bet, Paytable, Row
    from exactodds.bets.settle import settle_round
    from exactodds.compliance.profiles import check_paytable_against
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
    from exactodds.figures.compare import compare_variants
    from exactodds.figures.formula import edge_formulas
    from exactodds.figures.metrics import (
        BetFigures,
        bet_figures,
        compare_paytables,
        paytable_figures,
    )
    from exactodds.figures.odds import odds_summary
    from exactodds.figures.peek import PeekFigures, peek_figures
    from exactodds.figures.reweigh import with_table
    from exactodds.figures.solve import solve_payout
    from exactodds.figures.solve_live import solve_fee, solve_live_pay, solve_weight
    from exactodds.language import parse_condition
    from exactodds.report import build_sheet, render_sheets
    from exactodds.session.result import Session

_moved.install()

__version__ = VERSION
"""The installed version (see :mod:`exactodds._version`)."""

PUBLIC: dict[str, str] = {
    # shoes, rounds and the engine
    "Shoe": "exactodds.deal.shoe",
    "Card": "exactodds.deal.shoe",
    "parse_card": "exactodds.deal.shoe",
    "parse_cards": "exactodds.deal.shoe",
    "Tableau": "exactodds.deal.tableau",
    "BUILTIN": "exactodds.deal.tableau",
    "STOOD": "exactodds.deal.tableau",
    "load_tableau": "exactodds.deal.tableau",
    "Hand": "exactodds.deal.round",
    "Outcome": "exactodds.deal.round",
    "PairKind": "exactodds.deal.round",
    "RoundState": "exactodds.deal.round",
    "Winner": "exactodds.deal.round",
    "FEATURES": "exactodds.deal.round",
    "Joint": "exactodds.deal.engine",
    "joint_distribution": "exactodds.deal.engine",
    # paytables, conditions, payouts, settling
    "parse_condition": "exactodds.language",
    "load_paytable": "exactodds.bets.loader",
    "parse_paytable": "exactodds.bets.loader",
    "Paytable": "exactodds.bets.paytable",
    "Bet": "exactodds.bets.paytable",
    "Row": "exactodds.bets.paytable",
    "parse_payout": "exactodds.bets.payout",
    "MultiplierTable": "exactodds.bets.multipliers",
    "Multiply": "exactodds.bets.multipliers",
    "Peek": "exactodds.bets.multipliers",
    "settle_round": "exactodds.bets.settle",
    # figures
    "BetFigures": "exactodds.figures.metrics",
    "bet_figures": "exactodds.figures.metrics",
    "paytable_figures": "exactodds.figures.metrics",
    "compare_paytables": "exactodds.figures.metrics",
    "compare_variants": "exactodds.figures.compare",
    "edge_formulas": "exactodds.figures.formula",
    "odds_summary": "exactodds.figures.odds",
    "peek_figures": "exactodds.figures.peek",
    "PeekFigures": "exactodds.figures.peek",
    "with_table": "exactodds.figures.reweigh",
    "solve_payout": "exactodds.figures.solve",
    "solve_fee": "exactodds.figures.solve_live",
    "solve_live_pay": "exactodds.figures.solve_live",
    "solve_weight": "exactodds.figures.solve_live",
    # compliance, analysis, sessions, sheets
    "check_paytable_against": "exactodds.compliance.profiles",
    "effect_of_removal": "exactodds.analysis.eor",
    "simulate": "exactodds.analysis.simulate",
    "Counting": "exactodds.analysis.prepare",
    "Session": "exactodds.session.result",
    "build_sheet": "exactodds.report",
    "render_sheets": "exactodds.report",
    # errors
    "ExactOddsError": "exactodds.errors",
    "CardError": "exactodds.errors",
    "InputFileError": "exactodds.errors",
    "PaytableError": "exactodds.errors",
    "RoundError": "exactodds.errors",
    "ShoeError": "exactodds.errors",
    "TableauError": "exactodds.errors",
}
"""Each public name → the module that defines it (imported when the name is first used)."""

__all__ = [
    "BUILTIN",
    "FEATURES",
    "STOOD",
    "Bet",
    "BetFigures",
    "Card",
    "CardError",
    "Counting",
    "ExactOddsError",
    "Hand",
    "InputFileError",
    "Joint",
    "MultiplierTable",
    "Multiply",
    "Outcome",
    "PairKind",
    "Paytable",
    "PaytableError",
    "Peek",
    "PeekFigures",
    "RoundError",
    "RoundState",
    "Row",
    "Session",
    "Shoe",
    "ShoeError",
    "Tableau",
    "TableauError",
    "Winner",
    "__version__",
    "bet_figures",
    "build_sheet",
    "check_paytable_against",
    "compare_paytables",
    "compare_variants",
    "edge_formulas",
    "effect_of_removal",
    "joint_distribution",
    "load_paytable",
    "load_tableau",
    "odds_summary",
    "parse_card",
    "parse_cards",
    "parse_condition",
    "parse_payout",
    "parse_paytable",
    "paytable_figures",
    "peek_figures",
    "render_sheets",
    "settle_round",
    "simulate",
    "solve_fee",
    "solve_live_pay",
    "solve_payout",
    "solve_weight",
    "with_table",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept here)."""
    home = PUBLIC.get(name)
    if home is None:
        raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *PUBLIC})
