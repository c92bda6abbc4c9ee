"""Bitboards: sets of squares as Python ints, bit ``sq`` for square ``sq`` (``h << 5 | v``).

The packing leaves the columns v=0 and v>=18 off the board, so a king step is a shift by 1
(v) or 32 (h) and one mask drops whatever left the board: growing a set of squares by one
step, for every square at once, costs a few big-int operations instead of a loop.
"""

from __future__ import annotations

from functools import cache

from .geometry import on_board


@cache
def inside(size: int) -> int:
    """Every square of the board."""
    return mask(on_board(size))


def mask(squares: object) -> int:
    out = 0
    for sq in squares:  # type: ignore[attr-defined]
        out |= 1 << sq
    return out


def grow(x: int, board: int) -> int:
    """The squares within one king step of ``x`` (``x`` included), on the board."""
    y = x | (x << 1) | (x >> 1)
    return (y | (y << 32) | (y >> 32)) & board


@cache
def ring(size: int, centre: int, radius: int) -> int:
    """The squares exactly ``radius`` king steps from ``centre``."""
    board = inside(size)
    ball, edge = 1 << centre, 1 << centre
    for _ in range(radius):
        wider = grow(ball, board)
        edge, ball = wider & ~ball, wider
    return edge


@cache
def ball(size: int, centre: int, radius: int) -> int:
    """The squares within ``radius`` king steps of ``centre``."""
    board = inside(size)
    out = 1 << centre
    for _ in range(radius):
        out = grow(out, board)
    return out


def spread(start: int, open_: int, steps: int, board: int) -> int:
    """The squares reached from ``start`` by at most ``steps`` king steps, each step ending
    on a square of ``open_`` (``start`` is always kept)."""
    reached = start
    for _ in range(steps):
        wider = reached | (grow(reached, board) & open_)
        if wider == reached:
            break
        reached = wider
    return reached


def squares_of(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out
