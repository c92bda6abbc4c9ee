"""Where things go: pixel geometry of the board images for each board size (R2 orientation).

The Opposition's home edge (h=1) is on the left, the Challenger's (h=N) on the right, and v=1
is the bottom row. The status strip runs across the top, so a phone shows it first.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.tora import h_of, v_of

# The status strip's first line (names, scores) is above this row, the second below it.
STATUS_LINE = 31


@dataclass(frozen=True)
class Layout:
    """``label_x`` is the room for the v labels (left of the board), ``label_y`` for the h
    labels (below it). With ``labels_all_round`` they repeat on the right and on top;
    otherwise those two sides get just ``edge``."""

    size: int
    cell: int
    label_x: int
    label_y: int
    edge: int
    labels_all_round: bool
    strip: int  # height of the status strip

    @property
    def board_px(self) -> int:
        return self.size * self.cell

    @property
    def width(self) -> int:
        right = self.label_x if self.labels_all_round else self.edge
        return self.label_x + self.board_px + right

    @property
    def height(self) -> int:
        return self.top + self.board_px + self.label_y

    @property
    def left(self) -> int:
        return self.label_x

    @property
    def top(self) -> int:
        return self.strip + (self.label_y if self.labels_all_round else self.edge)

    @property
    def bands(self) -> tuple[int, ...]:
        """Where the PNG's bands start (``render.bands``): the status strip's second line,
        the edge above the board, each row of squares (the last with the labels below)."""
        rows = range(self.top, self.top + self.board_px, self.cell)
        return (STATUS_LINE, self.strip, *rows)

    def corner(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square's cell."""
        return (
            self.left + (h_of(sq) - 1) * self.cell,
            self.top + (self.size - v_of(sq)) * self.cell,
        )

    def centre(self, sq: int) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + self.cell / 2, y + self.cell / 2


# The long board repeats its labels on the right and on top: across 17 squares the eye needs
# them. The short board does without, which keeps its image small and quick to compress.
SHORT_LAYOUT = Layout(9, cell=44, label_x=30, label_y=24, edge=10, labels_all_round=False, strip=62)
LONG_LAYOUT = Layout(17, cell=36, label_x=30, label_y=22, edge=10, labels_all_round=True, strip=62)


def layout_for(size: int) -> Layout:
    if size == SHORT_LAYOUT.size:
        return SHORT_LAYOUT
    if size == LONG_LAYOUT.size:
        return LONG_LAYOUT
    raise ValueError(f"no layout for a {size}x{size} board; boards are 9x9 or 17x17")
