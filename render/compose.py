"""Drawing anti-aliased things onto a palette image, touching only the pixels they cover.

A board image lives in the fixed palette from the start (a copy of the cached base board).
Whatever needs blending (a sprite's soft edge, an arrow) is done on an RGB copy of just the
rectangle it covers, which is then mapped back onto the palette: that costs a fraction of
mapping the whole image.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from PIL import Image

from .palette import RGB, to_palette

Box = tuple[int, int, int, int]
BLENDS_BYTES = 12 * 1024 * 1024  # blends kept, with their keys' bytes and the sprites they hold
# A sprite's blend: the sprite's id, the part of it pasted (left, top, width), the canvas's
# palette and its pixels under that part
SpriteKey = tuple[int, int, int, int, bytes, bytes]
# Strokes' blend: each stroke's colour and what its mask is made from (``paste_colours``), the
# box, the canvas's palette and its pixels under the box
StrokesKey = tuple[tuple[tuple[RGB, Hashable], ...], Box, bytes, bytes]
Under = SpriteKey | StrokesKey
Shape = TypeVar("Shape", bound=Hashable)  # what a stroke's mask is made from


class _Blends:
    """The most recently made blends, up to ``most`` bytes: their pixels, their keys' palette
    and pixels under them, and once each sprite they hold. A sprite's blend holds the sprite,
    so that its id (in the key) is no other sprite's while the blend is kept."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[Under, tuple[Image.Image | None, Image.Image]] = OrderedDict()
        self._holding: Counter[int] = Counter()  # blends kept holding a sprite, by its id
        self._size = 0
        self._lock = threading.Lock()  # pictures are drawn in worker threads too

    def get(self, key: Under) -> Image.Image | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
            return found[1]

    def put(self, key: Under, sprite: Image.Image | None, blend: Image.Image) -> None:
        with self._lock:
            if key in self._kept:
                self._drop(key)
            self._kept[key] = (sprite, blend)
            self._size += len(key[-2]) + len(key[-1]) + _bytes(blend)
            if sprite is not None:
                self._size += 0 if self._holding[id(sprite)] else _bytes(sprite)
                self._holding[id(sprite)] += 1
            while self._size > self.most:
                self._drop(next(iter(self._kept)))

    def _drop(self, key: Under) -> None:
        sprite, blend = self._kept.pop(key)
        self._size -= len(key[-2]) + len(key[-1]) + _bytes(blend)
        if sprite is not None:
            self._holding[id(sprite)] -= 1
            if not self._holding[id(sprite)]:
                del self._holding[id(sprite)]
                self._size -= _bytes(sprite)


def _bytes(image: Image.Image) -> int:
    return image.width * image.height * len(image.getbands())


_BLENDS = _Blends(BLENDS_BYTES)


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
    blend = _BLENDS.get(key)
    if blend is None:
        region = under.convert("RGB")
        crop = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
        region.paste(crop, (0, 0), crop)
        blend = to_palette(region)
        _BLENDS.put(key, sprite, blend)
    canvas.paste(blend, box[:2])


def paste_colours(
    canvas: Image.Image,
    box: Box,
    layers: Sequence[tuple[RGB, Shape]],
    mask: Callable[[Shape, Box], Image.Image],
) -> None:
    """Blend each colour through the "L" mask ``mask`` makes of its layer's shape over
    ``box`` onto the palette canvas, in order. The blend is kept by the colours, the shapes
    and the pixels under them (a mask is made only for a blend not kept): a turn's arrows
    are drawn again on each picture of the turn, mostly on the same pixels."""
    under = canvas.crop(box)
    palette = bytes(canvas.getpalette() or ())
    key = (tuple(layers), box, palette, under.tobytes())
    blend = _BLENDS.get(key)
    if blend is None:
        region = under.convert("RGB")
        for colour, shape in layers:
            region.paste(colour, (0, 0, *region.size), mask(shape, box))
        blend = to_palette(region)
        _BLENDS.put(key, None, blend)
    canvas.paste(blend, box[:2])
