"""`exactodds compare`: house edge per bet over a grid of variants, checked against
independent computations from the engine's winner counts and docs/rules.md §9."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds import Shoe, Winner, joint_distribution
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Paytable
from exactodds.deal.tableau import BUILTIN
from exactodds.errors import ExactOddsError
from exactodds.figures.compare import (
    BankerMode,
    Variant,
    apply_variant,
    compare_variants,
    render_comparison,
)
from exactodds.figures.metrics import bet_figures
from exactodds.numbers import percent
from tests.cli_helpers import Cli

DATA = Path(__file__).parent / "data"
CLASSIC = DATA / "designer_classic.toml"


def winner_probabilities(decks: int, rules: str) -> dict[Winner, Fraction]:
    joint = joint_distribution(Shoe.decks(decks), BUILTIN[rules])
    return {w: Fraction(n, joint.total) for w, n in joint.winner_counts().items()}


def test_only_what_is_asked_the_rest_is_the_paytables_own() -> None:
    (own,) = compare_variants(load_paytable(CLASSIC)).results
    assert (own.variant.rules, own.variant.decks, own.tie_label, own.banker_label) == (
        "punto-banco",
        8,
        "8:1",
        "commission",
    )
    result = compare_variants(load_paytable(CLASSIC), decks=[6, 8], ties=["8:1", "9:1"])
    assert [(r.variant.rules, r.variant.decks, r.tie_label) for r in result.results] == [
        ("punto-banco", 6, "8:1"),
        ("punto-banco", 6, "9:1"),
        ("punto-banco", 8, "8:1"),
        ("punto-banco", 8, "9:1"),
    ]
    assert result.varying_axes() == ["decks", "tie"]
    assert result.common_label() == "punto-banco rules, Banker commission"
    assert {r.banker_label for r in result.results} == {"commission"}
    assert [b for b, _ in result.bets] == [
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "perfect_pair",
        "player_bonus",
    ]


def test_a_paytable_without_a_tie_bet_gets_no_tie_column(cli: Cli) -> None:
    table = load_paytable("examples/lucky-six.toml")
    assert "tie" not in [b.id for b in table.bets]
    result = compare_variants(table, decks=[6, 8])
    assert "tie" not in dict(result.bets) and result.varying_axes() == ["decks"]
    assert result.common_label() == "punto-banco rules"  # no Tie, no Banker: none to vary
    code, md, _ = cli(["compare", "examples/lucky-six.toml", "--decks", "6,8", "--format", "md"])
    header = next(line for line in md.splitlines() if line.startswith("| "))
    assert code == 0 and "Tie" not in header and "Tie" not in md
    assert header.strip("|").split("|")[0].strip() == "Decks"


def test_punto_banco_tie_cells_match_spec_and_independent_counts() -> None:
    table = load_paytable(CLASSIC)
    result = compare_variants(table, rules=["punto-banco"], ties=["8:1", "9:1"])
    tie8, tie9 = (r.house_edge["tie"] for r in result.results)
    p_tie = winner_probabilities(8, "punto-banco")[Winner.TIE]
    assert tie8 == 1 - 9 * p_tie
    assert tie9 == 1 - 10 * p_tie
    assert percent(tie8) == "14.3596%"  # docs/rules.md §9
    assert percent(tie9) == "4.8440%"
    # the metrics figure of the paytable as written is the 8:1 cell, exactly
    joint = joint_distribution(Shoe.decks(8), BUILTIN["punto-banco"])
    assert bet_figures(joint, table.round_bet("tie")).house_edge == tie8
    # docs/rules.md §9 banker / player figures are untouched by the Tie axis
    for r in result.results:
        assert percent(r.house_edge["banker"]) == "1.0579%"
        assert percent(r.house_edge["player"]) == "1.2351%"
        assert r.house_edge["player_pair"] == Fraction(43, 415)  # 1 - 12 * 31/415
        assert percent(r.house_edge["player_bonus"]) == "2.6517%"


def test_mini_and_pronto_player_bet_is_player_favourable() -> None:
    three = ["punto-banco", "mini", "pronto"]
    result = compare_variants(load_paytable(CLASSIC), rules=three, ties=["8:1"])
    by_rules = {r.variant.rules: r for r in result.results}
    for rules in ("mini", "pronto"):
        p = winner_probabilities(8, rules)
        edge = by_rules[rules].house_edge["player"]
        assert edge == p[Winner.BANKER] - p[Winner.PLAYER]
        assert edge < 0
        assert "player" in by_rules[rules].player_favourable
    assert by_rules["punto-banco"].player_favourable == frozenset()
    md = render_comparison(result, "md")
    mini_line = next(line for line in md.splitlines() if line.startswith("| mini"))
    assert "-0.4209% *" in mini_line
    assert "player-favourable" in md


def test_no_commission_banker_matches_independent_count() -> None:
    result = compare_variants(
        load_paytable(CLASSIC), rules=["punto-banco"], ties=["8:1"], bankers=["no-commission"]
    )
    joint = joint_distribution(Shoe.decks(8))
    six = joint.probability(lambda o: o.winner == Winner.BANKER and o.banker.total == 6)
    p = winner_probabilities(8, "punto-banco")
    ev = (p[Winner.BANKER] - six) + Fraction(1, 2) * six - p[Winner.PLAYER]
    (row,) = result.results
    assert row.house_edge["banker"] == -ev
    assert percent(-ev) == "1.4581%"
    assert row.banker_label == "no-commission"


def test_decks_axis_and_untouched_bets() -> None:
    result = compare_variants(load_paytable(CLASSIC), decks=[6, "8"], ties=["8:1", "9:1"])
    six = [r for r in result.results if r.variant.decks == 6]
    assert len(six) == 2
    p_tie = winner_probabilities(6, "punto-banco")[Winner.TIE]
    assert six[0].house_edge["tie"] == 1 - 9 * p_tie
    # 6 decks: P(player pair) = 23/311, so 11:1 has edge 1 - 12·23/311
    assert all(r.house_edge["player_pair"] == Fraction(35, 311) for r in six)


def test_variant_is_a_data_transform() -> None:
    base = load_paytable(CLASSIC)
    v = apply_variant(
        base, Variant(BUILTIN["mini"], 6, parse_payout("9:1"), BankerMode.NO_COMMISSION)
    )
    assert (v.decks, v.tableau.name) == (6, "mini")
    assert [r.pays.net for r in v.round_bet("tie").rows] == [9, -1]
    assert [r.pays.net for r in v.round_bet("banker").rows] == [Fraction(1, 2), 1, 0, -1]
    for bet_id in ("player", "player_pair", "banker_pair", "perfect_pair"):
        assert v.round_bet(bet_id) == base.round_bet(bet_id)
    assert base.round_bet("tie").rows[0].pays.net == 8  # the original is unchanged


def test_paytable_without_tie_bet_gets_the_standard_one(classic: Paytable) -> None:
    result = compare_variants(classic, rules=["punto-banco"], ties=["8:1"])
    assert percent(result.results[0].house_edge["tie"]) == "14.3596%"


def test_json_csv_and_markdown_output(cli: Cli) -> None:
    code, out, err = cli(["compare", str(CLASSIC), "--tie", "8:1,9:1", "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [(v["rules"], v["decks"], v["tie"], v["banker"]) for v in data["variants"]] == [
        ("punto-banco", 8, "8:1", "commission"),
        ("punto-banco", 8, "9:1", "commission"),
    ]
    assert data["variants"][0]["house_edge"]["player_pair"] == "43/415"
    assert Fraction(data["variants"][1]["house_edge"]["tie"]) < Fraction(5, 100)

    three = ["--rules", "punto-banco,mini,pronto"]
    code, out, _ = cli(["compare", str(CLASSIC), *three, "--tie", "8:1", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 3 * 7
    mini_player = next(r for r in rows if r["rules"] == "mini" and r["bet"] == "player")
    assert mini_player["player_favourable"] == "yes"
    assert Fraction(mini_player["house_edge"]) < 0

    code, out, _ = cli(["compare", str(CLASSIC), "--decks", "6,8", "--tie", "8:1,9:1"])
    assert code == 0 and "Every variant: punto-banco rules, Banker commission." in out
    header = next(line for line in out.splitlines() if line.startswith("| "))
    heads = [c.strip() for c in header.strip("|").split("|")]
    assert heads[:5] == ["Decks", "Tie pays", "Player", "Banker", "Tie"]  # axes, then bets
    assert "| 8 | 8:1 | 1.2351% | 1.0579% | 14.3596% |" in " ".join(out.split())


def test_html_page_charts_every_bet_with_the_json_figures(cli: Cli, tmp_path: Path) -> None:
    """``--format html``: a self-contained page whose table and charts carry the same edges as
    the JSON, one chart per bet with a bar per variant labelled in full, the command that reruns
    it, and the paytable's name escaped."""
    import html as html_lib
    import re

    hostile = tmp_path / "hostile.toml"
    text = CLASSIC.read_text(encoding="utf-8")
    hostile.write_text(
        re.sub(r'^name = ".*"$', 'name = "<b>Mine</b> & co"', text, count=1, flags=re.M),
        encoding="utf-8",
    )
    argv = ["compare", str(hostile), "--rules", "punto-banco", "--tie", "8:1", "--decks", "6,8"]
    code, page, err = cli([*argv, "--format", "html"])
    assert (code, err) == (0, "")
    assert page.startswith("<!DOCTYPE html>") and "<script src=" not in page
    assert "&lt;b&gt;Mine&lt;/b&gt; &amp; co" in page and "<b>Mine</b>" not in page
    data = json.loads(cli([*argv, "--format", "json"])[1])
    labels = ["6 decks", "8 decks"]  # the axis that varies; the rest said once
    captions = dict(re.findall(r"<figcaption>House edge of (.*?) by variant: ([^<]*)<", page))
    bets = load_paytable(hostile).bets
    assert len(captions) == len(bets)
    for bet in bets:
        edges = [Fraction(v["house_edge"][bet.id]) for v in data["variants"]]
        expected = "; ".join(f"{lab}: {percent(e)}" for lab, e in zip(labels, edges, strict=True))
        assert captions[html_lib.escape(bet.name)] == expected + "."
    widths = [int(w) for w in re.findall(r'<svg[^>]* width="(\d+)"', page)]
    assert widths and all(w == 640 for w in widths)  # short labels: the default chart width
    assert f"exactodds {' '.join(argv)} --format html" in html_lib.unescape(page)
    assert "exactodds compare" in page.split("-->")[0]  # the ownership stamp names the command


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tie", "lose"], "Tie payout 'lose' must be a win"),
        (["--tie", "8:x"], "cannot read payout '8:x'"),
        (["--decks", "six"], "number of decks must be a positive integer or inf, not 'six'"),
        (["--decks", "0"], "number of decks must be a positive integer, not '0'"),
        (["--rules", "baccarat"], "unknown rules 'baccarat'"),
        (["--banker", "free"], "unknown banker version 'free'"),
        (["--format", "xml"], "--format: 'xml' is not one of 'md', 'csv', 'json', 'html'"),
        (["--tie", ","], "--tie: list ',' has an empty item"),
        (["--rules", "punto-banco,,mini"], "--rules: list 'punto-banco,,mini' has an empty item"),
        (
            ["--tie", "8:1,9:1,8 to 1"],
            "the tie list names the same value twice: '8:1' and '8 to 1'",
        ),
        (["--decks", "inf,8,infinity"], "decks list names the same value twice: 'inf' and"),
        (["--rules", "paytable,punto-banco"], "rules list names the same value twice"),
        (["--banker", "nc,no-commission"], "banker list names the same value twice"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv: list[str], message: str, cli: Cli) -> None:
    code, out, err = cli(["compare", str(CLASSIC), *argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_missing_file_and_help(cli: Cli) -> None:
    code, _, err = cli(["compare", "no-such-game.toml"])
    assert code == 2 and "no-such-game.toml: file not found" in err
    code, out, _ = cli(["compare", "--help"])
    assert code == 0 and "exactodds compare classic --rules" in out


def test_api_rejects_empty_axis() -> None:
    with pytest.raises(ExactOddsError, match="rules list"):
        compare_variants(load_paytable(CLASSIC), rules=[])


def test_rules_paytable_means_its_own_tableau() -> None:
    table = replace(load_paytable(CLASSIC), tableau=BUILTIN["pronto"])
    result = compare_variants(table, rules=["paytable"], ties=["8:1"])
    assert [r.variant.rules for r in result.results] == ["pronto"]


def test_replaced_banker_is_named_banker() -> None:
    table = load_paytable("super6")  # its Banker bet is the no-commission one
    result = compare_variants(table, rules=["punto-banco"], ties=["8:1"], bankers=["commission"])
    assert dict(result.bets)["banker"] == "Banker"
    assert percent(result.results[0].house_edge["banker"]) == "1.0579%"
    own = compare_variants(table, rules=["punto-banco"], ties=["8:1"])
    assert own.results[0].banker_label == "no-commission"
    assert percent(own.results[0].house_edge["banker"]) == "1.4581%"


def test_progress_counts_every_variant_and_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    compare_variants(
        load_paytable(CLASSIC),
        rules=["punto-banco", "mini"],
        ties=["8:1"],
        decks=[1, 2],
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_progress_is_drawn_on_a_terminal_only_and_never_in_the_output(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from exactodds.cli import progress

    argv = ["compare", str(CLASSIC), "--rules", "punto-banco,mini", "--tie", "8:1", "-d", "1,2"]
    code, plain, err = cli(argv)
    assert (code, err) == (0, "")
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli(argv)
    assert (code, out) == (0, plain)
    assert "compare" in err and "4/4" in err and "variants" in err
