"""The labels of a progressive bet's figures outside its own sheet section: they are stated at
the reset meters, and every such figure says so ("at meter 10,000.00")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from exactodds.bets.progressive import Progressive, amount_text

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet

__all__ = ["at_meters", "figure_label", "meter_note"]


def at_meters(progressive: Progressive, meters: Mapping[str, Fraction] | None = None) -> str:
    """The label every figure of a progressive bet carries outside its own sheet section: the
    meters it is stated at (``meters``, default the resets).

    >>> from exactodds.bets.progressive import Meter
    >>> one = Progressive(Fraction(5), (Meter("jackpot", Fraction(10000), Fraction(1, 10)),))
    >>> at_meters(one), at_meters(one, {"jackpot": Fraction(25000)})
    ('at meter 10,000.00', 'at meter 25,000.00')
    >>> two = Progressive(Fraction(1), (Meter("major", Fraction(5000), Fraction(1, 50)),
    ...                                Meter("minor", Fraction(100), Fraction(1, 100))))
    >>> at_meters(two)
    'at meters major 5,000.00, minor 100.00'
    """
    values = {m.name: m.reset for m in progressive.meters} | dict(meters or {})
    if len(progressive.meters) == 1:
        return f"at meter {amount_text(values[progressive.meters[0].name])}"
    shown = ", ".join(f"{m.name} {amount_text(values[m.name])}" for m in progressive.meters)
    return f"at meters {shown}"


def meter_note(bets: Sequence[Bet]) -> str:
    """The sentence a summary of ``bets`` adds for its progressive ones (``""`` if none): their
    figures are at the reset meters, their own sections give them at any meter.

    >>> from exactodds.bets.loader import load_paytable
    >>> meter_note(load_paytable("dragon-dragon").bets)
    'Progressive: Dragon Dragon at meter 10,000.00 (the reset); its section gives any meter.'
    >>> meter_note(load_paytable("classic").bets)
    ''
    """
    found = [(b.name, b.progressive) for b in bets if b.progressive is not None]
    if not found:
        return ""
    said = "; ".join(f"{name} {at_meters(p)}" for name, p in found)
    sections = "its section gives" if len(found) == 1 else "their sections give"
    return f"Progressive: {said} (the reset); {sections} any meter."


class _Named(Protocol):
    @property
    def name(self) -> str: ...


def figure_label(bet: _Named) -> str:
    """A bet's name where its figures are shown outside its sheet section (simulate, montecarlo,
    eor, exposure): a progressive bet's says the meters they are at. The analysis stages pass
    bets as a protocol (their compiled forms have no meters), hence the attribute look-up.

    >>> from exactodds.bets.loader import load_paytable
    >>> [figure_label(b) for b in load_paytable("dragon-dragon").bets][-1]
    'Dragon Dragon (at meter 10,000.00)'
    >>> figure_label(load_paytable("classic").bets[0])
    'Player'
    """
    progressive = getattr(bet, "progressive", None)
    if not isinstance(progressive, Progressive):
        return bet.name
    return f"{bet.name} ({at_meters(progressive)})"
