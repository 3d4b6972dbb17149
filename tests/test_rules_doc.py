"""docs/rules.md is what the code and tests cite: every "rules.md §N" they name is a section of
it, and nothing cites the specification or rule texts that are not in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


def _tracked_texts() -> dict[str, str]:
    """The text of every tracked source, test, paytable and README (generated sheets aside)."""
    names = subprocess.run(
        ["git", "ls-files", "exactodds", "tests", "benchmarks", "paytables", "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    texts = {}
    for name in names:
        path = ROOT / name
        if path.suffix in {".py", ".toml", ".md"} and path.is_file() and "golden" not in name:
            texts[name] = path.read_text(encoding="utf-8", errors="replace")
    return texts


def test_every_cited_section_exists() -> None:
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", RULES.read_text("utf-8"), re.M)}
    assert sections == set(range(1, 11))
    cited = {
        (name, int(n))
        for name, text in _tracked_texts().items()
        for n in re.findall(r"rules\.md §(\d+)", text)
    }
    assert len(cited) > 40
    assert {c for c in cited if c[1] not in sections} == set()


def test_nothing_cites_what_the_repository_lacks() -> None:
    for name, text in _tracked_texts().items():
        if name in {"tests/test_rules_doc.py", "tests/test_report_truthful.py"}:
            continue
        assert not re.search(r"\bSPEC §|\bseed 00\d|_[0-9a-f]{16}\.txt", text), name
