"""On a terminal, ``report`` and ``compare`` print a summary that fits 80 columns; redirected,
or with ``--format``, the full text exactly as before. The terminal is a real pseudo-terminal
(a wide one: the summary still keeps to 80 columns)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from fractions import Fraction

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.cli.summary import WIDTH
from exactodds.figures.metrics import paytable_figures
from exactodds.numbers import percent
from tests.cli_helpers import Cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def on_terminal(
    args: list[str], columns: int = 132, env: dict[str, str] | None = None, raw: bool = False
) -> str:
    """Run ``exactodds ARGS`` with stdout on a pseudo-terminal ``columns`` wide (and ``env``
    added to the environment); its text (with its escape sequences if ``raw``)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")} | (
        env or {}
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "exactodds", *args],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    text = b"".join(chunks).decode().replace("\r\n", "\n")
    return text if raw else ANSI.sub("", text)


def test_report_summary_fits_80_columns_and_holds_every_bet() -> None:
    text = on_terminal(["report"])
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    assert len(lines) < 40
    figures = paytable_figures(load_paytable("classic"))
    for f in figures:
        row = next(line for line in lines if line.startswith(f.bet.name + " "))
        cells = row[len(f.bet.name) :].split()
        assert cells[:3] == [percent(f.house_edge), percent(f.rtp), percent(f.hit_frequency)]
    # Hand-checked: Player Pair at 11:1 wins with probability 31/415, edge 1 − 12·31/415.
    pair = next(line for line in lines if line.startswith("Player Pair "))
    assert percent(1 - 12 * Fraction(31, 415)) in pair and "11 to 1" in pair
    assert "8 decks (416 cards), punto-banco" in text
    assert "exactodds report classic --format md | less" in text


def test_report_summary_lists_streak_bets() -> None:
    """``report banker-streak`` on a terminal listed Player, Banker and Tie only."""
    text = on_terminal(["report", "banker-streak"])
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    row = next(line for line in lines if line.startswith("Banker Streak (pay table 1) ‡"))
    # Source: Wizard of Odds, "Banker Streak", pay table 1: return -0.094006 (8 decks).
    assert row.split()[6:] == ["9.4006%", "90.5994%", "4.4231%", "250", "to", "1"]
    assert "Banker Streak (pay table 2," in text
    assert "‡ Streak bet, settled over several rounds: figures per bet, rounds independent." in text


def test_report_redirected_is_the_full_sheet(cli: Cli) -> None:
    code, piped, _ = cli(["report", "classic", "--date", "2024-01-01"])
    assert code == 0
    _, md, _ = cli(["report", "classic", "--date", "2024-01-01", "--format", "md"])
    assert piped == md and piped.startswith("<!--")


def test_report_with_format_on_a_terminal_is_the_full_sheet() -> None:
    text = on_terminal(["report", "mini", "--format", "md", "--date", "2024-01-01"])
    assert "## " in text and len(text.splitlines()) > 200


def test_compare_summary_has_bets_as_rows_within_80_columns(cli: Cli) -> None:
    args = ["compare", "classic", "--decks", "6,8", "--tie", "8:1,9:1"]
    text = on_terminal(args)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    names = [b.name for b in load_paytable("classic").bets]
    # only what is asked: the paytable's punto-banco rules, 2 decks × 2 ties, one table of 4
    for name in names:
        assert sum(line.startswith(name + "  ") for line in lines) == 1
    assert "Every variant: punto-banco rules, Banker commission." in lines
    # Tie at 9:1 on 8 decks, punto-banco (from the figures of the tie bet with that payout).
    tie = load_paytable("classic").with_payout("tie", 0, "9:1")
    edge = next(f.house_edge for f in paytable_figures(tie) if f.bet.id == "tie")
    assert percent(edge) in next(line for line in lines if line.startswith("Tie  ")).split()
    _, piped, _ = cli(args)
    _, md, _ = cli([*args, "--format", "md"])
    assert piped == md and piped.startswith("House edge of each bet by variant")


def test_no_color_removes_every_style() -> None:
    """NO_COLOR (https://no-color.org): no escape sequence at all, bold included; without it
    the summary's title is bold."""
    styled = on_terminal(["report", "mini"], raw=True)
    assert "\x1b[1m" in styled
    plain = on_terminal(["report", "mini"], env={"NO_COLOR": "1"}, raw=True)
    assert "\x1b" not in plain
    assert plain == ANSI.sub("", styled)


def test_offered_and_streak_bets_have_marks_of_their_own() -> None:
    """An offered bet (†) and a streak bet (‡) in one summary: each mark names one kind and
    has its own legend line."""
    import tomllib

    from exactodds.bets.loader import parse_paytable
    from exactodds.bets.offers import MARK
    from exactodds.bets.streak import STREAK_MARK
    from exactodds.cli.summary import report_summary
    from exactodds.report.sheet import build_sheet

    table, problems = parse_paytable(
        tomllib.loads(
            'name = "Both"\ndecks = 1\n[bets.insure]\noffer = "player.initial <= 3"\nrows = [\n'
            '  { when = "banker.wins", pays = "1:1" }, { when = "otherwise", pays = "lose" } ]\n'
            '[bets.run]\nstreak = "banker.wins"\nrows = [ { when = "streak >= 2", pays = "3:1" },\n'
            '  { when = "otherwise", pays = "lose" } ]\n'
        )
    )
    assert table is not None, problems
    text = report_summary([build_sheet(table, date="2024-01-01", examples=False)], width=120)
    assert MARK != STREAK_MARK
    assert f"insure {MARK}" in text and f"run {STREAK_MARK}" in text
    assert f"{STREAK_MARK} Streak bet" in text and text.count(STREAK_MARK) == 2
