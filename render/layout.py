"""Where things go: pixel geometry of the board images for each board size (R2 orientation).

The Opposition's home edge (h=1) is on the left, the Challenger's (h=N) on the right, and v=1
is the bottom row. The status strip runs across the top, so a phone shows it first.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.geometry import h_of, v_of

# Every drawing made once and cached (base boards, sprites) is drawn this many times larger and
# shrunk, which anti-aliases it.
SUPERSAMPLE = 4


@dataclass(frozen=True)
class Layout:
    size: int
    cell: int
    margin_x: int  # room for the v labels, left and right
    margin_y: int  # room for the h labels, top and bottom
    strip: int  # height of the status strip

    @property
    def board_px(self) -> int:
        return self.size * self.cell

    @property
    def width(self) -> int:
        return self.board_px + 2 * self.margin_x

    @property
    def height(self) -> int:
        return self.strip + self.board_px + 2 * self.margin_y

    @property
    def left(self) -> int:
        return self.margin_x

    @property
    def top(self) -> int:
        return self.strip + self.margin_y

    def corner(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square's cell."""
        return (
            self.left + (h_of(sq) - 1) * self.cell,
            self.top + (self.size - v_of(sq)) * self.cell,
        )

    def centre(self, sq: int) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + self.cell / 2, y + self.cell / 2


SHORT_LAYOUT = Layout(size=9, cell=48, margin_x=30, margin_y=24, strip=62)
LONG_LAYOUT = Layout(size=17, cell=36, margin_x=30, margin_y=22, strip=62)


def layout_for(size: int) -> Layout:
    if size == SHORT_LAYOUT.size:
        return SHORT_LAYOUT
    if size == LONG_LAYOUT.size:
        return LONG_LAYOUT
    raise ValueError(f"no layout for a {size}x{size} board; boards are 9x9 or 17x17")
