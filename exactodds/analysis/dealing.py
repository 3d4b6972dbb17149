"""Dealt shoes: shuffle, burn, cut card, and rounds dealt through the round module (rules.md §7).

Why: simulations of shoes (computer-perfect play, card counting) need millions of rounds dealt
the way a table deals them, reproducibly.

Streams. Shoe ``index`` of a run with ``seed`` is shuffled by the generator of
``numpy.random.SeedSequence(entropy=seed, spawn_key=(index,))`` (the ``index``-th child that
``SeedSequence(seed).spawn`` would give): every shoe has its own independent stream, so a run
deals the same shoes whatever the number of workers, the backend or the chunking. The shoe's
cards, in card-code order (rank·4 + suit), are put in the order ``rng.permutation(N)``.

Shoe procedure (rule text 0). The first card is turned face up and burned with as many more cards,
face down, as its value (10 for a ten or face card). The cut card sits ``cut_card`` cards from
the end: the round in which it comes out is completed and one more round is dealt. A round is
dealt only while at least six cards are left (the counting universe, docs/rules.md §2).

Dealing is vectorised over the shoes of a chunk: round k of every shoe still in play is dealt in
one numpy step by the round module's continuation table (:func:`deal_rounds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from exactodds.deal.round import (
    Continuation,
    PairKind,
    continuations,
    hand_code,
    outcome_code,
    pair_kinds_by_code,
)
from exactodds.deal.shoe import MIN_CARDS, RANK_VALUES, Shoe
from exactodds.deal.tableau import STOOD, Tableau

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[Any]

__all__ = [
    "CARD_CODES",
    "DealtRounds",
    "deal_outcome_codes",
    "deal_round_at",
    "deal_rounds",
    "deal_shoes",
    "play_shoe",
    "shoe_rng",
]

CARD_CODES = 52
"""Card codes rank·4 + suit: 13 ranks × 4 suits."""


def shoe_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of shoe ``index`` of a run with ``seed`` (see the module docstring).

    >>> import numpy as np
    >>> a = shoe_rng(7, 3).permutation(10)
    >>> b = np.random.default_rng(np.random.SeedSequence(7).spawn(4)[3]).permutation(10)
    >>> (a == b).all(), (a == shoe_rng(7, 4).permutation(10)).all()
    (np.True_, np.False_)
    """
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


# -- one round ----------------------------------------------------------------------------------


def deal_round_at(cards: Sequence[int], pos: int, tableau: Tableau) -> tuple[int, int]:
    """Deal the round that starts at ``pos`` in ``cards`` (codes rank·4 + suit), by the round
    module's continuation table. Returns the outcome code and the position after the round.

    >>> from exactodds.deal.round import Outcome
    >>> from exactodds.deal.tableau import BUILTIN
    >>> k = lambda r, s: r * 4 + s  # rank index (A=0 … K=12), suit index
    >>> cards = [k(4, 0), k(12, 1), k(4, 0), k(11, 1), k(8, 2), k(8, 3)]  # 5c Kd 5c Qd 9h 9s
    >>> code, pos = deal_round_at(cards, 0, BUILTIN["punto-banco"])
    >>> Outcome.from_code(code), pos  # doctest: +NORMALIZE_WHITESPACE
    (Outcome(player=Hand(initial=0, third=9, pair_kind=<PairKind.PERFECT: 2>),
             banker=Hand(initial=0, third=9, pair_kind=<PairKind.NONE: 0>)), 6)
    """
    return _deal(cards, pos, continuations(tableau), pair_kinds_by_code())


def _deal(
    cards: Sequence[int],
    pos: int,
    table: tuple[tuple[Continuation, ...], ...],
    kinds: tuple[tuple[PairKind, ...], ...],
) -> tuple[int, int]:
    """:func:`deal_round_at` with the continuation and pair-kind tables looked up once."""
    c0, c1, c2, c3 = cards[pos : pos + 4]
    p = (RANK_VALUES[c0 >> 2] + RANK_VALUES[c2 >> 2]) % 10
    b = (RANK_VALUES[c1 >> 2] + RANK_VALUES[c3 >> 2]) % 10
    cont = table[p][b]
    pos += 4
    x = y = STOOD
    if cont.player_draws:
        x = RANK_VALUES[cards[pos] >> 2]
        pos += 1
    if cont.banker_draws[x]:
        y = RANK_VALUES[cards[pos] >> 2]
        pos += 1
    return outcome_code(hand_code(p, x, kinds[c0][c2]), hand_code(b, y, kinds[c1][c3])), pos


# -- many rounds at once ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _DealerTables:
    """The continuation table as numpy arrays, for the vectorised dealer."""

    player_draws: IntArray  # bool [player total, banker total]
    banker_draws: IntArray  # bool [player total, banker total, player third or STOOD]
    kinds: IntArray  # pair kind [card code, card code]
    value: IntArray  # baccarat value by card code


@lru_cache(maxsize=8)
def _tables(tableau: Tableau) -> _DealerTables:
    import numpy as np

    table = continuations(tableau)
    return _DealerTables(
        np.array([[c.player_draws for c in row] for row in table], dtype=bool),
        np.array([[c.banker_draws for c in row] for row in table], dtype=bool),
        np.array(pair_kinds_by_code(), dtype=np.int64),
        np.repeat(np.array(RANK_VALUES, dtype=np.int64), 4),
    )


def deal_rounds(cards: IntArray, tableau: Tableau) -> tuple[IntArray, IntArray]:
    """Outcome codes and cards used (4–6) of rounds dealt by the round module's continuation
    table, vectorised: ``cards[j]`` holds the j-th card (code rank·4 + suit) of every round.

    >>> import numpy as np
    >>> from exactodds.deal.round import Outcome
    >>> from exactodds.deal.tableau import BUILTIN
    >>> k = lambda r, s: r * 4 + s  # rank index (A=0 … K=12), suit index
    >>> one = [k(4, 0), k(12, 1), k(4, 0), k(11, 1), k(8, 2), k(8, 3)]  # 5c Kd 5c Qd 9h 9s
    >>> two = [k(8, 0), k(0, 1), k(9, 0), k(4, 1), k(8, 2), k(8, 3)]  # 9c Ad Tc 5d: a natural
    >>> codes, used = deal_rounds(np.array([one, two]).T, BUILTIN["punto-banco"])
    >>> Outcome.from_code(int(codes[0])).player, used.tolist()
    (Hand(initial=0, third=9, pair_kind=<PairKind.PERFECT: 2>), [6, 4])
    """
    import numpy as np

    t = _tables(tableau)
    c = list(cards)
    v = [t.value[card] for card in c[:4]]
    p = (v[0] + v[2]) % 10
    b = (v[1] + v[3]) % 10
    p_draws = t.player_draws[p, b]
    fifth, sixth = t.value[c[4]], t.value[c[5]]
    x = np.where(p_draws, fifth, STOOD)
    b_draws = t.banker_draws[p, b, x]
    y = np.where(b_draws, np.where(p_draws, sixth, fifth), STOOD)
    codes = outcome_code(hand_code(p, x, t.kinds[c[0], c[2]]), hand_code(b, y, t.kinds[c[1], c[3]]))
    return codes, 4 + p_draws.astype(np.int64) + b_draws.astype(np.int64)


def deal_outcome_codes(cards: IntArray, tableau: Tableau) -> IntArray:
    """Outcome codes of :func:`deal_rounds` (``cards[j]``: the j-th card of every round).

    >>> import numpy as np
    >>> from exactodds.deal.round import Outcome
    >>> from exactodds.deal.tableau import BUILTIN
    >>> k = lambda r, s: r * 4 + s
    >>> one = [k(4, 0), k(12, 1), k(4, 0), k(11, 1), k(8, 2), k(8, 3)]  # 5c Kd 5c Qd 9h 9s
    >>> code = deal_outcome_codes(np.array([one]).T, BUILTIN["punto-banco"])[0]
    >>> print(Outcome.from_code(int(code)))
    Outcome(player=Hand(initial=0, third=9, pair_kind=<PairKind.PERFECT: 2>), \
banker=Hand(initial=0, third=9, pair_kind=<PairKind.NONE: 0>))
    """
    return deal_rounds(cards, tableau)[0]


# -- shoes --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DealtRounds:
    """The rounds of a chunk of dealt shoes, shoe by shoe and round by round.

    ``states[i]`` are the card counts (by card code rank·4 + suit) in the shoe before round
    ``i``; ``shoe[i]`` is the shoe's position in ``indices`` and ``round[i]`` the round number
    (1, 2, …). ``face_down[s]`` counts the cards of shoe ``s`` burned face down (all burned
    cards but the first, which is turned face up). ``full`` is the full shoe by card code.
    ``cards[i]`` are round ``i``'s cards in dealing order (the six-card slots: P1 B1 P2 B2, then
    the fifth and sixth card), ``-1`` where the round used fewer: card-level bets settle on them.
    """

    indices: tuple[int, ...]
    full: IntArray
    shoe: IntArray
    round: IntArray
    states: IntArray
    codes: IntArray
    face_down: IntArray
    cards: IntArray

    def __len__(self) -> int:
        return len(self.codes)

    def seen(self, *, see_burns: bool = False) -> IntArray:
        """Cards a player has seen before each round (rounds × 52): every card out of the
        shoe but the burned cards dealt face down, unless ``see_burns`` (the upper bound).

        >>> from exactodds.deal.tableau import BUILTIN
        >>> dealt = deal_shoes(Shoe.decks(8), BUILTIN["punto-banco"], 3, [0], 14)
        >>> burned = 416 - int(dealt.states[0].sum())
        >>> int(dealt.seen()[0].sum()), int(dealt.seen(see_burns=True)[0].sum()) == burned
        (1, True)
        """
        removed: IntArray = self.full[None, :] - self.states
        return removed if see_burns else removed - self.face_down[self.shoe]


def deal_shoes(
    shoe: Shoe, tableau: Tableau, seed: int, indices: Sequence[int], cut_card: int
) -> DealtRounds:
    """Shuffle and deal shoes ``indices`` of run ``seed`` (see the module docstring).

    >>> from exactodds.deal.tableau import BUILTIN
    >>> dealt = deal_shoes(Shoe.decks(8), BUILTIN["punto-banco"], 1, [0, 1], 14)
    >>> left = dealt.states.sum(axis=1)  # cards left before each round
    >>> first = dealt.round == 1
    >>> int(first.sum()), bool((left[first] >= 416 - 11).all()), int(left.min()) >= 6
    (2, True, True)
    """
    import numpy as np

    t = _tables(tableau)
    full = np.array(shoe.counts, dtype=np.int64).reshape(-1)
    cards = np.repeat(np.arange(CARD_CODES), full)
    n, m = int(cards.size), len(indices)
    dealt = np.zeros((m, n + MIN_CARDS), dtype=np.int64)  # a pad of six cards, never dealt
    for s, index in enumerate(indices):
        dealt[s, :n] = cards[shoe_rng(seed, index).permutation(n)]
    first = t.value[dealt[:, 0]]
    pos = np.minimum(1 + np.where(first == 0, 10, first), n)
    # burned cards: the first (face up) at 0, the face-down ones at 1 .. pos − 1
    column = np.arange(n + MIN_CARDS)[None, :]
    down = (column >= 1) & (column < pos[:, None])
    face_down = _count_rows(np.nonzero(down)[0], dealt[down], m)
    burned = face_down.copy()
    burned[np.arange(m), dealt[:, 0]] += 1

    last = n - pos < cut_card
    active = np.ones(m, dtype=bool)
    six = np.arange(MIN_CARDS)
    parts: list[tuple[IntArray, int, IntArray, IntArray, IntArray]] = []
    k = 0
    while True:
        active &= n - pos >= MIN_CARDS
        idx = np.flatnonzero(active)
        if not len(idx):
            break
        k += 1
        start = pos[idx]
        codes, used = deal_rounds(dealt[idx[:, None], start[:, None] + six].T, tableau)
        parts.append((idx, k, start, codes, used))
        pos[idx] = start + used
        active[idx[last[idx]]] = False  # the cut card had come out: that was the last round
        last[idx] = n - pos[idx] < cut_card
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        none = np.zeros((0, CARD_CODES), dtype=np.int64)
        return DealtRounds(
            tuple(indices), full, empty, empty, none, empty, face_down, none[:, :MIN_CARDS]
        )
    shoe_of = np.concatenate([p[0] for p in parts])
    round_no = np.concatenate([np.full(len(p[0]), p[1], dtype=np.int64) for p in parts])
    starts = np.concatenate([p[2] for p in parts])
    codes = np.concatenate([p[3] for p in parts])
    used = np.concatenate([p[4] for p in parts])
    order = np.lexsort((round_no, shoe_of))
    shoe_of, round_no, starts, codes, used = (
        a[order] for a in (shoe_of, round_no, starts, codes, used)
    )
    # cards of each round, then the cards out before each round (exclusive running sum per shoe)
    r = len(codes)
    rows = np.repeat(np.arange(r), used)
    offset = np.arange(len(rows)) - np.repeat(np.cumsum(used) - used, used)
    in_round = _count_rows(rows, dealt[shoe_of[rows], starts[rows] + offset], r)
    out_before = np.cumsum(in_round, axis=0) - in_round
    shoe_first = np.flatnonzero(np.r_[True, shoe_of[1:] != shoe_of[:-1]])
    out_before -= np.repeat(out_before[shoe_first], np.diff(np.r_[shoe_first, r]), axis=0)
    states = full[None, :] - burned[shoe_of] - out_before
    return DealtRounds(
        tuple(indices),
        full,
        shoe_of,
        round_no,
        states,
        codes,
        face_down,
        _round_cards(dealt, shoe_of, starts, used),
    )


def _round_cards(dealt: IntArray, shoe: IntArray, starts: IntArray, used: IntArray) -> IntArray:
    """Each round's cards in dealing order (``dealt``: the shoes' cards; per round its shoe,
    where it begins and how many cards it used), ``-1`` in the slots it did not use."""
    import numpy as np

    six = np.arange(MIN_CARDS)
    cards: IntArray = dealt[shoe[:, None], starts[:, None] + six]
    cards[six[None, :] >= used[:, None]] = -1
    return cards


def _count_rows(rows: IntArray, codes: IntArray, n_rows: int) -> IntArray:
    """Counts by card code per row: ``out[i, c]`` = how often (rows, codes) holds (i, c)."""
    import numpy as np

    flat = np.bincount(rows * CARD_CODES + codes, minlength=n_rows * CARD_CODES)
    return flat.reshape(n_rows, CARD_CODES).astype(np.int64)


def play_shoe(
    shoe: Shoe, tableau: Tableau, seed: int, index: int, cut_card: int
) -> list[tuple[list[int], int]]:
    """Shuffle shoe ``index`` of run ``seed`` and deal it: per round, the 52 counts (rank·4 +
    suit) before the round and the round's outcome code.

    >>> from exactodds.deal.tableau import BUILTIN
    >>> pb = BUILTIN["punto-banco"]
    >>> dealt = play_shoe(Shoe.decks(1), pb, seed=1, index=0, cut_card=14)
    >>> left = [sum(counts) for counts, _ in dealt]  # cards left before each round
    >>> left[0] < 52, all(a - b in (4, 5, 6) for a, b in zip(left, left[1:])), left[-1] >= 6
    (True, True, True)
    >>> dealt == play_shoe(Shoe.decks(1), pb, seed=1, index=0, cut_card=14)  # reproducible
    True
    """
    dealt = deal_shoes(shoe, tableau, seed, [index], cut_card)
    return [
        (counts, code)
        for counts, code in zip(dealt.states.tolist(), dealt.codes.tolist(), strict=True)
    ]
