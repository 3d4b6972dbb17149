"""Cards and the shoe: an immutable multiset of cards given by rank × suit counts.

>>> shoe = Shoe.decks(8)
>>> shoe.size
416
>>> shoe.value_counts
(128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
>>> shoe.remove("6 6 7h Kd").size
412
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactodds.errors import CardError, ShoeError, about, named, parameter, quote, require
from exactodds.files import read_data
from exactodds.limits import MAX_CARD_TEXT, MAX_DECKS, MAX_SHOE_CARDS, check_length
from exactodds.suggest import did_you_mean

__all__ = [
    "MIN_CARDS",
    "RANKS",
    "RANK_VALUES",
    "SUITS",
    "Card",
    "Shoe",
    "parse_card",
    "parse_cards",
]

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""Rank symbols in shoe order; ``T`` is the ten."""

SUITS: tuple[str, ...] = ("c", "d", "h", "s")
"""Suit symbols: clubs, diamonds, hearts, spades."""

RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Baccarat value of each rank (index into :data:`RANKS`)."""

MIN_CARDS = 6
"""A round is counted as six cards drawn from the shoe, so a shoe needs at least six."""

_RANK_ALIASES = {r.lower(): i for i, r in enumerate(RANKS)} | {"10": 9}
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}


@dataclass(frozen=True, order=True)
class Card:
    """A card as rank index (0..12, see :data:`RANKS`) and suit index (0..3) or ``None``.

    A card without a suit stands for "any card of this rank".

    >>> parse_card("Kd")
    Card(rank=12, suit=1)
    >>> str(parse_card("10h")), parse_card("10h").value
    ('Th', 0)
    """

    rank: int
    suit: int | None = None

    @property
    def value(self) -> int:
        """Baccarat value: ace 1, two to nine at face value, ten and faces 0."""
        return RANK_VALUES[self.rank]

    def __str__(self) -> str:
        return RANKS[self.rank] + ("" if self.suit is None else SUITS[self.suit])


def parse_card(text: str) -> Card:
    """Parse one card: a rank (``A 2..9 T 10 J Q K``, any case) and an optional suit ``c d h s``.

    >>> parse_card("as"), parse_card("7")
    (Card(rank=0, suit=3), Card(rank=6, suit=None))
    >>> parse_card("7x")
    Traceback (most recent call last):
    ...
    exactodds.errors.CardError: unknown suit 'x' in card '7x' (use c, d, h, s)
    """
    require(text, (str,), "text")
    token = text.strip()
    low = token.lower()
    if not low:
        raise CardError("empty card")
    if low in _RANK_ALIASES:
        return Card(_RANK_ALIASES[low])
    rank_part, suit_part = low[:-1], low[-1]
    if rank_part not in _RANK_ALIASES:
        raise CardError(
            f"unknown rank {quote(token[:-1] or token, 30)} in card {quote(token, 30)} "
            "(use A 2-9 T/10 J Q K)"
        )
    if suit_part not in _SUIT_ALIASES:
        raise CardError(f"unknown suit {token[-1]!r} in card {quote(token, 30)} (use c, d, h, s)")
    return Card(_RANK_ALIASES[rank_part], _SUIT_ALIASES[suit_part])


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas.

    >>> [str(c) for c in parse_cards("6 6, 7h Kd")]
    ['6', '6', '7h', 'Kd']
    """
    require(text, (str,), "text")
    check_length(text, MAX_CARD_TEXT, "card string", CardError, show=True)
    return tuple(parse_card(t) for t in text.replace(",", " ").split())


Counts = tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Shoe:
    """The cards left in the shoe as 13 ranks × 4 suits of non-negative integer counts.

    Any composition is allowed, including depleted and unbalanced shoes, but a round needs at
    least :data:`MIN_CARDS` cards.

    >>> shoe = Shoe.decks(1).remove("Kd Ks")
    >>> shoe.count(parse_card("K")), shoe.count(parse_card("Kd")), shoe.size
    (2, 0, 50)
    >>> Shoe.from_rank_counts({"A": 5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ShoeError: a shoe of 5 cards is too small: a round is counted as 6 cards ...
    """

    counts: Counts

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS) or any(len(row) != len(SUITS) for row in self.counts):
            raise ShoeError("a shoe needs 13 ranks × 4 suits of counts")
        for r, row in enumerate(self.counts):
            for s, n in enumerate(row):
                if not isinstance(n, int) or isinstance(n, bool):
                    raise ShoeError(
                        f"count of {RANKS[r]}{SUITS[s]} must be an integer, not {quote(n)}"
                    )
                if n < 0:
                    raise ShoeError(f"negative count {quote(n)} for {RANKS[r]}{SUITS[s]}")
        if self.size > MAX_SHOE_CARDS:
            raise ShoeError(
                f"a shoe of {quote(self.size)} cards is over the limit of {MAX_SHOE_CARDS:,} "
                f"cards ({MAX_DECKS:,} decks)"
            )
        if self.size < MIN_CARDS:
            raise ShoeError(
                f"a shoe of {self.size} cards is too small: a round is counted as "
                f"{MIN_CARDS} cards drawn, so at least {MIN_CARDS} are needed"
            )

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def decks(cls, n: int = 8) -> Shoe:
        """A full shoe of ``n`` standard 52-card decks.

        >>> Shoe.decks(6).size
        312
        """
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ShoeError(f"number of decks must be a positive integer, not {quote(n)}")
        if n > MAX_DECKS:
            raise ShoeError(f"{quote(n)} decks is over the limit of {MAX_DECKS:,} decks")
        return cls(tuple((n, n, n, n) for _ in RANKS))

    @classmethod
    def from_rank_counts(cls, ranks: Mapping[str, int]) -> Shoe:
        """A shoe from per-rank counts; each rank's cards are spread over the suits as evenly
        as possible (remainder to clubs, diamonds, hearts in that order).

        >>> Shoe.from_rank_counts({"A": 5, "K": 3}).counts[0]
        (2, 1, 1, 1)
        """
        rows = [[0, 0, 0, 0] for _ in RANKS]
        for rank, key, n in _by_rank(ranks, "per-rank count"):
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ShoeError(
                    f"count of rank {quote(key, 20)} must be a non-negative integer, not {quote(n)}"
                )
            q, rem = divmod(n, 4)
            rows[rank] = [q + (1 if s < rem else 0) for s in range(4)]
        return cls(tuple((a, b, c, d) for a, b, c, d in rows))

    @classmethod
    def from_file(cls, path: str | Path) -> Shoe:
        """Read a shoe from a TOML or JSON file.

        Keys: ``decks`` (a full shoe), or ``ranks`` (rank → count), or ``cards`` (rank → four
        suit counts c, d, h, s, or rank → {suit: count}); optional ``remove`` (a card string).
        """
        data = read_data(path).data
        with named(str(path), CardError, ShoeError):
            return cls.from_mapping(data)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Shoe:
        """Build a shoe from parsed file data (see :meth:`from_file`)."""
        known = {"decks", "ranks", "cards", "remove", "name", "description"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ShoeError(
                f"unknown key {quote(unknown[0])} (expected one of {sorted(known)})"
                + did_you_mean(str(unknown[0]), known)
            )
        bases = [k for k in ("decks", "ranks", "cards") if k in data]
        if len(bases) > 1:
            raise ShoeError(f"give only one of decks, ranks, cards (found {', '.join(bases)})")
        if not bases or bases[0] == "decks":
            shoe = cls.decks(data.get("decks", 8))
        elif bases[0] == "ranks":
            ranks = data["ranks"]
            if not isinstance(ranks, Mapping):
                raise ShoeError("'ranks' must be a table of rank = count")
            shoe = cls.from_rank_counts(ranks)
        else:
            shoe = cls(_suit_counts(data["cards"]))
        remove = data.get("remove")
        if remove is not None:
            if not isinstance(remove, str):
                raise ShoeError(
                    f"'remove' must be a card string like '6 6 7h Kd', not {quote(remove)}"
                )
            shoe = shoe.remove(remove)
        return shoe

    @classmethod
    def from_options(
        cls,
        decks: int | None = None,
        remove: str | None = None,
        shoe_file: str | Path | None = None,
        default_decks: int = 8,
    ) -> Shoe:
        """The shoe of ``decks``, a ``shoe_file`` and cards to ``remove`` (the command-line
        options ``--decks``, ``--shoe`` and ``--remove``; removals apply last; without ``decks``
        or ``shoe_file``, ``default_decks`` decks).

        >>> Shoe.from_options(remove="6 6").describe()
        '8 decks less 6c 6d (414 cards)'

        An error names the parameter (``decks: …``, ``remove: …``; the CLI, its option):

        >>> Shoe.from_options(decks=0)
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: decks: number of decks must be a positive integer, not 0
        >>> Shoe.from_options(decks=1, remove="Kd Kd")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: remove: cannot remove Kd: no Kd left in the shoe
        """
        if shoe_file is not None and decks is not None:
            message = "give either decks or shoe_file, not both"
            raise about(ShoeError(message), "decks", "shoe_file")
        if shoe_file is not None:
            shoe = cls.from_file(shoe_file)
        elif decks is None:
            shoe = cls.decks(default_decks)
        else:
            with parameter("decks", CardError, ShoeError):
                shoe = cls.decks(decks)
        if not remove:
            return shoe
        with parameter("remove", CardError, ShoeError):
            return shoe.remove(remove)

    # -- views ------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cards in the shoe."""
        return sum(sum(row) for row in self.counts)

    @property
    def rank_counts(self) -> tuple[int, ...]:
        """Cards of each rank (index into :data:`RANKS`)."""
        return tuple(sum(row) for row in self.counts)

    @property
    def value_counts(self) -> tuple[int, ...]:
        """Cards of each baccarat value 0..9."""
        out = [0] * 10
        for rank, n in enumerate(self.rank_counts):
            out[RANK_VALUES[rank]] += n
        return tuple(out)

    def count(self, card: Card) -> int:
        """Cards in the shoe matching ``card`` (any suit when the card has none)."""
        row = self.counts[card.rank]
        return sum(row) if card.suit is None else row[card.suit]

    def describe(self) -> str:
        """A one-line human description.

        >>> Shoe.decks(8).describe()
        '8 decks (416 cards)'
        >>> Shoe.decks(8).remove("Kd 7").describe()
        '8 decks less 7c Kd (414 cards)'
        """
        depleted = self.depletion()
        if depleted is None:
            return f"custom shoe ({self.size} cards)"
        n, cards = depleted
        less = f" less {' '.join(str(c) for c in cards)}" if cards else ""
        return f"{n} deck{'s' if n != 1 else ''}{less} ({self.size} cards)"

    def depletion(self) -> tuple[int, tuple[Card, ...]] | None:
        """``(n, cards)`` with ``Shoe.decks(n).remove(cards) == self`` for the smallest ``n``
        needing at most 20 cards removed (none for full decks), or None for any other shoe.

        >>> n, cards = Shoe.decks(6).remove("6 6 7h").depletion()
        >>> n, " ".join(str(c) for c in cards)
        (6, '6c 6d 7h')
        >>> Shoe.decks(2).depletion()
        (2, ())
        >>> Shoe.decks(1).remove("A A A A 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6").depletion() is None
        True
        """
        full = self._full_decks()
        if full is not None:
            return full, ()
        for n in range(1, 1000):
            base = Shoe.decks(n)
            diff = _difference(base, self)
            if diff is not None and len(diff) <= 20:
                return n, tuple(diff)
            if base.size > self.size + 20:
                break
        return None

    def _full_decks(self) -> int | None:
        n = self.counts[0][0]
        if all(c == n for row in self.counts for c in row):
            return n
        return None

    # -- changes ----------------------------------------------------------------------------

    def remove(self, cards: str | Iterable[Card]) -> Shoe:
        """The shoe with ``cards`` taken out (a card string or cards).

        A card without a suit is taken from the suit with the most cards of that rank left
        (the first such suit in c, d, h, s order).

        >>> Shoe.decks(1).remove("Kd Kd")
        Traceback (most recent call last):
        ...
        exactodds.errors.ShoeError: cannot remove Kd: no Kd left in the shoe
        """
        return Shoe(self.counts_after(cards))

    def counts_after(self, cards: str | Iterable[Card]) -> Counts:
        """The counts left once ``cards`` are taken out as :meth:`remove` takes them, however
        few remain (a shoe needs six; this only checks that the shoe holds the cards).

        >>> sum(map(sum, Shoe.from_rank_counts({"A": 3, "K": 3}).counts_after("A A K K")))
        2
        """
        todo = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        rows = [list(row) for row in self.counts]
        for card in todo:
            row = rows[card.rank]
            suit = card.suit
            if suit is None:
                suit = max(range(4), key=lambda s: (row[s], -s))
            if row[suit] <= 0:
                raise ShoeError(f"cannot remove {card}: no {card} left in the shoe")
            row[suit] -= 1
        return tuple((a, b, c, d) for a, b, c, d in rows)


def _difference(base: Shoe, shoe: Shoe) -> list[Card] | None:
    """Cards to remove from ``base`` to get ``shoe``, or None if ``shoe`` is not a subset."""
    out: list[Card] = []
    for r in range(len(RANKS)):
        for s in range(4):
            d = base.counts[r][s] - shoe.counts[r][s]
            if d < 0:
                return None
            out.extend([Card(r, s)] * d)
    return out


def _by_rank(table: Mapping[Any, Any], what: str) -> Iterator[tuple[int, Any, Any]]:
    """(rank, key, value) of a table keyed by ranks; a suit or a repeated rank is an error."""
    seen: dict[int, object] = {}
    for key, value in table.items():
        card = parse_card(str(key))
        if card.suit is not None:
            raise ShoeError(f"{what} key {quote(key, 20)} must be a rank without a suit")
        if card.rank in seen:
            raise ShoeError(
                f"rank {quote(key, 20)} is given twice (also as {quote(seen[card.rank], 20)})"
            )
        seen[card.rank] = key
        yield card.rank, key, value


def _suit_counts(cards: Any) -> Counts:
    if not isinstance(cards, Mapping):
        raise ShoeError("'cards' must be a table of rank = [c, d, h, s] counts")
    rows = [[0, 0, 0, 0] for _ in RANKS]
    for rank, key, value in _by_rank(cards, "'cards'"):
        if isinstance(value, Mapping):
            suits_seen: set[int] = set()
            for skey, n in value.items():
                if str(skey).lower() not in _SUIT_ALIASES:
                    raise CardError(
                        f"unknown suit {quote(skey, 20)} for rank {quote(key, 20)} (use c, d, h, s)"
                        + did_you_mean(str(skey).lower(), _SUIT_ALIASES)
                    )
                suit = _SUIT_ALIASES[str(skey).lower()]
                if suit in suits_seen:
                    raise ShoeError(
                        f"suit {quote(skey, 20)} of rank {quote(key, 20)} is given twice"
                    )
                suits_seen.add(suit)
                rows[rank][suit] = n
        elif isinstance(value, list) and len(value) == 4:
            rows[rank] = list(value)
        else:
            raise ShoeError(
                f"rank {quote(key, 20)} needs four suit counts [c, d, h, s], got {quote(value)}"
            )
    return tuple((a, b, c, d) for a, b, c, d in rows)
