"""Baccarat Gold: the published counts and edges, the rules file, and the decision on 5 against a
brute-force deal."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import permutations
from pathlib import Path

from exactodds.deal.engine import joint_distribution
from exactodds.deal.round import Winner
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.games.gold import GOLD, baccarat_gold
from exactodds.numbers import percent
from tests.cli_helpers import Cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "baccarat-gold.toml"

# Source: Wizard of Odds, "Baccarat Gold" (Player hits 5: return tables of the Player, Banker
# and Tie bets; Player stands on 5: Banker 0.918%, Tie 7.55%).
HIT = (2_232_878_486_302_976, 2_290_212_297_375_744, 475_307_491_824_640)


def test_published_counts_and_edges() -> None:
    g = baccarat_gold()
    policies = {p.name: p for p in g.policies}
    hit, stand = policies["always hit"], policies["always stand"]
    assert (hit.player_wins, hit.banker_wins, hit.ties) == HIT
    assert [percent(e, 3) for e in (hit.player_edge, hit.banker_edge, hit.tie_edge)] == [
        "1.147%",
        "1.144%",
        "4.908%",
    ]
    assert percent(stand.banker_edge, 3) == "0.918%" and percent(stand.tie_edge, 2) == "7.55%"
    assert policies["optimal"].player_edge <= min(hit.player_edge, stand.player_edge)


def test_the_rules_file_is_the_tableau_and_gives_the_published_counts() -> None:
    t = Tableau.from_file(EXAMPLE)
    assert (t.player, t.banker) == (GOLD.player, GOLD.banker)
    counts = joint_distribution(Shoe.decks(8), t).winner_counts()
    assert (counts[Winner.PLAYER], counts[Winner.BANKER], counts[Winner.TIE]) == HIT


def _brute_evs(values: list[int]) -> dict[tuple[tuple[int, int], bool], Fraction]:
    """The Player bet's EV given the Player's two cards (a 5) and no Banker natural, hitting
    and standing, dealt card by card over every ordered six-card sequence of a tiny shoe."""
    seen: dict[tuple[int, int], int] = {}
    won: dict[tuple[tuple[int, int], bool], int] = {}
    for seq in permutations(range(len(values)), 6):
        c = [values[k] for k in seq]
        pt, bt = (c[0] + c[2]) % 10, (c[1] + c[3]) % 10
        if pt != 5 or bt >= 8:
            continue
        hand = (min(c[0], c[2]), max(c[0], c[2]))
        seen[hand] = seen.get(hand, 0) + 1
        pf, third = (pt + c[4]) % 10, c[4]  # hitting
        bf = (bt + c[5]) % 10 if bt <= 3 or (bt <= 5 and 3 <= third <= 7) else bt
        won[hand, True] = won.get((hand, True), 0) + int(pf > bf) - int(bf > pf)
        bf = (bt + c[4]) % 10 if bt <= 5 else bt  # standing: the Banker draws on 0-5
        won[hand, False] = won.get((hand, False), 0) + int(pt > bf) - int(bf > pt)
    return {key: Fraction(n, seen[key[0]]) for key, n in won.items()}


def test_the_decision_on_5_against_a_brute_force_deal() -> None:
    values = [0, 0, 5, 1, 4, 2, 3, 6, 9]
    names = {0: "T", 1: "A"}
    ranks: dict[str, int] = {}
    for v in values:
        ranks[names.get(v, str(v))] = ranks.get(names.get(v, str(v)), 0) + 1
    g = baccarat_gold(Shoe.from_rank_counts(ranks))
    assert [str(d) for d in g.decisions] == ["0+5", "1+4", "2+3", "6+9"]
    brute = _brute_evs(values)
    for d in g.decisions:
        assert (d.ev_hit, d.ev_stand) == (brute[d.hand, True], brute[d.hand, False])
        assert d.hit == (d.ev_hit > d.ev_stand)
    assert {d.hit for d in g.decisions} == {True, False}  # the cards held decide


def test_baccarat_gold_command(cli: Cli) -> None:
    code, out, err = cli(["game", "baccarat-gold", "--format", "json"])
    assert code == 0, err
    data = json.loads(out)
    hit = next(p for p in data["policies"] if p["policy"] == "always hit")
    assert (hit["player_wins"], hit["banker_wins"], hit["ties"]) == HIT
    assert [d["play"] for d in data["decisions"]] == ["hit"] * 5
    code, _, err = cli(["game", "baccarat-gold", "--decks", "0"])
    assert code == 2 and "--decks" in err
