"""Issue 32's seams and issue 33's bounded numbers: a progressive bet settled at its fixed wager,
risk of ruin that counts the last round, progressive labels, the CLI's seams, solving with
rounding, bounded digits and error lines that fit in any locale."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.errors import ExactOddsError
from tests.cli_helpers import Cli

TWIN_DRAGONS = """name = "Twin Dragons"
decks = 8
[bets.banker]
rows = [ { when = "winner == banker", pays = "0.95:1" },
         { when = "winner == player", pays = "lose" }, { when = "otherwise", pays = "push" } ]
[bets.twin_dragons]
name = "Twin Dragons"
stake = 5
progressive = { reset = 10000, increment = "10%" }
rows = [
  { when = "player.pair and banker.pair", pays = "jackpot", event = "Both pairs" },
  { when = "player.pair", pays = "50 for 1", event = "Player pair" },
  { when = "otherwise", pays = "lose", event = "Loser" },
]
"""


def twin_dragons(tmp_path: Path) -> str:
    path = tmp_path / "twin-dragons.toml"
    path.write_text(TWIN_DRAGONS, encoding="utf-8")
    return str(path)


def test_settle_pays_the_meter_for_the_fixed_wager(cli: Cli, tmp_path: Path) -> None:
    table = twin_dragons(tmp_path)
    both = ["settle", table, "--cards", "P: 9s 9h | B: 4d 4c", "--bet", "twin_dragons=5"]
    code, out, err = cli(both)
    assert (code, err) == (0, ""), err
    assert "wins 9995" in out  # the 10,000 meter for the 5 wagered, not 5 × 1,999
    code, out, err = cli([*both, "--format", "json"])
    (bet,) = json.loads(out)["bets"]
    assert (code, bet["net"], bet["returns"]) == (0, "9995/1", "10000/1")
    assert bet["pays"] == "jackpot at meter 10,000.00"
    code, out, err = cli(["settle", table, "-c", "P: 9s 9h | B: Kd 7c", "-b", "twin_dragons=5"])
    assert (code, "wins 245" in out) == (0, True), out  # a fixed row: 50 for 1 on each unit


def test_settle_refuses_another_stake_of_a_progressive_bet(cli: Cli, tmp_path: Path) -> None:
    table = twin_dragons(tmp_path)
    for fmt in ("text", "json"):
        argv = ["settle", table, "-c", "P: 9s 9h | B: 4d 4c", "-b", "twin_dragons=100", "-f", fmt]
        code, out, err = cli(argv)
        assert (code, out) == (2, "")
        (line,) = err.splitlines()
        assert "twin_dragons" in line and "fixed at 5" in line and "not 100" in line, line
        assert line.startswith("exactodds: error: --bet: "), line
    code, out, err = cli(["settle", table, "-c", "P: 2s 2h | B: 4d 5c", "-b", "banker=100"])
    assert (code, "wins 95" in out) == (0, True)  # a fixed-pay bet takes any stake


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _exactodds_completion exactodds"),
        ("zsh", "#compdef exactodds"),
        ("fish", "complete --command exactodds"),
    ],
)
def test_show_completion_prints_the_script_of_the_shell_named(
    cli: Cli, shell: str, marker: str
) -> None:
    for argv in (["--show-completion", shell], [f"--show-completion={shell}"]):
        code, out, err = cli(argv)
        assert (code, err) == (0, "") and marker in out, out[:200]
        others = {"bash": "complete -o default", "zsh": "#compdef", "fish": "complete --command"}
        assert not any(m in out for s, m in others.items() if s != shell)


def test_show_completion_refuses_an_unknown_shell_in_one_line(cli: Cli) -> None:
    code, out, err = cli(["--show-completion", "tcsh"])
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "exactodds: error: --show-completion: unknown shell 'tcsh' "
        "(known: bash, zsh, fish, powershell, pwsh)"
    ]
    code, out, err = cli(["--install-completion", "zhs"])
    assert (code, out, err.count("\n")) == (2, "", 1) and "did you mean 'zsh'?" in err, err


def test_show_completion_without_a_shell_to_detect_asks_for_one(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shellingham  # type: ignore[import-untyped]

    def undetectable() -> tuple[str, str]:
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", undetectable)
    code, out, err = cli(["--show-completion"])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert "cannot tell which shell" in line and "--show-completion bash" in line, line
    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("zsh", "/bin/zsh"))
    code, out, err = cli(["--show-completion"])
    assert (code, err, "#compdef exactodds" in out) == (0, "", True)


# Source: Wizard of Odds, "Baccarat - Basics" (8 decks): combinations of Banker wins, Player wins
# and ties of one round, of 4,998,398,275,503,360.
BANKER_WINS, PLAYER_WINS, TIES = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216


def trip_ruin(rounds: int, bankroll: int) -> Fraction:
    """P(Banker bet one unit a round, 0.95:1, is below one unit after some round t ≤ rounds):
    a direct programme over the bankroll in twentieths, independent of exactodds' lattice."""
    total = BANKER_WINS + PLAYER_WINS + TIES
    alive = {20 * bankroll: 1}  # bankroll in twentieths of a unit: weight (of total**t)
    ruined = 0
    for _ in range(rounds):
        ruined *= total
        step: dict[int, int] = {}
        for cash, w in alive.items():
            for move, n in ((19, BANKER_WINS), (-20, PLAYER_WINS), (0, TIES)):
                step[cash + move] = step.get(cash + move, 0) + w * n
        ruined += sum(w for cash, w in step.items() if cash < 20)
        alive = {cash: w for cash, w in step.items() if cash >= 20}
    return Fraction(ruined, total**rounds)


def test_risk_of_ruin_counts_a_bust_on_the_last_round() -> None:
    from exactodds.session import session

    s = session("classic", "banker", 50, bankroll=20)
    assert s.p_ruin is not None
    assert s.p_ruin.exact == trip_ruin(50, 20)
    assert f"{float(s.p_ruin.exact):.7f}" == "0.0034399"  # issue 32: 0.0031293 left it out
    one = session("classic", "banker", 1, bankroll=1).p_ruin
    assert one is not None and one.exact == Fraction(PLAYER_WINS, 4_998_398_275_503_360)


def test_in_follows_a_number_alone_as_docs_paytables_says() -> None:
    """``-3 in [-3]`` is a sum of one term: counted by the card engine as the brute force over
    physical cards counts it (and as the same row without the literal)."""
    from exactodds.counting import row_counts
    from exactodds.language import OTHERWISE, parse_condition
    from tests.bruteforce import shoe_of
    from tests.cardforce import brute_rows

    shoe = shoe_of([(0, 0), (0, 1), (12, 2), (11, 2), (8, 3), (8, 0), (4, 1)])
    rows = ["-3 in [-3] and count(player, rank == K) == 1", "-3 in [-2, 3] or banker.suited"]
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    got = row_counts(conditions, shoe)
    want, offered = brute_rows([c.node for c in conditions], shoe)
    assert (list(got.rows), got.offered) == (want, offered)
    plain = [parse_condition(r) for r in ["count(player, rank == K) == 1", "banker.suited"]]
    assert list(row_counts([*plain, OTHERWISE], shoe).rows) == want
    assert want[0] > 0 and want[1] > 0
    with pytest.raises(ExactOddsError, match="'in' needs a feature"):
        parse_condition("K in [K]")  # a rank alone is still not a condition


PERCENT_OPTIONS = [
    (["solve", "classic", "-b", "tie", "-e", "Tie", "--target-edge"], "5", "5%"),
    (["session", "classic", "-b", "tie", "--rounds", "3", "--rebate"], "10", "10%"),
    (["session", "classic", "-b", "tie", "--rounds", "3", "--dead-chips", "--commission"],
     "1.25", "1.25%"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "bare", "percent"), PERCENT_OPTIONS)
def test_every_percentage_option_takes_a_percent_and_refuses_a_bare_number(
    cli: Cli, argv: list[str], bare: str, percent: str
) -> None:
    """One rule (docs/getting-started.md): ``5%`` is 5% everywhere; a bare number, which meant
    5% in one option and 500% in another, is one line, exit 2 — never a silent new meaning."""
    code, out, err = cli([*argv, bare])
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert f"{argv[-1]}" in line and "write a percentage with %" in line, line
    code, out, err = cli([*argv, percent])
    assert (code, err) == (0, ""), err
    assert percent.rstrip("%") in out


BIG = "1" + "0" * 5000
"""A number of 5,001 digits: more than Python's int() reads from text (4,300)."""

BIG_ARGUMENTS = [
    ["odds", "--given", f"P: v{BIG} ? | B: ? ?"],
    ["odds", "--given", f"P: v0{BIG[1:]} ? | B: ? ?"],
    ["solve", "classic", "--bet", "tie", "--event", f"#{BIG}"],
    ["solve", "classic", "--bet", "tie", "--event", "Tie", "--target-edge", f"{BIG}%"],
    ["solve", "classic", "--bet", "tie", "--event", "Tie", "--sweep", f"1:{BIG}"],
    ["session", "classic", "--bet", "tie", "--rounds", BIG],
    ["session", "classic", "--bet", "tie", "--rounds", "3", "--bankroll", BIG],
    ["session", "classic", "--bet", "tie", "--rounds", "3", "--rebate", f"0.{BIG}%"],
    ["settle", "classic", "--cards", "P: 9s 9h | B: Kd 7c", "--bet", f"tie={BIG}"],
    ["simulate", "classic", "--strategy", "count", "--trigger", f"tie={BIG}", "--shoes", "1"],
    ["simulate", "classic", "--shoes", BIG],
    ["odds", "--decks", BIG],
    ["odds", "--remove", BIG],
    ["compare", "classic", "--decks", f"6,{BIG}"],
    ["report", "classic", "--date", f"{BIG}-01-01"],
]
"""Every kind of numeric text the commands convert, 5,000 digits long."""

BIG_FILES = {
    "paytable decks": ("paytable", f"decks = {BIG}\n" + TWIN_DRAGONS.split("\n", 2)[2]),
    "payout": ("paytable", TWIN_DRAGONS.replace('"50 for 1"', BIG)),
    "meter": ("paytable", TWIN_DRAGONS.replace("reset = 10000", f"reset = {BIG}")),
    "condition": ("paytable", TWIN_DRAGONS.replace("player.pair and", f"{BIG[:4200]} in [1] and")),
    "shoe": ("--shoe", f"decks = {BIG}\n"),
    "rules": ("--rules", f'name = "r"\nplayer_draw = [0, {BIG}]\n'),
    "profile": ("--against", f'name = "p"\n[rules]\ntop_award_max_odds = {BIG}\n'),
}
"""The files the loaders read, with a 5,000-digit number where they read one."""


def _one_line_exit_2(code: int, out: str, err: str) -> str:
    assert (code, out) == (2, ""), (code, out[:200])
    (line,) = err.splitlines()
    assert line.startswith("exactodds: error: ") and "internal" not in line, line
    assert len(line) <= 300, len(line)
    return line


@pytest.mark.parametrize("argv", BIG_ARGUMENTS, ids=lambda a: " ".join(a)[:40])
def test_digits_of_every_numeric_option_are_bounded_before_conversion(
    cli: Cli, argv: list[str]
) -> None:
    _one_line_exit_2(*cli(argv))


def test_digits_of_source_date_epoch_are_bounded(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", BIG)
    line = _one_line_exit_2(*cli(["report", "classic", "--bet", "tie"]))
    assert "SOURCE_DATE_EPOCH" in line


@pytest.mark.parametrize("where", sorted(BIG_FILES))
def test_digits_of_every_numeric_file_value_are_bounded_before_conversion(
    cli: Cli, tmp_path: Path, where: str
) -> None:
    kind, text = BIG_FILES[where]
    path = tmp_path / "f.toml"
    path.write_text(text, encoding="utf-8")
    argv = {
        "paytable": ["validate", str(path)],
        "--against": ["check", "classic", "--against", str(path)],
    }.get(kind, ["odds", kind, str(path)])
    _one_line_exit_2(*cli(argv))


@pytest.mark.parametrize(
    "env", [{"LC_ALL": "C"}, {"PYTHONIOENCODING": "ascii"}], ids=["LC_ALL=C", "ascii"]
)
def test_a_long_error_line_fits_in_any_locale_cut_between_names(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """At most 300 characters as written (an escape counts its characters), the list of known
    bets shortened by whole names, the unknown id, the file and the suggestion kept."""
    import os
    import re
    import subprocess
    import sys

    folder = tmp_path / "tables-été—×"
    folder.mkdir()
    ids = [f"bet_number_{i}" for i in range(60)]
    table = folder / "many.toml"
    table.write_text(
        "".join(
            f'[bets.{i}]\nrows = [ {{ when = "player.pair", pays = "11:1" }}, '
            '{ when = "otherwise", pays = "lose" } ]\n'
            for i in ids
        ),
        encoding="utf-8",
    )
    argv = ["settle", table.relative_to(tmp_path).as_posix(), "-c", "P: 9s 9h | B: Kd 7c"]
    argv += ["-b", "bet_numbr_5=1"]
    run = subprocess.run(
        [sys.executable, "-m", "exactodds", *argv],
        capture_output=True,
        env={**os.environ, **env},
        cwd=tmp_path,
        check=False,
    )
    assert (run.returncode, run.stdout) == (2, b"")
    written = run.stderr.decode("ascii" if "PYTHONIOENCODING" in env else "utf-8")
    (line,) = written.splitlines()
    assert len(line) <= 300, (len(line), line)
    assert "unknown bet id 'bet_numbr_5'" in line and "did you mean 'bet_number_5'?" in line
    assert line.startswith("exactodds: error: --bet: tables-") and "/many.toml: " in line
    listed = re.findall(r"bet_n\w*", line.split("unknown bet id")[1])
    assert set(listed) <= {*ids, "bet_numbr_5"} and 5 < len(listed) < len(ids), listed
    whole = re.findall(r"bet_n\w*(?=[,)'])", line)  # every name ends at , ) or its quote
    assert len(whole) == len(re.findall(r"bet_n\w*", line)), line


def test_did_you_mean_prefers_a_file_in_the_named_folder(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "my-game.toml").write_text(TWIN_DRAGONS, encoding="utf-8")
    (games / "classic-house.toml").write_text(TWIN_DRAGONS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for typed, meant in (
        ("games/my-gmae.toml", "games/my-game.toml"),
        ("games/clasic-house", "games/classic-house.toml"),
    ):
        line = _one_line_exit_2(*cli(["report", typed]))
        assert line.endswith(f"did you mean {meant!r}?"), line
    monkeypatch.chdir(games)  # a bare name: the file beside it before the bundled 'classic'
    line = _one_line_exit_2(*cli(["report", "clasic-house.toml"]))
    assert line.endswith("did you mean 'classic-house.toml'?"), line
    line = _one_line_exit_2(*cli(["report", "clasic"]))
    assert line.endswith("did you mean 'classic'?"), line  # nothing close beside it


@pytest.mark.parametrize(
    ("letter", "suit"), [("h", "hearts"), ("d", "diamonds"), ("c", "clubs"), ("s", "spades")]
)
def test_did_you_mean_knows_suit_letters(letter: str, suit: str) -> None:
    from exactodds.language import parse_condition

    for text in (f"player.card1.suit == {letter}", f"count(round, suit == {letter}) >= 2"):
        with pytest.raises(ExactOddsError, match=f"did you mean '{suit}'"):
            parse_condition(text)


@pytest.mark.parametrize("target", ["1%", "1.2%", "0.5%"])
def test_solve_with_rounding_answers_a_payout_the_rounding_pays(cli: Cli, target: str) -> None:
    """Touch's Banker returns are rounded down to the cent: the answer is the largest payout
    paid as stated (a whole number of cents) whose edge is at least the target, from the
    published counts (BANKER_WINS, PLAYER_WINS: edge(x) = (P − x·B) / total)."""
    total = BANKER_WINS + PLAYER_WINS + TIES
    goal = Fraction(target.rstrip("%")) / 100

    def edge(x: Fraction) -> Fraction:
        return (PLAYER_WINS - x * BANKER_WINS) / total

    cents = [Fraction(c, 100) for c in range(80, 100)]
    want = max(x for x in cents if edge(x) >= goal)
    assert edge(want + Fraction(1, 100)) < goal <= edge(want)
    code, out, err = cli(["solve", "touch", "-b", "banker", "-e", "#1", "-t", target, "-f", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert Fraction(data["payout"]) != want  # the exact answer is not payable to the cent
    assert Fraction(data["paid_payout"]) == want
    assert Fraction(data["paid_house_edge"]) == edge(want)
    code, out, err = cli(["solve", "touch", "-b", "banker", "-e", "#1", "-t", target])
    assert f"paid      {float(want):g} to 1 -> house edge" in out, out


def test_progressive_figures_outside_their_section_say_at_which_meter(
    cli: Cli, tmp_path: Path
) -> None:
    """solve, session and compare state the meter of a progressive bet's figures; a session is
    counted in its fixed wager (5), not in units of 1."""
    table = twin_dragons(tmp_path)
    at = "at meter 10,000.00"
    code, out, err = cli(["solve", table, "-b", "twin_dragons", "-e", "#2"])
    assert (code, err) == (0, "") and f"every figure here {at}" in out and "wager 5" in out
    code, out, err = cli(["solve", table, "-b", "twin_dragons", "-e", "#2", "-f", "json"])
    assert json.loads(out)["meters"] == {"jackpot": "10000/1"}
    code, out, err = cli(["solve", table, "-b", "banker", "-e", "#1"])
    assert "meter" not in out
    code, out, err = cli(
        ["session", table, "-b", "twin_dragons", "--rounds", "3", "--bankroll", "2"]
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"Twin Dragons: 3 rounds of its fixed wager 5, {at}\n"), out
    for label in (
        f"House edge per unit wagered, {at}",
        "Expected result (wagers of 5)",
        "Risk of ruin, bankroll 2 wagers of 5",
        "Net result (wagers of 5)",
    ):
        assert label in out, label
    assert "units" not in out and "one unit" not in out
    code, out, err = cli(["session", table, "-b", "twin_dragons", "--rounds", "3", "-f", "json"])
    data = json.loads(out)
    assert (data["fixed_wager"], data["meters"]) == ("5/1", {"jackpot": "10000/1"})
    code, out, err = cli(["session", table, "-b", "banker", "--rounds", "3"])
    assert out.startswith("banker: 3 rounds at one unit") or "rounds at one unit" in out
    code, out, err = cli(["compare", table, "--decks", "6,8"])
    assert (code, err) == (0, "") and f"Twin Dragons ({at})" in out


def test_simulations_and_eor_say_at_which_meter_a_progressive_bet_is_played(
    cli: Cli, tmp_path: Path
) -> None:
    """simulate, montecarlo and eor name a progressive bet with the meter its figures are at
    (the reset: the meter does not move in these runs); a fixed-pay bet keeps its bare name."""
    table = twin_dragons(tmp_path)
    at = "Twin Dragons (at meter 10,000.00)"
    runs = {
        "simulate": ["simulate", table, "--decks", "1", "--shoes", "2", "--seed", "1"],
        "montecarlo": ["montecarlo", table, "--decks", "1", "--rounds", "300", "--seed", "1"],
        "eor": ["eor", table, "--decks", "1"],  # its JSON is keyed by id: the Markdown
    }
    for command, argv in runs.items():
        code, out, err = cli([*argv, "--format", "md" if command == "eor" else "json"])
        assert (code, err) == (0, ""), (command, err)
        assert at in out and "banker (at meter" not in out, command


def test_summaries_say_at_which_meter_a_progressive_bet_is_stated(tmp_path: Path) -> None:
    """The sheet's Summary (every format is built from it) and the terminal summary."""
    from exactodds.bets.loader import load_paytable
    from exactodds.cli.summary import report_summary
    from exactodds.report import render_sheets
    from exactodds.report.sheet import build_sheet

    note = "Progressive: Twin Dragons at meter 10,000.00 (the reset)"
    sheet = build_sheet(load_paytable(twin_dragons(tmp_path)), date="2024-01-01")
    summary = render_sheets([sheet], "md").split("## Summary")[1].split("\n## ")[0]
    assert note in summary
    assert note in " ".join(report_summary([sheet], width=200).split())
