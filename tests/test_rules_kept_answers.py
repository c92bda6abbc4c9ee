"""The answers the rules core keeps between positions (a piece's actions, its walk, a Cannon's
work before it can fire, R30's offenders of a turn's end) are those worked out afresh, over
random playouts with Assassins and terrain: the positions of the game, the opponent's next
turn from them (where the jeopardy searches start) and the positions one action away (the
searches' next nodes). A kept answer that went stale would change the legal actions, or
jeopardy and trapped, behind a player's back."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.tora import bounds, jeopardy, movegen, restriction
from rules.tora.movegen import all_actions, piece_actions
from rules.tora.pieces import CANNON
from rules.tora.position import Position
from rules.tora.walk import Walk, walk_of

# make test plays two playouts on each board; make soak (CI) many more
PLAYOUTS = settings(
    max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
MORE_PLAYOUTS = settings(PLAYOUTS, max_examples=8)
BOARDS = pytest.mark.parametrize("board", ["short", "long"])


def check_position(pos: Position) -> None:
    acted = [p for p in pos.commanders(pos.side) if p.id in pos.operated and not p.doomed]
    if acted:
        assert restriction.r30_offenders(pos) == restriction._offenders(pos, acted)
    for alone in acted:  # the same board, only one of them having acted
        one = pos.copy()
        one.operated = frozenset({alone.id})
        assert restriction.r30_offenders(one) == restriction._offenders(one, [alone])
    for piece in pos.side_pieces(pos.side):
        free = pos.free_take is not None and pos.free_take[0] == piece.id
        for every in (False, True) if piece.kind == CANNON else (False,):
            kept = piece_actions(pos, piece, every)
            if kept:  # past the gates: the same list as generated afresh, in the same order
                assert kept == movegen._distinct(movegen._pairs(pos, piece, every, free))
                assert kept == first_of_each_effect(list(movegen._pairs(pos, piece, every, free)))
                every_pair = piece_actions(pos, piece, every, distinct=False)
                assert every_pair == list(movegen._pairs(pos, piece, every, free))
        if not piece.hidden:
            for base, jump in ((1, False), (2, False), (3, False), (3, True)):
                fresh = Walk(pos, piece, base, jump)
                shared = walk_of(pos, piece, base, jump)
                assert list(shared.rests.items()) == list(fresh.rests.items())
                assert list(shared.lands.items()) == list(fresh.lands.items())
                assert list(shared.trades.items()) == list(fresh.trades.items())
        if piece.kind == CANNON and not piece.hidden:
            step = 2 if pos.terrain.hills else 1
            for target in pos.board:
                assert bounds._cannon_work(pos, piece, target, step) == bounds._count_cannon_work(
                    pos, piece, target, step
                )


def first_of_each_effect(pairs: list[movegen.Pair]) -> list[movegen.Pair]:
    """Every effect once, the first pair of each: what ``movegen._distinct`` keeps, looking
    up every effect (it looks up only attacks, the only effects a piece's list repeats)."""
    seen: set[object] = set()
    out = []
    for action, effect in pairs:
        if effect not in seen:
            seen.add(effect)
            out.append((action, effect))
    return out


def check_around(pos: Position, rng: random.Random) -> None:
    """The position, the opponent's next turn from it, and a few positions one action on."""
    for start in (pos, jeopardy.next_turn(pos)):
        check_position(start)
        effects = [effect for _action, effect in all_actions(start)]
        for effect in rng.sample(effects, min(4, len(effects))):
            child = start.copy()
            child.commit(effect)
            check_position(child)


def check_playout(seed: int, board: str) -> None:
    rng = random.Random(seed)
    game = new_game(rng, board, assassins=board == "long")
    game.skip_trapped = True  # R25 is not what this compares
    for _ in range(5 if board == "long" else 10):
        if game.is_over():
            break
        play_turn(game, rng, lambda g, actions: check_around(g.pos, rng))
        if not game.is_over():
            check_around(game.pos, rng)


@BOARDS
@PLAYOUTS
@given(st.integers(0, 10**6))
def test_kept_actions_walks_and_cannon_work_match_fresh_ones(board, seed):
    check_playout(seed, board)


@pytest.mark.slow
@BOARDS
@MORE_PLAYOUTS
@given(st.integers(0, 10**6))
def test_kept_actions_walks_and_cannon_work_match_fresh_ones_over_more_playouts(board, seed):
    check_playout(seed, board)
