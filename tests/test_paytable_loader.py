"""Paytable files: every problem is found and named; valid files load into exact bets."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.loader import (
    bundled_paytables,
    default_paytable,
    load_paytable,
    validate_paytable,
)
from exactodds.bets.paytable import Rounding, RoundingMode
from exactodds.deal.round import Hand, Outcome, PairKind
from exactodds.errors import InputFileError, PaytableError
from tests.cli_helpers import Cli
from tests.conftest import WriteFile

HEADER = 'name = "Test"\ndecks = 8\n'
PLAYER = """
[bets.player]
name = "Player"
rows = [
  { when = "player.wins", pays = "1:1", event = "Player wins" },
  { when = "winner == tie", pays = "push", event = "Tie" },
  { when = "otherwise", pays = "lose", event = "Banker wins" },
]
"""


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (
            'name = "x"\n[bets.a\n',
            2,
            "invalid TOML: Expected ']' at the end of a table declaration",
        ),
        (HEADER + 'colour = "red"\n' + PLAYER, 3, "unknown key 'colour'"),
        (
            HEADER + PLAYER.replace('"player.wins"', '"player.totl == 9"'),
            7,
            "bet 'player' row 1: unknown feature 'player.totl'",
        ),
        (HEADER + PLAYER.replace('"1:1"', '"-3:1"'), 7, "cannot read payout '-3:1'"),
        (HEADER + PLAYER.replace('"1:1"', '"lots"'), 7, "cannot read payout 'lots'"),
        (HEADER + PLAYER.replace('event = "Tie"', 'evnt = "Tie"'), 8, "unknown key 'evnt'"),
        (
            HEADER
            + PLAYER.replace('{ when = "otherwise", pays = "lose", event = "Banker wins" },', ""),
            8,  # the last row
            "bet 'player': the last row must be when = \"otherwise\"",
        ),
        (
            HEADER
            + PLAYER.replace(
                '{ when = "winner == tie"',
                '{ when = "player.wins and player.natural", pays = "5:1" },\n'
                '  { when = "winner == tie"',
            ),
            8,
            "bet 'player' row 2 ('player.wins and player.natural'): can never match",
        ),
        (
            HEADER + PLAYER.replace('"winner == tie"', '"margin == 10"').replace('"push"', '"2:1"'),
            8,
            "bet 'player' row 2 ('Tie'): can never match, on any shoe",
        ),
        (HEADER + PLAYER.replace("[bets.player]", "[bets.player]\nmax_round = 0"), 5, "max_round"),
        (HEADER + "decks = 0\n", None, "Cannot overwrite a value"),
        ("decks = 0\n" + PLAYER, 1, "'decks' must be a positive integer, not 0"),
        (HEADER, None, "no bets"),
        (HEADER + 'rules = "baccarat-royale"\n' + PLAYER, 3, "unknown rules 'baccarat-royale'"),
        (
            HEADER
            + PLAYER.replace(
                "[bets.player]", '[bets.player]\nrounding = { step = "0.01", mode = "sideways" }'
            ),
            5,
            "rounding mode 'sideways' is not one of down, half-up, half-even",
        ),
    ],
)
def test_every_problem_is_named_with_its_line(
    write_file: WriteFile, body: str, line: int | None, message: str
) -> None:
    path = write_file("game.toml", body)
    problems = validate_paytable(path)
    assert any(message in p for p in problems), problems
    if line is not None:
        assert any(p.startswith(f"{path}:{line}: ") and message in p for p in problems) or (
            "invalid TOML" in message and f"line {line}" in problems[0]
        ), problems
    with pytest.raises((PaytableError, InputFileError)):
        load_paytable(path)


def test_all_problems_are_reported_at_once(write_file: WriteFile) -> None:
    body = (
        HEADER
        + 'colour = "red"\n'
        + PLAYER.replace('"1:1"', '"x"').replace('"winner == tie"', '"winner == 7"')
    )
    problems = validate_paytable(write_file("game.toml", body))
    assert len(problems) == 3


def test_validate_cli_exit_codes(write_file: WriteFile, cli: Cli) -> None:
    good = default_paytable()
    bad = write_file("game.toml", HEADER + PLAYER.replace('"1:1"', '"-1:1"'))
    code, out, err = cli(["validate", str(good), str(bad)])
    assert code == 2
    assert f"{good}: ok" in out
    assert "cannot read payout '-1:1'" in err
    assert "Traceback" not in err
    assert cli(["validate", str(good)])[0] == 0


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="file not found"):
        load_paytable(tmp_path / "nope.toml")
    assert "file not found" in validate_paytable(tmp_path / "nope.toml")[0]


def test_every_bundled_paytable_is_valid() -> None:
    assert default_paytable() in bundled_paytables()
    for path in bundled_paytables():
        assert validate_paytable(path) == [], path
        table = load_paytable(path)
        assert table.sha256 is not None and len(table.sha256) == 64
        assert table.bets


def test_inline_rules_and_decimal_rounding(write_file: WriteFile) -> None:
    body = (
        'name = "Touch-like"\ndecks = 8\n'
        "[rules]\nplayer_draw = [0, 1, 2, 3, 4, 5]\n"
        '[rules.banker_draw]\n0 = "any"\n1 = "any"\n2 = "any"\n3 = "any"\n4 = "any"\n'
        '5 = "none"\n6 = "none"\n7 = "none"\n'
        '[bets.banker]\nrounding = { step = 0.01, mode = "down" }\nrows = [\n'
        '  { when = "banker.wins", pays = "1.95 for 1", event = "Banker wins" },\n'
        '  { when = "winner == tie", pays = "push", event = "Tie" },\n'
        '  { when = "otherwise", pays = "lose", event = "Player wins" },\n]\n'
    )
    table = load_paytable(write_file("game.toml", body))
    assert 8 in table.tableau.banker[4] and 8 not in table.tableau.banker[5]
    banker = table.round_bet("banker")
    assert banker.rounding == Rounding(Fraction(1, 100), RoundingMode.DOWN)
    win = Outcome(Hand(1, 0, PairKind.NONE), Hand(8, None, PairKind.NONE))
    # Hand-checked: 1.95 for 1 paid down to the cent, 0.10 x 1.95 = 0.195 returns 0.19,
    # 0.20 x 1.95 = 0.39 returns 0.39, 0.30 x 1.95 = 0.585 returns 0.58.
    for stake, returned in (("0.10", "0.19"), ("0.20", "0.39"), ("0.30", "0.58")):
        s = Fraction(stake)
        assert s * (1 + banker.net(win, s)) == Fraction(returned)
    with pytest.raises(PaytableError, match="unknown bet id 'tie'"):
        table.round_bet("tie")


@pytest.mark.parametrize(
    ("mode", "amount", "expected"),
    [
        (RoundingMode.DOWN, "0.585", "0.58"),
        (RoundingMode.HALF_UP, "0.585", "0.59"),
        (RoundingMode.HALF_EVEN, "0.585", "0.58"),
        (RoundingMode.HALF_EVEN, "0.575", "0.58"),
        (RoundingMode.HALF_UP, "0.584", "0.58"),
        (RoundingMode.DOWN, "0.19", "0.19"),
    ],
)
def test_rounding_modes(mode: RoundingMode, amount: str, expected: str) -> None:
    assert Rounding(Fraction("0.01"), mode).apply(Fraction(amount)) == Fraction(expected)


def test_rules_file_named_by_a_paytable_is_an_input(write_file: WriteFile) -> None:
    from exactodds.report import build_sheet

    rules = write_file(
        "r.toml",
        'player_draw = [0, 1, 2, 3, 4, 5]\n[banker_draw]\n0 = "any"\n1 = "any"\n2 = "any"\n'
        '3 = "any"\n4 = "any"\n5 = "none"\n6 = "none"\n7 = "none"\n',
    )
    path = write_file(
        "game.toml",
        'name = "G"\nrules = "r.toml"\n[bets.tie]\nrows = [\n'
        '  { when = "winner == tie", pays = "8:1" },\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
    )
    table = load_paytable(path)
    assert table.rules_file == rules
    assert 8 in table.tableau.banker[4] and 6 not in table.tableau.banker[5]
    roles = [i.role for i in build_sheet(table, date="2024-01-01", version="t").inputs]
    assert roles == ["paytable", "rules"]


def test_no_paytable_means_the_default_game(cli: Cli) -> None:
    assert load_paytable().path == default_paytable()
    code, out, _ = cli(["eor", "--format", "json"])
    assert code == 0 and '"paytable": "Classic (commission)"' in out


ONE_DECK = """\
name = "One deck"
decks = 1

[bets.pp]
rows = [
  { when = "player.perfect_pair and banker.perfect_pair", pays = "200:1", event = "Both" },
  { when = "player.perfect_pair", pays = "25:1", event = "Player" },
  { when = "otherwise", pays = "lose" },
]
"""


def test_a_row_impossible_only_on_this_shoe_is_a_warning(write_file: WriteFile, cli: Cli) -> None:
    """One deck holds no two identical cards: valid file, exit 0, one warning per row."""
    path = write_file("game.toml", ONE_DECK)
    assert validate_paytable(path) == []
    table = load_paytable(path)
    expected = [
        f"{path}:{line}: bet 'pp' row {n} ({event!r}): never occurs with this shoe "
        "(1 deck (52 cards)); its sheet shows 0 combinations"
        for line, n, event in ((6, 1, "Both"), (7, 2, "Player"))
    ]
    assert list(table.warnings) == expected
    assert cli(["validate", str(path)]) == (
        0,
        f"{path}: ok\n",
        "".join(f"exactodds: warning: {w}\n" for w in expected),
    )
    # on two decks the same file has no warning
    two = write_file("two.toml", ONE_DECK.replace("decks = 1", "decks = 2"))
    assert load_paytable(two).warnings == ()


def test_unreachable_rows_may_be_allowed(write_file: WriteFile, cli: Cli) -> None:
    """A generated table's dead rows: an error, a warning with --allow-unreachable or the
    file's allow_unreachable = true (then every command loads it)."""
    body = HEADER + PLAYER.replace('"winner == tie"', '"margin == 10"').replace('"push"', '"2:1"')
    path = write_file("game.toml", body)
    code, _, err = cli(["validate", str(path)])
    assert code == 2 and "can never match" in err
    code, out, err = cli(["validate", "--allow-unreachable", str(path)])
    assert code == 0 and f"{path}: ok" in out
    assert "exactodds: warning:" in err and "can never match" in err and "allowed" in err
    allowed = write_file("allowed.toml", "allow_unreachable = true\n" + body)
    assert len(load_paytable(allowed).warnings) == 1
    bad = write_file("bad.toml", 'allow_unreachable = "yes"\n' + body)
    assert any("'allow_unreachable' must be true or false" in p for p in validate_paytable(bad))


def test_comparing_two_absent_cards_is_warned(write_file: WriteFile) -> None:
    body = HEADER + PLAYER.replace(
        '"player.wins"', '"player.wins and player.card3.rank == banker.card3.rank"'
    )
    path = write_file("game.toml", body)
    (warning,) = load_paytable(path).warnings
    assert warning.startswith(f"{path}:7: bet 'player' row 1: 'player.card3.rank == ")
    assert "compares two cards that may not be dealt" in warning
