"""PNG files of board pictures, deflated band by band, each band's bytes kept by its pixels.

A board picture differs from the one before it (the same match's last picture, the other
reader's picture of the same turn) in its status lines and a few rows of squares, yet
deflating the whole of it again (zlib level 6) cost twice as much as drawing it. So a picture
is cut into horizontal bands where its drawing says (``starts``: the status lines, each row
of squares), each band is deflated on its own and kept, and the PNG's one zlib stream is the
bands' deflated bytes end to end, as pigz joins the blocks it deflates in parallel: each band
ends with a sync flush (byte-aligned, not final), and its only history is the row above it,
given to the compressor as a preset dictionary (the decoder holds that row already: it is
the data just before). A band's bytes are a function of its own pixels and the row above and
of nothing else: the same picture is the same file in every process whatever its cache held.
The cache is keyed by those pixels themselves (not a digest of them), so a band is only ever
reused for exactly the pixels it was deflated from: nothing of one picture can appear in
another.
"""

from __future__ import annotations

import itertools
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

# zlib level 6, of the pictures Pillow writes whole (charts, ladders, score cards): level 5
# saves a tenth of the time but makes files a sixth larger; level 9 saves a tenth of the size
# for five times the time.
LEVEL = 6
# A band's level: its only history is the row above it, and level 7 wins back part of what
# that costs (a short board's largest file 10.1 -> 9.7 KiB, a long one's 24.4 -> 23.2) in
# about the same time as 6 (only changed bands are deflated); 8 takes half as long again.
BAND_LEVEL = 7
CACHE_BYTES = 16 * 1024 * 1024  # keys and deflated bytes kept, in each process
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"  # deflate with a 32 KiB window, default level, no dictionary
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): the end of a deflate stream
_ADLER_BASE = 65521
_NO_FILTER = b"\x00"  # each row's PNG filter type: none (a palette image gains nothing)

# A band: the picture's width, how many of its pixels are the row above it, and its pixels
Key = tuple[int, int, bytes]


@dataclass(frozen=True)
class Band:
    """A band's rows deflated (``deflated``), with the Adler-32 checksum and the length of
    the rows as the zlib stream holds them (each row after its filter type)."""

    deflated: bytes
    adler: int
    length: int


class BandCache:
    """The most recently used bands, up to ``most`` bytes of keys and deflated bytes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._bands: OrderedDict[Key, Band] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # pictures are drawn in worker threads too

    @property
    def size(self) -> int:
        """Bytes kept now."""
        return self._size

    def get(self, key: Key) -> Band | None:
        with self._lock:
            band = self._bands.get(key)
            if band is not None:
                self._bands.move_to_end(key)
            return band

    def put(self, key: Key, band: Band) -> None:
        size = len(key[2]) + len(band.deflated)
        if size > self.most:
            return
        with self._lock:
            if key in self._bands:
                return
            self._bands[key] = band
            self._size += size
            while self._size > self.most:
                (_width, _above, pixels), dropped = self._bands.popitem(last=False)
                self._size -= len(pixels) + len(dropped.deflated)


CACHE = BandCache(CACHE_BYTES)


def is_banded(image: Image.Image) -> bool:
    """Whether ``banded_png`` writes ``image`` as Pillow would (an opaque palette image
    with an RGB palette); any other is Pillow's to write."""
    return (
        image.mode == "P"
        and "transparency" not in image.info
        and image.palette is not None
        and image.palette.mode == "RGB"
    )


def banded_png(image: Image.Image, starts: Sequence[int], cache: BandCache | None = None) -> bytes:
    """``image`` (see ``is_banded``) as a PNG, its bands starting at row 0 and at each of
    ``starts``, kept in ``cache`` (None: this process's ``CACHE``). The same pixels and
    ``starts`` give the same bytes, whatever the cache held."""
    cache = CACHE if cache is None else cache
    if not is_banded(image):
        raise ValueError("banded_png writes opaque palette images with an RGB palette")
    width, height = image.size
    pixels = memoryview(image.tobytes())
    cuts = [*sorted({0, *(y for y in starts if 0 < y < height)}), height]
    stream = [_ZLIB_HEADER]
    adler = 1
    for top, bottom in itertools.pairwise(cuts):
        above = width if top else 0  # the row above: the data just before, in the image too
        band = _band(width, bytes(pixels[top * width - above : bottom * width]), above, cache)
        stream.append(band.deflated)
        adler = _adler_combine(adler, band.adler, band.length)
    stream += [_LAST_BLOCK, adler.to_bytes(4, "big")]
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes((8, 3, 0, 0, 0))
    palette = bytes(image.getpalette("RGB") or ())
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(stream)),
            _chunk(b"IEND", b""),
        )
    )


def _band(width: int, rows: bytes, above: int, cache: BandCache) -> Band:
    """The band of ``rows`` (its pixels, after the ``above`` pixels of the row above it),
    from the cache or deflated now."""
    key = (width, above, rows)
    band = cache.get(key)
    if band is None:
        band = _deflate(width, rows, above)
        cache.put(key, band)
    return band


def _deflate(width: int, rows: bytes, above: int) -> Band:
    filtered = b"".join(_NO_FILTER + rows[at : at + width] for at in range(above, len(rows), width))
    if above:
        history = _NO_FILTER + rows[:above]
        compressor = zlib.compressobj(BAND_LEVEL, zlib.DEFLATED, -15, zdict=history)
    else:
        compressor = zlib.compressobj(BAND_LEVEL, zlib.DEFLATED, -15)
    deflated = compressor.compress(filtered) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return Band(deflated, zlib.adler32(filtered), len(filtered))


def _adler_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two pieces of data end to end, from each one's checksum and the
    second's length (zlib's adler32_combine, which Python's zlib does not offer)."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _ADLER_BASE
    b = (b1 + b2 + length * (a1 - 1)) % _ADLER_BASE
    return a | b << 16


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        len(data).to_bytes(4, "big")
        + kind
        + data
        + zlib.crc32(data, zlib.crc32(kind)).to_bytes(4, "big")
    )
