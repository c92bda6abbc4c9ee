"""The empty board (frame, checkered squares, coordinates) and each square's background,
plain or shaded as a lane of the opponent's Spirit: drawn once, cached, in the palette."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render import palette as pal
from render.fonts import font
from render.palette import cell_in_rgb, to_palette
from rules.sides import Side
from rules.torii import FILES, SIZE, SQUARES, file_of, rank_of

from .layout import BOARD_PX, CELL, HEIGHT, LABEL_X, TOP, WIDTH, corner


@cache
def base_board() -> Image.Image:
    """Never modify the result: callers ``copy()`` it."""
    image = Image.new("RGB", (WIDTH, HEIGHT), pal.FRAME)
    draw = ImageDraw.Draw(image)
    for sq in SQUARES:
        left, top = corner(sq)
        dark = (file_of(sq) + rank_of(sq)) % 2 == 0
        draw.rectangle(
            (left, top, left + CELL - 1, top + CELL - 1), fill=pal.DARK if dark else pal.LIGHT
        )
    for i in range(SIZE + 1):
        at = min(i * CELL, BOARD_PX - 1)
        draw.line((LABEL_X + at, TOP, LABEL_X + at, TOP + BOARD_PX - 1), fill=pal.GRID)
        draw.line((LABEL_X, TOP + at, LABEL_X + BOARD_PX - 1, TOP + at), fill=pal.GRID)
    face = font(13, bold=True)
    for i in range(SIZE):
        y = TOP + (SIZE - 1 - i) * CELL + CELL / 2
        x = LABEL_X + i * CELL + CELL / 2
        draw.text((LABEL_X - 8, y), str(i + 1), pal.MUTED, face, anchor="rm")
        draw.text((x, TOP + BOARD_PX + 4), FILES[i], pal.MUTED, face, anchor="mt")
    return to_palette(image)


@cache
def cell_background(sq: int, shade: Side | None) -> bytes:
    """A square's pixels (palette indices) on the empty board, tinted in ``shade``'s pale
    colour when it lies in a lane of that player's Spirit (the lanes the player to act must
    jump, TI6). Pieces are finished once per background (``sprites.tile``)."""
    x, y = corner(sq)
    cell = base_board().crop((x, y, x + CELL, y + CELL))
    if shade is not None:  # inside the grid lines (a cell's first row and column are grid)
        ImageDraw.Draw(cell).rectangle((1, 1, CELL - 2, CELL - 2), fill=pal.index(pal.FADED[shade]))
    return cell.tobytes()


def cell_image(background: bytes) -> Image.Image:
    """A background as an RGB image, to draw a piece on."""
    return cell_in_rgb(background, CELL)
