"""Every limit exactodds puts on its input, in one place (the README's "Limits" table).

Inputs are untrusted (paytables written by others, options typed by anyone), so each is bounded
before any work starts: a file by its size and nesting, a number by its digits, a condition by its
length and nesting, a paytable by its bets and rows, a shoe by its cards, and a simulation by the
shoes and rounds it deals. Each limit has its own message, raised as the narrow
:class:`~exactodds.errors.ExactOddsError` of what was being read.

>>> MAX_FILE_BYTES, MAX_DIGITS, MAX_DECKS * 52 == MAX_SHOE_CARDS
(1048576, 30, True)
>>> check_count(100, MAX_SHOES, "--shoes")
>>> check_count(10**7, MAX_SHOES, "--shoes")
Traceback (most recent call last):
...
exactodds.errors.ExactOddsError: --shoes 10,000,000 is over the limit of 1,000,000
"""

from __future__ import annotations

from exactodds.errors import ExactOddsError, quote

__all__ = [
    "CPU_BUDGET",
    "EXACT_RUIN_WORK",
    "EXACT_SESSION_ROUNDS",
    "EXACT_SESSION_WORK",
    "MAX_AWARD_ODDS",
    "MAX_BETS",
    "MAX_CARD_TEXT",
    "MAX_CLUSTER_SHOES",
    "MAX_COMPARE_VARIANTS",
    "MAX_COMPARE_WORK",
    "MAX_CONDITION_CHARS",
    "MAX_CONDITION_COUNTS",
    "MAX_CONDITION_DEPTH",
    "MAX_CPU_BUDGET",
    "MAX_DECKS",
    "MAX_DIGITS",
    "MAX_EVALUATION_MODULI",
    "MAX_EVALUATION_WORK",
    "MAX_EXPONENT",
    "MAX_EXPOSURE_JOBS",
    "MAX_EXPOSURE_TOP",
    "MAX_FILE_BYTES",
    "MAX_FORMULA_DIGITS",
    "MAX_FORMULA_WORK",
    "MAX_MONTE_CARLO_ROUNDS",
    "MAX_NAME_CHARS",
    "MAX_NESTING",
    "MAX_PAYOUT_CHARS",
    "MAX_PAYOUT_NET",
    "MAX_PDF_DIGITS",
    "MAX_PDF_ROWS",
    "MAX_ROWS",
    "MAX_RUIN_WORK",
    "MAX_SESSION_EXACT_WORK",
    "MAX_SESSION_POINTS",
    "MAX_SESSION_ROUNDS",
    "MAX_SESSION_WORK",
    "MAX_SETTLE_ROUNDS",
    "MAX_SHOES",
    "MAX_SHOE_CARDS",
    "MAX_SIMULATED_CARDS",
    "MAX_SIMULATION_SHOE",
    "MAX_SUM_TERMS",
    "MAX_TEXT_CHARS",
    "MAX_XLSX_YEAR",
    "check_count",
    "check_length",
    "too_long",
]

# -- files ----------------------------------------------------------------------------------------

MAX_FILE_BYTES = 1 << 20
"""Largest input file (paytable, rules, shoe): 1 MiB. Only regular files are read."""

MAX_NESTING = 32
"""Deepest nesting of arrays and tables in a TOML or JSON input file."""

MAX_DIGITS = 30
"""Most digits in one number (file values, payouts, stakes, option values)."""

MAX_EXPONENT = 30
"""Largest exponent of a decimal written with one (``1e30``) in a TOML or JSON file."""

# -- paytables ------------------------------------------------------------------------------------

MAX_BETS = 256
"""Most bets in one paytable."""

MAX_ROWS = 256
"""Most rows in one bet."""

MAX_CONDITION_CHARS = 4096
"""Longest row condition."""

MAX_CONDITION_DEPTH = 64
"""Deepest nesting of parentheses and ``not`` in a condition."""

MAX_CONDITION_COUNTS = 32
"""Most ``count(GROUP, …)`` in one condition (each is a sum over up to six cards)."""

MAX_SUM_TERMS = 64
"""Most terms of one ``+``/``-`` sum, and most values in one ``in [...]`` list."""

MAX_PAYOUT_CHARS = 100
"""Longest payout text (``1:1 less 5%``)."""

MAX_PAYOUT_NET = 10**15
"""Largest net win of a payout per unit staked (``a:b`` with a/b up to 10¹⁵, a jackpot row at
its meter): the standard deviation stays under 10¹⁵, so the 40-digit z-values of the
confidence ranges and volatility index still decide every printed digit."""

MAX_NAME_CHARS = 200
"""Longest bet id, name, event label or paytable/rules name."""

MAX_TEXT_CHARS = 10_000
"""Longest description or source text (of a paytable or a jurisdiction profile)."""

MAX_AWARD_ODDS = 10**15
"""Largest N of a profile's ``top_award_max_odds`` (the top award at least once in N rounds)."""

# -- shoes ----------------------------------------------------------------------------------------

MAX_DECKS = 1000
"""Most decks in a shoe. The exact engine takes the same time for any size; the bound keeps
simulations, Monte Carlo checks and descriptions of a shoe bounded."""

MAX_SHOE_CARDS = 52 * MAX_DECKS
"""Most cards in any shoe (52,000)."""

MAX_CARD_TEXT = 10_000
"""Longest card string (``--remove``, ``remove =`` in a shoe file, ``settle --cards``)."""

MAX_SETTLE_ROUNDS = 1_000
"""Most rounds one ``settle`` deals (one ``--cards`` each, for streak bets): about a dozen
eight-deck shoes' worth; all must come from one shoe anyway."""

# -- simulations ----------------------------------------------------------------------------------

MAX_SHOES = 1_000_000
"""Most shoes one ``simulate`` run deals."""

MAX_SIMULATION_SHOE = 24 * 52
"""Largest shoe ``simulate`` deals (24 decks, 1,248 cards): beyond it each round's exact EV
needs Python integers and costs ~13 times more."""

MAX_SIMULATED_CARDS = 100_000 * 8 * 52
"""Most cards one ``simulate`` run deals (shoes × cards in the shoe): 100,000 eight-deck shoes."""


MAX_CLUSTER_SHOES = 1_000_000_000
"""Most shoes one ``simulate`` run deals on a Dask cluster of one's own (``--scheduler``): the
limits above bound the work on this machine, this one a cluster's (10⁹ eight-deck shoes are
about 8·10¹⁰ rounds)."""

MAX_MONTE_CARLO_ROUNDS = 100_000_000
"""Most rounds of a Monte Carlo check (``montecarlo --rounds``,
``report --monte-carlo-rounds``)."""

MAX_SESSION_ROUNDS = 1_000_000
"""Most rounds of one ``session``."""

MAX_SESSION_POINTS = 4_000_000
"""Most net results (lattice points) a session distribution holds: Banker's 39 per round allow
about 100,000 rounds."""

EXACT_SESSION_ROUNDS = 1_000
"""Sessions up to this many rounds are exact Fractions (when :data:`EXACT_SESSION_WORK` allows);
longer ones give every probability between two proven bounds."""

EXACT_SESSION_WORK = 3 * 10**9
"""Work of an exact session distribution (lattice points × rounds × bits of a round's total):
about 2 CPU seconds. Banker at 1,000 rounds costs 1.7·10⁹."""

MAX_SESSION_EXACT_WORK = 12 * 10**9
"""Most work of an exact distribution where proven bounds fail (bets of four or more net values
over many rounds, whose recurrence has terms of both signs): beyond it such a session is refused
up front."""

MAX_SESSION_WORK = 10**10
"""Most work of one ``session``, estimated before any of it (``exactodds/session/work.py``, in
operations, about 10⁹ a second on one core): the distribution (exact: lattice points × rounds ×
bits of a round's total; bounded: lattice points × net values × 12 × bits of precision), the
risk-of-ruin programme's state updates (400 operations each exact, 60 bounded) and, for JSON and
CSV, writing every probability (lattice points × bits of the far tail's exponent). About 10 CPU
seconds: Banker over 10,000 rounds in JSON is 7.0·10⁹; over 100,000 rounds, 1.4·10¹⁰, is
refused."""

EXACT_RUIN_WORK = 5_000_000
"""Risk of ruin is exact up to this many state updates (big integers: about 2 CPU seconds),
else bounded like a long session's probabilities."""

MAX_RUIN_WORK = 100_000_000
"""Most state updates of the risk-of-ruin programme (about 6 CPU seconds)."""

MAX_COMPARE_VARIANTS = 256
"""Most variants (rules × decks × Tie × Banker) in one ``compare`` table."""

MAX_EXPOSURE_TOP = 4095
"""Most sorts ``exposure --optimise --top`` prints (every two-group sort of the 13 ranks)."""

MAX_EXPOSURE_JOBS = 256
"""Most worker processes of ``exposure --optimise --jobs``."""


# -- work budgets (estimated before any work by exactodds/bets/budget.py) --------------------------

CPU_BUDGET = 30
"""CPU seconds (one core) a command or library call may be estimated to take before it is
refused up front: the one budget in seconds (``--budget SECONDS``, ``EXACTODDS_BUDGET``, or
``budget=`` in Python raise or lower it). The card engine's share is measured by a probe
(:mod:`exactodds.counting.probe`)."""

MAX_CPU_BUDGET = 10**6
"""Largest ``--budget`` (about 11.6 days of one core): beyond it a budget bounds nothing."""

MAX_EVALUATION_MODULI = 1_500
"""Bets × CRT moduli of the exact EVs of ``eor`` and ``simulate`` (about 1 MB each)."""

MAX_EVALUATION_WORK = 250_000
"""Bets × CRT moduli² (the recombination of every exact EV from its residues)."""

MAX_COMPARE_WORK = 600_000
"""Variants × rows one ``compare`` settles (every row of every bet in every variant)."""

MAX_FORMULA_WORK = 60_000
"""Groups (tableau × Tie × Banker) × (rows + 2,000) of ``compare --formula`` or ``--decks inf``."""

MAX_FORMULA_DIGITS = 1_000
"""Digits of a bet's common denominator for ``compare --formula`` (sympy prints coefficients)."""

MAX_PDF_ROWS = 300
"""Rows of return tables in the PDF sheets of one ``report`` (WeasyPrint's time and memory)."""

MAX_PDF_DIGITS = 100
"""Digits of a bet's common denominator in a PDF sheet (long numbers are slow to lay out)."""

# -- outputs --------------------------------------------------------------------------------------

MAX_XLSX_YEAR = 2107
"""Last year an XLSX sheet may be dated: the zip entries of the file record MS-DOS times."""


def check_count(
    value: int, maximum: int, what: str, error: type[ExactOddsError] = ExactOddsError
) -> None:
    """Refuse ``value`` above ``maximum`` (as ``error``), naming the option or key ``what``."""
    if value > maximum:
        shown = f"{value:,}" if value.bit_length() < 200 else "with more than 60 digits"
        raise error(f"{what} {shown} is over the limit of {maximum:,}")


def too_long(text: str, maximum: int, what: str, *, show: bool = False) -> str | None:
    """The one message for ``what`` when ``text`` has over ``maximum`` characters (``show``: the
    text too, elided), else None; for readers that collect problems instead of raising.

    >>> too_long("9:1", MAX_PAYOUT_CHARS, "payout") is None
    True
    >>> too_long("x" * 300, MAX_NAME_CHARS, "'name'")
    "'name' of 300 characters is longer than the limit of 200"
    """
    if len(text) <= maximum:
        return None
    message = f"{what} of {len(text):,} characters is longer than the limit of {maximum:,}"
    return f"{message}: {quote(text)}" if show else message


def check_length(
    text: str,
    maximum: int,
    what: str,
    error: type[ExactOddsError] = ExactOddsError,
    *,
    show: bool = False,
) -> None:
    """Refuse ``text`` over ``maximum`` characters (as ``error``; see :func:`too_long`)."""
    message = too_long(text, maximum, what, show=show)
    if message is not None:
        raise error(message)
