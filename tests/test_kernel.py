"""The batch evaluator's kernels: numba and numpy give the same integers as each other, as
Python ints and as the recursive engine, from 1 to 1,000 decks; and the kernel choice."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Shoe, joint_distribution
from exactodds.analysis import kernel
from exactodds.analysis.batch import BatchEvaluator, compile_bets
from exactodds.bets.loader import bundled_paytables, load_paytable, parse_paytable
from exactodds.bets.paytable import Paytable
from exactodds.errors import ExactOddsError, KernelError, MissingExtraError, ShoeError
from exactodds.figures.metrics import bet_figures
from tests.cli_helpers import run
from tests.extras import requires

needs_numba = requires("numba", "fast")


@pytest.fixture
def use(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """``use(name)`` sets EXACTODDS_KERNEL for the rest of the test."""

    def set_kernel(name: str) -> None:
        monkeypatch.setenv(kernel.KERNEL_ENV, name)

    return set_kernel


def numerators(evaluator: BatchEvaluator, states: Any, name: str, mode: str = "auto") -> list[Any]:
    """Every numerator (Python ints) from one kernel, forced through EXACTODDS_KERNEL."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(kernel.KERNEL_ENV, name)
        result = replace(evaluator, mode=mode).evaluate(states)
    out: list[Any] = result.numerators.tolist()
    assert all(type(x) is int for row in out for x in row)
    return out


def engine_evs(shoe: Shoe, table: Paytable) -> dict[str, Fraction]:
    """Independent figures: the recursive engine and ``metrics`` (Σ net × combinations)."""
    joint = joint_distribution(shoe, table.tableau)
    return {bet.id: bet_figures(joint, bet).ev for bet in table.bets}


def paytable(**rows: tuple[tuple[str, str], ...]) -> Paytable:
    """A paytable of bets given as (condition, payout) rows; every bet loses otherwise."""
    bets = {
        bet_id: {
            "rows": [*({"when": w, "pays": p} for w, p in r), {"when": "otherwise", "pays": "lose"}]
        }
        for bet_id, r in rows.items()
    }
    table, problems = parse_paytable({"bets": bets})
    assert table is not None, problems
    return table


# Every kind of group: bets of the first four cards with and without pair kinds, and bets of
# the whole round with and without them (pair kinds combined with totals: the largest basis).
MIXED = paytable(
    banker=(("winner == banker", "19:20"), ("winner == tie", "push")),
    tie=(("winner == tie", "8:1"),),
    player_pair=(("player.pair", "11:1"),),
    perfect_pair=(("player.perfect_pair or banker.perfect_pair", "25:1"),),
    natural=(("player.natural", "7:2"),),
    pair_and_win=(("player.pair and player.wins", "30:1"),),
    mixed=(
        ("player.perfect_pair and banker.pair", "200:1"),
        ("banker.total == 6 and banker.cards == 3", "3:1"),
    ),
)


@pytest.fixture(scope="module")
def mixed() -> BatchEvaluator:
    return compile_bets(MIXED.bets, MIXED.tableau)


def depleted(decks: int, gone: int, seed: int) -> Shoe:
    """``decks`` decks less ``gone`` random cards."""
    rng = np.random.default_rng(seed)
    flat = np.full(52, decks, dtype=np.int64)
    out = flat - np.bincount(rng.choice(np.repeat(np.arange(52), flat), gone, False), minlength=52)
    rows: Any = tuple(tuple(int(n) for n in out[r * 4 : r * 4 + 4]) for r in range(13))
    return Shoe(rows)


def _value_level(path: Path) -> bool:
    """Whether every bet of the paytable is value-level and offered on every round: the
    shoe-by-shoe evaluator counts those only (the market side bets read the cards)."""
    bets = load_paytable(str(path)).bets
    return not any(b.card_level or b.offer is not None or b.live for b in bets)


# banker-streak's round bets are punto-banco's: checked there (its streak bets are apart)
VALUE_LEVEL = [p for p in bundled_paytables() if _value_level(p) and p.stem != "banker-streak"]


def test_card_level_paytables_are_refused_in_one_clear_line() -> None:
    others = [p for p in bundled_paytables() if not _value_level(p)]
    assert {p.stem for p in others} >= {"lucky-nines", "jackpot-baccarat", "insurance"}
    for path in others:
        table = load_paytable(str(path))
        with pytest.raises(ExactOddsError, match="value-level bets on every round only"):
            compile_bets(table.bets, table.tableau)


@needs_numba
@pytest.mark.parametrize("path", VALUE_LEVEL, ids=lambda p: p.stem)
def test_every_bundled_paytable_1_to_1000_decks(path: Path) -> None:
    table = load_paytable(str(path))
    evaluator = compile_bets(table.bets, table.tableau)
    seed = sum(map(ord, path.stem))
    shoes = [
        depleted(1, 10, seed),
        table.shoe.remove("A 2 3 4 5 6 7 8 9 T J Q K Kh Kh 9d 9d 9d 6c 6c"),
        depleted(30, 200, seed),
        depleted(1000, 300, seed),
    ]
    fast = numerators(evaluator, shoes, "numba")
    assert fast == numerators(evaluator, shoes, "numpy")
    assert fast == numerators(evaluator, shoes, "numba", "limbs")
    result = evaluator.evaluate(shoes[::3])  # 1 and 1,000 decks: the engine as well
    for i, shoe in enumerate(shoes[::3]):
        assert result.evs(i) == engine_evs(shoe, table), shoe.describe()


@needs_numba
@pytest.mark.parametrize("mode", ["limbs", "object"])
def test_forced_slow_paths_give_the_same_integers(mixed: BatchEvaluator, mode: str) -> None:
    shoes = [Shoe.decks(8), Shoe.decks(6).remove("6 6 6 Kd Kd 9h"), depleted(2, 30, 3)]
    want = numerators(mixed, shoes, "numba")
    assert numerators(mixed, shoes, "numba", mode) == want
    assert numerators(mixed, shoes, "numpy", mode) == want


@needs_numba
def test_huge_payouts_take_smaller_primes() -> None:
    # Scaled nets near 2**50: the weights are reduced modulo primes of about 2**25.
    table = paytable(
        huge=(("winner == tie and banker.cards == 3", "1000000000000001:3"),),
        player_pair=(("player.pair", "11:1"),),
    )
    evaluator = compile_bets(table.bets, table.tableau)
    weight_sum = max(g.col_abs_sum for g in evaluator.groups)
    assert [m.bits for m in kernel.choose_moduli(2**100, weight_sum, 5005)] == [64, 25, 25]
    shoes = [Shoe.decks(8), depleted(1000, 50, 5)]
    want = numerators(evaluator, shoes, "numpy", "object")
    assert numerators(evaluator, shoes, "numba") == want
    assert numerators(evaluator, shoes, "numpy") == want
    result = evaluator.evaluate(shoes)
    for i, shoe in enumerate(shoes):
        assert result.evs(i) == engine_evs(shoe, table)


def shoe_of(cards: int) -> Shoe:
    """25 decks (1,300 cards) less random cards, down to ``cards`` cards."""
    return depleted(25, 1300 - cards, cards)


@needs_numba
def test_limbs_up_to_the_largest_shoe_the_word_bound_allows(mixed: BatchEvaluator) -> None:
    # 1,292 cards: the largest shoe with (N)_6 < 2**62, so the word pass multiplies in 31-bit
    # limbs; one card more and it multiplies 64-bit words. Both exact: Python ints agree.
    assert kernel.split_limbs(kernel.WORD, True, 1292)
    assert not kernel.split_limbs(kernel.WORD, True, 1293)
    for shoes in ([shoe_of(1292), shoe_of(700)], [shoe_of(1293)]):
        want = numerators(mixed, shoes, "numpy", "object")
        assert numerators(mixed, shoes, "numba") == want
        assert numerators(mixed, shoes, "numba", "limbs") == want


@needs_numba
@pytest.mark.parametrize("decks", [8, 1000])
def test_limbs_and_words_give_the_same_residues(mixed: BatchEvaluator, decks: int) -> None:
    from exactodds.analysis.batch.basis import LOCAL_COLS, VALUE_RANKS

    plan = kernel.numba_plan(mixed.groups, LOCAL_COLS, VALUE_RANKS, len(mixed.bet_ids))
    counts = np.array([depleted(decks, gone, gone).counts for gone in (0, 7, 290)])
    for modulus in kernel.choose_moduli(2**100, plan.weight_sum, plan.max_terms):
        split = kernel.evaluate_numba(plan, counts, modulus)
        wide = kernel.evaluate_numba(plan, counts, modulus, wide=True)
        assert split.tolist() == wide.tolist(), modulus


@needs_numba
def test_a_prime_pass_takes_counts_as_residues_below_p_cards(mixed: BatchEvaluator) -> None:
    # The kernel reduces no count modulo a prime p: exact (Python ints modulo p) for a state of
    # p − 1 cards, a state of p cards is refused. Public input stops at 52,000 cards.
    from exactodds.analysis.batch.basis import LOCAL_COLS, VALUE_RANKS
    from exactodds.analysis.batch.evaluator import numpy_residues

    plan = kernel.numba_plan(mixed.groups, LOCAL_COLS, VALUE_RANKS, len(mixed.bet_ids))
    (modulus,) = kernel._primes(20, 1)
    p = modulus.value
    counts = np.array([Shoe.decks(8).counts, depleted(2, 30, 1).counts])
    counts[:, 0, 0] += p - 1 - counts.sum(axis=(1, 2))  # p − 1 cards, mostly aces of one suit
    exact = numpy_residues(mixed.groups, counts, counts.sum(axis=(1, 2)), len(mixed.bet_ids), None)
    want = [[int(x) % p for x in row] for row in exact.tolist()]
    assert kernel.evaluate_numba(plan, counts, modulus).tolist() == want
    counts[1, 0, 0] += 1
    with pytest.raises(ShoeError, match=f"state of {p:,} cards reaches the kernel's prime {p}"):
        kernel.evaluate_numba(plan, counts, modulus)
    with pytest.raises(ShoeError, match="over 52,000 cards"):
        mixed.evaluate(counts)


@st.composite
def shoe_batches(draw: st.DrawFn) -> list[Shoe]:
    """One to three depleted shoes of 1 to 1,000 decks, each card count in [0, decks]."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        decks = draw(st.sampled_from([1, 2, 8, 25, 26, 100, 1000]))
        lower = draw(st.integers(0, decks))
        counts = draw(st.lists(st.integers(lower, decks), min_size=52, max_size=52))
        if sum(counts) < 6:
            counts[0] += 6
        rows: Any = tuple(tuple(counts[r * 4 : r * 4 + 4]) for r in range(13))
        out.append(Shoe(rows))
    return out


@pytest.mark.slow
@needs_numba
@settings(max_examples=15, deadline=None)
@given(shoes=shoe_batches())
def test_random_depleted_shoes(mixed: BatchEvaluator, shoes: list[Shoe]) -> None:
    fast = numerators(mixed, shoes, "numba")
    assert fast == numerators(mixed, shoes, "numpy")
    result = mixed.evaluate(shoes[:1])
    assert result.evs(0) == engine_evs(shoes[0], MIXED)


@given(
    st.lists(st.integers(-(2**120), 2**120), min_size=1, max_size=20),
    st.booleans(),
    st.integers(0, 2**40),
)
def test_chinese_remainders_recover_signed_integers(
    xs: list[int], force: bool, weight_sum: int
) -> None:
    moduli = kernel.choose_moduli(2**120, weight_sum, 7096, force=force)
    assert len(set(moduli)) == len(moduli) and all(kernel._is_prime(m.value) for m in moduli[1:])
    residues = [np.array([x % m.value for x in xs], dtype=np.uint64) for m in moduli]
    assert kernel.combine(residues, moduli).tolist() == xs


def test_unknown_kernel_is_one_line_error(
    use: Callable[[str], None], mixed: BatchEvaluator
) -> None:
    use("fortran")
    with pytest.raises(KernelError, match=r"unknown EXACTODDS_KERNEL value 'fortran'"):
        mixed.evaluate([Shoe.decks(1)])


def test_forcing_numba_without_it_names_the_extra(
    use: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kernel, "_numba_error", lambda: "No module named 'numba'")
    assert kernel.kernel_name(10**6) == "numpy"  # the default falls back quietly
    use("numba")
    with pytest.raises(MissingExtraError, match=r"numba.*: pip install 'exactodds\[fast\]'$"):
        kernel.kernel_name()


@needs_numba
def test_small_batches_use_numpy_until_numba_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kernel.KERNEL_ENV, raising=False)
    monkeypatch.delitem(sys.modules, "exactodds.analysis._numba_kernel", raising=False)
    assert kernel.kernel_name(kernel.AUTO_MIN_STATES - 1) == "numpy"
    assert kernel.kernel_name(kernel.AUTO_MIN_STATES) == "numba"
    monkeypatch.setitem(sys.modules, "exactodds.analysis._numba_kernel", ModuleType("loaded"))
    assert kernel.kernel_name(1) == "numba"


def test_cli_reports_a_bad_kernel_in_one_line(
    use: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    use("gpu")
    code, out, err = run(["eor", "punto-banco"], capsys)
    assert code == 2 and out == ""
    assert "EXACTODDS_KERNEL" in err and "'gpu'" in err and err.count("\n") == 1


def test_cli_start_and_small_batches_do_not_import_numba() -> None:
    code = (
        "import sys\n"
        "from exactodds.cli import main\n"
        "from exactodds.analysis.batch import compile_bets\n"
        "from exactodds.bets.loader import load_paytable\n"
        "from exactodds import Shoe\n"
        "t = load_paytable('punto-banco')\n"
        "compile_bets(t.bets, t.tableau).evaluate([Shoe.decks(8)])\n"
        "print('numba' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != kernel.KERNEL_ENV}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert result.stdout.strip() == "False"


@needs_numba
def test_without_a_writable_cache_the_kernel_compiles_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # numba refuses cache=True when neither the package nor the user cache dir is writable.
    import numba

    from exactodds.analysis import _numba_kernel

    calls: list[bool] = []

    def njit(signature: Any, cache: bool = False, **kw: Any) -> Any:
        calls.append(cache)
        if cache:
            raise RuntimeError("cannot cache function 'f': no locator available for file 'f.py'")
        return lambda f: f

    def f(x: int) -> int:
        return x

    monkeypatch.setattr(numba, "njit", njit)
    assert _numba_kernel._jit("int64(int64)")(f) is f
    assert calls == [True, False]
