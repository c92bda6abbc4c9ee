"""The empty board for one orientation: frame, hand strips, squares, grid, the promotion
zones' dots, and coordinates. Drawn once (anti-aliased) and cached; images start from a copy.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from rules.sides import Side
from rules.torishogi import SHOWN_FILES, SHOWN_RANKS, SIZE, square

from . import palette as pal
from .layout import CELL, HAND_ROW, MARGIN, SUPERSAMPLE, Layout
from .palette import to_palette


@lru_cache(maxsize=2)
def base_board(bottom: Side) -> Image.Image:
    """Never modify the result: callers ``copy()`` it."""
    layout = Layout(bottom)
    image = Image.new("RGB", (layout.width, layout.height), pal.FRAME)
    draw = ImageDraw.Draw(image)
    for y in (layout.top_hand, layout.bottom_hand):
        draw.rounded_rectangle(
            (MARGIN - 4, y + 4, layout.width - MARGIN + 3, y + HAND_ROW - 5), 8, fill=pal.HAND
        )
    image.paste(_squares(), (layout.left, layout.top))
    _coordinates(draw, layout)
    return to_palette(image)


def _squares() -> Image.Image:
    """The 7x7 squares with their one-pixel grid (line i at ``i * CELL``)."""
    k = SUPERSAMPLE
    cell, n = CELL * k, SIZE
    board = Image.new("RGB", ((n * cell + k), (n * cell + k)), pal.BOARD)
    draw = ImageDraw.Draw(board)
    for i in range(n + 1):
        at = i * cell
        draw.rectangle((at, 0, at + k - 1, n * cell + k), fill=pal.GRID)
        draw.rectangle((0, at, n * cell + k, at + k - 1), fill=pal.GRID)
    return board.reduce(k)


DOT_LINES = (2, 5)  # grid lines b|c and e|f, and the lines between ranks 2|3 and 5|6
DOT_RADIUS = 3.5


@lru_cache(maxsize=1)
def _dot() -> Image.Image:
    k = SUPERSAMPLE
    size = 2 * round(DOT_RADIUS + 1) + 1
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    c, r = size * k / 2, DOT_RADIUS * k
    ImageDraw.Draw(image).ellipse((c - r, c - r, c + r, c + r), fill=pal.DOT)
    return image.reduce(k)


def zone_dots(image: Image.Image, layout: Layout) -> None:
    """The four dots of a shogi board where the promotion zones' lines (TS5) cross the files
    b|c and e|f; drawn over the squares' corners, after the pieces."""
    dot = _dot()
    half = dot.width // 2
    for col in DOT_LINES:
        for row in DOT_LINES:
            x, y = layout.left + col * CELL - half, layout.top + row * CELL - half
            box = (x, y, x + dot.width, y + dot.height)
            region = image.crop(box).convert("RGB")
            region.paste(dot, (0, 0), dot)
            image.paste(to_palette(region), box[:2])


def _coordinates(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """The coordinates players read (TS1, the seed's diagram): files 7..1 under and over the
    board, ranks a..g left and right, turned with the board for the Opposition."""
    face = font(13, bold=True)
    right = layout.left + layout.board_px
    bottom = layout.top + layout.board_px
    for i in range(SIZE):
        sq = square(i, i)
        x = layout.left + layout.column(sq) * CELL + CELL / 2
        y = layout.top + layout.row(sq) * CELL + CELL / 2
        file, rank = SHOWN_FILES[i], SHOWN_RANKS[i]
        draw.text((x, bottom + MARGIN / 2), file, pal.MUTED, face, anchor="mm")
        draw.text((x, layout.top - MARGIN / 2), file, pal.MUTED, face, anchor="mm")
        draw.text((layout.left - MARGIN / 2, y), rank, pal.MUTED, face, anchor="mm")
        draw.text((right + MARGIN / 2, y), rank, pal.MUTED, face, anchor="mm")
