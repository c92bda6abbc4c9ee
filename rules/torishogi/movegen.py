"""Legal move generation (TS3-TS8): pins and checkers first, then only legal moves.

The Phoenix's checkers and the pieces pinned to it are found by looking outwards from the
Phoenix once; then every move of an unpinned piece out of check is legal as generated, a
pinned piece keeps to its line, and only the Phoenix's own steps are tested square by square.
The one expensive rule, no Swallow drop may mate (TS7), is tested only for the single square
where a dropped Swallow would give check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .board import LAST_RANK, SIZE, SQUARES, ZONE
from .moves import DROP, PROMOTES, encode
from .pieces import (
    CODES,
    HAND_KINDS,
    LEAP_ATTACKERS,
    LEAPS,
    OUT_RAYS,
    PROMOTES_TO,
    RAY_MASKS,
    RAYS,
    SLIDING_DIRECTIONS,
    SWALLOW,
    code,
    side_of,
)
from .position import PROMOTED, Position

# MINE[side][code]: the piece belongs to ``side`` (never true for an empty square).
MINE: tuple[tuple[bool, ...], tuple[bool, ...]] = (
    tuple(0 < c < 16 for c in CODES),
    tuple(c > 16 for c in CODES),
)


def _encoded(c: int, frm: int, to: int) -> int:
    zone = ZONE[side_of(c)]
    return encode(frm, to, c & 15 in PROMOTES_TO and (frm in zone or to in zone))


# Every step and slide with its encoded move (promotion already decided, TS5):
# LEAP_MOVES[code][sq] = ((to, move), ...); RAY_MOVES[code][sq] = (((to, move), ...), ...).
LEAP_MOVES = [
    [tuple((to, _encoded(c, sq, to)) for to in LEAPS[c][sq]) for sq in SQUARES] for c in CODES
]
RAY_MOVES = [
    [tuple(tuple((to, _encoded(c, sq, to)) for to in ray) for ray in RAYS[c][sq]) for sq in SQUARES]
    for c in CODES
]
# Where a Swallow of ``side`` may be dropped at all (TS6), and the square it attacks.
SWALLOW_DROP_SQUARES = tuple(frozenset(SQUARES) - LAST_RANK[side] for side in (0, 1))
FORWARD = (SIZE, -SIZE)


def attacked(board: list[int], sq: int, by: int) -> bool:
    """Whether a piece of side ``by`` attacks ``sq`` on ``board``."""
    for frm, mask in LEAP_ATTACKERS[by][sq]:
        if mask >> board[frm] & 1:
            return True
    out = OUT_RAYS[sq]
    masks_by = RAY_MASKS[by]
    for d in SLIDING_DIRECTIONS[by]:
        masks = masks_by[d]
        for n, frm in enumerate(out[d]):
            piece = board[frm]
            if piece:
                if masks[n] >> piece & 1:
                    return True
                break
    return False


def in_check(pos: Position) -> bool:
    """Whether the side to move's Phoenix is attacked."""
    return attacked(pos.board, pos.kings[pos.side], pos.side ^ 1)


def checking(pos: Position, moves: Iterable[int]) -> set[int]:
    """Those of ``moves`` (legal, encoded) that check the opponent's Phoenix. The squares
    from which each piece would attack it are found once, looking outwards from it; a move
    checks directly when its piece, as it lands (promoted, or dropped), is one of those on its
    target. A piece that is the first on one of the Phoenix's lines may also uncover a check
    by leaving it (or slide along it): only its moves are played out, on a copy of the board."""
    board = pos.board
    us = pos.side
    king = pos.kings[us ^ 1]
    attackers = dict(LEAP_ATTACKERS[us][king])  # square -> codes that attack from there
    first: set[int] = set()
    out = OUT_RAYS[king]
    masks_us = RAY_MASKS[us]
    for d in SLIDING_DIRECTIONS[us]:
        masks = masks_us[d]
        for n, sq in enumerate(out[d]):
            attackers[sq] = attackers.get(sq, 0) | masks[n]
            if board[sq]:
                first.add(sq)
                break
    found: set[int] = set()
    scratch: list[int] | None = None
    for move in moves:
        origin, to = move >> 6 & 63, move & 63
        piece = origin - DROP | us << 4 if origin >= DROP else board[origin]
        landed = PROMOTED[piece] if move & PROMOTES else piece
        if origin in first:
            scratch = list(board) if scratch is None else scratch
            taken = scratch[to]
            scratch[origin], scratch[to] = 0, landed
            if attacked(scratch, king, us):
                found.add(move)
            scratch[origin], scratch[to] = piece, taken
        elif attackers.get(to, 0) >> landed & 1:
            found.add(move)
    return found


def checkers_and_pins(
    board: list[int], king: int, us: int
) -> tuple[list[int], tuple[int, ...], dict[int, frozenset[int]]]:
    """The squares of the pieces checking ``us``'s Phoenix on ``king``; the squares between
    it and a single sliding checker (where a block helps); and for each pinned piece of
    ``us`` the squares it may still move to (its line up to and including the pinner)."""
    them = us ^ 1
    mine = MINE[us]
    checkers = [frm for frm, mask in LEAP_ATTACKERS[them][king] if mask >> board[frm] & 1]
    block: tuple[int, ...] = ()
    pins: dict[int, frozenset[int]] = {}
    out = OUT_RAYS[king]
    masks_them = RAY_MASKS[them]
    for d in SLIDING_DIRECTIONS[them]:
        masks = masks_them[d]
        ray = out[d]
        pinned = -1
        for n, frm in enumerate(ray):
            piece = board[frm]
            if not piece:
                continue
            if mine[piece]:
                if pinned >= 0:
                    break
                pinned = frm
                continue
            if masks[n] >> piece & 1:
                if pinned < 0:
                    checkers.append(frm)
                    block = ray[:n]
                else:
                    pins[pinned] = frozenset(ray[: n + 1])
            break
    return checkers, block, pins


def legal_moves(pos: Position) -> list[int]:
    """Every legal move of the side to move, encoded (see ``moves``), in a fixed order:
    board moves square by square, then drops kind by kind."""
    board = pos.board
    us = pos.side
    them = us ^ 1
    mine = MINE[us]
    king = pos.kings[us]
    checkers, block, pins = checkers_and_pins(board, king, us)
    moves: list[int] = []
    append = moves.append

    king_code = board[king]
    board[king] = 0
    for to, move in LEAP_MOVES[king_code][king]:
        if not mine[board[to]] and not attacked(board, to, them):
            append(move)
    board[king] = king_code
    if len(checkers) > 1:
        return moves

    evasions = frozenset(block).union(checkers) if checkers else None
    own: list[int] = []
    empties: list[int] = []
    swallows_on_file = [0] * SIZE
    own_swallow = code(SWALLOW, us)
    for sq in SQUARES:
        piece = board[sq]
        if not piece:
            empties.append(sq)
        elif mine[piece]:
            if sq != king:
                own.append(sq)
            if piece == own_swallow:
                swallows_on_file[sq % SIZE] += 1

    for sq in own:
        piece = board[sq]
        allowed = pins.get(sq)
        if evasions is not None:
            allowed = evasions if allowed is None else allowed & evasions
        if allowed is None:
            for to, move in LEAP_MOVES[piece][sq]:
                if not mine[board[to]]:
                    append(move)
            for ray in RAY_MOVES[piece][sq]:
                for to, move in ray:
                    target = board[to]
                    if target:
                        if not mine[target]:
                            append(move)
                        break
                    append(move)
        elif allowed:
            for to, move in LEAP_MOVES[piece][sq]:
                if to in allowed and not mine[board[to]]:
                    append(move)
            for ray in RAY_MOVES[piece][sq]:
                for to, move in ray:
                    target = board[to]
                    if to in allowed and not mine[target]:
                        append(move)
                    if target:
                        break

    hand = pos.hands[us]
    if any(hand):
        targets = empties if evasions is None else list(block)
        _drops(pos, hand, targets, swallows_on_file, append)
    return moves


def _drops(
    pos: Position,
    hand: list[int],
    targets: list[int],
    swallows_on_file: list[int],
    append: Callable[[int], None],
) -> None:
    """TS4, TS6, TS7: any piece in hand on any empty square, but a Swallow never on its last
    rank, never as the third unpromoted Swallow of its owner on a file, and never to mate."""
    us = pos.side
    for kind in HAND_KINDS:
        if not hand[kind]:
            continue
        base = (DROP + kind) << 6
        if kind != SWALLOW:
            for to in targets:
                append(base | to)
            continue
        allowed = SWALLOW_DROP_SQUARES[us]
        checking = pos.kings[us ^ 1] - FORWARD[us]
        for to in targets:
            if to in allowed and swallows_on_file[to % SIZE] < 2:
                if to == checking and _mates(pos, base | to):
                    continue
                append(base | to)


def mating(pos: Position, moves: Iterable[int]) -> set[int]:
    """Those of ``moves`` (legal, encoded; the checking ones, for speed) after which the
    opponent has no legal move (TS9), played out on a copy: threads may read ``pos``."""
    scratch = pos.copy()
    return {move for move in moves if _mates(scratch, move)}


def _mates(pos: Position, move: int) -> bool:
    token = pos.make(move)
    mated = not legal_moves(pos)
    pos.unmake(move, token)
    return mated


def reaches(board: list[int], frm: int, to: int) -> bool:
    """Whether the piece on ``frm`` moves to ``to`` by its pattern (TS3), ignoring what is on
    ``to`` and whether the move is legal: for telling a player why a move is refused."""
    piece = board[frm]
    if to in LEAPS[piece][frm]:
        return True
    for ray in RAYS[piece][frm]:
        for sq in ray:
            if sq == to:
                return True
            if board[sq]:
                break
    return False
