"""Chemin de fer solved exactly: the published anchors, a brute-force game, best replies, and the
deal engine's counts when nobody has a choice."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations, product
from math import perm

import pytest

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import STOOD
from exactodds.games.chemin import build_form
from exactodds.games.commission import solve_commission
from exactodds.games.equilibrium import Solution, game_value, solve
from exactodds.games.rules import CheminRules, GameError, Model, load_rules

FREE = CheminRules.named("free-everywhere")


def test_kemeny_snell_anchors() -> None:
    # Source: Kemeny & Snell (1957), as restated by Ethier & Gámez, Games 4 (2013) 711, §1:
    # Player draws on 5 with probability 9/11, value -679568/53094899, the Banker mixes only
    # at 6 when the Player stood, drawing with probability 859/2288.
    s = solve(build_form(Model.KEMENY_SNELL, None), FREE)
    assert s.value == Fraction(-679568, 53094899)
    assert [(str(i), i.draw) for i in s.player] == [("5", Fraction(9, 11))]
    assert [(str(c), c.draw) for c in s.mixed_cells()] == [("6 v stood", Fraction(859, 2288))]
    assert s.unique
    assert len(s.banker) == 88


def test_kemeny_snell_costs_of_fixed_rules() -> None:
    s = solve(build_form(Model.KEMENY_SNELL, None), FREE)
    costs = {(c.side, c.rule): c for c in s.costs}
    draw = costs["Player", "always draw on 5 (punto banco)"]
    stand = costs["Player", "always stand on 5"]
    # a pure rule in the support of an optimal mix costs nothing against the optimal opponent,
    # and something against one who exploits it
    assert draw.equilibrium == stand.equilibrium == 0
    assert draw.best_reply > 0 and stand.best_reply > 0
    assert costs["Banker", "the punto banco tableau"].best_reply > 0


def _brute(values: list[int], free_b: set[tuple[int, int]]) -> Fraction:
    """The value of the Downton-Lockwood game on a tiny shoe of card values, written
    independently: every ordered six-card sequence of physical cards, every pure strategy
    pair (the Player's choice on 5 × every Banker choice in his free cells), and the value of
    the 2 × n matrix game as the least value of its 2 × 2 sub-games and columns."""
    pb = {0: set(range(11)), 1: set(range(11)), 2: set(range(11)), 3: set(range(11)) - {8}}
    pb |= {4: set(range(2, 8)) | {10}, 5: set(range(4, 8)) | {10}, 6: {6, 7}, 7: set()}
    const, cells = 0, set[tuple[tuple[int, int], int]]()
    table: dict[tuple[bool, int, tuple[tuple[int, int], int] | None, int], int] = {}
    for seq in permutations(range(len(values)), 6):
        c = [values[k] for k in seq]  # dealt P B P B, then the third cards in turn
        pt, bt = (c[0] + c[2]) % 10, (c[1] + c[3]) % 10
        if pt >= 8 or bt >= 8:
            const += int(pt > bt) - int(bt > pt)
            continue
        for a in (0, 1):
            if pt != 5 and a != (pt <= 5):
                continue
            col = c[4] if a else 10
            pf = (pt + c[4]) % 10 if a else pt
            cell = ((min(c[1], c[3]), max(c[1], c[3])), col)
            for b in (0, 1):
                if (bt, col) not in free_b and b != (col in pb[bt]):
                    continue
                if (bt, col) in free_b:
                    cells.add(cell)
                bf = (bt + (c[5] if a else c[4])) % 10 if b else bt
                key = (pt == 5, a, cell if (bt, col) in free_b else None, b)
                table[key] = table.get(key, 0) + int(pf > bf) - int(bf > pf)
    columns = []
    for bits in product((0, 1), repeat=len(cells)):
        choice = dict(zip(sorted(cells), bits, strict=True))
        columns.append(
            [
                const
                + sum(
                    v
                    for (five, a, cell, b), v in table.items()
                    if (not five or a == s) and (cell is None or choice[cell] == b)
                )
                for s in (0, 1)
            ]
        )

    def two_by_two(j: list[int], k: list[int]) -> Fraction:
        low = max(min(j[0], k[0]), min(j[1], k[1]))
        high = min(max(j[0], j[1]), max(k[0], k[1]))
        if low == high:  # a saddle point
            return Fraction(low)
        return Fraction(j[0] * k[1] - k[0] * j[1], j[0] + k[1] - k[0] - j[1])

    value = min(
        [Fraction(max(col)) for col in columns]
        + [two_by_two(j, k) for n, j in enumerate(columns) for k in columns[n + 1 :]]
    )
    return value / perm(len(values), 6)


_NAMES = {0: "T", 1: "A"}


def _shoe(values: list[int]) -> Shoe:
    ranks: dict[str, int] = {}
    for v in values:
        ranks[_NAMES.get(v, str(v))] = ranks.get(_NAMES.get(v, str(v)), 0) + 1
    return Shoe.from_rank_counts(ranks)


@pytest.mark.parametrize(
    ("values", "free_b"),
    [
        ([0, 0, 0, 7, 5, 9, 2, 6], {(6, 6), (5, STOOD), (6, STOOD)}),
        ([7, 9, 4, 6, 6, 6, 2, 1], {(5, STOOD), (4, 1), (6, STOOD)}),
    ],
)
def test_brute_force_game_on_a_tiny_shoe(values: list[int], free_b: set[tuple[int, int]]) -> None:
    rules = CheminRules("test", frozenset({5}), frozenset(free_b))
    s = solve(build_form(Model.DOWNTON_LOCKWOOD, _shoe(values)), rules)
    assert s.value == _brute(values, free_b)
    assert 0 < s.player[0].draw < 1 and s.mixed_cells()  # a mixed equilibrium, not a saddle


def _no_better_pure_deviation(s: Solution) -> None:
    """Each side's payoff at each free information set and action, summed straight from the
    enumerated deal: no pure action beats the optimal mix there."""
    form = s.form
    gain_x: dict[int, Fraction] = {}  # the Player's gain from drawing, by information set
    gain_y: dict[int, Fraction] = {}  # the Player's gain when the Banker draws, by cell
    for (i, j, b), (p, q) in form.terms.items():
        drew = form.cells[j][1] != STOOD
        at_j = s.y[j] if b else 1 - s.y[j]
        gain_x[i] = gain_x.get(i, Fraction(0)) + (p - q) * at_j * (1 if drew else -1)
        at_i = s.x[i] if drew else 1 - s.x[i]
        gain_y[j] = gain_y.get(j, Fraction(0)) + (p - q) * at_i * (1 if b else -1)
    for info in s.player:
        g = gain_x.get(form.players.index(info.hand), Fraction(0))
        assert (g <= 0 or info.draw == 1) and (g >= 0 or info.draw == 0)
    for cell in s.banker:
        g = gain_y.get(form.cells.index((cell.hand, cell.col)), Fraction(0))
        assert (g >= 0 or cell.draw == 1) and (g <= 0 or cell.draw == 0)


@pytest.mark.parametrize("model", list(Model))
@pytest.mark.parametrize(
    "ranks",
    [
        {"T": 6, "A": 2, "4": 3, "5": 3, "6": 3, "9": 2},
        {"T": 5, "2": 2, "3": 3, "5": 4, "6": 2, "7": 2, "8": 1},
    ],
)
def test_no_pure_deviation_improves_either_side(model: Model, ranks: dict[str, int]) -> None:
    s = solve(build_form(model, Shoe.from_rank_counts(ranks)), FREE)
    _no_better_pure_deviation(s)
    assert s.form.payoff(s.x, s.y)[0] == s.value


@pytest.mark.parametrize("model", [Model.DOWNTON_LOCKWOOD, Model.ETHIER_GAMEZ])
def test_without_choices_the_game_is_the_deal_engines_punto_banco(model: Model) -> None:
    shoe = Shoe.from_rank_counts({"T": 8, "A": 3, "2": 2, "4": 3, "5": 3, "6": 3, "7": 2, "9": 2})
    nobody = CheminRules("fixed", frozenset(), frozenset())
    s = solve(build_form(model, shoe), nobody)
    counts = joint_distribution(shoe).winner_counts()
    total = joint_distribution(shoe).total
    assert s.value == Fraction(counts[Winner.PLAYER] - counts[Winner.BANKER], total)


def test_more_decks_tend_to_the_with_replacement_value() -> None:
    limit = game_value(build_form(Model.KEMENY_SNELL, None), FREE)
    gaps = [
        abs(game_value(build_form(Model.DOWNTON_LOCKWOOD, Shoe.decks(d)), FREE) - limit)
        for d in (1, 6)
    ]
    assert gaps[1] < gaps[0] / 4
    assert gaps[1] < Fraction(1, 5_000)


def test_traditional_rules_and_their_free_cells() -> None:
    r = load_rules(None)
    assert r.name == "traditional" and r.player_free == {5}
    assert r.banker_free == {(3, 9), (4, 1), (5, 4), (6, STOOD)}
    assert not r.banker_draws(6, STOOD) and r.banker_draws(3, 9) and not r.banker_draws(4, 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"banker_free": {"9": [1]}}, "no Banker cell at total '9'"),
        ({"banker_free": {"3": [10]}}, "there is no cell 10"),
        ({"player_free": [8]}, "no Player choice at 8"),
        ({"banker_fre": {}}, "did you mean 'banker_free'?"),
        ({"base": "mni"}, "did you mean 'mini'?"),
    ],
)
def test_hostile_rules_get_one_clear_error(data: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        CheminRules.from_mapping(data)


def test_a_player_free_everywhere_still_draws_on_0_to_4_and_stands_on_6_7() -> None:
    rules = CheminRules.from_mapping({"player_free": "all", "banker_free": "all"})
    s = solve(build_form(Model.KEMENY_SNELL, None), rules)
    assert s.value == Fraction(-679568, 53094899)  # the fixed rules were already optimal
    assert [i.draw for i in s.player] == [1, 1, 1, 1, 1, Fraction(9, 11), 0, 0]


def test_a_misspelt_model_gets_a_suggestion() -> None:
    with pytest.raises(GameError, match="did you mean 'ethier-gamez'"):
        Model.named("ethier-gomez")


def test_commission_zero_is_the_zero_sum_game() -> None:
    form = build_form(
        Model.DOWNTON_LOCKWOOD,
        Shoe.from_rank_counts({"T": 6, "A": 2, "5": 4, "6": 3, "9": 2, "3": 3}),
    )
    s = solve(form, FREE)
    c = solve_commission(form, FREE, Fraction(0))
    assert c.unique == s.unique
    (eq,) = c.equilibria
    assert (eq.draw, eq.player, eq.banker) == (s.player[0].draw, s.value, -s.value)


def test_commission_equilibrium_leaves_no_side_a_better_pure_move() -> None:
    # Ethier & Lee's setting (Games 14 (2023) 63) with replacement: 5% on Banker wins
    form = build_form(Model.KEMENY_SNELL, None)
    alpha = Fraction(1, 20)
    c = solve_commission(form, FREE, alpha)
    assert c.unique
    (eq,) = c.equilibria
    assert eq.draw == Fraction(179, 214)  # the Player now keeps the Banker indifferent
    assert [(str(cell), cell.draw) for cell in eq.mixed] == [("6 v stood", Fraction(859, 2288))]
    assert eq.player == Fraction(-679568, 53094899)  # his payoff only reads the Banker's mix
    assert -Fraction(11, 1000) < eq.banker < -Fraction(10, 1000)
    i = form.players.index((5,))
    for pure in (Fraction(0), Fraction(1)):
        x = list(eq.x)
        x[i] = pure
        assert form.payoff(x, eq.y, alpha)[0] == eq.player
    for j in range(len(form.cells)):
        for pure in (Fraction(0), Fraction(1)):
            y = list(eq.y)
            y[j] = pure
            assert form.payoff(eq.x, y, alpha)[1] <= eq.banker


def test_commission_needs_a_single_player_choice() -> None:
    ranks = {"T": 4, "A": 2, "2": 2, "3": 2, "4": 2, "5": 2}  # 0+5, 1+4 and 2+3 make 5
    form = build_form(Model.ETHIER_GAMEZ, Shoe.from_rank_counts(ranks))
    with pytest.raises(GameError, match="has 3: use kemeny-snell or downton-lockwood"):
        solve_commission(form, FREE, Fraction(1, 20))


def test_commission_when_the_shoe_leaves_the_player_no_choice() -> None:
    form = build_form(Model.DOWNTON_LOCKWOOD, Shoe.from_rank_counts({"T": 4, "7": 3, "2": 3}))
    (eq,) = solve_commission(form, FREE, Fraction(1, 20)).equilibria
    assert eq.draw is None  # no two-card 5 can be dealt
    for j in range(len(form.cells)):  # the Banker best-replies in every cell
        for pure in (Fraction(0), Fraction(1)):
            y = list(eq.y)
            y[j] = pure
            assert form.payoff(eq.x, y, Fraction(1, 20))[1] <= eq.banker
