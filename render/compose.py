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
BLENDS_BYTES = 12 * 1024 * 1024  # blends kept, with the pixels under them that are their keys
# A blend: what was blended (a sprite's id and the part of it pasted: left, top, width; or
# each stroke's colour and mask's id), the canvas's palette and its pixels under it
Under = tuple[object, ...]


class _Blends:
    """The most recently made blends, up to ``most`` bytes of keys and pixels, each with
    the images it was made of (so that a sprite or mask drawn anew, whose id may be a
    dropped one's, is never taken for it)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[Under, tuple[tuple[Image.Image, ...], Image.Image]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # pictures are drawn in worker threads too

    def get(self, key: Under, made_of: tuple[Image.Image, ...]) -> Image.Image | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None or any(a is not b for a, b in zip(found[0], made_of, strict=True)):
                return None
            self._kept.move_to_end(key)
            return found[1]

    def put(self, key: Under, made_of: tuple[Image.Image, ...], blend: Image.Image) -> None:
        size = _size(key, blend)
        with self._lock:
            old = self._kept.pop(key, None)
            self._size -= 0 if old is None else _size(key, old[1])
            self._kept[key] = (made_of, blend)
            self._size += size
            while self._size > self.most:
                dropped, (_made_of, image) = self._kept.popitem(last=False)
                self._size -= _size(dropped, image)


def _size(key: Under, blend: Image.Image) -> int:
    """Bytes a blend holds: the pixels under it (the last part of its key) and its own."""
    under = key[-1]
    return (len(under) if isinstance(under, bytes) else 0) + blend.width * blend.height


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
    blend = _BLENDS.get(key, (sprite,))
    if blend is None:
        region = under.convert("RGB")
        crop = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
        region.paste(crop, (0, 0), crop)
        blend = to_palette(region)
        _BLENDS.put(key, (sprite,), blend)
    canvas.paste(blend, box[:2])


def paste_colours(canvas: Image.Image, box: Box, layers: Sequence[tuple[RGB, Image.Image]]) -> None:
    """Blend each colour through its "L" mask (the size of ``box``) onto the palette canvas,
    in order. The blend is kept by the colours, the masks and the pixels under them: a
    turn's arrows are drawn again on each picture of the turn, mostly on the same pixels."""
    under = canvas.crop(box)
    masks = tuple(mask for _colour, mask in layers)
    colours = tuple((colour, id(mask)) for colour, mask in layers)
    palette = bytes(canvas.getpalette() or ())
    key = (colours, box[2] - box[0], palette, under.tobytes())
    blend = _BLENDS.get(key, masks)
    if blend is None:
        region = under.convert("RGB")
        for colour, mask in layers:
            region.paste(colour, (0, 0, *region.size), mask)
        blend = to_palette(region)
        _BLENDS.put(key, masks, blend)
    canvas.paste(blend, box[:2])
