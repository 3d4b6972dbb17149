"""The game variants a comparison is made of (rules × decks × Tie × Banker), as data transforms
of a paytable, and the standard bets a variant puts in.

A variant is a data transform of the paytable: the tableau and the number of decks are swapped,
the winning payout of bet ``tie`` is replaced, and bet ``banker``'s rows are replaced by the
commission (19:20, push on a tie) or no-commission (1:2 on a winning 6, 1:1 otherwise) version.
Bets a variant does not touch keep their rows, streak bets included. A paytable without a
``tie`` (``banker``) bet gets the standard one when the variant names a Tie payout (Banker
version), so the grid still shows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from exactodds.bets.payout import LOSE, PUSH, Payout, parse_payout
from exactodds.bets.paytable import Bet, Paytable, Row
from exactodds.deal.tableau import Tableau
from exactodds.errors import ExactOddsError, PaytableError, quote
from exactodds.language import OTHERWISE, parse_condition

__all__ = [
    "INFINITE",
    "BankerMode",
    "DeckCount",
    "Variant",
    "apply_variant",
    "banker_bet",
    "parse_list",
    "tie_bet",
]

INFINITE: Literal["inf"] = "inf"
"""The decks value of the infinite-deck limit (``--decks 6,8,inf``)."""

DeckCount = int | Literal["inf"]
"""A number of decks, or :data:`INFINITE`."""


class BankerMode(StrEnum):
    """Which Banker bet a variant uses.

    >>> [(r.event, str(r.pays)) for r in banker_bet(BankerMode("no-commission")).rows[:2]]
    [('Banker wins with 6', '1:2'), ('Banker wins', '1:1')]
    """

    COMMISSION = "commission"
    NO_COMMISSION = "no-commission"


def parse_list(text: str | None) -> list[str] | None:
    """A comma-separated option value as a list (``None`` when not given).

    >>> parse_list("punto-banco, mini"), parse_list(None)
    (['punto-banco', 'mini'], None)
    """
    if text is None:
        return None
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise ExactOddsError(
            f"list {quote(text, 60)} has an empty item (give values separated by commas)"
        )
    return items


# -- the standard bets a variant puts in -----------------------------------------------------------


def tie_bet(pays: Payout, name: str = "Tie") -> Bet:
    """The standard Tie bet: ``pays`` on equal totals, lose otherwise.

    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.figures.metrics import bet_figures
    >>> from exactodds.deal.shoe import Shoe
    >>> from exactodds.numbers import percent
    >>> joint = joint_distribution(Shoe.decks(8))
    >>> percent(bet_figures(joint, tie_bet(parse_payout("8:1"))).house_edge)  # docs/rules.md §9
    '14.3596%'
    """
    return Bet(
        "tie",
        name,
        (Row(parse_condition("winner == tie"), pays, "Tie"), Row(OTHERWISE, LOSE, "No tie")),
    )


def _banker_rows(mode: BankerMode) -> tuple[Row, ...]:
    wins, tie = parse_condition("banker.wins"), parse_condition("winner == tie")
    tail = (Row(tie, PUSH, "Tie"), Row(OTHERWISE, LOSE, "Player wins"))
    if mode is BankerMode.COMMISSION:
        return (Row(wins, parse_payout("1:1 less 5%"), "Banker wins"), *tail)
    six = parse_condition("banker.wins and banker.total == 6")
    return (
        Row(six, parse_payout("1:2"), "Banker wins with 6"),
        Row(wins, parse_payout("1:1"), "Banker wins"),
        *tail,
    )


def banker_bet(mode: BankerMode | str, base: Bet | None = None) -> Bet:
    """Bet ``banker`` in the given version, named "Banker"; rounding and max round kept from
    ``base`` (its name may describe the rows being replaced, e.g. "Banker (no commission)").

    >>> from exactodds.deal.engine import joint_distribution
    >>> from exactodds.figures.metrics import bet_figures
    >>> from exactodds.deal.shoe import Shoe
    >>> from exactodds.numbers import percent
    >>> joint = joint_distribution(Shoe.decks(8))
    >>> percent(bet_figures(joint, banker_bet("commission")).house_edge)  # docs/rules.md §9
    '1.0579%'
    >>> banker_bet("super-6").rows[0].event
    'Banker wins with 6'
    """
    rows = _banker_rows(_banker_mode(mode))
    if base is None:
        return Bet("banker", "Banker", rows)
    return replace(base, name="Banker", rows=rows, description="")


def _banker_mode(value: BankerMode | str) -> BankerMode:
    if isinstance(value, BankerMode):
        return value
    key = value.strip().lower().replace("_", "-").replace(" ", "-")
    aliases = {"nc": "no-commission", "nocommission": "no-commission", "super-6": "no-commission"}
    try:
        return BankerMode(aliases.get(key, key))
    except ValueError:
        known = ", ".join(m.value for m in BankerMode)
        raise PaytableError(f"unknown banker version {value!r} (use {known})") from None


def _row_signature(rows: Iterable[Row]) -> tuple[tuple[str, Fraction], ...]:
    return tuple((str(r.when), r.pays.net) for r in rows)


def _winning_payout(bet: Bet) -> Payout | None:
    """The single winning payout of a bet, or None if it has several different ones."""
    wins = {r.pays.net: r.pays for r in bet.rows if r.pays.is_win}
    return next(iter(wins.values())) if len(wins) == 1 else None


# -- variants ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One cell of the grid: rules, decks (or :data:`INFINITE`), Tie payout and Banker version.

    ``tie`` / ``banker`` of ``None`` mean "as the paytable has it".

    >>> from exactodds.deal.tableau import BUILTIN
    >>> v = Variant(BUILTIN["mini"], 6, parse_payout("9:1"))
    >>> v.rules, v.decks, str(v.tie), v.banker
    ('mini', 6, '9:1', None)
    """

    tableau: Tableau
    decks: DeckCount
    tie: Payout | None = None
    banker: BankerMode | None = None

    @property
    def rules(self) -> str:
        """The tableau's name."""
        return self.tableau.name


def apply_variant(paytable: Paytable, variant: Variant) -> Paytable:
    """The paytable with the variant's rules, decks, Tie payout and Banker rows (the infinite
    variant keeps the paytable's decks: a paytable's shoe is finite).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> from exactodds.deal.tableau import BUILTIN
    >>> base = load_paytable(default_paytable())
    >>> v = apply_variant(base, Variant(BUILTIN["mini"], 6, parse_payout("9:1")))
    >>> v.decks, v.tableau.name, v.bet("tie").rows[0].pays.net
    (6, 'mini', Fraction(9, 1))
    """
    bets = list(paytable.bets)
    ids = [b.id for b in bets]
    if variant.tie is not None:
        pays = variant.tie
        if "tie" in ids:
            i = ids.index("tie")
            bets[i] = replace(
                bets[i],
                rows=tuple(replace(r, pays=pays) if r.pays.is_win else r for r in bets[i].rows),
            )
        else:
            bets.append(tie_bet(pays))
    if variant.banker is not None:
        if "banker" in ids:
            i = ids.index("banker")
            if "multipliers" in bets[i].live:  # its rows replaced would drop the multipliers
                raise PaytableError(
                    "bet 'banker' has random multipliers: a Banker version replaces "
                    "its rows and would drop them; compare its decks and rules instead"
                )
            bets[i] = banker_bet(variant.banker, bets[i])
        else:
            bets.append(banker_bet(variant.banker))
    decks = paytable.decks if variant.decks == INFINITE else variant.decks
    return replace(paytable, decks=decks, tableau=variant.tableau, bets=tuple(bets))
