"""Board geometry (R1-R3): square encoding, directions, distances, square notation.

A square ``(h, v)`` is packed into one int, ``h << 5 | v``, so that stepping in a direction is a
single addition and squares are cheap dict keys. ``h`` counts from the Opposition's home edge
(h=1) to the Challenger's (h=N); ``v`` counts across. N means v+1 and E means h+1 (R51).
"""

from __future__ import annotations

import re
from functools import cache

from ..errors import echo
from ..words import msg

SHORT, LONG = "short", "long"
BOARD_SIZES = {SHORT: 9, LONG: 17}

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DELTAS = tuple((dh << 5) + dv for dh, dv in DIRECTION_VECTORS)


def square(h: int, v: int) -> int:
    return (h << 5) | v


def h_of(sq: int) -> int:
    return sq >> 5


def v_of(sq: int) -> int:
    return sq & 31


def distance(a: int, b: int) -> int:
    """Chebyshev distance: the number of king steps between two squares (R3)."""
    return max(abs((a >> 5) - (b >> 5)), abs((a & 31) - (b & 31)))


def name(sq: int) -> str:
    """Canonical short form of a square, vertical first (R2): ``v5h7``."""
    return f"v{sq & 31}h{sq >> 5}"


def mirror(sq: int, size: int) -> int:
    """The square rotated 180 degrees about the board centre."""
    return square(size + 1 - (sq >> 5), size + 1 - (sq & 31))


@cache
def squares(size: int) -> tuple[int, ...]:
    """Every square of a board, ordered by v then h (reading order of R2's diagrams)."""
    return tuple(square(h, v) for v in range(1, size + 1) for h in range(1, size + 1))


@cache
def on_board(size: int) -> frozenset[int]:
    return frozenset(squares(size))


@cache
def distances(frm: int) -> tuple[int, ...]:
    """``distances(a)[b] == distance(a, b)`` for every packed square ``b`` of either board:
    a table the searches index instead of calling ``distance`` in their inner loops."""
    h, v = frm >> 5, frm & 31
    across = [abs(v - y) for y in range(32)]
    return tuple(dh if dh > dv else dv for dh in [abs(h - x) for x in range(18)] for dv in across)


@cache
def neighbours(size: int) -> dict[int, tuple[int, ...]]:
    """For each square, its king-adjacent squares on the board, in direction order."""
    inside = on_board(size)
    return {sq: tuple(sq + d for d in DELTAS if sq + d in inside) for sq in squares(size)}


@cache
def middles(size: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Squares an attack of reach 2 may pass over (R17), keyed by (from, to).

    Straight and diagonal shots have one middle square; a knight-step shot has two.
    """
    table: dict[tuple[int, int], tuple[int, ...]] = {}
    inside = on_board(size)
    for a in squares(size):
        for dh in range(-2, 3):
            for dv in range(-2, 3):
                b = a + (dh << 5) + dv
                if max(abs(dh), abs(dv)) == 2 and b in inside:
                    table[a, b] = tuple(
                        a + (mh << 5) + mv for mh in _halfway(dh) for mv in _halfway(dv)
                    )
    return table


def _halfway(d: int) -> tuple[int, ...]:
    """Offsets of the middle of a 2-step shot along one axis: a 1-step offset may be taken
    now or later, so it gives two choices (the knight step's two middle squares)."""
    return (d // 2,) if d % 2 == 0 else (0, d)


# Each run of spaces is matched by exactly one quantifier, and the optional dots and commas
# each bring their own trailing spaces: no two quantifiers can share a character, so a match
# attempt is linear in the input (``\s*\.?\s*``, whose two runs can share the spaces,
# would backtrack in n^4).
_SQUARE_RE = re.compile(
    r"v\s*(?:\.\s*)?(\d{1,2})\s*(?:[,.]\s*)?h\s*(?:\.\s*)?(\d{1,2})"
    r"|h\s*(?:\.\s*)?(\d{1,2})\s*(?:[,.]\s*)?v\s*(?:\.\s*)?(\d{1,2})",
    re.IGNORECASE,
)
MAX_SQUARE_TEXT = 24  # characters: ``v. 12, h. 15`` with room to spare


def parse_square(text: str, size: int) -> int:
    """Parse one square in any accepted form (``v5h7``, ``v.5, h.7``, ``h7v5``)."""
    if len(text) > MAX_SQUARE_TEXT:
        raise ValueError(
            msg(
                "a square is written in at most {most} characters, like v5h7; "
                "this text has {length}",
                most=MAX_SQUARE_TEXT,
                length=len(text),
            )
        )
    m = _SQUARE_RE.fullmatch(text.strip())
    if not m:
        raise ValueError(
            msg(
                "{text} is not a square; write it like v5h7 (vertical, then horizontal)",
                text=echo(text),
            )
        )
    v, h = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    if not (1 <= int(v) <= size and 1 <= int(h) <= size):  # before packing: v35 is not v3
        written = f"v{int(v)}h{int(h)}"
        raise ValueError(
            msg(
                "{square} is off the board: v and h run from 1 to {size}", square=written, size=size
            )
        )
    return square(int(h), int(v))


SQUARE_PATTERN = _SQUARE_RE
