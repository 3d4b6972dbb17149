"""Regression tests of the hostile-input sweep of stop 31's merged work (the games stage,
check-all, bets-one, seams, house): each is one defect found, refused now in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import Cli


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--decks", ""], "--decks: '' is not a number of decks"),
        (["--decks="], "--decks: '' is not a number of decks"),
        (["--commission", ""], "--commission: '' is not a rate"),
        (["--model", ""], "unknown model ''"),
        (["--format", ""], "invalid value for --format: ''"),
        (["--out", ""], "--out: an empty file name"),
        (["--decks", "\u0666"], "--decks: '\u0666' holds the digit"),
        (["--decks", "1-\u0668"], "write numbers with the digits 0-9"),
    ],
)
def test_a_game_command_checks_its_options_like_any_command(
    cli: Cli, args: list[str], message: str
) -> None:
    """The checks made before click reads the arguments reach a group's command: an empty
    value was reported as "argument: an empty file name", and ``--decks ٦`` (Arabic-Indic 6)
    was read as 6 decks."""
    code, out, err = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", *args])
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1


def test_baccarat_gold_bounds_its_integer_options_before_reading_them(cli: Cli) -> None:
    code, out, err = cli(["game", "baccarat-gold", "--decks", "9" * 5000])
    assert (code, out) == (2, "")
    assert "--decks: " in err and "more than 30 digits" in err
    code, _, err = cli(["game", "baccarat-gold", "--decks", "\u0666"])
    assert code == 2 and "write numbers with the digits 0-9" in err


def test_an_unknown_game_is_a_usage_error_not_an_empty_file_name(cli: Cli) -> None:
    code, _, err = cli(["game", ""])
    assert code == 2 and "no such command ''" in err and "file name" not in err


@pytest.mark.parametrize("rate", ["0.05", "1/20", "5", "0.5"])
def test_game_commission_takes_the_percent_rule(cli: Cli, rate: str) -> None:
    """``--commission 0.5`` was read as 50% by ``game`` while ``session --commission`` refuses
    a bare number (PERCENT_RULE: a bare number is never read as a share or a percentage)."""
    code, out, err = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", "--commission", rate])
    assert (code, out) == (2, "")
    assert f"--commission: '{rate}' is not a rate like 5%: write a percentage with %" in err


@pytest.mark.parametrize("command", [["odds"], ["game", "chemin-de-fer"]])
def test_rules_named_too_long_for_a_file_name_are_unknown_rules(
    cli: Cli, command: list[str]
) -> None:
    """``--rules`` of 5,000 characters: the system's "File name too long" leaked out of the
    check whether it names a file (and as an OSError from ``load_tableau`` in Python)."""
    code, out, err = cli([*command, "--rules", "x" * 5000])
    assert (code, out) == (2, "")
    assert "unknown rules 'xxx" in err and "too long" not in err


def test_load_tableau_of_a_name_too_long_for_a_file_is_a_tableau_error() -> None:
    from exactodds import TableauError, load_tableau

    with pytest.raises(TableauError, match="unknown"):
        load_tableau("x" * 100_000)


def _public_calls() -> list[tuple[str, tuple[object, ...], dict[str, object], str]]:
    """(name, args, keywords, the parameter the TypeError names): each public function given
    a value of the wrong type failed deep inside, with an AttributeError or a ValueError."""
    from exactodds import Shoe, load_paytable

    mini = load_paytable("mini")
    shoe = Shoe.decks(1)
    return [
        ("parse_card", (7,), {}, "text"),
        ("parse_cards", (["7h"],), {}, "text"),
        ("parse_paytable", ("decks = 8",), {}, "data"),
        ("paytable_figures", ("mini",), {}, "paytable"),
        ("paytable_figures", (mini,), {"shoe": 6}, "shoe"),
        ("paytable_figures", (mini,), {"stake": 0.1}, "stake"),
        ("compare_paytables", (mini, "mini"), {}, "after"),
        ("compare_paytables", (mini, mini), {"names": ""}, "names"),
        ("compare_variants", ("mini",), {}, "paytable"),
        ("edge_formulas", (mini,), {"tableau": "mini"}, "tableau"),
        ("build_sheet", (mini,), {"against": ("adm",)}, "against"),
        ("check_paytable_against", (mini, "adm"), {"shoe": 8}, "shoe"),
        ("effect_of_removal", (mini.bets, shoe), {"evaluator": 1.5}, "evaluator"),
        ("odds_summary", ("8 decks",), {}, "shoe"),
        ("render_sheets", ((), None), {}, "fmt"),
        ("settle_round", (mini, ("9s 9h",)), {}, "cards"),
        ("settle_round", (mini, "9s 9h Kd 7c"), {"bets": "player=1"}, "bets"),
        ("settle_round", (mini, "9s 9h Kd 7c"), {"tableau": 1.5}, "tableau"),
        ("solve_payout", (mini, "player", "x"), {"target_edge": 0.05}, "target_edge"),
        ("load_tableau", (1.5,), {}, "spec"),
        ("joint_distribution", (8,), {}, "shoe"),
        ("joint_distribution", (shoe, "mini"), {}, "tableau"),
    ]


def test_the_public_api_refuses_a_wrong_type_with_a_type_error_naming_the_parameter() -> None:
    import exactodds

    for name, args, keywords, parameter in _public_calls():
        with pytest.raises(TypeError, match=f"^{parameter}"):
            getattr(exactodds, name)(*args, **keywords)


def test_effect_of_removal_bounds_the_tag_level_as_eor_level_does() -> None:
    """``level=10**24`` hung: the candidate tag scales grow with the level."""
    from exactodds import ExactOddsError, Shoe, effect_of_removal, load_paytable

    bets = load_paytable("mini").bets
    for level in (10**24, 0, 21):
        with pytest.raises(ExactOddsError, match="level must be a whole number 1-20"):
            effect_of_removal(bets, Shoe.decks(1), level=level)


@pytest.mark.parametrize(
    ("keywords", "parameter"),
    [
        ({"cut_card": 1.5}, "cut_card"),
        ({"workers": 1.5}, "workers"),
        ({"seed": "1"}, "seed"),
        ({"tableau": "mini"}, "tableau"),
        ({"count": "hi-lo"}, "count"),
    ],
)
def test_simulate_refuses_a_wrong_type_before_any_work(
    keywords: dict[str, object], parameter: str
) -> None:
    """``simulate(…, cut_card=1.5)`` and ``workers=1.5`` ran (a cut card no shoe has); a shoe
    given as ``"8"`` failed with an AttributeError."""
    from exactodds import Shoe, load_paytable, simulate

    mini = load_paytable("mini")
    with pytest.raises(TypeError, match=f"^{parameter} must be"):
        simulate(mini, Shoe.decks(1), **{"shoes": 1, "seed": 1, **keywords})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^shoe must be Shoe"):
        simulate(mini, "8", shoes=1, seed=1)  # type: ignore[arg-type]


def test_a_game_page_prints_no_empty_table_where_nobody_mixes(cli: Cli, tmp_path: Path) -> None:
    """With ``player_free = []`` the Player's section was an empty table under "On each hand
    where the rules leave him the choice", and "None: the optimal Banker never mixes" was
    followed by a table of headers only (md and html)."""
    rules = tmp_path / "none.toml"
    rules.write_text("player_free = []\n", encoding="utf-8")
    code, out, _ = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", "--rules", str(rules)])
    assert code == 0
    assert "None: the rules leave the Player no choice.\n\n## Banker: mixed cells" in out
    assert "never mixes.\n\n## Banker: strategy grid" in out
    args = ["game", "chemin-de-fer", "-m", "kemeny-snell", "--rules", str(rules), "-f", "html"]
    code, page, _ = cli(args)
    assert code == 0 and page.count("<table") == 2  # the grid and the costs


@pytest.mark.parametrize(("decks", "twice"), [("inf,inf", "inf"), ("6,6", "6"), ("1-8,6", "6")])
def test_game_decks_refuses_a_shoe_named_twice_as_compare_does(
    cli: Cli, decks: str, twice: str
) -> None:
    """``--decks 6,6`` was silently one shoe, where ``compare --decks 8,8`` is refused."""
    code, out, err = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", "--decks", decks])
    assert (code, out) == (2, "")
    assert f"the decks list names the same value twice: {twice}" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("banker_free = { 3 = [9, 9] }\n", "banker_free.3: names the cell 9 twice"),
        ('banker_free = { 6 = ["stood", "Stood"] }\n', "names the cell 'Stood' twice"),
        ("player_free = [5, 5]\n", "player_free names the total 5 twice"),
    ],
)
def test_a_rules_file_naming_a_cell_twice_is_refused(
    cli: Cli, tmp_path: Path, text: str, message: str
) -> None:
    """``[9, 9]`` was silently one free cell: likely a typo for another column."""
    rules = tmp_path / "twice.toml"
    rules.write_text(text, encoding="utf-8")
    code, out, err = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", "--rules", str(rules)])
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_json_rules_file_naming_a_banker_total_twice_is_refused(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "twice.json"
    rules.write_text('{"banker_free": {" 3": [9], "3": [8]}}', encoding="utf-8")
    code, _, err = cli(["game", "chemin-de-fer", "-m", "kemeny-snell", "--rules", str(rules)])
    assert code == 2 and "the Banker total 3 is named twice" in err


@pytest.mark.parametrize(
    ("keywords", "parameter"),
    [({"model": None}, "model"), ({"shoe": 8}, "shoe"), ({"rules": 1.5}, "rules")],
)
def test_chemin_de_fer_refuses_a_wrong_type_with_a_type_error(
    keywords: dict[str, object], parameter: str
) -> None:
    """``chemin_de_fer(shoe=8)`` failed with an AttributeError ('value_counts')."""
    from exactodds.games.api import baccara_banque, chemin_de_fer

    with pytest.raises(TypeError, match=f"^{parameter} must be"):
        chemin_de_fer(**keywords)  # type: ignore[arg-type]
    if parameter != "rules":  # baccara_banque takes a model and a shoe
        with pytest.raises(TypeError, match=f"^{parameter} must be"):
            baccara_banque(**keywords)  # type: ignore[arg-type]
