"""The numbers the search weighs a position by, in centi-Swallows (a Swallow on the board is
100): piece values on the board and in hand, piece-square tables, and the Zobrist keys that
name a position (board, hands, side to move) for the transposition table and repetition.

The values are ours, not a published table: the promoted birds are the strong pieces (the
Eagle slides three ways), a piece in hand is worth a tenth more than on the board (it can
drop anywhere), and the Swallow and Falcon gain as they near the promotion zone (TS5), where
the next move makes them a Goose or an Eagle. Every table is indexed by piece code and
square (``rules.torishogi.pieces``), signed for the Challenger (side 0): an Opposition
piece's entry is the negated entry of the Challenger's on the square turned half round.
"""

from __future__ import annotations

import random

from rules.torishogi import (
    CRANE,
    EAGLE,
    FALCON,
    GOOSE,
    HAND_KINDS,
    LEFT_QUAIL,
    PHEASANT,
    PHOENIX,
    RIGHT_QUAIL,
    SIZE,
    SQUARES,
    SWALLOW,
    code,
)

VALUE = {
    SWALLOW: 100,
    PHEASANT: 260,
    CRANE: 400,
    LEFT_QUAIL: 420,
    RIGHT_QUAIL: 420,
    FALCON: 520,
    GOOSE: 330,
    EAGLE: 1050,
    PHOENIX: 0,
}
HAND_SHARE = 1.1  # a piece in hand against the same piece on the board
HAND_VALUE = {kind: round(VALUE[kind] * HAND_SHARE) for kind in HAND_KINDS}

# Bonus by rank counted from the owner's side (0 its back rank, 6 the far one).
_SWALLOW_RANKS = (0, 0, 6, 14, 30, 45, 0)  # rank 4: next step promotes; 5: dropped in the zone
_FALCON_RANKS = (-10, 0, 6, 14, 30, 40, 40)  # the Eagle is twice the Falcon
_PHOENIX_RANKS = (20, 10, -15, -35, -50, -60, -60)  # the Phoenix is safest at home
_CENTRE_FILES = (-6, 0, 4, 6, 4, 0, -6)


def _own_table(kind: int) -> list[int]:
    """The bonus of a Challenger piece of ``kind`` on each square (rank 0 its back rank)."""
    out = []
    for sq in SQUARES:
        rank, file = divmod(sq, SIZE)
        if kind == SWALLOW:
            bonus = _SWALLOW_RANKS[rank]
        elif kind == FALCON:
            bonus = _FALCON_RANKS[rank] + _CENTRE_FILES[file]
        elif kind == PHOENIX:
            bonus = _PHOENIX_RANKS[rank] + _CENTRE_FILES[file] // 2
        else:
            bonus = _CENTRE_FILES[file] + min(rank, 4) * 3
        out.append(VALUE[kind] + bonus)
    return out


def _signed_tables() -> list[list[int]]:
    """PSQ[code][sq]: value and bonus of the piece ``code`` on ``sq``, for the Challenger."""
    tables = [[0] * len(SQUARES) for _ in range(32)]
    for kind in VALUE:
        own = _own_table(kind)
        for sq in SQUARES:
            tables[code(kind, 0)][sq] = own[sq]
            tables[code(kind, 1)][sq] = -own[len(SQUARES) - 1 - sq]
    return tables


PSQ = _signed_tables()
# HANDV[side][kind]: one piece of ``kind`` in ``side``'s hand, for the Challenger.
HANDV = [[(1 - 2 * side) * HAND_VALUE.get(kind, 0) for kind in range(7)] for side in (0, 1)]

_KEYS = random.Random(20_261_126)  # fixed: the same position has the same key in every process
MAX_HELD = 20  # a hand may hold up to 16 Swallows
ZSQ = [[0 if c == 0 else _KEYS.getrandbits(64) for _sq in SQUARES] for c in range(32)]
# ZHAND[side][kind][count]: 0 for an empty slot, so an empty hand adds nothing.
ZHAND = [
    [[0] + [_KEYS.getrandbits(64) for _n in range(MAX_HELD)] for _kind in range(7)]
    for _side in (0, 1)
]
ZSIDE = _KEYS.getrandbits(64)


def zobrist(board: bytes | list[int], hands: list[list[int]], side: int) -> int:
    """The key of a position computed from scratch (the search updates it move by move)."""
    key = ZSIDE if side else 0
    for sq, piece in enumerate(board):
        if piece:
            key ^= ZSQ[piece][sq]
    for who in (0, 1):
        for kind, count in enumerate(hands[who]):
            key ^= ZHAND[who][kind][count]
    return key


def material(board: bytes | list[int], hands: list[list[int]]) -> int:
    """Values and square bonuses on the board and in hand, for the Challenger, from scratch."""
    total = sum(PSQ[piece][sq] for sq, piece in enumerate(board) if piece)
    for who in (0, 1):
        total += sum(HANDV[who][kind] * count for kind, count in enumerate(hands[who]))
    return total
