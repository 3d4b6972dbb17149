"""The work budget: what the estimate refuses, through the CLI, before any work.

The paytables are those of ``benchmarks/limits.py`` (valid: ``validate`` accepts them), which
measured what each command costs on them; here only the decisions are checked (no clocks).
The estimate of the moduli is checked against the moduli the evaluator itself chooses.
"""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from math import perm
from pathlib import Path
from types import ModuleType

import pytest

from exactodds.analysis import kernel
from exactodds.bets import budget
from exactodds.bets.loader import load_paytable
from exactodds.limits import MAX_EVALUATION_MODULI, MAX_EVALUATION_WORK
from exactodds.numbers import digits, exact
from tests.cli_helpers import Cli


def _benchmark() -> ModuleType:
    path = Path(__file__).parent.parent / "benchmarks" / "limits.py"
    spec = importlib.util.spec_from_file_location("benchmark_limits", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LIMITS = _benchmark()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("budget")
    out = {}
    for name in ("primes", "primes-28", "wide-4", "rows"):
        out[name] = folder / f"{name}.toml"
        out[name].write_text(LIMITS.PAYTABLES[name](), encoding="utf-8")
    return out


def test_the_paytables_are_valid(made: dict[str, Path], cli: Cli) -> None:
    code, _, err = cli(["validate", *map(str, made.values())])
    assert code == 0, err


@pytest.mark.parametrize(
    "case",
    [
        ("primes", ["eor"], "MAX_EVALUATION_WORK"),
        ("primes", ["simulate", "--shoes", "1"], "MAX_EVALUATION_WORK"),
        ("primes-28", ["eor"], "MAX_EVALUATION_MODULI"),
        ("primes-28", ["simulate", "--shoes", "1"], "MAX_EVALUATION_MODULI"),
        ("wide-4", ["simulate", "--shoes", "300"], "at most 232 shoes fit"),
        ("primes", ["compare", "--formula"], "MAX_FORMULA_DIGITS"),
        ("primes", ["compare", "--decks", "8,inf"], "MAX_FORMULA_DIGITS"),
        ("primes", ["report", "--format", "pdf", "--out", "OUT"], "MAX_PDF_DIGITS"),
        ("rows", ["report", "--format", "pdf", "--out", "OUT"], "MAX_PDF_ROWS"),
        (
            "rows",
            [
                "compare",
                "--rules",
                "punto-banco,mini,pronto",
                "--tie",
                "8:1,9:1",
                "--decks",
                "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21",
            ],
            "MAX_COMPARE_WORK",
        ),
        (
            "rows",
            ["compare", "--formula", "--rules", "punto-banco,mini,pronto", "--tie", "8:1,9:1"],
            "MAX_FORMULA_WORK",
        ),
    ],
)
def test_what_the_budget_refuses(
    case: tuple[str, list[str], str], made: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    name, args, needle = case
    if "pdf" in args:
        pytest.importorskip("weasyprint")
    argv = [args[0], str(made[name]), *(str(tmp_path) if a == "OUT" else a for a in args[1:])]
    code, out, err = cli(argv)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and needle in err, err
    assert list(tmp_path.iterdir()) == []


def test_what_the_budget_allows(made: dict[str, Path]) -> None:
    """At the budget: the wide-4 paytable needs 242 moduli for its 4 bets (968 residues per
    state, 234,256 recombination steps), just within both budgets."""
    e = budget.check_evaluation(load_paytable(made["wide-4"]).bets, 416)
    assert (e.bets, e.moduli) == (4, 242)
    assert e.size <= MAX_EVALUATION_MODULI and e.work <= MAX_EVALUATION_WORK
    budget.check_simulation(load_paytable(made["wide-4"]).bets, 416, 103)
    budget.check_compare(load_paytable("classic").bets, 256, 6)


@pytest.mark.parametrize("rows", [2, 5, 21, 61])
def test_the_moduli_estimate_covers_the_evaluator(rows: int, tmp_path: Path) -> None:
    """The estimate is at least what the evaluator chooses for the same bound (the largest
    |net| × common denominator × (cards)₆) with weights too large for 32-bit primes."""
    path = tmp_path / "p.toml"
    path.write_text(LIMITS.prime_paytable(1, rows), encoding="utf-8")
    bets = load_paytable(path).bets
    scale = budget.bet_denominator(bets[0])
    top = max(abs(bets[0].row_net(r)) for r in bets[0].rows)
    bound = int(top * scale) * perm(416, 6)
    chosen = kernel.choose_moduli(bound, 2**40, 2**14)  # the fewest bits a prime may have
    assert budget.estimate_evaluation(bets, 416).moduli >= len(chosen)


def test_exact_integers_render_beyond_the_digit_limit() -> None:
    """Python refuses str() of integers over 4,300 digits by default; the sheets' renderer
    does not depend on that limit (checked against the digits computed by hand)."""
    n = 7**20_000  # 16,902 digits
    text = digits(n)
    assert len(text) == 16_902 and text.endswith("1")  # 7**4 = 2401: …01 at every 4th power
    assert int(text[:30]) == n // 10 ** (16_902 - 30)  # the leading digits, by division
    assert exact(Fraction(-1, n)) == "-1/" + text


def test_a_sheet_over_wide_denominators_renders(made: dict[str, Path], cli: Cli) -> None:
    code, out, err = cli(["report", str(made["primes"]), "--format", "json"])
    assert code == 0, err
    assert max(len(part) for part in out.split('"')) > 4_300
