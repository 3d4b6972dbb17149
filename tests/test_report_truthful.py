"""A sheet states the shoe and rules it was computed with, says where options override the
paytable, cites sources a reader can find, and prints a command that recomputes it anywhere."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from exactodds import Shoe
from exactodds.bets.game import GameChoice
from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.tableau import BUILTIN
from exactodds.report import build_sheet, build_sheets, render_sheets
from tests.cli_helpers import Cli
from tests.markdown_cells import has_cells

REPORTS = Path(__file__).resolve().parents[1] / "reports"


def test_six_deck_mini_sheet_of_classic_says_what_it_computes(
    cli: Cli,
) -> None:
    code, md, err = cli(["report", "classic", "--decks", "6", "--rules", "mini"])
    assert code == 0, err
    assert "# Classic (commission) — math sheet — 6 decks (312 cards), drawing rules mini" in md
    differs = (
        "8 decks in the paytable; 6 decks (312 cards) used here. "
        "punto-banco rules in the paytable; mini used here."
    )
    assert f"> **This sheet differs from the paytable:** {differs}" in md
    assert has_cells(md, "Differs from the paytable", f"{differs}")
    assert "Shoe used here: 6 decks (312 cards). Drawing rules: mini — " in md
    assert "## Drawing rules: mini" in md
    assert has_cells(md, "Command", "`exactodds report classic --decks 6 --rules mini`")
    code, plain, _ = cli(["report", "classic"])
    assert "differs from the paytable" not in plain.lower()
    assert has_cells(plain, "Command", "`exactodds report classic`")


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--decks", "6", "--rules", "pronto"],
        ["--remove", "6 6 7h Kd", "--bet", "tie", "--bet", "player_pair"],
        ["--decks", "1", "--bet", "perfect_pair", "--monte-carlo-rounds", "300", "--seed", "5"],
    ],
)
def test_the_rerun_command_recomputes_the_sheet_from_another_folder(
    options: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
) -> None:
    argv = ["report", "classic", *options, "--date", "2024-06-01"]
    code, first, err = cli(argv)
    assert code == 0, err
    label = "Rerun" if "--monte-carlo-rounds" in options else "Command"
    pattern = r"\| Command +\| `([^`]*)` +\|" if label == "Command" else r"Rerun: `([^`]*)`"
    match = re.search(pattern, first)
    assert match is not None
    command = shlex.split(match.group(1))
    assert command[:3] == ["exactodds", "report", "classic"]
    monkeypatch.chdir(tmp_path)  # no paytables/ folder here
    code, again, err = cli([*command[1:], "--date", "2024-06-01"])
    assert code == 0, err
    assert again == first


def test_options_are_derived_for_sheets_built_in_python(classic: Paytable) -> None:
    depleted = build_sheet(classic, shoe=Shoe.decks(8).remove("6 6 7h"), bet_ids=["tie"])
    assert depleted.command == "exactodds report classic --remove '6c 6d 7h' --bet tie"
    rules = build_sheet(classic, shoe=Shoe.decks(2), tableau=BUILTIN["pronto"])
    assert rules.command == "exactodds report classic --decks 2 --rules pronto"
    custom = build_sheet(classic, shoe=Shoe.from_rank_counts({"A": 30, "K": 30}))
    assert custom.command is None
    assert not has_cells(render_sheets([custom], "md"), "Command")


def test_a_file_paytable_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "my game.toml"
    path.write_text(load_paytable("trainer").path.read_text("utf-8"), "utf-8")  # type: ignore[union-attr]
    (sheet,) = build_sheets([str(path)], game=GameChoice(decks=6))
    assert sheet.rerun is not None
    assert sheet.rerun.args() == (str(path), "--decks", "6")
    assert sheet.command == f"exactodds report {shlex.quote(str(path))} --decks 6"


@pytest.mark.parametrize("path", bundled_paytables(), ids=lambda p: p.stem)
def test_bundled_paytables_describe_and_cite_without_internal_words(path: Path) -> None:
    table = load_paytable(path)
    for text in (table.description, table.source, table.tableau.description):
        assert not re.search(r"\bseed\b|SPEC|§", text, re.IGNORECASE), text
    assert len(table.description) > 80
    # a seed's rules page by its title, or a published analysis by its author, title and address
    assert table.source.startswith(("«", "The rules page")) or "https://" in table.source
    assert "(" in table.source
    assert "address found" in table.source or "https://" in table.source


def test_committed_sheets_never_say_seed() -> None:
    for sheet in REPORTS.glob("*.*"):
        text = sheet.read_text(encoding="utf-8")
        assert not re.search(r"\bseed 00\d|\bSeed 00\d", text), sheet
        assert "paytables/" not in "".join(re.findall(r"exactodds report [^`<]*", text)), sheet


@pytest.mark.parametrize("page", sorted(REPORTS.glob("*.html")), ids=lambda p: p.name)
def test_a_page_points_only_to_sections_it_has(page: Path) -> None:
    """reports/comparison.html said "see the appendix" and had none."""
    text = page.read_text(encoding="utf-8")
    if "the appendix" in text:
        assert 'id="appendix"' in text, page.name
