"""TORA's tactics beside the sampling: a General struck by two actions (move, then attack)
that the greedy builder does not see is taken, and a turn that leaves the side's last
command piece where the opponent's next turn hits it is not played when another is."""

from __future__ import annotations

import random

from ai import make_player
from ai.engines import engine_of
from ai.match import new_game
from ai.tora.tactics import exposed, strikes
from ai.turns import after_turn
from rules import Side

# Both sides aggressive: the Challenger's Archer takes the Opposition's Cannon's supporter,
# the Cannon fires and the Opposition's General (v5h1) is left behind one blocker on row v5.
OPENING = (
    ("A v7h9-v8h7", "A v3h9-v2h7"),
    ("S v6h2-v7h2", "S v4h2 defend"),
    ("A v8h7-v7h5", "A v7h5-v6h4 x v5h3"),
    ("C v5h2 fire E", "A v7h1-v7h3"),
)


def played(turns: int):
    game = new_game("tora-short", random.Random(0))
    for texts in OPENING[:turns]:
        for text in texts:
            game.apply(text)
        game.end_turn()
    return game


def general(game, side: Side):
    return next(p for p in game.pos.commanders(side))


def test_a_general_two_actions_away_from_a_strike_is_exposed():
    game = played(4)
    assert exposed(game.for_player(Side.OPPOSITION), Side.OPPOSITION)
    assert not exposed(played(3).for_player(Side.CHALLENGER), Side.CHALLENGER)


def test_the_strikes_found_hit_the_general_and_end():
    game = played(4)
    found = strikes(game.for_player(Side.CHALLENGER))
    assert found
    for texts in found:
        after = after_turn(game, texts)  # raises if the turn may not end (R30)
        assert general(after, Side.OPPOSITION).doomed or after.is_over()


def test_no_strike_where_the_jeopardy_search_finds_none():
    assert strikes(played(3).for_player(Side.OPPOSITION)) == []


def test_the_hard_player_takes_the_general_two_actions_away():
    game = played(4)
    texts = make_player("hard", game, work=2).turn(game.copy(), random.Random(1), 1.0)
    after = after_turn(game, texts)
    assert general(after, Side.OPPOSITION).doomed or after.is_over()


def test_the_hard_player_does_not_leave_its_general_to_a_strike():
    game = played(3)
    for seed in range(3):
        texts = make_player("hard", game, work=6).turn(game.copy(), random.Random(seed), 1.0)
        after = after_turn(game, texts)
        assert not exposed(after.for_player(Side.OPPOSITION), Side.OPPOSITION)


def test_the_long_board_has_no_tactical_turns_outside_the_clock():
    """A long-board turn end costs the rules up to seconds: tactical turns, found before the
    sampling's clock starts, would overrun its budget."""
    game = new_game("tora-long", random.Random(0))
    tactics = engine_of(game.game_type).tactics
    assert tactics is not None and tactics(game) == []
    assert tactics(played(0)) == [] and tactics(played(4)) != []
