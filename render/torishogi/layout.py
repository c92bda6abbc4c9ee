"""Where things go in a ToriShogi image, for a viewer at the bottom of the board.

From top to bottom: the status strip, the top player's hand, the file letters, the board (rank
numbers on its left), the file letters again, the bottom player's hand. The bottom player is
the viewer, or the Challenger for spectators; the Opposition sees the board turned half round.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.sides import Side
from rules.torishogi import SIZE, file_of, rank_of

SUPERSAMPLE = 4
CELL = 54  # from one grid line to the next; a square's inside is INNER pixels
INNER = CELL - 1
MARGIN = 24  # room for the coordinates around the board
STRIP = 62
HAND_ROW = 50


@dataclass(frozen=True)
class Layout:
    bottom: Side  # whose pieces point up, at the bottom of the image

    @property
    def flipped(self) -> bool:
        return self.bottom == Side.OPPOSITION

    @property
    def width(self) -> int:
        return 2 * MARGIN + SIZE * CELL

    @property
    def board_px(self) -> int:
        """The board with its grid: a line of one pixel on either side of every square."""
        return SIZE * CELL + 1

    @property
    def top_hand(self) -> int:
        """The y of the top hand row."""
        return STRIP

    @property
    def left(self) -> int:
        return MARGIN

    @property
    def top(self) -> int:
        """The y of the board's top edge."""
        return STRIP + HAND_ROW + MARGIN

    @property
    def bottom_hand(self) -> int:
        return self.top + self.board_px + MARGIN

    @property
    def height(self) -> int:
        return self.bottom_hand + HAND_ROW

    @property
    def bands(self) -> tuple[int, ...]:
        """Where the PNG's bands start (``render.bands``): the status strip's second line,
        the top hand, the coordinates above the board, each row of squares, the bottom
        hand."""
        rows = range(self.top, self.top + SIZE * CELL, CELL)
        return (STRIP // 2, self.top_hand, self.top_hand + HAND_ROW, *rows, self.bottom_hand)

    def column(self, sq: int) -> int:
        """0 for the leftmost column of the image."""
        file = file_of(sq)
        return SIZE - 1 - file if self.flipped else file

    def row(self, sq: int) -> int:
        """0 for the top row of the image."""
        rank = rank_of(sq)
        return rank if self.flipped else SIZE - 1 - rank

    def corner(self, sq: int) -> tuple[int, int]:
        """The top-left pixel of the inside of ``sq`` (INNER by INNER pixels)."""
        return self.left + self.column(sq) * CELL + 1, self.top + self.row(sq) * CELL + 1

    def points_up(self, side: Side) -> bool:
        """A piece points towards its opponent: up for the bottom player's pieces."""
        return side == self.bottom


def layout_for(viewer: Side | None) -> Layout:
    return Layout(Side.OPPOSITION if viewer == Side.OPPOSITION else Side.CHALLENGER)
