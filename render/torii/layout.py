"""Where things go in a Torii image (TI1 orientation: rank 1 at the bottom, file a on the left).

From the top: the status strip, the Opposition's panel (their side of the board), the board
with rank numbers on its left and file letters below it, the Challenger's panel.
"""

from __future__ import annotations

from rules.sides import Side
from rules.torii import SIZE, file_of, rank_of

CELL = 60
LABEL_X = 24  # room for the rank numbers, left of the board
EDGE = 16  # right of the board
STRIP = 34  # the status strip
PANEL = 46  # each player's panel
GAP = 6  # between the Opposition's panel and the board
LABEL_Y = 20  # room for the file letters, below the board

BOARD_PX = SIZE * CELL
WIDTH = LABEL_X + BOARD_PX + EDGE
TOP = STRIP + PANEL + GAP  # the board's top edge
HEIGHT = TOP + BOARD_PX + LABEL_Y + PANEL
# Where the PNG's bands start (``render.bands``): the Opposition's panel, each row of
# squares (the first with the gap above it), the Challenger's panel.
BANDS = (STRIP, TOP - GAP, *range(TOP + CELL, TOP + BOARD_PX, CELL), TOP + BOARD_PX + LABEL_Y)


def corner(sq: int) -> tuple[int, int]:
    """Top-left pixel of a square's cell."""
    return LABEL_X + file_of(sq) * CELL, TOP + (SIZE - 1 - rank_of(sq)) * CELL


def centre(sq: int) -> tuple[float, float]:
    x, y = corner(sq)
    return x + CELL / 2, y + CELL / 2


def panel_top(side: Side) -> int:
    return STRIP if side == Side.OPPOSITION else TOP + BOARD_PX + LABEL_Y
