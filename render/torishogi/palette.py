"""The ToriShogi images' colours: the shared palette (render.palette) plus the few colours a
shogi board needs, and the halfway blends where they meet, in one fixed palette.

Like TORA's images, everything is drawn in RGB (anti-aliased), then mapped onto this fixed
palette without dithering: small files, quick to encode, and the same colours in every frame
of a replay.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from PIL import Image

from render import palette as shared
from render.palette import RGB
from rules.sides import Side

C, O = Side.CHALLENGER, Side.OPPOSITION

BOARD: RGB = shared.LIGHT
GRID: RGB = shared.GRID
FRAME: RGB = shared.FRAME
FRAME_LINE: RGB = shared.FRAME_LINE
TEXT: RGB = shared.TEXT
MUTED: RGB = shared.MUTED
WHITE: RGB = shared.WHITE
RED: RGB = shared.DOOM
# The sides: amber pieces with dark ink, blue pieces with white ink (the shared side colours,
# which stay apart for the common colour-vision deficiencies).
FILL: dict[Side, RGB] = dict(shared.FILL)
EDGE: dict[Side, RGB] = dict(shared.EDGE)
INK: dict[Side, RGB] = dict(shared.INK)
# The last move's squares, and the square of a Phoenix in check.
LAST: RGB = (200, 214, 120)
CHECK: RGB = (240, 150, 140)
PLATE: RGB = (252, 248, 240)  # the face of a promoted piece, under its red name
HAND: RGB = (48, 52, 58)  # the strips that hold the hands
DOT: RGB = (120, 98, 64)  # the four dots that mark the promotion zones

_SQUARES = (BOARD, LAST, CHECK)
_MEETINGS: tuple[tuple[tuple[RGB, ...], tuple[RGB, ...]], ...] = (
    ((EDGE[C], EDGE[O], RED, GRID, DOT), _SQUARES),
    ((FILL[C], INK[C], PLATE), (EDGE[C],)),
    ((FILL[O], WHITE, PLATE), (EDGE[O],)),
    ((INK[C],), (FILL[C],)),
    ((WHITE,), (FILL[O],)),
    ((RED,), (PLATE,)),
    ((EDGE[C], EDGE[O], TEXT, MUTED, FILL[C], FILL[O], RED), (HAND, FRAME)),
    ((HAND,), (FRAME,)),
)
_EXTRA = (LAST, CHECK, PLATE, HAND, DOT)


def _blend(a: RGB, b: RGB) -> RGB:
    return (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2), round((a[2] + b[2]) / 2))


@cache
def colours() -> tuple[RGB, ...]:
    """The shared palette's entries, then ToriShogi's colours and blends, without repeats."""
    seen: dict[RGB, None] = dict.fromkeys(shared.colours())
    seen.update(dict.fromkeys(_EXTRA))
    for foregrounds, backgrounds in _MEETINGS:
        for a, b in product(foregrounds, backgrounds):
            seen.setdefault(_blend(a, b), None)
    entries = list(seen)
    if len(entries) > 256:
        raise RuntimeError(f"the palette needs {len(entries)} entries, PNG allows 256")
    return tuple(entries)


@cache
def palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette([channel for rgb in colours() for channel in rgb])
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB image onto the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
