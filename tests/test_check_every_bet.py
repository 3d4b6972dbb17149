"""``check`` judges every bet (issue 32): a streak bet on its figures with independent rounds,
checked against the profiles like any other bet; a check that cannot be made is a visible
``n/a`` row and makes the verdict ``incomplete`` (exit 3), never a pass."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from exactodds.bets.loader import load_paytable
from exactodds.cli.common import EXIT_INCOMPLETE
from exactodds.compliance.profiles import load_profiles
from exactodds.compliance.rules import Outcome, Verdict, run_checks
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe
from exactodds.language import parse_condition
from tests.bruteforce import outcome_winner, physical_joint
from tests.cli_helpers import Cli

# Eight cards: 20,160 ordered rounds, dealt one by one below.
REMOVED = "A 2 3 4 5 6 7 8 9 T J Q K " * 3 + "A 2 3 4 5"
SHOE = f'decks = 1\nremove = "{REMOVED}"\n'

# A streak bet paying 2:1 on two Banker wins in a row: RTP 3·p², far below MGA's 85%.
TABLE = """\
name = "Streak below the minimum"
decks = 1
[bets.banker]
name = "Banker"
rows = [ { when = "banker.wins", pays = "0.95:1" }, { when = "winner == tie", pays = "push" },
         { when = "otherwise", pays = "lose" } ]
[bets.twice]
name = "Twice"
streak = "banker.wins"
rows = [ { when = "streak >= 2", pays = "2:1" }, { when = "otherwise", pays = "lose" } ]
"""

# A bet that never wins: its top award cannot be judged.
NEVER_WINS = """\
name = "Never wins"
decks = 1
[bets.banker]
rows = [ { when = "banker.wins", pays = "0.95:1" }, { when = "winner == tie", pays = "push" },
         { when = "otherwise", pays = "lose" } ]
[bets.refund]
name = "Refund"
rows = [ { when = "winner == tie", pays = "push" }, { when = "otherwise", pays = "lose" } ]
"""


def _banker_wins(shoe: Shoe) -> Fraction:
    """P(Banker wins one round), every ordered deal of the physical cards walked."""
    joint = physical_joint(shoe)
    wins = sum(n for o, n in joint.items() if outcome_winner(o) is Winner.BANKER)
    return Fraction(wins, sum(joint.values()))


def test_a_streak_bet_below_the_minimum_fails_check_in_md_json_and_exit_code(
    cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "t.toml").write_text(TABLE, encoding="utf-8")
    (tmp_path / "s.toml").write_text(SHOE, encoding="utf-8")
    argv = [
        "check",
        str(tmp_path / "t.toml"),
        "--against",
        "mga",
        "--shoe",
        str(tmp_path / "s.toml"),
    ]
    p = _banker_wins(Shoe.decks(1).remove(REMOVED))
    rtp = 3 * p**2  # streak >= 2 with probability p², paid 2:1 (stake back)
    assert rtp < Fraction(85, 100)

    code, out, err = cli([*argv, "--format", "json"])
    assert code == 1, err
    data = json.loads(out)
    assert data["verdict"] == "fail"
    (row,) = [k for k in data["checks"] if k["bet"] == "twice" and k["rule"] == "min_rtp"]
    assert (row["verdict"], Fraction(row["value"])) == ("fail", rtp)
    assert row["note"] == "rounds independent"

    code, md, _ = cli(argv)
    assert code == 1
    assert "Verdict: **fail**." in md
    (line,) = [x for x in md.splitlines() if "(`twice`)" in x and "FAIL" in x]
    assert "rounds independent" in line
    assert "exactodds: note" not in err  # judged, not left out


def test_report_against_judges_streak_bets_too(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(TABLE, encoding="utf-8")
    (tmp_path / "s.toml").write_text(SHOE, encoding="utf-8")
    code, out, err = cli(
        ["report", str(tmp_path / "t.toml"), "--shoe", str(tmp_path / "s.toml"), "--against",
         "mga", "--bet", "twice", "--bet", "banker", "--format", "json"]
    )  # fmt: skip
    assert code == 0, err  # a sheet is written; its Compliance section gives the verdict
    compliance = json.loads(out)["compliance"]
    checked = [(k["bet"], k["rule"], k["verdict"]) for k in compliance["checks"]]
    assert ("twice", "min_rtp", "fail") in checked and len(checked) == 4
    assert compliance["verdict"] == "fail"


def test_check_of_a_published_streak_bet(cli: Cli) -> None:
    code, out, err = cli(["check", "banker-streak", "--against", "mga", "--format", "json"])
    assert (code, err) == (0, "")
    rtp = next(k["value"] for k in json.loads(out)["checks"] if k["bet"] == "banker_streak")
    # Source: Wizard of Odds, Banker Streak, pay table 1 on 8 decks: total return -0.094006
    assert round(float(Fraction(rtp)) - 1, 6) == -0.094006


def test_an_na_row_makes_the_verdict_incomplete(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "n.toml").write_text(NEVER_WINS, encoding="utf-8")
    argv = ["check", str(tmp_path / "n.toml"), "--against", "gli-11", "--allow-player-edge"]
    code, md, err = cli(argv)
    assert code == EXIT_INCOMPLETE == 3
    assert err == "exactodds: incomplete: 1 of 2 checks n/a\n"
    assert "Verdict: **incomplete**: a check n/a, not judged: Refund (refund)." in md
    assert any("(`refund`)" in x and "| n/a " in x for x in md.splitlines())
    code, out, _ = cli([*argv, "--format", "json"])
    data = json.loads(out)
    assert (code, data["verdict"], data["paytables"][0]["verdict"]) == (
        3,
        "incomplete",
        "incomplete",
    )
    assert [k["verdict"] for k in data["checks"] if k["bet"] == "refund"] == ["n/a"]


def test_an_na_row_is_visible_in_every_sheet_format(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "n.toml").write_text(NEVER_WINS, encoding="utf-8")
    base = ["report", str(tmp_path / "n.toml"), "--against", "gli-11", "--allow-player-edge"]
    _, html, _ = cli([*base, "--format", "html"])
    assert "Verdict: <strong>incomplete</strong>" in html and "not judged: Refund (refund)" in html
    _, text, _ = cli([*base, "--format", "csv"])
    rows = list(csv.reader(io.StringIO(text)))
    assert any("refund" in r and "n/a" in r for r in rows), text  # the check's line
    assert any("verdict" in r and "incomplete" in r for r in rows), text


def test_a_passing_paytable_still_exits_0(cli: Cli) -> None:
    code, out, err = cli(["check", "punto-banco", "--against", "mga,gli-11"])
    assert (code, err) == (0, "")
    assert "Verdict: **pass**." in out


def test_a_streak_bet_that_would_never_end_is_not_judged() -> None:
    """On a shoe of nines every round is a tie: a tie streak never ends, so no rule judges it."""
    bet = load_paytable("banker-streak").streaks[0]
    nines = Shoe.decks(2).remove("A 2 3 4 5 6 7 8 T J Q K " * 8)
    ties = replace(bet, condition=parse_condition("winner == tie"), max_streak=None)
    c = run_checks(load_profiles("mga,nj"), joint_distribution(nines), (), streaks=[ties])
    rules = [(k.profile, k.rule.value, k.verdict) for k in c.checks]
    assert rules == [  # each profile's rules, and exactodds' own maximum RTP under each
        ("mga", "min_rtp", Verdict.NA),
        ("mga", "max_rtp", Verdict.NA),
        ("nj", "payout_notation", Verdict.NA),
        ("nj", "max_rtp", Verdict.NA),
    ]
    assert c.verdict is Outcome.INCOMPLETE and not c.passed and not c.failures()
    assert all("never ends" in k.note for k in c.checks)


def test_check_against_nj_states_payouts_as_nj_requires(cli: Cli) -> None:
    """A check of the math does not fail on the presentation default ("to" and "for")."""
    code, out, err = cli(["check", "classic", "--against", "nj", "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    notation = [k for k in data["checks"] if k["rule"] == "payout_notation"]
    assert len(notation) == 14
    assert {(k["value"], k["verdict"]) for k in notation} == {("to", "pass")}
    assert data["notation"] == "to"
    code, out, _ = cli(["check", "classic", "--against", "nj", "--notation", "both"])
    assert code == 1 and out.count("| **FAIL** ") == 14  # asked for both: "for" is stated too
