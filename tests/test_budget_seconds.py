"""One CPU budget in seconds (issue 33): ``--budget SECONDS`` on the commands that count,
``EXACTODDS_BUDGET`` in the environment, ``budget=`` in Python; the refusal says how long the
request would take and the option that allows it; card-level work is judged on the shoe and
rules it is counted on. Decisions only (estimates are counted work, never timings)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.budget import (
    BudgetError,
    budget_seconds,
    check_seconds,
    parse_budget,
    spending,
)
from tests.cli_helpers import Cli

KINGS = """name = "Kings"
[bets.m]
rows = [
  { when = "count(round, rank == K and suit == hearts) >= 2", pays = "30:1" },
  { when = "otherwise", pays = "lose" },
]
"""
"""Two kings of hearts: about 7 s of CPU on 8 decks (the probe's estimate)."""

SUITED = KINGS.replace(
    "count(round, rank == K and suit == hearts) >= 2", "player.suited and banker.suited"
)
"""Both hands suited: about 0.15 s of CPU on 8 decks."""

SMALL = """[cards]
K = { h = 3, s = 1 }
Q = { s = 2 }
9 = { d = 2, c = 1 }
5 = { h = 2 }
"""
"""An 11-card shoe."""


def test_the_budget_comes_from_the_option_the_environment_or_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("EXACTODDS_BUDGET", raising=False)
    assert budget_seconds() == 30.0
    monkeypatch.setenv("EXACTODDS_BUDGET", "120")
    assert budget_seconds() == 120.0 and budget_seconds(5) == 5.0
    with spending(2):
        assert budget_seconds() == 2.0
    assert budget_seconds() == 120.0
    for bad in ("", "0", "-1", "1e3", "nan", "inf", "1.2.3", "9" * 40):
        with pytest.raises(BudgetError, match="not a number of seconds above 0"):
            parse_budget(bad)
    with pytest.raises(BudgetError, match=r"at most 1,000,000"):
        parse_budget("2000000")


def test_the_refusal_says_how_long_and_what_allows_it() -> None:
    check_seconds(29.9, "x")
    with pytest.raises(BudgetError) as refused:
        check_seconds(125, "counting bet 'm'", hint="fewer decks")
    assert str(refused.value) == (
        "counting bet 'm' would take about 125 s of CPU, over the budget of 30 s "
        "(--budget 150 allows it); fewer decks"
    )


def test_a_raised_budget_lets_through_what_the_default_refuses(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same request refused under a small budget runs under the suggested one, from the
    option or the environment; a bad value is one line, exit 2."""
    path = tmp_path / "suited.toml"
    path.write_text(SUITED, encoding="utf-8")
    code, out, err = cli(["validate", str(path), "--budget", "0.01"])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "counting bet 'm' (its" in err and "reads suits) would take about" in err
    suggested = err.split("(--budget ")[1].split()[0]
    assert float(suggested) == 1  # at least a second is suggested
    assert cli(["validate", str(path), "--budget", suggested])[0] == 0
    monkeypatch.setenv("EXACTODDS_BUDGET", "0.01")
    assert cli(["validate", str(path)])[0] == 2
    assert cli(["validate", str(path), "--budget", suggested])[0] == 0  # the option wins
    monkeypatch.setenv("EXACTODDS_BUDGET", "soon")
    code, _, err = cli(["validate", "classic"])
    assert code == 2 and "EXACTODDS_BUDGET 'soon' is not a number of seconds" in err


def test_session_judges_the_bet_on_the_shoe_it_counts(cli: Cli, tmp_path: Path) -> None:
    """Issue 33: a session of a card-level bet on an 11-card shoe was refused on the
    paytable's 8 decks; it is judged on the shoe it is counted on."""
    table, shoe = tmp_path / "kings.toml", tmp_path / "small.toml"
    table.write_text(KINGS, encoding="utf-8")
    shoe.write_text(SMALL, encoding="utf-8")
    argv = ["session", str(table), "--bet", "m", "--rounds", "3", "--budget", "1"]
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and "over the budget of 1 s" in err
    code, out, err = cli([*argv, "--shoe", str(shoe)])
    assert code == 0, err
    assert "custom shoe (11 cards)" in out


def test_the_library_entry_points_take_the_budget() -> None:
    """``simulate`` refuses its streak play over ``budget=`` before dealing a shoe, and
    ``effect_of_removal`` and ``build_sheet`` their card engine's counts."""
    from exactodds.analysis.batch import compile_bets
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.analysis.simulate import simulate
    from exactodds.bets.loader import load_paytable
    from exactodds.report.sheet import build_sheet

    perfect = load_paytable("perfect-9")
    with pytest.raises(BudgetError, match=r"counting bet 'perfect_9' × 53 shoes \(its"):
        effect_of_removal(perfect.bets, perfect.shoe, perfect.tableau, budget=1)
    with pytest.raises(BudgetError, match=r"over the budget of 0.01 s \(--budget 1 allows"):
        build_sheet(perfect, budget=0.01)

    table = load_paytable("banker-streak")
    evaluator = compile_bets(list(table.bets), table.tableau)
    with pytest.raises(BudgetError, match="playing 2 streak bets over"):
        simulate(evaluator, table.shoe, shoes=1000, seed=1, streak_bets=table.streaks, budget=0.1)


def test_a_sheets_sessions_keep_what_the_sheet_reads_only() -> None:
    """Issue 33: ``report classic --session 1000`` held every bet's exact distribution at once
    (2,185 MiB peak; 690 MiB now, Banker's alone): a sheet keeps each bet's summary only,
    the figures it shows unchanged."""
    from exactodds.bets.loader import load_paytable
    from exactodds.report.session import session_sheet
    from exactodds.report.sheet import build_sheet
    from exactodds.session.result import bet_session

    sheet = build_sheet(load_paytable("classic"), bet_ids=["banker"], examples=False)
    (kept,) = session_sheet(sheet, 40).session.sessions  # type: ignore[union-attr]
    whole = bet_session(sheet.bets[0].figures, 40, ("c", "s", "r")).distribution
    assert not hasattr(kept.distribution, "lower")  # no probabilities held
    summary = kept.distribution
    assert (summary.p_ahead, summary.p_even, summary.percentiles) == (
        whole.p_ahead,
        whole.p_even,
        whole.percentiles,
    )
    assert kept.hold_range == (
        whole.percentile(Fraction(39, 40)).map(Fraction(-1)),
        whole.percentile(Fraction(1, 40)).map(Fraction(-1)),
    )


def test_report_all_protection_is_weighed_as_a_whole() -> None:
    """Issue 33: ``report --all --protection`` ran for minutes, each paytable's section within
    the budget alone; the sections are weighed together before any is counted (20 bundled
    paytables: about 62 s, refused)."""
    from exactodds.bets.loader import load_paytable
    from exactodds.report.protection import SIGNAL_SECONDS, SIGNALS, check_protections

    classic = load_paytable("classic")  # value-level: its signals' joint distributions only
    games = [(classic.bets, classic.shoe, classic.tableau)] * 3
    check_protections(games)
    with spending(3 * SIGNALS * SIGNAL_SECONDS * 0.99), pytest.raises(BudgetError) as refused:
        check_protections(games)
    assert str(refused.value).startswith("the protection sections of 3 paytables would take")


def test_a_sheets_sessions_are_weighed_together(cli: Cli) -> None:
    """``report --session N`` weighs every bet's session before computing any (classic at
    1,000 rounds: 5.8·10⁹ operations, about 6 s; refused under a budget of 5 s)."""
    code, out, err = cli(["report", "classic", "--session", "1000", "--budget", "5"])
    assert (code, out) == (2, "")
    assert "sessions of 1,000 rounds of 14 bets would take about 5.8 s of CPU" in err
