"""The documented public API: every name of ``exactodds.__all__`` resolves (lazily, from the
module docs/api.md names for it) and is listed there; modules of the 0.1.0 release keep their old
names, and names no release shipped have none."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import exactodds
from exactodds._moved import MOVED

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _documented() -> dict[str, str]:
    """Name → home module, from the table of public names in docs/api.md."""
    out = {}
    for line in API.read_text(encoding="utf-8").splitlines():
        row = re.fullmatch(r"\| `([\w.]+)` \| (.+) \|", line)
        if row:
            for name in re.findall(r"`(\w+)`", row[2]):
                out[name] = row[1]
    return out


def test_every_public_name_resolves_from_its_documented_module() -> None:
    documented = _documented()
    assert sorted(documented) == sorted(exactodds.__all__)
    for name in exactodds.__all__:
        home = importlib.import_module(documented[name])
        want = home.VERSION if name == "__version__" else getattr(home, name)
        assert getattr(exactodds, name) is want, name


def test_the_package_imports_its_names_only_when_used() -> None:
    code = (
        "import sys, exactodds\n"
        "before = sorted(m for m in sys.modules if m.startswith('exactodds.'))\n"
        "from exactodds import load_paytable\n"
        "print(before, 'exactodds.bets.loader' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['exactodds._moved', 'exactodds._version'] True"
    with pytest.raises(AttributeError, match="no attribute 'paytable_figure'"):
        exactodds.paytable_figure  # noqa: B018 - the attribute lookup is the test


def test_old_module_names_are_those_of_the_release() -> None:
    """0.1.0's top-level modules (exactodds.paytable, …) still import; modules created after it
    and moved since (exactodds.streak, exactodds.worked_examples) have no alias."""
    assert "exactodds.paytable" in MOVED and "exactodds.streak" not in MOVED
    for gone in ("exactodds.streak", "exactodds.worked_examples", "exactodds.profile_loader"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(gone)
