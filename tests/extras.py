"""Tests of an optional extra: skipped, with the extra to install, when it is missing; in CI (the
environment variable ``CI`` set, as ``.ci/run`` does) they fail instead, so CI runs them all."""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

import pytest

__all__ = ["need", "requires"]


def _missing(module: str, extra: str) -> str:
    return f"{module} is missing: pip install 'exactodds[{extra}]'"


def need(module: str, extra: str) -> ModuleType:
    """``module`` imported; else the test (or, at module level, the file) is skipped — or fails
    in CI."""
    if importlib.util.find_spec(module.split(".", maxsplit=1)[0]) is not None:
        return importlib.import_module(module)
    if os.environ.get("CI"):
        pytest.fail(f"{_missing(module, extra)}: CI must run every test", pytrace=False)
    pytest.skip(_missing(module, extra), allow_module_level=True)


def requires(module: str, extra: str) -> pytest.MarkDecorator:
    """A mark skipping a test when ``module`` is missing (never in CI: there the test runs and
    fails on the missing module)."""
    missing = importlib.util.find_spec(module) is None and not os.environ.get("CI")
    return pytest.mark.skipif(missing, reason=_missing(module, extra))
