"""Sessions and programmes (exactodds.session, ``exactodds session``) against sources of their
own: a convolution written here, brute force over every sequence of rounds, the binomial law
and published figures."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.game import GameChoice
from exactodds.bets.loader import load_paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import BetFigures, bet_figures
from exactodds.report.session_render import outward
from exactodds.session import Range, SessionDistribution, dead_chip, session
from exactodds.session.lattice import Round
from exactodds.session.ruin import ruin_probability
from tests.cli_helpers import Cli


@cache
def _figures(name: str, bet: str, decks: int = 8) -> BetFigures:
    table = load_paytable(name)
    return bet_figures(joint_distribution(Shoe.decks(decks), table.tableau), table.round_bet(bet))


def _one_round(f: BetFigures) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    for r in f.rows:
        if r.combinations:
            out[r.net] = out.get(r.net, Fraction(0)) + r.probability
    return out


def _convolve(one: dict[Fraction, Fraction], rounds: int) -> dict[Fraction, Fraction]:
    """The independent reference: the net result's distribution, one round at a time (integer
    weights over a common denominator)."""
    den = math.lcm(*(p.denominator for p in one.values()))
    weights = {v: int(p * den) for v, p in one.items()}
    dist = {Fraction(0): 1}
    for _ in range(rounds):
        nxt: dict[Fraction, int] = {}
        for s, w in dist.items():
            for v, c in weights.items():
                nxt[s + v] = nxt.get(s + v, 0) + w * c
        dist = nxt
    return {s: Fraction(w, den**rounds) for s, w in dist.items()}


def _as_dict(d: SessionDistribution) -> dict[Fraction, Fraction]:
    return {net: p.lower for net, p in d.outcomes()}


@pytest.mark.parametrize(
    ("bet", "decks", "rounds"),
    [("banker", 8, 40), ("player_pair", 8, 300), ("player_bonus", 1, 12), ("tie", 1, 100)],
)
def test_distribution_equals_an_independent_convolution(bet: str, decks: int, rounds: int) -> None:
    f = _figures("classic", bet, decks)
    d = SessionDistribution.compute([(r.net, r.combinations) for r in f.rows], rounds)
    assert d.exact
    assert _as_dict(d) == _convolve(_one_round(f), rounds)


def test_bounds_hold_the_exact_probabilities_and_figures() -> None:
    f = _figures("classic", "banker")
    outcomes = [(r.net, r.combinations) for r in f.rows]
    exact = SessionDistribution.compute(outcomes, 50)
    bounded = SessionDistribution.compute(outcomes, 50, exact=False, digits=30)
    assert not bounded.exact and bounded.size == exact.size
    for p, b in zip(exact.probabilities, bounded.probabilities, strict=True):
        assert b.lower <= p.lower <= b.upper
        assert b.upper - b.lower <= p.lower / 10**30
    for name in ("p_ahead", "p_even", "p_behind", "expected_loss"):
        value, bound = getattr(exact, name).lower, getattr(bounded, name)
        assert bound.lower <= value <= bound.upper
        assert bound.upper - bound.lower < Fraction(1, 10**30)
    for (_, q), (_, b) in zip(exact.percentiles, bounded.percentiles, strict=True):
        assert b == q


def test_a_long_session_is_bounded_and_agrees_with_the_binomial_law() -> None:
    # Tie over 1,001 rounds: P(ahead) = P(9·wins > 1001), wins ~ Binomial(1001, p).
    s = session("classic", "tie", 1001, rebate="10%")
    assert not s.exact and s.distribution.digits == 30
    p = _figures("classic", "tie").hit_frequency
    a, b, n = p.numerator, p.denominator - p.numerator, 1001
    wins = range(n // 9 + 1, n + 1)
    ahead = Fraction(sum(math.comb(n, k) * a**k * b ** (n - k) for k in wins), p.denominator**n)
    assert s.distribution.p_ahead.lower <= ahead <= s.distribution.p_ahead.upper
    assert s.distribution.p_ahead.upper - s.distribution.p_ahead.lower < Fraction(1, 10**30)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(st.fractions(-2, 5, max_denominator=4), st.integers(1, 9)),
        min_size=1,
        max_size=4,
    ),
    st.integers(1, 4),
    st.fractions(1, 4, max_denominator=2),
    st.fractions(0, 1, max_denominator=10),
)
def test_brute_force_over_every_sequence_of_rounds(
    outcomes: list[tuple[Fraction, int]], rounds: int, bankroll: Fraction, rebate: Fraction
) -> None:
    total = sum(c for _, c in outcomes)
    dist: dict[Fraction, Fraction] = {}
    ruined = Fraction(0)
    loss = Fraction(0)
    for seq in itertools.product(outcomes, repeat=rounds):
        p = math.prod((Fraction(c, total) for _, c in seq), start=Fraction(1))
        net = sum((v for v, _ in seq), Fraction(0))
        dist[net] = dist.get(net, Fraction(0)) + p
        loss += p * max(Fraction(0), -net)
        cash = bankroll
        for v, _ in seq:  # below one unit after any round, the last included: ruined
            cash += v
            if cash < 1:
                ruined += p
                break
    d = SessionDistribution.compute(outcomes, rounds)
    got = _as_dict(d)
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in dist.items() if v}
    assert d.expected_loss.exact == loss
    assert d.p_ahead.exact == sum((p for n, p in dist.items() if n > 0), Fraction(0))
    assert ruin_probability(Round.of(outcomes), rounds, bankroll).exact == ruined
    bounded = ruin_probability(Round.of(outcomes), rounds, bankroll, digits=12)
    assert bounded.lower <= ruined <= bounded.upper
    for alpha in (Fraction(1, 40), Fraction(1, 2), Fraction(39, 40)):
        below = sorted(dist)
        cdf = Fraction(0)
        for net in below:
            cdf += dist[net]
            if cdf >= alpha:
                assert d.percentile(alpha).exact == net
                break


def test_published_dead_chip_turnover_and_edges() -> None:
    # Source: Hannum, R. C. & Kale, S. H., "The Mathematics and Marketing of Dead Chip
    # Programmes: Finding and Keeping the Edge", International Gambling Studies 4(1), 2004:
    # a dead chip is wagered 1/P(loss) times, Banker 2.2409, Player 2.1806 (8 decks).
    banker = dead_chip(_figures("classic", "banker"), Fraction(1, 80))
    player = dead_chip(_figures("classic", "player"))
    assert round(float(banker.wagers_per_chip), 4) == 2.2409
    assert round(float(player.wagers_per_chip), 4) == 2.1806
    # Source: Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/basics/), house edge
    # with 8 decks: Banker 1.0579%, Player 1.2351%.
    assert round(float(_figures("classic", "banker").house_edge) * 100, 4) == 1.0579
    assert round(float(_figures("classic", "player").house_edge) * 100, 4) == 1.2351
    # The house's gain per chip is the per-bet edge times the wagers (Wald's identity).
    assert banker.edge_per_chip == _figures("classic", "banker").house_edge * 1 / Fraction(
        2230518282592256, 4998398275503360
    )
    assert banker.edge_after_commission == banker.edge_per_chip - Fraction(1, 80)


def test_dead_chip_edge_is_cash_won_per_chip() -> None:
    # A chip bought for 1 is lost once; before that it wins the bet's payouts in cash.
    f = _figures("classic", "banker")
    one = _one_round(f)
    loss = one[Fraction(-1)]
    cash = sum((v * p for v, p in one.items() if v > 0), Fraction(0)) / loss
    chip = dead_chip(f)
    assert chip.wagers_per_chip == 1 / loss
    assert chip.edge_per_chip == 1 - cash


def test_session_figures_read_from_the_distribution() -> None:
    s = session(
        "classic",
        "banker",
        30,
        bankroll=5,
        rebate=Fraction(1, 10),
        dead_chips=True,
        hands_per_hour=60,
        average_bet=25,
    )
    ref = _convolve(_one_round(s.figures), 30)
    loss = sum((-n * p for n, p in ref.items() if n < 0), Fraction(0))
    assert s.edge_after_rebate == Range.of(s.figures.house_edge - loss / 10 / 30)
    assert s.expected == sum((n * p for n, p in ref.items()), Fraction(0))
    assert s.theo is not None and s.theo.per_hour == 60 * 25 * s.figures.house_edge
    low, high = s.hold_range
    inside = sum((p for n, p in ref.items() if -high.lower <= n <= -low.lower), Fraction(0))
    assert inside >= Fraction(95, 100)


def test_to_frame_and_notebook_display() -> None:
    pytest.importorskip("pandas")
    s = session("classic", "tie", 4)
    frame = s.to_frame()
    # exact columns, each with a float copy for plotting beside it
    assert list(frame.columns) == ["net", "net_float", "probability", "probability_float"]
    assert sum(frame["probability"]) == 1
    html = s._repr_html_()  # every net result of four Tie bets, exact (a tooltip each)
    assert html.count("<tr>") == 1 + 5 and 'title="1/1"' not in html and "simulate" in html
    net, p = s.distribution.outcomes()[-1]  # four Ties at 8:1: +32
    assert net == 32 and f'<td>32</td><td title="{p.lower}">' in html
    bounded = session("classic", "tie", 1001, digits=10)  # past the exact rounds: bounds
    assert not bounded.exact and "<th>probability at most</th>" in bounded._repr_html_()


def test_dead_chips_refused_on_a_bet_that_never_loses(tmp_path: Path, cli: Cli) -> None:
    table = tmp_path / "never.toml"
    table.write_text(
        'name = "Never loses"\ndecks = 8\nrules = "punto-banco"\n'
        '[bets.refund]\nname = "Refund"\nrows = [\n'
        '  { when = "winner == tie", pays = "1:1", event = "Tie" },\n'
        '  { when = "otherwise", pays = "push", event = "No tie" },\n]\n'
    )
    code, out, err = cli(
        ["session", str(table), "--bet", "refund", "--rounds", "5", "--dead-chips"]
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "never loses" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--rounds", "0"], "--rounds 0"),
        (["--rounds", str(10**12)], "over the limit"),
        (["--rounds", "10**12"], "10**12"),
        (["--rounds", "5", "--rebate", "150%"], "150%"),
        (["--rounds", "5", "--bankroll", "nan"], "nan"),
        (["--rounds", "5", "--commission", "1%"], "--dead-chips"),
        (["--rounds", "500000"], "possible net results"),
        (["--rounds", "9" * 5000], "--rounds"),
        (["--rounds", "5", "--bankroll", "9" * 5000], "--bankroll"),
        (["--rounds", "5", "--rebate", "1e400"], "--rebate"),
        (["--rounds", "5", "--digits", "9" * 40], "--digits"),
        (["--rounds", "5", "--hands-per-hour", "-3", "--average-bet", "5"], "--hands-per-hour"),
    ],
)
def test_hostile_values_get_one_line_and_exit_2(args: list[str], needle: str, cli: Cli) -> None:
    code, out, err = cli(["session", "classic", "--bet", "banker", *args])
    assert code == 2 and out == ""
    assert err.startswith("exactodds: error:") and err.count("\n") == 1 and needle in err


def test_json_keys_and_formats(cli: Cli) -> None:
    base = ["session", "classic", "--bet", "banker", "--rounds", "6", "--bankroll", "3"]
    extra = ["--rebate", "10%", "--dead-chips", "--commission", "1.25%"]
    theo = ["--hands-per-hour", "70", "--average-bet", "100"]
    code, out, _ = cli([*base, *extra, *theo, "--format", "json"])
    data = json.loads(out)
    assert code == 0
    for key in (
        "distribution",
        "p_ahead",
        "p_even",
        "percentiles",
        "p_ruin",
        "edge_after_rebate",
        "dead_chip",
        "theo_win_per_hour",
        "hold_95",
        "note",
    ):
        assert key in data
    assert set(data["dead_chip"]) >= {"wagers_per_chip", "edge_per_chip", "edge_after_commission"}
    total = sum(Fraction(e["probability"]) for e in data["distribution"])
    assert total == 1
    assert Fraction(data["theo_win_per_hour"]) == 7000 * Fraction(data["house_edge"])
    for fmt, needle in (("csv", "distribution,"), ("md", "| Figure"), ("html", "<svg")):
        code, out, _ = cli([*base, "--format", fmt])
        assert code == 0 and needle in out and "simulate" in out


def test_report_session_section_in_every_format(tmp_path: Path, cli: Cli) -> None:
    args = ["report", "classic", "--decks", "1", "-b", "banker", "-b", "tie", "--session", "12"]
    args += ["--date", "2024-06-01"]
    one = session("classic", "banker", 12, game=GameChoice(decks=1))
    code, out, err = cli([*args, "--format", "json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["command"].endswith("--session 12") and data["session"]["rounds"] == 12
    banker = data["session"]["bets"][0]
    assert Fraction(banker["p_ahead"]) == one.distribution.p_ahead.exact
    assert (
        Fraction(banker["dead_chip"]["wagers_per_chip"]) == dead_chip(one.figures).wagers_per_chip
    )
    code, out, _ = cli([*args, "--format", "csv"])
    lines = [line for line in out.splitlines() if ",session,p_ahead," in line]
    assert code == 0 and len(lines) == 2
    for fmt in ("md", "html"):
        code, out, _ = cli([*args, "--format", fmt])
        assert code == 0 and "Sessions of 12 rounds" in out and "simulate" in out
    pytest.importorskip("openpyxl")
    code, _, err = cli([*args, "--format", "xlsx", "--out", str(tmp_path)])
    assert code == 0, err
    import openpyxl

    book = openpyxl.load_workbook(tmp_path / "classic.xlsx")
    assert "Session" in book.sheetnames


@pytest.mark.parametrize("rounds", ["0", "1001"])
def test_report_session_refuses_rounds_out_of_range(rounds: str, cli: Cli) -> None:
    code, out, err = cli(["report", "classic", "--session", rounds, "--format", "md"])
    assert code == 2 and out == "" and err.count("\n") == 1 and "--session" in err


@pytest.mark.parametrize(
    ("paytable", "bet", "decks"),
    [("colour-match", "colour_match", 1), ("insurance", "player_0_v_5", 8)],
)
def test_card_level_and_offered_bets(paytable: str, bet: str, decks: int) -> None:
    # A card-level bet (its figures from the card engine) and a bet with an offer (per offered
    # round): the session is the convolution of the bet's own figures on that shoe.
    s = session(paytable, bet, 6, game=GameChoice(decks=decks), dead_chips=True)
    table = load_paytable(paytable)
    joint = joint_distribution(Shoe.decks(decks), table.tableau)
    figures = bet_figures(joint, table.round_bet(bet))
    assert s.figures.rows == figures.rows and s.figures.total == figures.total
    assert _as_dict(s.distribution) == _convolve(_one_round(figures), 6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2**3000), st.integers(1, 2**3000), st.booleans())
def test_outward_decimals_are_bounds(n: int, d: int, up: bool) -> None:
    text = outward(n, d, 30, up)
    mantissa, exponent = text.split("e")
    value = Fraction(mantissa) * Fraction(10) ** int(exponent)
    assert (value >= Fraction(n, d)) if up else (value <= Fraction(n, d))
    assert abs(value - Fraction(n, d)) <= Fraction(n, d) / 10**28


def test_a_long_exact_distribution_is_written_as_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    from exactodds.report import session_render as render

    s = session("classic", "banker", 8)
    monkeypatch.setattr(render, "EXACT_DISTRIBUTION_DIGITS", 100)
    data = render.session_data(s)
    assert data["exact"] and not data["distribution_exact"]
    exact = dict(s.distribution.outcomes())
    for entry in data["distribution"]:
        p = exact[Fraction(entry["net"])].lower
        low, high = (
            Fraction(m) * Fraction(10) ** int(e)
            for m, e in (entry["lower"].split("e"), entry["upper"].split("e"))
        )
        assert low <= p <= high


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2**200), st.integers(-12_000, 60), st.booleans())
def test_binary_bounds_are_bounds(mantissa: int, exponent: int, up: bool) -> None:
    from exactodds.report.session_render import _binary_outward

    value = mantissa * Fraction(2) ** exponent
    text = _binary_outward(mantissa, exponent, 30, up)
    shown = Fraction(text.split("e")[0]) * Fraction(10) ** int(text.split("e")[1])
    assert (shown >= value) if up else (shown <= value)
    assert abs(shown - value) <= value / 10**28


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        # Source: issue 28's measurements on 2 cores: refused after 15 s of work.
        (["--bet", "banker", "--rounds", "100000", "--bankroll", "1000"], ["risk of ruin", "1e8"]),
        # refused after 19 s: bounds that cannot be proven, decided before trying them
        (["--bet", "player_bonus", "--rounds", "100000"], ["both signs", "1.2e10"]),
        # ran past 100 s: 100,001 bounds with binary exponents down to about −340,000
        (["--bet", "tie", "--rounds", "100000", "--format", "json"], ["json output", "1e10"]),
        # took 16 s to print
        (["--bet", "banker", "--rounds", "100000"], ["distribution 1.4e10", "1e10"]),
    ],
)
def test_over_budget_sessions_are_refused_before_any_work(
    args: list[str], needles: list[str], cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exactodds.session import distribution, lattice, ruin

    def no_work(*_: object, **__: object) -> None:
        raise AssertionError("work started before the estimate refused it")

    for module, name in (
        (lattice, "exact_power"),
        (lattice, "bounded_power"),
        (distribution, "exact_power"),
        (distribution, "bounded_power"),
        (ruin, "ruin_probability"),
    ):
        monkeypatch.setattr(module, name, no_work)
    code, out, err = cli(["session", "classic", *args])
    assert code == 2 and out == ""
    assert err.startswith("exactodds: error: --rounds 100,000:") and err.count("\n") == 1
    assert "over the limit of" in err and all(n in err for n in needles)


def test_the_work_estimate_grows_with_rounds_and_output() -> None:
    from exactodds.limits import MAX_SESSION_WORK
    from exactodds.session.work import session_work

    banker = Round.of([(r.net, r.combinations) for r in _figures("classic", "banker").rows])
    small = session_work(banker, 10_000, None, 30, "json")  # issue 28's benchmark: accepted
    assert small.method == "bounded" and small.total <= MAX_SESSION_WORK
    assert small.output > session_work(banker, 10_000, None, 30, "text").output == 0
    # by hand: 390,001 points × 2 terms × 12 × (100 + 19 + 24 bits), the ruin's states at 60 each
    text = session_work(banker, 10_000, Fraction(5), 30, "md")
    assert text.distribution == 390_001 * 2 * 12 * (100 + 19 + 24)
    assert text.ruin == 60 * text.ruin_steps > 0
