"""``exactodds check`` and ``report --against/--notation`` as a user runs them: exit codes, the
JSON shape, the Compliance section in every format, payout notation, confidence ranges."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.cli_helpers import Cli
from tests.conftest import WriteFile
from tests.markdown_cells import has_cells

KEYS = {"paytable", "profile", "rule", "bet", "value", "limit", "verdict", "source", "note"}


def test_check_passes_with_exit_0(cli: Cli) -> None:
    code, out, err = cli(["check", "punto-banco", "--against", "mga,gli-11"])
    assert (code, err) == (0, "")
    assert out.startswith("# Punto Banco — compliance")
    assert "12 checks: 12 pass, 0 fail, 0 n/a" in out  # each profile, and RTP ≤ 100% in each
    assert has_cells(out, "", "", "Tie (`tie`)", "85.6404%", "pass", "")  # 1 − 14.3596%


def test_check_fails_with_exit_1_and_says_how_many(cli: Cli) -> None:
    code, out, err = cli(["check", "classic", "--against", "adm"])
    assert code == 1
    assert has_cells(out, "Tie (`tie`)", "85.6404%", "**FAIL**")
    assert err == "exactodds: 10 of 28 checks fail\n"  # RTP ≥ 90%; RTP ≤ 100% passes


def test_check_json_shape(cli: Cli) -> None:
    args = ["check", "classic", "punto-banco", "--against", "adm,nj", "--notation", "to"]
    code, out, _ = cli([*args, "--format", "json"])
    data = json.loads(out)
    assert code == 1
    assert len(data["checks"]) == 2 * 2 * (14 + 3)  # each profile's rule and RTP ≤ 100%
    assert all(set(c) == KEYS for c in data["checks"])
    assert {c["verdict"] for c in data["checks"]} == {"pass", "fail"}
    rtp = [c for c in data["checks"] if c["rule"] == "min_rtp"]
    assert all(Fraction(c["value"]) > 0 and c["limit"] == "9/10" for c in rtp)
    tie = next(
        c for c in rtp if c["paytable"] == "paytables/punto-banco.toml" and c["bet"] == "tie"
    )
    assert Fraction(tie["value"]) == 9 * Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert {
        (c["value"], c["limit"], c["verdict"])
        for c in data["checks"]
        if c["profile"] == "nj" and c["rule"] == "payout_notation"
    } == {("to", "to", "pass")}
    # adm: classic 4 of 14 bets at 90% or more, punto-banco 2 of 3 (not Tie); nj: all stated
    # "to"; no bet favours the player (2 × 17 checks of RTP ≤ 100% pass)
    assert data["summary"] == {"checks": 68, "pass": 4 + 2 + 14 + 3 + 34, "fail": 11, "n/a": 0}
    assert [p["id"] for p in data["profiles"]] == ["adm", "nj"]
    assert data["notation"] == "to"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["check", "--against", "nope"],
            "nope: file not found (bundled profiles: adm, gli-11, mga, nj)",
        ),
        (["check", "classic"], "missing option '--against'"),
        (
            ["check", "--against", "adm", "--format", "pdf"],
            "check: invalid value for --format: 'pdf' is not one of 'md', 'json'",
        ),
        (["check", "no-such", "--against", "adm"], "no-such: file not found"),
        (["check", "--against", "missing/profile.toml"], "missing/profile.toml: file not found"),
        (["check", "--against", "adm", "--decks", "0"], "number of decks must be a positive"),
    ],
)
def test_check_bad_input_is_one_line_and_exit_2(args: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(args)
    assert (code, out) == (2, "")
    assert err.startswith("exactodds: error: ") and err.count("\n") == 1
    assert needle in err


def test_check_bad_profile_file_names_its_line(tmp_path: Path, cli: Cli) -> None:
    bad = tmp_path / "house.toml"
    bad.write_text('name = "House"\n[rules]\nmin_rtp = "90%"\nmin_rpt = "95%"\n', encoding="utf-8")
    code, _, err = cli(["check", "--against", str(bad)])
    assert code == 2 and f"{bad}:4: rules: unknown rule 'min_rpt'" in err
    code, _, err = cli(["check", "--against", "adm", "--notation", "sideways"])
    assert code == 2 and "sideways" in err


def test_check_uses_the_shoe_and_rules_of_the_options(cli: Cli) -> None:
    args = ["check", "classic", "--against", "mga", "-f", "json", "--decks", "6", "--rules", "mini"]
    _, out, _ = cli(args)
    data = json.loads(out)
    assert data["paytables"][0]["shoe"] == "6 decks (312 cards)"
    assert data["paytables"][0]["rules"] == "mini"


def test_check_and_report_give_the_same_checks(cli: Cli) -> None:
    _, out, _ = cli(["check", "classic", "--against", "gli-11,mga", "-f", "json"])
    checks = [{k: v for k, v in c.items() if k != "paytable"} for c in json.loads(out)["checks"]]
    _, out, _ = cli(["report", "classic", "--against", "gli-11,mga", "-f", "json"])
    sheet = json.loads(out)
    assert sheet["compliance"]["checks"] == checks
    assert sheet["compliance"]["summary"] == {"checks": 56, "pass": 54, "fail": 2, "n/a": 0}
    assert "--against gli-11,mga" in sheet["command"]
    assert [i["file"] for i in sheet["inputs"] if i["role"] == "profile"] == [
        "profiles/gli-11.toml",
        "profiles/mga.toml",
    ]


# -- report --against in every format ----------------------------------------------------------

AGAINST = ["report", "classic", "--against", "gli-11,adm,mga", "--date", "2024-06-01"]


def test_report_against_markdown_and_html(cli: Cli) -> None:
    code, md, _ = cli(AGAINST)
    assert code == 0  # a report with failing checks is still a report
    assert md.index("## Summary") < md.index("## Compliance") < md.index("## Game")
    assert "84 checks: 72 pass, 12 fail, 0 n/a." in md  # GLI 14 of 14, ADM 4, MGA 12, 42 ≤ 100%
    for heading in ("GLI-11 — odds of the top award", "Italy — ADM", "Malta — MGA"):
        assert f"### {heading}" in md
    player = ("Minimum RTP", "90%", "Player (`player`)", "98.7649%", "pass", "")  # 1 − 1.2351%
    assert has_cells(md, *player)
    assert "«The odds of achieving any explicitly advertised award" in md
    _, html, _ = cli([*AGAINST, "--format", "html"])
    assert '<h2 id="compliance">Compliance</h2>' in html
    assert '<a href="#compliance">Compliance</a>' in html
    assert "<td><strong>FAIL</strong></td>" in html
    _, plain, _ = cli(["report", "classic", "--date", "2024-06-01"])
    assert "Compliance" not in plain


def test_report_against_csv_and_json(cli: Cli) -> None:
    _, text, _ = cli([*AGAINST, "--format", "csv"])
    lines = [line for line in csv.DictReader(io.StringIO(text)) if line["kind"] == "compliance"]
    rules = [line for line in lines if not line["bet_id"]]
    assert [(r["item"], r["value"], r["exact"]) for r in rules] == [
        ("verdict", "fail", ""),
        ("gli-11 top_award_max_odds", "1 in 100,000,000", "100000000"),
        ("gli-11 max_rtp", "100%", "1/1"),
        ("adm min_rtp", "90%", "9/10"),
        ("adm max_rtp", "100%", "1/1"),
        ("mga min_rtp", "85%", "17/20"),
        ("mga max_rtp", "100%", "1/1"),
    ]
    tie = next(line for line in lines if line["bet_id"] == "tie" and line["item"] == "adm min_rtp")
    assert (tie["value"], tie["exact"]) == ("fail", "619306544887/723147898655;9/10")
    assert len(lines) == 1 + 6 + 6 * 14  # the verdict, each rule, each rule per bet
    _, text, _ = cli([*AGAINST, "--format", "json"])
    data = json.loads(text)
    assert [p["id"] for p in data["compliance"]["profiles"]] == ["gli-11", "adm", "mga"]
    assert len(data["compliance"]["checks"]) == 84


def test_confidence_and_volatility_in_json_and_markdown(cli: Cli) -> None:
    _, text, _ = cli(["report", "classic", "--bet", "tie", "-f", "json"])
    (tie,) = json.loads(text)["bets"]
    assert len(tie["confidence"]) == 18
    assert {(c["rounds"], c["level"]) for c in tie["confidence"]} == {
        (10**k, level) for k in range(3, 9) for level in ("9/10", "19/20", "99/100")
    }
    rtp = Fraction(tie["rtp"])
    for c in tie["confidence"]:
        low, high = Fraction(c["low"]), Fraction(c["high"])
        assert low < rtp < high and len(c["low"].split(".")[1]) == 10
        assert abs((rtp - low) - (high - rtp)) <= Fraction(1, 10**10)  # symmetric
    assert tie["volatility_index"] == "4.3438482523"  # 1.6448536… × 2.6408722…
    _, md, _ = cli(["report", "classic", "--bet", "tie"])
    assert has_cells(md, "Volatility index (90%)", "4.3438")
    assert has_cells(
        md, "1,000", "71.9039% to 99.3768%", "69.2724% to 102.0084%", "64.1292% to 107.1516%"
    )


# -- notation ------------------------------------------------------------------------------------


def _section(md: str, title: str) -> str:
    start = md.index(f"## {title}")
    return md[start : md.index("\n## ", start + 3)]


def test_notation_to_states_every_payout_to_one(cli: Cli) -> None:
    _, md, _ = cli(["report", "punto-banco", "--notation", "to"])
    paytable = _section(md, "Paytable")
    assert has_cells(paytable, "Bet", "Event", "When", "Pays (to 1)")
    assert "for 1" not in paytable and "for 1" not in _section(md, "Bets")
    assert has_cells(_section(md, "Bets"), "Tie", "8 to 1")  # written "9 for 1" in the paytable
    assert "exactodds report punto-banco --notation to" in md
    code, _, _ = cli(["check", "punto-banco", "--against", "nj", "--notation", "to"])
    assert code == 0
    code, _, err = cli(["check", "punto-banco", "--against", "nj", "--notation", "both"])
    assert code == 1 and "3 of 6 checks fail" in err


def test_notation_for_and_both(cli: Cli) -> None:
    _, md, _ = cli(["report", "punto-banco", "--notation", "for"])
    paytable = _section(md, "Paytable")
    assert has_cells(paytable, "Bet", "Event", "When", "Pays (for 1)")
    assert " to 1" not in paytable
    assert has_cells(_section(md, "Bets"), "Tie", "9 for 1")
    _, md, _ = cli(["report", "punto-banco"])
    assert has_cells(md, "Bet", "Event", "When", "Pays", "To 1", "For 1")
    _, text, _ = cli(["report", "punto-banco", "--notation", "to", "-f", "json"])
    row = json.loads(text)["bets"][2]["rows"][0]
    assert (row["pays"], row["to_one"], "for_one" in row) == ("8 to 1", "8 to 1", False)


# -- exactodds' own rule: no bet favours the player ----------------------------------------------


def test_check_fails_a_player_favourable_bet_unless_allowed(
    write_file: WriteFile, cli: Cli
) -> None:
    from tests.test_compliance import GENEROUS

    path = str(write_file("generous.toml", GENEROUS))
    code, out, err = cli(["check", path, "--against", "gli-11,adm,mga"])
    assert code == 1 and err == "exactodds: 3 of 6 checks fail\n"  # RTP 107.7% under each
    failing = (
        r"\| Maximum RTP +\| 100% +\| Generous Player \(`generous`\) +\| [0-9.]+% +\| \*\*FAIL"
    )
    assert len(re.findall(failing, out)) == 3
    assert "Maximum RTP (100%): exactodds' own rule" in out
    code, _, err = cli(["check", path, "--against", "gli-11,adm,mga", "--allow-player-edge"])
    assert (code, err) == (0, "")
    allowing = write_file(
        "promo.toml", 'name = "Promo"\nallow_player_edge = true\n[rules]\nmin_rtp = "90%"\n'
    )
    assert cli(["check", path, "--against", str(allowing)])[0] == 0


def test_report_records_allow_player_edge_in_its_command(write_file: WriteFile, cli: Cli) -> None:
    from tests.test_compliance import GENEROUS

    path = str(write_file("generous.toml", GENEROUS))
    code, out, _ = cli(["report", path, "--against", "mga", "--allow-player-edge", "-f", "json"])
    data = json.loads(out)
    assert code == 0 and data["command"].endswith("--against mga --allow-player-edge")
    assert data["compliance"]["summary"] == {"checks": 1, "pass": 1, "fail": 0, "n/a": 0}
    code, _, err = cli(["report", path, "--allow-player-edge"])
    assert code == 2 and "--allow-player-edge applies only with --against" in err


def test_the_terminal_summary_marks_a_player_favourable_bet(write_file: WriteFile) -> None:
    from exactodds.cli.summary import report_summary
    from exactodds.report import build_sheets
    from tests.test_compliance import GENEROUS

    (sheet,) = build_sheets([str(write_file("generous.toml", GENEROUS))], examples=False)
    text = report_summary([sheet], width=80)
    (row,) = [line for line in text.splitlines() if line.startswith("Generous Player")]
    assert row.split()[2].startswith("-") and row.split()[2].endswith("%*")
    assert "* favours the player: exactodds check fails it" in text
    assert "favours" not in report_summary(build_sheets(["ez"], examples=False), width=80)
