"""Drawing anti-aliased things onto a palette image, touching only the pixels they cover.

A board image lives in the fixed palette from the start (a copy of the cached base board).
Whatever needs blending (a sprite's soft edge, an arrow) is done on an RGB copy of just the
rectangle it covers, which is then mapped back onto the palette: that costs a fraction of
mapping the whole image.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from .palette import RGB, to_palette

Box = tuple[int, int, int, int]


def clip(canvas: Image.Image, box: Box) -> Box:
    left, top, right, bottom = box
    return max(left, 0), max(top, 0), min(right, canvas.width), min(bottom, canvas.height)


def paste_rgba(canvas: Image.Image, sprite: Image.Image, at: tuple[int, int]) -> None:
    """Blend an RGBA sprite onto the palette canvas with its top-left corner at ``at``."""
    x, y = at
    box = clip(canvas, (x, y, x + sprite.width, y + sprite.height))
    region = canvas.crop(box).convert("RGB")
    crop = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
    region.paste(crop, (0, 0), crop)
    canvas.paste(to_palette(region), box[:2])


def paste_colours(canvas: Image.Image, box: Box, layers: Sequence[tuple[RGB, Image.Image]]) -> None:
    """Blend each colour through its "L" mask (the size of ``box``) onto the palette canvas,
    in order."""
    region = canvas.crop(box).convert("RGB")
    for colour, mask in layers:
        region.paste(colour, (0, 0, *region.size), mask)
    canvas.paste(to_palette(region), box[:2])
