"""Piece sprites: drawn once per look and cell size (anti-aliased), then pasted.

The Challenger's pieces are amber discs, the Opposition's blue rounded squares, so the sides
differ in shape as well as colour. On top of the letter (the Ruler shows its K or Q):

- command pieces (General, Ruler) have a second, inner outline;
- a defending Soldier carries a white shield in its top-right corner;
- an unready Cannon is pale with its letter upside down (the rule book turns it over);
- a stunned Assassin is pale too (it may not act this turn);
- a doomed command piece has a red ring and a red cross badge;
- a hidden Assassin (only ever in its owner's image) is a pale disc in a dashed purple ring,
  drawn small in a corner when it shares its square with another piece (R40).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from rules.tora import CANNON, COMMAND_KINDS, SOLDIER, PieceView, Side

from .. import palette as pal
from ..fonts import font
from ..palette import cell_in_rgb, to_palette
from ..shapes import dashed_ellipse
from ..strokes import SUPERSAMPLE

DISC_RADIUS = 0.39  # of the cell: Challenger pieces
SQUARE_HALF = 0.35  # of the cell: Opposition pieces
BADGE_RADIUS = 0.21  # of the cell: the numbered disc of an action
SMALL_SCALE = 0.62  # of the cell: a piece drawn in the corner of a square


class Look(NamedTuple):
    side: Side
    letter: str
    command: bool = False
    defending: bool = False
    pale: bool = False
    flipped: bool = False
    doomed: bool = False
    hidden: bool = False


def look_of(piece: PieceView) -> Look:
    return Look(
        side=piece.side,
        letter=piece.letter,
        command=piece.kind in COMMAND_KINDS,
        defending=piece.kind == SOLDIER and piece.defending,
        pale=(piece.kind == CANNON and not piece.ready) or piece.stunned,
        flipped=piece.kind == CANNON and not piece.ready,
        doomed=piece.doomed,
        hidden=piece.hidden,
    )


@lru_cache(maxsize=512)
def sprite(look: Look, cell: int) -> Image.Image:
    """An RGBA image of one cell with the piece centred on a transparent background."""
    k = SUPERSAMPLE
    size = cell * k
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if look.hidden:
        _hidden(draw, size, look.pale)
    else:
        _body(draw, look, size)
        _letter(image, look, size)
        if look.defending:
            _shield(draw, look.side, size)
        if look.doomed:
            _doom_badge(draw, size)
    return image.reduce(k)


@lru_cache(maxsize=2048)
def tile(look: Look, cell: int, background: bytes) -> Image.Image:
    """The sprite finished on one exact background (a cell of palette indices), in the
    palette: a piece on a square nothing was drawn on is then a plain paste."""
    region = cell_in_rgb(background, cell)
    piece = sprite(look, cell)
    region.paste(piece, (0, 0), piece)
    return to_palette(region)


def small_sprite(look: Look, cell: int) -> Image.Image:
    """The sprite drawn smaller, for a corner of a square another piece stands on."""
    return sprite(look, max(12, round(cell * SMALL_SCALE)))


@lru_cache(maxsize=256)
def ghost(side: Side, letter: str, cell: int) -> Image.Image:
    """The small marker left where a piece was removed: the piece, shrunk, struck through."""
    image = small_sprite(Look(side, letter), cell).copy()
    k, small = SUPERSAMPLE, image.width
    mark = Image.new("RGBA", (small * k, small * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(mark)
    a, b, w = small * k * 0.12, small * k * 0.88, round(small * k * 0.11)
    draw.line((a, a, b, b), fill=pal.WHITE, width=w + 2 * k)
    draw.line((a, a, b, b), fill=pal.DOOM, width=w)
    image.alpha_composite(mark.reduce(k))
    return image


@lru_cache(maxsize=256)
def badge(colour: pal.RGB, number: int, cell: int) -> Image.Image:
    """A small numbered disc: the order of the actions of a turn."""
    k = SUPERSAMPLE
    r = max(7.0, cell * BADGE_RADIUS) * k
    size = round(2 * r + 2 * k)
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    draw.ellipse((c - r, c - r, c + r, c + r), fill=colour, outline=pal.WHITE, width=round(r / 5))
    draw.text((c, c + k / 2), str(number), pal.WHITE, font(round(r * 1.3), bold=True), anchor="mm")
    return image.reduce(k)


def _outline(look: Look, size: int, grow: float = 0.0) -> tuple[str, tuple[float, ...], float]:
    """The piece's shape: ('disc' | 'square', box, corner radius), grown by ``grow`` cells."""
    c = size / 2
    if look.side == Side.CHALLENGER:
        r = size * (DISC_RADIUS + grow)
        return "disc", (c - r, c - r, c + r, c + r), 0.0
    half = size * (SQUARE_HALF + grow)
    return "square", (c - half, c - half, c + half, c + half), size * (0.09 + grow)


def _shape(
    draw: ImageDraw.ImageDraw,
    look: Look,
    size: int,
    grow: float,
    fill: pal.RGB | None = None,
    outline: pal.RGB | None = None,
    width: int = 1,
) -> None:
    kind, box, radius = _outline(look, size, grow)
    if kind == "disc":
        draw.ellipse(box, fill, outline, width)
    else:
        draw.rounded_rectangle(box, radius, fill, outline, width)


def _body(draw: ImageDraw.ImageDraw, look: Look, size: int) -> None:
    side = look.side
    if look.doomed:
        _shape(draw, look, size, 0.09, fill=pal.DOOM)
        _shape(draw, look, size, 0.045, fill=pal.WHITE)
    fill = pal.FADED[side] if look.pale else pal.FILL[side]
    _shape(draw, look, size, 0.0, fill=fill, outline=pal.EDGE[side], width=round(size * 0.05))
    if look.command:
        _shape(draw, look, size, -0.075, outline=pal.INK[side], width=round(size * 0.028))


def _letter(image: Image.Image, look: Look, size: int) -> None:
    face = font(round(size * (0.4 if look.command else 0.46)), bold=True)
    ink = pal.EDGE[look.side] if look.pale else pal.INK[look.side]
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((size / 2, size / 2), look.letter, ink, face, anchor="mm")
    if look.flipped:
        layer = layer.rotate(180)
    image.alpha_composite(layer)


def _shield(draw: ImageDraw.ImageDraw, side: Side, size: int) -> None:
    """A small heater shield at the top-right corner: this Soldier defends (R16, R17)."""
    x, y, w = size * 0.66, size * 0.06, size * 0.3
    outline = [
        (x, y),
        (x + w, y),
        (x + w, y + w * 0.55),
        (x + w / 2, y + w * 1.15),
        (x, y + w * 0.55),
    ]
    draw.polygon(outline, fill=pal.WHITE, outline=pal.EDGE[side], width=round(size * 0.03))
    draw.line(
        (x + w / 2, y + w * 0.2, x + w / 2, y + w * 0.85),
        fill=pal.EDGE[side],
        width=round(size * 0.03),
    )


def _doom_badge(draw: ImageDraw.ImageDraw, size: int) -> None:
    r, cx, cy = size * 0.14, size * 0.83, size * 0.83
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=pal.DOOM,
        outline=pal.WHITE,
        width=round(size * 0.025),
    )
    d, w = r * 0.5, round(size * 0.035)
    draw.line((cx - d, cy - d, cx + d, cy + d), fill=pal.WHITE, width=w)
    draw.line((cx - d, cy + d, cx + d, cy - d), fill=pal.WHITE, width=w)


def _hidden(draw: ImageDraw.ImageDraw, size: int, stunned: bool) -> None:
    """The owner's own hidden Assassin: pale and dashed, so it never reads as a piece that
    everyone can see. Its letter is grey while it is stunned (R42)."""
    r, c = size * 0.42, size / 2
    box = (c - r, c - r, c + r, c + r)
    draw.ellipse(box, fill=(255, 255, 255, 215))
    dashed_ellipse(draw, box, pal.HIDDEN, max(round(size * 0.08), 2 * SUPERSAMPLE), 10)
    ink = pal.MUTED if stunned else pal.HIDDEN
    draw.text((c, c), "X", ink, font(round(size * 0.5), bold=True), anchor="mm")
