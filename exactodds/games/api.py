"""The games' Python API: one call per game, as the ``exactodds game`` commands run them.

>>> r = chemin_de_fer("kemeny-snell", rules="free-everywhere")
>>> r.solution.value, r.solution.player[0].draw
(Fraction(-679568, 53094899), Fraction(9, 11))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.deal.shoe import Shoe
from exactodds.errors import about, require
from exactodds.games.banque import BanqueSolution, build_banque, solve_banque
from exactodds.games.chemin import build_form
from exactodds.games.commission import CommissionSolution, solve_commission
from exactodds.games.equilibrium import Solution, solve
from exactodds.games.rules import CheminRules, GameError, Model, load_rules
from exactodds.games.threeperson import SymmetricEquilibrium, symmetric_equilibria

__all__ = ["BanqueResult", "CheminResult", "baccara_banque", "chemin_de_fer"]


@dataclass(frozen=True)
class CheminResult:
    """The zero-sum solution and, with a commission, the Nash equilibria of the casino game."""

    solution: Solution
    commission: CommissionSolution | None = None


def chemin_de_fer(
    model: str | Model = Model.DOWNTON_LOCKWOOD,
    shoe: Shoe | None = None,
    rules: str | CheminRules | None = None,
    commission: Fraction | None = None,
    *,
    infinite: bool = False,
) -> CheminResult:
    """Solve chemin de fer under ``model`` for ``shoe`` (default 8 decks; ``infinite``: cards
    dealt with replacement from one deck's proportions) and ``rules`` (default traditional);
    with ``commission`` (e.g. ``Fraction(5, 100)``), also the game where the Banker pays it."""
    require(model, (str, Model), "model")
    require(shoe, (Shoe, type(None)), "shoe")
    require(rules, (str, CheminRules, type(None)), "rules")
    chosen = model if isinstance(model, Model) else Model.named(model)
    cards = None if infinite else (shoe if shoe is not None else Shoe.decks(8))
    form = build_form(chosen, cards)
    rule_set = load_rules(rules)
    if commission is not None and chosen.player_sees_cards and rule_set.player_free:
        raise GameError(
            "a commission needs a game where the Player has one choice (draw or stand on his "
            "total of 5); in ethier-gamez he has one per pair of cards: use kemeny-snell or "
            "downton-lockwood"
        )
    extra = None if commission is None else solve_commission(form, rule_set, commission)
    return CheminResult(solve(form, rule_set), extra)


@dataclass(frozen=True)
class BanqueResult:
    """Baccara banque: the team game's solution and the three-person game's equilibria with
    equal, independent Player mixes (``complete``: whether that search covered every case)."""

    solution: BanqueSolution
    symmetric: tuple[SymmetricEquilibrium, ...]
    complete: bool


def baccara_banque(
    model: str | Model = Model.KEMENY_SNELL, shoe: Shoe | None = None, *, infinite: bool = False
) -> BanqueResult:
    """Solve baccara banque with cards dealt with replacement in the proportions of ``shoe``
    (default 8 decks, the same as ``infinite``); only the ``kemeny-snell`` model is built.

    >>> r = baccara_banque(shoe=Shoe.from_rank_counts({"T": 2, "5": 2, "7": 2}))
    >>> r.solution.banker_edge, [e.draw for e in r.symmetric], r.complete
    (Fraction(20, 19683), [Fraction(0, 1)], True)
    """
    require(model, (str, Model), "model")
    require(shoe, (Shoe, type(None)), "shoe")
    chosen = model if isinstance(model, Model) else Model.named(model)
    if chosen is not Model.KEMENY_SNELL:
        message = (
            f"baccara banque is solved with replacement only (model kemeny-snell), "
            f"not {chosen.value}"
        )
        raise about(GameError(message), "model")
    form = build_banque(None if infinite else (shoe if shoe is not None else Shoe.decks(8)))
    symmetric, complete = symmetric_equilibria(form)
    return BanqueResult(solve_banque(form), symmetric, complete)
