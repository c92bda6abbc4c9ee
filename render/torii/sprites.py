"""What stands on a square, drawn once per look (anti-aliased) and cached.

Sides differ in colour and shape, as in TORA's images: the Challenger's Followers are amber
discs, the Opposition's blue rounded squares. A Torii is a small gate in its owner's colour
standing over its Follower. A Spirit is a larger token of its owner's shape and colour with
its kind's emblem (antlers, fox, crane, monkey, dragon, boar); when it shares its square
with a Follower, the Follower (and its Torii) is drawn small in the bottom-left corner.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render import palette as pal
from render.palette import to_palette
from render.strokes import SUPERSAMPLE
from rules.sides import Side

from .base import cell_image
from .emblems import EMBLEMS
from .layout import CELL

FOLLOWER_RADIUS = 0.2  # of the cell: a Challenger's disc; an Opposition square is a bit less
SPIRIT_RADIUS = 0.37
CORNER_SCALE = 0.52  # a Follower sharing its square with a Spirit
SHARED_SPIRIT = 0.86  # the Spirit on such a square


class Look(NamedTuple):
    """A square's contents: a Follower's owner (with a Torii or not), a Spirit; or, on an
    empty square, the hollow outline of a Follower the last turn sent home from it."""

    follower: Side | None = None
    torii: bool = False
    spirit: tuple[str, Side] | None = None
    ghost: Side | None = None


@lru_cache(maxsize=128)
def sprite(look: Look) -> Image.Image:
    """An RGBA cell with the contents on a transparent background."""
    k = SUPERSAMPLE
    size = CELL * k
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if look.spirit is not None and look.follower is not None:
        # the Spirit a little smaller, up and right; its square's Follower small, in front
        spirit = _spirit(*look.spirit, round(size * SHARED_SPIRIT))
        image.alpha_composite(spirit, (size - spirit.width, 0))
        small = _holding(look.follower, look.torii, round(size * CORNER_SCALE))
        image.alpha_composite(small, (0, size - small.height))
    elif look.spirit is not None:
        image.alpha_composite(_spirit(*look.spirit, size))
    elif look.follower is not None:
        image.alpha_composite(_holding(look.follower, look.torii, size))
    elif look.ghost is not None:
        draw = ImageDraw.Draw(image)
        _follower(draw, look.ghost, size / 2, size / 2, size * FOLLOWER_RADIUS * 0.8, hollow=True)
    return image.reduce(k)


@lru_cache(maxsize=1024)
def tile(look: Look, background: bytes) -> Image.Image:
    """The contents finished on one exact background, in the palette: a square nothing else
    is drawn on is then one paste."""
    region = cell_image(background)
    piece = sprite(look)
    region.paste(piece, (0, 0), piece)
    return to_palette(region)


@lru_cache(maxsize=32)
def _holding(side: Side, torii: bool, size: int) -> Image.Image:
    """A Follower, under its owner's gate when it has a Torii, ``size`` pixels square
    (supersampled)."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    if torii:
        _gate(draw, side, size)
        _follower(draw, side, c, c + size * 0.12, size * 0.15)
    else:
        _follower(draw, side, c, c, size * FOLLOWER_RADIUS)
    return image


def _follower(
    draw: ImageDraw.ImageDraw, side: Side, x: float, y: float, r: float, hollow: bool = False
) -> None:
    fill = None if hollow else pal.FILL[side]
    width = max(2, round(r * (0.1 if hollow else 0.2)))
    if side == Side.CHALLENGER:
        draw.ellipse((x - r, y - r, x + r, y + r), fill, pal.EDGE[side], width)
    else:
        h = r * 0.9
        draw.rounded_rectangle((x - h, y - h, x + h, y + h), r * 0.3, fill, pal.EDGE[side], width)


def _gate(draw: ImageDraw.ImageDraw, side: Side, size: int) -> None:
    """A torii: two posts, the tie beam (nuki) and the curved top beam (kasagi)."""
    fill, edge = pal.FILL[side], pal.EDGE[side]
    line = max(2, round(size * 0.02))
    c = size / 2
    post_x, post_w = size * 0.29, size * 0.075
    top, bottom = size * 0.22, size * 0.9
    for sign in (-1, 1):
        x = c + sign * post_x
        draw.rectangle(
            (x - post_w / 2, top, x + post_w / 2, bottom), fill=fill, outline=edge, width=line
        )
    nuki_y, nuki_h = size * 0.3, size * 0.06
    draw.rectangle(
        (c - size * 0.37, nuki_y, c + size * 0.37, nuki_y + nuki_h),
        fill=fill,
        outline=edge,
        width=line,
    )
    kasagi = [
        (c - size * 0.47, size * 0.08),
        (c - size * 0.3, size * 0.13),
        (c + size * 0.3, size * 0.13),
        (c + size * 0.47, size * 0.08),
        (c + size * 0.43, size * 0.2),
        (c - size * 0.43, size * 0.2),
    ]
    draw.polygon(kasagi, fill=fill, outline=edge, width=line)


@lru_cache(maxsize=48)
def _spirit(kind: str, side: Side, size: int) -> Image.Image:
    """A Spirit's token, ``size`` pixels square (supersampled)."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c, r = size / 2, size * SPIRIT_RADIUS
    width = round(size * 0.045)
    box = (c - r, c - r, c + r, c + r)
    if side == Side.CHALLENGER:
        draw.ellipse(box, fill=pal.FILL[side], outline=pal.EDGE[side], width=width)
    else:
        h = r * 0.92
        draw.rounded_rectangle(
            (c - h, c - h, c + h, c + h),
            r * 0.28,
            fill=pal.FILL[side],
            outline=pal.EDGE[side],
            width=width,
        )
    EMBLEMS[kind](draw, c, c, r * 0.78, pal.INK[side], pal.FILL[side])
    return image


@lru_cache(maxsize=16)
def icon(side: Side, torii: bool, size: int) -> Image.Image:
    """A small Follower (or gate) for the player panels, ``size`` pixels square."""
    return _holding(side, torii, size * SUPERSAMPLE).reduce(SUPERSAMPLE)


@lru_cache(maxsize=16)
def spirit_icon(kind: str, side: Side, size: int) -> Image.Image:
    return _spirit(kind, side, size * SUPERSAMPLE).reduce(SUPERSAMPLE)
