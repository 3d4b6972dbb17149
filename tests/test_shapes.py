"""``shape(GROUP, ATTR)`` and ``most(GROUP, ATTR)``: the card engine against the brute-force
dealer (tests/cardforce.py) over every ordered six-card sequence of small shoes, hand-written
and hypothesis-drawn; suit relabelling and colour swap; published "of a kind" tables on 8 decks
(tests/data/of_a_kind.toml, a "# Source:" line each); hostile shapes."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactodds.counting as cards_module
import exactodds.counting.plan as plan_module
from exactodds.bets.loader import load_paytable, validate_paytable
from exactodds.counting import row_counts
from exactodds.deal.shoe import Shoe
from exactodds.errors import ConditionError
from exactodds.figures.metrics import paytable_figures
from exactodds.language import OTHERWISE, parse_condition
from tests.bruteforce import shoe_of
from tests.cardforce import brute_rows
from tests.cli_helpers import run

DATA = Path(__file__).parent / "data" / "of_a_kind.toml"
GROUPS = ["player", "banker", "initial", "round"]
ATTRS = ["rank", "suit", "colour", "value"]


def check(rows: list[str], shoe: Shoe, offer: str | None = None) -> None:
    conditions = [parse_condition(r) for r in rows] + [OTHERWISE]
    offer_c = parse_condition(offer) if offer else None
    got = row_counts(conditions, shoe, offer=offer_c)
    want, offered = brute_rows(
        [c.node for c in conditions], shoe, offer_c.node if offer_c else None
    )
    assert (list(got.rows), got.offered) == (want, offered), rows


# Seven physical cards with repeated ranks, suits and values (K and Q both count 0), so that
# pairs, trips and suited hands occur; one shoe symmetric under two suits.
SMALL = [
    shoe_of([(0, 0), (0, 1), (0, 2), (12, 0), (12, 3), (11, 1), (8, 0)]),
    shoe_of([(8, 1), (8, 1), (8, 2), (8, 3), (4, 1), (12, 1), (1, 1)]),
    shoe_of([(r, s) for r in (0, 12, 6) for s in (0, 2)] + [(3, 1)]),
]

HAND_WRITTEN = [
    [
        "most(round, rank) >= 4",
        "shape(round, rank) == [3, 3]",
        "shape(round, rank) in [[3, 2], [3, 2, 1]]",
        "most(round, rank) == 3",
        "shape(round, rank) in [[2, 2], [2, 2, 1], [2, 2, 1, 1], [2, 2, 2]]",
    ],
    ["most(player, suit) == 3", "shape(banker, suit) != [1, 1]", "most(initial, colour) == 4"],
    [
        "shape(initial, suit) in [[4], [3, 1]]",
        "shape(round, value) not in [[2, 1, 1, 1], [1, 1, 1, 1, 1]] and player.wins",
    ],
    ["most(round, value) + most(banker, rank) >= 5", "most(player, colour) - 1 == cards - 4"],
]


@pytest.mark.parametrize("rows", HAND_WRITTEN)
def test_hand_written_shapes_match_brute_force(rows: list[str]) -> None:
    for shoe in SMALL:
        check(rows, shoe)


def test_offers_and_small_blocks_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """An offer on the first four cards' shape; one-cell blocks (the outer loop and the suit
    symmetry of the symmetric shoe)."""
    check(["most(round, rank) == 3"], SMALL[0], offer="shape(initial, rank) != [1, 1, 1, 1]")
    monkeypatch.setattr(plan_module, "_CELLS", 8)
    check(HAND_WRITTEN[1], SMALL[2])


@st.composite
def shape_atom(draw: st.DrawFn) -> str:
    group, attr = draw(st.sampled_from(GROUPS)), draw(st.sampled_from(ATTRS))
    if draw(st.booleans()):
        op = draw(st.sampled_from(["==", "!=", ">=", "<"]))
        return f"most({group}, {attr}) {op} {draw(st.integers(1, 4))}"
    fewest, most = {"player": (2, 3), "banker": (2, 3), "initial": (4, 4), "round": (4, 6)}[group]
    parts = {"rank": 6, "suit": 4, "colour": 2, "value": 6}[attr]
    shapes = [s for s in _partitions(most) if fewest <= sum(s) <= most and len(s) <= parts]
    chosen = draw(st.lists(st.sampled_from(shapes), min_size=1, max_size=3, unique=True))
    lists = ", ".join(f"[{', '.join(map(str, s))}]" for s in chosen)
    return f"shape({group}, {attr}) {draw(st.sampled_from(['in', 'not in']))} [{lists}]"


def _partitions(n: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Every partition of 1..n into parts from the largest (the shapes of up to n cards)."""
    largest = n if largest is None else largest
    out: list[tuple[int, ...]] = []
    for first in range(min(n, largest), 0, -1):
        out.append((first,))
        out += [(first, *rest) for rest in _partitions(n - first, first)]
    return out


@st.composite
def shape_condition(draw: st.DrawFn) -> str:
    a = draw(shape_atom())
    if draw(st.booleans()):
        return a
    other = draw(st.sampled_from(["player.wins", "banker.cards == 3", draw(shape_atom())]))
    return f"{a} {draw(st.sampled_from(['and', 'or', 'and not']))} ({other})"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(shape_condition(), min_size=1, max_size=2), which=st.integers(0, 2))
def test_random_shapes_match_brute_force(rows: list[str], which: int) -> None:
    check(rows, SMALL[which])


def test_suit_relabelling_and_colour_swap_leave_figures_unchanged() -> None:
    """A shape of suits next to one named suit counts the same whichever suit is named (one deck,
    suit-symmetric); a colour shape next to a named colour, whichever colour."""
    shoe = Shoe.decks(1)
    counts = {
        suit: row_counts(
            [
                parse_condition(f"most(initial, suit) == 2 and player.card1.suit == {suit}"),
                OTHERWISE,
            ],
            shoe,
        )
        for suit in ("clubs", "diamonds", "hearts", "spades")
    }
    assert len(set(counts.values())) == 1
    red, black = (
        row_counts(
            [
                parse_condition(f"shape(initial, colour) == [3, 1] and banker.card2.colour == {c}"),
                OTHERWISE,
            ],
            shoe,
        )
        for c in ("red", "black")
    )
    assert red == black


PUBLISHED = tomllib.loads(DATA.read_text(encoding="utf-8"))


@pytest.mark.parametrize("bet", sorted(PUBLISHED))
def test_published_of_a_kind_tables_on_eight_decks(bet: str) -> None:
    """Each event's combinations as published (ordered six-card sequences of 8 decks), and the
    losers as the rest of the 416·415·…·411 sequences."""
    table = PUBLISHED[bet]
    rows = [parse_condition(r["when"]) for r in table["rows"]] + [OTHERWISE]
    got = row_counts(rows, Shoe.decks(8))
    want = [int(r["combinations"]) for r in table["rows"]]
    assert list(got.rows[:-1]) == want
    assert got.rows[-1] == got.universe - sum(want) == int(table["total"]) - sum(want)
    if "loser" in table:  # printed to 15 significant digits by the source's spreadsheet
        assert str(got.rows[-1])[:15] == table["loser"][:15]


def test_bundled_lucky_match_reproduces_its_published_edge() -> None:
    """The bundled Lucky Match paytable (shape/most rows) cites its page, validates clean and
    gives the published house edge."""
    path = Path(__file__).parents[1] / "paytables" / "lucky-match.toml"
    assert path.read_text(encoding="utf-8").startswith("# Source: Wizard of Odds")
    assert validate_paytable(path) == []
    (fig,) = paytable_figures(load_paytable("lucky-match"))
    assert round(100 * fig.house_edge, 2) == Fraction(PUBLISHED["lucky_match"]["edge_percent"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shape(round, rank) == [" + ", ".join(["1"] * 7) + "]", "no shape has parts"),
        ("shape(round, rank) == [[3, 3]]", "whole numbers"),
        ("shape(round, rank) in [[[3]]]", "whole numbers"),
        ("shape(round, rank) in [" + ", ".join(["[3, 3]"] * 70) + "]", "more than 64 shapes"),
        ("shape(round, rank) == []", "whole numbers"),
        ("shape(round, rank) == [1, 3]", "from the largest"),
        ("shape(player, rank) == [2, 2]", "2 to 3 cards"),
        ("shape(round, colour) == [2, 2, 2]", "2 colours"),
        ("shape(round, rank) == [99999999999]", "no shape has a part"),
        ("shape(round, rank) > [3]", "compared with"),
        ("shape(round, rank) + 1 == 2", "compared with"),
        ("1 + shape(round, rank) == 2", "not a number"),
        ("most(round) == 2", "expected ','"),
        ("most(, rank) == 2", "most needs a group"),
        ("most(round, rank) in [[2]]", "expected a feature or a value"),
        ("shape(round, rank) == [3, 3] and " * 40 + "most(round, rank) == 1", "more than 32"),
        ("most(dealer, rank) == 2", "most needs a group"),
        ("most(round, colr) == 2", "did you mean 'colour'"),
        ("count(round, most(round, rank) == 2) > 0", "cannot be inside count"),
        (" and ".join(["most(round, rank) == 2"] * 40), "more than 32"),
    ],
)
def test_hostile_shapes_give_one_message(text: str, message: str) -> None:
    with pytest.raises(ConditionError, match=message):
        parse_condition(text)


def test_a_hostile_shape_in_a_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``validate`` and ``report`` on a paytable with a huge nested shape list: one line on
    stderr naming the file, exit 2, no traceback."""
    nested = "[" * 40 + "3" + "]" * 40
    path = tmp_path / "hostile.toml"
    path.write_text(
        'name = "x"\n[bets.b]\nname = "b"\nrows = [\n'
        f'  {{ when = "shape(round, rank) in {nested}", pays = "1:1", event = "e" }},\n'
        '  { when = "otherwise", pays = "lose", event = "o" },\n]\n'
    )
    for command in ("validate", "report"):
        code, out, err = run([command, str(path)], capsys)
        assert code == 2 and out == "", command
        assert err.startswith("exactodds: error: ") and err.count("\n") == 1, err
        assert "hostile.toml" in err and "whole numbers" in err and "Traceback" not in err


def test_work_counts_the_multiplicities() -> None:
    """``cards.work`` charges shape/most for the pairs of the group's cards, once per group
    and attribute: more than a count over the same cards, the same for two rows of one shape."""
    shoe = Shoe.decks(8)

    def work(*rows: str) -> int:
        return cards_module.work([*(parse_condition(r) for r in rows), OTHERWISE], shoe)

    count = work("count(round, rank == 9) >= 4")
    most = work("most(round, rank) >= 4")
    assert most > 3 * count
    assert work("most(round, rank) >= 4", "shape(round, rank) == [3, 3]") < 2 * most
