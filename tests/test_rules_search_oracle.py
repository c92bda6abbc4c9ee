"""The faster jeopardy (R29, R30) and trapped (R25) searches against the ones they replaced
(``jeopardy_oracle``, ``trapped_oracle``: the modules as they were), over random long-board
playouts with Assassins and terrain. Jeopardy was exact before and must give the same answer
for every piece; R25 must give the same verdict wherever the old search decided within its
budget, and decide at least wherever the old one did."""

from __future__ import annotations

import random

import jeopardy_oracle
import pytest
import trapped_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.sides import Side
from rules.tora import Game, jeopardy, restriction, trapped
from rules.tora.position import Position


def agree_on_jeopardy(pos: Position) -> int:
    """Both searches judge every piece of the side not to act, against the next turn of the
    side to act (R29), and for the Challenger's pieces that slew also with R30's exception."""
    after = jeopardy.next_turn(pos)
    compared = 0
    for piece in after.side_pieces(after.side.other):
        new = jeopardy.in_jeopardy(after, piece.sq)
        assert new == jeopardy_oracle.in_jeopardy(after, piece.sq), (piece, "R29")
        not_doomed = trapped._not_doomed_command
        new = jeopardy.in_jeopardy(after, piece.sq, not_doomed)
        assert new == jeopardy_oracle.in_jeopardy(after, piece.sq, not_doomed), (piece, "R30")
        compared += 1
    return compared


def agree_on_r30(game: Game) -> None:
    assert restriction.r30_offenders(game.pos) == jeopardy_oracle.r30_offenders(game.pos)


def agree_on_r25(game: Game) -> str:
    """The verdicts at the start of the running turn: equal wherever the old one decided."""
    old = trapped_oracle.verdict(game.pos)
    new = trapped.verdict(game.pos)
    if old is not None:
        assert new == old
    return "undecided" if new is None else str(new)


def playout(seed: int, turns: int) -> Game:
    """A long game with Assassins and a random terrain, every turn start and every action
    compared (the R25 verdict judged here, by both searches)."""
    rng = random.Random(seed)
    game = new_game(rng, "long", assassins=True)
    game.skip_trapped = True
    for _ in range(turns):
        if game.is_over():
            break
        play_turn(game, rng, lambda g, _action: agree_on_r30(g))
        if not game.is_over():
            agree_on_jeopardy(game.pos)
            agree_on_r25(game)
            game.judge_trapped()
    return game


@settings(max_examples=2, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(2, 5))
def test_r25_r29_r30_faster_searches_agree_with_the_old_ones_with_assassins_and_terrain(
    seed, turns
):
    playout(seed, turns)


@pytest.mark.slow
@settings(max_examples=3, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(6, 8))
def test_r25_r29_r30_faster_searches_agree_with_the_old_ones_in_long_playouts(seed, turns):
    playout(seed, turns)


@pytest.mark.slow
def test_r29_both_searches_judge_pieces_at_the_start_of_a_long_game():
    """A fixed position the hypothesis runs may not reach: the first turn's end. Slow (the
    old search judges every piece of a full long board: over a minute on a slow day of the
    2-core VM, the suite's longest test): CI's soak runs it."""
    rng = random.Random(7)
    game = new_game(rng, "long", assassins=True)
    game.skip_trapped = True
    play_turn(game, rng, lambda g, _action: None)
    assert game.side == Side.OPPOSITION
    assert agree_on_jeopardy(game.pos) > 0
