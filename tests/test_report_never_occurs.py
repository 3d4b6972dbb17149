"""A row the shoe in use cannot settle: one judgement in validate, the sheets and the API."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from exactodds import Shoe, joint_distribution
from exactodds.bets.game import GameChoice
from exactodds.bets.loader import validate_paytable
from exactodds.bets.paytable import Occurrence, Paytable, row_occurrence
from exactodds.report import build_sheets, render_sheets
from tests.cli_helpers import Cli
from tests.markdown_cells import has_cells

NEVER = "never occurs with this shoe"
PERFECT = [
    "Both hands perfect pair (paid once)",
    "Player perfect pair only",
    "Banker perfect pair only",
]


def test_one_deck_classic_prints_and_flags_perfect_pairs_in_every_format(
    tmp_path: Path, cli: Cli, classic: Paytable
) -> None:
    """`report classic --decks 1` and a paytable file with decks = 1 give the same sheet rows."""
    text = classic.path.read_text(encoding="utf-8")  # type: ignore[union-attr]
    one_deck = tmp_path / "one.toml"
    one_deck.write_text(text.replace("decks = 8", "decks = 1"), encoding="utf-8")
    assert validate_paytable(one_deck) == []  # a warning, not a problem
    by_option = build_sheets(
        ["classic"], game=GameChoice(decks=1), bet_ids=["perfect_pair"], date="2024-06-01"
    )
    by_file = build_sheets([str(one_deck)], bet_ids=["perfect_pair"], date="2024-06-01")
    for (sheet,) in (by_option, by_file):
        b = sheet.bet("perfect_pair")
        assert [r.combinations for r in b.figures.rows][:3] == [0, 0, 0]
        assert b.notes == (NEVER, NEVER, NEVER, "")
        data = json.loads(render_sheets([sheet], "json"))
        rows = data["bets"][0]["rows"]
        assert [r["never_occurs"] for r in rows] == [True, True, True, False]
        assert [r["note"] for r in rows] == [NEVER] * 3 + [""]
        assert [r["combinations"] for r in rows] == [0, 0, 0, 52 * 51 * 50 * 49 * 48 * 47]
        lines = list(csv.DictReader(io.StringIO(render_sheets([sheet], "csv"), newline="")))
        assert [r["note"] for r in lines if r["kind"] == "row"] == [NEVER] * 3 + [""]
        md = render_sheets([sheet], "md")
        for event in PERFECT:
            assert has_cells(md, f"{event} ({NEVER})", "25:1", "0", "0.0000000000", "0.0000000000")
        assert f"Never occurs with this shoe (1 deck (52 cards)): {', '.join(PERFECT)}." in md
        assert f"<td>Player perfect pair only ({NEVER})</td>" in render_sheets([sheet], "html")
    code, out, err = cli(["report", "classic", "--decks", "1", "--bet", "perfect_pair"])
    assert code == 0 and err == "" and f"({NEVER})" in out


def test_the_judgement_separates_this_shoe_from_every_shoe(classic: Paytable) -> None:
    """Player pair on a shoe with one card per rank never occurs here, but on 8 decks it does;
    a row after `player.pair` naming `player.pair` never occurs on any shoe."""
    singles = Shoe.decks(1).remove(" ".join(f"{r}{s}" for r in "A23456789TJQK" for s in "dhs"))
    assert singles.size == 13
    joint = joint_distribution(singles, classic.tableau)
    assert row_occurrence(classic.round_bet("player_pair"), joint) == (
        Occurrence.NOT_WITH_THIS_SHOE,
        Occurrence.OCCURS,
    )
    either = classic.round_bet("either_pair")  # both / player only / banker only / no pair
    assert row_occurrence(either, joint) == (
        Occurrence.NOT_WITH_THIS_SHOE,
        Occurrence.NOT_WITH_THIS_SHOE,
        Occurrence.NOT_WITH_THIS_SHOE,
        Occurrence.OCCURS,
    )
    full = joint_distribution(Shoe.decks(8), classic.tableau)
    assert set(row_occurrence(either, full)) == {Occurrence.OCCURS}


def test_a_sheet_with_other_rules_says_never_on_any_shoe(tmp_path: Path) -> None:
    """Under Pronto a banker total of 5 never draws: a row for it cannot occur on any shoe."""
    game = tmp_path / "game.toml"
    game.write_text(
        'name = "Draw on 5"\n[bets.five]\nrows = [\n'
        '  { when = "banker.initial == 5 and banker.cards == 3", pays = "10:1", event = "Five" },\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    assert validate_paytable(game) == []  # Punto Banco: a banker 5 draws against a player 4-7
    (sheet,) = build_sheets([str(game)], game=GameChoice(rules="pronto"), date="2024-06-01")
    assert sheet.bet("five").notes == ("never occurs on any shoe", "")
    md = render_sheets([sheet], "md")
    assert "Never occurs, on any shoe, with the drawing rules pronto: Five." in md
