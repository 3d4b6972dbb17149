"""Exact figures of a peek bet (issue 34): some of the first four cards are shown, then the
player keeps the stake or raises it, and the optimal decision in every cell of shown cards.

Model. The base stake is 1; the fee ``f`` (:attr:`~exactodds.bets.paytable.Bet.fee`) is paid on
it every round and never returned; the raise pays no fee. A reveal rule (positions ``S`` among
P1 B1 P2 B2, probability ``q``) shows the cards at ``S``; for each cell ``v`` of shown values
(ranks when a row reads ranks) ``EV_c(v)`` is the bet's expected net per unit stake given ``v``
(each row's net, its commission taken from a win). The player stakes ``r`` in ``{1} ∪ raises``
maximising ``r·EV_c(v)`` (a tie goes to the smaller stake). That is linear in ``r``, so only
keeping (``EV_c <= 0``) or the largest raise (``EV_c > 0``) is ever strictly optimal. Then, per
base stake::

    net  = Σ_S q Σ_v P(v)·r*(v)·EV_c(v) − f        paid = E[r] + f
    RTP  = 1 + net/paid                            house edge = −net/paid

The decision maximises the expected net, not the RTP, which is a ratio over money paid: always
raising can show a higher RTP while losing more (Player, P1 shown, 8 decks: 92.59% against
92.28%). Rows are keyed by the shown values unless one reads ranks (a pair, a card-level row);
then by ranks, which gives the same figures where values would do, in more cells.

>>> from dataclasses import replace
>>> from exactodds.bets.loader import load_paytable
>>> from exactodds.bets.multipliers import Peek
>>> player = load_paytable("classic").bet("player")
>>> peek = Peek(((("P1",), Fraction(1)),))
>>> f = peek_figures(replace(player, fee=Fraction(1, 5), peek=peek), Shoe.decks(8))
>>> [(c.shown, c.decision) for c in f.decision_table[0].cells][:2]
[((0,), 'keep'), ((1,), 'keep')]
>>> f"{float(f.rtp):.4%}", f"{float(f.rtp_never_raise):.4%}"
('92.2809%', '82.3041%')
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from itertools import product
from math import lcm, prod

from exactodds.bets.multipliers import DEALING_ORDER_REVEALS, PEEK_POSITIONS, Peek
from exactodds.bets.paytable import Bet
from exactodds.bets.returns import ReturnFigures
from exactodds.deal.round import Hand, Outcome, PairKind, continuations, feature_record
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, STOOD, Tableau
from exactodds.errors import PaytableError

__all__ = [
    "DEALING_ORDER_REVEALS",
    "PeekCell",
    "PeekFigures",
    "PeekRule",
    "peek_figures",
    "peek_rules",
]


DECISIONS: Mapping[int, str] = {1: "keep", 2: "double", 3: "triple"}
"""The names of the stake multiples; any other reads ``×r``."""


Counts = Mapping[tuple[int, tuple[int, ...]], int]
"""(row index, shown key) -> combinations of the six-card universe."""


@dataclass(frozen=True)
class PeekCell:
    """One cell of shown cards: its probability P(v) under its rule (the rule's own probability
    aside), the conditional edge per unit stake, each row's combinations in it, and r*."""

    shown: tuple[int, ...]
    """The shown cards' values (or ranks, 1..13), in the rule's order of positions."""
    probability: Fraction
    edge: Fraction
    """−EV_c: the house edge per unit stake given the shown cards (fee aside)."""
    rows: tuple[int, ...]
    stake: int
    """The optimal stake multiple r*: 1 (keep) or a raise."""

    @property
    def decision(self) -> str:
        """keep / double / triple, or ``×r`` for another raise."""
        return DECISIONS.get(self.stake, f"×{self.stake}")


@dataclass(frozen=True)
class PeekRule:
    """One reveal rule: the shown positions, its probability and every cell's decision."""

    positions: tuple[str, ...]
    probability: Fraction
    attr: str
    """What the cells key on: ``value`` (0..9) or ``rank`` (1..13)."""
    cells: tuple[PeekCell, ...]
    ev: Fraction
    """Σ P(v)·r*(v)·EV_c(v): the expected net per base stake under the decision, fee aside."""
    stake: Fraction
    """E[r*]: the expected stake multiple under the decision."""
    base_ev: Fraction
    """Σ P(v)·EV_c(v): the bet's expected net per unit stake (the same under every rule)."""


@dataclass(frozen=True)
class PeekFigures(ReturnFigures):
    """A peek bet's exact figures under the optimal decision, per base stake (module docstring),
    with the decision table and the RTPs of the simpler policies and of each fixed reveal."""

    bet: Bet
    shoe: Shoe
    tableau: Tableau
    decision_table: tuple[PeekRule, ...]
    """The bet's reveal rules, each with its cells and decisions."""

    @cached_property
    def fee(self) -> Fraction:
        """The fee per base stake, paid every round, never returned, none on the raise."""
        return self.bet.fee

    @property
    def raises(self) -> tuple[int, ...]:
        """The stake multiples the player may raise to."""
        return self.bet.peek.raises if self.bet.peek is not None else ()

    @cached_property
    def nets(self) -> tuple[Fraction, ...]:
        """Each row's net per unit stake, commission taken from a win."""
        return tuple(row.net_at(1) for row in self.bet.rows)

    @cached_property
    def fixed_reveals(self) -> tuple[PeekRule, ...]:
        """The rules of :data:`DEALING_ORDER_REVEALS`, each with probability 1 (the bet's own
        rules reused, the others counted on first use)."""
        own = {rule.positions: rule for rule in self.decision_table}
        missing = [(p, Fraction(1)) for p in DEALING_ORDER_REVEALS if p not in own]
        counted = {r.positions: r for r in peek_rules(self.bet, self.shoe, self.tableau, missing)}
        return tuple(
            replace(own[p], probability=Fraction(1)) if p in own else counted[p]
            for p in DEALING_ORDER_REVEALS
        )

    def outcomes(self) -> Iterable[tuple[Fraction, Fraction]]:
        """(probability, net per base stake before the fee) of every stake and row, r*·net,
        summed over the rules and cells (:attr:`_outcomes`)."""
        return self._outcomes

    @cached_property
    def _outcomes(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """Each (stake, row)'s probability, summed once: every headline figure reads them."""
        summed: dict[tuple[int, int], Fraction] = {}
        for rule in self.decision_table:
            for cell in rule.cells:
                total = sum(cell.rows)
                weight = rule.probability * cell.probability / total if total else Fraction(0)
                for i, n in enumerate(cell.rows):
                    if n:
                        key = (cell.stake, i)
                        summed[key] = summed.get(key, Fraction(0)) + weight * n
        return tuple((p, stake * self.nets[i]) for (stake, i), p in sorted(summed.items()) if p)

    @cached_property
    def mean_net(self) -> Fraction:
        """Expected net per base stake before the fee (the outcomes', summed by rule)."""
        return sum((rule.probability * rule.ev for rule in self.decision_table), Fraction(0))

    @cached_property
    def paid(self) -> Fraction:
        """Money paid per base stake: the expected stake multiple plus the fee."""
        return sum((rule.probability * rule.stake for rule in self.decision_table), self.fee)

    def _rtp(self, rules: Sequence[PeekRule], stake: int | None) -> Fraction:
        """RTP when every cell stakes ``stake`` (the optimal r* when None)."""
        net = paid = Fraction(0)
        for rule in rules:
            ev, r = (rule.ev, rule.stake) if stake is None else (stake * rule.base_ev, stake)
            net += rule.probability * ev
            paid += rule.probability * r
        return 1 + (net - self.fee) / (paid + self.fee)

    @cached_property
    def rtp_never_raise(self) -> Fraction:
        """RTP when the player always keeps the stake (peeking ignored)."""
        return self._rtp(self.decision_table, 1)

    @cached_property
    def rtp_always_max(self) -> Fraction:
        """RTP when the player always raises to the largest multiple (always triple)."""
        return self._rtp(self.decision_table, max(self.raises, default=1))

    @cached_property
    def value_of_peeking(self) -> Fraction:
        """Optimal RTP minus the never-raise RTP."""
        return self.rtp - self.rtp_never_raise

    @cached_property
    def rtp_by_reveal(self) -> dict[tuple[str, ...], Fraction]:
        """Optimal RTP if the reveal were each fixed rule of 1, 2, 3, 4 cards in dealing order."""
        return {rule.positions: self._rtp((rule,), None) for rule in self.fixed_reveals}

    def __repr__(self) -> str:
        return (
            f"<PeekFigures {self.bet.id}: RTP {float(self.rtp):.4%}, paid {float(self.paid):.4f}>"
        )


def shown_attr(bet: Bet) -> str:
    """``value`` when the bet's rows are a function of the card values (round features other
    than pairs), else ``rank``: the coarsest key that loses nothing the rows read."""
    return "rank" if bet.reads_ranks else "value"


def best_stake(ev: Fraction, raises: Sequence[int]) -> int:
    """The stake multiple in ``{1} ∪ raises`` maximising ``r·ev``, ties to the smaller.

    >>> [best_stake(Fraction(ev), (2, 3)) for ev in ("1/10", "0", "-1")]
    [3, 1, 1]
    """
    best = 1
    for r in sorted({1, *raises}):
        if r * ev > best * ev:
            best = r
    return best


def _rule(
    positions: tuple[str, ...],
    probability: Fraction,
    attr: str,
    counts: Counts,
    *,
    universe: int,
    nets: Sequence[Fraction],
    raises: Sequence[int],
) -> PeekRule:
    scale = lcm(*(net.denominator for net in nets))  # integer nets: one Fraction per cell
    whole = [int(net * scale) for net in nets]
    by_key: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0] * len(nets))
    for (row, key), n in counts.items():
        by_key[key][row] += int(n)
    cells = []
    ev = stake = base = 0
    for key in sorted(by_key):
        rows = by_key[key]
        total = sum(rows)
        if not total:
            continue
        net = sum(n * w for n, w in zip(rows, whole, strict=True))  # EV_c · total · scale
        r = best_stake(Fraction(net), raises)
        cells.append(
            PeekCell(key, Fraction(total, universe), Fraction(-net, total * scale), tuple(rows), r)
        )
        ev += r * net
        stake += r * total
        base += net
    return PeekRule(
        positions,
        probability,
        attr,
        tuple(cells),
        ev=Fraction(ev, universe * scale),
        stake=Fraction(stake, universe),
        base_ev=Fraction(base, universe * scale),
    )


def value_keyed_counts(
    bet: Bet, shoe: Shoe, tableau: Tableau, rules: Sequence[tuple[str, ...]]
) -> tuple[tuple[Counts, ...], int]:
    """For each rule of shown positions, the combinations by (row, shown values), counted over
    the first four cards by value and the rest in closed form; for bets on round features that
    are functions of the values (:func:`shown_attr` is ``value``).

    >>> from exactodds.bets.loader import load_paytable
    >>> tie = load_paytable("classic").bet("tie")
    >>> (counts,), universe = value_keyed_counts(tie, Shoe.decks(8), BUILTIN["punto-banco"], [()])
    >>> counts[0, ()] * 10000 // universe  # 9.516%
    951
    """
    vals = shoe.value_counts
    m = shoe.size - 4
    table = continuations(tableau)
    row_of: dict[tuple[int, int, int, int], int] = {}

    def row(pt: int, bt: int, x: int, y: int) -> int:
        found = row_of.get((pt, bt, x, y))
        if found is None:
            p = Hand(pt, None if x == STOOD else x, PairKind.NONE)
            b = Hand(bt, None if y == STOOD else y, PairKind.NONE)
            found = row_of[pt, bt, x, y] = bet.row_index(feature_record(Outcome(p, b)))
        return found

    def rest(four: tuple[int, ...]) -> list[int]:
        """Combinations of cards five and six by row, after the first four ``four``."""
        pt = (four[0] + four[2]) % 10
        bt = (four[1] + four[3]) % 10
        cont = table[pt][bt]
        vec = [0] * len(bet.rows)
        if not cont.player_draws:
            if cont.banker_draws[STOOD]:
                for y in range(10):
                    vec[row(pt, bt, STOOD, y)] += left[y] * (m - 1)
            else:
                vec[row(pt, bt, STOOD, STOOD)] += m * (m - 1)
            return vec
        for x in range(10):
            if not left[x]:
                continue
            if cont.banker_draws[x]:
                for y in range(10):
                    vec[row(pt, bt, x, y)] += left[x] * (left[y] - (x == y))
            else:
                vec[row(pt, bt, x, STOOD)] += left[x] * (m - 1)
        return vec

    index = [tuple(PEEK_POSITIONS.index(p) for p in rule) for rule in rules]
    acc: list[dict[tuple[int, tuple[int, ...]], int]] = [defaultdict(int) for _ in rules]
    left = list(vals)
    for four in product(range(10), repeat=4):
        weight = 1
        for v in four:
            weight *= left[v]
            left[v] -= 1
        if weight > 0:
            vec = rest(four)
            for where, out in zip(index, acc, strict=True):
                key = tuple(four[i] for i in where)
                for r, n in enumerate(vec):
                    if n:
                        out[r, key] += weight * n
        for v in four:
            left[v] += 1
    return tuple(dict(a) for a in acc), prod(range(shoe.size - 5, shoe.size + 1))


def _keyed(
    bet: Bet, shoe: Shoe, tableau: Tableau, rules: Sequence[tuple[str, ...]], attr: str
) -> tuple[tuple[Counts, ...], int]:
    if attr == "value":
        return value_keyed_counts(bet, shoe, tableau, rules)
    from exactodds.counting.ranks import ShownCards, keyed_counts  # numpy: loaded on use

    conditions = [row.when for row in bet.rows]
    keyed = keyed_counts(conditions, shoe, tableau, keys=[ShownCards(rule, attr) for rule in rules])
    return tuple(k.counts for k in keyed), keyed[0].universe


def peek_rules(
    bet: Bet,
    shoe: Shoe,
    tableau: Tableau,
    reveals: Sequence[tuple[tuple[str, ...], Fraction]],
) -> tuple[PeekRule, ...]:
    """Every cell's optimal decision under each (shown positions, probability) reveal rule."""
    if bet.peek is None:
        raise PaytableError(f"bet {bet.id!r} has no peek")
    if not reveals:
        return ()
    attr = shown_attr(bet)
    nets = [row.net_at(1) for row in bet.rows]
    positions = list(dict.fromkeys(p for p, _ in reveals))
    counts, universe = _keyed(bet, shoe, tableau, positions, attr)
    by_rule = dict(zip(positions, counts, strict=True))
    return tuple(
        _rule(p, q, attr, by_rule[p], universe=universe, nets=nets, raises=bet.peek.raises)
        for p, q in reveals
    )


def _check(bet_id: str, peek: Peek) -> None:
    """Refuse a peek the figures cannot mean: unknown or repeated positions, probabilities that
    are not a distribution, a raise that is not a whole multiple above 1."""
    for positions, q in peek.reveals:
        if not set(positions) <= set(PEEK_POSITIONS) or len(set(positions)) != len(positions):
            raise PaytableError(
                f"bet {bet_id!r}: peek reveal {' '.join(positions)!r} must name distinct cards "
                f"of {' '.join(PEEK_POSITIONS)}"
            )
        if q < 0:
            raise PaytableError(f"bet {bet_id!r}: peek reveal probability {q} is negative")
    if sum(q for _, q in peek.reveals) != 1:
        raise PaytableError(f"bet {bet_id!r}: peek reveal probabilities must sum to 1")
    if any(not isinstance(r, int) or r < 2 for r in peek.raises):
        raise PaytableError(f"bet {bet_id!r}: peek raises must be whole multiples of 2 or more")


def peek_figures(bet: Bet, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> PeekFigures:
    """The exact figures of ``bet`` (which has a :attr:`~exactodds.bets.paytable.Bet.peek`) on
    ``shoe`` under the optimal decision, per base stake; see the module docstring."""
    if bet.peek is None:
        raise PaytableError(f"bet {bet.id!r} has no peek")
    if bet.offer is not None or bet.progressive is not None:
        raise PaytableError(f"bet {bet.id!r}: a peek on an offered or progressive bet")
    if bet.rounding is not None:  # a raised stake is rounded on its own amount, not r times
        raise PaytableError(f"bet {bet.id!r}: a peek on a bet with rounding")
    _check(bet.id, bet.peek)
    return PeekFigures(bet, shoe, tableau, peek_rules(bet, shoe, tableau, bet.peek.reveals))
