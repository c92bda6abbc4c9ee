"""The empty board of one size and terrain: frame, checkered squares, terrain, axis labels.

It is the same for every image of a match, so it is drawn once (anti-aliased, at
``SUPERSAMPLE`` times the size) and cached; each image starts from a copy of it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from rules.tora import DIRECTION_VECTORS, Side, Terrain, square, squares

from .. import palette as pal
from ..fonts import font
from ..palette import to_palette
from ..shapes import Point, arrow_polygon
from ..strokes import SUPERSAMPLE
from .layout import Layout, layout_for

EDGE_BAR = 3  # width of the coloured bar marking each side's home edge


def screen_vector(direction: int) -> Point:
    """Unit vector on screen of a direction index (N is up: v grows upwards, y downwards)."""
    dh, dv = DIRECTION_VECTORS[direction]
    length = math.hypot(dh, dv)
    return dh / length, -dv / length


@lru_cache(maxsize=32)
def base_board(terrain: Terrain) -> Image.Image:
    """The empty board for ``terrain`` (which also fixes the size), in the fixed palette.
    Never modify the result: callers ``copy()`` it."""
    layout = layout_for(terrain.size)
    image = Image.new("RGB", (layout.width, layout.height), pal.FRAME)
    image.paste(_squares(layout, terrain), (layout.left, layout.top))
    draw = ImageDraw.Draw(image)
    _home_edges(draw, layout)
    _labels(draw, layout)
    return to_palette(image)


@lru_cache(maxsize=32)
def cell_backgrounds(terrain: Terrain) -> dict[int, bytes]:
    """Each square's pixels on the empty board (palette indices), to look up finished piece
    tiles by; equal backgrounds share one bytes object."""
    layout = layout_for(terrain.size)
    image, cell = base_board(terrain), layout.cell
    shared: dict[bytes, bytes] = {}
    out = {}
    for sq in squares(terrain.size):
        x, y = layout.corner(sq)
        pixels = image.crop((x, y, x + cell, y + cell)).tobytes()
        out[sq] = shared.setdefault(pixels, pixels)
    return out


def _squares(layout: Layout, terrain: Terrain) -> Image.Image:
    k = SUPERSAMPLE
    cell = layout.cell * k
    board = Image.new("RGB", (layout.board_px * k, layout.board_px * k), pal.LIGHT)
    draw = ImageDraw.Draw(board)
    n = layout.size
    for h in range(1, n + 1):
        for v in range(1, n + 1):
            x, y = (h - 1) * cell, (n - v) * cell
            sq = square(h, v)
            if sq in terrain.water:
                _water(draw, x, y, cell)
            elif sq in terrain.forest:
                _forest(draw, x, y, cell)
            elif sq in terrain.hills:
                _hill(draw, x, y, cell, terrain.hills[sq])
            elif (h + v) % 2 == 0:
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=pal.DARK)
    for i in range(n + 1):
        at = min(i * cell, n * cell - k)
        draw.rectangle((at, 0, at + k - 1, n * cell), fill=pal.GRID)
        draw.rectangle((0, at, n * cell, at + k - 1), fill=pal.GRID)
    return board.reduce(k)


def _water(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int) -> None:
    draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=pal.WATER)
    for row in (0.17, 0.83):
        points = [
            (x + cell * (0.1 + 0.8 * t / 16), y + cell * (row + 0.045 * math.sin(t * math.pi / 4)))
            for t in range(17)
        ]
        draw.line(points, fill=pal.WAVE, width=round(cell * 0.045), joint="curve")


def _forest(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int) -> None:
    draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=pal.FOREST)
    for fx, fy in ((0.16, 0.2), (0.84, 0.2), (0.16, 0.86), (0.84, 0.86)):
        cx, top = x + cell * fx, y + cell * (fy - 0.13)
        half, height = cell * 0.085, cell * 0.2
        draw.polygon([(cx, top), (cx + half, top + height), (cx - half, top + height)], pal.TREE)


def _hill(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, direction: int) -> None:
    """A tan square with an arrow pointing downhill, and a notch on the downhill edge that
    stays visible when a piece covers the arrow."""
    draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=pal.HILL)
    ux, uy = screen_vector(direction)
    cx, cy = x + cell / 2, y + cell / 2
    reach = cell * (0.36 if direction % 2 == 0 else 0.42)
    start = (cx - ux * reach * 0.8, cy - uy * reach * 0.8)
    tip = (cx + ux * reach, cy + uy * reach)
    draw.polygon(arrow_polygon(start, tip, cell * 0.07, cell * 0.2, cell * 0.24), pal.HILL_MARK)
    edge = cell * (0.5 if direction % 2 == 0 else 0.5 * math.sqrt(2))
    ex, ey = cx + ux * edge, cy + uy * edge
    px, py = -uy, ux
    depth, half = cell * 0.11, cell * 0.15
    bx, by = ex - ux * depth, ey - uy * depth
    draw.polygon(
        [(ex, ey), (bx + px * half, by + py * half), (bx - px * half, by - py * half)],
        pal.HILL_MARK,
    )


def _home_edges(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """R2: the Opposition's home edge (h=1) is the left one, the Challenger's the right one."""
    top, bottom = layout.top, layout.top + layout.board_px - 1
    left, right = layout.left - EDGE_BAR - 1, layout.left + layout.board_px + 1
    draw.rectangle((left, top, left + EDGE_BAR - 1, bottom), fill=pal.FILL[Side.OPPOSITION])
    draw.rectangle((right, top, right + EDGE_BAR - 1, bottom), fill=pal.FILL[Side.CHALLENGER])


def _labels(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """``v`` numbers left of each row, ``h`` numbers below each column, and on the long
    board also right of each row and above each column."""
    face = font(12 if layout.size > 9 else 13, bold=True)
    n, cell = layout.size, layout.cell
    gap = EDGE_BAR + 3
    right, bottom = layout.left + layout.board_px, layout.top + layout.board_px
    for i in range(1, n + 1):
        y = layout.top + (n - i) * cell + cell / 2
        x = layout.left + (i - 1) * cell + cell / 2
        draw.text((layout.left - gap, y), f"v{i}", pal.MUTED, face, anchor="rm")
        draw.text((x, bottom + 5), f"h{i}", pal.MUTED, face, anchor="mt")
        if layout.labels_all_round:
            draw.text((right + gap, y), f"v{i}", pal.MUTED, face, anchor="lm")
            draw.text((x, layout.top - 5), f"h{i}", pal.MUTED, face, anchor="ms")
