"""The designer page's export is the paytable as loaded with only the edited payouts changed
(issue 24): every bundled sheet and a hostile file, each in one Chromium page.

In the page, the export is clicked unedited, then every bet gets one edit (a new payout in row
1, in several notations) and the export is clicked again. The exports are reloaded by the
loader from files: unedited, the export is the paytable's file byte for byte under a two-line
header; edited, it is the paytable of :meth:`Paytable.with_payout` (the same edits, in
paytable order), and the sheet ``exactodds report`` makes of it shows every figure the page
shows, digit for digit (both pages' ``data-figure`` fields compared).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.game import GameChoice
from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.bets.paytable_toml import load_text, paytable_toml
from exactodds.deal.engine import joint_distribution
from exactodds.figures.metrics import bet_figures
from exactodds.numbers import exact
from exactodds.report import Sheet, build_sheet, build_sheets, render_sheets
from tests.browser import chromium

HEADER_LINES = 2
"""Lines the export puts before the paytable's text (where it came from)."""

RUN = """(edits) => {
  const area = document.querySelector('textarea[data-export]');
  const button = document.querySelector('button[data-action="export"]');
  button.click();
  const unedited = area.value;
  for (const [bet, row, text] of edits) {
    const input = document.querySelector(`input.pays[data-bet="${bet}"][data-row="${row}"]`);
    input.value = text;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  }
  button.click();
  const figures = [...document.querySelectorAll('[data-figure][data-bet]')].map((n) => [
    n.dataset.bet, n.dataset.figure, n.dataset.row ?? '', n.dataset.form ?? '', n.textContent]);
  return {unedited, edited: area.value, figures};
}"""


_FIELD = re.compile(
    r'<span data-bet="([^"]*)" data-figure="([^"]*)"(?: data-row="([^"]*)")?'
    r'(?: data-form="([^"]*)")?>(.*?)</span>'
)
"""A ``data-figure`` field of a bet as the HTML renderer writes it (its content is text, or a
flag in ``<strong>``)."""


def engine_fields(table: Paytable, sheet: Sheet) -> list[list[str]]:
    """The fields of the page ``exactodds report`` makes of ``table`` on the sheet's game."""
    again = build_sheet(table, shoe=sheet.shoe, date=sheet.date, version=sheet.version,
                        examples=False)  # fmt: skip
    return [
        [bet, figure, row, form, html.unescape(re.sub("<[^>]*>", "", content))]
        for bet, figure, row, form, content in _FIELD.findall(render_sheets([again], "html"))
    ]


def new_payout(net: Fraction, k: int) -> tuple[str, Fraction]:
    """A payout other than ``net``, written in one of several notations by ``k``."""
    new = net + 1 if net >= 0 else Fraction(1, 2)
    p, q = new.numerator, new.denominator
    forms = [f"{p}:{q}", f" {p}/{q}  TO 1 ", f"{p + q}/{q} for 1", f"{p}/{q}:1 less 0%"]
    return forms[k % len(forms)], new


def with_edits(table: Paytable, edits: list[tuple[str, int, str]]) -> Paytable:
    """``table`` with these payouts, by :meth:`Paytable.with_payout` in paytable order."""
    for bet_id, row, text in edits:
        table = table.with_payout(bet_id, row, text.strip())
    return table


def same_game(a: Paytable, b: Paytable) -> None:
    keys = ("name", "description", "decks", "tableau", "bets", "source", "streaks", "multipliers")
    for key in keys:
        assert getattr(a, key) == getattr(b, key), key


class Tab:
    """One Chromium page for the whole module, sent from sheet to sheet (a page per sheet, no
    new browser context each time); it records console errors, page errors and CSP
    violations."""

    def __init__(self, browser: Any, folder: Path) -> None:
        self.folder = folder
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.add_init_script(
            "document.addEventListener('securitypolicyviolation', (e) => "
            "console.error('CSP violation: ' + e.violatedDirective));"
        )
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    def run(self, html: str, edits: list[tuple[str, int, str]]) -> dict[str, Any]:
        path = self.folder / "sheet.html"
        path.write_text(html, encoding="utf-8")
        self.page.goto(path.as_uri())
        result: dict[str, Any] = self.page.evaluate(RUN, edits)
        assert self.problems == []
        return result


@pytest.fixture(scope="module")
def tab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tab]:
    with chromium() as browser:
        opened = Tab(browser, tmp_path_factory.mktemp("export"))
        yield opened
        opened.context.close()


def check_export(
    tab: Tab, tmp_path: Path, sheet: Sheet, source: str | None, decks: int | None = None
) -> None:
    """One page: unedited and edited exports reload to the page's game (``decks`` when not
    the paytable's) and figures; with ``source`` (the file's text), the unedited export is
    that text."""
    edits = []
    for k, b in enumerate(sheet.bets):
        text, _ = new_payout(b.bet.rows[0].pays.net, k)
        edits.append((b.bet.id, 0, text))
    result = tab.run(render_sheets([sheet], "html"), edits)
    original = replace(sheet.paytable, decks=decks or sheet.paytable.decks)
    unedited, edited = tmp_path / "unedited.toml", tmp_path / "edited.toml"
    unedited.write_text(result["unedited"], encoding="utf-8")
    edited.write_text(result["edited"], encoding="utf-8")
    if source is not None:  # the file itself, which the loader read already
        assert result["unedited"].split("\n", HEADER_LINES)[HEADER_LINES] == source
    else:
        same_game(load_paytable(unedited), original)
    table = load_paytable(edited)
    expected = with_edits(original, edits)
    same_game(table, expected)
    assert table.description != original.description
    if original.description:  # kept, the edits listed after it (issue 32)
        assert table.description.startswith(f"{original.description} Edited: ")
    for bet_id, row, text in edits:
        bet = original.bet(bet_id)
        assert f"{bet.name}: {bet.rows[row].event} {text.strip()} (was " in table.description
    page = sorted(result["figures"])
    assert sorted(engine_fields(table, sheet)) == page
    joint = joint_distribution(sheet.shoe, sheet.tableau)
    for bet_id, _, text in edits:  # each edit shows, and with_payout's figures
        assert [bet_id, "pays", "0", "", text.strip()] in page
        f = bet_figures(joint, expected.round_bet(bet_id))
        assert [bet_id, "house_edge", "", "exact", exact(f.house_edge)] in page
        assert [bet_id, "variance", "", "exact", exact(f.variance)] in page


# Golden Wealth and Prosperity Tree are Lightning's kind (a fee, multiplied rows, one table):
# Lightning and Peek stand for the live games here (tests/test_designer_live.py edits weights).
EXPORTED = [p for p in bundled_paytables() if p.stem not in ("golden-wealth", "prosperity-tree")]


@pytest.mark.parametrize("path", EXPORTED, ids=lambda p: p.stem)
def test_every_bundled_sheet_exports_its_file_with_the_edits(
    path: Path, tab: Tab, tmp_path: Path
) -> None:
    table = load_paytable(path)
    sheet = build_sheet(table, date="2024-06-01", version="test", examples=False)
    check_export(tab, tmp_path, sheet, path.read_text(encoding="utf-8"))


HOSTILE = '''\
# pays = "99:1" ]] [[bets.fake.rows]] description = "not a key": a comment that looks like TOML
"name" = 'Hostile "quoted" ]] # not a comment = { } [x]'
source = """line one
line two = "x" ]] [bets.nope]"""
decks = 8
rules = "punto-banco"

[bets.tie]
name = "Tie\\nwith a newline, a tab\\t, a \\\\ backslash and \\"quotes\\""
description = "{ when = \\"x\\" } [bets.fake] ]]"
rows = [
  { when = "winner == tie", pays = '8:1', event = "égalité ]] \\"8\\" 😀 \\u2028" },  # pays = "1:1"
  { when = "otherwise", pays = """lose""", event = "Otherwise, = [ ] { } ' #" },
]

[bets.pair]
name = "Pair ]]"
rounding = { step = 0.01, mode = "down" }

[[bets.pair.rows]]
when = "player.pair"
pays = "11 to 1"
event = "Paar [[bets.pair.rows]]"

[[bets.pair.rows]]
when = "otherwise"
pays = 'lose'
event = """two
lines"""

[bets.insurance]
name = "Insurance, 0 v 5 = 'offered'"
offer = "player.initial == 0 and banker.initial == 5"
rows = [{ when = "player.wins", pays = "2:1", event = "P" },
        { when = "winner == tie", pays = "push", event = "T" },
        { when = "otherwise", pays = "lose", event = "B" }]
'''


@pytest.mark.parametrize("decks", [8, 6], ids=["its-file", "written-by-exactodds"])
def test_hostile_text_exports_reloads_and_gives_the_same_figures(
    decks: int, tab: Tab, tmp_path: Path
) -> None:
    """Quotes, newlines, ``]]``, unicode, comments and keys that look like TOML, each TOML
    string kind, arrays of tables and no description (the export adds one): on its own game
    the export is the file with the edits; on 6 decks the page's paytable written out."""
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    (sheet,) = build_sheets(
        [str(path)], game=GameChoice(decks=decks), date="2024-06-01", version="t", examples=False
    )
    assert sheet.paytable.description == "" and "\n" in sheet.paytable.round_bet("tie").name
    check_export(tab, tmp_path, sheet, HOSTILE if decks == 8 else None, decks)


def test_the_writer_reads_back_to_the_same_paytable(tmp_path: Path) -> None:
    """:func:`paytable_toml` (the export of a page whose game is not its file's) loses no
    field of any bundled paytable or of the hostile one; a field added to a bet or a paytable
    fails here until the writer writes it."""
    from dataclasses import fields

    from exactodds.bets.paytable import Bet

    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    for table in [*map(load_paytable, bundled_paytables()), load_paytable(path)]:
        same_game(load_text(paytable_toml(table)), table)
    written = {"id", "name", "rows", "max_round", "rounding", "description", "offer"}
    written |= {"progressive"}  # stake and meters (issue 27)
    written |= {"fee", "peek"}  # issue 34
    assert {f.name for f in fields(Bet)} == written
    from_file = {"name", "description", "decks", "tableau", "bets", "source", "streaks"}
    from_file |= {"multipliers"}  # issue 34
    derived = {"path", "sha256", "rules_file", "warnings", "edits"}
    assert {f.name for f in fields(Paytable)} == from_file | derived
