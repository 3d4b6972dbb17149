"""Worked examples (exactodds.figures.worked_examples): each one re-settled by ``settle`` lands on
its own row and returns what the sheet says; the documented selection rule, checked against brute
force over every physical card sequence of small shoes; depleted shoes; determinism."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import bundled_paytables, load_paytable
from exactodds.bets.payout import parse_payout
from exactodds.bets.paytable import Bet, Paytable, Row
from exactodds.bets.settle import check_round, format_round_cards, settle_round
from exactodds.counting import POSITIONS, example_round
from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Outcome, PairKind, feature_record
from exactodds.deal.shoe import RANK_VALUES, Card, Shoe, parse_cards
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.figures.worked_examples import EXAMPLE_STAKE, Example, example_cards, row_examples
from exactodds.language import OTHERWISE, parse_condition
from exactodds.report import build_sheet, render_sheets
from tests.bruteforce import PhysicalCard, physical_cards, play_round, shoe_of
from tests.cardforce import dealt_rounds
from tests.cardforce import holds as brute_holds
from tests.cli_helpers import Cli
from tests.conftest import WriteFile
from tests.markdown_cells import has_cells

BUNDLED = {p.stem: load_paytable(p) for p in bundled_paytables()}


def examples_of(table: Paytable, shoe: Shoe | None = None) -> dict[str, tuple[Example | None, ...]]:
    return {bet.id: row_examples(bet, shoe or table.shoe, table.tableau) for bet in table.bets}


# -- every example of every bundled paytable, re-settled ------------------------------------------


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_every_row_has_an_example_that_settle_puts_on_that_row(name: str) -> None:
    table = BUNDLED[name]
    sheet = build_sheet(table, date="2024-01-01")
    joint = joint_distribution(table.shoe, table.tableau)
    for b in sheet.bets:
        bet = b.bet
        assert len({row.event for row in bet.rows}) == len(bet.rows)  # events name rows
        assert b.examples == row_examples(bet, table.shoe, table.tableau)
        for i, (row, ex, n) in enumerate(
            zip(bet.rows, b.examples, bet.row_combinations(joint), strict=True)
        ):
            assert n > 0, (name, bet.id, row.event)  # 8 full decks: every bundled row occurs
            assert ex is not None
            (settled,) = settle_round(table, ex.cards, [(bet.id, ex.stake)]).settlements
            assert settled.row is bet.rows[i], (bet.id, row.event, ex.cards)
            assert settled.returned == ex.returns
            assert ex.stake == (EXAMPLE_STAKE if bet.progressive is None else bet.progressive.stake)
            if bet.rounding is None:  # the paytable's own figure: the stake plus stake × net
                assert ex.returns == ex.stake * (1 + bet.row_net(row))


def test_every_example_through_settle_format_json(cli: Cli) -> None:
    """One ``exactodds settle NAME --format json`` per distinct example round of each bundled
    paytable, with every bet whose example it is (a bet already checked in an earlier paytable,
    with the same rows, rounding and rules, is not checked again); the JSON names the example's
    row and what it returns."""
    checked: set[str] = set()
    calls = 0
    for name, table in sorted(BUNDLED.items()):
        by_cards: dict[str, list[tuple[Bet, int, Example]]] = defaultdict(list)
        for bet in table.bets:
            same = repr((table.tableau, bet.rows, bet.rounding))
            if same in checked:
                continue
            checked.add(same)
            for i, ex in enumerate(row_examples(bet, table.shoe, table.tableau)):
                assert ex is not None
                by_cards[ex.cards].append((bet, i, ex))
        for cards, placed in by_cards.items():
            argv = ["settle", name, "--cards", cards, "--format", "json"]
            argv += [arg for bet, _, ex in placed for arg in ("--bet", f"{bet.id}={ex.stake}")]
            code, out, err = cli(argv)
            calls += 1
            assert (code, err) == (0, "")
            data = json.loads(out)
            assert data["round"]["cards"] == cards
            assert len(data["bets"]) == len(placed)
            for got, (bet, i, ex) in zip(data["bets"], placed, strict=True):
                assert (got["bet"], Fraction(got["stake"])) == (bet.id, ex.stake)
                assert got["event"] == bet.rows[i].event
                assert Fraction(got["returns"]) == ex.returns
                assert Fraction(got["net"]) == ex.returns - ex.stake - ex.fee  # fee never returned
    assert calls > 30


_CLASSIC_TEXT = (Path(__file__).parents[1] / "paytables" / "classic.toml").read_text("utf-8")


@pytest.mark.parametrize(
    ("paytable", "options"),
    [
        ("classic", ["--decks", "2", "--remove", "Kc Kc Qh 4d 6 6"]),
        ("classic", ["--rules", "mini"]),
        ("one-deck.toml", ["--decks", "2"]),  # its own deck deals no perfect pair
        ("ez", ["--shoe", "shoe.toml", "--remove", "Kd"]),
    ],
)
def test_examples_of_a_sheet_with_options_replay_through_settle_with_them(
    paytable: str, options: list[str], cli: Cli, write_file: WriteFile
) -> None:
    """A sheet made with --decks/--remove/--shoe/--rules deals its examples from that shoe
    under those rules: ``settle`` with the same options lands each on its own row."""
    if paytable.endswith(".toml"):
        path = write_file(paytable, _CLASSIC_TEXT.replace("\ndecks = 8\n", "\ndecks = 1\n"))
        paytable = str(path)
    if "--shoe" in options:
        shoe = write_file("shoe.toml", 'decks = 1\nremove = "2 3 4 5 7 9"\n')
        options = [str(shoe) if o == "shoe.toml" else o for o in options]
    code, out, err = cli(["report", paytable, *options, "--format", "json"])
    assert (code, err) == (0, "")
    by_cards: dict[str, list[tuple[str, str, Fraction]]] = defaultdict(list)
    for bet in json.loads(out)["bets"]:
        for row in bet["rows"]:
            if row["example"] is not None:
                ex = row["example"]
                by_cards[ex["cards"]].append((bet["id"], row["event"], Fraction(ex["returns"])))
    assert len(by_cards) >= 5
    for cards, placed in by_cards.items():
        bets = [arg for bet_id, _, _ in placed for arg in ("--bet", f"{bet_id}=100")]
        code, out, err = cli(["settle", paytable, *options, "--cards", cards, *bets, "-f", "json"])
        assert (code, err) == (0, ""), cards
        data = json.loads(out)
        got = [(b["bet"], b["event"], Fraction(b["returns"])) for b in data["bets"]]
        assert got == placed, cards


def test_hand_checked_examples_of_classic() -> None:
    """The rule on 8 decks, worked by hand: a Banker win with the fewest cards and the lowest
    player hand is a player 0 (K Q) against a banker natural 8; a Player Bonus win by 9
    without a natural needs six cards (a banker 0 always draws): player 0 draws a 9, banker 0
    draws a ten-value card (Kd is already dealt, so Kh)."""
    ex = examples_of(BUNDLED["classic"])
    assert ex["banker"][0] == Example("P: Kc Qh | B: 8d Ks", Fraction(195))
    assert ex["tie"][0] == Example("P: 6c Kh | B: 6d Ks", Fraction(900))
    assert ex["player_bonus"][2] == Example("P: Kc Qh 9c | B: Kd Qs Kh", Fraction(3100))
    assert ex["player_pair"][0] == Example("P: Kc Kh | B: 8d Ks", Fraction(1200))
    assert ex["perfect_pair"][0] == Example("P: Kc Kc | B: 4d 4d", Fraction(2600))
    touch = examples_of(BUNDLED["touch"])["banker"]
    assert touch[0] is not None and touch[0].returns == 195  # 1.95 × 100, to the cent


def test_the_sheet_shows_the_examples_in_every_format() -> None:
    (sheet,) = [build_sheet(BUNDLED["classic"], bet_ids=["banker"], date="2024-01-01")]
    md = render_sheets([sheet], "md")
    assert has_cells(md, "Banker wins", "`P: Kc Qh \\| B: 8d Ks`", "195")
    assert "Worked examples: each row's example is the first round" in md  # the Method's rule
    html = render_sheets([sheet], "html")
    assert "<code>P: Kc Qh | B: 8d Ks</code>" in html
    rows = json.loads(render_sheets([sheet], "json"))["bets"][0]["rows"]
    assert rows[0]["example"] == {
        "cards": "P: Kc Qh | B: 8d Ks",
        "stake": "100/1",
        "returns": "195/1",
    }
    csv = render_sheets([sheet], "csv").splitlines()
    assert "Classic (commission),banker,Banker,example,Banker wins,0.95:1,,,195," in csv[-3]
    assert csv[-3].endswith("P: Kc Qh | B: 8d Ks,195/1,")


# -- depleted shoes and rows that never occur ---------------------------------------------------


def test_one_deck_has_no_perfect_pair_example_and_rows_that_occur_have_one() -> None:
    table = BUNDLED["classic"]
    shoe = Shoe.decks(1)
    sheet = build_sheet(table, shoe=shoe, bet_ids=["perfect_pair", "either_pair"])
    for b in sheet.bets:
        for ex, n in zip(b.examples, b.bet.row_combinations(joint_distribution(shoe)), strict=True):
            assert (ex is None) == (n == 0)
    data = json.loads(render_sheets([sheet], "json"))
    perfect = data["bets"][0]["rows"]
    assert [r["example"] is None for r in perfect] == [True, True, True, False]
    assert [r["never_occurs"] for r in perfect] == [True, True, True, False]


@pytest.mark.parametrize(
    "remove",
    [
        "K K K K K K K K Q Q Q Q Q Q Q Q",  # no king or queen left: jacks and tens for 0
        "Kc Kc Kc Kc Kc Kc Kc Kc 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8",
        "4c 4c 4c 4c 4c 4c 4c 4d 4d 4d 4d 4d 4d 4d",  # one 4c and one 4d left
    ],
)
def test_examples_on_a_depleted_shoe_use_only_cards_it_holds(remove: str) -> None:
    table = BUNDLED["classic"]
    shoe = Shoe.decks(8).remove(remove)
    joint = joint_distribution(shoe)
    for bet in table.bets:
        examples = row_examples(bet, shoe)
        for row, ex, n in zip(bet.rows, examples, bet.row_combinations(joint), strict=True):
            assert (ex is None) == (n == 0)
            if ex is not None:
                dealt = check_round(ex.cards, table.tableau, shoe)  # cards come from the shoe
                assert bet.settle(dealt.outcome) is row


def test_no_cards_for_a_round_the_shoe_cannot_deal() -> None:
    from exactodds.deal.round import Hand
    from exactodds.errors import RoundError

    both_perfect = Outcome(Hand(6, None, PairKind.PERFECT), Hand(8, None, PairKind.PERFECT))
    assert example_cards(both_perfect, Shoe.decks(2))[1] == (Card(3, 1), Card(3, 1))  # 4d 4d
    with pytest.raises(RoundError, match="no cards of 1 deck"):
        example_cards(both_perfect, Shoe.decks(1))


# -- determinism ----------------------------------------------------------------------------------

_PRINT_EXAMPLES = """
from exactodds.figures.worked_examples import row_examples
from exactodds.bets.loader import load_paytable
from tests.markdown_cells import has_cells
t = load_paytable("bonus-pairs")
for bet in t.bets:
    for ex in row_examples(bet, t.shoe, t.tableau):
        print(ex.cards, ex.returns)
"""


def test_examples_are_the_same_in_a_fresh_process_with_another_hash_seed() -> None:
    table = BUNDLED["bonus-pairs"]
    here = "".join(
        f"{ex.cards} {ex.returns}\n"
        for bet in table.bets
        for ex in row_examples(bet, table.shoe, table.tableau)
        if ex is not None
    )
    for seed in ("12345",):
        out = subprocess.run(
            [sys.executable, "-c", _PRINT_EXAMPLES],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        assert out == here


# -- the documented rule against brute force -----------------------------------------------------


def order_key(o: Outcome) -> tuple[int, ...]:
    """Rule 1 written out again: fewest pairs, fewest perfect pairs, fewest cards, lowest player
    hand, lowest banker hand (total, then third card, none first), the player's pair first."""
    hands = (o.player, o.banker)
    return (
        sum(h.pair_kind != PairKind.NONE for h in hands),
        sum(h.pair_kind == PairKind.PERFECT for h in hands),
        sum(2 if h.third is None else 3 for h in hands),
        o.player.initial,
        -1 if o.player.third is None else o.player.third,
        o.banker.initial,
        -1 if o.banker.third is None else o.banker.third,
        -o.player.pair_kind,
        -o.banker.pair_kind,
    )


_TENS = [12, 11, 10, 9]  # K Q J T
_ORDER = [*range(9), *_TENS]


def _ranks(value: int) -> list[int]:
    return _TENS if value == 0 else [value - 1]


def card_key(seq: tuple[PhysicalCard, ...], o: Outcome) -> tuple[tuple[int, int, int], ...]:
    """Rule 2 written out again: per card in deal order (card not yet in the round first, rank
    preference, suit from the deal position)."""
    firsts = {0: o.player.initial, 1: o.banker.initial}  # deal positions 0 and 1 open a hand
    key = []
    for j, (rank, suit) in enumerate(seq):
        if j in firsts:
            own = _ranks(firsts[j])
            prefs = own + [r for r in _ORDER if r not in own]
        else:
            prefs = _ranks(RANK_VALUES[rank])
        key.append((int((rank, suit) in seq[:j]), prefs.index(rank), (suit - j) % 4))
    return tuple(key)


def first_rounds(shoe: Shoe, tableau: Tableau) -> dict[Outcome, tuple[PhysicalCard, ...]]:
    """Per outcome, its first cards by rule 2, over every ordered sequence of six distinct
    physical cards dealt by the independent dealer."""
    best: dict[Outcome, tuple[tuple[tuple[int, int, int], ...], tuple[PhysicalCard, ...]]] = {}
    for six in permutations(physical_cards(shoe), 6):
        o = play_round(six, tableau)
        used = six[: o.cards]
        key = card_key(used, o)
        if o not in best or key < best[o][0]:
            best[o] = (key, used)
    return {o: used for o, (_, used) in best.items()}


def brute_force_examples(
    bet: Bet, rounds: dict[Outcome, tuple[PhysicalCard, ...]]
) -> list[str | None]:
    """Per row, the first round by rule 1 of those settling on it, with its cards by rule 2."""
    first: dict[int, Outcome] = {}
    for o in sorted(rounds, key=order_key):
        first.setdefault(bet.rows.index(bet.settle(o)), o)
    out: list[str | None] = []
    for i in range(len(bet.rows)):
        if i not in first:
            out.append(None)
            continue
        o = first[i]
        used = rounds[o]
        player = [used[0], used[2]] + ([used[4]] if o.player.third is not None else [])
        banker = [used[1], used[3]] + ([used[-1]] if o.banker.third is not None else [])
        out.append(
            " | ".join(
                f"{side}: " + " ".join(str(Card(r, s)) for r, s in hand)
                for side, hand in (("P", player), ("B", banker))
            )
        )
    return out


CLASSIC_BETS = BUNDLED["classic"].bets
TABLEAUX = [BUILTIN["punto-banco"], BUILTIN["mini"], BUILTIN["pronto"]]
SMALL_SHOES = [
    "Ac Ac Kd 3h 3h 5c 7d",  # a perfect pair of aces, a pair of threes
    "Kc Kd Qh Js Tc 9h 6s",  # ten-value cards of every rank
]


def _check_against_brute_force(shoe: Shoe, tableau: Tableau) -> None:
    rounds = first_rounds(shoe, tableau)
    for bet in CLASSIC_BETS:
        got = [ex and ex.cards for ex in row_examples(bet, shoe, tableau)]
        assert got == brute_force_examples(bet, rounds), bet.id


@pytest.mark.parametrize("tableau", TABLEAUX, ids=[t.name for t in TABLEAUX])
@pytest.mark.parametrize("cards", SMALL_SHOES)
def test_rule_equals_brute_force_on_small_shoes(cards: str, tableau: Tableau) -> None:
    shoe = shoe_of((c.rank, c.suit) for c in parse_cards(cards) if c.suit is not None)
    assert shoe.size == len(cards.split())
    _check_against_brute_force(shoe, tableau)


@settings(max_examples=10, deadline=None, database=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0, 2, 3, 5, 7, 8, 9, 12]), st.integers(0, 1)),
        min_size=6,
        max_size=7,
    ),
    st.sampled_from(TABLEAUX),
)
def test_rule_equals_brute_force_on_random_shoes(
    cards: list[PhysicalCard], tableau: Tableau
) -> None:
    _check_against_brute_force(shoe_of(cards), tableau)


def test_full_shoe_examples_are_first_in_the_documented_order() -> None:
    """On 8 decks, against a plain sort of the engine's outcomes by :func:`order_key` (the
    module orders them by an integer encoding of the same key)."""
    table = BUNDLED["classic"]
    joint = joint_distribution(table.shoe, table.tableau)
    ordered = sorted((o for o, n in joint.counts.items() if n > 0), key=order_key)
    records = [(o, feature_record(o)) for o in ordered]
    for bet in table.bets:
        first: dict[int, Outcome] = {}
        for o, record in records:
            first.setdefault(bet.row_index(record), o)
            if len(first) == len(bet.rows):
                break
        for i, ex in enumerate(row_examples(bet, table.shoe, table.tableau)):
            assert ex is not None
            assert check_round(ex.cards, table.tableau).outcome == first[i], (bet.id, i)


# -- card-level rows: natural examples ----------------------------------------------------------

CARD_ROWS = (
    "player.card1.suit == player.card2.suit",
    "count(initial, colour == red) >= 3",
    "count(initial, rank == 9) == 2",
)


def _card_bet(rows: Sequence[str]) -> Bet:
    parsed = tuple(Row(parse_condition(w), parse_payout("1:1"), w) for w in rows)
    return Bet("b", "b", (*parsed, Row(OTHERWISE, parse_payout("lose"), "other")))


def _repeats(player: Sequence[PhysicalCard], banker: Sequence[PhysicalCard]) -> bool:
    cards = [*player, *banker]
    return len(set(cards)) < len(cards)


@settings(max_examples=4, deadline=None, database=None, derandomize=True)
@given(
    st.lists(st.tuples(st.sampled_from([0, 8, 9, 12]), st.integers(0, 3)), min_size=7, max_size=7)
)
def test_card_level_examples_repeat_a_card_only_where_the_row_needs_it(
    cards: list[PhysicalCard],
) -> None:
    """Against every ordered sequence of physical cards (tests/cardforce.py): each example is a
    round that settles on its row, and uses one physical card twice (7c 7c) only when no round
    of distinct cards with as many cards in each hand settles on the row (a small shoe may
    hold six distinct cards only for a round of four)."""
    shoe = shoe_of(cards)
    bet = _card_bet(CARD_ROWS)
    nodes = [row.when.node for row in bet.rows]
    settling: dict[int, list[tuple[list[PhysicalCard], list[PhysicalCard]]]] = defaultdict(list)
    for rnd in dealt_rounds(shoe):
        first = next(i for i, node in enumerate(nodes) if brute_holds(node, rnd))
        settling[first].append((rnd.player, rnd.banker))
    for i, ex in enumerate(row_examples(bet, shoe)):
        if ex is None:
            assert not settling[i]
            continue
        player, banker = (
            [(c.rank, c.suit) for c in parse_cards(hand.split(":")[1]) if c.suit is not None]
            for hand in ex.cards.split("|")
        )
        assert (player, banker) in settling[i], ex.cards
        if _repeats(player, banker):
            shape = (len(player), len(banker))
            alike = [r for r in settling[i] if (len(r[0]), len(r[1])) == shape]
            assert all(_repeats(*r) for r in alike), ex.cards


def _example(bet: Bet, row: int) -> str | None:
    """The worked example of one row of a card-level bet on 8 decks, in settle's notation."""
    found = example_round([r.when for r in bet.rows], row, Shoe.decks(8), offer=bet.offer)
    if found is None:
        return None
    hands = [[Card(*found[p]) for p in POSITIONS if p in found and p[0] == s] for s in "PB"]
    return format_round_cards(*hands)


def test_card_level_examples_of_the_bundled_rows_read_naturally() -> None:
    """Hand-checked on 8 decks (four nines, the four suits: example_round's doctest): a perfect
    9 is a ten-value card and a 9, the banker's hand repeating no card of the round."""
    assert _example(BUNDLED["perfect-9"].round_bet("perfect_9"), 0) == "P: Kc 9h | B: Kd Qs"
    # A first choice of Kc for P1 would need Kc again for P2: the example takes Qc instead.
    suited_king = _card_bet(["player.card1.suit == player.card2.suit and player.card2.rank == K"])
    assert _example(suited_king, 0) == "P: Qc Kc Jc | B: Kd Qs Jd"
    # A row that needs one card twice gets it (the banker's second card is the player's first).
    same = _card_bet(
        ["banker.card2.rank == player.card1.rank and banker.card2.suit == player.card1.suit"]
    )
    assert _example(same, 0) == "P: Kc Qh Jc | B: Kd Kc Qd"


# -- every example is a round of its bet that settle puts on its row -----------------------------

# Source: the audit of issue 32 (hand-checked: the Banker's second card must be a 3 or a 4, and
# a player on 2 draws, so `P: Ts 2s | B: 2h 2h` was neither offered nor a legal round).
AUDIT_SHOE = Shoe.from_mapping(
    {"cards": {"2": [0, 0, 3, 1], "3": [0, 0, 0, 3], "4": [2, 2, 0, 1], "T": [0, 0, 0, 3]}}
)
AUDIT_OFFER = "banker.card2.value in [3, 4] and shape(initial, colour) != [3, 1]"


def _offered_bet(rows: Sequence[str], offer: str | None) -> Bet:
    parsed = tuple(Row(parse_condition(w), parse_payout("7:5"), w) for w in rows)
    return Bet(
        "b",
        "b",
        (*parsed, Row(OTHERWISE, parse_payout("lose"), "other")),
        offer=parse_condition(offer) if offer else None,
    )


def _settles_on_its_rows(bet: Bet, shoe: Shoe, tableau: Tableau = BUILTIN["punto-banco"]) -> None:
    """Each example of ``bet``, dealt by ``settle`` from ``shoe`` (legal, offered, in the
    shoe), lands on its own row and returns what the example says."""
    table = Paytable("t", "", 8, tableau, (bet,))
    for i, ex in enumerate(row_examples(bet, shoe, tableau)):
        if ex is None:
            continue
        (settled,) = settle_round(table, ex.cards, [(bet.id, 100)], shoe=shoe).settlements
        assert settled.row is bet.rows[i], (ex.cards, bet.rows[i].event)
        assert settled.returned == ex.returns


def test_the_audited_example_is_a_legal_offered_round() -> None:
    bet = _offered_bet(["count(round, value != 0) != 4"], AUDIT_OFFER)
    examples = row_examples(bet, AUDIT_SHOE)
    assert examples[0] is not None
    assert examples[0].cards == "P: 2h 3s 4c | B: Ts 4d 2s"  # hand-checked: offered, five
    assert examples[0].returns == 240  # cards of value not 0; 7:5 on 100
    _settles_on_its_rows(bet, AUDIT_SHOE)


ROW_POOL = [
    "count(round, value != 0) != 4",
    "shape(initial, colour) == [2, 2]",
    "shape(player, rank) == [2, 1]",
    "player.card1.suit == banker.card1.suit",
    "count(initial, colour == red) >= 2",
    "banker.card2.value in [3, 4]",
    "player.wins and player.total >= 5",
    "banker.third != none",
    "player.pair",
    "winner == tie",
]
OFFER_POOL = [
    None,
    AUDIT_OFFER,
    "player.initial <= 5",
    "shape(initial, suit) != [4]",
    "banker.card1.colour == red",
]


@settings(max_examples=12, deadline=None, database=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from([1, 2, 3, 5, 9, 12]), st.integers(0, 3)), min_size=7, max_size=7
    ),
    st.lists(st.sampled_from(ROW_POOL), min_size=1, max_size=2, unique=True),
    st.sampled_from(OFFER_POOL),
)
def test_examples_of_drawn_bets_settle_on_their_rows(
    cards: list[PhysicalCard], rows: list[str], offer: str | None
) -> None:
    """Bets drawn from rows and offers that read values, ranks, suits, colours and shapes,
    on small shoes: every example is a round ``settle`` puts on its row, and a row without one
    is settled by no offered round of the shoe (brute force over its physical cards)."""
    shoe = shoe_of(cards)
    bet = _offered_bet(rows, offer)
    _settles_on_its_rows(bet, shoe)
    nodes = [row.when.node for row in bet.rows]
    settled = set()
    for rnd in dealt_rounds(shoe):
        if bet.offer is None or brute_holds(bet.offer.node, rnd):
            settled.add(next(i for i, node in enumerate(nodes) if brute_holds(node, rnd)))
    found = {i for i, ex in enumerate(row_examples(bet, shoe)) if ex is not None}
    assert found == settled
