"""The seven bird pieces and two promoted ones (TS3), and their precomputed move tables.

A piece on the board is a small integer, its *code*: ``kind | side << 4`` (Challenger pieces
1..9, Opposition pieces 17..25, 0 an empty square). Every table is indexed by code and square,
so move generation never computes a direction at run time.

Moves are given for the Challenger, who moves up the board; the Opposition's are the same
turned half round (Fairy-Stockfish turns its pieces the same way, so a Left Quail stays on its
owner's left).
"""

from __future__ import annotations

from .board import SIZE, SQUARES, shift

SWALLOW, FALCON, CRANE, PHEASANT, LEFT_QUAIL, RIGHT_QUAIL, PHOENIX, GOOSE, EAGLE = range(1, 10)
KINDS = (SWALLOW, FALCON, CRANE, PHEASANT, LEFT_QUAIL, RIGHT_QUAIL, PHOENIX, GOOSE, EAGLE)
HAND_KINDS = (SWALLOW, FALCON, CRANE, PHEASANT, LEFT_QUAIL, RIGHT_QUAIL)
# The order Fairy-Stockfish writes a hand in (its piece types from the highest down).
FEN_HAND_ORDER = (PHEASANT, RIGHT_QUAIL, LEFT_QUAIL, CRANE, FALCON, SWALLOW)

NAME = {
    SWALLOW: "Swallow",
    FALCON: "Falcon",
    CRANE: "Crane",
    PHEASANT: "Pheasant",
    LEFT_QUAIL: "Left Quail",
    RIGHT_QUAIL: "Right Quail",
    PHOENIX: "Phoenix",
    GOOSE: "Goose",
    EAGLE: "Eagle",
}
PLURAL = {kind: NAME[kind] + "s" for kind in KINDS}
SHORT = {
    SWALLOW: "Sw",
    FALCON: "Fa",
    CRANE: "Cr",
    PHEASANT: "Pt",
    LEFT_QUAIL: "LQ",
    RIGHT_QUAIL: "RQ",
    PHOENIX: "Ph",
    GOOSE: "Go",
    EAGLE: "Ea",
}
# FEN letters (upper case for the Challenger); the promoted pieces are "+" and their base.
LETTER = {
    SWALLOW: "S",
    FALCON: "F",
    CRANE: "C",
    PHEASANT: "P",
    LEFT_QUAIL: "L",
    RIGHT_QUAIL: "R",
    PHOENIX: "K",
    GOOSE: "+S",
    EAGLE: "+F",
}
# What else players call a piece: the rule text's diagram labels where the tiles show other
# letters (Ql, Qr, +Sw, +Fa), and "The Phoenix is the King in ToriShogi".
OTHER_NAMES = {
    PHOENIX: ("king",),
    LEFT_QUAIL: ("ql",),
    RIGHT_QUAIL: ("qr",),
    GOOSE: ("+sw",),
    EAGLE: ("+fa",),
}
# Every word a piece answers to besides its name and its tile's letters (SHORT): its letter in
# the rule book and the FEN, and its other names. Both a typed move and the menus' search read
# them, so that a name found in one works in the other.
ALIASES = {kind: (LETTER[kind], *OTHER_NAMES.get(kind, ())) for kind in KINDS}
KIND_OF_LETTER = {LETTER[kind]: kind for kind in (*HAND_KINDS, PHOENIX)}
PROMOTES_TO = {SWALLOW: GOOSE, FALCON: EAGLE}
BASE = {kind: kind for kind in KINDS} | {GOOSE: SWALLOW, EAGLE: FALCON}
# How many of each kind the set holds (a position with more is nonsense).
SET_COUNT = {SWALLOW: 16, FALCON: 2, CRANE: 4, PHEASANT: 4, LEFT_QUAIL: 2, RIGHT_QUAIL: 2}

SLIDE = SIZE - 1
_KING = {(dx, dy): 1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}
# (dx, dy) -> how far: 1 is a single step or a jump, more is a slide (blocked by any piece).
MOVES: dict[int, dict[tuple[int, int], int]] = {
    SWALLOW: {(0, 1): 1},
    FALCON: {d: 1 for d in _KING if d != (0, -1)},
    CRANE: {(-1, -1): 1, (1, -1): 1, (-1, 1): 1, (1, 1): 1, (0, 1): 1, (0, -1): 1},
    PHEASANT: {(0, 2): 1, (-1, -1): 1, (1, -1): 1},
    LEFT_QUAIL: {(0, 1): SLIDE, (1, -1): SLIDE, (-1, -1): 1},
    RIGHT_QUAIL: {(0, 1): SLIDE, (-1, -1): SLIDE, (1, -1): 1},
    PHOENIX: dict(_KING),
    GOOSE: {(-2, 2): 1, (2, 2): 1, (0, -2): 1},
    EAGLE: _KING | {(0, -1): SLIDE, (-1, 1): SLIDE, (1, 1): SLIDE, (-1, -1): 2, (1, -1): 2},
}
# The eight directions, as (dx, dy), in a fixed order.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

CODES = range(32)


def code(kind: int, side: int) -> int:
    return kind | side << 4


def side_of(piece: int) -> int:
    return piece >> 4


def kind_of(piece: int) -> int:
    return piece & 15


def _oriented(side: int, kind: int) -> dict[tuple[int, int], int]:
    sign = 1 if side == 0 else -1
    return {(dx * sign, dy * sign): reach for (dx, dy), reach in MOVES[kind].items()}


def _ray(sq: int, dx: int, dy: int, reach: int) -> tuple[int, ...]:
    out: list[int] = []
    at = sq
    for _ in range(reach):
        step = shift(at, dx, dy)
        if step is None:
            break
        out.append(step)
        at = step
    return tuple(out)


Leaps = list[list[tuple[int, ...]]]
Rays = list[list[tuple[tuple[int, ...], ...]]]


def _tables() -> tuple[Leaps, Rays]:
    """LEAPS[code][sq]: the squares a step or jump reaches (not blocked); RAYS[code][sq]: the
    slides, each a tuple of squares in order (stopped by the first piece)."""
    leaps: Leaps = [[()] * (SIZE * SIZE) for _ in CODES]
    rays: Rays = [[()] * (SIZE * SIZE) for _ in CODES]
    for side in (0, 1):
        for kind in KINDS:
            c = code(kind, side)
            moves = _oriented(side, kind)
            for sq in SQUARES:
                leaps[c][sq] = tuple(
                    to
                    for (dx, dy), reach in moves.items()
                    if reach == 1 and (to := shift(sq, dx, dy)) is not None
                )
                rays[c][sq] = tuple(
                    ray
                    for (dx, dy), reach in moves.items()
                    if reach > 1 and (ray := _ray(sq, dx, dy, reach))
                )
    return leaps, rays


LEAPS, RAYS = _tables()


def _leap_attackers() -> list[list[tuple[tuple[int, int], ...]]]:
    """LEAP_ATTACKERS[side][sq]: (from square, bit mask of the codes of ``side`` whose step or
    jump from there reaches ``sq``); a piece attacks when ``mask >> board[from] & 1``."""
    out = []
    for side in (0, 1):
        per_square: list[dict[int, int]] = [{} for _ in SQUARES]
        for kind in KINDS:
            c = code(kind, side)
            for frm in SQUARES:
                for to in LEAPS[c][frm]:
                    per_square[to][frm] = per_square[to].get(frm, 0) | 1 << c
        out.append([tuple(sorted(d.items())) for d in per_square])
    return out


def _ray_masks() -> list[list[tuple[int, ...]]]:
    """RAY_MASKS[side][direction][n]: bit mask of the codes of ``side`` that attack a square
    by sliding from n + 1 squares away in ``direction`` from it (moving the opposite way)."""
    out = []
    for side in (0, 1):
        per_direction = []
        for dx, dy in DIRECTIONS:
            masks = [0] * SLIDE
            for kind in KINDS:
                reach = _oriented(side, kind).get((-dx, -dy), 0)
                if reach > 1:
                    for n in range(min(reach, SLIDE)):
                        masks[n] |= 1 << code(kind, side)
            per_direction.append(tuple(masks))
        out.append(per_direction)
    return out


LEAP_ATTACKERS = _leap_attackers()
RAY_MASKS = _ray_masks()
# OUT_RAYS[sq][direction]: the squares from ``sq`` outwards to the edge.
OUT_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, dx, dy, SLIDE) for dx, dy in DIRECTIONS) for sq in SQUARES
)
# The directions in which some piece of the attacking side can slide onto a square.
SLIDING_DIRECTIONS: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(i for i in range(8) if any(RAY_MASKS[side][i])) for side in (0, 1)
)
