"""Drawing anti-aliased things onto a palette image, touching only the pixels they cover.

A board image lives in the fixed palette from the start (a copy of the cached base board).
Whatever needs blending (a sprite's soft edge, an arrow) is done on an RGB copy of just the
rectangle it covers, which is then mapped back onto the palette: that costs a fraction of
mapping the whole image.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from PIL import Image

from .palette import RGB, to_palette

Box = tuple[int, int, int, int]
BLENDS = 1024  # sprites blended onto what lay under them, kept
# A blend: the sprite's id, the part of it pasted (left, top, width), the canvas's palette
# and its pixels under that part
Under = tuple[int, int, int, int, bytes, bytes]


class _Blends:
    """The most recently made blends, each with the sprite it was made of (so that a
    sprite drawn anew, whose id may be a dropped one's, is never taken for it)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[Under, tuple[Image.Image, Image.Image]] = OrderedDict()
        self._lock = threading.Lock()  # pictures are drawn in worker threads too

    def get(self, key: Under, sprite: Image.Image) -> Image.Image | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None or found[0] is not sprite:
                return None
            self._kept.move_to_end(key)
            return found[1]

    def put(self, key: Under, sprite: Image.Image, blend: Image.Image) -> None:
        with self._lock:
            self._kept[key] = (sprite, blend)
            self._kept.move_to_end(key)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)


_BLENDS = _Blends(BLENDS)


def clip(canvas: Image.Image, box: Box) -> Box:
    left, top, right, bottom = box
    return max(left, 0), max(top, 0), min(right, canvas.width), min(bottom, canvas.height)


def paste_rgba(canvas: Image.Image, sprite: Image.Image, at: tuple[int, int]) -> None:
    """Blend an RGBA sprite onto the palette canvas with its top-left corner at ``at``.
    The blend is kept by the sprite and the pixels under it: the same piece on the same
    square, a turn's badges on each picture of the turn, are blended once."""
    x, y = at
    box = clip(canvas, (x, y, x + sprite.width, y + sprite.height))
    under = canvas.crop(box)
    palette = bytes(canvas.getpalette() or ())
    key = (id(sprite), box[0] - x, box[1] - y, box[2] - box[0], palette, under.tobytes())
    blend = _BLENDS.get(key, sprite)
    if blend is None:
        region = under.convert("RGB")
        crop = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
        region.paste(crop, (0, 0), crop)
        blend = to_palette(region)
        _BLENDS.put(key, sprite, blend)
    canvas.paste(blend, box[:2])


def paste_colours(canvas: Image.Image, box: Box, layers: Sequence[tuple[RGB, Image.Image]]) -> None:
    """Blend each colour through its "L" mask (the size of ``box``) onto the palette canvas,
    in order."""
    region = canvas.crop(box).convert("RGB")
    for colour, mask in layers:
        region.paste(colour, (0, 0, *region.size), mask)
    canvas.paste(to_palette(region), box[:2])
