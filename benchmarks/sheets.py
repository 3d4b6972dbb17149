"""Benchmark: a full math sheet (figures and worked examples) on 8 decks, one core, of every
bundled paytable and of market side bets written as a designer writes them (issue 26).

Each case is timed in a fresh interpreter (no cache shared between cases) and prints the CPU
seconds (``time.process_time``) of loading the paytable, counting every bet and building its
Markdown sheet, worked examples included. Targets: ≤ 1 s for a paytable of one bet, ≤ 3 s for
a file of many; Dragon Dragon written with 13-rank ``count`` rows and Lucky Match with
``count`` rows ≤ 3 s; the bets naming particular cards of issue 33 (cards in lumps) ≤ 5 s.

    python benchmarks/sheets.py                 # every case
    python benchmarks/sheets.py lucky-match     # the cases whose name holds a word
    python benchmarks/sheets.py "named cards"   # issue 33's bets naming particular cards
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _any(test: str, ranks: list[str] = RANKS) -> str:
    """``count(round, rank == X) TEST`` for any of ``ranks``, joined by ``or``."""
    return " or ".join(f"count(round, rank == {r}) {test}" for r in ranks)


def _split(test: str, unreachable: tuple[str, ...] = ()) -> list[str]:
    """One condition per first rank X: X and a later rank Y both pass ``test`` (a pair of
    ranks, written as a designer must without ``shape``: 78 pairs in one row are over the
    4,096-character limit), less the rows no round reaches (validate refuses them)."""
    return [
        f"count(round, rank == {x}) {test} and ({_any(test, RANKS[i + 1 :])})"
        for i, x in enumerate(RANKS[:-1])
        if x not in unreachable
    ]


def _rows(rows: list[tuple[str, str, str]]) -> str:
    line = '  {{ when = "{}", pays = "{}", event = "{}" }},'
    return "\n".join(line.format(when, pays, event) for when, pays, event in rows)


def _bet(bet: str, name: str, rows: list[tuple[str, str, str]]) -> str:
    return f'[bets.{bet}]\nname = "{name}"\nrows = [\n{_rows(rows)}\n]\n'


def _file(name: str, *bets: str) -> str:
    return f'name = "{name}"\ndecks = 8\nrules = "punto-banco"\n\n' + "\n".join(bets)


LOSE = ("otherwise", "lose", "Loser")

LUCKY_MATCH_COUNT = _file(
    "Lucky Match (count rows)",
    _bet(
        "lucky_match",
        "Lucky Match",
        [
            (_any(">= 5"), "250:1", "Five or six of a kind"),
            *((w, "100:1", "Double triplets") for w in _split("== 3", ("8", "9"))),
            (_any("== 4"), "30:1", "Four of a kind"),
            (f"({_any('== 3')}) and ({_any('== 2')})", "15:1", "Full house"),
            (_any("== 3"), "6:1", "Three of a kind"),
            *((w, "4:1", "Two or three pairs") for w in _split("== 2")),
            LOSE,
        ],
    ),
)

DRAGON_SHAPE = _file(
    "Dragon Dragon (shape rows)",
    _bet(
        "dragon_dragon",
        "Dragon Dragon",
        [
            ("most(round, rank) == 6", "10000 for 1", "Six of a kind"),
            ("most(round, rank) == 5", "1000 for 1", "Five of a kind"),
            ("shape(round, rank) == [3, 3]", "250 for 1", "Double three of a kind"),
            ("most(round, rank) == 4", "50 for 1", "Four of a kind"),
            ("cards == 4 and most(round, rank) == 3", "25 for 1", "Three of a kind of four"),
            LOSE,
        ],
    ),
)

DRAGON_COUNT = _file(
    "Dragon Dragon (count rows)",
    _bet(
        "dragon_dragon",
        "Dragon Dragon",
        [
            (_any("== 6"), "10000 for 1", "Six of a kind"),
            (_any("== 5"), "1000 for 1", "Five of a kind"),
            *((w, "250 for 1", "Double three of a kind") for w in _split("== 3", ("8", "9"))),
            (_any("== 4"), "50 for 1", "Four of a kind"),
            (f"cards == 4 and ({_any('== 3')})", "25 for 1", "Three of a kind of four"),
            LOSE,
        ],
    ),
)


def _lucky_8(side: str) -> str:
    other = "banker" if side == "player" else "player"
    suited = f"{side}.total == 8 and {side}.cards == 3 and {side}.suited"
    both = f"{other}.total == 8 and {other}.cards == 3 and {other}.suited"
    return _bet(
        f"lucky_8_{side}",
        f"Lucky 8 ({side.title()})",
        [
            (f"{suited} and {both}", "200:1", "Double suited 3-card 8"),
            (suited, "25:1", "Suited 3-card 8"),
            (f"{side}.total == 8 and {other}.total == 8", "15:1", "Double 8"),
            (f"{side}.total == 8 and not {side}.wins", "8:1", "Unlucky 8"),
            (f"{side}.total == 8", "4:1", "Lucky 8"),
            LOSE,
        ],
    )


LUCKY_8 = _file("Lucky 8", _lucky_8("player"), _lucky_8("banker"))

SUPER_TIE = _file(
    "Super Tie",
    _bet(
        "super_tie",
        "Super Tie",
        [
            *(
                (f"winner == tie and player.total == {t}", f"{p}:1", f"Tie on {t}")
                for t, p in ((0, 150), (1, 215), (2, 220), (3, 200), (4, 120))
            ),
            *(
                (f"winner == tie and player.total == {t}", f"{p}:1", f"Tie on {t}")
                for t, p in ((5, 110), (6, 45), (7, 45), (8, 80), (9, 80))
            ),
            LOSE,
        ],
    ),
)

ALL_COLOUR = _file(
    "All Red / All Black",
    *(
        _bet(
            f"all_{c}",
            f"All {c.title()}",
            [(f"count(round, colour == {c}) == cards", "22:1", f"All {c}"), LOSE],
        )
        for c in ("red", "black")
    ),
    _bet(
        "player_colour",
        "Player colour",
        [
            ("player.colour == red", "5:1", "Player all red"),
            ("player.colour == black", "5:1", "Player all black"),
            LOSE,
        ],
    ),
)

NAMED_CARDS = _file(
    "Named cards (issue 33)",
    _bet(
        "named_cards",
        "Two of a named card",
        [
            ("count(round, rank == K and suit == hearts) >= 2", "100:1", "Two K of hearts"),
            ("count(round, rank == Q and suit == spades) >= 2", "100:1", "Two Q of spades"),
            ("count(round, rank == A and suit == diamonds) >= 2", "100:1", "Two A of diamonds"),
            LOSE,
        ],
    ),
)

HEARTS_CLUBS = _file(
    "Third cards hearts (issue 33)",
    _bet(
        "hearts_clubs",
        "Hearts, clubs, two 7 of diamonds",
        [
            (
                "player.card3.suit == hearts and banker.card3.suit == hearts "
                "and player.card1.rank == banker.card1.rank",
                "500:1",
                "Third cards hearts, equal first ranks",
            ),
            (
                "player.card3.suit == hearts and banker.card3.suit == hearts",
                "10:1",
                "Third cards hearts",
            ),
            ("count(round, suit == clubs) == 6", "1000:1", "Six clubs"),
            ("count(round, rank == 7 and suit == diamonds) == 2", "200:1", "Two 7 of diamonds"),
            LOSE,
        ],
    ),
)

MARKET = {
    "lucky-match (count rows)": LUCKY_MATCH_COUNT,
    "dragon-dragon (shape rows)": DRAGON_SHAPE,
    "dragon-dragon (13-rank count rows)": DRAGON_COUNT,
    "lucky-8 (player and banker)": LUCKY_8,
    "super-tie": SUPER_TIE,
    "all-red / all-black": ALL_COLOUR,
    "named cards: two K♥, Q♠, A♦": NAMED_CARDS,
    "named cards: hearts, clubs, two 7♦": HEARTS_CLUBS,
}


def once(source: str) -> None:
    """One case in this (fresh) process: load, count, build the sheet; prints JSON."""
    from exactodds.bets.loader import load_paytable
    from exactodds.report import build_sheet, render_sheets

    cpu = time.process_time()
    table = load_paytable(source)
    render_sheets([build_sheet(table, date="2024-01-01")], "md")
    print(json.dumps({"cpu": time.process_time() - cpu, "bets": len(table.bets)}))


def main() -> None:
    from exactodds.bets.loader import bundled_paytables

    words = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        cases: dict[str, str] = {p.stem: str(p) for p in bundled_paytables()}
        for name, text in MARKET.items():
            path = Path(tmp) / f"market-{len(cases)}.toml"
            path.write_text(text, encoding="utf-8")
            cases[name] = str(path)
        print("Full Markdown sheet (figures + worked examples), 8 decks, one core, CPU seconds")
        for name, source in cases.items():
            if words and not any(w in name for w in words):
                continue
            out = subprocess.run(
                [sys.executable, __file__, "--once", source],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            result = json.loads(out)
            target = 1.0 if result["bets"] == 1 else 3.0
            if "count rows" in name:
                target = 3.0
            if "named cards" in name:
                target = 5.0
            verdict = "ok" if result["cpu"] <= target else "OVER TARGET"
            print(
                f"  {name:36} {result['bets']:3} bet(s)  cpu {result['cpu']:7.2f} s  "
                f"(target {target:g} s, {verdict})"
            )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--once"]:
        once(sys.argv[2])
    else:
        main()
