"""docs/rules.md §9: published figures for 8 decks."""

from __future__ import annotations

from exactodds import Shoe, Winner, joint_distribution


def test_eight_deck_results_match_published_counts() -> None:
    joint = joint_distribution(Shoe.decks(8))
    wins = joint.winner_counts()
    assert joint.total == 4_998_398_275_503_360
    assert wins[Winner.BANKER] == 2_292_252_566_437_888
    assert wins[Winner.PLAYER] == 2_230_518_282_592_256
    assert wins[Winner.TIE] == 475_627_426_473_216
    assert sum(joint.counts.values()) == joint.total


def test_eight_deck_player_bonus_counts() -> None:
    joint = joint_distribution(Shoe.decks(8))
    nat_win = joint.count(lambda o: o.player.natural and o.winner == Winner.PLAYER)
    nat_tie = joint.count(lambda o: o.player.natural and o.winner == Winner.TIE)
    by9 = joint.count(
        lambda o: not o.player.natural and o.winner == Winner.PLAYER and o.margin == 9
    )
    assert nat_win == 812_685_054_124_032
    assert nat_tie == 89_325_908_267_520
    assert by9 == 18_409_431_764_992
