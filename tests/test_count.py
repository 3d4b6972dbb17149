"""Card counting: the exact true count and decision, the derived trigger against published
triggers, count results against an independent recomputation with the engine, tags files,
reproducibility across workers and backends."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exactodds import Shoe
from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.analysis.count import (
    BetCount,
    CountStrategy,
    count_strategy,
    derived_trigger,
    parse_triggers,
    read_tags,
    true_count_slope,
)
from exactodds.analysis.dealing import deal_round_at, shoe_rng
from exactodds.analysis.eor import CountTags, effect_of_removal
from exactodds.analysis.simulate import simulate
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import Outcome, Winner
from exactodds.deal.shoe import RANK_VALUES, RANKS, Card
from exactodds.errors import InputFileError, MissingExtraError, SimulationError
from tests.cli_helpers import run
from tests.extras import need

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parents[1] / "examples"


@pytest.fixture(scope="module")
def classic() -> Paytable:
    return load_paytable("classic")


@pytest.fixture(scope="module")
def small(classic: Paytable) -> BatchEvaluator:
    """Three classic bets: quick to compile and evaluate."""
    ids = ("player_pair", "player_natural", "lucky_six")
    return compile_bets([classic.round_bet(b) for b in ids], classic.tableau)


def _plain(bet_id: str, tags: dict[str, int], trigger: Fraction | None) -> BetCount:
    count = CountTags(dict.fromkeys(RANKS, 0) | tags)
    return BetCount(bet_id, count, "test", Fraction(0), None, None, trigger, "test")


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(2).remove("6 6 6 7h K K")])
def test_decide_is_the_exact_true_count_against_the_trigger(shoe: Shoe) -> None:
    bets = [
        _plain("ko", {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "T": -1}, Fraction(1)),
        _plain("l6", {"6": -18, "7": 13, "8": 12, "9": 9, "T": -2}, Fraction(487, 10)),
        _plain("neg", {"A": 1, "K": -1}, Fraction(-3, 2)),
        _plain("off", {}, None),
    ]
    strategy = CountStrategy.build(bets, shoe, see_burns=False)
    rng = np.random.default_rng(1)
    full = np.array(shoe.counts).reshape(-1)
    cards = np.repeat(np.arange(52), full)
    seen = np.zeros((300, 52), dtype=np.int64)
    for i in range(len(seen)):
        k = int(rng.integers(0, full.sum() - 6))
        picked = rng.permutation(cards)[:k]
        seen[i] = np.bincount(picked, minlength=52)
    decided = strategy.decide(seen)
    for i, row in enumerate(seen.tolist()):
        for j, bet in enumerate(bets):
            tc = strategy.true_count(row, j)
            assert decided[i, j] == (bet.trigger is not None and tc >= bet.trigger)
    # the shoe's own drift: a full-deck shoe agrees with CountTags' true count
    if shoe == Shoe.decks(8):
        ko = bets[0].tags
        for row in seen[:20].tolist():
            cards_seen = [Card(c >> 2, c & 3) for c, n in enumerate(row) for _ in range(n)]
            expected = ko.true_count(ko.running_count(cards_seen), sum(row), 416 - sum(row))
            assert strategy.true_count(row, 0) == expected


@pytest.mark.slow
def test_derived_trigger_reproduces_the_published_lucky_six_triggers() -> None:
    ref = tomllib.loads((DATA / "wizard_lucky6.toml").read_text(encoding="utf-8"))
    value = dict(zip(RANKS, RANK_VALUES, strict=True))
    eor = {r: Fraction(ref["effect"][str(value[r])]) for r in RANKS}
    for level in ("level_1", "level_2"):
        by_value = ref[level]["tags"]
        tags = {r: by_value.get(str(value[r]), 0) for r in RANKS}
        slope = true_count_slope(eor, tags, Shoe.decks(8))
        trigger = derived_trigger(Fraction(ref["ev"]), slope)
        assert trigger is not None and abs(trigger - ref[level]["trigger"]) < 1, level
    # the exact EORs of the same bet match the published ones to their six decimals
    table = load_paytable(EXAMPLES / "lucky-six.toml")
    exact = effect_of_removal([table.round_bet("lucky_six")], table.shoe, table.tableau)
    for r in RANKS:
        published = Fraction(ref["effect"][str(value[r])])
        value_r = exact.eor["lucky_six"][r]
        assert value_r is not None and abs(value_r - published) <= Fraction(5, 10**7), r


def test_the_slope_is_the_regression_of_the_linear_ev_on_the_true_count() -> None:
    """Over random partial shoes, regress the first-order EV change (N₀ − 1)/U·Σ e·x on the
    true count: its slope is the formula (a check of the derivation's algebra)."""
    shoe = Shoe.decks(8)
    rng = np.random.default_rng(7)
    t = np.array([1, 2, 0, -1, 3, -2, 0, 1, 1, -1, 0, 2, -1], dtype=float)
    tags = {r: int(v) for r, v in zip(RANKS, t, strict=True)}
    e = t + rng.normal(scale=0.4, size=13)  # EORs the tags track well (a sharp regression)
    e -= e.mean()  # Σ p·e = 0, as for any EOR
    xs, ys = [], []
    for _ in range(4000):
        seen = rng.permutation(np.repeat(np.arange(13), 32))[: int(rng.integers(50, 350))]
        x = np.bincount(seen, minlength=13) - len(seen) / 13
        unseen = 416 - len(seen)
        xs.append(52 / unseen * t @ x)
        ys.append(415 / unseen * e @ x)
    fitted = np.polyfit(xs, ys, 1)[0]
    formula = true_count_slope(
        {r: Fraction(float(v)) for r, v in zip(RANKS, e, strict=True)}, tags, shoe
    )
    assert formula is not None and abs(fitted / float(formula) - 1) < 0.02


def _lucky_six_ev(joint: Joint) -> Fraction:
    """EV of classic's Lucky Six (a winning Banker 6 pays 12:1 with two cards, 20:1 with
    three) from the engine's distribution, written out (not through the paytable)."""

    def six(cards: int) -> Fraction:
        return joint.probability(
            lambda o: o.winner is Winner.BANKER and o.banker.total == 6 and o.banker.cards == cards
        )

    return 13 * six(2) + 21 * six(3) - 1


def _recount(
    table: Paytable,
    tags: CountTags,
    *,
    trigger: Fraction,
    seed: int,
    index: int,
    see_burns: bool,
) -> tuple[int, int, Fraction, Fraction]:
    """One shoe dealt card by card; the counter's decisions from CountTags; EVs from the engine.
    Returns (rounds, rounds bet, Σ exact EV where bet, Σ net where bet)."""
    shoe = table.shoe
    flat = [n for row in shoe.counts for n in row]
    cards = [c for c, n in enumerate(flat) for _ in range(n)]
    dealt = [cards[i] for i in shoe_rng(seed, index).permutation(len(cards)).tolist()]
    pos = 1 + (RANK_VALUES[dealt[0] >> 2] or 10)
    seen = [Card(c >> 2, c & 3) for c in (dealt[:pos] if see_burns else dealt[:1])]
    counts = flat.copy()
    for c in dealt[:pos]:
        counts[c] -= 1
    rounds = bets = 0
    gain = net = Fraction(0)
    cut_seen = len(dealt) - pos < 14
    while len(dealt) - pos >= 6:
        running = tags.running_count(seen)
        if tags.true_count(running, len(seen), 416 - len(seen)) >= trigger:
            left = Shoe(tuple(tuple(counts[i : i + 4]) for i in range(0, 52, 4)))  # type: ignore[misc]
            joint = joint_distribution(left, table.tableau)
            bets += 1
            gain += _lucky_six_ev(joint)
            code, _ = deal_round_at(dealt, pos, table.tableau)
            net += table.round_bet("lucky_six").net(Outcome.from_code(code))
        code, end = deal_round_at(dealt, pos, table.tableau)
        for c in dealt[pos:end]:
            counts[c] -= 1
            seen.append(Card(c >> 2, c & 3))
        pos = end
        rounds += 1
        if cut_seen:
            break
        cut_seen = len(dealt) - pos < 14
    return rounds, bets, gain, net


@pytest.mark.parametrize("see_burns", [False, True])
def test_count_gain_is_the_sum_of_exact_evs_where_the_counter_bets(
    classic: Paytable, small: BatchEvaluator, see_burns: bool
) -> None:
    tags = CountTags(dict.fromkeys(RANKS, 0) | {"6": -3, "7": 1, "8": 1, "9": 1})
    trigger = Fraction(3, 2)
    strategy = count_strategy(
        small,
        classic.shoe,
        tags={"lucky_six": tags},
        triggers={"lucky_six": trigger},
        see_burns=see_burns,
    )
    sim = simulate(small, classic.shoe, shoes=2, seed=4, count=strategy)
    (lucky,) = [b for b in sim.bets if b.bet_id == "lucky_six"]
    expected = [
        _recount(classic, tags, trigger=trigger, seed=4, index=i, see_burns=see_burns)
        for i in range(2)
    ]
    assert lucky.rounds == sum(e[0] for e in expected)
    assert lucky.bet_rounds() == sum(e[1] for e in expected) > 5
    assert lucky.expected_gain() == sum((e[2] for e in expected), Fraction(0))
    assert lucky.realized_gain() == sum((e[3] for e in expected), Fraction(0))
    assert lucky.edge_when_betting() == lucky.expected_gain() / lucky.bet_rounds()
    assert lucky.units_per_round() == lucky.expected_gain() / lucky.rounds


def test_tags_all_zero_never_beat_the_full_shoe(classic: Paytable, small: BatchEvaluator) -> None:
    """Pairs on a full shoe have every EOR zero, so eor's tags are all 0 and TC is always 0:
    no default trigger (never bets); a trigger ≤ 0 bets every round, at the full-shoe EV on
    average, never better than chance; a trigger > 0 never bets."""
    shoe = classic.shoe
    default = count_strategy(small, shoe)
    pair = default.bets[0]
    assert pair.bet_id == "player_pair" and set(pair.tags.tags.values()) == {0}
    assert pair.trigger is None and pair.slope is None
    perfect = simulate(small, shoe, shoes=4, seed=2)
    never, always, high = (
        simulate(small, shoe, shoes=4, seed=2, count=count_strategy(small, shoe, triggers=t)).bets[
            0
        ]
        for t in ({}, {"player_pair": Fraction(0)}, {"player_pair": Fraction(1, 10)})
    )
    assert never.bet_rounds() == high.bet_rounds() == 0 and never.expected_gain() == 0
    assert always.bet_frequency() == 1
    every_ev = sum(
        (r.mean_ev * r.rounds for r in perfect.bets[0].by_round if r.mean_ev), Fraction(0)
    )
    assert always.expected_gain() == every_ev
    edge = always.edge_when_betting()  # the mean EV of 4 shoes' rounds: EV₀ give or take
    assert edge is not None and abs(edge - pair.ev) < Fraction(2, 100)


def test_count_results_are_reproducible_whatever_the_workers_and_chunks(
    classic: Paytable, small: BatchEvaluator
) -> None:
    strategy = count_strategy(small, classic.shoe, triggers={"lucky_six": Fraction(2)})
    one = simulate(small, classic.shoe, shoes=6, seed=8, count=strategy).to_json()
    two = simulate(small, classic.shoe, shoes=6, seed=8, count=strategy, workers=2, chunk=1)
    assert one == two.to_json()
    count = one["bets"]["lucky_six"]["count"]
    assert count["trigger"] == "2/1" and count["trigger_source"] == "--trigger"
    assert {"bet_frequency", "edge_when_betting", "units_per_100_rounds", "sd_per_100_rounds",
            "di", "n0", "rounds_offered", "rounds_bet", "with_max_round"} <= set(count)  # fmt: skip
    assert count["with_max_round"]["rounds_offered"] <= count["rounds_offered"]


def test_local_and_dask_backends_give_the_same_json(
    classic: Paytable, small: BatchEvaluator
) -> None:
    need("distributed", "dask")
    strategy = count_strategy(small, classic.shoe, triggers={"lucky_six": Fraction(2)})
    local = simulate(small, classic.shoe, shoes=4, seed=3, count=strategy, chunk=1)
    dask = simulate(small, classic.shoe, shoes=4, seed=3, count=strategy, backend="dask", workers=2)
    assert local.to_json() == dask.to_json()


def test_cli_count_with_a_tags_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        [
            "simulate", str(EXAMPLES / "lucky-six.toml"), "--strategy", "count", "--tags",
            str(EXAMPLES / "lucky-six-tags.toml"), "--trigger", "lucky_six_level_1=7",
            "--shoes", "3", "--format", "json",
        ],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    bets = json.loads(out)["bets"]
    level_1, level_2 = bets["lucky_six_level_1"]["count"], bets["lucky_six_level_2"]["count"]
    assert level_1["tags"]["6"] == -3 and level_1["trigger"] == "7/1"
    assert level_2["tags"]["6"] == -18 and level_2["trigger_source"] == "derived"
    assert level_2["tags_source"].endswith("lucky-six-tags.toml")
    assert bets["lucky_six"]["count"]["tags_source"] == "eor (level 3)"
    code, out, _ = run(["simulate", "classic", "--strategy", "count", "--shoes", "2"], capsys)
    assert code == 0 and "| Lucky Six " in out and "## Counts and triggers" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[dragon_7]\n6 = 1\n", "tags.toml:1: unknown bet 'dragon_7'"),
        ("[lucky_six]\n6 = 1\nZ = 2\n", "tags.toml:3: bet 'lucky_six', rank 'Z': not a rank"),
        ("[lucky_six]\n6h = 1\n", "tags.toml:2: bet 'lucky_six', rank '6h': give a rank"),
        ("[lucky_six]\nT = 1\n10 = 1\n", "tags.toml:3: bet 'lucky_six', rank '10': given twice"),
        ("[lucky_six]\n6 = true\n", "tags.toml:2: bet 'lucky_six', rank '6': a tag must be an"),
        ("[lucky_six]\n6 = 1001\n", "tags.toml:2: bet 'lucky_six', rank '6': a tag must be within"),
        ("lucky_six = 3\n", "tags.toml:1: bet 'lucky_six': expected a table of rank = tag"),
        ("[lucky_six\n", "tags.toml:1: invalid TOML"),
    ],
)
def test_tags_file_errors_name_the_file_line_bet_and_rank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "tags.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        read_tags(path, ["lucky_six"])
    assert message in str(info.value)
    code, _, err = run(
        ["simulate", "classic", "--strategy", "count", "--tags", str(path), "--shoes", "1"],
        capsys,
    )
    assert code == 2 and err.count("\n") == 1 and "tags.toml" in err


def test_trigger_and_strategy_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    ids = ["tie", "lucky_six"]
    for bad, message in [
        ("lucky=7", "give BET=TC with a bet of the paytable"),
        ("tie", "give BET=TC"),
        ("tie=1/0", "must be a number"),
        ("tie=nan", "must be a number"),
        ("tie=10000000", r"within ±10\*\*6"),
    ]:
        with pytest.raises(SimulationError, match=message):
            parse_triggers([bad], ids)
    with pytest.raises(SimulationError, match="given twice"):
        parse_triggers(["tie=1", "tie=2"], ids)
    for argv, message in [
        (["--tags", "x.toml"], "--tags applies only with --strategy count"),
        (["--see-burns"], "--see-burns applies only with --strategy count"),
        (["--strategy", "hunch"], "'hunch' is not one of 'perfect', 'count'"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler applies only with --backend dask"),
        (["--monte-carlo", "--strategy", "count"], "--shoes applies to dealt shoes, not to"),
        (["--strategy", "count", "--trigger", "nope=1"], "--trigger 'nope=1'"),
    ]:
        code, _, err = run(["simulate", "classic", "--shoes", "1", *argv], capsys)
        assert code == 2 and message in err, err


def test_the_dask_backend_without_its_extra_names_it(
    classic: Paytable, small: BatchEvaluator, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'exactodds\[dask\]'"):
        simulate(small, classic.shoe, shoes=1, seed=1, backend="dask")
