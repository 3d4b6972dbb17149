"""Golden math sheets of a small custom game (tests/golden/inputs), in all four formats.

Regenerate after an intended change with
``EXACTODDS_UPDATE_GOLDEN=1 pytest tests/test_report_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from exactodds.bets.game import GameChoice
from exactodds.report import Sheet, build_sheets, render_sheets
from tests.markdown_cells import table_rows

GOLDEN = Path(__file__).parent / "golden"


FIXED = Path("/tmp/exactodds-golden")
"""Where the inputs are copied: sheets name input files by absolute paths (their command runs
from any folder), so the golden sheets need the same folder on every machine."""


def golden_sheet(monkeypatch: pytest.MonkeyPatch) -> Sheet:
    """The golden game: custom paytable, shoe file and rules file, checked against a custom
    profile and GLI-11, fixed date and version."""
    (FIXED / "inputs").mkdir(parents=True, exist_ok=True)
    for source in (GOLDEN / "inputs").glob("*.toml"):
        target = FIXED / "inputs" / source.name
        part = target.with_name(f"{source.name}.{os.getpid()}")
        shutil.copyfile(source, part)
        os.replace(part, target)  # atomic: workers running in parallel copy the same bytes
    monkeypatch.chdir(FIXED)
    (sheet,) = build_sheets(
        ["inputs/game.toml"],
        game=GameChoice(shoe_file=Path("inputs/shoe.toml"), rules="inputs/rules.toml"),
        against="inputs/profile.toml,gli-11",
        date="2024-06-01",
        version="test",
    )
    return sheet


@pytest.mark.parametrize("fmt", ["md", "html", "csv", "json"])
def test_golden_sheet(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = render_sheets([golden_sheet(monkeypatch)], fmt)
    path = GOLDEN / f"game.{fmt}"
    if os.environ.get("EXACTODDS_UPDATE_GOLDEN"):
        path.write_bytes(text.encode("utf-8"))
    assert text == path.read_bytes().decode("utf-8")


def test_golden_sheet_names_every_input_with_its_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    sheet = golden_sheet(monkeypatch)
    md = render_sheets([sheet], "md")
    for role, name in (
        ("paytable", "game"),
        ("rules", "rules"),
        ("shoe", "shoe"),
        ("profile", "profile"),
    ):
        digest = hashlib.sha256((GOLDEN / "inputs" / f"{name}.toml").read_bytes()).hexdigest()
        assert (role, f"`{FIXED}/inputs/{name}.toml`", f"`{digest}`") in table_rows(md)
    assert "1 deck less 2c 7h Kd Kh (48 cards)" in md
    assert "48·47·46·45·44·43 = 8,835,488,640 sequences" in md
