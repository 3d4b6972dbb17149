"""Card-level bets and offers downstream: loading (the offer's checks, with file and line),
figures per offered round, settle from cards, worked examples, the sheet's offer note."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable, validate_paytable
from exactodds.bets.payout import LOSE
from exactodds.bets.settle import settle_round
from exactodds.deal.shoe import Shoe
from exactodds.errors import ExactOddsError, RoundError
from exactodds.figures.metrics import BetFigures, paytable_figures
from exactodds.figures.worked_examples import row_examples
from exactodds.language import OTHERWISE
from tests.cli_helpers import run

KQ = (
    "player.card1.suit == player.card2.suit and player.card1.rank in [K, Q] "
    "and player.card2.rank in [K, Q] and player.card1.rank != player.card2.rank"
)
GAME = """\
name = "Card bets"
decks = 8

[bets.suited_kq]
name = "Suited K-Q"
rows = [
  { when = "KQ", pays = "25:1", event = "Suited K-Q" },
  { when = "player.suited", pays = "5:2", event = "Suited" },
  { when = "otherwise", pays = "lose", event = "Other" },
]

[bets.insurance]
name = "Insurance"
offer = "player.initial == 0 and banker.initial == 6"
rows = [
  { when = "player.wins", pays = "3:1", event = "Player wins" },
  { when = "winner == tie", pays = "push", event = "Tie" },
  { when = "otherwise", pays = "lose", event = "Banker wins" },
]
""".replace("KQ", KQ)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(GAME)
    return path


def test_suited_pair_of_first_cards_by_hand(game: Path) -> None:
    """Suited K-Q among the player's first two cards: hand-checked. K then Q of one suit, or
    Q then K: 2 · 4 suits · 8 · 8 (8 decks) ordered pairs out of 416 · 415."""
    table = load_paytable(game)
    figures = {f.bet.id: f for f in paytable_figures(table) if isinstance(f, BetFigures)}
    kq = figures["suited_kq"].rows[0]
    assert kq.probability == Fraction(2 * 4 * 8 * 8, 416 * 415)
    insurance = figures["insurance"]
    assert insurance.offer_probability is not None and 0 < insurance.offer_probability < 1
    assert sum(r.probability for r in insurance.rows) == 1  # per offered round


def test_settle_reads_cards_and_offers(game: Path) -> None:
    table = load_paytable(game)
    s = settle_round(table, "P: Kh Qh 9c | B: 2c 3d", [("suited_kq", 10)])
    assert s.settlements[0].row.event == "Suited K-Q"
    with pytest.raises(RoundError, match="give the suit"):
        settle_round(table, "P: K Q 9c | B: 2c 3d", [("suited_kq", 10)])
    with pytest.raises(RoundError, match="not offered"):
        settle_round(table, "P: K Q 9c | B: 2c 3d", [("insurance", 10)])
    won = settle_round(table, "P: K Q 9c | B: 2c 4d", [("insurance", 10)])
    assert won.settlements[0].row.event == "Player wins"


def test_worked_examples_settle_on_their_rows(game: Path) -> None:
    table = load_paytable(game)
    for bet in table.bets:
        for row, example in zip(bet.rows, row_examples(bet, Shoe.decks(8)), strict=True):
            assert example is not None
            assert settle_round(table, example.cards, [(bet.id, 1)]).settlements[0].row == row


def test_offer_must_read_the_first_four_cards(tmp_path: Path) -> None:
    path = tmp_path / "late.toml"
    path.write_text(GAME.replace('offer = "player.initial == 0', 'offer = "player.total == 0'))
    problems = validate_paytable(path)
    assert len(problems) == 1
    assert "late.toml:14: bet 'insurance': offer" in problems[0]  # the offer's line
    assert "offer must be a condition on the first four cards" in problems[0]
    assert "player.total" in problems[0]
    with pytest.raises(ExactOddsError, match="offer"):
        load_paytable(path)


def test_sheet_states_the_offer(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["report", str(game), "--format", "json"], capsys)
    bets = {b["id"]: b for b in json.loads(out)["bets"]}
    assert code == 0
    assert "offer_probability" in bets["insurance"] and "offer_probability" not in bets["suited_kq"]
    code, out, _ = run(["report", str(game)], capsys)
    assert "offered after the first four cards only when" in out
    assert "probability of the offer" in out


def test_eor_of_card_level_and_offered_bets() -> None:
    """An offer that always holds sends a value-level bet through the card engine state by
    state: its EORs equal the batch evaluator's for the plain bet. A suited bet's EORs weigh
    to zero over the shoe, and it has per-suit EORs."""
    from dataclasses import replace

    from exactodds.analysis.eor import effect_of_removal
    from exactodds.language import parse_condition

    shoe = Shoe.decks(1).remove("K K 9h 2c")
    tie = load_paytable("classic").round_bet("tie")
    always = replace(tie, id="tie_offered", offer=parse_condition("player.initial >= 0"))
    result = effect_of_removal([tie, always], shoe)
    assert result.eor["tie_offered"] == result.eor["tie"]
    assert result.ev["tie_offered"] == result.ev["tie"]
    from exactodds.bets.paytable import Bet, Row

    rows = (Row(parse_condition(KQ), tie.rows[0].pays, "KQ"), Row(OTHERWISE, LOSE, "Other"))
    suited = Bet("suited_kq", "Suited K-Q", rows)
    card = effect_of_removal([suited], shoe)
    assert card.weighted_sum("suited_kq") == 0
    king, five = card.eor["suited_kq"]["K"], card.eor["suited_kq"]["5"]
    assert king is not None and five is not None
    assert king < 0 < five
    assert set(card.eor_suits["suited_kq"]) == {"c", "d", "h", "s"}


def test_eor_per_suit_is_printed_for_bets_that_read_suits() -> None:
    """The Markdown and HTML EOR show a per-suit table with the exact per-suit EORs, only when
    a bet reads suits (and the suits' EORs weigh to zero over the shoe, a check of them)."""
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.bets.paytable import Bet, Row
    from exactodds.language import parse_condition
    from exactodds.numbers import signed
    from exactodds.report.eor import render_eor

    shoe = Shoe.decks(1).remove("K K 9h 2c")
    tie = load_paytable("classic").round_bet("tie")
    rows = (Row(parse_condition(KQ), tie.rows[0].pays, "KQ"), Row(OTHERWISE, LOSE, "Other"))
    result = effect_of_removal([Bet("suited_kq", "Suited K-Q", rows)], shoe)
    per = result.eor_suits["suited_kq"]
    in_suit = {u: sum(row[s] for row in shoe.counts) for s, u in enumerate("cdhs")}
    assert sum(in_suit[u] * e for u, e in per.items() if e is not None) == 0
    cells = [signed(e * 100, 5) for u in "cdhs" if (e := per[u]) is not None]
    md = render_eor(result, "t", "md")
    assert "## Effect of removal per suit" in md
    assert md.index("per suit") < md.index("## Counting tags")
    suit_line = md.split("## Effect of removal per suit")[1].split("## Counting tags")[0]
    assert [c.strip() for c in suit_line.splitlines()[-2].strip("|").split("|")][1:] == cells
    html = render_eor(result, "t", "html")
    assert 'id="eor-suits"' in html and all(c in html for c in cells)
    plain = effect_of_removal([tie], shoe)
    assert "per suit" not in render_eor(plain, "t", "md")
