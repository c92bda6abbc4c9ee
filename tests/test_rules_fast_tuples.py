"""The rules build their hottest named tuples as plain tuples (``movegen._move``,
``movegen._cannon``, ``Position.move``): what they build must be the named tuple its
constructor would make."""

from __future__ import annotations

from positions import C, O, bare, begin, put

from rules.sides import Side
from rules.tora.actions import MOVE, Action
from rules.tora.movegen import _cannon, _move, _strike
from rules.tora.pieces import Piece
from rules.tora.position import Effect, Position
from rules.tora.terrain import Terrain


def test_a_plain_move_is_the_named_tuples_with_their_defaults() -> None:
    action, effect = _move("A", 37, (38, 39), 5, 39)
    assert (action, effect) == (Action(MOVE, "A", 37, (38, 39)), Effect(MOVE, 5, 39))
    assert type(action) is Action and type(effect) is Effect
    assert action._asdict() == Action(MOVE, "A", 37, (38, 39))._asdict()
    assert effect._asdict() == Effect(MOVE, 5, 39)._asdict()


def test_a_moved_piece_keeps_everything_but_its_square() -> None:
    pos = Position(Terrain(9))
    pos.place(Piece(3, Side.CHALLENGER, "S", 37, defending=True, ready=False, doomed=True))
    pos.move(3, 70)
    moved = pos.pieces[3]
    assert type(moved) is Piece
    assert moved == Piece(3, Side.CHALLENGER, "S", 70, defending=True, ready=False, doomed=True)
    assert pos.board == {70: 3} and pos.guards == 1 << 70 and pos.occupied == 1 << 70


def test_an_attack_is_the_named_tuples_with_their_defaults() -> None:
    action, effect = _strike("G", 37, (38,), 40, 39, 5, 38, (12,), True)
    named = (Action(MOVE, "G", 37, (38,), 40, 39), Effect(MOVE, 5, 38, (12,), attacks=True))
    assert (action, effect) == named
    assert type(action) is Action and type(effect) is Effect


def test_a_cannons_actions_are_the_named_tuples_with_their_defaults() -> None:
    game = bare()
    cannon = put(game, C, "C", "v5h5")
    for where in ("v4h5", "v6h5", "v5h6"):
        put(game, C, "S", where)
    put(game, C, "G", "v1h9")
    put(game, O, "G", "v9h5")
    put(game, O, "A", "v5h1")
    pos = begin(game).pos
    for ready in (True, False):
        pos.pieces[cannon.id] = cannon._replace(ready=ready)
        pairs = list(_cannon(pos, pos.pieces[cannon.id], every=True))
        assert pairs
        for action, effect in pairs:
            assert type(action) is Action and type(effect) is Effect
            assert action == Action(
                action.kind,
                "C",
                cannon.sq,
                action.path,
                direction=action.direction,
                supporters=action.supporters,
            )
            assert effect == Effect(
                effect.kind,
                cannon.id,
                effect.rest,
                effect.hits,
                ready=effect.ready,
                spent=effect.spent,
                aim=effect.aim,
            )
