"""One error path: bad input of any kind is one line and exit 2; a bug is one line and exit 1;
output files are checked before the work; limits are those of exactodds/limits.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.errors import PaytableError
from tests.cli_helpers import Cli

PLAYER = (
    '[bets.player]\nrows = [\n  {{ when = "player.wins", pays = "{pays}" }},\n'
    '  {{ when = "otherwise", pays = "lose" }},\n]\n'
)


def one_line(err: str) -> str:
    assert err.startswith("exactodds: error: ") and err.count("\n") == 1, err
    assert len(err) <= 301 and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["odds", "--nope"], "odds: no such option: --nope"),
        (["odds", "--decks", "x"], "odds --decks: 'x' is not a valid int"),
        (["odds", "--decks"], "option '--decks' requires an argument"),
        (["odds", "extra"], "odds: got unexpected extra argument"),
        (["validate"], "validate: missing argument"),
        (["nosuch"], "no such command 'nosuch' (see exactodds --help)"),
        (["eor", "--level", "21"], "eor --level: 21 is not in the range 1<=x<=20"),
        (["simulate", "--seed", "-1"], "simulate --seed: -1 is not in the range x>=0"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(argv: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(argv)
    assert code == 2 and out == ""
    assert needle in one_line(err) and "--help)" in err


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["report", ""], "PAYTABLES"),
        (["report", "--", ""], "PAYTABLES"),
        (["validate", "classic.toml", ""], "FILES"),
        (["eor", ""], "PAYTABLE"),
        (["report", "--out", ""], "--out"),
        (["report", "-o", ""], "-o"),
        (["report", "--out="], "--out"),
        (["report", "--rules", ""], "--rules"),
        (["odds", "--shoe", ""], "--shoe"),
        (["check", "classic", "--against", ""], "--against"),
        (["simulate", "classic", "--tags", ""], "--tags"),
        (["simulate", "classic", "--plots", ""], "--plots"),
    ],
)
def test_an_empty_file_name_is_refused(argv: list[str], where: str, cli: Cli) -> None:
    """``Path("")`` is the current folder: ``--out ""`` would write there, ``report ""`` would
    complain of a directory."""
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    assert one_line(err) == f"exactodds: error: {where}: an empty file name\n"


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["settle", "--cards", "P: 9s 9h 9d | B: Kd 7c 2c 3c"], "--cards: banker has 4 card(s)"),
        (["settle", "--cards", "P: 9s 9s | B: 9s 9s", "--decks", "1"], "--cards: these cards"),
        (["settle", "--cards", "P: 9s Zh | B: Kd 7c"], "--cards: unknown rank 'Z'"),
        (["settle", "--cards", "P: 9s 9h | B: Kd 7c", "--bet", "dragon=5"], "--bet: "),
        (["solve", "--bet", "dragon", "--event", "x", "--target-edge", "1%"], "--bet: "),
        (["report", "--bet", "dragon"], "--bet: "),
        (["solve", "--bet", "player_pair", "--event", "pair", "--target-edge", "1%"], "--event: "),
    ],
)
def test_round_bet_and_event_errors_name_their_option(
    argv: list[str], start: str, cli: Cli
) -> None:
    code, out, err = cli(argv)
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"exactodds: error: {start}"), err


def test_empty_values_that_are_not_file_names_pass_through(cli: Cli) -> None:
    """``--remove ""`` removes nothing: the full shoe."""
    assert cli(["odds", "--remove", ""])[0] == 0


@pytest.mark.parametrize("argv", [[], ["--help"], ["-h"], ["odds", "--help"], ["--version"]])
def test_help_and_version_exit_0(argv: list[str], cli: Cli) -> None:
    code, out, err = cli(argv)
    assert code == 0 and err == ""
    assert "Usage: exactodds" in out or out.startswith("exactodds ")


def test_a_bug_is_one_line_exit_1_and_debug_shows_the_traceback(
    monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    def broken(*args: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr("exactodds.figures.odds.odds_summary", broken)
    monkeypatch.delenv("EXACTODDS_DEBUG", raising=False)
    code, _, err = cli(["odds"])
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("exactodds: internal error: KeyError: 'oops' (a bug in exactodds")
    assert "EXACTODDS_DEBUG=1" in err
    monkeypatch.setenv("EXACTODDS_DEBUG", "1")
    code, _, err = cli(["odds"])
    assert code == 1 and "Traceback (most recent call last)" in err and "broken" in err


@pytest.mark.parametrize(
    ("error", "code", "needle"),
    [
        (PermissionError(13, "Permission denied", "/x/y"), 2, "error: /x/y: Permission denied"),
        (KeyboardInterrupt(), 130, "exactodds: error: interrupted\n"),
    ],
)
def test_system_errors_and_interrupts(
    error: BaseException,
    code: int,
    needle: str,
    monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
) -> None:
    def fail(*args: object) -> None:
        raise error

    monkeypatch.setattr("exactodds.figures.odds.odds_summary", fail)
    got, _, err = cli(["odds"])
    assert got == code and needle in one_line(err)


def test_long_values_and_control_characters_stay_on_one_short_line(
    tmp_path: Path, cli: Cli
) -> None:
    path = tmp_path / "line\nbreak.toml"
    path.write_text("decks = 0\n", encoding="utf-8")
    code, _, err = cli(["odds", "--shoe", str(path)])
    assert code == 2 and "line\\nbreak.toml" in one_line(err)
    code, _, err = cli(["odds", "--remove", "Q" * 5000])
    assert code == 2 and "…" in one_line(err)


def test_file_names_reach_the_terminal_printable(tmp_path: Path, cli: Cli) -> None:
    """A bell or a right-to-left override in a file name is shown escaped, as in error lines."""
    path = tmp_path / "bell\x07\u202e.toml"
    path.write_text(PLAYER.format(pays="1:1"), encoding="utf-8")
    code, out, err = cli(["validate", str(path)])
    assert (code, err) == (0, "") and out == f"{tmp_path}/bell\\x07\\u202e.toml: ok\n"
    code, out, err = cli(["report", str(path), "--format", "csv", "--out", str(tmp_path)])
    assert (code, err) == (0, "") and out == f"{tmp_path}/bell\\x07\\u202e.csv: written\n"
    assert (tmp_path / "bell\x07\u202e.csv").is_file()  # named after the file itself
    code, out, err = cli(["report", str(path)])  # the sheet names its file, and the game
    assert (code, err) == (0, "") and "\x07" not in out and "\u202e" not in out
    assert "bell\\x07\\u202e.toml`" in out


def test_validate_prints_at_most_20_problems_per_file(tmp_path: Path, cli: Cli) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("".join(f"x{i} = 1\n" for i in range(25)) + PLAYER.format(pays="1:1"), "utf-8")
    code, out, err = cli(["validate", str(bad)])
    lines = err.splitlines()
    assert code == 2 and out == "" and len(lines) == 21
    assert all(line.startswith(f"exactodds: error: {bad}:") for line in lines)
    assert "unknown key 'x0'" in lines[0]
    assert lines[-1] == f"exactodds: error: {bad}: … and 5 more problems"
    good = tmp_path / "good.toml"
    good.write_text(PLAYER.format(pays="1:1"), "utf-8")
    code, out, err = cli(["validate", str(good), str(bad)])
    assert code == 2 and out == f"{good}: ok\n"
    assert err.splitlines()[-1] == "exactodds: error: 1 of 2 files have problems"


def test_other_commands_print_the_first_problem_and_count_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = Path("bad.toml")
    bad.write_text('colour = "red"\ndecks = 0\n' + PLAYER.format(pays="x"), "utf-8")
    code, _, err = cli(["report", str(bad)])
    assert code == 2
    assert one_line(err) == (
        f"exactodds: error: {bad}:1: unknown key 'colour' (expected one of ['allow_unreachable', "
        "'bets', 'decks', 'description', 'multipliers', 'name', 'rules', 'source']) (and 2 more "
        "problems; "
        f"run exactodds validate {bad})\n"
    )
    with pytest.raises(PaytableError) as info:
        load_paytable(bad)
    assert len(info.value.problems) == 3 and "'decks' must be" in info.value.problems[1]


def test_report_out_replaces_only_its_own_sheets(tmp_path: Path, cli: Cli) -> None:
    argv = ["report", "classic", "--bet", "tie", "--date", "2024-01-01", "--out", str(tmp_path)]
    assert cli(argv)[0] == 0
    mine = (tmp_path / "classic.md").read_text(encoding="utf-8")
    assert cli([*argv[:-4], "--date", "2024-02-02", "--out", str(tmp_path)])[0] == 0
    (tmp_path / "classic.html").write_text("<p>my own page</p>", encoding="utf-8")
    code, _, err = cli(argv)
    assert code == 2 and "classic.html: already exists (use --force" in one_line(err)
    assert (tmp_path / "classic.html").read_text(encoding="utf-8") == "<p>my own page</p>"
    assert cli([*argv, "--force"])[0] == 0
    assert (tmp_path / "classic.md").read_text(encoding="utf-8") == mine
    assert "exactodds-sheet" in (tmp_path / "classic.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic.html", "classic.md"]


@pytest.mark.slow
def test_plots_are_checked_before_the_work_and_need_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    (tmp_path / "eor.svg").write_text("<svg/>", encoding="utf-8")

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started")

    with monkeypatch.context() as patch:
        patch.setattr("exactodds.analysis.eor.effect_of_removal", no_work)
        code, _, err = cli(["eor", "--plots", str(tmp_path)])
        assert code == 2 and "eor.svg: already exists (use --force" in one_line(err)
        patch.setattr("exactodds.analysis.plots.find_spec", lambda name: None)
        code, _, err = cli(["eor", "--plots", str(tmp_path / "new")])
        assert code == 2 and "pip install 'exactodds[plots]'" in one_line(err)
    code, _, err = cli(["eor", "--plots", str(tmp_path), "--force"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eor.png", "eor.svg"]
    assert (tmp_path / "eor.svg").read_text(encoding="utf-8").startswith("<?xml")


@pytest.mark.parametrize("command", ["eor", "simulate"])
def test_plots_without_matplotlib_name_the_extra_before_the_work(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started")

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed: import fails
    monkeypatch.setattr("exactodds.bets.loader.load_paytable", no_work)
    code, out, err = cli([command, "--plots", str(tmp_path / "plots")])
    assert (code, out) == (2, "")
    assert one_line(err) == (
        "exactodds: error: --plots needs matplotlib: pip install 'exactodds[plots]'\n"
    )
    assert not (tmp_path / "plots").exists()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--monte-carlo", "--plots", "{tmp}"], "--plots applies to dealt shoes, not"),
        (["simulate", "--monte-carlo", "--workers", "2"], "--workers applies to dealt shoes"),
        (["simulate", "--monte-carlo", "--shoes", "5"], "--shoes applies to dealt shoes"),
        (["simulate", "--monte-carlo", "--cut-card", "5"], "--cut-card applies to dealt shoes"),
        (["simulate", "--rounds", "5"], "--rounds applies only to exactodds montecarlo"),
        (["simulate", "--see-burns"], "--see-burns applies only with --strategy count"),
        (["simulate", "--cut-card", "500"], "--cut-card 500 must be 0..415"),
        (["simulate", "--strategy", "count", "--trigger", "no=1"], "--trigger 'no=1': give BET"),
        (["simulate", "--strategy", "count", "--tags", "{tmp}/no.toml"], "no.toml: file not fo"),
        (["simulate", "--backend", "dask"], "--backend dask needs dask.distributed: pip install "),
        (["eor", "--plots", "/proc/x"], "--plots /proc/x: cannot write in /proc"),
        (["report", "--all", "--out", "/proc/x"], "--out /proc/x: cannot write in /proc"),
        (["simulate", "--plots", "/proc/x"], "--plots /proc/x: cannot write in /proc"),
    ],
)
def test_options_are_checked_before_the_work(
    argv: list[str], needle: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    """Bad combinations, outputs that cannot be written (``/proc`` refuses new files even to
    root) and missing extras are refused before seconds of work (compiling, dealing)."""
    if "/proc/x" in argv and not Path("/proc/self").is_dir():
        pytest.skip("no /proc")

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started")

    for work in (
        "exactodds.analysis.batch.compile_bets",
        "exactodds.analysis.eor.effect_of_removal",
        "exactodds.analysis.montecarlo.monte_carlo_check",
        "exactodds.report.build_sheets",
    ):
        monkeypatch.setattr(work, no_work)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the dask extra were missing
    code, out, err = cli([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert (code, out) == (2, "")
    assert needle in one_line(err)
    assert list(tmp_path.iterdir()) == []


def test_workers_are_bounded_by_the_cpus_and_the_work(
    monkeypatch: pytest.MonkeyPatch, classic: Paytable
) -> None:
    from exactodds.analysis import parallel
    from exactodds.analysis import simulate as sim
    from exactodds.analysis.batch import compile_bets
    from exactodds.deal.shoe import Shoe
    from exactodds.errors import SimulationError

    evaluator = compile_bets([classic.round_bet("tie")])
    monkeypatch.setattr(sim, "available_cpus", lambda: 2)
    with pytest.raises(SimulationError, match="3 workers is more than the 2 CPUs available"):
        sim.simulate(evaluator, Shoe.decks(1), shoes=2, seed=1, workers=3)

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process pool for one chunk of work")

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", no_pool)  # the pool's module
    result = sim.simulate(evaluator, Shoe.decks(1), shoes=5, seed=1, workers=2)  # one chunk
    assert result.shoes == 5
