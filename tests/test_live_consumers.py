"""Consumers of bets with a fee, multipliers or a peek (issue 34): check judges their exact
figures per money paid and the top multiplied award; solve finds a fee, a base pay or a weight
for a target RTP (plugged back into the exact figures); every command that cannot count such a
bet leaves it out, names it in its output and exits 3 — never a wrong number."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.bets.multipliers import Multiply
from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Bet, Paytable
from exactodds.cli.common import EXIT_INCOMPLETE
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.figures.metrics import bet_figures
from exactodds.figures.solve_live import _rescaled, solve_fee, solve_live_pay, solve_weight
from tests.cli_helpers import Cli

LIGHTNING = "tests/data/live-lightning.toml"
PEEK = "tests/data/live-peek.toml"


SMALL = """\
name = "Small live"
decks = 1
[multipliers.m]
cards = 2
values = { 2 = "1/2", 8 = "1/2" }
[bets.banker]
name = "Banker"
fee = "20%"
[[bets.banker.rows]]
when = "banker.wins"
pays = "1:1"
multiply = "banker.card1"
commission = "5%"
event = "Banker wins"
[[bets.banker.rows]]
when = "winner == tie"
pays = "push"
[[bets.banker.rows]]
when = "otherwise"
pays = "lose"
[bets.two]
name = "Two cards"
fee = "10%"
[[bets.two.rows]]
when = "player.wins"
pays = "1:1"
multiply = "player.card1 banker.card1"
[[bets.two.rows]]
when = "otherwise"
pays = "lose"
"""
"""Two of 52 identities drawn, each ×2 or ×8: Banker's first card is drawn with probability
2/52, so its top award 8 − 0.05 has probability P(Banker wins)/52, by hand."""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Paytable, Joint]:
    path = tmp_path_factory.mktemp("live") / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    table = load_paytable(str(path))
    return str(path), table, joint_distribution(Shoe.decks(1), table.tableau)


def test_check_judges_the_top_multiplied_award_and_rtp_per_money_paid(
    cli: Cli, small: tuple[str, Paytable, Joint]
) -> None:
    path, table, joint = small
    argv = ["check", path, "--bet", "banker", "--against", "gli-11", "--format", "json"]
    code, out, _ = cli(argv)
    checks = json.loads(out)["checks"]
    assert code == 0
    f = bet_figures(joint, table.round_bet("banker"))
    wins = f.rows[0].probability
    top = next(k for k in checks if k["rule"] == "top_award_max_odds")
    assert f.largest_win == 8 - Fraction(5, 100)  # ×8 on 1:1, less 5% of the stake
    assert Fraction(top["value"]) == wins / 52  # by hand, not 0.95 to 1's probability
    assert "Banker wins at ×8: the top multiplied award" in top["note"]
    rtp = next(k for k in checks if k["rule"] == "max_rtp")
    mean_product = Fraction(50, 52) + Fraction(2, 52) * 5  # not drawn, or ×2 / ×8 evenly
    returned = 1 + wins * (mean_product - Fraction(5, 100)) - f.rows[2].probability
    assert Fraction(rtp["value"]) == returned / (1 + Fraction(1, 5))  # stake and 20% fee
    assert "per money paid (stake and 20% fee)" in rtp["note"]


def test_solved_fee_plugged_back_gives_the_target_exactly(
    small: tuple[str, Paytable, Joint],
) -> None:
    _, table, joint = small
    s = solve_fee(table, "banker", "98.76%", joint)
    bet = replace(table.round_bet("banker"), fee=s.value)
    assert bet_figures(joint, bet).rtp == Fraction(9876, 10000)


def test_solved_peek_fee_plugged_back_keeps_the_decisions() -> None:
    table = replace(load_paytable(PEEK), decks=1)
    joint = joint_distribution(Shoe.decks(1), table.tableau)
    s = solve_fee(table, "player", "98.8%", joint)
    bet = table.round_bet("player")
    before, after = bet_figures(joint, bet), bet_figures(joint, replace(bet, fee=s.value))
    assert after.rtp == Fraction(988, 1000)
    assert before.peek is not None and after.peek is not None
    assert after.peek.decision_table == before.peek.decision_table  # the fee moves no decision
    assert after.paid - before.paid == s.value - bet.fee


def test_solved_pay_plugged_back_gives_the_target_exactly(
    small: tuple[str, Paytable, Joint],
) -> None:
    _, table, joint = small
    s = solve_live_pay(table, "banker", 0, "97%", joint)
    bet = table.round_bet("banker")
    rows = (replace(bet.rows[0], pays=Payout(s.value)), *bet.rows[1:])
    assert bet_figures(joint, replace(bet, rows=rows)).rtp == Fraction(97, 100)


def test_solved_weight_brackets_the_target_on_the_exact_figures(
    small: tuple[str, Paytable, Joint],
) -> None:
    _, table, joint = small
    s = solve_weight(table, "two", "m:8", "95%", joint)
    assert len(s.coefficients) == 3  # two cards of the group: degree 2
    ((low, high, digits),) = s.roots
    assert high - low < Fraction(1, 10**30) and abs(Fraction(digits) - low) < Fraction(1, 10**29)
    bet = table.round_bet("two")

    def rtp(w: Fraction) -> Fraction:
        rows = tuple(
            r if r.multiply is None
            else replace(r, multiply=Multiply(_rescaled(r.multiply.table, 8, w), r.multiply.cards))
            for r in bet.rows
        )  # fmt: skip
        return bet_figures(joint, replace(bet, rows=rows)).rtp

    target = Fraction(95, 100)
    assert (rtp(low) - target) * (rtp(high) - target) <= 0  # the root is between, exactly
    assert s.rtp_at(low) == rtp(low)  # the stated polynomial is the exact RTP


def test_compare_counts_each_variant_on_its_own_shoe_and_rules(
    cli: Cli, small: tuple[str, Paytable, Joint]
) -> None:
    path, table, _ = small
    argv = ["compare", path, "--bet", "banker", "--rules", "punto-banco,mini"]
    code, out, _ = cli([*argv, "--format", "json"])
    assert code == 0
    edges = [Fraction(v["house_edge"]["banker"]) for v in json.loads(out)["variants"]]
    from exactodds.deal.tableau import BUILTIN

    mini = joint_distribution(Shoe.decks(1), BUILTIN["mini"])
    assert edges[1] == bet_figures(mini, table.round_bet("banker")).house_edge
    assert edges[0] != edges[1]  # the multiplied path took the variant's rules


COMMANDS = {
    "eor": (["eor", LIGHTNING, "--decks", "1"], ["player", "banker", "tie"]),
    "exposure": (["exposure", LIGHTNING, "--decks", "1", "--flash", "P1"],
                 ["player", "banker", "tie"]),
    "odds --given": (["odds", "--given", "P: 9s ? | B: ? ?", "--paytable", PEEK, "--decks", "1"],
                     ["player", "banker"]),
    "compare": (["compare", PEEK, "--bet", "player", "--formula"], ["player"]),
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_live_bets_are_left_out_named_and_exit_3(cli: Cli, command: str) -> None:
    argv, left = COMMANDS[command]
    code, out, err = cli([*argv, "--format", "json"])
    assert code == EXIT_INCOMPLETE == 3
    named = json.loads(out)["left_out"]
    assert [b["bet"] for b in named] == left
    assert all("does not count them" in b["reason"] for b in named)
    assert f"left out {', '.join(left)}" in err


def test_protection_section_leaves_a_live_bet_out(
    cli: Cli, small: tuple[str, Paytable, Joint]
) -> None:
    argv = ["report", small[0], "--bet", "banker", "--protection", "--format", "json"]
    code, out, err = cli(argv)
    assert code == 3
    section = json.loads(out)["protection"]
    assert [b["bet"] for b in section["left_out"]] == ["banker"]
    assert "random multipliers on its wins" in section["left_out"][0]["reason"]
    assert section["procedures"][0]["bets"] == []  # not counted as an ordinary bet
    assert "report --protection left out banker" in err


def test_live_bet_refused_by_the_edge_solve_and_a_banker_version(cli: Cli) -> None:
    code, _, err = cli(["solve", LIGHTNING, "--bet", "tie", "--event", "Tie", "-t", "5%"])
    assert code == 2 and "target RTP per money paid" in err and err.count("\n") == 1
    code, _, err = cli(["compare", LIGHTNING, "--banker", "commission", "--decks", "1"])
    assert code == 2 and "multipliers" in err and err.count("\n") == 1


def test_bet_live_is_what_the_helpers_read() -> None:
    bet = load_paytable(PEEK).round_bet("tie")
    assert isinstance(bet, Bet) and bet.live == ()


def test_an_uncountable_live_bet_is_na_in_check(cli: Cli, tmp_path: Path) -> None:
    """A multiplied row that reads a suit is not counted (multipliers are counted by rank)."""
    path = tmp_path / "suited.toml"
    path.write_text(
        'name = "Suited"\ndecks = 1\n[multipliers.l]\ncards = 1\nvalues = { 2 = "1" }\n'
        "[bets.player]\nrows = [\n"
        '  { when = "player.wins and player.suited", pays = "1:1", multiply = "player" },\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    code, out, err = cli(["check", str(path), "--against", "adm", "--format", "json"])
    assert code == EXIT_INCOMPLETE
    assert {k["verdict"] for k in json.loads(out)["checks"]} == {"n/a"}
    assert "incomplete" in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--fee"], "--fee needs --target-rtp"),
        (["--fee", "--weight", "8", "--target-rtp", "98%"], "give one of --fee, --weight or --pay"),
        (["--weight", "7", "--target-rtp", "98%"], "has multipliers 2, 3, 4, 5, 8"),
        (["--pay", "--target-rtp", "98%"], "--pay needs the row"),
        (["--fee", "--target-rtp", "nan%"], "not a number"),
        (["--fee", "--target-rtp", "0%"], "must be above 0%"),
        (["--fee", "--target-rtp", "98%", "-t", "5%"], "--target-edge go with the edge solve"),
        (["--fee", "--target-rtp", "98%", "--event", "Tie"], "--event goes with --pay"),
    ],
)
def test_solve_target_rtp_bad_input_is_one_line(cli: Cli, options: list[str], message: str) -> None:
    code, out, err = cli(["solve", LIGHTNING, "--bet", "player", *options])
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_left_out_section_in_html_and_the_api_guard(cli: Cli) -> None:
    code, out, _ = cli(["eor", LIGHTNING, "--decks", "1", "--format", "html"])
    assert code == 3
    assert out.index('<section id="left-out">') < out.rindex("</body>")
    from exactodds.analysis.eor import effect_of_removal
    from exactodds.errors import PaytableError

    with pytest.raises(PaytableError, match="random multipliers"):
        effect_of_removal(load_paytable(LIGHTNING).bets, Shoe.decks(1))


def test_weight_polynomial_of_one_card_by_hand(tmp_path: Path) -> None:
    """One multiplier card, values 2 (weight w) and 3: Player's first card is drawn with
    probability 1/52, so E[M] = 51/52 + (2w + 3(1 − w))/52 and RTP(w) = 1 + p·E[M] − l, linear
    with slope −p/52 (p, l: Player wins, Banker wins)."""
    path = tmp_path / "one.toml"
    path.write_text(
        'name = "One"\ndecks = 1\n[multipliers.m]\ncards = 1\nvalues = { 2 = "1/2", 3 = "1/2" }\n'
        "[bets.player]\nrows = [\n"
        '  { when = "player.wins", pays = "1:1", multiply = "player.card1" },\n'
        '  { when = "winner == tie", pays = "push" },\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    table = load_paytable(str(path))
    joint = joint_distribution(Shoe.decks(1), table.tableau)
    rows = bet_figures(joint, table.round_bet("player")).rows
    p, lose = rows[0].probability, rows[2].probability
    s = solve_weight(table, "player", "m:2", "100%", joint)
    assert s.coefficients == (1 + p * (51 + 3) / 52 - lose, -p / 52)
    ((low, high, _),) = s.roots  # RTP(w) = 1 exactly where p·E[M] = l
    assert low == high == (1 + p * 54 / 52 - lose - 1) * 52 / p


def test_many_multiplied_bets_are_weighed_before_the_work(cli: Cli, tmp_path: Path) -> None:
    """Multiplied bets count by rank, outside the card engine's probe: the budget adds the grid
    once a shoe and each bet (bets.budget.live_count_seconds), so 60 of them are refused up
    front under a small budget, with the budget that allows them (benchmarks/live.py: about
    8 s measured against an estimate of 17 s)."""
    lines = ['name = "Many"', "decks = 8", "[multipliers.l]", "cards = 2", 'values = { 2 = "1" }']
    for i in range(60):
        lines += [
            f"[bets.b{i}]",
            "rows = [",
            f'  {{ when = "player.total >= {1 + i % 9}", pays = "1:1", multiply = "player" }},',
            '  { when = "otherwise", pays = "lose" },',
            "]",
        ]
    path = tmp_path / "many.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = cli(["report", str(path), "--budget", "5"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "would take about 17 s of CPU" in err and "--budget 21 allows it" in err
