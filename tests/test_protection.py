"""Information exposure (issue 17): conditional counts and best-strategy edges against a
brute-force dealer over physical card sequences, published edge-sorting figures, invariants,
and hostile ``--given`` / ``--sort`` / ``--flash`` values."""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import perm
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.round import Outcome
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.numbers import percent
from exactodds.protection.exposure import (
    _sort_signals,
    analyse_flash,
    analyse_given,
    analyse_signals,
    analyse_sort,
    optimise_sort,
    parse_sort,
)
from exactodds.protection.information import (
    ANY,
    Restriction,
    conditional_counts,
    first_four,
    parse_given,
    rank_mask,
)
from tests.bruteforce import PhysicalCard, physical_cards, play_round, shoe_of
from tests.cli_helpers import Cli
from tests.extras import need

DATA = Path(__file__).parent / "data" / "edge_sorting.toml"
PB = BUILTIN["punto-banco"]


# -- the brute-force dealer ---------------------------------------------------------------------


def _allowed(mask: tuple[int, ...], card: PhysicalCard) -> bool:
    return bool(mask[card[0]] >> card[1] & 1)


def _matches(r: Restriction, seq: tuple[PhysicalCard, ...], outcome: Outcome) -> bool:
    if not all(_allowed(m, c) for m, c in zip(r.first, seq[:4], strict=True)):
        return False
    p_drew = outcome.player.third is not None
    if r.player_third is not None and (not p_drew or seq[4][0] not in r.player_third):
        return False
    if r.banker_third is not None:
        if outcome.banker.third is None:
            return False
        if seq[5 if p_drew else 4][0] not in r.banker_third:
            return False
    return True


def brute_conditional(shoe: Shoe, r: Restriction, tableau: Tableau = PB) -> Counter[Outcome]:
    """Every ordered six-sequence of physical cards that matches ``r``, by outcome."""
    out: Counter[Outcome] = Counter()
    for seq in permutations(physical_cards(shoe), 6):
        outcome = play_round(seq, tableau)
        if _matches(r, seq, outcome):
            out[outcome] += 1
    return out


SMALL_SHOES = [
    shoe_of([(8, 0), (8, 0), (8, 1), (5, 0), (0, 2), (9, 3), (12, 3), (4, 1), (4, 1)]),
    shoe_of([(0, 0), (0, 0), (0, 0), (6, 1), (6, 2), (7, 3), (11, 0), (2, 2)]),
    shoe_of([(3, 0), (3, 1), (5, 0), (5, 0), (9, 0), (10, 1), (1, 3), (7, 2), (7, 2)]),
]


def _mask_strategy() -> st.SearchStrategy[tuple[int, ...]]:
    return st.one_of(
        st.just(ANY),
        st.lists(st.integers(0, 15), min_size=13, max_size=13).map(tuple),
        st.frozensets(st.integers(0, 12), min_size=1).map(rank_mask),
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shoe_index=st.integers(0, len(SMALL_SHOES) - 1),
    masks=st.tuples(*(_mask_strategy() for _ in range(4))),
    p3=st.one_of(st.none(), st.frozensets(st.integers(0, 12), min_size=1)),
    b3=st.one_of(st.none(), st.frozensets(st.integers(0, 12), min_size=1)),
    tableau=st.sampled_from(sorted(BUILTIN)),
)
def test_restricted_counts_equal_brute_force(
    shoe_index: int,
    masks: tuple[tuple[int, ...], ...],
    p3: frozenset[int] | None,
    b3: frozenset[int] | None,
    tableau: str,
) -> None:
    shoe = SMALL_SHOES[shoe_index]
    r = Restriction(masks, p3, b3)  # type: ignore[arg-type]
    [got] = conditional_counts(shoe, r, BUILTIN[tableau])
    want = brute_conditional(shoe, r, BUILTIN[tableau])
    assert got.counts == dict(want)
    assert got.total == sum(want.values())


def test_given_text_equals_brute_force() -> None:
    shoe = SMALL_SHOES[0]
    for text in ("P: 9s ? | B: ? ?", "P: 9 9 | B: ? ?", "P: ? ? ? | B: [6 7 8 9] v0 5"):
        r = parse_given(text)
        [got] = conditional_counts(shoe, r)
        assert got.counts == dict(brute_conditional(shoe, r)), text


def _brute_signal_evs(
    paytable: Paytable, shoe: Shoe, signal_of: object, burn: bool = False
) -> dict[object, tuple[int, list[Fraction]]]:
    """Per signal: combinations and every bet's EV, by dealing every physical sequence (seven
    cards when a burn card is seen first)."""
    length = 7 if burn else 6
    sums: dict[object, list[Fraction]] = {}
    counts: Counter[object] = Counter()
    for seq in permutations(physical_cards(shoe), length):
        round_cards = seq[1:] if burn else seq
        outcome = play_round(round_cards, paytable.tableau)
        sig = signal_of(seq)  # type: ignore[operator]
        counts[sig] += 1
        acc = sums.setdefault(sig, [Fraction(0)] * len(paytable.bets))
        for i, bet in enumerate(paytable.bets):
            acc[i] += bet.net(outcome)
    return {s: (counts[s], [v / counts[s] for v in sums[s]]) for s in counts}


@pytest.fixture(scope="module")
def pairs_table() -> Paytable:
    return load_paytable("classic")


def test_sort_signals_equal_brute_force(pairs_table: Paytable) -> None:
    shoe = SMALL_SHOES[2]
    group = frozenset({5, 6, 7, 8})
    result = analyse_sort(pairs_table, group, 3, shoe)
    brute = _brute_signal_evs(
        pairs_table, shoe, lambda seq: tuple(int(c[0] in group) for c in seq[:3])
    )
    assert len(result.signals) == len(brute)
    universe = perm(shoe.size, 6)
    for s in result.signals:
        # label "P: a c | B: b d" back to the dealing order a b c
        cells = s.label.replace("P:", "").replace("B:", "").replace("|", "").split()
        key = tuple(int(cells[i] == "H") for i in (0, 2, 1))
        n, evs = brute[key]
        assert (s.combinations, list(s.evs)) == (n, evs)
        assert s.probability == Fraction(n, universe)


@pytest.mark.parametrize("position", ["B2", "burn"])
def test_flash_equals_brute_force(pairs_table: Paytable, position: str) -> None:
    shoe = SMALL_SHOES[1]
    result = analyse_flash(pairs_table, position, shoe)
    burn = position == "burn"
    brute = _brute_signal_evs(
        pairs_table, shoe, lambda seq: seq[0][0] if burn else seq[3][0], burn=burn
    )
    from exactodds.deal.shoe import RANKS

    got = {s.label.split()[1] if burn else s.label.split()[-1]: s for s in result.signals}
    assert set(got) == {RANKS[cast(int, r)] for r in brute}
    for rank, (n, evs) in brute.items():
        s = got[RANKS[cast(int, rank)]]
        assert list(s.evs) == evs
        assert s.probability == Fraction(n, sum(c for c, _ in brute.values()))


# -- invariants on 8 decks ----------------------------------------------------------------------


@pytest.mark.parametrize("seen", [1, 4])
def test_signal_probabilities_sum_to_one(pairs_table: Paytable, seen: int) -> None:
    result = analyse_sort(pairs_table, parse_sort("6 7 8 9"), seen)
    assert sum(s.probability for s in result.signals) == 1
    assert result.no_bet_probability + result.bet_probability == 1
    for position in ("P1", "bottom"):
        flashed = analyse_flash(pairs_table, position)
        assert sum(s.probability for s in flashed.signals) == 1


def test_no_information_gives_best_full_ev(write_file: object) -> None:
    table = load_paytable("classic")
    ff = first_four(table.shoe)
    one = np.zeros(len(ff.n), dtype=np.int64)
    result = analyse_signals(table, ["everything"], one, "no information")
    from exactodds.figures.metrics import paytable_figures

    full = {f.bet.id: f.ev for f in paytable_figures(table)}
    assert list(result.signals[0].evs) == list(full.values())
    assert result.edge_per_round == max(0, *full.values()) == 0
    # a paytable with a player-favourable bet: its EV is the edge, made on every round
    path = write_file(  # type: ignore[operator]
        "rich.toml",
        'name = "Rich"\n[bets.player]\nname = "Player"\nrows = [\n'
        '  { when = "player.wins", pays = "2:1", event = "win" },\n'
        '  { when = "winner == tie", pays = "push", event = "tie" },\n'
        '  { when = "otherwise", pays = "lose", event = "lose" },\n]\n',
    )
    rich = load_paytable(str(path))
    result = analyse_signals(rich, ["everything"], one, "no information")
    from exactodds.figures.metrics import paytable_figures

    ev = paytable_figures(rich)[0].ev
    assert ev > 0
    assert result.edge_per_round == ev and result.bet_probability == 1


def test_python_integers_for_large_shoes() -> None:
    """20 decks overflow int64 in the moments: the same figures with Python integers."""
    table = load_paytable("classic")
    shoe = Shoe.decks(20)
    ff = first_four(shoe)
    assert ff.n.dtype == object
    one = np.zeros(len(ff.n), dtype=np.int64)
    result = analyse_signals(table, ["everything"], one, "none", shoe=shoe)
    from exactodds.figures.metrics import paytable_figures

    assert list(result.signals[0].evs) == [f.ev for f in paytable_figures(table, shoe)]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    group=st.frozensets(st.integers(0, 12), min_size=1, max_size=12),
    seen=st.integers(1, 4),
)
def test_random_sorts_equal_brute_force(group: frozenset[int], seen: int) -> None:
    table = load_paytable("punto-banco")
    shoe = SMALL_SHOES[0]
    result = analyse_sort(table, group, seen, shoe)
    brute = _brute_signal_evs(
        table, shoe, lambda seq: tuple(int(c[0] in group) for c in seq[:seen])
    )
    got = {}
    for s in result.signals:
        cells = s.label.replace("P:", "").replace("B:", "").replace("|", "").split()
        order = [cells[0], cells[2], cells[1], cells[3]]  # P1 B1 P2 B2
        got[tuple(int(c == "H") for c in order[:seen])] = (s.combinations, list(s.evs))
    assert got == brute


def test_burn_card_needs_seven_cards(pairs_table: Paytable) -> None:
    from exactodds.protection.exposure import ExposureError

    six = shoe_of([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)])
    with pytest.raises(ExposureError, match="7 cards needed"):
        analyse_flash(pairs_table, "burn", six)


def test_sort_with_one_group_is_no_information(pairs_table: Paytable) -> None:
    ff = first_four(pairs_table.shoe)
    _, ids = _sort_signals(ff, frozenset(range(13)), 2)
    assert set(ids.tolist()) == {3}  # every card in H: one signal


# -- published figures --------------------------------------------------------------------------


def _pct(x: Fraction) -> str:
    return percent(x, 3).rstrip("%")


def test_published_edge_sorting_figures() -> None:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    table = load_paytable(data["paytable"])
    one = data["one_card"]
    assert (
        _pct(analyse_sort(table, parse_sort(one["high"]), one["seen"]).edge_per_round)
        == (one["edge_per_round"])
    )
    four = data["four_cards"]
    result = analyse_sort(table, parse_sort(four["high"]), four["seen"])
    assert _pct(result.edge_per_round) == four["edge_per_round"]
    assert _pct(result.no_bet_probability) == four["no_bet"]
    by_label = {s.label: s for s in result.signals}
    hl = [by_label["P: H L | B: L L"], by_label["P: L H | B: L L"]]
    assert _pct(sum((s.probability for s in hl), Fraction(0))) == four["player_high_low_vs_low_low"]
    assert {_pct(s.best_ev) for s in hl} == {four["player_high_low_vs_low_low_edge"]}
    tie = table.bets.index(table.bet("tie"))
    tie_only = [s for s in result.signals if s.best == tie and sum(ev > 0 for ev in s.evs) == 1]
    assert _pct(sum((s.probability for s in tie_only), Fraction(0))) == four["tie_only"]
    best = data["best_four_card_sort"]
    [top, *_] = optimise_sort(table, best["seen"], "value", top=3)
    assert top.group == parse_sort(best["high"]) | frozenset() or top.group == (
        frozenset(range(13)) - parse_sort(best["high"])
    )
    assert _pct(top.edge_per_round) == best["edge_per_round"]
    again = analyse_sort(table, top.group, best["seen"])
    assert again.edge_per_round == top.edge_per_round
    assert again.bet_probability == top.bet_probability


def test_optimise_by_rank_agrees_with_direct_analysis() -> None:
    table = load_paytable("punto-banco")
    shoe = Shoe.decks(1)
    results = optimise_sort(table, 2, "rank", shoe=shoe, top=4, jobs=2)
    assert [r.edge_per_round for r in results] == sorted(
        (r.edge_per_round for r in results), reverse=True
    )
    for r in results:
        direct = analyse_sort(table, r.group, 2, shoe)
        assert (direct.edge_per_round, direct.bet_probability) == (
            r.edge_per_round,
            r.bet_probability,
        )


def test_given_figures_partial_deal() -> None:
    table = load_paytable("classic")
    g = analyse_given("P: 9 9 | B: ? ?", table.shoe, table.tableau, table.bets)
    # a player pair of nines: the Player Pair bet wins every such round
    pair = {f.bet.id: f for f in g.figures}["player_pair"]
    assert pair.hit_frequency == 1 and pair.ev == 11
    assert Fraction(g.total, g.universe) == Fraction(32 * 31, 416 * 415)


# -- hostile values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["exposure", "classic", "--sort", "A 2 3 4 5 6 7 8 9 T J Q K"],
        ["exposure", "classic", "--sort", "0 A 2 3 4 5 6 7 8 9"],
        ["exposure", "classic", "--sort", "6 6"],
        ["exposure", "classic", "--sort", "9h"],
        ["exposure", "classic", "--sort", "Z"],
        ["exposure", "classic", "--sort", ""],
        ["exposure", "classic", "--sort", "6", "--seen", "0"],
        ["exposure", "classic", "--sort", "6", "--seen", "5"],
        ["exposure", "classic", "--flash", "P3"],
        ["exposure", "classic", "--flash", "burn", "--sort", "6"],
        ["exposure", "classic"],
        ["exposure", "classic", "--optimise", "--by", "suit"],
        ["exposure", "classic", "--sort", "6", "--format", "xml"],
        ["exposure", "classic", "--flash", "P1", "--seen", "2"],
        ["exposure", "classic", "--sort", "6", "--top", "3"],
        ["exposure", "classic", "--optimise", "--top", "5000"],
        ["exposure", "classic", "--optimise", "--jobs", "0"],
        ["odds", "--given", "P: 9s 9s | B: 9s ?", "--decks", "2"],
        ["odds", "--given", "P: 9 9 5 | B: ? ?"],
        ["odds", "--given", "P: Xs ? | B: ? ?"],
        ["odds", "--given", "P: 9s ? 5h | B: ? ?"],
        ["odds", "--given", "P: 9s | B: ? ?"],
        ["odds", "--given", "9s ? ? ?"],
        ["odds", "--given", "P: [6 7 | B: ? ?"],
        ["odds", "--given", "P: v12 ? | B: ? ?"],
        ["odds", "--given", "P: ? ? | P: ? ?"],
        ["odds", "--given", "P: ? ? | B: ? ?", "--paytable", "no-such-table"],
        ["odds", "--paytable", "classic"],
    ],
)
def test_hostile_values_give_one_line_and_exit_2(cli: Cli, argv: list[str]) -> None:
    code, out, err = cli(argv)
    assert code == 2, (out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("exactodds: error: ")


def test_cli_formats(cli: Cli) -> None:
    import json

    code, out, err = cli(["exposure", "punto-banco", "--sort", "6 7 8 9", "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (
        Fraction(data["edge_per_round"])
        == analyse_sort(load_paytable("punto-banco"), parse_sort("6 7 8 9"), 1).edge_per_round
    )
    assert sum(Fraction(s["probability"]) for s in data["signals"]) == 1
    code, out, _ = cli(["exposure", "punto-banco", "--flash", "P1", "--format", "csv"])
    assert code == 0 and out.startswith("kind,signal,bet,combinations,value,exact\n")
    code, out, _ = cli(["exposure", "punto-banco", "--flash", "bottom", "--format", "md"])
    assert code == 0 and out.startswith("# Exposure: Punto Banco")
    code, out, _ = cli(["exposure", "punto-banco", "--optimise", "--seen", "1", "--top", "3"])
    assert code == 0 and "| 6 7 8 9 " in out
    code, out, _ = cli(
        ["odds", "--given", "P: 9s ? | B: ? ?", "--paytable", "classic", "-f", "json"]
    )
    data = json.loads(out)
    assert code == 0 and Fraction(data["probability"]) == Fraction(1, 52)


# -- report --protection ------------------------------------------------------------------------


def test_report_protection_section_in_every_format(cli: Cli, tmp_path: Path) -> None:
    import csv
    import io
    import json

    argv = ["report", "punto-banco", "--protection", "--date", "2024-01-01"]
    code, out, err = cli([*argv, "-f", "json"])
    assert (code, err) == (0, "")
    section = json.loads(out)["protection"]
    by_key = {p["key"]: p for p in section["procedures"]}
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    assert _pct(Fraction(by_key["sort_1"]["edge_per_round"])) == data["one_card"]["edge_per_round"]
    assert (
        _pct(Fraction(by_key["sort_4"]["edge_per_round"])) == data["four_cards"]["edge_per_round"]
    )
    table = load_paytable("punto-banco")
    burn = analyse_flash(table, "burn")
    assert [Fraction(b["edge"]) for b in by_key["burn"]["bets"]] == list(burn.per_bet_edges)
    code, out, _ = cli([*argv, "-f", "csv"])
    lines = [r for r in csv.DictReader(io.StringIO(out)) if r["kind"] == "protection"]
    assert len(lines) == 4 * (1 + len(table.bets))
    code, out, _ = cli([*argv, "-f", "md"])
    assert code == 0 and "## Game protection" in out and "**20.9281%**" in out
    code, out, _ = cli([*argv, "-f", "html"])
    assert code == 0 and 'id="protection"' in out
    code, out, _ = cli([*argv, "-f", "xlsx", "--out", str(tmp_path)])
    assert code == 0
    openpyxl = need("openpyxl", "xlsx")
    book = openpyxl.load_workbook(tmp_path / "punto-banco.xlsx")
    assert "Protection" in book.sheetnames
    code, out, _ = cli(["report", "punto-banco", "--date", "2024-01-01", "-f", "json"])
    assert "protection" not in json.loads(out)  # only with --protection


# -- card-level bets and offers (the bet language) ---------------------------------------------

CARD_TABLE = """
name = "Card-level"
[bets.player]
name = "Player"
rows = [
  { when = "player.wins", pays = "1:1", event = "win" },
  { when = "winner == tie", pays = "push", event = "tie" },
  { when = "otherwise", pays = "lose", event = "lose" },
]
[bets.suited]
name = "Suited"
rows = [
  { when = "player.card1.suit == player.card2.suit", pays = "3:1", event = "suited" },
  { when = "otherwise", pays = "lose", event = "other" },
]
[bets.insurance]
name = "Insurance"
offer = "banker.card1.rank == 9"
rows = [
  { when = "banker.natural", pays = "2:1", event = "banker natural" },
  { when = "otherwise", pays = "lose", event = "other" },
]
[bets.trailing]
name = "Player-win insurance when trailing"
offer = "player.initial < banker.initial"
rows = [
  { when = "player.wins", pays = "3:1", event = "player wins" },
  { when = "winner == tie", pays = "push", event = "tie" },
  { when = "otherwise", pays = "lose", event = "other" },
]
"""


def _card_brute(
    table: Paytable, shoe: Shoe, signal_of: object, burn: bool = False
) -> dict[object, tuple[int, list[Fraction]]]:
    """Per signal, every bet's return per round of the signal (a bet with an offer returns 0
    where it is not offered), dealing physical cards and reading the conditions independently."""
    from tests.cardforce import deal, holds

    sums: dict[object, list[Fraction]] = {}
    counts: Counter[object] = Counter()
    for seq in permutations(physical_cards(shoe), 7 if burn else 6):
        cards = seq[1:] if burn else seq
        rnd = deal(cards, table.tableau)
        outcome = play_round(cards, table.tableau)
        sig = signal_of(seq)  # type: ignore[operator]
        counts[sig] += 1
        acc = sums.setdefault(sig, [Fraction(0)] * len(table.bets))
        for i, bet in enumerate(table.bets):
            if bet.offer is not None and not holds(bet.offer.node, rnd):
                continue  # not offered: no bet
            if not getattr(bet, "card_level", False):
                acc[i] += bet.net(outcome)
                continue
            row = next(r for r in bet.rows if holds(r.when.node, rnd))
            acc[i] += bet.row_net(row)
    return {s: (counts[s], [v / counts[s] for v in sums[s]]) for s in counts}


def test_card_level_bets_and_offers_equal_brute_force(write_file: object) -> None:
    table = load_paytable(str(write_file("cards.toml", CARD_TABLE)))  # type: ignore[operator]
    assert [getattr(b, "card_level", False) for b in table.bets] == [False, True, True, False]
    shoe = shoe_of([(8, 0), (8, 1), (8, 0), (5, 0), (0, 2), (9, 3), (12, 3), (4, 1)])
    group = frozenset({5, 6, 7, 8})
    result = analyse_sort(table, group, 2, shoe)
    brute = _card_brute(table, shoe, lambda seq: tuple(int(c[0] in group) for c in seq[:2]))
    got = {}
    for s in result.signals:
        cells = s.label.replace("P:", "").replace("B:", "").replace("|", "").split()
        got[(int(cells[0] == "H"), int(cells[2] == "H"))] = (s.combinations, list(s.evs))
    assert got == brute
    burn = analyse_flash(table, "burn", shoe)
    brute = _card_brute(table, shoe, lambda seq: seq[0][0], burn=True)
    from exactodds.deal.shoe import RANKS

    assert {s.label.split()[1]: list(s.evs) for s in burn.signals} == {
        RANKS[cast(int, r)]: evs for r, (_, evs) in brute.items()
    }
    flash = analyse_flash(table, "B1", shoe)
    brute = _card_brute(table, shoe, lambda seq: seq[1][0])
    assert {s.label.split()[-2]: list(s.evs) for s in flash.signals} == {
        RANKS[cast(int, r)]: evs for r, (_, evs) in brute.items()
    }


def test_published_partial_deal_tables() -> None:
    """The conditional enumerator against published mid-game tables: signals on the player's
    two-card total, then also on the banker's first card."""
    from exactodds.deal.shoe import RANK_VALUES

    data = tomllib.loads((DATA.parent / "partial_deal.toml").read_text(encoding="utf-8"))
    shoe = Shoe.decks(8)
    ff = first_four(shoe)
    values = np.array(RANK_VALUES)[ff.ranks]
    pt = (values[:, 0] + values[:, 2]) % 10

    def wins(c: object) -> dict[str, Fraction]:
        out = dict.fromkeys(("player", "banker", "tie"), 0)
        for o, n in c.counts.items():  # type: ignore[attr-defined]
            out[o.winner.value] += n
        return {k: Fraction(n, c.total) for k, n in out.items()}  # type: ignore[attr-defined]

    half = Fraction(1, 2 * 10**6)
    by_total = conditional_counts(shoe, Restriction(), signals=pt, nsignals=10, ff=ff)
    for total, published in data["two_player_cards"].items():
        got = wins(by_total[int(total)])
        for key, text in zip(("player", "banker", "tie"), published, strict=True):
            assert abs(got[key] - Fraction(text)) <= half, (total, key)
    both = conditional_counts(
        shoe, Restriction(), signals=pt * 10 + values[:, 1], nsignals=100, ff=ff
    )
    for banker_card, row in data["player_win_after_three_cards"].items():
        for total, text in enumerate(row):
            player = wins(both[total * 10 + int(banker_card)])["player"]
            assert abs(player - Fraction(text)) <= half, (banker_card, total)
