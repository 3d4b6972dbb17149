"""The bundled live-casino games of issue 34 against their published returns, at the precision
published (RTP per money paid: stake, fee and, for a peek, the raise). Their multiplier weights
and reveal rule are not published: the files carry illustrative ones fitted to these figures
(benchmarks/live.py --fit), so this checks the fit and the engine together; the engine's
multiplied and peek figures are checked against brute force in tests/test_multiplied.py and
tests/test_peek.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactodds.bets.loader import load_paytable
from exactodds.figures.metrics import paytable_figures


def rtps(game: str) -> dict[str, Fraction]:
    return {f.bet.id: f.rtp for f in paytable_figures(load_paytable(game))}


def published(value: str) -> tuple[Fraction, Fraction]:
    """The interval of RTPs that round to the published percentage ``value``."""
    places = len(value.partition(".")[2])
    half = Fraction(1, 2 * 10**places) / 100
    centre = Fraction(value) / 100
    return centre - half, centre + half


CASES = {
    # Source: win2day.at, «First Person Golden Wealth Baccarat» Ergänzungsspielbedingungen,
    # https://www.win2day.at/fairplay/spielbedingungen/firstpersongoldenwealthbaccarat-spielbedingungen
    # («Durchschnittliche Ausschüttung»: Player ca. 98,9 %, Banker ca. 98,7 %, Pairs ca. 86 %,
    # Tie ca. 93,4 %).
    "golden-wealth": {
        "player": "98.9",
        "banker": "98.7",
        "player_pair": "86",
        "banker_pair": "86",
        "tie": "93.4",
    },
    # Source: win2day.at, «Prosperity Tree Baccarat» Ergänzungsspielbedingungen (Player ca. 98,9 %,
    # Banker ca. 98,7 %, Pairs ca. 92,5 %, Tie ca. 92,8 %).
    "prosperity-tree": {
        "player": "98.9",
        "banker": "98.7",
        "player_pair": "92.5",
        "banker_pair": "92.5",
        "tie": "92.8",
    },
    # Source: win2day.at, «Peek Baccarat» Ergänzungsspielbedingungen,
    # https://www.win2day.at/fairplay/spielbedingungen/peekbaccarat-spielbedingungen (Player and
    # Banker ca. 98,8 %, Pairs ca. 89,6 %, Tie ca. 85,6 %).
    "peek": {
        "player": "98.8",
        "banker": "98.8",
        "player_pair": "89.6",
        "banker_pair": "89.6",
        "tie": "85.6",
    },
    # Source: https://www.ltccasino.com/cryptocasino/lightning-baccarat/ (RTP 98.76%, the Player);
    # https://reallivedealer.ag/baccarat/2020/07/15/working-on-the-multipliers-with-lightning-baccarat/
    # and https://livecasinodata.com/games/lightning-baccarat/how-to-play (Tie edge 5.49%: 94.51%).
    # The Banker's published 98.76% is out of reach with the Player at 98.76% (docs/multipliers.md).
    "lightning": {"player": "98.76", "tie": "94.51"},
}


@pytest.mark.parametrize("game", list(CASES))
def test_bundled_live_game_meets_its_published_returns(game: str) -> None:
    got = rtps(game)
    for bet, value in CASES[game].items():
        low, high = published(value)
        assert low <= got[bet] < high, (bet, float(got[bet]))
