"""What a seen card is worth: exact information-exposure analysis for game protection.

A player sees a *signal* before betting (the groups of sorted cards, a flashed card, a burn or
bottom card turned up) and then makes the one bet of the paytable with the highest EV per unit
given that signal, or no bet when none has a positive EV. Semantics (the issue left them open):

* a sorted card's group is seen before the bet; ``seen`` counts the first cards in dealing order
  (Player 1st, Banker 1st, Player 2nd, Banker 2nd) whose group the player sees;
* a flashed card of a dealing position shows its rank;
* a burn card or the bottom card of the shoe is a card that is not dealt this round: seen, it
  tells its rank and leaves the shoe (a burn card seen face down tells nothing, and removing an
  unknown card leaves every figure as it was); both are the same computation, a removal;
* the player's edge per round dealt is Σ P(signal)·max(0, best EV); per round bet it is that
  divided by P(some bet is made); the house loses 100 × the edge per round dealt per 100 rounds
  when the player bets one unit on the best bet whenever one is profitable.

Every figure is exact (:mod:`exactodds.protection.information` counts the rounds within each
signal).

>>> from exactodds.bets.loader import load_paytable
>>> result = analyse_sort(load_paytable("punto-banco"), frozenset(range(5, 9)), seen=1)
>>> [s.label for s in result.signals]
['P: L ? | B: ? ?', 'P: H ? | B: ? ?']
>>> percent(result.edge_per_round, 3)  # Jacobson: one sorted card, 6 7 8 9 high
'6.765%'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm, perm
from typing import TYPE_CHECKING, Any

from exactodds.bets.kinds import refuse_live
from exactodds.bets.meters import figure_label
from exactodds.deal.shoe import RANK_VALUES, RANKS, Shoe, parse_card
from exactodds.errors import ExactOddsError, about, naming, quote
from exactodds.numbers import percent
from exactodds.protection.information import (
    ANY,
    POSITIONS,
    Restriction,
    first_four,
    row_counts,
    row_layout,
)

if TYPE_CHECKING:
    from exactodds.bets.paytable import Bet, Paytable
    from exactodds.deal.tableau import Tableau
    from exactodds.figures.metrics import BetFigures

__all__ = [
    "FLASH_POSITIONS",
    "Exposure",
    "ExposureError",
    "Given",
    "SignalFigures",
    "analyse_flash",
    "analyse_given",
    "analyse_signals",
    "analyse_sort",
    "optimise_sort",
    "parse_sort",
]

FLASH_POSITIONS: tuple[str, ...] = (*POSITIONS, "burn", "bottom")
"""Where a card can be flashed: a first-four dealing position, the burn card, the bottom card."""

Progress = Callable[[int, int], None]


class ExposureError(ExactOddsError):
    """A signal (sort, flash, given cards) that cannot be analysed."""


@dataclass(frozen=True)
class SignalFigures:
    """One signal: its combinations and probability, every bet's EV given it, and the best
    bet (index into the bets, None when no bet has a positive EV)."""

    label: str
    combinations: int
    probability: Fraction
    evs: tuple[Fraction, ...]

    @cached_property
    def best(self) -> int | None:
        """The bet with the highest EV when it is positive (the first such bet on a tie)."""
        top = max(self.evs, default=Fraction(0))
        return self.evs.index(top) if top > 0 else None

    @property
    def best_ev(self) -> Fraction:
        """The best bet's EV, or 0 when no bet is made."""
        return Fraction(0) if self.best is None else self.evs[self.best]


@dataclass(frozen=True)
class Exposure:
    """The value of one procedure's information to a player who bets best on every signal."""

    procedure: str
    bet_ids: tuple[str, ...]
    bet_names: tuple[str, ...]
    signals: tuple[SignalFigures, ...]
    full_evs: tuple[Fraction, ...]

    @cached_property
    def edge_per_round(self) -> Fraction:
        """Player's edge per round dealt: Σ P(signal)·max(0, best EV)."""
        return sum((s.probability * s.best_ev for s in self.signals), Fraction(0))

    @cached_property
    def bet_probability(self) -> Fraction:
        """Probability that some bet is made."""
        return sum((s.probability for s in self.signals if s.best is not None), Fraction(0))

    @property
    def no_bet_probability(self) -> Fraction:
        """Probability of a round with no profitable bet."""
        return 1 - self.bet_probability

    @property
    def edge_per_bet(self) -> Fraction | None:
        """Player's edge per round bet (None when no bet is ever made)."""
        p = self.bet_probability
        return None if p == 0 else self.edge_per_round / p

    @property
    def loss_per_100(self) -> Fraction:
        """The house's expected loss per 100 rounds dealt at a unit bet."""
        return 100 * self.edge_per_round

    @cached_property
    def per_bet_edges(self) -> tuple[Fraction, ...]:
        """Per bet: the player's edge per round dealt when only that bet may be made (when
        its EV given the signal is positive)."""
        return tuple(
            sum((s.probability * max(Fraction(0), s.evs[i]) for s in self.signals), Fraction(0))
            for i in range(len(self.bet_ids))
        )


def _nets(bets: Sequence[Bet]) -> list[list[Fraction]]:
    return [[bet.row_net(row) for row in bet.rows] for bet in bets]


def _signal_figures(
    labels: Sequence[str],
    counts: Sequence[Sequence[int]],
    totals: Sequence[int],
    bets: Sequence[Bet],
    universe: int,
) -> tuple[SignalFigures, ...]:
    """Per signal with rounds: every bet's EV per round of the signal (a bet with an offer is
    made when it is offered, so its rows count only those rounds and the others return 0)."""
    nets = _nets(bets)
    offsets = [0]
    for bet in bets:
        offsets.append(offsets[-1] + len(bet.rows))
    out = []
    for label, row, total in zip(labels, counts, totals, strict=True):
        if not total:
            continue
        evs = tuple(
            sum(
                (n * net for n, net in zip(row[offsets[i] : offsets[i + 1]], nets[i], strict=True)),
                Fraction(0),
            )
            / total
            for i in range(len(bets))
        )
        out.append(SignalFigures(label, total, Fraction(total, universe), evs))
    return tuple(out)


Known = dict[str, frozenset[tuple[int, int]]]
"""What a signal says of the cards by dealing position, for the card engine: position (P1 B1 P2
B2 P3 B3) → the (rank, suit) cards it may hold."""


def card_level(bet: Bet) -> bool:
    """Whether ``bet`` reads the cards themselves: counted by :mod:`exactodds.counting` per
    signal. Unlike the engines' rule (:func:`~exactodds.bets.paytable.settled_from_cards`), a
    value-level bet with an offer stays on the value path here: it counts offers itself
    (:func:`~exactodds.protection.information.row_counts`), without the card engine."""
    return bool(getattr(bet, "card_level", False))


def _card_rows(bet: Bet, shoe: Shoe, tableau: Tableau, known: Known | None) -> list[int]:
    """Rows of a card-level bet within the rounds that agree with ``known``, by the card engine
    (its rows count the offered rounds only, for a bet with an offer)."""
    import importlib

    cards = importlib.import_module("exactodds.counting")
    counts = cards.row_counts(
        [row.when for row in bet.rows],
        shoe,
        tableau,
        offer=getattr(bet, "offer", None),
        known=known,
    )
    return list(counts.rows)


def _merge(bets: Sequence[Bet], value_rows: Sequence[int], card_rows: Sequence[int]) -> list[int]:
    """Rows in paytable order from the value-level bets' rows and the card-level bets' rows."""
    out: list[int] = []
    v = c = 0
    for bet in bets:
        n = len(bet.rows)
        if card_level(bet):
            out += card_rows[c : c + n]
            c += n
        else:
            out += value_rows[v : v + n]
            v += n
    return out


def _cards_of(ranks: frozenset[int] | set[int]) -> frozenset[tuple[int, int]]:
    return frozenset((r, s) for r in ranks for s in range(4))


def analyse_signals(
    paytable: Paytable,
    labels: Sequence[str],
    signals: Any,
    procedure: str,
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    known: Sequence[Known] | None = None,
) -> Exposure:
    """The exposure of a split of the first-four card sequence classes (``signals[i]``: the
    signal of class i of :func:`~exactodds.protection.information.first_four`, an index into
    ``labels``). Card-level bets are counted by the card engine per signal, from ``known[s]`` (what
    signal s says of the cards), which they need."""
    import numpy as np

    shoe = shoe or paytable.shoe
    tableau = tableau or paytable.tableau
    bets = paytable.bets
    value_bets = tuple(b for b in bets if not card_level(b))
    card_bets = [b for b in bets if card_level(b)]
    ff = first_four(shoe)
    n = len(labels)
    value_counts = row_counts(
        shoe,
        tableau,
        value_bets,
        restriction=Restriction(),
        groups=signals,
        ngroups=n,
        ff=ff,
    ).tolist()
    tail = (shoe.size - 4) * (shoe.size - 5)
    order = np.argsort(signals, kind="stable")
    ordered = signals[order]
    totals = [0] * n
    for s in range(n):
        lo, hi = np.searchsorted(ordered, [s, s + 1])
        totals[s] = int(ff.n[order[lo:hi]].sum()) * tail
    counts = []
    for s in range(n):
        card_rows: list[int] = []
        if card_bets and totals[s]:
            if known is None:
                raise ExposureError(f"{procedure}: card-level bets need what each signal shows")
            for bet in card_bets:
                card_rows += _card_rows(bet, shoe, tableau, known[s])
        elif card_bets:
            card_rows = [0] * sum(len(b.rows) for b in card_bets)
        counts.append(_merge(bets, value_counts[s], card_rows))
    universe = perm(shoe.size, 6)
    figures = _signal_figures(labels, counts, totals, bets, universe)
    return _exposure(procedure, paytable, figures)


def _exposure(procedure: str, paytable: Paytable, figures: tuple[SignalFigures, ...]) -> Exposure:
    full = tuple(
        sum((s.probability * s.evs[i] for s in figures), Fraction(0))
        for i in range(len(paytable.bets))
    )
    return Exposure(
        procedure,
        tuple(b.id for b in paytable.bets),
        tuple(figure_label(b) for b in paytable.bets),
        figures,
        full,
    )


def hand_label(cells: Sequence[str]) -> str:
    """First-four cells in dealing order as ``P: a c | B: b d``.

    >>> hand_label(["H", "L", "?", "?"])
    'P: H ? | B: L ?'
    """
    return f"P: {cells[0]} {cells[2]} | B: {cells[1]} {cells[3]}"


@naming("sort")
def parse_sort(text: str) -> frozenset[int]:
    """The ranks of a sort's group (``"6 7 8 9"``; ``T``/``10`` is the ten only, ``0`` every
    rank of value 0): refused when it is empty, holds a suit or a rank twice, or holds every
    rank (then nothing is told apart).

    >>> sorted(RANKS[r] for r in parse_sort("6 7 8 9"))
    ['6', '7', '8', '9']
    >>> sorted(RANKS[r] for r in parse_sort("0 9"))
    ['9', 'J', 'K', 'Q', 'T']
    """
    ranks: set[int] = set()
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise ExposureError(f"sort {quote(text)}: name the ranks of one group, e.g. '6 7 8 9'")
    for token in tokens:
        if token == "0":
            new = {r for r in range(13) if RANK_VALUES[r] == 0}
        else:
            try:
                card = parse_card(token)
            except ExactOddsError as exc:
                raise ExposureError(f"sort {quote(text)}: {exc}") from None
            if card.suit is not None:
                raise ExposureError(
                    f"sort {quote(text)}: {quote(token)} has a suit; a sort groups ranks"
                )
            new = {card.rank}
        if new & ranks:
            raise ExposureError(f"sort {quote(text)}: {quote(token)} is listed twice")
        ranks |= new
    if len(ranks) == 13:
        raise ExposureError(
            f"sort {quote(text)}: every rank is in one group, so the sort tells nothing apart"
        )
    return frozenset(ranks)


def group_text(group: frozenset[int]) -> str:
    """A group of ranks in shoe order, e.g. ``6 7 8 9``."""
    return " ".join(RANKS[r] for r in sorted(group))


def _sort_signals(ff: Any, group: frozenset[int], seen: int) -> tuple[list[str], Any]:
    import numpy as np

    mask = np.array([1 if r in group else 0 for r in range(13)], dtype=np.int64)
    ids = np.zeros(len(ff.n), dtype=np.int64)
    for i in range(seen):
        ids += mask[ff.ranks[:, i]] << i
    labels = []
    for sig in range(1 << seen):
        cells = [("H" if sig >> i & 1 else "L") if i < seen else "?" for i in range(4)]
        labels.append(hand_label(cells))
    return labels, ids


@naming("seen")
def check_seen(seen: int) -> int:
    """``--seen`` as 1 to 4."""
    if not isinstance(seen, int) or not 1 <= seen <= 4:
        raise ExposureError(f"seen {quote(seen)}: the player sees the group of 1 to 4 cards")
    return seen


def analyse_sort(
    paytable: Paytable,
    group: frozenset[int],
    seen: int,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
) -> Exposure:
    """The exposure of a two-group sort (``group``: the H ranks, the rest L) whose groups the
    player sees on the first ``seen`` cards."""
    check_seen(seen)
    refuse_live(paytable.bets, "the exposure analysis")
    ff = first_four(shoe or paytable.shoe)
    labels, ids = _sort_signals(ff, group, seen)
    procedure = f"sort H = {group_text(group)} (L: the other ranks), seen on {seen} card(s)"
    high, low = _cards_of(group), _cards_of(set(range(13)) - group)
    known = [
        {POSITIONS[i]: high if sig >> i & 1 else low for i in range(seen)}
        for sig in range(1 << seen)
    ]
    return analyse_signals(
        paytable, labels, ids, procedure, shoe=shoe, tableau=tableau, known=known
    )


@naming("flash")
def parse_position(text: str) -> str:
    """A ``--flash`` position: P1, B1, P2, B2, burn or bottom (any case).

    >>> parse_position("p1"), parse_position("Burn")
    ('P1', 'burn')
    """
    wanted = text.strip().lower()
    for name in FLASH_POSITIONS:
        if name.lower() == wanted:
            return name
    raise ExposureError(
        f"flash {quote(text)}: use a dealing position P1, B1, P2, B2, or burn, bottom"
    )


def analyse_flash(
    paytable: Paytable,
    position: str,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
) -> Exposure:
    """The exposure of one card whose rank is seen: a first-four position, or a card that is
    not dealt this round (``burn``, ``bottom``: a removal, see the module notes)."""
    refuse_live(paytable.bets, "the exposure analysis")
    shoe = shoe or paytable.shoe
    tableau = tableau or paytable.tableau
    position = parse_position(position)
    if position in POSITIONS:
        ff = first_four(shoe)
        i = POSITIONS.index(position)
        labels = [hand_label([RANKS[r] if j == i else "?" for j in range(4)]) for r in range(13)]
        return analyse_signals(
            paytable,
            labels,
            ff.ranks[:, i].copy(),
            f"flashed card {position}",
            shoe=shoe,
            tableau=tableau,
            known=[{position: _cards_of({r})} for r in range(13)],
        )
    return _analyse_removal(paytable, position, shoe, tableau)


def _analyse_removal(paytable: Paytable, position: str, shoe: Shoe, tableau: Tableau) -> Exposure:
    """A seen card that is not dealt: per rank, the rounds dealt from the shoe less one card of
    that rank (each suit weighted by its count), in the seven-card universe N·perm(N−1, 6)."""
    from exactodds.deal.engine import joint_distribution
    from exactodds.deal.shoe import Card

    if shoe.size < 7:
        message = (
            f"flash {position}: a shoe of {shoe.size} cards cannot lose a card and deal a "
            "round (7 cards needed)"
        )
        raise about(ExposureError(message), "flash")
    bets = paytable.bets
    value_bets = tuple(b for b in bets if not card_level(b))
    card_bets = [b for b in bets if card_level(b)]
    layout = row_layout(tableau, value_bets)
    width = sum(len(b.rows) for b in bets)
    universe = shoe.size * perm(shoe.size - 1, 6)
    each = perm(shoe.size - 1, 6)
    labels, counts, totals = [], [], []
    cache: dict[tuple[object, ...], list[int]] = {}
    for rank in range(13):
        row = [0] * width
        for suit in range(4):
            c = shoe.counts[rank][suit]
            if not c:
                continue
            left = shoe.remove([Card(rank, suit)])
            # the value-level figures are the same for shoes equal up to the suits' names
            key = tuple(sorted(zip(*left.counts, strict=True)))
            found = cache.get(key)
            if found is None:
                found = cache[key] = layout.counts(joint_distribution(left, tableau).counts)
            card_rows: list[int] = []
            for bet in card_bets:
                card_rows += _card_rows(bet, left, tableau, None)
            merged = _merge(bets, found, card_rows)
            row = [a + c * b for a, b in zip(row, merged, strict=True)]
        labels.append(f"{position} {RANKS[rank]}")
        counts.append(row)
        totals.append(sum(shoe.counts[rank]) * each)
    figures = _signal_figures(labels, counts, totals, bets, universe)
    return _exposure(f"seen {position} card", paytable, figures)


# -- the best sort ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SortResult:
    """One two-group sort and what it is worth."""

    group: frozenset[int]
    edge_per_round: Fraction
    bet_probability: Fraction

    @property
    def edge_per_bet(self) -> Fraction | None:
        return None if self.bet_probability == 0 else self.edge_per_round / self.bet_probability


_STATE: dict[str, Any] = {}


def _edges_of(masks: Sequence[tuple[int, tuple[int, ...]]]) -> list[tuple[int, int, int]]:
    """Per 0/1 mask over the tensor's card classes: (numerator of the edge × D, combinations
    with a bet, index) — run in a worker on the tensor set up by :func:`optimise_sort`."""
    import numpy as np

    tensor, nets, offsets, seen = (
        _STATE["tensor"],
        _STATE["nets"],
        _STATE["offsets"],
        _STATE["seen"],
    )
    out = []
    for index, mask in masks:
        g = np.array(mask, dtype=tensor.dtype)
        split = np.stack([1 - g, g])
        x = tensor
        for _ in range(seen):
            x = np.tensordot(split, x, axes=([1], [0]))
            x = np.moveaxis(x, 0, -2) if x.ndim > 2 else x
        rows = x.reshape(-1, x.shape[-1]).tolist()
        edge = 0
        betting = 0
        first = offsets[1]
        for row in rows:
            best = max(
                sum(n * w for n, w in zip(row[offsets[i] : offsets[i + 1]], nets[i], strict=True))
                for i in range(len(nets))
            )
            if best > 0:
                edge += best
                betting += sum(row[:first])
        out.append((edge, betting, index))
    return out


def optimise_sort(
    paytable: Paytable,
    seen: int,
    by: str = "value",
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    top: int = 10,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> list[SortResult]:
    """The ``top`` two-group sorts with the highest player's edge per round dealt, over every
    partition of the ten values into two groups (``by="value"``: the four ten-value ranks stay
    together, 511 sorts) or of the thirteen ranks (``by="rank"``, 4095 sorts), exact.

    ``jobs`` worker processes (default: the CPUs for the rank sorts, one for the values).
    """
    import numpy as np

    refuse_live(paytable.bets, "the exposure analysis")
    check_seen(seen)
    if by not in ("value", "rank"):
        raise about(ExposureError(f"by {quote(by)}: use value or rank"), "by")
    shoe = shoe or paytable.shoe
    tableau = tableau or paytable.tableau
    bets = tuple(b for b in paytable.bets if not card_level(b))
    if not bets:
        message = (
            "optimise_sort searches the bets read from the round's outcome; this paytable has "
            "only card-level bets (analyse a sort of them with analyse_sort)"
        )
        raise about(ExposureError(message), "optimise_sort", "analyse_sort")
    ff = first_four(shoe)
    seq = ((ff.ranks[:, 0] * 13 + ff.ranks[:, 1]) * 13 + ff.ranks[:, 2]) * 13 + ff.ranks[:, 3]
    counts = row_counts(
        shoe, tableau, bets, restriction=Restriction(), groups=seq, ngroups=13**4, ff=ff
    )
    width = counts.shape[1]
    tensor = counts.reshape(13, 13, 13, 13, width)
    tensor = tensor.sum(axis=tuple(range(seen, 4)))
    if by == "value":
        fold = np.zeros((10, 13), dtype=tensor.dtype)
        for r in range(13):
            fold[RANK_VALUES[r], r] = 1
        for _ in range(seen):
            tensor = np.moveaxis(np.tensordot(fold, tensor, axes=([1], [0])), 0, seen - 1)
        size = 10
    else:
        size = 13
    nets = _nets(bets)
    scale = lcm(*(net.denominator for row in nets for net in row))
    int_nets = [[int(net * scale) for net in row] for row in nets]
    offsets = row_layout(tableau, bets).offsets
    # every split with class 0 (value 0 / the ace) in group L and something in group H
    masks = [
        (i, tuple((i >> (k - 1)) & 1 if k else 0 for k in range(size)))
        for i in range(1, 1 << (size - 1))
    ]
    _STATE.update(tensor=tensor, nets=int_nets, offsets=offsets, seen=seen)
    if jobs is None:
        jobs = (os.cpu_count() or 1) if by == "rank" else 1
    results = _all_edges(masks, jobs, progress)
    _STATE.clear()
    universe = perm(shoe.size, 6)
    results.sort(key=lambda r: (-r[0], r[2]))
    out = []
    for edge, betting, index in results[:top]:
        mask = masks[index - 1][1]
        if by == "value":
            group = frozenset(r for r in range(13) if mask[RANK_VALUES[r]])
        else:
            group = frozenset(r for r in range(13) if mask[r])
        out.append(SortResult(group, Fraction(edge, scale * universe), Fraction(betting, universe)))
    return out


def _all_edges(
    masks: list[tuple[int, tuple[int, ...]]], jobs: int, progress: Progress | None
) -> list[tuple[int, int, int]]:
    """:func:`_edges_of` every mask, in ``jobs`` processes (forked: they share ``_STATE``)."""
    chunk = max(1, len(masks) // (jobs * 16))
    parts = [masks[i : i + chunk] for i in range(0, len(masks), chunk)]
    results: list[tuple[int, int, int]] = []
    if jobs <= 1:
        for part in parts:
            results += _edges_of(part)
            if progress is not None:
                progress(len(results), len(masks))
        return results
    import os

    from exactodds.analysis.workers import worker_context, worker_signals

    # workers leave Ctrl-C to this process and die with it (see exactodds.analysis.workers)
    context = worker_context("fork")
    with context.Pool(jobs, initializer=worker_signals, initargs=(os.getpid(),)) as pool:
        for found in pool.imap_unordered(_edges_of, parts):
            results += found
            if progress is not None:
                progress(len(results), len(masks))
    return results


def describe_edge(x: Fraction | None) -> str:
    """An edge as a percentage with three decimals, ``—`` when undefined."""
    return "—" if x is None else percent(x, 3)


# -- partial deals ------------------------------------------------------------------------------


def given_known(text: str) -> Known:
    """The card engine's known cards of a ``--given`` text (what ``odds --given`` counts
    card-level bets under, and its budget estimates them under).

    >>> sorted(given_known("P: Kh ? | B: ? ?"))
    ['P1']
    """
    from exactodds.protection.information import parse_given

    return _known_of(parse_given(text))


def _known_of(restriction: Restriction) -> Known:
    """A :class:`~exactodds.protection.information.Restriction` as the card engine's known cards."""
    known: Known = {}
    for position, mask in zip(POSITIONS, restriction.first, strict=True):
        if mask != ANY:
            known[position] = frozenset(
                (r, s) for r, m in enumerate(mask) for s in range(4) if m >> s & 1
            )
    for position, ranks in (("P3", restriction.player_third), ("B3", restriction.banker_third)):
        if ranks is not None:
            known[position] = _cards_of(ranks)
    return known


@dataclass(frozen=True)
class Given:
    """The round given what is known of its cards: the combinations consistent with it, the
    Banker / Player / Tie combinations among them and every bet's exact figures."""

    total: int
    universe: int
    winners: dict[str, int]
    figures: tuple[BetFigures, ...]


def analyse_given(text: str, shoe: Shoe, tableau: Tableau, bets: Sequence[Bet] = ()) -> Given:
    """The conditional figures of ``--given``
    (:func:`~exactodds.protection.information.parse_given`).

    >>> from exactodds.deal.shoe import Shoe
    >>> from exactodds.deal.tableau import BUILTIN
    >>> g = analyse_given("P: 9s ? | B: ? ?", Shoe.decks(8), BUILTIN["punto-banco"])
    >>> g.total * 52 == perm(416, 6), sum(g.winners.values()) == g.total  # 9s: 8 of 416
    (True, True)
    """
    from exactodds.deal.round import Winner
    from exactodds.figures.metrics import BetFigures, RowFigures
    from exactodds.protection.information import conditional_counts, parse_given

    refuse_live(bets, "the figures given known cards")
    restriction = parse_given(text)
    [cond] = conditional_counts(shoe, restriction, tableau)
    if not cond.total:
        message = (
            f"given {quote(text)}: no round dealt from this shoe ({shoe.describe()}) under "
            f"{tableau.name} matches these cards"
        )
        raise about(ExposureError(message), "given")
    winners = {"banker": 0, "player": 0, "tie": 0}
    for outcome, n in cond.counts.items():
        winners[outcome.winner.value] += n
    assert set(winners) == {w.value for w in Winner}
    figures: tuple[BetFigures, ...] = ()
    if bets:
        import numpy as np

        ff = first_four(shoe, restriction.first)
        bets = tuple(bets)
        value_bets = tuple(b for b in bets if not card_level(b))
        [value_rows] = row_counts(
            shoe,
            tableau,
            value_bets,
            restriction=restriction,
            groups=np.zeros(len(ff.n), dtype=np.int64),
            ngroups=1,
            ff=ff,
        ).tolist()
        card_rows: list[int] = []
        known = _known_of(restriction)
        for bet in bets:
            if card_level(bet):
                card_rows += _card_rows(bet, shoe, tableau, known)
        row = _merge(bets, value_rows, card_rows)
        figures_list = []
        start = 0
        for bet in bets:
            counts = [int(n) for n in row[start : start + len(bet.rows)]]
            start += len(bet.rows)
            total = sum(counts)  # every round given, or the offered ones for an offer
            figures_list.append(
                BetFigures(
                    bet,
                    tuple(
                        RowFigures(r.event, r.pays, bet.row_net(r), n, Fraction(n, total or 1))
                        for r, n in zip(bet.rows, counts, strict=True)
                    ),
                    total,
                )
            )
        figures = tuple(figures_list)
    return Given(cond.total, perm(shoe.size, 6), winners, figures)
