"""The legal captures and promotions of a side not in check, without the drops and quiet
moves a full generation spends most of its time on (quiescence needs only these).

As ``rules.torishogi.movegen.legal_moves`` does: the pinned pieces are found once from the
Phoenix, a pinned piece keeps to its line, and only the Phoenix's own captures are tested
square by square."""

from __future__ import annotations

from rules.torishogi.movegen import LEAP_MOVES, MINE, RAY_MOVES, attacked, checkers_and_pins
from rules.torishogi.moves import PROMOTES
from rules.torishogi.pieces import PHOENIX
from rules.torishogi.position import Position


def captures(pos: Position) -> list[int]:
    """Every legal capture or promotion of the side to move, who must not be in check."""
    board = pos.board
    us = pos.side
    mine = MINE[us]
    king = pos.kings[us]
    _checkers, _block, pins = checkers_and_pins(board, king, us)
    found: list[int] = []
    for sq, piece in enumerate(board):
        if not piece or not mine[piece]:
            continue
        if piece & 15 == PHOENIX:
            _king_captures(board, sq, piece, us, found)
            continue
        allowed = pins.get(sq)
        for to, move in LEAP_MOVES[piece][sq]:
            target = board[to]
            wins = (target and not mine[target]) or (not target and move & PROMOTES)
            if wins and (allowed is None or to in allowed):
                found.append(move)
        for ray in RAY_MOVES[piece][sq]:
            for to, move in ray:
                target = board[to]
                if target:
                    if not mine[target] and (allowed is None or to in allowed):
                        found.append(move)
                    break
                if move & PROMOTES and (allowed is None or to in allowed):
                    found.append(move)
    return found


def _king_captures(board: list[int], king: int, piece: int, us: int, found: list[int]) -> None:
    them = us ^ 1
    board[king] = 0
    for to, move in LEAP_MOVES[piece][king]:
        target = board[to]
        if target and not MINE[us][target] and not attacked(board, to, them):
            found.append(move)
    board[king] = piece
