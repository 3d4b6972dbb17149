r"""Card counting a bet: tags, a true count per deck not yet seen, a trigger, the decision to bet.

Why: game protection asks whether a player who counts the cards seen can bet a side bet only
when it favours him (rules.md §1). A count strategy bets one unit on a bet whenever its true count
reaches the bet's trigger (and the bet is offered).

Running count. Each rank r has an integer tag t_r; the running count RC is the sum of the tags
of the cards the player has seen: every card of every round dealt, and the burn card turned face
up at the start of the shoe; the burned cards dealt face down are unseen (``see_burns`` counts
them too, an upper bound).

True count. With N₀ cards in the full shoe, n_r of rank r, S cards seen and U = N₀ − S unseen
(the cards left plus the face-down burns), the count drifts by d = Σ_r t_r·n_r / N₀ per card
seen, so the true count per deck (52 cards) unseen is

    TC = (RC − d·S) / (U / 52),

0 on average at any depth, balanced count or not. For a shoe of full decks d = b/52 with b the
count of one deck, as in :meth:`~exactodds.analysis.eor.CountTags.true_count` (tested). The
decision TC ≥ T is taken exactly in integers: 52·(RC·N₀ − D·S) ≥ T·N₀·U with D = Σ_r t_r·n_r.

Default trigger (a linear estimate from the exact EOR). Let e_r be the exact effect of removal
of rank r (``eor``), p_r = n_r/N₀ and x_r = s_r − S·p_r the surplus of rank r among the S cards
seen. Removing one card of rank r moves the proportions q_s = n_s/N by (p_s − δ_rs)/(N₀ − 1), so
to first order in the proportions EV(q) = EV₀ − (N₀ − 1)·Σ_r e_r·(q_r − p_r) (Σ_r p_r·e_r = 0).
Given the cards seen, the unseen proportions are q_r − p_r = −x_r/U, hence

    E[EV | seen] ≈ EV₀ + (N₀ − 1)/U · Σ_r e_r·x_r,        TC = 52/U · Σ_r t_r·x_r.

Over random deals the surpluses x have covariance proportional to diag(p) − p·pᵀ (multivariate
hypergeometric), so the least-squares slope of the EV on the true count is (U cancels)

    slope = (N₀ − 1)/52 · Σ_r p_r·e_r·t_r / (Σ_r p_r·t_r² − (Σ_r p_r·t_r)²),

for a full shoe and a balanced count (N₀ − 1)/52 · Σ e_r·t_r / Σ t_r². The trigger is where the
line EV₀ + slope·TC crosses 0: T = −EV₀ / slope, exact. With Wizard of Odds' Lucky 6 tags and his
8-deck EORs this gives +6.6 for the level-1 count (he bets at +7) and +48.8 for the level-2 count
(+48). Tags that carry no information (all equal: TC is always 0) or that anti-correlate with
the EORs (slope ≤ 0) have no trigger: the count never bets unless ``--trigger`` gives one.

>>> from exactodds.deal.shoe import RANKS
>>> e = dict.fromkeys(RANKS, Fraction(0)) | {"6": Fraction(-3, 1000), "7": Fraction(1, 1000)}
>>> t = dict.fromkeys(RANKS, 0) | {"6": -3, "7": 1}
>>> true_count_slope(e, t, Shoe.decks(8))  # 415/52 · (10/13000) / (10/13 − (2/13)²)
Fraction(83, 10080)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exactodds.analysis.batch import BatchEvaluator
from exactodds.analysis.dealing import CARD_CODES
from exactodds.analysis.eor import CountTags, effect_of_removal
from exactodds.bets.payout import parse_number
from exactodds.deal.shoe import RANKS, Shoe, parse_card
from exactodds.errors import (
    CardError,
    InputFileError,
    PaytableError,
    SimulationError,
    parameter,
    quote,
)
from exactodds.files import read_data
from exactodds.suggest import did_you_mean
from exactodds.toml_lines import toml_lines

if TYPE_CHECKING:
    import numpy.typing as npt

    from exactodds.bets.paytable import Bet

    IntArray = npt.NDArray[Any]

__all__ = [
    "COUNTER_TRUE_COUNT",
    "MAX_TAG",
    "MAX_TRIGGER",
    "BetCount",
    "CountStrategy",
    "count_strategy",
    "derived_trigger",
    "parse_triggers",
    "read_tags",
    "true_count_slope",
]

MAX_TAG = 1000
"""Largest |tag| accepted (Wizard of Odds' level-2 Lucky 6 count uses 18)."""

MAX_TRIGGER = 10**6
"""Largest |trigger| accepted from ``--trigger``."""

COUNTER_TRUE_COUNT = (
    "True count = (running count - d x cards seen) / (cards not seen / 52): d = the running "
    "count of the full shoe per card (0 for a balanced count, b/52 on full decks with b the "
    "count of one deck); cards not seen = left in the shoe or burned face down (the burn card "
    "turned face up is seen). 0 on average at any depth of the shoe."
)
"""How the counter's running count becomes a true count (see the module docstring), as printed."""

_NEVER = 1 << 62  # a threshold no count reaches (|52·(RC·N₀ − D·S)| < 2**62, see decide)
_MAX_CARDS = 10**6  # shoe size for which the decision stays within int64 (see decide)


def true_count_slope(
    eor: Mapping[str, Fraction | None], tags: Mapping[str, int], shoe: Shoe
) -> Fraction | None:
    """EV change per unit of true count: the least-squares slope of the EV on the true count
    (see the module docstring), or None when the tags carry no information (TC is always 0)."""
    size = shoe.size
    p = [Fraction(n, size) for n in shoe.rank_counts]
    t = [tags.get(r, 0) for r in RANKS]
    e = [eor.get(r) or Fraction(0) for r in RANKS]
    mean = sum((pr * tr for pr, tr in zip(p, t, strict=True)), Fraction(0))
    var = sum((pr * tr * tr for pr, tr in zip(p, t, strict=True)), Fraction(0)) - mean * mean
    if var == 0:
        return None
    cov = sum((pr * er * tr for pr, er, tr in zip(p, e, t, strict=True)), Fraction(0))
    return Fraction(size - 1, 52) * cov / var


def derived_trigger(ev: Fraction, slope: Fraction | None) -> Fraction | None:
    """True count where EV + slope·TC crosses 0, or None when the slope is not positive.

    >>> derived_trigger(Fraction(-1, 10), Fraction(1, 50)), derived_trigger(Fraction(-1), None)
    (Fraction(5, 1), None)
    """
    if slope is None or slope <= 0:
        return None
    return -ev / slope


@dataclass(frozen=True)
class BetCount:
    """How one bet is counted: its tags (and where they come from), the full-shoe EV, the
    slope of the EV on the true count, the derived trigger and the trigger used (None: the
    count never bets)."""

    bet_id: str
    tags: CountTags
    tags_source: str
    ev: Fraction
    slope: Fraction | None
    derived_trigger: Fraction | None
    trigger: Fraction | None
    trigger_source: str


@dataclass(frozen=True, eq=False)
class CountStrategy:
    """Per bet a count and a trigger; :meth:`decide` bets where the true count reaches it.

    ``card_tags`` (bets × 52) are the tags by card code, ``shoe_counts`` the running count D of
    the full shoe per bet, ``thresholds`` (bets × N₀ + 1) the least 52·(RC·N₀ − D·S) that bets
    with U unseen cards: ⌈T·N₀·U⌉ (exact).
    """

    bets: tuple[BetCount, ...]
    see_burns: bool
    size: int
    card_tags: IntArray
    shoe_counts: IntArray
    thresholds: IntArray

    def true_count(self, seen: Sequence[int], bet: int) -> Fraction:
        """Exact true count of bet ``bet`` after the cards ``seen`` (52 counts by card code).

        >>> import numpy as np
        >>> from exactodds.analysis.eor import CountTags
        >>> ko = CountTags(dict.fromkeys(RANKS, 0) | {"2": 1, "3": 1, "T": -1})
        >>> s = CountStrategy.build([_plain("x", ko)], Shoe.decks(8), see_burns=False)
        >>> seen = [0] * 52; seen[4] = 3; seen[36] = 1  # three 2c and one Tc: RC = 2
        >>> s.true_count(seen, 0) == ko.true_count(2, 4, 412)
        True
        """
        rc = sum(int(self.card_tags[bet, c]) * n for c, n in enumerate(seen))
        s = sum(seen)
        d = int(self.shoe_counts[bet])
        return Fraction(52 * (rc * self.size - d * s), self.size * (self.size - s))

    def decide(self, seen: IntArray) -> IntArray:
        """Bet mask (rounds × bets) from the cards seen before each round (rounds × 52).

        Integers only: |RC| ≤ MAX_TAG·N₀ and |D|·S ≤ MAX_TAG·N₀², so
        |52·(RC·N₀ − D·S)| < 2⁶² for N₀ ≤ 10⁶ (checked when built)."""
        import numpy as np

        seen = np.asarray(seen, dtype=np.int64)
        rc = seen @ self.card_tags.T
        s = seen.sum(axis=1)
        y = 52 * (rc * self.size - self.shoe_counts[None, :] * s[:, None])
        return np.asarray(y >= self.thresholds.T[self.size - s], dtype=bool)

    @classmethod
    def build(cls, bets: Sequence[BetCount], shoe: Shoe, *, see_burns: bool) -> CountStrategy:
        """The arrays :meth:`decide` needs, for ``bets`` counted on ``shoe``."""
        import numpy as np

        size = shoe.size
        if size > _MAX_CARDS:
            raise SimulationError(f"a counted shoe may hold at most {_MAX_CARDS:,} cards")
        by_rank = np.array([[b.tags.tags.get(r, 0) for r in RANKS] for b in bets], np.int64)
        card_tags = np.repeat(by_rank.reshape(len(bets), len(RANKS)), 4, axis=1)
        full = np.array(shoe.counts, dtype=np.int64).reshape(-1)
        unseen = range(size + 1)
        thresholds = np.empty((len(bets), size + 1), dtype=np.int64)
        for j, b in enumerate(bets):
            t = b.trigger
            if t is None:
                thresholds[j] = _NEVER
                continue
            # least integer y with y ≥ T·N₀·U, clipped to the range no count leaves
            row = [-((-t.numerator * size * u) // t.denominator) for u in unseen]
            thresholds[j] = [max(-_NEVER, min(_NEVER, y)) for y in row]
        assert card_tags.shape[1] == CARD_CODES
        return cls(tuple(bets), see_burns, size, card_tags, card_tags @ full, thresholds)


def _plain(bet_id: str, tags: CountTags, trigger: Fraction | None = None) -> BetCount:
    """A bet count without EV data (for examples)."""
    return BetCount(bet_id, tags, "given", Fraction(0), None, None, trigger, "given")


def count_strategy(
    evaluator: BatchEvaluator,
    shoe: Shoe,
    *,
    tags: Mapping[str, CountTags] | None = None,
    tags_source: str = "",
    triggers: Mapping[str, Fraction] | None = None,
    see_burns: bool = False,
    level: int = 3,
    card_bets: Sequence[Bet] = (),
) -> CountStrategy:
    """The count strategy of every bet of ``evaluator``, then of ``card_bets`` (card-level or
    offered bets), on ``shoe``: the given ``tags`` (e.g. from :func:`read_tags`) or the EOR
    tags at ``level`` (for ``card_bets`` their per-rank EOR by the card engine, EV per offered
    round); the given ``triggers`` or the derived ones (see the module docstring).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.analysis.batch import compile_bets
    >>> table = load_paytable("classic")
    >>> s = count_strategy(compile_bets(table.bets[:3]), table.shoe,
    ...                    triggers={"tie": Fraction(4)})
    >>> [(b.bet_id, b.trigger_source, b.trigger == b.derived_trigger) for b in s.bets]
    [('player', 'derived', True), ('banker', 'derived', True), ('tie', '--trigger', False)]
    """
    given = dict(tags or {})
    chosen = dict(triggers or {})
    bet_ids = [*evaluator.bet_ids, *(b.id for b in card_bets)]
    for bet in [*given, *chosen]:
        if bet not in bet_ids:
            raise SimulationError(
                f"unknown bet {bet!r} (bets: {', '.join(bet_ids)})" + did_you_mean(bet, bet_ids)
            )
    eor = effect_of_removal((), shoe, evaluator.tableau, evaluator=evaluator, level=level)
    ev, eors, tagged = dict(eor.ev), dict(eor.eor), dict(eor.tags)
    if card_bets:  # the card engine on the shoe less each card (budget: check_card_work × 53)
        cards = effect_of_removal(card_bets, shoe, evaluator.tableau, level=level)
        ev.update(cards.ev)
        eors.update(cards.eor)
        tagged.update(cards.tags)
    out = []
    for bet in bet_ids:
        count = given.get(bet, tagged[bet])
        slope = true_count_slope(eors[bet], count.tags, shoe)
        derived = derived_trigger(ev[bet], slope)
        source = tags_source if bet in given else f"eor (level {level})"
        trigger, how = (chosen[bet], "--trigger") if bet in chosen else (derived, "derived")
        out.append(BetCount(bet, count, source, ev[bet], slope, derived, trigger, how))
    return CountStrategy.build(out, shoe, see_burns=see_burns)


# -- inputs -------------------------------------------------------------------------------------


def _read_tags_file(path: str | Path) -> tuple[Mapping[str, Any], str]:
    """Parsed data and text (to cite lines) of a tags file, read within every limit by the
    project's one reader of untrusted files."""
    file = read_data(path)
    return file.data, file.text


def read_tags(
    path: str | Path, bet_ids: Sequence[str], streak_ids: Sequence[str] = ()
) -> dict[str, CountTags]:
    """Tags per bet from a TOML file: a table per bet id, ``rank = tag`` (ranks A 2–9 T/10 J Q K;
    a rank not given counts 0; integers of at most :data:`MAX_TAG` in size). A problem is an
    :class:`~exactodds.errors.InputFileError` naming the file, line, bet and rank (a streak bet,
    of ``streak_ids``, is staked at every chance: it takes no tags).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp, "tags.toml")
    ...     _ = path.write_text("[lucky_six]\\n6 = -3\\n7 = 1\\n8 = 1\\n9 = 1\\n")
    ...     tags = read_tags(path, ["lucky_six"])
    ...     _ = path.write_text("[lucky_six]\\n6 = -3\\n7 = 1.5\\n")
    ...     try:
    ...         read_tags(path, ["lucky_six"])
    ...     except InputFileError as exc:
    ...         error = str(exc).replace(tmp, "DIR")
    >>> tags["lucky_six"].tags["6"], tags["lucky_six"].balanced
    (-3, True)
    >>> error
    "DIR/tags.toml:3: bet 'lucky_six', rank '7': a tag must be an integer, not 1.5"
    """
    data, text = _read_tags_file(path)
    lines = toml_lines(text) if text and not str(path).lower().endswith(".json") else {}

    def fail(message: str, *keys: str) -> InputFileError:
        line = lines.get(tuple(keys))
        return InputFileError(f"{path}{f':{line}' if line else ''}: {message}")

    out: dict[str, CountTags] = {}
    for bet, table in data.items():
        if bet in streak_ids:
            raise fail(f"{_streak_bet(bet)}: it takes no tags", bet)
        if bet not in bet_ids:
            raise fail(
                f"unknown bet {bet!r} (the paytable's bets: {', '.join(bet_ids)})"
                + did_you_mean(str(bet), bet_ids),
                bet,
            )
        if not isinstance(table, Mapping):
            raise fail(f"bet {bet!r}: expected a table of rank = tag, not {table!r}", bet)
        tags = dict.fromkeys(RANKS, 0)
        given: dict[int, str] = {}
        for key, value in table.items():
            where = f"bet {bet!r}, rank {key!r}"
            try:
                card = parse_card(str(key))
            except CardError:
                raise fail(f"{where}: not a rank (use A 2-9 T/10 J Q K)", bet, key) from None
            if card.suit is not None:
                raise fail(f"{where}: give a rank without a suit", bet, key)
            if card.rank in given:
                raise fail(f"{where}: given twice (also as {given[card.rank]!r})", bet, key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise fail(f"{where}: a tag must be an integer, not {quote(value)}", bet, key)
            if abs(value) > MAX_TAG:
                raise fail(f"{where}: a tag must be within ±{MAX_TAG}, not {value}", bet, key)
            given[card.rank] = key
            tags[RANKS[card.rank]] = value
        out[bet] = CountTags(tags)
    return out


def _streak_bet(bet: str) -> str:
    """What a count option naming a streak bet is told."""
    return f"{bet!r} is a streak bet, staked at every chance whatever the strategy"


def parse_triggers(
    items: Sequence[str], bet_ids: Sequence[str], streak_ids: Sequence[str] = ()
) -> dict[str, Fraction]:
    """``BET=TC`` options as exact triggers (``7``, ``6.5``, ``-1/2``); a streak bet (of
    ``streak_ids``) is refused: it is staked at every chance.

    >>> parse_triggers(["lucky_six=7", "tie=-1.5"], ["tie", "lucky_six"])
    {'lucky_six': Fraction(7, 1), 'tie': Fraction(-3, 2)}
    >>> parse_triggers(["tie=1e99999999"], ["tie"])  # refused at once, like a file's number
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: triggers 'tie=1e99999999': the true count must be a \
number like 7, 6.5 or -1/2
    >>> parse_triggers(["tie=high"], ["tie"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: triggers 'tie=high': the true count must be a number \
like 7, 6.5 or -1/2
    >>> parse_triggers(["banker_streak=2"], ["banker"], ["banker_streak"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: triggers 'banker_streak=2': 'banker_streak' is a streak \
bet, staked at every chance whatever the strategy: it has no trigger
    """
    with parameter("triggers", prefix=False):
        return _triggers(items, bet_ids, streak_ids)


def _triggers(
    items: Sequence[str], bet_ids: Sequence[str], streak_ids: Sequence[str]
) -> dict[str, Fraction]:
    """:func:`parse_triggers`, its messages naming the triggers first."""
    out: dict[str, Fraction] = {}
    for item in items:
        bet, sep, value = item.partition("=")
        bet, value = bet.strip(), value.strip()
        shown = item if len(item) <= 60 else item[:57] + "..."
        if sep and bet in streak_ids:
            raise SimulationError(f"triggers {shown!r}: {_streak_bet(bet)}: it has no trigger")
        if not sep or bet not in bet_ids:
            raise SimulationError(
                f"triggers {shown!r}: give BET=TC with a bet of the paytable ({', '.join(bet_ids)})"
            )
        if bet in out:
            raise SimulationError(f"triggers {shown!r}: bet {bet!r} is given twice")
        sign, digits = (-1, value[1:]) if value[:1] == "-" else (1, value.removeprefix("+"))
        try:  # at most MAX_DIGITS digits and no exponent, as in files: 1e99999999 is refused
            tc = sign * parse_number(digits)
        except PaytableError:
            tc = None
        if tc is None:
            raise SimulationError(
                f"triggers {shown!r}: the true count must be a number like 7, 6.5 or -1/2"
            )
        if abs(tc) > MAX_TRIGGER:
            raise SimulationError(f"triggers {shown!r}: the true count must be within ±10**6")
        out[bet] = tc
    return out
