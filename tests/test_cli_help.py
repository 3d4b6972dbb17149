"""One CLI grammar: every command's help examples are printed one per line as written (never
re-wrapped), name files that exist and parse; every ``--format`` lists its choices; metavars
follow one style; deprecated spellings still work, with a one-line notice."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer

from exactodds.cli.app import app
from tests.cli_helpers import Cli

ROOT = Path(__file__).resolve().parent.parent
ROOT_COMMAND: Any = typer.main.get_command(app)


def _walk(group: Any, prefix: str = "") -> dict[str, Any]:
    """Every command by its path (``report``, ``game``, ``game chemin-de-fer``): sub-command
    groups are walked too, so their commands meet the same grammar."""
    out: dict[str, Any] = {}
    for name, command in getattr(group, "commands", {}).items():
        path = f"{prefix}{name}"
        out[path] = command
        out.update(_walk(command, f"{path} "))
    return out


COMMANDS: dict[str, Any] = _walk(ROOT_COMMAND)


def _command_of(args: list[str]) -> tuple[Any, list[str]] | None:
    """The command an example's arguments run, and the arguments left for it."""
    command, rest = ROOT_COMMAND, args
    while rest and rest[0] in getattr(command, "commands", {}):
        command, rest = command.commands[rest[0]], rest[1:]
    return None if command is ROOT_COMMAND else (command, rest)


def _examples(epilog: str) -> list[str]:
    return [line.strip() for line in epilog.splitlines() if line.startswith("  exactodds")]


@pytest.mark.parametrize("name", ["", *sorted(COMMANDS)])
def test_help_examples_print_as_written_and_parse(
    name: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    command = COMMANDS[name] if name else ROOT_COMMAND
    examples = _examples(command.epilog or "")
    assert examples, f"{name or 'exactodds'} has no example"
    code, out, _ = cli([*name.split(), "--help"])
    assert code == 0
    printed = {line.strip() for line in out.splitlines()}
    for example in examples:
        assert example in printed, example  # one line, not re-wrapped
        args = shlex.split(example.split("  #")[0])[1:]
        for arg in args:
            if arg.endswith((".toml", ".json")):
                assert (ROOT / arg).is_file(), f"{example}: {arg} does not exist"
        found = _command_of(args)
        if found is not None:
            command, rest = found
            command.make_context(command.name, rest)  # raises on a bad option


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_formats_list_their_choices_and_metavars_have_one_style(name: str) -> None:
    for param in COMMANDS[name].params:
        if "--format" in getattr(param, "opts", []):
            choices = param.metavar.split("|")
            assert len(choices) > 1 and all(c in param.help for c in choices), param.help
        metavar = getattr(param, "metavar", None)
        if getattr(param, "param_type_name", "") == "option" and not (
            param.is_flag or param.hidden
        ):
            assert metavar, f"{name} {param.opts[0]} has no metavar"
            assert re.fullmatch(r"[A-Z][A-Z0-9=:.-]*|[a-z]+(\|[a-z]+)+|YYYY-MM-DD", metavar), (
                name,
                metavar,
            )


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_defaults_are_stated_in_one_style(
    name: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every default in an option's help reads "(default: X)" or "; default: X": typer's own
    "[default: X]" and a sentence "Default: X." are not used."""
    monkeypatch.setenv("COLUMNS", "200")  # an option's help on one line
    code, out, _ = cli([*name.split(), "--help"])
    assert code == 0 and "[default:" not in out and "Default:" not in out
    options = out.split("Options:")[-1].split("Examples:")[0]
    assert re.findall(r"\bdefault\b(?!:| tag| to )", options) == [], options


def test_odds_json_is_a_deprecated_alias(cli: Cli) -> None:
    code, out, err = cli(["odds", "--decks", "1", "--json"])
    assert code == 0 and json.loads(out)["cards"] == 52
    assert err.strip() == (
        "exactodds: warning: odds --json is deprecated and will be removed in the next release;"
        " use --format json"
    )
    assert cli(["odds", "--decks", "1", "--format", "json"])[1] == out


def test_solve_json_is_a_deprecated_alias(cli: Cli) -> None:
    argv = ["solve", "classic", "--bet", "tie", "--event", "#1", "-t", "5%"]
    code, out, err = cli([*argv, "--json"])
    assert code == 0 and "deprecated" in err and len(err.splitlines()) == 1
    assert cli([*argv, "--format", "json"])[1] == out


def test_simulate_monte_carlo_is_a_deprecated_alias_of_montecarlo(cli: Cli) -> None:
    argv = ["classic", "--decks", "1", "--rounds", "2000", "--seed", "3", "--format", "json"]
    code, out, err = cli(["simulate", "--monte-carlo", *argv])
    assert code == 0 and err.strip().endswith("use exactodds montecarlo")
    assert cli(["montecarlo", *argv])[1:] == (out, "")


def test_required_options_are_marked(cli: Cli) -> None:
    for argv, option in (
        (["check", "classic"], "--against"),
        (["solve", "classic", "--bet", "tie"], "--event"),
        (["settle", "classic"], "--cards"),
    ):
        code, _, err = cli(argv)
        assert code == 2 and f"missing option '{option}'" in err, err


def test_shell_completion_is_typers(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--show-completion`` prints the script; the script's requests complete commands and
    options."""
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    code, out, _ = cli(["--show-completion", "bash"])
    assert code == 0 and "complete -o default -F _exactodds_completion exactodds" in out
    code, out, _ = cli(["--help"])
    assert "--install-completion" in out and "--show-completion" in out
    monkeypatch.setenv("_EXACTODDS_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_CWORD", "1")
    monkeypatch.setenv("COMP_WORDS", "exactodds rep")
    assert cli([])[1].split() == ["report"]
    monkeypatch.setenv("COMP_CWORD", "2")
    monkeypatch.setenv("COMP_WORDS", "exactodds report --for")
    assert cli([])[1].split() == ["--format", "--force"]
