"""The notebook API: short reprs, HTML tables, DataFrames, ``Payout("12:1")``, ``with_payout``
and ``Paytable.shoe`` as a property, checked against hand-computed figures."""

from __future__ import annotations

from fractions import Fraction
from html.parser import HTMLParser

import pytest

from exactodds import Shoe, joint_distribution
from exactodds.bets.loader import load_paytable
from exactodds.bets.payout import Payout, parse_payout
from exactodds.errors import PaytableError
from exactodds.figures.compare import compare_variants
from exactodds.figures.metrics import BetFigures, bet_figures, paytable_figures

# Player Pair on 8 decks: a pair has probability 31/415 (13·32·31 / (416·415)), so paying a:1
# the house edge is 1 − (a + 1)·31/415: 43/415 at 11:1, 12/415 at 12:1.
PAIR = Fraction(31, 415)


class _Cells(HTMLParser):
    """The text of every table cell and heading, and whether the markup nests properly."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.stack: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        assert self.stack.pop() == tag
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def cells(html: str) -> list[str]:
    parser = _Cells()
    parser.feed(html)
    assert parser.stack == []
    return parser.cells


def test_payout_parses_text_like_a_paytable_file() -> None:
    assert Payout("12:1") == parse_payout("12:1")
    assert Payout("1:1 less 5%").net == Fraction(19, 20)
    assert Payout("9 for 1").net == 8
    assert Payout(3).net == Fraction(3) and isinstance(Payout(3).net, Fraction)
    with pytest.raises(PaytableError, match="cannot read payout 'twelve'"):
        Payout("twelve")
    with pytest.raises(PaytableError, match="payout must be"):
        Payout(1.5)  # type: ignore[arg-type]  # a float is never read as exact


def test_shoe_is_a_property_that_joint_distribution_takes() -> None:
    table = load_paytable("classic")
    assert table.shoe == Shoe.decks(8)
    assert joint_distribution(table.shoe).total == 416 * 415 * 414 * 413 * 412 * 411


def test_with_payout_changes_one_row_and_the_edge() -> None:
    table = load_paytable("classic")
    edited = table.with_payout("player_pair", "Player pair", "12:1")
    joint = joint_distribution(edited.shoe, edited.tableau)
    assert bet_figures(joint, table.round_bet("player_pair")).house_edge == 1 - 12 * PAIR
    assert bet_figures(joint, edited.round_bet("player_pair")).house_edge == 1 - 13 * PAIR
    assert edited.with_payout("player_pair", 0, "11:1").round_bet("player_pair") == table.round_bet(
        "player_pair"
    )
    others = [b for b in edited.bets if b.id != "player_pair"]
    assert others == [b for b in table.bets if b.id != "player_pair"]
    # No longer the file it was read from, and its description no longer states 11:1 as paid.
    assert edited.path is None and edited.sha256 is None
    assert "12:1 (was 11:1)" in edited.description
    with pytest.raises(PaytableError, match="has no row 'Dragon'"):
        table.with_payout("player_pair", "Dragon", "12:1")
    with pytest.raises(PaytableError, match="unknown bet id 'dragon'"):
        table.with_payout("dragon", 0, "12:1")


def test_reprs_are_one_short_line() -> None:
    table = load_paytable("classic")
    figures = paytable_figures(table)
    joint = joint_distribution(table.shoe, table.tableau)
    comparison = compare_variants(table, ties=["8:1", "9:1"], decks=[6, 8])
    for value in (table, figures[0], joint, comparison):
        text = repr(value)
        assert "\n" not in text and len(text) < 120, text
    assert len(repr(figures)) < 120 * len(figures)
    assert "house edge 10.3614%" in repr(figures[3])  # 43/415


def test_html_tables_hold_the_figures() -> None:
    table = load_paytable("classic")
    html = table._repr_html_()
    assert cells(html)[:4] == ["bet", "event", "when", "pays"]
    assert "Player pair" in cells(html)
    pair = paytable_figures(table)[3]
    assert f'title="{Fraction(43, 415)}"' in paytable_figures(table)._repr_html_()
    assert "31/415" in pair._repr_html_()  # the exact probability in a tooltip
    joint = joint_distribution(Shoe.decks(8))
    assert "2,292,252,566,437,888" in cells(joint._repr_html_())  # Banker wins (README)


def test_html_escapes_names() -> None:
    from dataclasses import replace

    table = replace(load_paytable("classic"), name="<b>A & B</b>")
    html = table._repr_html_()
    assert "<b>" not in html and "&lt;b&gt;A &amp; B" in html


def test_frames_hold_exact_values() -> None:
    pd = pytest.importorskip("pandas")
    table = load_paytable("classic")
    figures = paytable_figures(table)
    df = figures.to_frame()
    assert isinstance(df, pd.DataFrame)
    assert list(df["bet"]) == [b.id for b in table.bets]
    assert df.loc[3, "house_edge"] == Fraction(43, 415)
    pair = figures[3]
    assert isinstance(pair, BetFigures)
    rows = pair.to_frame()
    assert rows.loc[0, "probability"] == PAIR
    assert rows.loc[0, "combinations"] == PAIR * pair.total
    totals = joint_distribution(Shoe.decks(8)).to_frame()
    assert totals["combinations"].sum() == 416 * 415 * 414 * 413 * 412 * 411
    assert len(table.to_frame()) == sum(len(b.rows) for b in table.bets)
    long = compare_variants(table, ties=["9:1"], decks=[8]).to_frame()
    pair_row = long[long["bet"] == "player_pair"].iloc[0]
    assert pair_row["house_edge"] == 1 - 12 * PAIR


def test_frames_have_float_copies_to_plot() -> None:
    """Beside each column of Fractions its float copy (the exact column stays), so df.plot
    works; columns of text or ints get none."""
    pytest.importorskip("pandas")
    df = paytable_figures(load_paytable("classic")).to_frame()
    assert str(df["house_edge_float"].dtype) == "float64"
    assert df.loc[3, "house_edge_float"] == float(Fraction(43, 415))
    assert df.loc[3, "house_edge"] == Fraction(43, 415)
    columns = list(df.columns)
    assert columns.index("house_edge_float") == columns.index("house_edge") + 1
    assert "bet_float" not in columns and "offer_probability_float" not in columns  # all None
    rows = paytable_figures(load_paytable("classic"))[3].to_frame()
    assert rows["probability_float"].tolist()[0] == float(PAIR)
    assert "combinations_float" not in rows.columns  # ints plot as they are
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    assert df.plot.bar(x="bet", y="house_edge_float") is not None


def test_one_call_compares_two_paytables() -> None:
    """Classic against its Player Pair at 12:1: only that bet changes, by −31/415."""
    pytest.importorskip("pandas")
    from exactodds.figures.metrics import compare_paytables

    table = load_paytable("classic")
    edited = table.with_payout("player_pair", 0, "12:1")
    df = compare_paytables(table, edited, names=("original", "edited")).set_index("bet")
    assert list(df.index) == [b.id for b in table.bets]
    pair = df.loc["player_pair"]
    assert pair["house_edge_original"] == 1 - 12 * PAIR
    assert pair["house_edge_edited"] == 1 - 13 * PAIR
    assert pair["house_edge_change"] == -PAIR and pair["rtp_change"] == PAIR
    assert pair["largest_win_edited"] == 12 and pair["house_edge_change_float"] == -float(PAIR)
    others = df.drop(index="player_pair")
    assert all(change == 0 for change in others["house_edge_change"])
