"""The Monkey's pause (TI15) and the turn without a move (TI8).

When a player builds Torii that do not win and the opponent's Spirit is a Monkey (powers
on), the turn ends in a position where the Monkey's owner is to decide (``Position.owed``: one
decision per such Torii, in building order) and the builder's reset (TI11) has not happened
yet. Each decision flips one player's tile 1 or nothing; after the last one the builder's
reset follows, and the Monkey's owner plays their normal turn from the same position.

A turn that goes on to build its 4th Torii still owes the decisions for the Torii before it
(TI15 gives them at once, before the winning Torii): the game ends when they are made, with
no reset, the builder as the winner and the tiles as flipped.
"""

from __future__ import annotations

from rules.sides import Side

from .state import Position
from .turn import reset


def decide(pos: Position, target: Side | None) -> Position:
    """One Monkey decision: flip ``target``'s tile 1 (None: nothing); after the last one
    owed, the builder's reset (TI11: the flips come first). When the builder's turn won, the
    last one ends the game instead: no reset, and the position names the winner."""
    used = [pos.used[0], pos.used[1]]
    if target is not None:
        used[target] ^= 1
    owed, side = pos.owed - 1, pos.side
    if owed == 0:
        builder = pos.side.other
        if pos.winner() is None:
            used[builder] = reset(used[builder])
        else:
            side = builder
    return Position(pos.cells, pos.spirits, (used[0], used[1]), side, owed)


def settle(pos: Position) -> set[Position]:
    """Every position the owed decisions can lead to (each one: either tile 1, or none)."""
    frontier = {pos}
    while frontier and next(iter(frontier)).owed:
        frontier = {decide(p, target) for p in frontier for target in (*Side, None)}
    return frontier


def pass_turn(pos: Position) -> Position:
    """TI8: nothing flipped, moved or placed; TI11 still applies; the other side is next."""
    used = [pos.used[0], pos.used[1]]
    used[pos.side] = reset(used[pos.side])
    return Position(pos.cells, pos.spirits, (used[0], used[1]), pos.side.other)
