"""The armies set up for a new game (R4, R5, R41): each side's deployment of ``layouts`` on a
fresh position, and the hidden Assassins on the squares their owners chose."""

from __future__ import annotations

from ..sides import Side
from .geometry import square
from .layouts import LONG_SETUPS, SHORT_SETUPS
from .options import Options
from .pieces import ASSASSIN, Piece
from .position import Position
from .terrain import Terrain


def deploy(
    options: Options,
    terrain: Terrain,
    assassins: tuple[int, int] = (0, 0),
    score: tuple[int, int] = (0, 0),
) -> Position:
    """A new game's position, the Challenger to act next; ``assassins`` are each side's
    Assassin start square (0: none fielded); ``score`` carries over in a series (R28)."""
    pos = Position(terrain, options.assassins)
    pos.score = list(score)
    pos.target = options.target
    size = pos.size
    layouts = LONG_SETUPS if pos.long else SHORT_SETUPS
    pid = 1
    for side in Side:
        for letter, h, v in layouts[options.strategies[side]]:
            if side == Side.OPPOSITION:
                h, v = size + 1 - h, size + 1 - v
            pos.place(Piece(pid, side, letter, square(h, v)))
            pid += 1
    first = max(pos.pieces) + 1  # each side's own id, fielded or not: ids tell nothing
    for side in Side:
        if assassins[side]:
            pos.place(Piece(first + side, side, ASSASSIN, assassins[side], hidden=True))
    return pos
