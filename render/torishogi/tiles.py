"""Piece tiles: a shogi piece's pentagon pointing at the opponent, in its side's colour, with
its two-letter name (red on a white face for the promoted Eagle and Goose).

Each look is drawn once, anti-aliased at ``SUPERSAMPLE`` times the size, and finished on each
background it meets (the board, a highlighted square, a checked square, a hand strip) in the
fixed palette, so drawing a board is a series of plain pastes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.fonts import font
from render.palette import RGB
from rules.sides import Side
from rules.torishogi import EAGLE, GOOSE, PHOENIX, SHORT, SWALLOW

from . import palette as pal
from .layout import SUPERSAMPLE
from .palette import to_palette

# The pentagon, pointing up, in a unit box: tip, shoulders, base.
OUTLINE = ((0.5, 0.0), (0.86, 0.21), (0.97, 1.0), (0.03, 1.0), (0.14, 0.21))
# How big each piece is (shogi pieces grow with their rank): width and height of the cell.
SCALE = {PHOENIX: (0.8, 0.88), SWALLOW: (0.68, 0.76), GOOSE: (0.72, 0.8)}
DEFAULT_SCALE = (0.75, 0.84)


class Look(NamedTuple):
    side: Side
    kind: int
    up: bool  # points up the image


@lru_cache(maxsize=128)
def sprite(look: Look, cell: int) -> Image.Image:
    """An RGBA cell with the piece centred on a transparent background."""
    k = SUPERSAMPLE
    size = cell * k
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    sw, sh = SCALE.get(look.kind, DEFAULT_SCALE)
    width, height = size * sw, size * sh
    left, top = (size - width) / 2, (size - height) / 2
    side = look.side

    def points(inset: float) -> list[tuple[float, float]]:
        out = []
        for x, y in OUTLINE:
            px = left + inset + (width - 2 * inset) * x
            py = top + inset * 1.4 + (height - 2.4 * inset) * y
            out.append((px, py if look.up else size - py))
        return out

    rim = size * 0.045
    draw.polygon(points(0), fill=pal.EDGE[side])
    promoted = look.kind in (GOOSE, EAGLE)
    draw.polygon(points(rim), fill=pal.FILL[side])
    if promoted:
        draw.polygon(points(rim + size * 0.05), fill=pal.PLATE)
    if look.kind == PHOENIX:
        draw.polygon(points(rim + size * 0.045), outline=pal.INK[side], width=round(size * 0.02))
    ink: RGB = pal.RED if promoted else pal.INK[side]
    face = font(round(size * (0.36 if look.kind != SWALLOW else 0.33)), bold=True)
    centre_y = top + height * 0.6
    draw.text(
        (size / 2, centre_y if look.up else size - centre_y),
        SHORT[look.kind],
        ink,
        face,
        anchor="mm",
    )
    return image.reduce(k)


class Mark(NamedTuple):
    """How a square is coloured under its piece: plain, the last move's, or in check (a red
    square with a red frame)."""

    fill: RGB
    frame: bool = False


PLAIN = Mark(pal.BOARD)
LAST = Mark(pal.LAST)
CHECK = Mark(pal.CHECK, frame=True)


def _under(mark: Mark, size: int) -> Image.Image:
    region = Image.new("RGB", (size, size), mark.fill)
    if mark.frame:
        ImageDraw.Draw(region).rectangle((0, 0, size - 1, size - 1), outline=pal.RED, width=3)
    return region


@lru_cache(maxsize=16)
def empty(mark: Mark, size: int) -> Image.Image:
    """An empty square in the fixed palette."""
    return to_palette(_under(mark, size))


@lru_cache(maxsize=512)
def tile(look: Look, size: int, mark: Mark) -> Image.Image:
    """The piece finished on its square, in the fixed palette."""
    region = _under(mark, size)
    piece = sprite(look, size)
    region.paste(piece, (0, 0), piece)
    return to_palette(region)


@lru_cache(maxsize=64)
def hand_tile(look: Look, size: int) -> Image.Image:
    """A piece in hand, on the hand strip's colour."""
    region = Image.new("RGB", (size, size), pal.HAND)
    piece = sprite(look, size)
    region.paste(piece, (0, 0), piece)
    return to_palette(region)
