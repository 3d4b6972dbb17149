"""Modules of the 0.1.0 release that moved when the package was laid out by stage: each old
name still imports, as the very module object of its new home, so ``from exactodds.paytable
import Paytable`` and ``mock.patch("exactodds.paytable_loader.…")`` keep working. Modules
created after 0.1.0 and moved since keep no alias (no release shipped their old names). New
code imports from :mod:`exactodds` (its documented names) or the new module names.

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
    "exactodds.payout": "exactodds.bets.payout",
    "exactodds.paytable": "exactodds.bets.paytable",
    "exactodds.paytable_loader": "exactodds.bets.loader",
    "exactodds.bundled": "exactodds.bets.bundled",
    "exactodds.settle": "exactodds.bets.settle",
    "exactodds.metrics": "exactodds.figures.metrics",
    "exactodds.formula": "exactodds.figures.formula",
    "exactodds.solve": "exactodds.figures.solve",
    "exactodds.odds": "exactodds.figures.odds",
    "exactodds.compare": "exactodds.figures.compare",
    "exactodds.confidence": "exactodds.analysis.confidence",
}
"""Old dotted name of a 0.1.0 module → the module that now holds it (CHANGELOG.md lists the
moves)."""


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
