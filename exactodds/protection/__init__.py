"""Game protection: what a seen card is worth (:mod:`.exposure`: sorting, flashes, burns),
figures given seen cards (:mod:`.information`) and their text (:mod:`.render`). The names of
:mod:`.exposure` are re-exported here, loaded on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    """The public names of :mod:`.exposure`, imported when first asked for (PEP 562)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module("exactodds.protection.exposure"), name)
