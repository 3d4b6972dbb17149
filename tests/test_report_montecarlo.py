"""The math sheet's optional Monte Carlo section (``exactodds report --monte-carlo-rounds N``)."""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import pytest

from exactodds.analysis.montecarlo import Z99, BetCheck, ClassCheck, monte_carlo_check
from exactodds.bets.paytable import Paytable
from exactodds.report import build_sheet, render_sheets
from exactodds.report.montecarlo import checks_outside, monte_carlo_sheet, verdict_line
from tests.cli_helpers import Cli

ROUNDS = 3000
BASE = ["report", "classic", "--date", "2024-06-01", "--monte-carlo-rounds", str(ROUNDS)]


@pytest.fixture(scope="module")
def classic_ids(classic: Paytable) -> list[str]:
    return [b.id for b in classic.bets]


def test_same_seed_same_output_other_seed_other_counts(cli: Cli) -> None:
    first = cli([*BASE, "--seed", "5", "-f", "json"])
    again = cli([*BASE, "--seed", "5", "-f", "json"])
    other = cli([*BASE, "--seed", "6", "-f", "json"])
    assert first[0] == 0 and first == again
    counts = [
        [[r["observed"] for r in b["rows"]] for b in json.loads(out)["verification"]["bets"]]
        for out in (first[1], other[1])
    ]
    assert counts[0] != counts[1]


def test_seed_defaults_to_one(cli: Cli) -> None:
    assert cli(BASE) == cli([*BASE, "--seed", "1"])


@pytest.mark.parametrize("fmt", ["md", "html", "csv", "json"])
def test_section_in_every_format_names_every_bet(
    fmt: str, classic_ids: list[str], cli: Cli
) -> None:
    code, out, err = cli([*BASE, "--seed", "3", "-f", fmt])
    assert (code, err) == (0, "")
    if fmt == "json":
        section = json.loads(out)["verification"]
        assert (section["rounds"], section["seed"]) == (ROUNDS, 3)
        assert "not a source" in section["note"]
        assert [b["id"] for b in section["bets"]] == classic_ids
    elif fmt == "csv":
        lines = list(csv.DictReader(io.StringIO(out, newline="")))
        meta = {x["item"]: x["value"] for x in lines if x["kind"] == "meta"}
        assert (meta["verification rounds"], meta["verification seed"]) == (str(ROUNDS), "3")
        assert "not a source" in meta["verification note"]
        verdicts = [x["bet_id"] for x in lines if x["kind"] == "verify_verdict"]
        assert verdicts == classic_ids
        assert [x["bet_id"] for x in lines if x["kind"] == "verify_return"] == classic_ids
    else:
        assert "Monte Carlo verification" in out
        assert f"{ROUNDS:,} rounds" in out and "seed 3" in out
        assert "statistical check of the exact figures, not a source of them" in out
        for bet_id in classic_ids:
            needle = f'id="verify-{bet_id}"' if fmt == "html" else f"({bet_id}) — verification"
            assert needle in out.replace("\\_", "_")
        assert out.count("Verdict:") == len(classic_ids)


def test_json_figures_are_exact_and_consistent(cli: Cli) -> None:
    code, out, _ = cli([*BASE, "--seed", "2", "-f", "json"])
    assert code == 0
    data = json.loads(out)
    exact_bets = {b["id"]: b for b in data["bets"]}
    for bet in data["verification"]["bets"]:
        rows = bet["rows"]
        assert sum(r["observed"] for r in rows) == ROUNDS
        for r, sheet_row in zip(rows, exact_bets[bet["id"]]["rows"], strict=True):
            assert r["event"] == sheet_row["event"]
            assert r["probability"] == sheet_row["probability"]  # the sheet's exact figure
            assert isinstance(r["observed_frequency"], str)
            assert Fraction(r["observed_frequency"]) == Fraction(r["observed"], ROUNDS)
            assert Fraction(r["expected"]) == Fraction(r["probability"]) * ROUNDS
            p = Fraction(r["probability"])
            sd = math.sqrt(ROUNDS * p * (1 - p))
            z = (r["observed"] - float(p * ROUNDS)) / sd if sd else 0.0
            assert r["z"] == pytest.approx(z, abs=1e-4)
        ret = bet["return"]
        assert ret["exact"] == exact_bets[bet["id"]]["ev"]
        observed = sum(Fraction(r["net"]) * r["observed"] for r in rows) / ROUNDS
        assert Fraction(ret["observed"]) == observed
        lo, hi = ret["interval_99"]
        assert lo < float(Fraction(ret["exact"])) < hi
        bad = [r for r in rows if abs(r["z"]) > Z99] + ([ret] if abs(ret["z"]) > Z99 else [])
        assert bet["within_99"] is (not bad)


def test_rows_agree_with_the_analysis_check_by_net_result(classic: Paytable) -> None:
    """Row counts, summed by net result, equal analysis.montecarlo's counts (which settle by
    net)."""
    sheet = monte_carlo_sheet(build_sheet(classic, date="2024-06-01"), rounds=ROUNDS, seed=9)
    assert sheet.monte_carlo is not None
    reference = monte_carlo_check(
        classic.bets, classic.shoe, classic.tableau, rounds=ROUNDS, seed=9
    )
    for mine, theirs in zip(sheet.monte_carlo.bets, reference.bets, strict=True):
        by_net: dict[Fraction, int] = {}
        for c in mine.classes:
            by_net[c.net] = by_net.get(c.net, 0) + c.observed
        assert by_net == {c.net: c.observed for c in theirs.classes if c.observed}
        assert (mine.observed_return, mine.ev) == (theirs.observed_return, theirs.ev)


def test_verdict_names_the_checks_outside_the_bound(classic: Paytable) -> None:
    sheet = monte_carlo_sheet(
        build_sheet(classic, bet_ids=["tie"], date="2024-06-01"),
        rounds=1000,
        seed=1,
    )
    assert sheet.monte_carlo is not None
    assert verdict_line(sheet, 0) == "All 3 |z| within the 99% bound (2.576)."
    # a tie on every round: far outside for both rows and the return
    rows = sheet.bets[0].figures.rows
    skewed = BetCheck(
        "tie",
        "Tie",
        sheet.bets[0].figures.ev,
        sheet.bets[0].figures.variance,
        Fraction(8),
        1000,
        tuple(
            ClassCheck(r.net, r.probability, 1000 if i == 0 else 0, 1000)
            for i, r in enumerate(rows)
        ),
    )
    bad = replace(sheet, monte_carlo=replace(sheet.monte_carlo, bets=(skewed,)))
    labels = [label.split(" (z")[0] for label in checks_outside(bad, 0)]
    assert labels == [*(r.event for r in rows), "return"]
    assert verdict_line(bad, 0).startswith("3 of 3 |z| outside the 99% bound (2.576): Tie (z = +")
    lines = list(csv.DictReader(io.StringIO(render_sheets([bad], "csv"), newline="")))
    (line,) = [x for x in lines if x["kind"] == "verify_verdict"]
    assert (line["bet_id"], line["value"], line["note"]) == ("tie", "outside", verdict_line(bad, 0))
    assert json.loads(render_sheets([bad], "json"))["verification"]["bets"][0]["within_99"] is False


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--monte-carlo-rounds", "0"], "--monte-carlo-rounds must be at least 1, not 0"),
        (["--monte-carlo-rounds", "-5"], "--monte-carlo-rounds must be at least 1, not -5"),
        (["--monte-carlo-rounds", "10", "--seed", "-1"], "--seed must be a non-negative integer"),
        (["--seed", "4"], "--seed applies only with --monte-carlo-rounds"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(["report", *args])
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_without_monte_carlo_numpy_is_not_imported() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from exactodds.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['report', '--date', '2024-06-01'])\n"
        "    except SystemExit as e:\n"
        "        assert not e.code\n"
        "print('numpy' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_progress_counts_the_rounds_of_every_sheet(
    classic: Paytable, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exactodds.cli import progress as display
    from exactodds.report.montecarlo import monte_carlo_sheets

    sheets = [build_sheet(classic, bet_ids=[b], date="2024-06-01") for b in ("tie", "player")]
    seen: list[tuple[int, int]] = []
    done = monte_carlo_sheets(
        sheets, rounds=ROUNDS, seed=3, progress=lambda n, total: seen.append((n, total))
    )
    assert seen[-1] == (2 * ROUNDS, 2 * ROUNDS) and (ROUNDS, 2 * ROUNDS) in seen
    assert [n for n, _ in seen] == sorted(n for n, _ in seen)
    alone = monte_carlo_sheet(sheets[1], rounds=ROUNDS, seed=3)
    assert done[1].monte_carlo == alone.monte_carlo  # progress changes nothing dealt
    argv = ["report", "classic", "--bet", "tie", "--date", "2024-06-01"]
    argv += ["--monte-carlo-rounds", str(ROUNDS)]
    code, plain, err = cli(argv)
    assert (code, err) == (0, "")
    monkeypatch.setattr(display, "DELAY", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli(argv)
    assert (code, out) == (0, plain)
    assert "monte carlo" in err and f"{ROUNDS}/{ROUNDS}" in err and "\x1b" not in out
