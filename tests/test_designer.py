"""The HTML sheet as a paytable designer, in headless Chromium (see tests/browser.py).

Each check compares the page with the Python engine: the script's payout parser with
:func:`~exactodds.bets.payout.parse_payout` on a corpus and hypothesis strings; an edited page with
the sheet ``exactodds report`` makes of the edited paytable, figure by figure and section by
section; the exported TOML with the page, read back by :func:`load_paytable` and the CLI.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.game import GameChoice
from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.payout import Notation, parse_payout
from exactodds.bets.paytable import Paytable
from exactodds.errors import PaytableError
from exactodds.numbers import exact
from exactodds.report import Sheet, build_sheet, build_sheets, render_sheets
from tests.browser import PRINTABLE_A4, Pages
from tests.cli_helpers import Cli

GOLDEN = Path(__file__).parent / "golden" / "inputs"

# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def parser_page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One page whose script parses payouts for the agreement tests."""
    opened = Pages(browser, tmp_path_factory.mktemp("parser"))
    (sheet,) = build_sheets(["tie-9"], date="2024-01-01")
    yield opened.open(render_sheets([sheet], "html"))
    opened.close()
    assert opened.problems == []


# -- one grammar: the script's parser against parse_payout ----------------------------------------

VALID = [  # every notation the paytable reader takes
    *("11:1", "0.95:1", "8 to 1", "9 for 1", "1:1 less 5%", "push", "lose", "loss", "loses"),
    *("19/20:1", "1.5/2:1", "PUSH", " Push ", "8 TO 1", "9For1", "9for1", "1:1 - 5%", "1:1-5%"),
    *("1:1 minus 5% commission", "1:1 LESS 5 % COMMISSION", "2 for 1 less 5%", "0:1", "0/1:1"),
    *("1 for 1", "200 : 1", "1\t:\t1", "1\u00a0to\u00a01", "1\u3000:1", "1\x1c:1", "1\x85:1"),
    *("25:1\n", "1" * 15 + ":1", "1:1 less 100%", "3/4 to 0.5/2", "0.000001:1", "1:1\u2028"),
    *("1000000000000000:1", "1:0.000000000000001", "1000000000000001 for 1"),  # MAX_PAYOUT_NET
]
INVALID = [
    *("", " ", "-3:1", "abc", "1:0", "0.5 for 1", "1:1 less 150%", "11：1", "١١:١", "１:1"),
    *("1" * 31 + ":1", "1:1 less", "8 to", ".5:1", "5.:1", "1/0:1", "1:1/0", "x" * 101),
    *("1:1" + " " * 98, "push push", "p ush", "1\ufeff:1", "1\u200b:1", "1:1 less 5"),
    *("1:1 less -5%", "1:1%", "1:1 less 5% commission x", "K", "İ", "1:1 less 100.5%"),
    *("1.2.3:1", "1//2:1", "1e3:1", "+1:1", "1:+1", "Infinity:1", "NaN:1", "__proto__"),
    *("constructor", "toString", "hasOwnProperty", "1 :1 less 5 %%", "1:1 less 1/0%"),
    *("9 for 1 less 5%%", "to", "for 1", ":1", "1:", "lose 1", "8 to 1 to 1", "PUSH\x00"),
    *("1" * 30 + ":1", "1000000000000001:1", "1:0.0000000000000009", "1000000000000002 for 1"),
]


def python_net(text: str) -> str:
    """What parse_payout makes of ``text``: the net as ``p/q``, or ``error``."""
    try:
        return exact(parse_payout(text).net)
    except PaytableError:
        return "error"


def script_nets(page: Any, texts: list[str]) -> list[str]:
    """What the page's script makes of each text, in the same form."""
    results = page.evaluate("(texts) => texts.map((t) => exactoddsDesigner.parsePayout(t))", texts)
    return [r.get("net", "error") for r in results]


def test_parsers_agree_on_the_corpus(parser_page: Any) -> None:
    nets = [python_net(t) for t in VALID + INVALID]
    assert "error" not in nets[: len(VALID)] and set(nets[len(VALID) :]) == {"error"}
    assert script_nets(parser_page, VALID + INVALID) == nets


_TOKENS = st.sampled_from(
    [
        *("1", "0", "9", "11", "0.95", "19/20", "1.5/2", "100", "101", "5", ".", "/", "%"),
        *(":", "to", "for", "TO", "For", "less", "minus", "-", "commission", "COMMISSION"),
        *("push", "Lose", "loss", "loses", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "\ufeff"),
        *("\x1c", "\x85", "\u200b", "K", "İ", "١", "x", "e", "+"),
    ]
)
_STRINGS = st.one_of(
    st.lists(_TOKENS, max_size=9).map("".join),
    st.from_regex(
        r"[0-9]{1,3}(\.[0-9]{1,2})?(/[0-9]{1,2})? ?(:|to|for) ?[0-9]{1,3}"
        r"( ?(less|minus|-) ?[0-9]{1,3}(\.[0-9])? ?%)?",
        fullmatch=True,
    ),
    st.integers(0, 10**33).map(lambda n: f"{n}:1"),
    st.text(max_size=24),
    st.text(alphabet="0123456789.:/% tofrlesminuchpa", max_size=16),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(_STRINGS, min_size=20, max_size=60))
def test_parsers_agree_on_hypothesis_strings(parser_page: Any, texts: list[str]) -> None:
    assert script_nets(parser_page, texts) == [python_net(t) for t in texts]


_BEYOND = [0xFEFF, 0xFF10, 0xFF30, 0xFF50, 0x1D7CE, 0x1D7D8, 0x104A0, 0x10FFFF]
"""Code points above U+30FF tried besides: Python takes none of them for whitespace."""


def test_whitespace_and_letters_are_pythons(parser_page: Any) -> None:
    """Over the code points to U+30FF (every one Python takes for whitespace is below) and some
    digits and spaces of other blocks: a character between ``1`` and ``:1`` is fine exactly
    when Python takes it for whitespace (str.split) or it is a digit; ``?USH`` reads as a push
    only for ``p`` and ``P`` (no other character lower-cases to ``p``)."""
    between, initial = parser_page.evaluate(
        """(extra) => {
          const parse = exactoddsDesigner.parsePayout, between = [], initial = [];
          const codes = [...Array(0x3100).keys(), ...extra];
          for (const c of codes) {
            const ch = String.fromCodePoint(c);
            if (parse('1' + ch + ':1').net !== undefined) between.push(c);
            if (parse(ch + 'USH').net !== undefined) initial.push(c);
          }
          return [between, initial];
        }""",
        _BEYOND,
    )
    spaces = {c for c in range(0x110000) if chr(c).isspace()}
    assert set(between) == spaces | set(range(ord("0"), ord("9") + 1))
    assert set(initial) == {ord("p"), ord("P")}
    for c in [*between, *initial, *spaces, 0x212A, 0x130, 0x661]:  # Python on every candidate
        assert (python_net(f"1{chr(c)}:1") != "error") == (c in between)
        assert (python_net(f"{chr(c)}USH") != "error") == (c in initial)


# -- edited pages against the engine --------------------------------------------------------------

COLLECT = """(ids) => {
  const figures = [];
  for (const node of document.querySelectorAll('[data-figure]')) {
    const bet = node.dataset.bet ?? '';
    if (bet === '' || ids.includes(bet)) {
      const d = node.dataset;
      figures.push([bet, d.figure, d.row ?? '', d.form ?? '', node.textContent]);
    }
  }
  const sections = {};
  for (const id of ids) {
    for (const prefix of ['bet-', 'exact-']) {
      const parts = [];
      let node = document.getElementById(prefix + id).nextElementSibling;
      for (; node && !/^H[23]$/.test(node.tagName); node = node.nextElementSibling) {
        // the designer's own lines aside, and the chart (its redrawing: test_charts)
        const skip = node.classList.contains('designer-bet') || node.classList.contains('chart');
        if (!skip) parts.push(node.innerText);
      }
      sections[prefix + id] = parts.join('\\n');
    }
  }
  return {figures, sections};
}"""


def collect(page: Any, bet_ids: list[str]) -> dict[str, Any]:
    """Every figure of these bets as the page shows it (bet, figure, row, form, text), and the
    text of each bet's section and appendix (without the designer's own lines)."""
    result: dict[str, Any] = page.evaluate(COLLECT, bet_ids)
    return result


def edited(paytable: Paytable, edits: Mapping[str, Mapping[int, str]]) -> Paytable:
    """The paytable with these payouts (bet id → row → text), as a file would give it."""
    bets = tuple(
        replace(
            bet,
            rows=tuple(
                replace(row, pays=parse_payout(edits[bet.id][k]))
                if k in edits.get(bet.id, {})
                else row
                for k, row in enumerate(bet.rows)
            ),
        )
        for bet in paytable.bets
    )
    return replace(paytable, bets=bets)


def type_payouts(page: Any, edits: Mapping[str, Mapping[int, str]]) -> None:
    for bet_id, rows in edits.items():
        for k, text in rows.items():
            page.fill(f'input.pays[data-bet="{bet_id}"][data-row="{k}"]', text)


def engine_sheet(sheet: Sheet, edits: Mapping[str, Mapping[int, str]]) -> Sheet:
    """The sheet ``exactodds report`` makes of the edited paytable, on this sheet's game."""
    return build_sheet(
        edited(sheet.paytable, edits),
        shoe=sheet.shoe,
        tableau=sheet.tableau,
        bet_ids=[b.bet.id for b in sheet.bets],
        date=sheet.date,
        version=sheet.version,
        notation=sheet.notation,
    )


def golden_sheet(notation: Notation = Notation.BOTH) -> Sheet:
    """The golden game: custom rules and shoe files (one deck less four cards)."""
    (sheet,) = build_sheets(
        [str(GOLDEN / "game.toml")],
        game=GameChoice(shoe_file=GOLDEN / "shoe.toml", rules=str(GOLDEN / "rules.toml")),
        date="2024-06-01",
        notation=notation,
    )
    return sheet


SCENARIOS: dict[str, tuple[dict[str, Any], dict[str, dict[int, str]]]] = {
    # a pair bet made player-favourable, Tie and Banker in other notations, a bonus row pushed
    "classic": (
        {"specs": ["classic"]},
        {
            "player_pair": {0: "25:1"},
            "tie": {0: "9 to 1"},
            "banker": {0: "1:1 less 4%"},
            "player_bonus": {0: "push", 2: "31 FOR 1"},
            "perfect_pair": {0: "19/20:1"},
        },
    ),
    # cent rounding at stake 1 (1.955 pays 1.95) and the RTP-by-stake table
    "touch": (
        {"specs": ["touch"]},
        {"banker": {0: "1.955 for 1"}, "tie": {0: "10 for 1"}, "player": {0: "2.01 for 1"}},
    ),
    # overrides (6 decks, mini rules), payouts stated "to 1", a bet that never wins
    "super6-mini-to": (
        {"specs": ["super6"], "game": GameChoice(decks=6, rules="mini"), "notation": Notation.TO},
        {"banker": {0: "1.5/2:1", 1: " 1  TO 1 "}, "lucky_six": {0: "LOSE"}, "tie": {0: "lose"}},
    ),
    # the golden game: the favourable bet no longer is, a bet that always pushes (no resolved
    # bets, no spread, no win), rounding down below the cent
    "golden": (
        {},
        {
            "generous": {0: "1:1"},
            "banker_touch": {0: "1.945 for 1"},
            "either_pair": {0: "8:1"},
            "player": {0: "push", 2: "push"},
        },
    ),
}


def scenario_sheet(name: str) -> Sheet:
    options, _ = SCENARIOS[name]
    if not options:
        return golden_sheet()
    (sheet,) = build_sheets(date="2024-06-01", **options)
    return sheet


@pytest.mark.parametrize("name", SCENARIOS)
def test_edited_page_shows_the_engines_figures(name: str, pages: Pages) -> None:
    sheet = scenario_sheet(name)
    edits = SCENARIOS[name][1]
    page = pages.open(render_sheets([sheet], "html"))
    type_payouts(page, edits)
    ids = list(edits)
    shown = collect(page, ids)
    engine = pages.open(render_sheets([engine_sheet(sheet, edits)], "html"))
    expected = collect(engine, ids)
    assert shown["figures"] == expected["figures"]
    assert shown["sections"] == expected["sections"]
    printed = collect(pages.open(render_sheets([sheet], "html")), ids)["sections"]
    for bet_id, rows in edits.items():  # every edit changed the bet's section and is valid
        assert printed[f"bet-{bet_id}"] != shown["sections"][f"bet-{bet_id}"]
        for k in rows:
            field = page.locator(f'input.pays[data-bet="{bet_id}"][data-row="{k}"]')
            assert field.get_attribute("aria-invalid") is None
    banner = page.locator("#designer-edited").inner_text()
    assert all(f"({bet_id})" in banner for bet_id in ids)


def test_unedited_sheets_recompute_to_their_printed_digits(pages: Pages) -> None:
    """The script recomputes every bet of bundled sheets with every kind of bet (commission,
    no commission, bonuses, pairs, rounding) and of the golden sheet in each notation from their
    printed payouts: the page text does not change by one character."""
    sheets = build_sheets(["classic", "no-commission", "ez", "touch"], date="2024-06-01")
    sheets += [golden_sheet(n) for n in Notation]
    for sheet in sheets:
        page = pages.open(render_sheets([sheet], "html"))
        before = page.evaluate("document.body.innerText")
        page.evaluate(
            "for (const i of document.querySelectorAll('input.pays')) "
            "i.dispatchEvent(new Event('input', {bubbles: true}))"
        )
        assert page.evaluate("document.body.innerText") == before, sheet.stem
        assert page.locator("#designer-edited").count() == 0


def test_a_payout_that_does_not_parse(pages: Pages) -> None:
    (sheet,) = build_sheets(["classic"], date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"))
    player = collect(page, ["player"])
    page.fill('input.pays[data-bet="tie"][data-row="0"]', "8 to")
    field = page.locator('input.pays[data-bet="tie"][data-row="0"]')
    assert field.get_attribute("aria-invalid") == "true"
    error = page.locator(f"#{field.get_attribute('aria-describedby')}").inner_text()
    assert error.startswith('Row 1 (Tie): cannot read "8 to"')
    per_row = {"pays", "to_one", "for_one", "return", "example.returns"}
    for _, figure, row, form, text in collect(page, ["tie"])["figures"]:
        if figure in per_row and row == "1":  # "lose" still reads: its row is shown
            assert text not in ("—", ""), (figure, form)
        else:
            assert text == "—", (figure, row, form)
    assert collect(page, ["player"]) == player  # other bets untouched
    body = page.evaluate("document.body.innerText")
    assert not re.search(r"NaN|Infinity|undefined|null", body)
    page.click('button[data-action="export"]')
    assert "cannot be read" in page.locator("[data-export-status]").inner_text()
    assert page.locator("textarea[data-export]").input_value() == ""
    page.fill('input.pays[data-bet="tie"][data-row="0"]', "")  # empty: still invalid
    assert field.get_attribute("aria-invalid") == "true"
    page.click('button[data-action="reset"]')
    assert field.input_value() == "8:1" and field.get_attribute("aria-invalid") is None
    assert collect(page, ["tie", "player"]) == collect(
        pages.open(render_sheets([sheet], "html")), ["tie", "player"]
    )
    assert page.locator("#designer-edited").count() == 0


def test_reset_one_bet(pages: Pages) -> None:
    (sheet,) = build_sheets(["classic"], bet_ids=["tie", "player_pair"], date="2024-06-01")
    fresh = collect(pages.open(render_sheets([sheet], "html")), ["tie", "player_pair"])
    page = pages.open(render_sheets([sheet], "html"))
    type_payouts(page, {"tie": {0: "9:1"}, "player_pair": {0: "30:1"}})
    page.click('button[data-action="reset-bet"][data-bet="player_pair"]')
    now = collect(page, ["tie", "player_pair"])
    assert now["sections"]["bet-player_pair"] == fresh["sections"]["bet-player_pair"]
    assert now["sections"]["bet-tie"] != fresh["sections"]["bet-tie"]
    assert "Player Pair" not in page.locator("#designer-edited").inner_text()


# -- export ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "golden"])
def test_export_reads_back_to_the_pages_figures(
    name: str, pages: Pages, tmp_path: Path, cli: Cli
) -> None:
    sheet = scenario_sheet(name)
    edits = SCENARIOS[name][1]
    page = pages.open(render_sheets([sheet], "html"))
    type_payouts(page, edits)
    page.click('button[data-action="export"]')
    text = page.locator("textarea[data-export]").input_value()
    with page.expect_download() as download:
        page.click("a[data-download]")
    assert download.value.suggested_filename == f"{sheet.stem}-edited.toml"
    assert Path(download.value.path()).read_text(encoding="utf-8") == text
    path = tmp_path / "exported.toml"
    path.write_text(text, encoding="utf-8")
    table = load_paytable(path)
    assert table.name == sheet.paytable.name and table.tableau == sheet.tableau
    assert [b.id for b in table.bets] == [b.bet.id for b in sheet.bets]
    # the old description may state the old payouts: the export describes the edits, in the
    # words of Paytable.with_payout (bets and rows in paytable order)
    expected = sheet.paytable
    for bet in sheet.paytable.bets:
        for k in sorted(edits.get(bet.id, {})):
            expected = expected.with_payout(bet.id, k, edits[bet.id][k])
    assert table.description == expected.description != sheet.paytable.description
    # the exported file on the page's shoe gives the page's figures
    again = build_sheet(table, shoe=sheet.shoe, date=sheet.date, version=sheet.version)
    ids = [b.bet.id for b in sheet.bets]
    assert collect(pages.open(render_sheets([again], "html")), ids) == collect(page, ids)
    assert table.shoe == sheet.shoe or name == "golden"
    notes = page.locator("#designer li").all_inner_texts()
    if name == "golden":  # a depleted shoe: the file has its decks, the note the --remove
        assert table.decks == 1
        assert any("--remove '2c 7h Kd Kh'" in n for n in notes)
        assert any("inline rules table" in n for n in notes)
    argv = ["report", str(path), "--format", "json", "--bet", ids[0]]
    if name == "golden":
        argv += ["--remove", "2c 7h Kd Kh"]
    code, out, _ = cli(argv)
    data = json.loads(out)["bets"][0]
    engine = engine_sheet(sheet, edits).bet(ids[0]).figures
    assert code == 0 and Fraction(data["house_edge"]) == engine.house_edge
    assert Fraction(data["variance"]) == engine.variance


def test_export_escapes_hostile_text(pages: Pages, tmp_path: Path) -> None:
    """Names, events and descriptions with quotes, backslashes, tabs, line separators and
    non-ASCII text survive the round trip through the exported TOML (other control characters
    are refused in input files)."""
    name = 'Q"uo\\te\t<b>ß€😀\u2028'
    source = (GOLDEN / "game.toml").read_text(encoding="utf-8")
    source = source.replace(
        'name = "Golden test game"', f"name = {json.dumps(name, ensure_ascii=False)}"
    )
    source = source.replace(
        'event = "Player wins" },\n  { when = "winner == tie", pays = "push"',
        'event = "P\\"w\\\\ \\u2028\\t" },\n  { when = "winner == tie", pays = "push"',
        1,
    )
    path = tmp_path / "game.toml"
    path.write_text(source, encoding="utf-8")
    original = load_paytable(path)
    (sheet,) = build_sheets([str(path)], date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"))
    page.fill('input.pays[data-bet="player"][data-row="0"]', " 1 TO 1 ")
    page.click('button[data-action="export"]')
    back = tmp_path / "back.toml"
    back.write_text(page.locator("textarea[data-export]").input_value(), encoding="utf-8")
    table = load_paytable(back)
    assert table.name == name
    assert table.description == original.with_payout("player", 0, "1 TO 1").description
    assert [b.name for b in table.bets] == [b.name for b in original.bets]
    assert [r.event for b in table.bets for r in b.rows] == [
        r.event for b in original.bets for r in b.rows
    ]
    assert table.bets[0].rows[0].pays.text == "1 TO 1"
    nets = [[r.pays.net for r in b.rows] for b in table.bets]
    assert nets == [[r.pays.net for r in b.rows] for b in original.bets]


# -- layout, print, no script, policy -------------------------------------------------------------

FITS = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('table, pre, textarea, p, h1, h2, h3')]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => e.tagName + ': ' + e.textContent.slice(0, 60));
  return {scroll: document.documentElement.scrollWidth, width, wide};
}"""


@pytest.mark.parametrize("name", ["classic", "golden"])
def test_nothing_overflows_on_screen_or_in_print(name: str, pages: Pages, tmp_path: Path) -> None:
    """At 1280 px, edited and exported, and in print on the width of an A4 page: no horizontal
    scrolling and every table inside the page (a full-page screenshot is 1280 px wide)."""
    sheet = scenario_sheet(name)
    page = pages.open(render_sheets([sheet], "html"))
    type_payouts(page, SCENARIOS[name][1])
    page.fill('input.pays[data-bet="player"][data-row="1"]', "1:1 less 5% commission " + "9" * 60)
    page.click('button[data-action="export"]')
    fits = page.evaluate(FITS)
    assert fits["scroll"] <= fits["width"] == 1280 and fits["wide"] == []
    if name == "golden":  # the whole page, a few thousand pixels tall
        shot = tmp_path / "screen.png"
        page.screenshot(path=str(shot), full_page=True)
        assert int.from_bytes(shot.read_bytes()[16:20], "big") == 1280  # PNG width
    printed = pages.open(render_sheets([sheet], "html"), width=PRINTABLE_A4)
    type_payouts(printed, SCENARIOS[name][1])
    printed.emulate_media(media="print")
    fits = printed.evaluate(FITS)
    assert fits["scroll"] <= fits["width"] and fits["wide"] == []
    visible = printed.evaluate(
        "[...document.querySelectorAll('input, button, textarea, #designer')]"
        ".filter((e) => e.getClientRects().length).length"
    )
    assert visible == 0
    body = printed.evaluate("document.body.innerText")
    rows = next(iter(SCENARIOS[name][1].values()))
    assert rows[0] in body and "Edited on this page:" in body  # printed as edited, and says so


def test_no_bundled_report_scrolls_sideways(browser: Any) -> None:
    """Every sheet in reports/ fits a 1280 px window (issue 32: a long "When" condition did
    not wrap, and lucky-nines.html was 2,021 px wide): one page visits them all."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        widths = {}
        for path in sorted((Path(__file__).parents[1] / "reports").glob("*.html")):
            page.goto(path.as_uri())
            widths[path.name] = page.evaluate("document.documentElement.scrollWidth")
    finally:
        context.close()
    assert len(widths) >= 20 and "lucky-nines.html" in widths
    assert {name: w for name, w in widths.items() if w > 1280} == {}


def test_without_javascript_the_page_is_the_static_sheet(pages: Pages) -> None:
    (sheet,) = build_sheets(["classic"], date="2024-06-01")
    page = pages.open(render_sheets([sheet], "html"), javascript=False)
    assert page.locator("#designer").is_hidden()
    assert page.locator("button:visible").count() == 0
    field = page.locator('input.pays[data-bet="tie"][data-row="0"]')
    assert field.input_value() == "8:1" and field.is_visible()
    assert field.get_attribute("aria-label") == "Payout of Tie, row 1: Tie"
    text = page.evaluate("document.body.innerText")
    assert "Paytable designer" not in text and "Reset" not in text


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._in = tag
            (self.scripts if tag == "script" else self.styles).append("")

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts[-1] += data
        elif self._in == "style":
            self.styles[-1] += data


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("stem", [*(p.stem for p in bundled_paytables()), "comparison"])
def test_the_policy_allows_only_the_pages_own_style_and_script(stem: str) -> None:
    """The committed pages: a CSP that names the page's style and its one executable script by
    their SHA-256, nothing else; no element loads anything (no src, no external href)."""
    html = (Path(__file__).parents[1] / "reports" / f"{stem}.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(html)
    (meta,) = [a for t, a in page.tags if t == "meta" and a.get("http-equiv")]
    policy = dict(part.strip().split(" ", 1) for part in str(meta["content"]).split(";"))
    (style,) = page.styles
    assert policy.pop("style-src") == _hash(style)
    assert policy == {
        "default-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'none'",
        **({"script-src": _hash(page.scripts[1])} if stem != "comparison" else {}),
    }
    if stem != "comparison":
        kinds = [a.get("type") for t, a in page.tags if t == "script"]
        assert kinds == ["application/json", None]
        data = json.loads(page.scripts[0])
        assert data["file"] == f"paytables/{stem}.toml"
    for _, attrs in page.tags:
        assert "src" not in attrs
        assert str(attrs.get("href", "#")).startswith("#")


def test_sheets_run_together_leave_the_second_inert(pages: Pages) -> None:
    """``report A B --format html`` prints two documents run together: the first sheet's script
    recomputes the first sheet only; the second sheet keeps its printed figures."""
    sheets = build_sheets(["tie-9", "classic"], bet_ids=["tie"], date="2024-06-01")
    page = pages.open(render_sheets(sheets, "html"))
    # the second document's policy sits in the body, where browsers ignore it (the first holds)
    assert [p for p in pages.problems if "outside the document's <head>" not in p] == []
    pages.problems.clear()
    fields = page.locator('input.pays[data-bet="tie"][data-row="0"]')
    edges = page.locator('[data-bet="tie"][data-figure="house_edge"]:not([data-form])')
    printed = edges.all_inner_texts()
    assert printed == ["4.8440%", "4.8440%", "14.3596%", "14.3596%"]
    fields.nth(1).fill("9:1")
    assert edges.all_inner_texts() == printed
    fields.nth(0).fill("8:1")
    assert edges.all_inner_texts() == ["14.3596%"] * 4
