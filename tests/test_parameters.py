"""Library errors name the parameter of the Python call (``rounds``, ``hands_per_hour``); the
command line shows the same errors with its options (``--rounds``, ``--hands-per-hour``), mapped
in one table (exactodds/cli/parameters.py)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from exactodds.analysis.count import parse_triggers
from exactodds.analysis.plots import check_plots
from exactodds.analysis.scheduler import check_address
from exactodds.analysis.simulate import check_run
from exactodds.bets.settle import parse_stake
from exactodds.cli.parameters import BY_COMMAND, OPTIONS, cli_message
from exactodds.compliance.profiles import load_profiles
from exactodds.deal.shoe import Shoe
from exactodds.errors import ExactOddsError
from exactodds.games.api import baccara_banque
from exactodds.protection.exposure import check_seen, parse_sort
from exactodds.protection.information import parse_given
from exactodds.report.generate import check_sheet_format
from exactodds.report.montecarlo import check_monte_carlo_options
from exactodds.report.session import check_session_rounds
from exactodds.report.sheet import resolve_date
from exactodds.session import session
from tests.cli_helpers import Cli

LIBRARY: list[tuple[Callable[[], object], str, tuple[str, ...]]] = [
    (lambda: session("classic", "tie", 0), "rounds 0: give a whole number", ("rounds",)),
    (
        lambda: session("classic", "tie", 2, hands_per_hour=70),
        "hands_per_hour and average_bet go together",
        ("hands_per_hour", "average_bet"),
    ),
    (
        lambda: session("classic", "tie", 2, commission="1%"),
        "commission applies to dead chips: add dead_chips",
        ("commission", "dead_chips"),
    ),
    (lambda: session("classic", "tie", 2, bankroll="nan"), "bankroll 'nan'", ("bankroll",)),
    (lambda: session("classic", "dragon", 2), "bet: ", ("bet",)),
    (lambda: resolve_date("29.02.2024"), "date '29.02.2024' is not a date", ("date",)),
    (lambda: check_monte_carlo_options(1, -1), "seed must be a non-negative", ("seed",)),
    (lambda: check_run(1, Shoe.decks(1), 1, cut_card=60), "cut_card 60 must be", ("cut_card",)),
    (lambda: check_address("ucx://h:1"), "scheduler 'ucx://h:1'", ("scheduler",)),
    (lambda: parse_triggers(["tie"], ["tie"]), "triggers 'tie'", ("triggers",)),
    (lambda: load_profiles("adm,adm"), "against names profile 'adm' twice", ("against",)),
    (lambda: parse_sort("6 6"), "sort '6 6'", ("sort",)),
    (lambda: check_seen(5), "seen 5", ("seen",)),
    (lambda: parse_given("P: 9 | B: ? ?"), "given 'P: 9 | B: ? ?'", ("given",)),
    (lambda: Shoe.from_options(decks=1, remove="Kd Kd"), "remove: cannot remove Kd", ("remove",)),
    (lambda: Shoe.from_options(decks=0), "decks: number of decks", ("decks",)),
    (lambda: parse_stake("player"), "bet 'player': must be ID=STAKE", ("bet",)),
    (lambda: check_session_rounds(5000), "session 5,000: give the rounds", ("session",)),
    (
        lambda: check_sheet_format("xlsx", to_files=False),
        "fmt xlsx writes binary files, one per sheet: give out DIR",
        ("fmt", "out"),
    ),
    (
        lambda: baccara_banque("ethier-gamez"),
        "solved with replacement only (model kemeny-snell), not ethier-gamez",
        ("model",),
    ),
]


def test_plots_without_matplotlib_name_the_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    with pytest.raises(ExactOddsError) as info:
        check_plots()
    assert str(info.value) == "plots needs matplotlib: pip install 'exactodds[plots]'"
    assert info.value.parameters == ("plots",)
    assert cli_message(info.value) == "--plots needs matplotlib: pip install 'exactodds[plots]'"


def test_sheets_written_over_each_other_name_the_out_parameter(tmp_path: Path) -> None:
    """Two paytables of one file name would be written to one ``classic.*``: the message names
    ``out`` first (the CLI's ``--out``), before the file names, which may hold the word."""
    from dataclasses import replace

    from exactodds.report import build_sheets
    from exactodds.report.generate import plan_files

    (sheet,) = build_sheets(["classic"], bet_ids=["tie"], date="2024-01-01")
    other = replace(sheet, file="out/classic.toml")
    with pytest.raises(ExactOddsError) as info:
        plan_files([sheet, other], ["md"], tmp_path)
    assert str(info.value) == (
        "out: paytables/classic.toml and out/classic.toml would both be written as classic.*; "
        "write them to different directories"
    )
    assert cli_message(info.value, "report").startswith("--out: paytables/classic.toml and out/")


@pytest.mark.parametrize(("call", "text", "names"), LIBRARY, ids=[t for _, t, _ in LIBRARY])
def test_a_library_error_names_its_parameters(
    call: Callable[[], object], text: str, names: tuple[str, ...]
) -> None:
    with pytest.raises(ExactOddsError) as info:
        call()
    assert text in str(info.value)
    assert "--" not in str(info.value)
    assert info.value.parameters[: len(names)] == names
    assert all(name in OPTIONS for name in info.value.parameters)  # the CLI can name each


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["session", "classic", "--bet", "tie", "--rounds", "2", "--bankroll", "nan"],
            "--bankroll 'nan': give a number",
        ),
        (
            ["session", "classic", "--bet", "tie", "--rounds", "2", "--hands-per-hour", "70"],
            "--hands-per-hour and --average-bet go together",
        ),
        (
            ["session", "classic", "--bet", "tie", "--rounds", "2", "--commission", "1%"],
            "--commission applies to dead chips: add --dead-chips",
        ),
        (["report", "classic", "--date", "29.02.2024"], "--date '29.02.2024' is not a date"),
        (
            ["report", "classic", "--monte-carlo-rounds", "5", "--seed", "-1"],
            "--seed must be a non-negative integer",
        ),
        (["simulate", "classic", "--decks", "1", "--cut-card", "60"], "--cut-card 60 must be"),
        (["check", "classic", "--against", "adm,adm"], "--against names profile 'adm' twice"),
        (["exposure", "classic", "--sort", "6 6"], "--sort '6 6'"),
        (["odds", "--decks", "1", "--remove", "Kd Kd"], "--remove: cannot remove Kd"),
        (["report", "classic", "--session", "5000"], "--session 5,000: give the rounds"),
        (
            ["game", "banque", "--model", "ethier-gamez"],
            "baccara banque is solved with replacement only (--model kemeny-snell), not",
        ),
        (
            ["report", "classic", "--format", "xlsx"],
            "--format xlsx writes binary files, one per sheet: give --out DIR",
        ),
    ],
)
def test_the_command_line_names_its_options(argv: list[str], line: str, cli: Cli) -> None:
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"exactodds: error: {line}") or f": {line}" in err, err


def test_only_the_first_word_of_a_parameter_is_its_option() -> None:
    """Prose after the parameter keeps its words ("use fewer rounds"); a command whose option
    differs maps it (report's Monte Carlo section: ``--monte-carlo-rounds``)."""
    from exactodds.errors import SessionError, about

    exc = about(SessionError("rounds 9: over the limit; use fewer rounds"), "rounds")
    assert cli_message(exc, "session") == "--rounds 9: over the limit; use fewer rounds"
    assert cli_message(exc, "report").startswith("--monte-carlo-rounds 9:")
    assert set(BY_COMMAND["report"]) <= set(OPTIONS)
    assert cli_message(SessionError("rounds 9")) == "rounds 9"  # names no parameter


@cache
def _library() -> dict[str, ast.Module]:
    """The library's modules outside the CLI, parsed once: path under the package → tree."""
    import exactodds

    package = Path(exactodds.__file__).parent
    return {
        path.relative_to(package).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(package.rglob("*.py"))
        if "cli" not in path.relative_to(package).parts
    }


def test_no_library_module_names_an_option_where_it_names_a_value() -> None:
    """``named("--bet")`` outside the CLI was how the library prefixed errors with an option;
    it names the parameter now (``parameter("bet_ids")``), and the CLI maps it."""
    found = []
    for name, tree in _library().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("named", "parameter", "check_count")
            ):
                texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
                found += [f"{name}: {t}" for t in texts if isinstance(t, str) and t[:2] == "--"]
    assert found == []


CONVERTED = ("report/generate.py", "analysis/plots.py", "games/api.py")
"""Library modules whose every message names parameters, never options (docstrings aside)."""

OPTION_IN_MESSAGE = ("bets/budget.py",)
"""Library modules whose raised messages still name options (work budgets, edited elsewhere)."""


def _strings(tree: ast.AST, *, docstrings: bool) -> list[ast.Constant]:
    """The string constants of ``tree`` (f-string parts included), with or without docs."""
    docs = set()
    if not docstrings:  # a statement that is a string: a module's, function's or name's doc
        docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_library_error_names_an_option() -> None:
    """A library error names a parameter (the CLI shows its option): no string raised outside
    the CLI names an option (``--out``), and the modules of :data:`CONVERTED` hold none at all
    outside docstrings (messages built before they are raised included)."""
    option = re.compile(r"(?<![\w-])--[a-z]")
    found = []
    for name, tree in _library().items():
        if name in OPTION_IN_MESSAGE:
            continue
        if name in CONVERTED:
            strings = _strings(tree, docstrings=False)
        else:
            raised = [n for n in ast.walk(tree) if isinstance(n, ast.Raise)]
            strings = [s for n in raised for s in _strings(n, docstrings=True)]
        found += [f"{name}:{s.lineno}: {s.value!r}" for s in strings if option.search(str(s.value))]
    assert found == []
