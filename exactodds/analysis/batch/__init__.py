"""Exact EV of every bet of a paytable for many shoe states at once.

The package splits the job in three: :mod:`.compiler` turns bets into integer weights over a term
basis (:mod:`.basis`), :mod:`.evaluator` evaluates the terms for blocks of shoe states and
:mod:`.ring` does its arithmetic, exactly or modulo a word or a prime.

Why: shoe-depth questions (effect of removal, card counting, simulated shoes) need the exact EV
for tens of thousands of shoe states; the recursive engine takes a fraction of a second per state.

Method. A round is an ordered sequence of six cards (rules.md §2). The number of sequences with a
given sequence of card *values* is ∏ᵥ (nᵥ)ₖᵥ (falling factorials of the value counts, kᵥ = how
often value v occurs), which depends only on the value multiset. Pair kinds add a refinement on the
first four cards: when cards 1 and 3 (or 2 and 4) have the same value v, the count of sequences
where they also share the rank (``R``) or the rank and suit (``S``) is R_v·(nᵥ−2)ₖᵥ₋₂ with
R_v = Σ_{rank r of value v} (n_r)₂, S_v = Σ_{card c of value v} (n_c)₂, and for two such pairs of
one value a closed form of degree four. A bet's net on an outcome with pair kinds is rewritten by
Möbius inversion on "no relation ⊇ same rank ⊇ same rank and suit", so every bet becomes

    count·net = Σ_terms W[term, bet] · ∏ᵥ local_v[term](state)

with integer weights ``W`` (nets scaled by the bet's common denominator). A paytable is compiled
once: bets that look only at the first four cards (naturals, pairs) use the 4-card multisets times
(N−4)₂; bets that never look at pair kinds skip the refinement. Evaluation builds the term matrix
for a block of states (products of per-value local factors, split in two halves) and multiplies
it with ``W``. Exactness in 64-bit words (:mod:`~exactodds.analysis.kernel`): the exact result is
a count times a scaled net, at most ``max|net|·(N)₆``; when that is below 2⁶³ everything is
computed in ``uint64``, exact modulo 2⁶⁴, so the ``int64`` view is the exact value. Larger
shoes (above about 25 decks) are also computed modulo primes below 2³² and recombined by the
Chinese remainder theorem. The hot loop runs in numba when installed (``EXACTODDS_KERNEL``
chooses), else in numpy; both give the same integers.

>>> from exactodds.deal.round import Outcome
>>> from exactodds.deal.shoe import Shoe
>>> from fractions import Fraction
>>> class Tie:
...     id, name, max_round = "tie", "Tie", None
...     def net(self, o: Outcome) -> Fraction:
...         return Fraction(8) if o.winner == "tie" else Fraction(-1)
>>> ev = compile_bets([Tie()]).evaluate([Shoe.decks(8)]).ev(0, "tie")
>>> f"{float(-ev):.4%}"  # docs/rules.md §9
'14.3596%'
"""

from exactodds.analysis.batch.compiler import BetLike, compile_bets
from exactodds.analysis.batch.evaluator import BatchEvaluator, BatchResult, shoe_counts

__all__ = [
    "BatchEvaluator",
    "BatchResult",
    "BetLike",
    "compile_bets",
    "shoe_counts",
]
