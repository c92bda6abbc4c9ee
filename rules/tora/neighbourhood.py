"""What the actions of one piece depend on (``movegen.piece_actions`` keeps its lists by it):
on a board without water or high ground, only the squares within the piece's reach, and for
a Cannon its lines and its neighbours. Two positions that agree on these give the piece the
same actions, so a search over positions a move or two apart lists most of them once."""

from __future__ import annotations

from functools import cache

from .bits import ball, squares_of
from .geometry import DELTAS, on_board
from .pieces import ARCHER, ASSASSIN, CAVALRY, GENERAL, RULER, SOLDIER, Piece
from .position import Position

# How far from its square what a piece can do is decided, on a board without water or high
# ground: its longest move and the attack after it (R13-R18, R42 revealed).
_DECIDED_WITHIN = {GENERAL: 3, RULER: 5, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, ASSASSIN: 4}


def piece_key(pos: Position, piece: Piece) -> tuple[object, ...]:
    """What the actions of a visible piece but a Cannon read, once it may act: the piece
    itself, whether it has attacked this turn, the forests (an Archer's shots), and within
    its reach which squares hold its own pieces, which hold defending Soldiers (either
    side's), and the enemy pieces there (their ids are in the effects, their kinds decide
    landings). Nothing else on the board matters."""
    area = ball(pos.size, piece.sq, _DECIDED_WITHIN[piece.kind])
    enemy = pos.side_bits[1 - piece.side] & area
    pieces, board = pos.pieces, pos.board
    return (
        piece,
        pos.size,
        pos.terrain.forest,
        piece.id in pos.attacked,
        pos.side_bits[piece.side] & area,
        pos.guards & area,
        tuple(pieces[board[sq]] for sq in squares_of(enemy)) if enemy else (),
    )


def cannon_key(pos: Position, cannon: Piece, every_support: bool) -> tuple[object, ...]:
    """``piece_key`` of a Cannon (R19-R22): its lines of fire (whose first piece it hits or
    is stopped by; they hold the squares it steps to), and the pieces that may support it,
    whether spent and whether operated this turn (the engine's choice of supporters; their
    values follow ``pos.assassins``)."""
    near = ball(pos.size, cannon.sq, 1)
    lines = _lines(pos.size, cannon.sq)
    own = pos.side_bits[cannon.side]
    enemy = pos.side_bits[1 - cannon.side] & lines
    pieces, board, spent, operated = pos.pieces, pos.board, pos.spent, pos.operated
    supporters = tuple(
        (p, p.id in spent, p.id in operated)
        for p in (pieces[board[sq]] for sq in squares_of(own & near))
    )
    return (
        cannon,
        every_support,
        pos.size,
        pos.assassins,
        own & lines,
        tuple(pieces[board[sq]] for sq in squares_of(enemy)) if enemy else (),
        supporters,
    )


@cache
def _lines(size: int, frm: int) -> int:
    """The 8 lines leaving ``frm``, up to the edges, as a bitboard."""
    inside = on_board(size)
    out = 0
    for delta in DELTAS:
        sq = frm + delta
        while sq in inside:
            out |= 1 << sq
            sq += delta
    return out
