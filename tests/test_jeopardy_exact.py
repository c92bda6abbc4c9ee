"""The pruned jeopardy search (R29) against plain brute force over every action sequence."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import playout

from rules.tora import jeopardy
from rules.tora.movegen import piece_actions
from rules.tora.position import Position


def brute_force(pos: Position, victim: int, actions: int) -> bool:
    """Does any sequence of up to ``actions`` actions (every supporter choice) attack it?"""
    for piece in list(pos.side_pieces(pos.side)):
        for _action, effect in piece_actions(pos, piece, every_support=True):
            if victim in effect.hits:
                return True
            if actions > 1:
                child = pos.copy()
                child.commit(effect)
                if brute_force(child, victim, actions - 1):
                    return True
    return False


def check_every_piece(pos: Position, actions: int | None = None) -> int:
    """Compare both searches for every piece of the side not to act; return how many.

    ``actions`` shortens the attacker's turn so that brute force stays affordable.
    """
    after = jeopardy.next_turn(pos)
    if actions is not None:
        after.actions_total = actions
    compared = 0
    for piece in pos.side_pieces(pos.side):
        if piece.id not in after.pieces:
            continue
        fast = jeopardy.in_jeopardy(after, piece.sq)
        assert fast == brute_force(after, piece.id, after.actions_total), piece
        compared += 1
    return compared


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(2, 14))
def test_r29_pruned_search_equals_brute_force_on_the_short_board(seed, turns):
    game = playout(seed, "short", turns)
    if not game.is_over():
        assert check_every_piece(game.pos) > 0


def test_r29_pruned_search_equals_brute_force_on_sparse_long_boards():
    """Long board, few pieces left and a two-action turn so that brute force stays affordable."""
    rng = random.Random(5)
    compared = 0
    for seed in range(4):
        game = playout(seed, "long", 4)
        pos = game.pos
        keep = {p.id for p in pos.pieces.values() if p.is_command}
        keep |= set(rng.sample(sorted(pos.pieces), 12))
        for pid in list(pos.pieces):
            if pid not in keep:
                pos.remove(pid)
        pos.start_turn(pos.side)
        if not game.is_over():
            compared += check_every_piece(pos, actions=2)
    assert compared > 12
