"""What makes a card-level bet costly to count, said in a refusal: its costliest row, what
that row reads of the cards, and a cheaper equivalent form where there is one (one helper for
every refusal of the card engine's budget, :mod:`exactodds.bets.budget`).

The card engine deals each slot over the coarsest classes of cards its conditions tell apart
(values; value × colour; rank × suit at worst) and counts once each orbit of the suit
permutations that leave the conditions unchanged. So naming one suit costs it the suit
symmetry (comparing suits with each other keeps it), and a rank costs more than a value.

>>> from exactodds.language import parse_condition
>>> hints(parse_condition("player.card1.suit == hearts and player.card2.suit == hearts"))
['compare suits with each other, not with a named suit']
>>> hints(parse_condition("player.natural and player.suited and player.colour == red"))
[]
"""

from __future__ import annotations

from exactodds.bets.paytable import Bet
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.language import OTHERWISE, Cmp, Condition, Const, In, Node, Var, walk

__all__ = ["costliest_row", "hints", "reads", "why_costly"]

_NINE_RANKS = frozenset("A23456789")
"""Ranks whose cards are exactly the cards of one value (A is 1, 2 to 9 their own)."""


def _attribute(node: Node) -> str:
    """The card attribute a variable names (``rank``, ``suit``, ``colour``, ``poker``, …)."""
    return node.name.rsplit(".", 1)[-1] if isinstance(node, Var) else ""


def reads(condition: Condition) -> list[str]:
    """What ``condition`` reads of the cards, beyond their values (ranks, suits, colours,
    poker hands), in that order; none for totals, naturals and other value-level features.

    >>> from exactodds.language import parse_condition
    >>> reads(parse_condition("count(round, rank == K and suit == hearts) >= 2"))
    ['ranks', 'suits']
    >>> reads(parse_condition("player.natural and player.suited and player.colour == red"))
    ['suits', 'colours']
    """
    found = set()
    for node in walk(condition.node):
        attr = _attribute(node)
        if attr in ("rank", "pair", "perfect_pair"):
            found.add("ranks")
        if attr in ("suit", "suited", "perfect_pair"):
            found.add("suits")
        if attr == "colour":
            found.add("colours")
        if attr == "poker":
            found.update(("ranks", "suits"))
    return [w for w in ("ranks", "suits", "colours") if w in found]


def _named(node: Node, attr: str) -> list[str]:
    """The literals a comparison or ``in`` list of ``node`` gives an ``attr`` variable."""
    if isinstance(node, Cmp):
        sides = (node.left, node.right)
        if any(_attribute(s) == attr for s in sides):
            return [str(s.value) for s in sides if isinstance(s, Const)]
    if isinstance(node, In) and _attribute(node.var) == attr:
        return [str(v) for v in node.values]
    return []


def hints(condition: Condition) -> list[str]:
    """The cheaper equivalent forms of ``condition`` that apply, each a few words: suits
    compared with each other instead of a named suit (which breaks the suit symmetry); a value
    instead of a rank (the same cards for A to 9, any ten-value card for T J Q K).

    >>> from exactodds.language import parse_condition
    >>> for line in hints(parse_condition("player.card1.rank == 9")):
    ...     print(line)
    value == 9 is rank == 9, cheaper
    >>> for line in hints(parse_condition("count(round, rank == K) >= 2")):
    ...     print(line)
    value == 0 if any of T J Q K will do
    """
    out: list[str] = []
    nodes = list(walk(condition.node))
    if any(_named(n, "suit") for n in nodes):
        out.append("compare suits with each other, not with a named suit")
    ranks = {r for n in nodes for r in _named(n, "rank")}
    plain = sorted(ranks & _NINE_RANKS)
    if plain:
        value = ", ".join(f"value == {1 if r == 'A' else r}" for r in plain)
        rank = ", ".join(f"rank == {r}" for r in plain)
        out.append(f"{value} is {rank}, cheaper")
    if ranks - _NINE_RANKS:
        out.append("value == 0 if any of T J Q K will do")
    return out


def costliest_row(bet: Bet, shoe: Shoe, tableau: Tableau) -> int:
    """The index of ``bet``'s row whose condition alone costs the card engine most (its static
    estimate, :func:`exactodds.counting.work`: no count runs)."""
    from exactodds.counting import work

    def cost(i: int) -> int:
        when = bet.rows[i].when
        return 0 if when == OTHERWISE else work([when, OTHERWISE], shoe, tableau)

    return max(range(len(bet.rows)), key=cost)


def why_costly(bet: Bet, shoe: Shoe, tableau: Tableau) -> str:
    """The refusal's explanation of ``bet``: its costliest row, what that row reads and the
    cheaper forms that apply (:func:`hints`).

    >>> from exactodds.bets.loader import load_paytable
    >>> from exactodds.deal.tableau import BUILTIN
    >>> bet = load_paytable("perfect-9").bet("perfect_9")
    >>> why_costly(bet, Shoe.decks(8), BUILTIN["punto-banco"])
    "its costliest row 'Suited 9' reads suits"
    """
    row = bet.rows[costliest_row(bet, shoe, tableau)]
    what = reads(row.when)
    read = f" reads {' and '.join(what)}" if what else ""
    cheaper = hints(row.when)
    return f"its costliest row {row.event!r}{read}" + (f": {'; '.join(cheaper)}" if cheaper else "")
