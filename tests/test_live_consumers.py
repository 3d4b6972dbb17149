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


def _one_deck(path: str) -> tuple[Paytable, Joint]:
    table = replace(load_paytable(path), decks=1)
    return table, joint_distribution(Shoe.decks(1), table.tableau)


def test_check_judges_the_top_multiplied_award_and_rtp_per_money_paid(cli: Cli) -> None:
    code, out, _ = cli(
        ["check", LIGHTNING, "--decks", "1", "--bet", "banker", "--against", "gli-11",
         "--format", "json"]
    )  # fmt: skip
    checks = json.loads(out)["checks"]
    assert code == (1 if any(k["verdict"] == "fail" for k in checks) else 0)
    table, joint = _one_deck(LIGHTNING)
    f = bet_figures(joint, table.round_bet("banker"))
    top = next(k for k in checks if k["rule"] == "top_award_max_odds")
    # the cap 512 times 1:1, less 5% of the stake: the top multiplied award, not 0.95 to 1
    assert f.largest_win == 512 - Fraction(5, 100)
    assert Fraction(top["value"]) == f.largest_win_probability
    assert "products up to ×512" in top["note"]
    rtp = next(k for k in checks if k["rule"] == "max_rtp")
    returned = 1 + sum((p * net for p, net in f.outcomes()), Fraction(0))  # per base stake
    assert Fraction(rtp["value"]) == returned / (1 + Fraction(1, 5))  # stake and 20% fee
    assert "per money paid" in rtp["note"]


def test_solved_fee_plugged_back_gives_the_target_exactly() -> None:
    table, joint = _one_deck(LIGHTNING)
    s = solve_fee(table, "banker", "98.76%", joint)
    bet = replace(table.round_bet("banker"), fee=s.value)
    assert bet_figures(joint, bet).rtp == Fraction(9876, 10000)


def test_solved_pay_plugged_back_gives_the_target_exactly() -> None:
    table, joint = _one_deck(LIGHTNING)
    s = solve_live_pay(table, "banker", 0, "97%", joint)
    bet = table.round_bet("banker")
    win = bet.rows[0]
    rows = (replace(win, pays=Payout(s.value)), *bet.rows[1:])
    assert bet_figures(joint, replace(bet, rows=rows)).rtp == Fraction(97, 100)


def test_solved_weight_brackets_the_target_on_the_exact_figures() -> None:
    table, joint = _one_deck(LIGHTNING)
    s = solve_weight(table, "banker", "lightning:8", "95%", joint)
    ((low, high, digits),) = s.roots
    assert high - low < Fraction(1, 10**30) and abs(Fraction(digits) - low) < Fraction(1, 10**29)
    bet = table.round_bet("banker")

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


def test_protection_section_leaves_a_peek_out(cli: Cli) -> None:
    code, out, err = cli(
        ["report", PEEK, "--decks", "1", "--bet", "player", "--protection", "--format", "json"]
    )
    assert code == 3
    section = json.loads(out)["protection"]
    assert [b["bet"] for b in section["left_out"]] == ["player"]
    assert "a peek and a raise" in section["left_out"][0]["reason"]
    assert "report --protection left out player" in err


def test_live_bet_refused_by_the_edge_solve_and_a_banker_version(cli: Cli) -> None:
    code, _, err = cli(["solve", LIGHTNING, "--bet", "tie", "--event", "Tie", "-t", "5%"])
    assert code == 2 and "--target-rtp" in err and err.count("\n") == 1
    code, _, err = cli(["compare", LIGHTNING, "--banker", "commission", "--decks", "1"])
    assert code == 2 and "multipliers" in err and err.count("\n") == 1


def test_bet_live_is_what_the_helpers_read() -> None:
    bet = load_paytable(PEEK).round_bet("tie")
    assert isinstance(bet, Bet) and bet.live == ()


def test_compare_counts_each_variant_on_its_own_shoe_and_rules(cli: Cli) -> None:
    argv = ["compare", LIGHTNING, "--bet", "banker", "--decks", "1", "--rules", "punto-banco,mini"]
    code, out, _ = cli([*argv, "--format", "json"])
    assert code == 0
    edges = [Fraction(v["house_edge"]["banker"]) for v in json.loads(out)["variants"]]
    table, _ = _one_deck(LIGHTNING)
    from exactodds.deal.tableau import BUILTIN

    mini = joint_distribution(Shoe.decks(1), BUILTIN["mini"])
    assert edges[1] == bet_figures(mini, table.round_bet("banker")).house_edge
    assert edges[0] != edges[1]  # the multiplied path took the variant's rules


def test_an_uncountable_live_bet_is_na_in_check(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "offer.toml"
    path.write_text(
        'name = "Offer"\ndecks = 1\n[multipliers.l]\ncards = 1\nvalues = { 2 = "1" }\n'
        '[bets.player]\noffer = "player.initial >= 5"\nrows = [\n'
        '  { when = "player.wins", pays = "1:1", multiply = "player" },\n'
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
