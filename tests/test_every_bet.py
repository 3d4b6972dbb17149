"""Every bet first class (issue 32): a streak bet is found by ``Paytable.bet``, listed by
``Paytable.every_bet`` and by every consumer that lists bets; a paytable holding only a streak
bet is a paytable. Figures are checked against p^k (1 − p) summed by hand, p from the
brute-force dealer on a small shoe."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.kinds import settles_one_round
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Bet
from exactodds.bets.paytable_toml import load_text
from exactodds.bets.streak import StreakBet, StreakFigures
from exactodds.deal.shoe import Shoe
from exactodds.errors import PaytableError
from tests.bruteforce import outcome_winner
from tests.cli_helpers import Cli

STREAK_ONLY = """\
name = "Only a streak"
decks = 1
[bets.tiger_tail]
name = "Tiger Tail"
streak = "banker.wins"
max_streak = 3
rows = [ { when = "streak >= 3", pays = "9:1", event = "3 wins" },
         { when = "streak == 2", pays = "2:1", event = "2 wins" },
         { when = "otherwise", pays = "lose" } ]
"""


def test_bet_finds_a_streak_bet_and_round_bet_refuses_it() -> None:
    table = load_paytable("banker-streak")
    streak = table.bet("banker_streak")
    assert isinstance(streak, StreakBet) and not settles_one_round(streak)
    assert isinstance(table.bet("tie"), Bet) and settles_one_round(table.bet("tie"))
    assert [b.id for b in table.every_bet] == [
        "player",
        "banker",
        "tie",
        "banker_streak",
        "banker_streak_2",
    ]
    with pytest.raises(PaytableError) as refused:
        table.round_bet("banker_streak", "solve")
    assert str(refused.value).endswith(
        "'banker_streak' is a streak bet, settled over several rounds: solve handles bets "
        "settled on one round only"
    )
    with pytest.raises(PaytableError, match="did you mean 'banker_streak'"):
        table.bet("banker_streek")


def test_a_paytable_of_one_streak_bet_loads() -> None:
    table = load_text(STREAK_ONLY)
    assert table.bets == () and [b.id for b in table.every_bet] == ["tiger_tail"]
    assert repr(table) == "<Paytable 'Only a streak': 1 decks, punto-banco, 1 bets>"
    headers, rows = table._rows()
    assert headers == ("bet", "event", "when", "pays", "streak")
    assert rows[0] == ("tiger_tail", "3 wins", "streak >= 3", "9:1", "banker.wins")


SMALL = Shoe.decks(1).remove("A 2 3 4 5 6 7 8 9 T J Q K " * 3 + "2 4 6 8 T")  # 8 cards


def test_streak_figures_are_p_to_the_k_with_p_from_the_brute_force_dealer() -> None:
    """Tiger Tail on an 8-card shoe (rounds independent): 3 wins pay 9, 2 wins pay 2, else
    lose; p = P(Banker wins) by dealing all 20,160 ordered six-card sequences by hand."""
    from exactodds.deal.round import Winner
    from exactodds.figures.metrics import AnyFigures, paytable_figures, per
    from tests.bruteforce import physical_joint

    joint = physical_joint(SMALL)
    p = Fraction(sum(n for o, n in joint.items() if outcome_winner(o) is Winner.BANKER),
                 sum(joint.values()))  # fmt: skip
    assert 0 < p < 1
    ev = 9 * p**3 + 2 * p**2 * (1 - p) - (1 - p) - p * (1 - p)
    second = 81 * p**3 + 4 * p**2 * (1 - p) + (1 - p) + p * (1 - p)
    (f,) = paytable_figures(load_text(STREAK_ONLY), shoe=SMALL)
    assert (f.rtp, f.house_edge, f.variance) == (1 + ev, -ev, second - ev**2)
    assert f.hit_frequency == p**2 and (f.largest_win, f.largest_win_probability) == (
        Fraction(9),
        p**3,
    )
    figures: AnyFigures = f
    assert per(figures) == "bet (rounds independent)" and figures.offer_probability is None
    assert isinstance(f, StreakFigures) and f.expected_rounds == 1 + p + p**2


def test_notebook_tables_and_comparisons_list_streak_bets() -> None:
    pd = pytest.importorskip("pandas")
    from exactodds.figures.metrics import compare_paytables, paytable_figures

    table = load_paytable("banker-streak")
    figures = paytable_figures(table)
    df = figures.to_frame().set_index("bet")
    assert list(df.index) == [b.id for b in table.every_bet]
    # Source: Wizard of Odds, "Banker Streak", pay table 1: return -0.094006.
    assert f"{float(df.loc['banker_streak', 'house_edge']):.6f}" == "0.094006"
    assert df.loc["banker_streak", "per"] == "bet (rounds independent)"
    assert df.loc["banker", "per"] == "round"
    assert "banker_streak" in figures._repr_html_() and "Banker Streak" in table._repr_html_()
    streak = figures[3]
    assert "banker.wins" in streak._repr_html_()
    rows = streak.to_frame()
    assert isinstance(rows, pd.DataFrame) and rows["probability"].sum() == 1
    edited = table.with_payout("banker_streak", "9", "100:1")
    diff = compare_paytables(table, edited).set_index("bet")
    # Source: the same pay table 1 analysis: 9 wins pay 150 and return 0.072861; paid 100,
    # a third of that return is lost (the pay table 2 figure of tests/test_streak.py).
    change = diff.loc["banker_streak", "house_edge_change"]
    assert isinstance(streak, StreakFigures)
    assert change == 50 * streak.probabilities[1]
    assert f"{float(change):.6f}" == "0.024287"
    assert diff.loc["tie", "house_edge_change"] == 0


def test_every_sheet_format_lists_a_streak_bet_in_its_summary_and_paytable(
    cli: Cli, tmp_path: Path
) -> None:
    """A paytable of one streak bet (it was refused): its Markdown and HTML Summary and
    Paytable sections list the bet, marked as a streak bet; JSON and CSV give it every figure
    a round bet has, under the same keys, rounds independent."""
    from exactodds.bets.streak import STREAK_LEGEND, streak_figures
    from exactodds.numbers import exact, percent

    path = tmp_path / "tiger.toml"
    path.write_text(STREAK_ONLY, encoding="utf-8")
    table = load_text(STREAK_ONLY)
    f = streak_figures(table.streaks[0], table.shoe, table.tableau)
    outputs = {}
    for fmt in ("md", "json", "csv", "html"):
        code, out, err = cli(["report", str(path), "--format", fmt, "--date", "2024-01-01"])
        assert (code, err) == (0, ""), fmt
        outputs[fmt] = out
    md = outputs["md"]
    summary = md[md.index("## Summary") : md.index("## Game")]
    (row,) = [line for line in summary.splitlines() if "`tiger_tail`" in line]
    cells = [c.strip() for c in row.split("|")[2:-1]]
    # House edge, per resolved bet, RTP, hit frequency (p², the two rows that win), std dev,
    # largest win, its odds, max round, flag (none for a streak bet, as the designer keeps it):
    # Tiger Tail at 9:1 favours the player here, its edge negative.
    assert cells[:4] == [percent(f.house_edge), percent(f.house_edge), percent(f.rtp),
                         percent(f.p**2)]  # fmt: skip
    assert cells[5:] == ["9 to 1", f"1 in {float(1 / f.p**3):,.2f}", "—", ""]  # no flag
    assert f.house_edge < 0 and json.loads(outputs["json"])["streaks"][0]["player_favourable"]
    assert STREAK_LEGEND in summary
    paytable = md[md.index("## Paytable") : md.index("## Streak bets")]
    assert "## Bets" not in md  # no round bet: no empty section
    assert "| Tiger Tail (`tiger_tail`) ‡ | 3 wins" in paytable and "`streak == 2`" in paytable
    data = json.loads(outputs["json"])
    (streak,) = data["streaks"]
    assert (data["bets"], streak["model"]) == ([], "rounds independent")
    keys = {"house_edge", "rtp", "hit_frequency", "largest_win", "largest_win_probability"}
    assert keys <= set(streak) and streak["rtp"] == exact(f.rtp)
    assert streak["largest_win_probability"] == exact(f.p**3)
    lines = list(csv.DictReader(io.StringIO(outputs["csv"])))
    edge = next(x for x in lines if x["kind"] == "streak_figure" and x["item"] == "house_edge")
    assert edge["exact"] == exact(f.house_edge)
    html = outputs["html"]
    summary_html = html[html.index('id="summary"') : html.index('id="game"')]
    assert "Tiger Tail" in summary_html and 'data-bet="tiger_tail"' in summary_html


def test_eor_of_a_streak_bet_is_exact_from_the_brute_force_dealer() -> None:
    """The EOR of Tiger Tail on the 8-card shoe: EV(p less a card) − EV(p), each p dealt by
    hand on the shoe less that card, EV the hand sum above."""
    from exactodds.analysis.eor import no_bets, with_streak_bets
    from exactodds.deal.round import Winner
    from exactodds.deal.shoe import RANKS, Card
    from tests.bruteforce import physical_joint

    def ev(shoe: Shoe) -> Fraction:
        joint = physical_joint(shoe)
        wins = sum(n for o, n in joint.items() if outcome_winner(o) is Winner.BANKER)
        p = Fraction(wins, sum(joint.values()))
        return 9 * p**3 + 2 * p**2 * (1 - p) - (1 - p) - p * (1 - p)

    (bet,) = load_text(STREAK_ONLY).streaks
    result = with_streak_bets(no_bets(SMALL), [bet])
    base = ev(SMALL)
    assert result.ev == {"tiger_tail": base} and result.streaks == ("tiger_tail",)
    for r, rank in enumerate(RANKS):
        held = [s for s in range(4) if SMALL.counts[r][s]]
        if not held:
            assert result.eor["tiger_tail"][rank] is None
            continue
        less = sum((ev(SMALL.remove([Card(r, s)])) for s in held), Fraction(0)) / len(held)
        assert result.eor["tiger_tail"][rank] == less - base, rank


def test_compare_gives_a_streak_bet_its_edge_in_every_variant(cli: Cli, tmp_path: Path) -> None:
    """A streak bet's column in compare is its house edge per bet, rounds independent, on each
    variant's shoe (it was left out, with a note on stderr only)."""
    from exactodds.bets.streak import STREAK_LEGEND, condition_probability, streak_figures_at
    from exactodds.deal.tableau import BUILTIN

    path = tmp_path / "tiger.toml"
    path.write_text(STREAK_ONLY, encoding="utf-8")
    (bet,) = load_text(STREAK_ONLY).streaks
    code, out, err = cli(["compare", str(path), "--decks", "1,2", "--bet", "tiger_tail",
                          "--format", "json"])  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["streak_bets"] == {"ids": ["tiger_tail"], "per": "bet, rounds independent"}
    for variant in data["variants"]:
        shoe, rules = Shoe.decks(variant["decks"]), BUILTIN[variant["rules"]]
        p = condition_probability(bet.condition, shoe, rules)
        assert Fraction(variant["house_edge"]["tiger_tail"]) == streak_figures_at(bet, p).house_edge
    edges = {Fraction(v["house_edge"]["tiger_tail"]) for v in data["variants"]}
    assert len(edges) == 2  # the decks move it
    code, md, err = cli(["compare", str(path), "--rules", "mini", "--format", "md"])
    assert (code, err) == (0, "") and "Tiger Tail ‡" in md
    assert STREAK_LEGEND in md.splitlines()
