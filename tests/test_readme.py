"""Every code block of README.md and of the docs (docs/*.md) runs: shell commands as processes of
the venv's scripts, Python blocks as doctests, TOML blocks parsed and checked against the files
in examples/.

Shell commands run from a scratch folder holding only a link to examples/ (as a user's folder
would), except the Development section's, which work on the checkout. In the first block, the
segments that create the venv, install into it and run this suite are CI's own steps and are
skipped; so is a line whose comment ends with "not run in tests" (the comment says why).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from exactodds.bets.loader import parse_paytable
from exactodds.compliance.profiles import parse_profile
from exactodds.deal.tableau import BUILTIN, Tableau

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
VENV_BIN = Path(sys.prefix) / "bin"
SKIP = "not run in tests"
CI_STEPS = ("python3 -m venv", "pip install", "-m pytest")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, text, first line in its page and section heading."""

    lang: str
    text: str
    line: int
    section: str
    page: str = "README.md"

    @property
    def where(self) -> str:
        """``PAGE:LINE`` for test ids and messages."""
        return f"{self.page}:{self.line}"


def _blocks(path: Path = README) -> list[Block]:
    blocks: list[Block] = []
    section = ""
    lang: str | None = None
    body: list[str] = []
    start = 0
    page = path.relative_to(ROOT).as_posix()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if lang is None and line.startswith("#"):
            section = line.lstrip("#").strip()
        if line.startswith("```"):
            if lang is None:
                lang, body, start = line[3:].strip(), [], n + 1
            else:
                blocks.append(Block(lang, "\n".join(body) + "\n", start, section, page))
                lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"{page} has an unclosed code block"
    return blocks


README_BLOCKS = _blocks(README)
BLOCKS = [b for page in PAGES for b in _blocks(page)]


def _commands() -> list[tuple[str, str, bool]]:
    """(id, command, in the checkout) of every shell command to run."""
    out = []
    first = next(b for b in README_BLOCKS if b.lang in ("sh", "bash", "shell"))
    for block in (b for b in BLOCKS if b.lang in ("sh", "bash", "shell")):
        for k, line in enumerate(block.text.splitlines()):
            command = line.strip()
            if not command or command.startswith("#") or command.endswith(SKIP):
                continue
            if block == first:  # CI's own steps: make the venv, install, run this suite
                kept = [s.strip() for s in command.split("&&") if not any(c in s for c in CI_STEPS)]
                command = " && ".join(kept)
                if not command:
                    continue
            out.append((f"{block.page}:{block.line + k}", command, block.section == "Development"))
    return out


COMMANDS = _commands()


def test_the_readme_has_the_blocks_this_test_knows() -> None:
    langs = {b.lang for b in BLOCKS if not b.lang.startswith("{")}  # MyST directives aside
    assert langs <= {"sh", "python", "toml", "console"}, langs
    assert len(COMMANDS) >= 15
    assert {b.page for b in BLOCKS if b.lang == "python"} >= {"README.md", "docs/notebook.md"}
    skipped = [
        line
        for b in BLOCKS
        if b.lang == "sh"
        for line in b.text.splitlines()
        if line.rstrip().endswith(SKIP)
    ]
    for line in skipped:  # each skip says why, in its comment
        reason = line.split("#", 1)[1].removesuffix(SKIP).strip(" :")
        assert len(reason) > 5, line


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a documented command line (the venv's scripts only) from ``cwd``; it must succeed."""
    parts = [p.strip() for p in command.split("&&")]
    for part in parts:
        assert part.startswith(".venv/bin/"), f"not the venv's script: {part}"
    if not (VENV_BIN / "exactodds").is_file():
        pytest.skip("README commands name the venv's scripts; run the suite with the venv")
    script = re.sub(r"(?<![\w/.])\.venv/bin/", f"{VENV_BIN}/", command)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0"}
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {script}"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done


def _scratch(tmp_path: Path) -> Path:
    """A user's folder: nothing but a link to examples/."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "checkout"), [c[1:] for c in COMMANDS], ids=[c[0] for c in COMMANDS]
)
def test_readme_command_runs(command: str, checkout: bool, tmp_path: Path) -> None:
    done = _run(command, ROOT if checkout else _scratch(tmp_path))
    if ">" not in command and "--out" not in command:
        assert done.stdout.strip(), command  # every example prints something


def _sessions() -> list[tuple[str, str, str]]:
    """(id, command, expected output) of every ``$ command`` of the ``console`` blocks."""
    out: list[tuple[str, str, str]] = []
    for block in (b for b in BLOCKS if b.lang == "console"):
        lines = block.text.splitlines()
        starts = [k for k, line in enumerate(lines) if line.startswith("$ ")]
        assert starts and starts[0] == 0, f"{block.where}: a console block starts with '$ '"
        for k, end in zip(starts, [*starts[1:], len(lines)], strict=True):
            expected = "\n".join(lines[k + 1 : end]) + "\n"
            out.append((f"{block.page}:{block.line + k}", lines[k][2:], expected))
    return out


SESSIONS = _sessions()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "expected"), [s[1:] for s in SESSIONS], ids=[s[0] for s in SESSIONS]
)
def test_console_blocks_print_what_they_show(command: str, expected: str, tmp_path: Path) -> None:
    """A ``console`` block shows real output: ``...`` stands for lines left out (doctest's
    ELLIPSIS); trailing spaces aside, the rest is what the command prints."""
    done = _run(command, _scratch(tmp_path))
    got = "".join(line.rstrip() + "\n" for line in done.stdout.splitlines())
    checker = doctest.OutputChecker()
    assert checker.check_output(expected, got, doctest.ELLIPSIS), f"{command}\n{got}"


PYTHON_PAGES = sorted({b.page for b in BLOCKS if b.lang == "python"})


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_readme_python_runs_and_prints_what_it_says(page: str) -> None:
    """A page's Python blocks run in order in one namespace, as a notebook's cells do."""
    globs: dict[str, object] = {}
    for block in (b for b in BLOCKS if b.lang == "python" and b.page == page):
        assert block.text.startswith(">>> "), f"{block.where}: write Python as a doctest"
        test = doctest.DocTestParser().get_doctest(
            block.text, globs, block.page, str(ROOT / block.page), block.line
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, clear_globs=False)
        globs = test.globs  # a DocTest works on a copy of the namespace it is given
        result = runner.summarize(verbose=False)
        assert result.failed == 0 and result.attempted >= 3, block.where


def _card_level(text: str) -> bool:
    return ".card1." in text or "offer =" in text


def test_readme_toml_blocks_are_the_example_files() -> None:
    toml = [b for b in BLOCKS if b.lang == "toml"]
    by_kind = {
        "paytable": [b for b in toml if "[bets." in b.text and not _card_level(b.text)],
        "card": [
            b
            for b in toml
            if "[bets." in b.text and _card_level(b.text) and b.page != "docs/tutorial.md"
        ],
        "tutorial": [b for b in toml if b.page == "docs/tutorial.md"],
        "rules": [b for b in toml if "player_draw" in b.text],
        "shoe": [b for b in toml if "remove" in b.text and "[bets." not in b.text],
        "tags": [b for b in toml if "[lucky_six" in b.text],
        "profile": [b for b in toml if "[rules]" in b.text],
    }
    assert sum(len(v) for v in by_kind.values()) == len(toml) == 8
    (tutorial,) = by_kind["tutorial"]  # inline, so the page reads right as plain Markdown
    assert tutorial.text == (ROOT / "examples" / "twin-naturals.toml").read_text(encoding="utf-8")
    for block in by_kind["card"]:  # the card-level bet and the offer of docs/paytables.md
        text = 'name = "docs"\n' + block.text
        card_table, card_problems = parse_paytable(tomllib.loads(text), block.page)
        assert card_problems == [] and card_table is not None
        assert all(b.card_level or b.offer is not None for b in card_table.bets)
    (paytable,) = by_kind["paytable"]
    table, problems = parse_paytable(tomllib.loads(paytable.text), "README")
    assert problems == [] and table is not None
    assert [r.event for r in table.bet("player_bonus").rows][:3] == [
        "Natural win",
        "Natural tie",
        "Win by 9",
    ]
    assert paytable.text in (ROOT / "examples" / "my-game.toml").read_text(encoding="utf-8")
    (rules,) = by_kind["rules"]
    assert rules.text == (ROOT / "examples" / "my-rules.toml").read_text(encoding="utf-8")
    written = Tableau.from_mapping(tomllib.loads(rules.text), default_name="x")
    standard = BUILTIN["punto-banco"]
    assert (written.player, written.banker) == (standard.player, standard.banker)
    (shoe,) = by_kind["shoe"]
    assert shoe.text == (ROOT / "examples" / "my-shoe.toml").read_text(encoding="utf-8")
    (tags,) = by_kind["tags"]
    assert tags.text == (ROOT / "examples" / "lucky-six-tags.toml").read_text(encoding="utf-8")
    (profile,) = by_kind["profile"]
    assert profile.text == (ROOT / "examples" / "my-profile.toml").read_text(encoding="utf-8")
    parsed, problems = parse_profile(tomllib.loads(profile.text), "README", profile.text)
    assert problems == [] and parsed is not None
    assert [r.kind.value for r in parsed.rules] == [
        "min_rtp",
        "max_rtp",
        "top_award_max_odds",
        "payout_notation",
    ]


def test_ci_runs_the_readme_test_command() -> None:
    """CI's test step is the README's second command, line for line, and runs every test."""
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    (readme,) = [line for line in BLOCKS[0].text.splitlines() if "-m pytest" in line]
    assert f'TEST_COMMAND="{readme}"' in ci
    assert readme.endswith("-m ''")  # every test, slow ones included
    for step in ("ruff check .", "ruff format --check .", "mypy"):
        assert f"step .venv/bin/{step}" in ci
