"""Rows and offers judged under the game actually used (issue 25): ``--rules``, ``--decks``,
``--shoe`` and ``--remove`` apply before a row is called dead, an offer no round makes is
refused in one line in every format, and a bet that fits the shoe used is not refused
because of the paytable's own 8 decks."""

from __future__ import annotations

import json

import pytest

from exactodds.bets.game import GameChoice
from exactodds.bets.loader import examine_paytable, load_paytable
from tests.cli_helpers import Cli
from tests.conftest import WriteFile

PRONTO_ROW = """\
name = "Pronto row"
rules = "punto-banco"
[bets.x]
rows = [
  { when = "banker.initial == 4 and banker.cards == 3 and player.third == 8", pays = "100:1" },
  { when = "otherwise", pays = "lose" },
]
"""

NINES = """\
name = "Two nines of hearts"
decks = 1
[bets.x]
offer = "count(initial, rank == 9 and suit == hearts) >= 2"
rows = [
  { when = "player.wins", pays = "1:1" },
  { when = "otherwise", pays = "lose" },
]
"""


def test_rules_rescue_a_row_dead_under_the_files_own(write_file: WriteFile, cli: Cli) -> None:
    """Punto Banco never lets a Banker 4 draw against a Player third card 8; Pronto does."""
    path = write_file("pronto-row.toml", PRONTO_ROW)
    table, problems = examine_paytable(path)  # alone: a warning naming the rescuing rules
    assert problems == [] and table is not None
    (warning,) = table.warnings
    assert "never occurs under punto-banco rules" in warning and "--rules pronto" in warning
    table, problems = examine_paytable(path, GameChoice(rules="pronto"))
    assert problems == [] and table is not None and table.warnings == ()
    code, out, err = cli(["report", str(path), "--rules", "pronto", "--format", "json"])
    assert code == 0, err
    rows = json.loads(out)["bets"][0]["rows"]
    # Source: issue 25 (an independent enumerator): 22,619,278,442,496 rounds under Pronto.
    assert rows[0]["combinations"] == 22_619_278_442_496
    code, out, err = cli(["validate", str(path), "--rules", "pronto"])
    assert (code, err) == (0, "")


def test_a_row_dead_under_every_rules_is_still_an_error(write_file: WriteFile) -> None:
    path = write_file("dead.toml", PRONTO_ROW.replace("player.third == 8", "margin == 10"))
    _, problems = examine_paytable(path, GameChoice(rules="pronto"))
    assert len(problems) == 1 and "can never match" in problems[0]


PERFECT = NINES.replace("count(initial, rank == 9 and suit == hearts) >= 2", "player.perfect_pair")


@pytest.mark.parametrize("fmt", ["md", "json", "csv", "html"])
def test_an_offer_never_made_is_refused_in_every_format(
    fmt: str, write_file: WriteFile, cli: Cli
) -> None:
    """One deck holds no two identical cards: no round offers a bet on a Player perfect
    pair; on two decks it is offered."""
    path = write_file("perfect.toml", PERFECT)
    code, out, err = cli(["report", str(path), "--format", fmt])
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "its offer 'player.perfect_pair' is never made (1 deck (52 cards)" in err
    code, out, err = cli(["report", str(path), "--format", fmt, "--decks", "2"])
    assert code == 0, err


def test_a_card_level_offer_never_made_is_refused(write_file: WriteFile, cli: Cli) -> None:
    """One deck holds one 9♥ (its JSON rows summed to 0 while its total said probability 1)."""
    path = write_file("nines.toml", NINES)
    code, out, err = cli(["report", str(path), "--format", "json"])
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "is never made (1 deck (52 cards)" in err


def test_an_offer_never_made_is_refused_by_validate_and_the_api(write_file: WriteFile) -> None:
    from exactodds.deal.shoe import Shoe
    from exactodds.errors import PaytableError
    from exactodds.report.sheet import build_sheet

    path = write_file("perfect.toml", PERFECT)
    _, problems = examine_paytable(path)
    assert len(problems) == 1 and "is never made" in problems[0]
    table = load_paytable(path, GameChoice(decks=2))
    with pytest.raises(PaytableError, match="is never made"):
        build_sheet(table, shoe=Shoe.decks(1))


def test_a_bet_that_fits_the_shoe_used_is_judged_on_it(write_file: WriteFile, cli: Cli) -> None:
    """A poker bet over a budget of 1 s on 8 decks is counted on a shoe of six cards: its row is
    judged there (0 flush pairs: no two cards share a suit), not refused because of 8 decks."""
    poker = (
        "player.poker == flush and banker.poker == flush and player.poker != straight and "
        "banker.poker != straight and player.poker != pair and "
        "count(round, rank == K and suit == hearts) >= 2"
    )
    path = write_file(
        "poker.toml",
        f'[bets.x]\nrows = [\n  {{ when = "{poker}", pays = "99:1" }},\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
    )
    six = (
        "K = { h = 1 }\nQ = { s = 1 }\nJ = { d = 1 }\nT = { c = 1 }\n9 = { h = 1 }\n8 = { s = 1 }\n"
    )
    shoe = write_file("six.toml", "[cards]\n" + six)
    code, out, err = cli(["report", str(path), "--format", "json", "--budget", "1"])
    assert code == 2 and "over the budget of 1 s" in err  # about 4 s on 8 decks
    code, out, err = cli(
        ["report", str(path), "--shoe", str(shoe), "--format", "json", "--budget", "1"]
    )
    assert code == 0, err
    rows = json.loads(out)["bets"][0]["rows"]
    assert [r["combinations"] for r in rows] == [0, 720]
