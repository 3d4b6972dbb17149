"""The games' Python API: one call per game, as the ``exactodds game`` commands run them.

>>> r = chemin_de_fer("kemeny-snell", rules="free-everywhere")
>>> r.solution.value, r.solution.player[0].draw
(Fraction(-679568, 53094899), Fraction(9, 11))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.deal.shoe import Shoe
from exactodds.errors import require
from exactodds.games.chemin import build_form
from exactodds.games.commission import CommissionSolution, solve_commission
from exactodds.games.equilibrium import Solution, solve
from exactodds.games.rules import CheminRules, GameError, Model, load_rules

__all__ = ["CheminResult", "chemin_de_fer"]


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
