"""The 6x6 board (TI1): squares, names, directions, lanes, steps that jump lanes, lines of 4.

A square is an int 0..35 of a ``rules.grid.Grid``: ``(rank - 1) * 6 + (file - 1)``, so a1 = 0,
f1 = 5, a2 = 6, f6 = 35. Everything here is precomputed once: a step's landing for every
start, direction and opponent square is a table lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.grid import Grid

SIZE = 6
GRID = Grid(SIZE)
SQUARES = GRID.squares
FILES = GRID.files
square = GRID.square  # (file, rank), both 0-based
file_of = GRID.file_of
rank_of = GRID.rank_of
name = GRID.name  # "c3"
parse_square = GRID.parse  # "c3", any case; None for no square


def same_lane(a: int, b: int) -> bool:
    """TI6: two squares share a lane when they share a row or a column."""
    return a % SIZE == b % SIZE or a // SIZE == b // SIZE


def lanes(sq: int) -> frozenset[int]:
    """Every square of the row and the column through ``sq`` (``sq`` included)."""
    return frozenset(other for other in SQUARES if same_lane(sq, other))


@dataclass(frozen=True)
class Direction:
    """A step direction as the Challenger sees the board: up is towards rank 6."""

    name: str
    df: int
    dr: int

    @property
    def diagonal(self) -> bool:
        return self.df != 0 and self.dr != 0


ORTHOGONAL = (
    Direction("up", 0, 1),
    Direction("down", 0, -1),
    Direction("left", -1, 0),
    Direction("right", 1, 0),
)
DIAGONAL = (
    Direction("up-left", -1, 1),
    Direction("up-right", 1, 1),
    Direction("down-left", -1, -1),
    Direction("down-right", 1, -1),
)
DIRECTIONS = ORTHOGONAL + DIAGONAL

# Every spelling a player may use for a direction (TI19): words, letters and compass points.
_DIRECTION_WORDS = {
    "up": "up",
    "u": "up",
    "n": "up",
    "north": "up",
    "down": "down",
    "d": "down",
    "s": "down",
    "south": "down",
    "left": "left",
    "l": "left",
    "w": "left",
    "west": "left",
    "right": "right",
    "r": "right",
    "e": "right",
    "east": "right",
}
_BY_NAME = {d.name: d for d in DIRECTIONS}
_LONGEST_DIRECTION = len("north-west")


def parse_direction(text: str) -> Direction | None:
    """ "up", "u", "n"...; a diagonal joins two of them: "up-left", "upleft", "ul", "nw"."""
    word = text.lower()
    if len(word) > _LONGEST_DIRECTION:
        return None
    if word in _DIRECTION_WORDS:
        return _BY_NAME[_DIRECTION_WORDS[word]]
    for split in range(1, len(word)):
        first, second = word[:split], word[split:].lstrip("-")
        if first in _DIRECTION_WORDS and second in _DIRECTION_WORDS:
            vertical, horizontal = _DIRECTION_WORDS[first], _DIRECTION_WORDS[second]
            if vertical in ("left", "right"):
                vertical, horizontal = horizontal, vertical
            if vertical in ("up", "down") and horizontal in ("left", "right"):
                return _BY_NAME[f"{vertical}-{horizontal}"]
    return None


@dataclass(frozen=True)
class Step:
    """Where a step lands and the squares it jumped over (TI6)."""

    landing: int
    jumped: tuple[int, ...]
    direction: Direction


def _walk(start: int, direction: Direction, blocker: int) -> Step | None:
    """TI6: the step continues while its square is in a lane of ``blocker``; None when it
    would leave the board first."""
    jumped: list[int] = []
    at = GRID.shift(start, direction.df, direction.dr)
    while at is not None:
        if not same_lane(at, blocker):
            return Step(at, tuple(jumped), direction)
        jumped.append(at)
        at = GRID.shift(at, direction.df, direction.dr)
    return None


# STEPS[start][blocker]: the possible steps from ``start`` while the other Spirit stands on
# ``blocker``, orthogonal ones first.
STEPS: tuple[tuple[tuple[Step, ...], ...], ...] = tuple(
    tuple(
        tuple(step for d in DIRECTIONS if (step := _walk(start, d, blocker)) is not None)
        for blocker in SQUARES
    )
    for start in SQUARES
)


def steps_from(start: int, blocker: int, diagonal: bool) -> tuple[Step, ...]:
    """The steps a Spirit on ``start`` may take with the other Spirit on ``blocker``;
    diagonal ones only with ``diagonal`` (the Deer, TI12)."""
    every = STEPS[start][blocker]
    return every if diagonal else tuple(s for s in every if not s.direction.diagonal)


def plain_step(start: int, direction: Direction) -> int | None:
    """One plain orthogonal step, lanes ignored (a Boar's Torii, TI17)."""
    return GRID.shift(start, direction.df, direction.dr)


# Lines of 4 orthogonally consecutive squares (TI10): 18 in rows, then 18 in columns.
LINES: tuple[tuple[int, int, int, int], ...] = tuple(
    (square(f, r), square(f + 1, r), square(f + 2, r), square(f + 3, r))
    for r in range(SIZE)
    for f in range(SIZE - 3)
) + tuple(
    (square(f, r), square(f, r + 1), square(f, r + 2), square(f, r + 3))
    for f in range(SIZE)
    for r in range(SIZE - 3)
)
_LINE_BY_ENDS = {(line[0], line[3]): i for i, line in enumerate(LINES)}


def line_name(index: int) -> str:
    line = LINES[index]
    return f"{name(line[0])}-{name(line[3])}"


def line_between(a: int, b: int) -> int | None:
    """The line with ends ``a`` and ``b`` (either order), or None."""
    return _LINE_BY_ENDS.get((min(a, b), max(a, b)))
