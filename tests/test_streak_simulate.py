"""Streak bets in ``exactodds simulate`` (issue 27): played in the dealt shoes by the one-shoe
model's rule, agreeing with the exact independent-rounds return, the same whatever the chunking,
and the same bets as :func:`~exactodds.analysis.streak.simulate_streak` on the same seed."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

from exactodds.analysis.batch import compile_bets
from exactodds.analysis.simulate import simulate
from exactodds.analysis.simulation import Simulation
from exactodds.analysis.streak import simulate_streak
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.engine import joint_distribution
from exactodds.deal.shoe import Shoe
from tests.cli_helpers import Cli

# A one-deck table with a low-variance streak bet: even money on the next round being a Banker
# win (max_streak = 1), so a short run gives a narrow range around the exact return 2p.
NEXT_BANKER = """\
name = "Next Banker"
decks = 1
[bets.tie]
rows = [ { when = "winner == tie", pays = "8:1" }, { when = "otherwise", pays = "lose" } ]
[bets.next_banker]
streak = "banker.wins"
max_streak = 1
rows = [ { when = "streak >= 1", pays = "1:1" }, { when = "otherwise", pays = "lose" } ]
"""


@cache
def banker_streak() -> Paytable:
    return load_paytable("banker-streak")


def _run(table: Paytable, shoe: Shoe, shoes: int, seed: int, chunk: int | None) -> Simulation:
    evaluator = compile_bets([table.round_bet("tie")], table.tableau)
    return simulate(evaluator, shoe, shoes=shoes, seed=seed, chunk=chunk, streak_bets=table.streaks)


def test_simulated_rtp_agrees_with_the_exact_independent_model(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "next.toml"
    path.write_text(NEXT_BANKER, encoding="utf-8")
    table = load_paytable(str(path))
    p = _banker_wins(Shoe.decks(1))
    # The one-shoe model is the engine's play (the next test), without the EVs of perfect play.
    long = simulate_streak(table.streaks[0], table.shoe, table.tableau, 2_000, seed=3)
    assert long.bets > 10_000 and long.covers(2 * p) and long.half_width < 0.03
    code, out, err = cli(["simulate", str(path), "--shoes", "60", "--seed", "3", "--format",
                          "json"])  # fmt: skip
    assert code == 0, err
    run = json.loads(out)["streaks"]["next_banker"]
    assert Fraction(run["independent_rtp"]) == 2 * p  # pays 1:1 when the next round is Banker's
    assert Fraction(run["returned"]) == run["bets"] + Fraction(run["net"])
    assert Fraction(run["rtp"]) == Fraction(run["returned"]) / run["bets"]
    low, high = run["range_99"]
    assert run["covers_independent"] == (low <= 2 * p <= high)


def test_the_engine_plays_as_the_one_shoe_model_whatever_the_chunks() -> None:
    t = banker_streak()
    shoe = Shoe.decks(1)
    whole = _run(t, shoe, 60, 11, None)
    pieces = _run(t, shoe, 60, 11, 7)  # bets run on across chunk boundaries
    assert whole.streaks == pieces.streaks
    for run, bet in zip(whole.streaks, t.streaks, strict=True):
        model = simulate_streak(bet, shoe, t.tableau, 60, seed=11)
        assert run.dealt == model  # same bets, nets and per-shoe sums
        assert run.independent_rtp == Fraction(1) + _independent_ev(t, shoe, bet.id)
    other = _run(t, shoe, 60, 12, None)
    assert other.streaks[0].dealt.net != whole.streaks[0].dealt.net


def _independent_ev(t: Paytable, shoe: Shoe, bet_id: str) -> Fraction:
    """p^k (1 − p) summed by hand over the bet's rows (max_streak 10)."""
    p = _banker_wins(shoe)
    bet = next(b for b in t.streaks if b.id == bet_id)
    ev = sum((p**k * (1 - p) * bet.rows[bet.row_of(k)].pays.net for k in range(10)), Fraction())
    return ev + p**10 * bet.rows[0].pays.net


def test_simulate_states_the_streak_section(cli: Cli) -> None:
    code, out, err = cli(["simulate", "banker-streak", "--decks", "1", "--shoes", "5"])
    assert code == 0, err
    assert "## Streak bets" in out and "goes on over the rounds of the next shoe" in out
    assert "leaves out" not in err


def _banker_wins(shoe: Shoe) -> Fraction:
    """P(Banker wins) on one round from the full shoe, by the Banker bet's first row."""
    t = banker_streak()
    joint = joint_distribution(shoe, t.tableau)
    return Fraction(t.round_bet("banker").row_combinations(joint)[0], joint.total)


def test_the_notebook_views_list_the_streak_bets() -> None:
    """``to_frame`` and ``_repr_html_`` of a run list each streak bet after the round bets: the
    bets it settled, their dealt net result, and the expected gain of as many bets at the exact
    independent-rounds EV (the Wizard of Odds' −0.094006 for Banker Streak on 8 decks: here the
    exact figure of one deck, from :func:`streak_figures`)."""
    from exactodds.bets.streak import streak_figures

    table = banker_streak()
    sim = _run(table, Shoe.decks(1), 3, 7, None)
    frame = sim.to_frame().set_index("bet")
    assert list(frame.index) == ["tie", *(b.id for b in table.streaks)]
    for bet, run in zip(table.streaks, sim.streaks, strict=True):
        ev = streak_figures(bet, Shoe.decks(1), table.tableau).ev
        row = frame.loc[bet.id]
        assert row["bet_rounds"] == run.dealt.bets > 0
        assert row["bet_frequency"] == Fraction(run.dealt.bets, sim.rounds)
        assert (row["edge_when_betting"], row["expected_gain"]) == (ev, run.dealt.bets * ev)
        assert row["realized_gain"] == run.dealt.net
        assert bet.id in sim._repr_html_()
