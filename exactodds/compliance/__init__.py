"""Compliance: jurisdiction rules (:mod:`.rules`) checked against a bet's exact figures, and
the profiles that hold them (:mod:`.profiles`, bundled or from a TOML file). The names of
:mod:`.rules` are re-exported here, loaded on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    """The public names of :mod:`.rules`, imported when first asked for (PEP 562)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module("exactodds.compliance.rules"), name)
