"""The fixed colours of every image, and the 256-colour palette the images are stored in.

Images are composed in RGB (anti-aliased sprites and text) and then mapped onto one fixed
palette: a palette PNG is a third of the size of an RGB one and much faster to compress, and a
fixed palette (rather than one computed per image) costs well under a millisecond to apply and
gives every frame of a replay the same colours. The palette holds every named colour below plus
the halfway blends of the pairs that meet at anti-aliased edges, so edges stay smooth.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from PIL import Image

from rules.sides import Side

RGB = tuple[int, int, int]

# Frame, labels, status strip: a dark slate that sits well in Discord's dark theme and frames
# the board like a picture in the light theme.
FRAME: RGB = (38, 41, 46)
FRAME_LINE: RGB = (64, 68, 76)
TEXT: RGB = (232, 234, 238)
MUTED: RGB = (150, 156, 167)

# Board: a light checkered board (the rule book's), with the rule book's terrain colours.
LIGHT: RGB = (240, 232, 211)
DARK: RGB = (225, 211, 180)
GRID: RGB = (176, 158, 124)
WATER: RGB = (134, 184, 226)
WAVE: RGB = (62, 122, 190)
FOREST: RGB = (170, 206, 142)
TREE: RGB = (52, 112, 58)
HILL: RGB = (226, 192, 140)
HILL_MARK: RGB = (128, 80, 30)

# Sides: amber discs against blue squares (colour and shape both differ, and the two colours
# stay apart for the common colour-vision deficiencies).
FILL: dict[Side, RGB] = {Side.CHALLENGER: (243, 178, 56), Side.OPPOSITION: (38, 94, 182)}
EDGE: dict[Side, RGB] = {Side.CHALLENGER: (96, 52, 0), Side.OPPOSITION: (12, 30, 74)}
INK: dict[Side, RGB] = {Side.CHALLENGER: (44, 26, 0), Side.OPPOSITION: (255, 255, 255)}
ARROW: dict[Side, RGB] = {Side.CHALLENGER: (222, 112, 0), Side.OPPOSITION: (30, 84, 200)}
FADED: dict[Side, RGB] = {Side.CHALLENGER: (246, 222, 170), Side.OPPOSITION: (158, 182, 222)}

BLACK: RGB = (18, 18, 22)
WHITE: RGB = (255, 255, 255)
DOOM: RGB = (204, 24, 48)
HIDDEN: RGB = (136, 56, 196)
GOOD: RGB = (46, 160, 90)
BAD: RGB = (214, 60, 60)

# Point Column colours (rule book chapter 7).
PEG_BLUE: RGB = (40, 110, 200)
PEG_ORANGE: RGB = (232, 112, 24)
PEG_GREEN: RGB = (26, 120, 60)
PEG_BLACK: RGB = (20, 20, 20)
CARD: RGB = (246, 241, 228)

_ON_BOARD = (LIGHT, DARK, WATER, FOREST, HILL)
_C, _O = Side.CHALLENGER, Side.OPPOSITION
# (foregrounds, backgrounds) that meet at anti-aliased edges; each such pair gets its halfway
# blend. (Two blends per pair look no better on screen and make the files 6% larger.)
_MEETINGS: tuple[tuple[tuple[RGB, ...], tuple[RGB, ...]], ...] = (
    (
        (TEXT, MUTED, GOOD, BAD, DOOM, HIDDEN, FILL[_C], FILL[_O], EDGE[_C], WHITE),
        (FRAME, FRAME_LINE),
    ),
    ((EDGE[_C], EDGE[_O], BLACK, DOOM, HIDDEN, FADED[_C], FADED[_O]), _ON_BOARD),
    ((GRID,), (LIGHT, DARK)),
    ((WAVE,), (WATER,)),
    ((TREE,), (FOREST,)),
    ((HILL_MARK,), (HILL,)),
    ((PEG_BLUE, PEG_ORANGE, PEG_GREEN, PEG_BLACK, MUTED, FRAME), (CARD,)),
    ((FILL[_C], INK[_C]), (EDGE[_C],)),
    ((FILL[_O], WHITE), (EDGE[_O],)),
    ((FADED[_C],), (EDGE[_C],)),
    ((FADED[_O],), (EDGE[_O],)),
    ((ARROW[_C], ARROW[_O], DOOM, HIDDEN), (BLACK, WHITE)),
    ((WHITE,), (DOOM, HIDDEN)),
)
_NAMED = (
    FRAME,
    FRAME_LINE,
    TEXT,
    MUTED,
    LIGHT,
    DARK,
    GRID,
    WATER,
    WAVE,
    FOREST,
    TREE,
    HILL,
    HILL_MARK,
    *FILL.values(),
    *EDGE.values(),
    *INK.values(),
    *ARROW.values(),
    *FADED.values(),
    BLACK,
    WHITE,
    DOOM,
    HIDDEN,
    GOOD,
    BAD,
    PEG_BLUE,
    PEG_ORANGE,
    PEG_GREEN,
    PEG_BLACK,
    CARD,
)


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@cache
def colours() -> tuple[RGB, ...]:
    """Every palette entry: the named colours, then edge blends, without repeats."""
    seen: dict[RGB, None] = dict.fromkeys(_NAMED)
    for foregrounds, backgrounds in _MEETINGS:
        for a, b in product(foregrounds, backgrounds):
            seen.setdefault(_blend(a, b, 1 / 2), None)
    entries = list(seen)
    if len(entries) > 256:
        raise RuntimeError(f"the palette needs {len(entries)} entries, PNG allows 256")
    return tuple(entries)


@cache
def _channels() -> tuple[int, ...]:
    """The palette as Pillow takes one: every entry's red, green and blue in a row."""
    return tuple(channel for rgb in colours() for channel in rgb)


@cache
def palette_image() -> Image.Image:
    """A 1x1 image that carries the palette, as ``Image.quantize`` wants it."""
    image = Image.new("P", (1, 1))
    image.putpalette(_channels())
    return image


def cell_in_rgb(indices: bytes, cell: int) -> Image.Image:
    """A square of ``cell`` pixels given as palette indices, as an RGB image to draw on."""
    image = Image.frombytes("P", (cell, cell), indices)
    image.putpalette(_channels())
    return image.convert("RGB")


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB image onto the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


@cache
def index(colour: RGB) -> int:
    """The palette entry of a named colour, for drawing straight onto a palette image."""
    return colours().index(colour)
