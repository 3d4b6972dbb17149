"""Exact figures per bet (rules.md §8): per-row combinations, EV, RTP, house edge, hit frequency,
variance, largest win — all Fractions computed from integer combination counts.

>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> figures = {f.bet.id: f for f in paytable_figures(load_paytable(default_paytable()))}
>>> f"{float(figures['banker'].house_edge):.6%}"
'1.057906%'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from exactodds.bets.offers import figures_per, offer_sentence, offer_text
from exactodds.bets.payout import Payout
from exactodds.bets.paytable import Bet, Paytable
from exactodds.bets.returns import ReturnFigures
from exactodds.bets.streak import StreakFigures, streak_figures
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import require

if TYPE_CHECKING:
    import pandas as pd

    from exactodds.figures.peek import PeekFigures

__all__ = [
    "COMPARED",
    "DEFAULT_STAKES",
    "AnyFigures",
    "BetFigures",
    "PaytableFigures",
    "RowFigures",
    "bet_figures",
    "compare_paytables",
    "paytable_figures",
    "per",
    "rtp_by_stake",
    "unrounded",
]

DEFAULT_STAKES: tuple[Fraction, ...] = (
    *(Fraction(i, 10) for i in range(1, 11)),
    Fraction(2),
    Fraction(5),
    Fraction(10),
    Fraction(100),
)
"""Stakes of the RTP-by-stake table for bets whose returns are rounded."""


@dataclass(frozen=True)
class RowFigures:
    """One paytable row: its combinations, probability and contribution to the return.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> row = bet_figures(joint_distribution(Shoe.decks(8)), pair).rows[0]
    >>> row.event, row.net, row.probability, row.ret  # 11 × 31/415
    ('Player pair', Fraction(11, 1), Fraction(31, 415), Fraction(341, 415))
    """

    event: str
    pays: Payout
    net: Fraction
    combinations: int
    probability: Fraction
    products: tuple[tuple[int, Fraction], ...] = ()
    """A multiplied row's (product of multipliers, probability given the row), ascending;
    empty for a row not multiplied."""
    patterns: tuple[tuple[tuple[int, ...], Fraction], ...] = ()
    """A multiplied row's identity patterns (multiplicities of its group's distinct card
    identities, probability given the row): what its products are of, whatever the weights."""

    def net_at(self, product: int) -> Fraction:
        """Net result per unit stake at this product of multipliers (the commission, already
        in :attr:`net`, is not multiplied)."""
        return self.net + self.pays.net * (product - 1) if self.pays.is_win else self.net

    def outcomes(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """(probability, net) of each product of the row (one outcome if not multiplied)."""
        if not self.products:
            return ((self.probability, self.net),)
        return tuple((self.probability * q, self.net_at(m)) for m, q in self.products)

    @cached_property
    def ret(self) -> Fraction:
        """Contribution to the expected net result: probability × net (× the mean product)."""
        return sum((p * net for p, net in self.outcomes()), Fraction(0))


@dataclass(frozen=True)
class BetFigures(ReturnFigures):
    """Every docs/rules.md §8 figure of one bet settled on one round, exact: per row its
    combinations, and the headline figures every bet has
    (:class:`~exactodds.bets.returns.ReturnFigures`).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> f = bet_figures(joint_distribution(Shoe.decks(8)), pair)
    >>> f.hit_frequency, f.rtp, f.largest_win, f.push_probability
    (Fraction(31, 415), Fraction(372, 415), Fraction(11, 1), Fraction(0, 1))
    >>> f.variance == 121 * Fraction(31, 415) + Fraction(384, 415) - f.ev**2
    True
    """

    bet: Bet
    rows: tuple[RowFigures, ...]
    total: int
    """Combinations of the rounds the figures are per: every round, or the offered ones."""
    stake: Fraction = Fraction(1)
    universe: int = 0
    """Combinations of every round (the six-card universe); 0 when not given."""
    peek: PeekFigures | None = None
    """A peek bet's optimal play (:mod:`exactodds.figures.peek`): its outcomes, raises
    included, are the bet's headline figures; :attr:`rows` stay those of the unraised stake."""

    @cached_property
    def offer_probability(self) -> Fraction | None:
        """Probability that the bet is offered (None for a bet offered on every round)."""
        if self.bet.offer is None or not self.universe:
            return None
        return Fraction(self.total, self.universe)

    def outcomes(self) -> Iterable[tuple[Fraction, Fraction]]:
        """(probability, net) of each row: the headline figures of
        :class:`~exactodds.bets.returns.ReturnFigures` come from them."""
        if self.peek is not None:
            return self.peek.outcomes()
        return (outcome for r in self.rows for outcome in r.outcomes())

    @cached_property
    def fee(self) -> Fraction:
        """The bet's fee per unit staked (:attr:`~exactodds.bets.paytable.Bet.fee`)."""
        return self.bet.fee

    @cached_property
    def paid(self) -> Fraction:
        """Money paid per base stake: the stake, the fee and, for a peek, the expected raise."""
        return self.peek.paid if self.peek is not None else 1 + self.fee

    def __repr__(self) -> str:
        """One line of headline figures (the exact values are the attributes).

        >>> from exactodds.bets.loader import load_paytable
        >>> paytable_figures(load_paytable("classic"))[2]
        <BetFigures tie: house edge 14.3596%, RTP 85.6404%, hit 9.5156%, largest win 8>
        """
        from exactodds.bets.payout import format_number
        from exactodds.numbers import percent

        return (
            f"<BetFigures {self.bet.id}: house edge {percent(self.house_edge)}, "
            f"RTP {percent(self.rtp)}, hit {percent(self.hit_frequency)}, "
            f"largest win {format_number(self.largest_win)}>"
        )

    def _table(self) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
        headers = ("event", "pays", "net", "combinations", "probability", "return")
        rows: list[tuple[object, ...]] = [
            (r.event, r.pays.text or str(r.pays), r.net, r.combinations, r.probability, r.ret)
            for r in self.rows
        ]
        return headers, rows

    def _repr_html_(self) -> str:
        """The return table and the headline figures (and the offer, for a bet with one), for
        notebooks."""
        from exactodds.notebook import html_table
        from exactodds.numbers import percent

        headers, rows = self._table()
        caption = (
            f"{self.bet.name}: house edge {percent(self.house_edge)}, RTP {percent(self.rtp)}, "
            f"hit frequency {percent(self.hit_frequency)}"
        )
        if self.bet.offer is not None:
            caption += f"; {offer_sentence(self.bet, self.offer_probability)}"
        shown = [(e, p, str(n), c, pr, ret) for e, p, n, c, pr, ret in rows]
        return html_table(headers, shown, caption)

    def to_frame(self) -> pd.DataFrame:
        """The return table (event, pays, net, combinations, probability, return) as a
        DataFrame of exact values, with float copies for plotting (extra ``pandas``); for a bet
        with an offer, ``attrs`` holds ``offer``, ``offer_probability`` and ``figures_per``
        (the rows are per offered round)."""
        from exactodds.notebook import frame

        df = frame(*self._table())
        df.attrs.update(
            offer=offer_text(self.bet),
            offer_probability=self.offer_probability,
            figures_per=figures_per(self.bet),
        )
        return df


AnyFigures = BetFigures | StreakFigures
"""The figures of any bet: a round bet's (:class:`BetFigures`) or a streak bet's
(:class:`~exactodds.bets.streak.StreakFigures`, per bet with rounds independent); both have the
headline figures (house edge, RTP, hit frequency, variance, largest win …) under one name."""


def per(f: AnyFigures) -> str:
    """What the bet's figures are per: ``round``, ``offered round``, or, for a streak bet,
    ``bet (rounds independent)``."""
    if isinstance(f, StreakFigures):
        return f"bet ({f.model})"
    return figures_per(f.bet)


def _offer(f: AnyFigures) -> str | None:
    return None if isinstance(f, StreakFigures) else offer_text(f.bet)


class PaytableFigures(list[AnyFigures]):
    """The figures of every bet of a paytable (a list: the bets settled on one round, then the
    streak bets), with a one-table notebook display.

    A bet with an offer has its figures per offered round, a streak bet per bet with rounds
    independent: the table says so (``offer``, the probability of the offer, ``per``).

    >>> from exactodds.bets.loader import load_paytable
    >>> figures = paytable_figures(load_paytable("classic"))
    >>> figures[1]
    <BetFigures banker: house edge 1.0579%, RTP 98.9421%, hit 45.8597%, largest win 0.95>
    >>> figures.to_frame().loc[1, "house_edge"]  # doctest: +SKIP
    Fraction(114753351728, 10847218479825)
    """

    HEADERS = (
        "bet",
        "name",
        "house_edge",
        "rtp",
        "hit_frequency",
        "largest_win",
        "offer",
        "offer_probability",
        "per",
    )

    def _table(self) -> list[tuple[object, ...]]:
        return [
            (
                f.bet.id,
                f.bet.name,
                f.house_edge,
                f.rtp,
                f.hit_frequency,
                f.largest_win,
                _offer(f),
                f.offer_probability,
                per(f),
            )
            for f in self
        ]

    def _repr_html_(self) -> str:
        """One row per bet: house edge, RTP, hit frequency, largest win; the offer, its
        probability and what the figures are per when some bet has an offer."""
        from exactodds.notebook import html_table

        offered = any(_offer(f) is not None for f in self)
        streaks = any(isinstance(f, StreakFigures) for f in self)
        width = len(self.HEADERS) if offered or streaks else 6
        rows = [
            (*r[:5], str(r[5]), *(("-" if x is None else x) for x in r[6:width]))
            for r in self._table()
        ]
        return html_table(self.HEADERS[:width], rows)

    def to_frame(self) -> pd.DataFrame:
        """One row per bet of exact figures, with float copies for plotting, as a DataFrame
        (extra ``pandas``)."""
        from exactodds.notebook import frame

        return frame(self.HEADERS, self._table())


COMPARED = ("house_edge", "rtp", "hit_frequency", "largest_win")
"""The figures :func:`compare_paytables` puts side by side."""


def compare_paytables(
    before: Paytable,
    after: Paytable,
    names: tuple[str, str] = ("before", "after"),
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
) -> pd.DataFrame:
    """One DataFrame comparing two paytables bet by bet (e.g. a paytable and its
    :meth:`~exactodds.bets.paytable.Paytable.with_payout`): per bet (by id, in ``before``'s order,
    then ``after``'s new ones) each of :data:`COMPARED` under both ``names`` and its change
    (after − before), exact, with float copies for plotting (extra ``pandas``). Both on
    ``before``'s shoe and tableau unless given.

    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("classic")
    >>> df = compare_paytables(table, table.with_payout("player_pair", 0, "12:1"))
    >>> row = df.set_index("bet").loc["player_pair"]
    >>> row["house_edge_before"], row["house_edge_after"], row["house_edge_change"]
    (Fraction(43, 415), Fraction(12, 415), Fraction(-31, 415))
    """
    require(before, (Paytable,), "before")
    require(after, (Paytable,), "after")
    if not (
        isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) for n in names)
    ):
        raise TypeError(f"names must be a pair of strings, not {names!r:.60}")
    require(shoe, (Shoe, type(None)), "shoe")
    require(tableau, (Tableau, type(None)), "tableau")
    from exactodds.notebook import frame

    shoe = shoe or before.shoe
    tableau = tableau or before.tableau
    figures = [{f.bet.id: f for f in paytable_figures(p, shoe, tableau)} for p in (before, after)]
    ids = list(dict.fromkeys([*figures[0], *figures[1]]))
    headers = ["bet", "name", "offer", "per"]
    for key in COMPARED:
        headers += [f"{key}_{names[0]}", f"{key}_{names[1]}", f"{key}_change"]
    rows = []
    for bet_id in ids:
        a, b = figures[0].get(bet_id), figures[1].get(bet_id)
        either = a or b
        assert either is not None
        cells: list[object] = [bet_id, either.bet.name, _offer(either), per(either)]
        for key in COMPARED:
            x = None if a is None else getattr(a, key)
            y = None if b is None else getattr(b, key)
            cells += [x, y, None if x is None or y is None else y - x]
        rows.append(cells)
    return frame(headers, rows)


def bet_figures(joint: Joint, bet: Bet, stake: Fraction | int = 1) -> BetFigures:
    """Exact figures of ``bet`` on the distribution ``joint`` at ``stake`` (rounding only).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> bet_figures(joint_distribution(Shoe.decks(8)), pair).house_edge  # 1 − 12 × 31/415
    Fraction(43, 415)
    """
    require(joint, (Joint,), "joint")
    require(bet, (Bet,), "bet")
    require(stake, (int, Fraction), "stake")
    stake = Fraction(stake)
    if any(row.multiply is not None for row in bet.rows):
        return _multiplied_figures(joint, bet, stake)
    total = bet.offered(joint)
    rows = tuple(
        RowFigures(row.event, row.pays, bet.row_net(row, stake), n, Fraction(n, total or 1))
        for row, n in zip(bet.rows, bet.row_combinations(joint), strict=True)
    )
    if bet.peek is not None:
        from exactodds.figures.peek import peek_figures

        peek = peek_figures(bet, joint.shoe, joint.tableau)
        return BetFigures(bet, rows, total, stake, joint.total, peek)
    return BetFigures(bet, rows, total, stake, joint.total)


def _multiplied_figures(joint: Joint, bet: Bet, stake: Fraction) -> BetFigures:
    """Figures of a bet with multiplied rows, each row with its product distribution."""
    from exactodds.figures.multiplied import multiplied_rows

    counted = multiplied_rows(bet, joint.shoe, joint.tableau)
    total = counted.universe
    rows = tuple(
        RowFigures(
            row.event,
            row.pays,
            bet.row_net(row, stake),
            n,
            Fraction(n, total or 1),
            products,
            patterns,
        )
        for row, n, products, patterns in zip(
            bet.rows, counted.combinations, counted.products, counted.patterns, strict=True
        )
    )
    return BetFigures(bet, rows, total, stake, joint.total)


def paytable_figures(
    paytable: Paytable,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    stake: Fraction | int = 1,
) -> PaytableFigures:
    """Figures of every bet of ``paytable`` (on its own shoe and tableau unless given): the
    bets settled on one round, then the streak bets (with rounds independent, per bet; their
    payouts are not rounded, so ``stake`` does not change them).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> figures = paytable_figures(load_paytable(default_paytable()))
    >>> [(f.bet.id, f"{float(f.house_edge):.4%}") for f in figures[:3]]  # docs/rules.md §9
    [('player', '1.2351%'), ('banker', '1.0579%'), ('tie', '14.3596%')]
    """
    require(paytable, (Paytable,), "paytable")
    require(shoe, (Shoe, type(None)), "shoe")
    require(tableau, (Tableau, type(None)), "tableau")
    require(stake, (int, Fraction), "stake")
    shoe = shoe or paytable.shoe
    tableau = tableau or paytable.tableau
    joint = joint_distribution(shoe, tableau)
    figures = PaytableFigures(bet_figures(joint, bet, stake) for bet in paytable.bets)
    figures += (streak_figures(bet, shoe, tableau) for bet in paytable.streaks)
    return figures


def rtp_by_stake(
    joint: Joint, bet: Bet, stakes: Iterable[Fraction | int] = DEFAULT_STAKES
) -> list[tuple[Fraction, Fraction]]:
    """(stake, RTP) for each stake: with rounding, the RTP depends on the stake.

    Player Pair paid in whole units, rounded down: a 0.1 stake gets 1 back, not 1.2, so it nets
    9 to 1, and RTP = 10 × 31/415 = 62/83; a unit stake keeps 11 to 1 (RTP 12 × 31/415).

    >>> from dataclasses import replace
    >>> from exactodds.bets.paytable import Rounding
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = load_paytable(default_paytable()).bet("player_pair")
    >>> whole = replace(pair, rounding=Rounding(Fraction(1)))
    >>> rtp_by_stake(joint_distribution(Shoe.decks(8)), whole, [Fraction(1, 10), 1])
    [(Fraction(1, 10), Fraction(62, 83)), (Fraction(1, 1), Fraction(372, 415))]
    """
    return [(Fraction(s), bet_figures(joint, bet, s).rtp) for s in stakes]


def unrounded(bet: Bet) -> Bet:
    """The same bet without its rounding rule (the figure the RTP-by-stake table compares to);
    every other field, its offer and progressive meters included, is kept.

    >>> from exactodds.bets.loader import load_paytable
    >>> touch = load_paytable("touch").bet("banker")  # paid to the cent, rounded down
    >>> touch.rounding is not None, unrounded(touch).rounding, unrounded(touch).rows == touch.rows
    (True, None, True)
    """
    return replace(bet, rounding=None)
