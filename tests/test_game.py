"""GameChoice: the options choose the shoe and rules, and a sheet's rerun command gives them back.

The rerun command is checked by running it: the sheet it prints has the shoe, rules, bets and
universe of the sheet that wrote it (an independent path through the command line).
"""

from __future__ import annotations

import json
import shlex
from math import perm
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.bets.game import GameChoice
from exactodds.bets.loader import load_paytable
from exactodds.cli import app
from exactodds.deal.shoe import RANKS, SUITS, Shoe
from exactodds.deal.tableau import BUILTIN, Tableau
from exactodds.report.sheet import build_sheet

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_options_choose_the_shoe_and_rules() -> None:
    classic = load_paytable("classic")
    shoe, tableau = GameChoice(decks=2, remove="6 6 Kd", rules="pronto").resolve(classic)
    assert shoe.size == 104 - 3 and tableau == BUILTIN["pronto"]
    assert shoe.rank_counts[RANKS.index("6")] == 8 - 2
    own = GameChoice().resolve(classic)
    assert own == (classic.shoe, classic.tableau)
    assert GameChoice().shoe().size == 416  # no paytable: 8 decks, Punto Banco
    assert GameChoice(shoe_file=EXAMPLES / "my-shoe.toml").shoe().size == 312 - 3


def test_options_are_written_in_one_order_files_by_absolute_path() -> None:
    choice = GameChoice(6, "6 6", Path("examples/my-shoe.toml"), "examples/my-rules.toml")
    here = Path.cwd() / "examples"
    assert choice.options() == [
        "--decks", "6", "--shoe", f"{here}/my-shoe.toml", "--remove", "6 6",
        "--rules", f"{here}/my-rules.toml",
    ]  # fmt: skip
    assert GameChoice().options() == []


def test_a_shoe_options_cannot_say_has_no_choice() -> None:
    classic = load_paytable("classic")
    odd = Shoe.decks(1).remove("A A A A 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6")  # 21 cards out
    assert GameChoice.of(classic, odd, classic.tableau) is None
    custom = Tableau("custom", frozenset({0, 1, 2}), BUILTIN["mini"].banker)
    assert GameChoice.of(classic, classic.shoe, custom) is None


removals = st.lists(
    st.tuples(st.sampled_from(RANKS), st.sampled_from(SUITS)), max_size=4, unique=True
)
"""Up to four distinct cards to remove: each is in a shoe of any number of decks (a card named
twice would be missing from one deck)."""


@settings(max_examples=5, deadline=None)
@given(decks=st.integers(1, 8), cards=removals, rules=st.sampled_from(sorted(BUILTIN)))
def test_the_rerun_command_recomputes_the_sheet(
    decks: int, cards: list[tuple[str, str]], rules: str
) -> None:
    classic = load_paytable("classic")
    removed = " ".join(rank + suit for rank, suit in cards)
    shoe = Shoe.from_options(decks, removed or None)
    sheet = build_sheet(classic, shoe=shoe, tableau=BUILTIN[rules], bet_ids=["tie"])
    assert sheet.command is not None
    choice = GameChoice.of(classic, shoe, BUILTIN[rules])
    assert choice is not None and choice.resolve(classic) == (shoe, BUILTIN[rules])
    argv = shlex.split(sheet.command)[1:]
    result = CliRunner().invoke(app, [*argv, "--format", "json"])
    assert result.exit_code == 0, result.output
    rerun = json.loads(result.stdout)
    assert rerun["universe"] == perm(shoe.size, 6) == sheet.universe
    assert rerun["shoe"]["description"] == shoe.describe()
    assert rerun["rules"] == BUILTIN[rules].data()
    assert [b["id"] for b in rerun["bets"]] == ["tie"]
    assert rerun["command"] == sheet.command
