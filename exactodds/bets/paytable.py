"""Paytables as data: a game's shoe size, tableau and bets, whose rows map round features to
payouts, and the evaluation of rows on the engine's exact distribution.

Paytable files are read and checked by :mod:`exactodds.bets.loader`.

>>> from exactodds.bets.loader import load_paytable
>>> table = load_paytable("classic")
>>> table.bet("player_pair").rows[0].pays.to_one()
'11 to 1'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from functools import cached_property, lru_cache
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.bets.bundled import display_path
from exactodds.bets.edits import edited_description, unedited_description
from exactodds.bets.multipliers import MultiplierTable, Multiply, Peek
from exactodds.bets.payout import Payout
from exactodds.bets.records import _record_index, record_index
from exactodds.bets.rounding import Rounding, RoundingMode
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.round import FEATURE_INDEX, Outcome, feature_record
from exactodds.deal.shoe import MIN_CARDS, Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import PaytableError
from exactodds.language import Condition, Index, Memo
from exactodds.suggest import did_you_mean

if TYPE_CHECKING:
    import pandas as pd

    from exactodds.bets.progressive import Progressive
    from exactodds.bets.streak import StreakBet
    from exactodds.counting import RowCounts

__all__ = [
    "REFERENCE_DECKS",
    "Bet",
    "Occurrence",
    "Paytable",
    "Rounding",
    "RoundingMode",
    "Row",
    "record_index",
    "row_occurrence",
    "settled_from_cards",
]


@dataclass(frozen=True)
class Row:
    """One paytable row: when the condition holds (and no earlier row did), the bet pays.

    >>> from exactodds.bets.loader import load_paytable
    >>> row = load_paytable("classic").bet("tie").rows[0]
    >>> str(row.when), row.pays.net, row.event
    ('winner == tie', Fraction(8, 1), 'Tie')
    """

    when: Condition
    pays: Payout
    event: str
    multiply: Multiply | None = None
    """Multiplies the row's net win by a random product of multipliers (a win row only)."""
    commission: Fraction = Fraction(0)
    """Taken from the (multiplied) net win, per unit stake: Banker at ×8 with 5% wins 7.95."""

    def net_at(self, product: int | Fraction = 1) -> Fraction:
        """Net result per unit stake when the row's multipliers come to ``product``: a win is
        multiplied, then the commission is taken; a push or a loss is never multiplied.

        >>> from exactodds.bets.payout import parse_payout
        >>> from exactodds.language import OTHERWISE
        >>> Row(OTHERWISE, parse_payout("1:1"), "Banker wins", commission=Fraction(1, 20)).net_at(8)
        Fraction(159, 20)
        """
        if not self.pays.is_win:
            return self.pays.net
        return self.pays.net * product - self.commission


_RANK_FEATURES = frozenset(
    f"{side}.{name}" for side in ("player", "banker") for name in ("pair", "perfect_pair")
)
"""Round features that read ranks (a pair is two cards of one rank), not values alone."""


@dataclass(frozen=True)
class Bet:
    """A wager: rows tried in order, the first match settles it.

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.round import Hand, Outcome, PairKind
    >>> bonus = load_paytable("classic").bet("player_bonus")
    >>> row = bonus.settle(Outcome(Hand(4, 5, PairKind.NONE), Hand(0, 0, PairKind.NONE)))
    >>> row.event, row.pays.net  # 9 beats 0 without a natural
    ('Win by 9', Fraction(30, 1))
    >>> bonus.features
    ('player.natural', 'player.wins', 'winner', 'margin')
    """

    id: str
    name: str
    rows: tuple[Row, ...]
    max_round: int | None = None
    rounding: Rounding | None = None
    description: str = ""
    offer: Condition | None = None
    """Offered only when this holds of the first four cards (an insurance bet); its figures
    are then per offered round."""
    progressive: Progressive | None = None
    """A progressive bet's stake and meters (:mod:`exactodds.bets.progressive`); its jackpot rows'
    payouts are stated at the reset meters."""
    fee: Fraction = Fraction(0)
    """Charged on the stake every round, push included, never returned (per unit stake)."""
    peek: Peek | None = None
    """A decision after some of the first four cards are shown (a peek, :mod:`.multipliers`)."""

    @cached_property
    def conditions(self) -> tuple[tuple[Condition, ...], Condition | None]:
        """What settles the bet, payouts aside: its rows' conditions and its offer."""
        return tuple(row.when for row in self.rows), self.offer

    @cached_property
    def card_level(self) -> bool:
        """Whether the bet (its rows or its offer) reads the cards themselves: it is counted
        by :mod:`exactodds.counting` and settled from cards, not from an outcome."""
        offer = self.offer is not None and self.offer.card_level
        return offer or any(row.when.card_level for row in self.rows)

    @cached_property
    def reads_ranks(self) -> bool:
        """Whether the rows read more than the cards' values: the cards themselves, or a pair
        (two cards of one rank); a peek's cells are then keyed by the shown ranks."""
        return self.card_level or bool(_RANK_FEATURES & set(self.features))

    @cached_property
    def live(self) -> tuple[str, ...]:
        """What the bet lays over the cards, of ``fee``, ``multipliers`` and ``peek`` (empty for
        a bet settled by its rows alone): a consumer that cannot handle one leaves it out."""
        out: tuple[str, ...] = ("fee",) if self.fee else ()
        if any(row.multiply is not None for row in self.rows):
            out += ("multipliers",)
        return out + (("peek",) if self.peek is not None else ())

    @property
    def settled_from_cards(self) -> bool:
        """Whether the bet goes to the card engine (:func:`settled_from_cards`)."""
        return settled_from_cards(self)

    @cached_property
    def features(self) -> tuple[str, ...]:
        """The round features (docs/rules.md §4) the bet looks at, in a fixed order."""
        used = frozenset().union(*(row.when.features for row in self.rows))
        if self.offer is not None:
            used |= self.offer.features
        return tuple(sorted(used & FEATURE_INDEX.keys(), key=FEATURE_INDEX.__getitem__))

    def row_index(self, record: tuple[object, ...]) -> int:
        """Index of the first row matching a :func:`~exactodds.deal.round.feature_record`."""
        for i, row in enumerate(self.rows):
            if row.when.test(record):
                return i
        raise PaytableError(f"bet {self.id!r}: no row matches (the last row must be 'otherwise')")

    def row_hits(self, index: Index, everything: int, memo: Memo | None = None) -> list[int]:
        """The records each row settles, as bitsets (see
        :meth:`~exactodds.language.Condition.bits`): each row's condition is evaluated once
        over all records, so the work grows as rows + records rather than rows × records; with
        a ``memo`` of the index, once for every bet.

        >>> from exactodds.bets.loader import load_paytable
        >>> tie = load_paytable("classic").bet("tie")
        >>> [bin(b) for b in tie.row_hits({"winner": {"player": 1, "tie": 2, "banker": 4}}, 7)]
        ['0b10', '0b101']
        """
        hits = []
        unsettled = everything
        for row in self.rows:
            hit = row.when.bits(index, everything, memo) & unsettled
            hits.append(hit)
            unsettled ^= hit
        if unsettled:
            raise PaytableError(
                f"bet {self.id!r}: no row matches (the last row must be 'otherwise')"
            )
        return hits

    def row_combinations(self, joint: Joint) -> list[int]:
        """Combinations settled by each row, in the joint's six-card universe (among the
        offered rounds for a bet with an offer)."""
        if self.card_level:
            return list(_card_counts(joint.shoe, joint.tableau, self.conditions).rows)
        return list(_row_combinations(joint, self))

    def card_work(
        self,
        shoe: Shoe,
        tableau: Tableau,
        known: Mapping[str, Collection[tuple[int, int]]] | None = None,
    ) -> int:
        """The card engine's estimated work (:func:`exactodds.counting.work`, cell operations) of
        counting the rows, among the offered rounds, on ``shoe`` (in the rounds that agree with
        ``known`` cards)."""
        from exactodds.counting import work

        return work([row.when for row in self.rows], shoe, tableau, offer=self.offer, known=known)

    def offered(self, joint: Joint) -> int:
        """Combinations of the rounds where the bet is offered: every round (``joint.total``)
        unless it has an offer."""
        if self.offer is None:
            return joint.total
        if self.card_level:
            return _card_counts(joint.shoe, joint.tableau, self.conditions).offered
        bits = _record_index(joint)
        return bits.combinations(self.offer.bits(bits.index, bits.everything, bits.memo))

    def settle(self, outcome: Outcome) -> Row:
        """The row that settles this bet for ``outcome``."""
        return self.rows[self.row_of_record(feature_record(outcome))]

    def row_net(self, row: Row, stake: Fraction = Fraction(1)) -> Fraction:
        """Net result per unit stake of ``row`` at ``stake``, after the bet's rounding."""
        if self.rounding is None:
            return row.net_at(1)
        stake = Fraction(stake)
        paid = self.rounding.apply(stake * (1 + row.net_at(1)))
        return (paid - stake) / stake

    @cached_property
    def _project(self) -> Callable[[tuple[object, ...]], object]:
        """The part of a feature record the bet looks at (a hashable key)."""
        if not self.features:
            return lambda record: None
        return itemgetter(*(FEATURE_INDEX[f] for f in self.features))

    @cached_property
    def _unit_nets(self) -> dict[object, Fraction]:
        return {}

    @cached_property
    def _rows_by_key(self) -> dict[object, int]:
        return {}

    def row_of_record(self, record: tuple[object, ...]) -> int:
        """:meth:`row_index`, remembered per combination of the features the bet looks at."""
        key = self._project(record)
        memo = self._rows_by_key
        row = memo.get(key)
        if row is None:
            row = memo[key] = self.row_index(record)
        return row

    def net_of_record(self, record: tuple[object, ...], stake: Fraction = Fraction(1)) -> Fraction:
        """:meth:`net` for an outcome given as its :func:`~exactodds.deal.round.feature_record`;
        at unit stake the result is remembered per combination of the features the bet uses."""
        if stake != 1:
            return self.row_net(self.rows[self.row_index(record)], stake)
        key = self._project(record)
        memo = self._unit_nets
        net = memo.get(key)
        if net is None:
            net = memo[key] = self.row_net(self.rows[self.row_index(record)])
        return net

    def net(self, outcome: Outcome, stake: Fraction = Fraction(1)) -> Fraction:
        """Net result per unit stake for ``outcome``.

        >>> from exactodds.bets.loader import load_paytable
        >>> from exactodds.deal.round import Hand, Outcome, PairKind
        >>> banker = load_paytable("classic").bet("banker")
        >>> banker.net(Outcome(Hand(1, 0, PairKind.NONE), Hand(8, None, PairKind.NONE)))
        Fraction(19, 20)
        """
        return self.net_of_record(feature_record(outcome), stake)


@dataclass(frozen=True)
class Paytable:
    """A game: shoe size, tableau and bets, with the file it was read from and its SHA-256.

    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("classic")
    >>> table.decks, table.tableau.name, len(table.bets), table.label
    (8, 'punto-banco', 14, 'paytables/classic.toml')
    >>> table.bet("dragon")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.PaytableError: paytables/classic.toml: unknown bet id 'dragon' (known: ...)
    """

    name: str
    description: str
    decks: int
    tableau: Tableau
    bets: tuple[Bet, ...]
    path: Path | None = None
    sha256: str | None = field(default=None, compare=False)
    source: str = ""
    rules_file: Path | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)
    """Remarks that do not stop the file loading (rows that never occur with its own shoe),
    each ``FILE:LINE: message``."""
    edits: tuple[str, ...] = field(default=(), compare=False)
    """Payout edits made by :meth:`with_payout`, in order, as its description states them."""
    streaks: tuple[StreakBet, ...] = ()
    """Streak bets (:mod:`exactodds.bets.streak`): settled over several rounds, so kept apart from
    :attr:`bets`, the bets settled on one round; :attr:`every_bet` holds both."""
    multipliers: tuple[MultiplierTable, ...] = ()
    """The random multiplier draws of each round (``[multipliers.NAME]``), by name order."""

    @property
    def every_bet(self) -> tuple[Bet | StreakBet, ...]:
        """Every bet of the paytable, the one iteration a consumer listing bets uses: the bets
        settled on one round (:attr:`bets`), then the streak bets (:attr:`streaks`). A
        consumer that can only settle single rounds tells them apart with
        :func:`~exactodds.bets.kinds.settles_one_round`.

        >>> from exactodds.bets.kinds import settles_one_round
        >>> from exactodds.bets.loader import load_paytable
        >>> [(b.id, settles_one_round(b)) for b in load_paytable("banker-streak").every_bet][2:]
        [('tie', True), ('banker_streak', False), ('banker_streak_2', False)]
        """
        return (*self.bets, *self.streaks)

    def bet(self, bet_id: str) -> Bet | StreakBet:
        """The bet with this id, a streak bet included (see :meth:`round_bet`).

        >>> from exactodds.bets.loader import load_paytable
        >>> load_paytable("banker-streak").bet("banker_streak").max_streak
        10
        """
        for bet in self.every_bet:
            if bet.id == bet_id:
                return bet
        ids = [b.id for b in self.every_bet]
        raise PaytableError(
            f"{self.label}: unknown bet id {bet_id!r} (known: {', '.join(ids)})"
            + did_you_mean(bet_id, ids)
        )

    def round_bet(self, bet_id: str, what: str = "this") -> Bet:
        """The bet with this id, for a consumer that settles single rounds only (``what``
        names it in the refusal of a streak bet).

        >>> from exactodds.bets.loader import load_paytable
        >>> load_paytable("banker-streak").round_bet("banker_streak", "solve")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        exactodds.errors.PaytableError: ...: 'banker_streak' is a streak bet, ...: solve handles ...
        """
        bet = self.bet(bet_id)
        if not isinstance(bet, Bet):
            raise PaytableError(
                f"{self.label}: {bet_id!r} is a streak bet, settled over several rounds: "
                f"{what} handles bets settled on one round only"
            )
        return bet

    @property
    def shoe(self) -> Shoe:
        """The full shoe of the paytable's ``decks`` (a property, so ``joint_distribution(
        table.shoe)`` works as written).

        >>> from exactodds.bets.loader import load_paytable
        >>> load_paytable("mini").shoe.describe()
        '8 decks (416 cards)'
        """
        return Shoe.decks(self.decks)

    @property
    def label(self) -> str:
        """How the paytable is named in messages: its file, or its name."""
        return display_path(self.path) if self.path is not None else self.name

    def with_payout(self, bet_id: str, row: int | str, pays: Payout | str | Fraction) -> Paytable:
        """The paytable with one row of one bet paying ``pays`` (a payout text such as
        ``"12:1"``); ``row`` is the row's index or its event. The result is no longer the file
        it was read from (no path, no hash) and its description, kept, lists what was edited,
        since it may state the old payout (:mod:`exactodds.bets.edits`); the designer page
        exports an edited paytable with the same description.

        >>> from exactodds.bets.loader import load_paytable
        >>> table = load_paytable("classic").with_payout("player_pair", "Player pair", "12:1")
        >>> table.bet("player_pair").rows[0].pays.net, table.path
        (Fraction(12, 1), None)
        >>> table.description[-80:]
        '(these closed after round 50). Edited: Player Pair: Player pair 12:1 (was 11:1).'
        >>> streak = load_paytable("banker-streak").with_payout("banker_streak", "9", "200:1")
        >>> streak.streaks[0].rows[1].pays.net
        Fraction(200, 1)
        >>> table.with_payout("tie", 5, "9:1")
        Traceback (most recent call last):
        ...
        exactodds.errors.PaytableError: Classic (commission): bet 'tie' has no row 5 (rows 0 to 1)
        """
        bet = self.bet(bet_id)
        index = _row_index(self, bet, row)
        old = bet.rows[index]
        payout = pays if isinstance(pays, Payout) else Payout(pays)
        rows = (*bet.rows[:index], replace(old, pays=payout), *bet.rows[index + 1 :])
        bets = tuple(replace(b, rows=rows) if b.id == bet_id else b for b in self.bets)
        streaks = tuple(replace(s, rows=rows) if s.id == bet_id else s for s in self.streaks)
        edit = f"{bet.name}: {old.event} {payout.text or payout} (was {old.pays.text or old.pays})"
        edits = (*self.edits, edit)
        base = unedited_description(self.name, self.description, self.edits)
        description = edited_description(self.name, base, edits)
        return replace(
            self,
            bets=bets,
            streaks=streaks,
            path=None,
            sha256=None,
            description=description,
            edits=edits,
        )

    def __repr__(self) -> str:
        """One line: name, shoe, rules, bets, file (the full text is :meth:`_repr_html_`)."""
        where = f", {self.label}" if self.path is not None else ""
        return (
            f"<Paytable {self.name!r}: {self.decks} decks, {self.tableau.name}, "
            f"{len(self.every_bet)} bets{where}>"
        )

    def _rows(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """Headers and rows: every row of every bet (a streak bet's rows read ``streak``, the
        rounds its condition held in a row), with its bet's offer (the condition under which
        it is offered) when some bet has one, and each streak bet's condition when there is
        one."""
        offered = any(b.offer is not None for b in self.bets)
        headers = ("bet", "event", "when", "pays", *(("offer",) if offered else ()))
        headers += ("streak",) if self.streaks else ()
        rows = [
            (
                b.id,
                r.event,
                str(r.when),
                r.pays.text or str(r.pays),
                *((str(b.offer) if b.offer is not None else "",) if offered else ()),
                *(("",) if self.streaks else ()),
            )
            for b in self.bets
            for r in b.rows
        ]
        rows += [
            (
                s.id,
                r.event,
                r.text,
                r.pays.text or str(r.pays),
                *(("",) if offered else ()),
                str(s.condition),
            )
            for s in self.streaks
            for r in s.rows
        ]
        return headers, rows

    def _repr_html_(self) -> str:
        """Every row of every bet as an HTML table, for notebooks."""
        from exactodds.notebook import html_table

        caption = f"{self.name}: {self.decks} decks, {self.tableau.name}"
        return html_table(*self._rows(), caption)

    def to_frame(self) -> pd.DataFrame:
        """Every row of every bet (bet, event, when, pays; offer when some bet has one) as a
        DataFrame (extra ``pandas``)."""
        from exactodds.notebook import frame

        return frame(*self._rows())


def _row_index(table: Paytable, bet: Bet | StreakBet, row: int | str) -> int:
    """The index of ``row`` (an index or an event) among the rows of ``bet``."""
    if isinstance(row, str):
        events = [r.event for r in bet.rows]
        if row not in events:
            known = ", ".join(repr(e) for e in events)
            raise PaytableError(f"{table.label}: bet {bet.id!r} has no row {row!r} ({known})")
        return events.index(row)
    if not 0 <= row < len(bet.rows):
        raise PaytableError(
            f"{table.label}: bet {bet.id!r} has no row {row} (rows 0 to {len(bet.rows) - 1})"
        )
    return row


def settled_from_cards(bet: object) -> bool:
    """The engine-routing rule, written once: a bet is settled from the dealt cards (by the
    card engine, :mod:`exactodds.counting`) rather than from a round's outcome when it reads
    the cards themselves or has an offer (judged on the first four cards). ``bet`` may be any
    bet-like object; one without these fields is settled from the outcome.

    >>> from exactodds.bets.loader import load_paytable
    >>> table = load_paytable("insurance")
    >>> [b.id for b in table.bets if settled_from_cards(b)][:2]
    ['player_0_v_5', 'player_1_v_5']
    >>> settled_from_cards(load_paytable("classic").bet("banker"))
    False
    """
    return bool(getattr(bet, "card_level", False)) or getattr(bet, "offer", None) is not None


class Occurrence(StrEnum):
    """Whether a paytable row settles any round; the value is what a sheet says of it."""

    OCCURS = "occurs"
    NOT_WITH_THIS_SHOE = "never occurs with this shoe"
    NEVER = "never occurs on any shoe"


REFERENCE_DECKS = 8
"""Decks of the reference shoe on which a row that settles no round can never settle one."""


def row_occurrence(bet: Bet, joint: Joint) -> tuple[Occurrence, ...]:
    """Per row of ``bet``: does it settle some round of ``joint`` (its shoe and tableau)?

    One judgement for ``validate``, the sheets and the API. A row with 0 combinations is
    :attr:`~Occurrence.NEVER` when it has 0 also on the reference shoe of 8 full decks, with the
    same tableau: a round uses at most six cards, and 8 decks hold every card 8 times, so every
    round any shoe can deal, 8 decks can deal too; such a row (earlier rows take all its rounds,
    or it names an impossible one) is dead text. Otherwise the row is impossible only on this
    small or depleted shoe: :attr:`~Occurrence.NOT_WITH_THIS_SHOE`.

    >>> from exactodds.bets.loader import load_paytable
    >>> perfect = load_paytable("classic").bet("perfect_pair")  # one deck: no identical cards
    >>> [o.value for o in row_occurrence(perfect, joint_distribution(Shoe.decks(1)))][-2:]
    ['never occurs with this shoe', 'occurs']
    >>> from exactodds.language import parse_condition
    >>> dead = Bet("x", "X", (Row(parse_condition("margin == 10"), perfect.rows[0].pays, "10"),
    ...                        perfect.rows[-1]))
    >>> [o.name for o in row_occurrence(dead, joint_distribution(Shoe.decks(1)))]
    ['NEVER', 'OCCURS']
    """
    counts = tuple(bet.row_combinations(joint))
    if all(counts):
        return (Occurrence.OCCURS,) * len(counts)
    # A shoe holding every card six times (a round's MIN_CARDS) deals every round already.
    if all(c >= MIN_CARDS for row in joint.shoe.counts for c in row):
        reference = counts
    elif bet.card_level and not _reference_cheap(bet, joint):
        reference = tuple(1 for _ in counts)  # not decided: said of this shoe only
    else:
        reference = tuple(
            bet.row_combinations(joint_distribution(Shoe.decks(REFERENCE_DECKS), joint.tableau))
        )
    return tuple(
        Occurrence.OCCURS if n else Occurrence.NEVER if not r else Occurrence.NOT_WITH_THIS_SHOE
        for n, r in zip(counts, reference, strict=True)
    )


def _reference_cheap(bet: Bet, joint: Joint) -> bool:
    """Whether counting a card-level ``bet`` on the reference shoe costs the card engine no
    more than counting it on ``joint``'s shoe did (:func:`exactodds.counting.work`): the check of
    a row absent from a small shoe then never dominates the command's work; beyond it the row
    is said to never occur with this shoe (a warning, not the error of a dead row)."""
    reference = bet.card_work(Shoe.decks(REFERENCE_DECKS), joint.tableau)
    return reference <= bet.card_work(joint.shoe, joint.tableau)


@lru_cache(maxsize=512)
def _card_counts(
    shoe: Shoe, tableau: Tableau, conditions: tuple[tuple[Condition, ...], Condition | None]
) -> RowCounts:
    """A card-level bet's rows and offer (:attr:`Bet.conditions`) counted by
    :func:`exactodds.counting.row_counts` (numpy is imported only for card-level bets); its
    payouts play no part, so a bet with an edited payout is not counted again."""
    from exactodds.counting import row_counts

    whens, offer = conditions
    return row_counts(list(whens), shoe, tableau, offer=offer)


@lru_cache(maxsize=512)
def _row_combinations(joint: Joint, bet: Bet) -> tuple[int, ...]:
    bits = _record_index(joint)
    hits = bet.row_hits(bits.index, bits.everything, bits.memo)
    if bet.offer is not None:  # the first matching row of an offered round
        offered = bet.offer.bits(bits.index, bits.everything, bits.memo)
        hits = [hit & offered for hit in hits]
    return tuple(map(bits.combinations, hits))
