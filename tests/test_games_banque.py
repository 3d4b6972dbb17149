"""Baccara banque with replacement: a brute-force game over physical card sequences, best
replies of each side, the chemin de fer enumerator as a cross-check, and the three-person
checks."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD
from exactodds.games.banque import JOINT, BanqueSolution, build_banque, solve_banque
from exactodds.games.chemin import build_form
from exactodds.games.rules import Model
from exactodds.games.threeperson import symmetric_equilibria
from tests.cli_helpers import Cli

Cell = tuple[int, object, object]


def _play(t: int, draws5: bool, third: int) -> tuple[object, int | None]:
    """A Player hand's state as the Banker sees it and its final total (None: a natural)."""
    if t >= 8:
        return "natural", None
    if t <= 4 or (t == 5 and draws5):
        return third, (t + third) % 10
    return "stood", t


def _brute(values: list[int]) -> tuple[int, dict[tuple[int, Cell, int], list[int]], list[int]]:
    """Every sequence of nine physical cards drawn with replacement from ``values``, played
    out by hand, written independently of the enumerator: left hand (cards 0, 1, third 6),
    right hand (2, 3, third 7), Banker (4, 5, third 8). For each team play (left, right draw
    on 5?), the hands' net wins by Banker cell and action, and those settled by naturals."""
    table: dict[tuple[int, Cell, int], list[int]] = {}
    settled = [0, 0]
    for k, plays in enumerate(JOINT):
        for c in product(values, repeat=9):
            bank = (c[4] + c[5]) % 10
            hands = [(c[0] + c[1]) % 10, (c[2] + c[3]) % 10]
            if bank >= 8 or min(hands) >= 8:  # nobody decides: settled by the naturals
                if k == 0:
                    for h in (0, 1):
                        settled[h] += (hands[h] > bank) - (hands[h] < bank)
                continue
            plays_out = [_play(hands[h], plays[h], c[6 + h]) for h in (0, 1)]
            states = [state for state, _ in plays_out]
            finals = [final for _, final in plays_out]
            if k == 0:
                for h in (0, 1):
                    settled[h] += finals[h] is None
            cell = (bank, states[0], states[1])
            for draws in (0, 1):
                b = (bank + c[8]) % 10 if draws else bank
                row = table.setdefault((k, cell, draws), [0, 0])
                for h in (0, 1):
                    f = finals[h]
                    if f is not None:
                        row[h] += (f > b) - (f < b)
    return len(values) ** 9, table, settled


def _state(s: int) -> object:
    return "natural" if s == -1 else "stood" if s == STOOD else s


def _check_against_brute(s: BanqueSolution, values: list[int]) -> None:
    """The solution's value, from both sides, in the brute-force game: no team play beats it
    against the Banker's strategy, and the Banker's best reply to the team's mix (his payoff
    adds up over cells, so his best pure strategy is the best action in every cell) does not
    push the team below it; the three-person claims likewise."""
    n9, table, settled = _brute(values)
    y = {(t, _state(a), _state(b)): s.y[c] for c, (t, a, b) in enumerate(s.form.cells)}
    cells = {cell for _, cell, _ in table}

    def hand(k: int, h: int, strategy: dict[Cell, Fraction]) -> Fraction:
        total = Fraction(settled[h])
        for cell in cells:
            p = strategy.get(cell, Fraction(0))
            total += (1 - p) * table.get((k, cell, 0), [0, 0])[h]
            total += p * table.get((k, cell, 1), [0, 0])[h]
        return total / n9

    team = [hand(k, 0, y) + hand(k, 1, y) for k in range(4)]
    assert max(team) == s.value
    assert all(team[k] == s.value for k in range(4) if s.joint[k])
    best_reply = Fraction(sum(settled))
    for cell in cells:
        best_reply += min(
            sum(s.joint[k] * sum(table.get((k, cell, b), [0, 0])) for k in range(4)) for b in (0, 1)
        )
    assert best_reply / n9 == s.value
    if s.player_draw is not None and s.deviation is not None:
        x = s.player_draw
        # the left hand alone draws, or stands, on 5; the right keeps drawing with x
        drawing = x * hand(0, 0, y) + (1 - x) * hand(1, 0, y)
        standing = x * hand(2, 0, y) + (1 - x) * hand(3, 0, y)
        assert (drawing, standing) == s.deviation


@pytest.mark.parametrize(
    ("ranks", "value", "joint"),
    [
        ({"T": 2, "5": 2, "3": 2}, Fraction(-176, 6561), (1, 0, 0, 0)),
        ({"T": 2, "5": 2, "7": 2}, Fraction(-40, 19683), (0, 0, 0, 1)),
    ],
)
def test_brute_force_game_on_a_tiny_shoe(
    ranks: dict[str, int], value: Fraction, joint: tuple[int, ...]
) -> None:
    values = [0 if r == "T" else int(r) for r in ranks]  # one physical card per rank
    s = solve_banque(build_banque(Shoe.from_rank_counts(ranks)))
    _check_against_brute(s, values)
    assert s.value == value and s.joint == tuple(map(Fraction, joint)) and s.nash


@pytest.fixture(scope="module")
def infinite() -> BanqueSolution:
    return solve_banque(build_banque(None))


def test_infinite_shoe_solution(infinite: BanqueSolution) -> None:
    s = infinite
    assert s.value == Fraction(-33311029920, 1919414386513)
    assert s.banker_edge == Fraction(16655514960, 1919414386513)
    # the team never lets both hands stand on 5: a correlated mix, not two independent ones
    assert s.joint == (Fraction(323, 543), Fraction(110, 543), Fraction(110, 543), Fraction(0))
    assert s.unique and s.player_draw is None and not s.nash
    assert [(str(c), c.draw) for c in s.mixed_cells()] == [
        ("6 v stood, 6", Fraction(5121, 5792)),
        ("6 v 6, stood", Fraction(5121, 5792)),
    ]
    assert len(s.form.cells) == 8 * (12 * 12 - 1)


def test_best_replies_from_the_enumerated_deal(infinite: BanqueSolution) -> None:
    """No joint play beats the team's mix against the Banker, and in no cell does a pure
    action the Banker does not play lower the team's payoff against its mix."""
    s, form = infinite, infinite.form
    for k in range(4):
        pure = [Fraction(int(j == k)) for j in range(4)]
        got = sum(form.hand_payoffs(pure, s.y))
        assert got <= s.value and (got == s.value or not s.joint[k])
    for c, y in enumerate(s.y):
        gain = sum(
            z * (sum(t[c][1]) - sum(t[c][0])) for z, t in zip(s.joint, form.terms, strict=True)
        )
        assert (gain <= 0 or y == 0) and (gain >= 0 or y == 1)  # the team's gain if he draws


def test_each_hand_is_chemin_de_fer_against_a_banker_who_ignores_the_other() -> None:
    """With the Banker's play depending on his total and one hand's state only, that hand's
    payoff is the chemin de fer enumerator's (Kemeny-Snell), for several fixed strategies."""
    shoe = Shoe.from_rank_counts({"T": 4, "A": 1, "3": 2, "5": 3, "6": 1, "8": 2, "9": 1})
    form = build_banque(shoe)
    chemin = build_form(Model.KEMENY_SNELL, shoe)
    for rule in range(3):

        def banker(t: int, col: int, r: int = rule) -> int:
            return int((t * 3 + col + r) % 4 < 2)

        y = [Fraction(banker(t, a if a >= 0 else 0)) for t, a, _ in form.cells]
        for k, (left, _) in enumerate(JOINT):
            pure = [Fraction(int(j == k)) for j in range(4)]
            x = [Fraction(int(h[0] <= 4 or (h[0] == 5 and left))) for h in chemin.players]
            yc = [Fraction(banker(h[0], col)) for h, col in chemin.cells]
            assert form.hand_payoffs(pure, y)[0] == chemin.payoff(x, yc)[0]


def test_three_person_equilibrium_with_independent_hands(infinite: BanqueSolution) -> None:
    """The one symmetric equilibrium: each hand draws on 5 with 9/11; neither hand gains by
    drawing or standing alone (its own result, the other hand and the Banker fixed), and the
    Banker's strategy is a best reply in every cell (checked from the enumerated deal)."""
    form = infinite.form
    found, complete = symmetric_equilibria(form)
    assert complete and [e.draw for e in found] == [Fraction(9, 11)]
    (e,) = found
    x = e.draw
    y = list(e.y)
    left_draws = form.hand_payoffs([x, 1 - x, Fraction(0), Fraction(0)], y)[0]
    left_stands = form.hand_payoffs([Fraction(0), Fraction(0), x, 1 - x], y)[0]
    assert left_draws == left_stands == e.hand
    z = [x * x, x * (1 - x), (1 - x) * x, (1 - x) ** 2]
    for c, yc in enumerate(y):
        gain = sum(w * (sum(t[c][1]) - sum(t[c][0])) for w, t in zip(z, form.terms, strict=True))
        assert (gain <= 0 or yc == 0) and (gain >= 0 or yc == 1)
    mixed = [(form.cells[c], v) for c, v in enumerate(y) if 0 < v < 1]
    assert mixed == [((6, STOOD, STOOD), Fraction(2238655, 3807232))]
    # the team's correlated play does better than independent hands can
    assert e.hand < infinite.value / 2


def test_cli_banque_in_every_format(cli: Cli, tmp_path: Path) -> None:
    shoe = tmp_path / "tiny.toml"
    shoe.write_text("ranks = { T = 2, 5 = 2, 7 = 2 }\n", encoding="utf-8")
    code, out, err = cli(["game", "banque", "--shoe", str(shoe), "-f", "json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["value_per_deal"] == "-40/19683" and data["banker_edge_per_hand"] == "20/19683"
    assert data["team_is_nash"] is True
    assert data["three_person_symmetric_equilibria"][0]["draw_on_5"] == "0/1"
    code, out, err = cli(["game", "banque", "--shoe", str(shoe)])
    assert code == 0 and "| stand       | stand        | 1             |" in out, out
    code, out, err = cli(
        ["game", "banque", "--shoe", str(shoe), "-f", "html", "--out", str(tmp_path)]
    )
    assert code == 0, err
    page = (tmp_path / "banque.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Banker: strategy grid" in page


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "ethier-gamez"], "with replacement only"),
        (["--model", "kemeny-snel"], "did you mean 'kemeny-snell'"),
        (["--decks", "1-8"], "one shoe"),
        (["--decks", "inf", "--remove", "5 5"], "infinite shoe has no cards"),
    ],
)
def test_cli_banque_refusals(cli: Cli, argv: list[str], message: str) -> None:
    code, out, err = cli(["game", "banque", *argv])
    assert code == 2 and out == ""
    assert err.startswith("exactodds: error: ") and message in err and err.count("\n") == 1
