"""The moves quiescence looks at (``noisy``): the legal captures and promotions of a side not
in check, without the drops and quiet moves a full generation spends most of its time on,
and what each wins (``tactical``, by MVV-LVA, which move ordering uses too).

As ``rules.torishogi.movegen.legal_moves`` does: the pinned pieces are found once from the
Phoenix, a pinned piece keeps to its line, and only the Phoenix's own captures are tested
square by square."""

from __future__ import annotations

from rules.torishogi import (
    DROP,
    LEAP_MOVES,
    MINE,
    PHOENIX,
    PROMOTES,
    PROMOTES_TO,
    RAY_MOVES,
    Position,
    attacked,
    checkers_and_pins,
)

from .tables import VALUE

DELTA = 150  # what a capture may bring besides its piece (the square bonuses, the hand)
UNEVEN = 50  # a capture by a piece worth this much more than its victim risks the difference
VALUE_OF = [VALUE.get(kind, 0) for kind in range(16)]
GAIN = [0] * 16  # what a promotion adds
for _base, _promoted in PROMOTES_TO.items():
    GAIN[_base] = VALUE[_promoted] - VALUE[_base]


def tactical(board: list[int], move: int) -> int:
    """What a capture or promotion wins by MVV-LVA (0 for a quiet move or a drop): 16 times
    the victim's value and the promotion's gain, less a sixteenth of the attacker's."""
    origin = move >> 6 & 63
    if origin >= DROP:
        return 0
    victim = board[move & 63]
    gain = VALUE_OF[victim & 15] * 16 if victim else 0
    if move & PROMOTES:
        gain += GAIN[board[origin] & 15] * 16
    if not gain:
        return 0
    return gain + 16 - VALUE_OF[board[origin] & 15] // 100


def noisy(pos: Position, stand: int, alpha: int) -> list[int]:
    """The captures and promotions worth a look when the side to move stands at ``stand``:
    not one that could not reach ``alpha`` even if the piece taken were free, nor one that
    gives a bigger piece for a defended smaller one; the biggest gain first."""
    board = pos.board
    them = pos.side ^ 1
    scored = []
    for move in captures(pos):
        gain = tactical(board, move)
        if stand + gain // 16 + DELTA <= alpha:
            continue
        to = move & 63
        attacker = VALUE_OF[board[move >> 6 & 63] & 15]
        if attacker > VALUE_OF[board[to] & 15] + UNEVEN and attacked(board, to, them):
            continue
        scored.append((gain, move))
    scored.sort(reverse=True)
    return [move for _gain, move in scored]


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
