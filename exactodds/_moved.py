"""Modules that moved when the package was laid out by stage (0.9): each old name still imports,
as the very module object of its new home, so ``from exactodds.paytable import Paytable`` and
``mock.patch("exactodds.paytable_loader.…")`` keep working. New code imports the new names.

>>> import exactodds.paytable, exactodds.bets.paytable
>>> exactodds.paytable is exactodds.bets.paytable
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

MOVED: dict[str, str] = {
    "exactodds.shoe": "exactodds.deal.shoe",
    "exactodds.tableau": "exactodds.deal.tableau",
    "exactodds.round": "exactodds.deal.round",
    "exactodds.engine": "exactodds.deal.engine",
    "exactodds.conditions": "exactodds.language",
    "exactodds.cards": "exactodds.counting",
    "exactodds.payout": "exactodds.bets.payout",
    "exactodds.paytable": "exactodds.bets.paytable",
    "exactodds.paytable_loader": "exactodds.bets.loader",
    "exactodds.paytable_judge": "exactodds.bets.judge",
    "exactodds.paytable_toml": "exactodds.bets.paytable_toml",
    "exactodds.progressive": "exactodds.bets.progressive",
    "exactodds.streak": "exactodds.bets.streak",
    "exactodds.bundled": "exactodds.bets.bundled",
    "exactodds.offers": "exactodds.bets.offers",
    "exactodds.game": "exactodds.bets.game",
    "exactodds.budget": "exactodds.bets.budget",
    "exactodds.settle": "exactodds.bets.settle",
    "exactodds.settle_rounds": "exactodds.bets.settle_rounds",
    "exactodds.metrics": "exactodds.figures.metrics",
    "exactodds.formula": "exactodds.figures.formula",
    "exactodds.solve": "exactodds.figures.solve",
    "exactodds.odds": "exactodds.figures.odds",
    "exactodds.compare": "exactodds.figures.compare",
    "exactodds.worked_examples": "exactodds.figures.worked_examples",
    "exactodds.profile_loader": "exactodds.compliance.profiles",
    "exactodds.confidence": "exactodds.analysis.confidence",
    "exactodds.information": "exactodds.protection.information",
    "exactodds.protection_render": "exactodds.protection.render",
    "exactodds.ownership": "exactodds.report.ownership",
    "exactodds.session.render": "exactodds.report.session_render",
}
"""Old dotted name → the module that now holds it (CHANGELOG.md lists the moves)."""


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module of its new name (imported once, shared)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module ran when it was imported."""


class _MovedFinder(importlib.abc.MetaPathFinder):
    """Finds only the old names of :data:`MOVED`."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias())


def install() -> None:
    """Put the finder on :data:`sys.meta_path` once."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
