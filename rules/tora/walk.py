"""Where a piece can go in one move (R3, R23, R31, R33): the paths every action generator
(movegen) and the jeopardy search's walk (strike) share."""

from __future__ import annotations

from .bits import ball
from .geometry import neighbours
from .kept import keep
from .pieces import SOLDIER, Piece
from .position import Position

# Plain walks kept (see ``walk_of``): 2,048 Walks of a few KB each at most, the oldest going
# first when full (the searches of a turn come back to the same few neighbourhoods).
_KEPT = 2048
_walks: dict[tuple[int, ...], Walk] = {}


def walk_of(
    pos: Position, piece: Piece, base: int, jump: bool = False, ghost: bool = False
) -> Walk:
    """``Walk(pos, piece, base, jump, ghost)``, shared between positions that agree on what it
    reads. Without water or hills a walk of ``base`` steps reads only the squares within
    ``base`` of its start: whether each holds a piece, of which side, and whether it is a
    defending Soldier (``guards``); a ghost reads none of them. Callers only read a Walk."""
    terrain = pos.terrain
    if terrain.water or terrain.hills:
        return Walk(pos, piece, base, jump, ghost)
    side = piece.side
    if ghost:
        key: tuple[int, ...] = (pos.size, piece.sq, base, jump, ghost, side)
    else:
        near = ball(pos.size, piece.sq, base)
        own, enemy = pos.side_bits[side] & near, pos.side_bits[1 - side] & near
        key = (pos.size, piece.sq, base, jump, ghost, side, own, enemy, pos.guards & near)
    found = _walks.get(key)
    if found is None:
        found = keep(_walks, key, Walk(pos, piece, base, jump, ghost), _KEPT)
    return found


class Walk:
    """Where a piece can go in one move of reach ``base`` (R3, R23, R31, R33).

    ``rests``: empty squares it can end on, with a path. ``lands``: (enemy square, square
    before it) -> path, for landing attacks. ``trades``: enemy defending Soldiers a Cavalry
    would land on or jump over (R18). A ``ghost`` (the hidden Assassin, R40) passes through
    and rests on any square.
    """

    __slots__ = ("lands", "rests", "trades")

    def __init__(
        self, pos: Position, piece: Piece, base: int, jump: bool = False, ghost: bool = False
    ) -> None:
        self.rests: dict[int, tuple[int, ...]] = {}
        self.lands: dict[tuple[int, int], tuple[int, ...]] = {}
        self.trades: dict[int, tuple[int, ...]] = {}
        terrain, board, pieces = pos.terrain, pos.board, pos.pieces
        adj = neighbours(pos.size)
        plain = not (terrain.water or terrain.hills)
        origin, side = piece.sq, piece.side
        if plain:
            self._plain(pos, piece, base, jump, ghost)
            return
        max_steps = base + (1 if terrain.hills else 0)
        paths: dict[tuple[int, bool, bool], tuple[int, ...]] = {(origin, False, False): ()}
        frontier = [(origin, False, False)]
        for steps in range(1, max_steps + 1):
            following = []
            for state in frontier:
                here, pen, down = state
                path = paths[state]
                for there in adj[here]:
                    if plain:
                        npen, ndown = False, False
                    else:
                        step_pen, step_down = terrain.step(here, there)
                        npen, ndown = pen or step_pen, down or step_down
                    legal = steps <= max(1, base + ndown - npen)
                    key = (there, npen, ndown)
                    pid = None if ghost else board.get(there)
                    if pid is None or there == origin:
                        if legal and there != origin and there not in self.rests:
                            self.rests[there] = (*path, there)
                        passable = True
                    else:
                        occupant = pieces[pid]
                        blocker = occupant.kind == SOLDIER and occupant.defending
                        if occupant.side == side:
                            passable = jump and not blocker
                        elif jump and blocker:
                            if legal and there not in self.trades:
                                self.trades[there] = (*path, there)
                            passable = False
                        else:
                            if legal and (there, here) not in self.lands:
                                self.lands[there, here] = (*path, there)
                            passable = jump
                    if passable and key not in paths:
                        paths[key] = (*path, there)
                        following.append(key)
            frontier = following

    def _plain(self, pos: Position, piece: Piece, base: int, jump: bool, ghost: bool) -> None:
        """The same search without terrain: every step costs one, so a square's state is the
        square alone and every path within ``base`` steps is legal. An empty square is a
        rest the first time it is met, and only then entered further (``paths``)."""
        board, pieces, adj = pos.board, pos.pieces, neighbours(pos.size)
        origin, side = piece.sq, piece.side
        rests, lands, trades = self.rests, self.lands, self.trades
        paths: dict[int, tuple[int, ...]] = {origin: ()}
        frontier = [origin]
        for _steps in range(base):
            following = []
            for here in frontier:
                path = paths[here]
                for there in adj[here]:
                    if there in paths:
                        if ghost:
                            continue
                        pid = board.get(there)
                        if pid is None or there == origin:
                            continue  # an empty square met before: its rest is known
                        # only a jumper re-meets an occupied square: an enemy it could pass
                        if pieces[pid].side != side and (there, here) not in lands:
                            lands[there, here] = (*path, there)
                        continue
                    pid = None if ghost else board.get(there)
                    if pid is None:
                        rests[there] = paths[there] = (*path, there)
                        following.append(there)
                        continue
                    occupant = pieces[pid]
                    blocker = occupant.kind == SOLDIER and occupant.defending
                    if occupant.side == side:
                        passable = jump and not blocker
                    elif jump and blocker:
                        if there not in trades:
                            trades[there] = (*path, there)
                        passable = False
                    else:
                        if (there, here) not in lands:
                            lands[there, here] = (*path, there)
                        passable = jump
                    if passable:
                        paths[there] = (*path, there)
                        following.append(there)
            frontier = following
