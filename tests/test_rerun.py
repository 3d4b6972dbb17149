"""Every sheet rebuilds from its own command: the command a sheet records (in JSON, Markdown,
HTML and CSV alike) carries every option that shaped it, and running it gives the same sheet.

Each case is one format and one mix of options, on a one-deck shoe where the mix allows, so the
whole file costs a few seconds."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import Cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DATE = ["--date", "2024-06-01"]


def _commands(text: str, fmt: str) -> list[str]:
    """Every command line the sheet in ``fmt`` names (its Command, and each section's Rerun)."""
    if fmt == "json":
        return [json.loads(text)["command"]]
    if fmt == "csv":
        rows = csv.DictReader(io.StringIO(text))
        return [r["value"] for r in rows if r["kind"] == "meta" and r["item"] == "command"]
    if fmt == "md":
        return re.findall(r"(?:\| Command +\| |Rerun: )`([^`]*)`", text)
    cells = re.findall(r"(?:<td>Command</td><td>|Rerun: )<code>([^<]*)</code>", text)
    return [html.unescape(c) for c in cells]


@pytest.mark.parametrize(
    ("fmt", "options"),
    [
        ("md", ["classic", "--decks", "1", "--bet", "tie", "--protection"]),
        (
            "md",
            [
                "classic",
                "--decks",
                "1",
                "--bet",
                "tie",
                "--monte-carlo-rounds",
                "300",
                "--seed",
                "5",
            ],
        ),
        ("html", ["mini", "--decks", "1", "--against", "adm,mga", "--notation", "to"]),
        ("csv", ["classic", "--remove", "6 6 7h", "--rules", "mini", "-b", "banker", "-b", "tie"]),
        ("json", ["touch", "--decks", "1", "--notation", "for", "--against", "gli-11"]),
        ("csv", ["classic", "--decks", "1", "--bet", "banker", "--session", "20"]),
        ("json", ["mini", "--decks", "1", "--against", "mga", "--allow-player-edge"]),
        (
            "md",
            ["my-game.toml", "--shoe", "my-shoe.toml", "--rules", "my-rules.toml", "-b", "banker"],
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v),
)
def test_a_sheet_rebuilds_from_its_own_command(
    fmt: str, options: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    for name in ("my-game.toml", "my-shoe.toml", "my-rules.toml"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    code, first, err = cli(["report", *options, "--format", fmt, *DATE])
    assert code == 0, err
    (command, *reruns) = _commands(first, fmt)
    assert all(r == command for r in reruns), (command, reruns)  # one command, said once
    words = shlex.split(command)
    assert words[:2] == ["exactodds", "report"]
    for option in options:
        if option.startswith("--") and option != "--bet":
            assert option in words, (option, command)
    code, again, err = cli([*words[1:], "--format", fmt, *DATE])
    assert code == 0, err
    assert again == first


@pytest.mark.parametrize("absolute", [True, False], ids=["absolute", "relative"])
def test_the_recorded_command_runs_from_any_folder(
    absolute: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    """docs/sheets.md: the command recomputes the sheet "from any folder" — from ``/`` and from
    a sibling folder too, whether the files were named by absolute or relative paths."""
    home, sibling = tmp_path / "games", tmp_path / "other"
    home.mkdir()
    sibling.mkdir()
    for name in ("my-game.toml", "my-shoe.toml", "my-rules.toml"):
        shutil.copy(EXAMPLES / name, home / name)
    monkeypatch.chdir(home)
    files = [home / n if absolute else Path(n) for n in ("my-game.toml", "my-shoe.toml")]
    argv = ["report", str(files[0]), "--shoe", str(files[1]), "-b", "banker", "-f", "json"]
    code, first, err = cli([*argv, *DATE])
    assert code == 0, err
    words = shlex.split(json.loads(first)["command"])
    assert str(home / "my-game.toml") in words and str(home / "my-shoe.toml") in words, words
    for folder in (Path("/"), sibling):
        monkeypatch.chdir(folder)
        code, again, err = cli([*words[1:], "-f", "json", *DATE])
        assert (code, err) == (0, "")
        assert again == first


def test_the_compare_page_names_a_command_that_runs_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    home, sibling = tmp_path / "games", tmp_path / "other"
    home.mkdir()
    sibling.mkdir()
    for name in ("my-game.toml", "my-rules.toml"):
        shutil.copy(EXAMPLES / name, home / name)
    monkeypatch.chdir(home)
    code, first, err = cli(
        ["compare", "my-game.toml", "--rules", "my-rules.toml,mini", "-f", "html"]
    )
    assert code == 0, err
    (command,) = re.findall(r"<code>(exactodds compare [^<]*)</code>", first)
    words = shlex.split(html.unescape(command))
    assert words[2] == str(home / "my-game.toml") and f"{home}/my-rules.toml,mini" in words
    monkeypatch.chdir(sibling)
    code, again, err = cli(words[1:])
    assert (code, err) == (0, "") and again == first
