"""One "did you mean" for every unknown name a user types, on the command line and in the files
the loaders read (paytables, profiles, shoes, rules), from exactodds.suggest: each misspelling
below gets the intended name, hand-picked; a name close to nothing gets no hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import Cli

CLI_CASES = [
    (["reprot"], "'report'"),  # a command
    (["report", "--fromat", "md"], "'--format'"),  # an option
    (["report", "--format", "mdd"], "'md'"),  # a format
    (["report", "classic", "--notation", "bth"], "'both'"),  # a choice
    (["report", "clasic"], "'classic'"),  # a bundled paytable
    (["report", "classic", "--bet", "tei"], "'tie'"),  # a bet id
    (["check", "classic", "--against", "gli11"], "'gli-11'"),  # a profile name
    (["odds", "--rules", "mni"], "'mini'"),  # a tableau
    (["simulate", "classic", "--strategy", "cont"], "'count'"),
    (["solve", "classic", "--bet", "player_pair", "--event", "Player pear"], "'Player pair'"),
    (["settle", "classic", "--cards", "P: Kc Qh | B: 8d Ks", "--bet", "banke=100"], "'banker'"),
]


@pytest.mark.parametrize(("args", "meant"), CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_the_command_line_suggests_the_name_meant(cli: Cli, args: list[str], meant: str) -> None:
    code, _, err = cli(args)
    assert code == 2 and err.count("\n") == 1
    assert f"did you mean {meant}?" in err, err
    assert "Did you mean" not in err and "Possible options" not in err  # click's own, replaced


def test_no_hint_when_nothing_is_close(cli: Cli) -> None:
    _, _, err = cli(["report", "--zzzzzz"])
    assert "did you mean" not in err and "no such option: --zzzzzz" in err


FILES = {
    "paytable key": (
        "game.toml",
        'name = "G"\ndecsk = 8\n[bets.b]\nrows = [{ when = "otherwise", pays = "lose" }]\n',
        "'decks'",
    ),
    "bet key": (
        "game.toml",
        'name = "G"\n[bets.b]\nnmae = "B"\nrows = [{ when = "otherwise", pays = "lose" }]\n',
        "'name'",
    ),
    "row key": (
        "game.toml",
        'name = "G"\n[bets.b]\nrows = [{ when = "otherwise", pay = "lose" }]\n',
        "'pays'",
    ),
    "profile rule": ("p.toml", 'name = "P"\n[rules]\nmin_rpt = "90%"\n', "'min_rtp'"),
    "shoe key": ("s.toml", "deks = 8\n", "'decks'"),
    "shoe suit": ("s.toml", "[cards]\nA = { c = 1, d = 1, h = 1, hh = 1 }\n", "'h'"),
    "rules key": ("r.toml", 'name = "r"\nplayer_drw = [0, 1, 2, 3, 4, 5]\n', "'player_draw'"),
}


@pytest.mark.parametrize("case", sorted(FILES))
def test_the_loaders_suggest_the_key_meant(cli: Cli, tmp_path: Path, case: str) -> None:
    name, text, meant = FILES[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    args = {
        "game.toml": ["validate", str(path)],
        "p.toml": ["check", "classic", "--against", str(path)],
        "s.toml": ["odds", "--shoe", str(path)],
        "r.toml": ["odds", "--rules", str(path)],
    }[name]
    code, _, err = cli(args)
    assert code != 0 and f"did you mean {meant}?" in err, err
