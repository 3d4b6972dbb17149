"""Jurisdiction profiles and checks against values computed here, independently of the engine
where possible: docs/rules.md §9 counts (tests/data/published_8_decks.toml), closed forms for pairs
(tests/independent.py), hand-checked rounding, and brute force over physical cards."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactodds.bets.bundled import bundled_dir
from exactodds.bets.loader import load_paytable, parse_paytable
from exactodds.bets.payout import Notation, Payout
from exactodds.bets.paytable import Paytable, Row
from exactodds.compliance.profiles import (
    check_paytable_against,
    load_profile,
    load_profiles,
    parse_profile,
)
from exactodds.compliance.rules import (
    NO_PLAYER_EDGE,
    Check,
    Profile,
    Rule,
    RuleKind,
    Verdict,
    describe_value,
    run_checks,
)
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.errors import ExactOddsError, ProfileError
from exactodds.language import parse_condition
from tests.bruteforce import physical_joint
from tests.conftest import WriteFile
from tests.independent import player_pair_probability

PUBLISHED = tomllib.loads(
    (Path(__file__).parent / "data" / "published_8_decks.toml").read_text("utf-8")
)
COUNTS = PUBLISHED["counts"]
TOTAL = COUNTS["total"]
P_BANKER = Fraction(COUNTS["banker_wins"], TOTAL)
P_PLAYER = Fraction(COUNTS["player_wins"], TOTAL)
P_TIE = Fraction(COUNTS["tie"], TOTAL)
# RTP = 1 + EV from the published 8-deck counts: Player 1:1, Banker 19:20, ties push; Tie 8:1.
RTP = {
    "player": 1 + P_PLAYER - P_BANKER,
    "banker": 1 + Fraction(19, 20) * P_BANKER - P_PLAYER,
    "tie": 9 * P_TIE,
    "player_pair": 12 * player_pair_probability(Shoe.decks(8)),
    "banker_pair": 12 * player_pair_probability(Shoe.decks(8)),
}


def _by_bet(checks: list[Check] | tuple[Check, ...], rule: RuleKind) -> dict[str, Check]:
    return {c.bet: c for c in checks if c.rule is rule}


@pytest.mark.parametrize(
    ("profile", "limit"), [("adm", Fraction(9, 10)), ("mga", Fraction(85, 100))]
)
def test_minimum_rtp_profiles_against_spec_figures(
    profile: str, limit: Fraction, classic: Paytable
) -> None:
    checks = _by_bet(check_paytable_against(classic, profile).checks, RuleKind.MIN_RTP)
    assert len(checks) == len(classic.bets)
    for bet_id, rtp in RTP.items():
        c = checks[bet_id]
        assert (c.value, c.limit) == (rtp, limit)
        assert c.verdict is (Verdict.PASS if rtp >= limit else Verdict.FAIL)
    # Tie 8:1 (RTP 85.64%) is below Italy's 90% and above Malta's 85%
    assert checks["tie"].verdict is (Verdict.FAIL if profile == "adm" else Verdict.PASS)
    assert checks["player_pair"].verdict is (Verdict.FAIL if profile == "adm" else Verdict.PASS)
    assert checks["tie"].source.startswith("«Giochi di carte" if profile == "adm" else "MGA (2021)")


def test_gli_11_top_award_is_the_largest_win_and_its_probability(classic: Paytable) -> None:
    checks = _by_bet(check_paytable_against(classic, "gli-11").checks, RuleKind.TOP_AWARD_MAX_ODDS)
    assert checks["tie"].value == P_TIE
    assert checks["player_pair"].value == player_pair_probability(Shoe.decks(8))
    assert checks["banker"].value == P_BANKER  # 19:20 is its only win
    assert {c.limit for c in checks.values()} == {Fraction(1, 100_000_000)}
    assert all(c.verdict is Verdict.PASS for c in checks.values())
    assert checks["tie"].note == "largest win 8 to 1"


def _game(bets: dict[str, Any], decks: int = 8) -> Paytable:
    table, problems = parse_paytable({"name": "Test", "decks": decks, "bets": bets})
    assert problems == [] and table is not None
    return table


def test_top_award_limit_is_exact_on_a_brute_forced_shoe() -> None:
    """A rare award on a 10-card shoe, its probability counted over every physical sequence:
    N = ⌈1/p⌉ passes (p ≥ 1/N) and N − 1 fails, with the profile's exception in the note."""
    shoe = Shoe.from_options(decks=1, remove=" ".join(["2 3 4 5 6 7 8 T J Q"] * 4) + " A K")
    assert shoe.size == 10  # three aces, four nines, three kings
    joint = physical_joint(shoe)
    hits = sum(
        n
        for o, n in joint.items()
        if o.player.natural and o.player.total == 9 and o.banker.total == 0
    )
    p = Fraction(hits, sum(joint.values()))
    assert 0 < p < Fraction(1, 10)
    table = _game(
        {
            "nine": {
                "rows": [
                    {
                        "when": "player.natural and player.total == 9 and banker.total == 0",
                        "pays": "100:1",
                    },
                    {"when": "player.wins", "pays": "1:1"},
                    {"when": "otherwise", "pays": "lose"},
                ]
            }
        }
    )
    n = -(-p.denominator // p.numerator)  # ⌈1/p⌉
    for odds, verdict in ((n, Verdict.PASS), (n - 1, Verdict.FAIL)):
        profile, problems = parse_profile(
            {
                "name": "T",
                "allow_player_edge": True,
                "rules": {"top_award_max_odds": {"limit": odds, "exception": "Unless shown."}},
            }
        )
        assert profile is not None and problems == []
        (c,) = check_paytable_against(table, [profile], shoe=shoe).checks
        assert (c.value, c.limit, c.verdict) == (p, Fraction(1, odds), verdict)
        assert c.note == (
            "largest win 100 to 1" + ("; Unless shown." if verdict is Verdict.FAIL else "")
        )


def test_a_bet_that_never_wins_has_no_top_award() -> None:
    table = _game({"refund": {"rows": [{"when": "otherwise", "pays": "push"}]}})
    (top, low, high) = check_paytable_against(
        table, [_house({"top_award_max_odds": 10, "min_rtp": "100%", "max_rtp": "100%"})]
    ).checks
    assert (top.rule, top.verdict, top.note) == (
        RuleKind.TOP_AWARD_MAX_ODDS,
        Verdict.NA,
        "the bet never wins",
    )
    assert (low.value, low.verdict, high.verdict) == (Fraction(1), Verdict.PASS, Verdict.PASS)


def _house(rules: dict[str, Any]) -> Profile:
    """A profile of these rules only (no :data:`NO_PLAYER_EDGE` beside them)."""
    profile, problems = parse_profile({"name": "House", "allow_player_edge": True, "rules": rules})
    assert profile is not None, problems
    return profile


def _only(name: str) -> list[Profile]:
    """The bundled profile ``name`` with its own rules only (``--allow-player-edge``)."""
    return [load_profile(name).allowing_player_edge()]


def test_a_value_next_to_its_limit_is_shown_with_the_digits_that_tell_them_apart(
    classic: Paytable,
) -> None:
    """Tie RTP 85.640371…% against a limit of 85.6404%: both round to 85.6404% at 4 places."""
    (tie,) = check_paytable_against(classic, [_house({"min_rtp": "85.6404%"})]).for_bet("tie")
    assert tie.value == RTP["tie"] < Fraction(856404, 10**6) == tie.limit
    assert (tie.verdict, describe_value(tie)) == (Verdict.FAIL, "85.640371%")


def test_maximum_rtp_flags_a_player_favourable_bet() -> None:
    table = _game(
        {
            "generous": {
                "rows": [
                    {"when": "player.wins", "pays": "6:5"},
                    {"when": "winner == tie", "pays": "push"},
                    {"when": "otherwise", "pays": "lose"},
                ]
            }
        }
    )
    (c,) = check_paytable_against(table, [_house({"max_rtp": "100%"})]).checks
    assert c.value == 1 + Fraction(6, 5) * P_PLAYER - P_BANKER > 1
    assert c.verdict is Verdict.FAIL


def test_rounded_returns_are_checked_at_their_worst_stake() -> None:
    """Touch pays Banker 1.95 for 1 rounded down to the cent: a 0.10 stake gets 0.19 back,
    so it nets 0.9 per unit on a Banker win (hand-checked), the lowest RTP over the stakes."""
    touch = load_paytable("touch")
    checks = _by_bet(
        check_paytable_against(touch, [_house({"min_rtp": "0.9", "max_rtp": 1})]).checks,
        RuleKind.MIN_RTP,
    )
    assert checks["banker"].value == 1 + Fraction(9, 10) * P_BANKER - P_PLAYER
    assert checks["banker"].note.endswith("at stake 0.1")
    high = _by_bet(check_paytable_against(touch, [_house({"max_rtp": 1})]).checks, RuleKind.MAX_RTP)
    assert high["banker"].value == RTP["banker"]  # exact at stake 0.20: 0.39 back
    assert high["banker"].note.endswith("at stake 0.2")


def test_nj_notation_depends_on_the_sheet(classic: Paytable) -> None:
    checks = check_paytable_against(classic, _only("nj")).checks
    assert {(c.value, c.limit, c.verdict) for c in checks} == {("both", "to", Verdict.FAIL)}
    assert "use --notation to" in checks[0].note
    assert all(
        c.verdict is Verdict.PASS
        for c in check_paytable_against(classic, _only("nj"), notation=Notation.TO).checks
    )
    assert all(
        c.verdict is Verdict.FAIL
        for c in check_paytable_against(classic, _only("nj"), notation=Notation.FOR).checks
    )
    assert checks[0].source.startswith("N.J.A.C. 13:69F-13.6(a)")


def test_a_partial_loss_cannot_be_stated_to(classic: Paytable) -> None:
    """Paytable files cannot write one ("returns less than the stake"), but the API can."""
    player = classic.round_bet("player")
    half = Row(parse_condition("winner == tie"), Payout(Fraction(-1, 2), "0.5 for 1"), "Tie")
    bet = replace(player, id="half", rows=(player.rows[0], half, player.rows[2]))
    table = replace(classic, bets=(bet,))
    (c,) = check_paytable_against(table, _only("nj"), notation=Notation.TO).checks
    assert c.verdict is Verdict.FAIL and "'Tie' (0.5 for 1)" in c.note
    (c,) = check_paytable_against(
        table, [_house({"payout_notation": "for"})], notation=Notation.FOR
    ).checks
    assert c.verdict is Verdict.PASS


def test_checks_run_on_the_shoe_and_rules_in_use(classic: Paytable) -> None:
    six = Shoe.decks(6)
    (pair,) = run_checks(
        _only("mga"), joint_distribution(six), [classic.round_bet("player_pair")]
    ).checks
    assert pair.value == 12 * player_pair_probability(six) != RTP["player_pair"]
    mini = check_paytable_against(classic, "adm", tableau=load_paytable("mini").tableau)
    assert mini.for_bet("player_pair")[0].value == RTP["player_pair"]  # pairs ignore the tableau
    assert mini.for_bet("tie")[0].value != RTP["tie"]


# -- profile files ------------------------------------------------------------------------------


def test_bundled_profiles_cite_their_sources() -> None:
    expected = {
        "adm": (RuleKind.MIN_RTP, Fraction(9, 10), "non può essere inferiore al 90%"),
        "mga": (RuleKind.MIN_RTP, Fraction(85, 100), "eighty-five per cent (85%)"),
        "gli-11": (
            RuleKind.TOP_AWARD_MAX_ODDS,
            100_000_000,
            "at least once in every 100 million games",
        ),
        "nj": (
            RuleKind.PAYOUT_NOTATION,
            Notation.TO,
            'no odds shall be stated through the use of the word "for."',
        ),
    }
    for name, (kind, limit, quote) in expected.items():
        p = load_profile(name)
        (rule, *more, own) = p.rules  # the profile's, then exactodds' own
        assert own is NO_PLAYER_EDGE
        assert len(more) == (1 if name == "nj" else 0)  # nj: progressive jackpots
        assert (rule.kind, rule.limit) == (kind, limit)
        assert quote in rule.source and p.source and p.sha256 and p.file == f"profiles/{name}.toml"
    assert "prominently displays the actual odds" in load_profile("gli-11").rules[0].exception
    progressive = load_profile("nj").rules[1]  # issue 27
    assert (progressive.kind, progressive.limit) == (RuleKind.PROGRESSIVE_MAX_ODDS, 100_000_000)
    assert "shall not exceed 100 million to one" in progressive.source


def test_a_user_profile_file_in_both_forms(write_file: WriteFile, classic: Paytable) -> None:
    path = write_file(
        "house.toml",
        'name = "House"\nsource = "Our brief"\n[rules]\nmin_rtp = "92.5%"\nmax_rtp = 1\n'
        "top_award_max_odds = 1_000\n"
        'payout_notation = { limit = "to", source = "Section 4" }\n',
    )
    p = load_profile(path)
    assert [(r.kind, r.limit, r.source) for r in p.rules] == [
        (RuleKind.MIN_RTP, Fraction(925, 1000), ""),
        (RuleKind.MAX_RTP, Fraction(1), ""),
        (RuleKind.TOP_AWARD_MAX_ODDS, 1000, ""),
        (RuleKind.PAYOUT_NOTATION, Notation.TO, "Section 4"),
    ]
    c = check_paytable_against(classic, [p], notation=Notation.TO)
    assert {k.source for k in c.checks if k.rule is RuleKind.MIN_RTP} == {"Our brief"}
    low = _by_bet(c.checks, RuleKind.MIN_RTP)
    assert [low[b].verdict for b in ("player", "banker", "tie")] == [
        Verdict.PASS,
        Verdict.PASS,
        Verdict.FAIL,
    ]
    bonus = PUBLISHED["house_edge"]["player_bonus"]  # 2.6517%: RTP 97.3483% ≥ 92.5%
    assert round(100 * (1 - Fraction(low["player_bonus"].value)), bonus["decimals"]) == Fraction(
        bonus["percent"]
    )
    assert low["player_bonus"].verdict is Verdict.PASS
    assert [k.verdict for k in c.checks if k.rule is RuleKind.PAYOUT_NOTATION] == [
        Verdict.PASS
    ] * len(classic.bets)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('"90%"', Fraction(9, 10)),
        ('"0.9"', Fraction(9, 10)),
        ("0.9", Fraction(9, 10)),
        ('"90.125 %"', Fraction(721, 800)),
        ("1", Fraction(1)),
    ],
)
def test_percentages_and_decimals_are_exact(
    write_file: WriteFile, value: str, expected: Fraction
) -> None:
    path = write_file("house.toml", f'name = "H"\n[rules]\nmin_rtp = {value}\n')
    assert load_profile(path).rules[0].limit == expected


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            'name = "H"\ncolour = "red"\n[rules]\nmin_rtp = "90%"\n',
            "house.toml:2: unknown key 'colour'",
        ),
        (
            'name = "H"\n[rules]\nmin_rtp = "90%"\nmin_odds = 3\n',
            "house.toml:4: rules: unknown rule 'min_odds'",
        ),
        (
            'name = "H"\n[rules.min_rtp]\nlimit = "90%"\nsorce = "x"\n',
            "house.toml:4: rules.min_rtp: unknown key 'sorce'",
        ),
        (
            'name = "H"\n[rules]\nmin_rtp = "ninety"\n',
            "house.toml:3: rules: min_rtp 'ninety' is not a percentage",
        ),
        ('name = "H"\n[rules]\nmin_rtp = "90"\n', "min_rtp 90 is above 200%"),
        ('name = "H"\n[rules]\nmin_rtp = -0.1\n', "is negative"),
        ('name = "H"\n[rules]\nmax_rtp = 1e400\n', "exponent beyond ±30"),
        ('name = "H"\n[rules]\nmax_rtp = 1e-400\n', "exponent beyond ±30"),
        ('name = "H"\n[rules]\nmin_rtp = "1234567890%"\n', "is not a percentage"),
        ('name = "H"\n[rules]\nmin_rtp = "\u0669\u0660%"\n', "is not a percentage"),
        (
            'name = "H"\n[rules]\ntop_award_max_odds = 100000000000000000000\n',
            "whole number of rounds from 1 to 1e+15",
        ),
        ('name = "H"\n[rules]\ntop_award_max_odds = 0\n', "whole number of rounds"),
        ('name = "H"\n[rules]\ntop_award_max_odds = true\n', "whole number of rounds"),
        ('name = "H"\n[rules]\npayout_notation = "by"\n', "must be 'to' or 'for'"),
        ('name = "H"\n[rules]\nmin_rtp = nan\n', "house.toml:3: 'nan' is not a finite number"),
        ('name = "H"\n[rules]\nmin_rtp = inf\n', "house.toml:3: 'inf' is not a finite number"),
        (
            'name = "H"\n[rules]\ntop_award_max_odds = ' + "9" * 5000 + "\n",
            "has more than 30 digits",
        ),
        ('name = "H"\n', "no rules"),
        ('source = "x"\n[rules]\nmin_rtp = "90%"\n', "missing 'name'"),
        ('name = "H"\n[rules.min_rtp]\nsource = "x"\n', "missing 'limit'"),
        ("name = [1]\n[rules]\nmin_rtp = 1\n", "'name' must be a text"),
        ('name = "H"\n[rules\n', "invalid TOML"),
    ],
)
def test_bad_profile_files_are_refused_with_file_and_line(
    write_file: WriteFile, text: str, needle: str
) -> None:
    path = write_file("house.toml", text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert needle in str(info.value)
    assert isinstance(info.value, ExactOddsError)


def test_a_profile_with_several_problems_names_the_first_and_counts_the_rest(
    write_file: WriteFile,
) -> None:
    path = write_file("house.toml", 'name = 5\n[rules]\nmin_rtp = "ninety"\nodds = 1\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message, problems = str(info.value), info.value.problems
    assert "\n" not in message and message.endswith(" (and 2 more problems in this profile)")
    assert message.startswith(f"{path}:1: 'name' must be a text") and len(problems) == 3
    assert [p.split(": ", 1)[0] for p in problems] == [f"{path}:{n}" for n in (1, 3, 4)]


def test_profile_names_and_lists(tmp_path: Path, write_file: WriteFile) -> None:
    with pytest.raises(ProfileError, match=r"^adn: file not found \(bundled profiles: adm, gli"):
        load_profile("adn")
    with pytest.raises(ProfileError, match=r"^x+…x+: file not found \(bundled profiles: adm,"):
        load_profile("x" * 5000)  # too long a name for a file: no bundled profile either
    with pytest.raises(ProfileError, match=r"^gli-11\.tom: file not found"):
        load_profile("gli-11.tom")
    assert load_profile("gli-11.toml").id == "gli-11"  # a bundled name, as paytables take it
    with pytest.raises(ProfileError, match="file not found"):
        load_profile(tmp_path / "missing.toml")
    with pytest.raises(ProfileError, match="not a regular file"):
        load_profile(str(tmp_path) + "/")
    with pytest.raises(ProfileError, match="names profile 'mga' twice"):
        load_profiles("mga,gli-11,mga")
    with pytest.raises(ProfileError, match="needs profile names"):
        load_profiles("adm,,mga")
    mine = write_file("mine.toml", 'name = "H"\n[rules]\nmin_rtp = "90%"\n')
    with pytest.raises(ProfileError, match=r"names profile .* twice"):  # one file, two spellings
        load_profiles([str(mine), str(mine.parent / "." / mine.name)])
    with pytest.raises(ProfileError, match=r"names profile .* twice"):
        load_profiles(["adm", str(bundled_dir("profiles") / "adm.toml")])
    big = write_file("big.toml", "#" * (1 << 20) + '\nname = "H"\n')
    with pytest.raises(ProfileError, match="larger than"):
        load_profile(big)
    assert [p.id for p in load_profiles(" gli-11 , adm ")] == ["gli-11", "adm"]


# -- exactodds' own rule: no bet favours the player -----------------------------------------------

GENEROUS = (
    'name = "Generous"\ndecks = 8\n[bets.generous]\nname = "Generous Player"\nrows = [\n'
    '  { when = "player.wins", pays = "6:5" },\n  { when = "winner == tie", pays = "push" },\n'
    '  { when = "otherwise", pays = "lose" },\n]\n'
)
GENEROUS_RTP = 1 + Fraction(6, 5) * P_PLAYER - P_BANKER
"""Player paid 6:5, ties push: above 100% from the published 8-deck counts (about 107.7%)."""


@pytest.mark.parametrize("name", ["adm", "gli-11", "mga", "nj"])
def test_every_bundled_profile_fails_a_player_favourable_bet(
    name: str, write_file: WriteFile
) -> None:
    table = load_paytable(write_file("generous.toml", GENEROUS))
    (own,) = [
        c
        for c in check_paytable_against(table, name, notation=Notation.TO).checks
        if c.rule is RuleKind.MAX_RTP
    ]
    assert GENEROUS_RTP > 1
    assert (own.value, own.limit, own.verdict) == (GENEROUS_RTP, Fraction(1), Verdict.FAIL)
    assert own.source.startswith("exactodds' own rule") and "--allow-player-edge" in own.note
    allowed = check_paytable_against(table, [load_profile(name).allowing_player_edge()])
    assert all(c.rule is not RuleKind.MAX_RTP for c in allowed.checks)


def test_a_profile_may_allow_a_player_edge_or_set_its_own_maximum() -> None:
    assert _house({"min_rtp": "90%"}).rules == (Rule(RuleKind.MIN_RTP, Fraction(9, 10)),)
    strict, _ = parse_profile({"name": "Strict", "rules": {"min_rtp": "90%"}})
    assert strict is not None and strict.rules[-1] is NO_PLAYER_EDGE
    own, _ = parse_profile({"name": "Own", "rules": {"max_rtp": "110%"}})
    assert own is not None and own.rules == (Rule(RuleKind.MAX_RTP, Fraction(11, 10)),)
    _, problems = parse_profile(
        {"name": "Bad", "allow_player_edge": "yes", "rules": {"max_rtp": 1}}
    )
    assert problems == ["<profile>: 'allow_player_edge' must be true or false, not 'yes'"]
