"""Start-up stays lean: ``exactodds odds`` imports none of the heavy modules the other commands
load on demand (the timing itself is ``benchmarks/cli.py``'s; this checks ``sys.modules``)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from importlib.metadata import version

import pytest

import exactodds
from exactodds.cli.app import app, command_for

LAZY = (
    "exactodds.report",  # the sheets: report, compare, check
    "exactodds.bets.loader",  # odds without --paytable reads no paytable
    "rich",  # only a terminal summary or a progress display draws with it
    "numpy",
    "sympy",
    "matplotlib",
    "pandas",
    "scipy",
    "numba",
    "importlib.metadata",  # the version is a constant (exactodds/_version.py)
)

_PROBE = """
import io, json, sys
from contextlib import redirect_stdout
import exactodds.cli.odds
imported = set(sys.modules)
from exactodds.cli import run
with redirect_stdout(io.StringIO()) as out:
    code = run(["odds", "--decks", "1"])
print(json.dumps([sorted(imported), sorted(sys.modules), code, out.getvalue()]))
"""


@pytest.fixture(scope="module")
def probe() -> tuple[set[str], set[str], int, str]:
    """Modules after importing the ``odds`` command, after running it, its code and output."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    )
    imported, ran, code, out = json.loads(done.stdout)
    return set(imported), set(ran), code, out


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in LAZY))


def test_importing_the_odds_command_loads_no_heavy_module(
    probe: tuple[set[str], set[str], int, str],
) -> None:
    imported, _, _, _ = probe
    assert "exactodds.cli.odds" in imported
    assert _heavy(imported) == []


def test_running_odds_loads_no_heavy_module(probe: tuple[set[str], set[str], int, str]) -> None:
    _, ran, code, out = probe
    assert code == 0
    assert f"Universe: {math.perm(52, 6):,} ordered" in out  # it ran, on one deck
    assert _heavy(ran) == []


def test_the_probe_sees_a_heavy_import() -> None:
    """The check can fail: a command that does need the sheets shows them in ``sys.modules``."""
    code = "import sys, exactodds.report; print('exactodds.report' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
    assert _heavy({"exactodds.report.sheet", "rich.console", "numpy"}) == [
        "exactodds.report.sheet",
        "numpy",
        "rich.console",
    ]


@pytest.mark.parametrize("name", ["odds", "report", "validate"])
def test_one_command_group_has_the_same_options(name: str) -> None:
    """``command_for`` builds only the command asked for, with the options of the whole app."""
    import typer

    whole = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    lean = command_for([name, "--help"])
    assert list(lean.commands) == [name]
    assert [p.opts for p in lean.commands[name].params] == [p.opts for p in whole.params]
    assert type(command_for(["--version"])) is type(lean)
    everything = len(app.registered_commands) + len(app.registered_groups)  # groups: game
    assert len(command_for(["no-such-command"]).commands) == everything
    assert list(command_for(["game", "--help"]).commands) == ["game"]


def test_the_version_constant_is_the_installed_version() -> None:
    """pyproject.toml reads the version from exactodds/_version.py: the two cannot differ."""
    assert exactodds.__version__ == version("exactodds")


def test_a_terminal_loads_no_heavy_module_before_a_count() -> None:
    """On a terminal the progress bar is set up for the card engine without importing it."""
    code = (
        "import io, sys\n"
        "class Tty(io.StringIO):\n"
        "    def isatty(self): return True\n"
        "sys.stderr = Tty()\n"
        "from exactodds.cli.progress import counting_progress\n"
        "with counting_progress(): pass\n"
        "print('numpy' in sys.modules, 'exactodds.counting.engine' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
