"""The rules' shortcuts give what they stand in for, over random legal playouts of both
boards with terrain and Assassins (hypothesis):

* a piece's plain moves are made once and shared (``movegen._moves``): each list of actions
  is the list made afresh, with nothing kept;
* the threat search's ``bounds.bound_to`` is ``bounds.bound`` of the one square, for every
  piece of either side and every square, with a crown due or not (R24)."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import end_the_turn

from rules.tora import Game, IllegalAction, Options, movegen, walk
from rules.tora.bounds import bound, bound_to
from rules.tora.geometry import on_board
from rules.tora.pieces import Piece
from rules.tora.position import Position

SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
TERRAINS = ("none", "river", "woods", "highlands")


def playout(board: str, terrain: str, seed: int, turns: int) -> list[Position]:
    """The positions a random game passes through (each staged action's, each turn's start)."""
    rng = random.Random(seed)
    if board == "long" and rng.random() < 0.5:
        game = Game(Options(board=board, terrain=terrain, assassins=True), ("v1h17", "v17h1"))
    else:
        game = Game(Options(board=board, terrain=terrain))
    seen = [game.pos.copy()]
    for _ in range(turns):
        if game.is_over():
            break
        for _ in range(game.actions_left):
            actions = game.legal_actions()
            if not actions:
                break
            with contextlib.suppress(IllegalAction):
                game.apply(rng.choice(actions))
            seen.append(game.pos.copy())
        end_the_turn(game)
        seen.append(game.pos.copy())
    return seen


def afresh(pos: Position, piece: Piece, every_support: bool, distinct: bool) -> list[movegen.Pair]:
    """``piece_actions`` with every kept list, walk and move forgotten first."""
    kept = (movegen._kept, movegen._plain_moves, walk._walks)
    saved = [dict(store) for store in kept]
    for store in kept:
        store.clear()
    try:
        return movegen.piece_actions(pos, piece, every_support, distinct)
    finally:
        for store, before in zip(kept, saved, strict=True):
            store.clear()
            store.update(before)


@SETTINGS
@given(
    board=st.sampled_from(("short", "long")),
    terrain=st.sampled_from(TERRAINS),
    seed=st.integers(0, 10_000),
)
def test_every_list_of_actions_is_the_list_made_afresh(board: str, terrain: str, seed: int) -> None:
    for pos in playout(board, terrain, seed, 6 if board == "short" else 3):
        for piece in pos.side_pieces(pos.side):
            for every_support, distinct in ((False, True), (True, False)):
                kept = movegen.piece_actions(pos, piece, every_support, distinct)
                assert kept == afresh(pos, piece, every_support, distinct)


@SETTINGS
@given(
    board=st.sampled_from(("short", "long")),
    terrain=st.sampled_from(TERRAINS),
    seed=st.integers(0, 10_000),
    crown=st.booleans(),
)
def test_bound_to_one_square_is_bound(board: str, terrain: str, seed: int, crown: bool) -> None:
    for pos in playout(board, terrain, seed, 4 if board == "short" else 2)[::3]:
        pos.crown_pending = [crown, crown]
        for piece in pos.pieces.values():
            for sq in on_board(pos.size):
                assert bound_to(pos, piece, sq) == bound(pos, piece, (sq,)), (piece, sq)
