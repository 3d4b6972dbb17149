"""Refusals that teach (issue 33): the card engine's refusal names the bet, its costliest row,
what the row reads and the cheaper equivalent form that applies, from one helper
(:mod:`exactodds.bets.costly`); a condition that reads no rank is never told it does."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactodds.bets.costly import costliest_row, hints, reads, why_costly
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Row
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN
from exactodds.language import OTHERWISE, parse_condition
from tests.cli_helpers import Cli

PB = BUILTIN["punto-banco"]


@pytest.mark.parametrize(
    ("when", "read", "hint"),
    [
        ("player.card1.suit == hearts", ["suits"], ["not with a named suit"]),
        ("player.card1.suit in [hearts, spades]", ["suits"], ["not with a named suit"]),
        ("player.card1.suit == player.card2.suit", ["suits"], []),
        ("player.card1.rank == 9", ["ranks"], ["value == 9 is rank == 9, cheaper"]),
        ("count(round, rank == A) >= 2", ["ranks"], ["value == 1 is rank == A, cheaper"]),
        ("count(round, rank == K) >= 2", ["ranks"], ["value == 0 if any of T J Q K"]),
        ("player.pair", ["ranks"], []),
        ("player.poker == flush", ["ranks", "suits"], []),
        # the first design of issue 33: it reads no rank at all
        (
            "player.natural and banker.natural and player.total == 9 and player.suited"
            " and player.colour == red",
            ["suits", "colours"],
            [],
        ),
        ("player.total == 9 and banker.natural", [], []),
    ],
)
def test_each_hint_applies_where_it_should(when: str, read: list[str], hint: list[str]) -> None:
    condition = parse_condition(when)
    assert reads(condition) == read
    found = hints(condition)
    assert len(found) == len(hint)
    assert all(h in f for h, f in zip(hint, found, strict=True))


def test_the_costliest_row_is_named() -> None:
    rows = (
        Row(parse_condition("player.natural"), parse_payout("1:1"), "Natural"),
        Row(parse_condition("count(round, rank == K and suit == hearts) >= 2"),
            parse_payout("99:1"), "Two kings of hearts"),
        Row(OTHERWISE, parse_payout("lose"), "Other"),
    )  # fmt: skip
    bet = Bet("kings", "Kings", rows)
    assert costliest_row(bet, Shoe.decks(8), PB) == 1
    assert why_costly(bet, Shoe.decks(8), PB) == (
        "its costliest row 'Two kings of hearts' reads ranks and suits: compare suits with "
        "each other, not with a named suit; value == 0 if any of T J Q K will do"
    )


def test_the_refusal_teaches_in_one_line(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short file name: the line fits in 300 characters
    path = Path("named.toml")
    path.write_text(
        '[bets.x]\nrows = [\n  { when = "count(round, rank == K and suit == hearts) >= 2", '
        'pays = "300:1", event = "Kings" },\n  { when = "player.natural", pays = "1:1" },\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    code, out, err = cli(["validate", str(path), "--budget", "0.5"])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.startswith(
        "exactodds: error: named.toml:1: counting bet 'x' (its costliest row 'Kings' reads "
        "ranks and suits: compare suits with each other, not with a named suit; value == 0 if "
        "any of T J Q K will do) would take about "
    )
    assert "(--budget " in err and "…" not in err
