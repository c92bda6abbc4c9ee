"""Gateway transport compression, as the client asks for it in ``?compress=``.

discord.py 2.7 asks for ``zstd-stream`` when ``zstandard`` (or Python 3.14's
``compression.zstd``) is importable, else ``zlib-stream``. Both are one stream per
connection, each message flushed so the client can decode it on its own: zlib with
Z_SYNC_FLUSH (every message ends in 00 00 ff ff, which discord.py checks for), zstd
with a block flush."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Protocol


class Encoder(Protocol):
    def encode(self, text: str) -> bytes | str: ...


class Plain:
    def encode(self, text: str) -> str:
        return text


class ZlibStream:
    def __init__(self) -> None:
        self._compressor = zlib.compressobj()

    def encode(self, text: str) -> bytes:
        return self._compressor.compress(text.encode()) + self._compressor.flush(zlib.Z_SYNC_FLUSH)


class ZstdStream:
    def __init__(self) -> None:
        self._encode = _zstd_encoder()

    def encode(self, text: str) -> bytes:
        return self._encode(text.encode())


def _zstd_encoder() -> Callable[[bytes], bytes]:
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        import zstandard  # type: ignore[import-not-found]

        stream = zstandard.ZstdCompressor().compressobj()
        return lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    compressor = zstd.ZstdCompressor()
    return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)


def zstd_available() -> bool:
    try:
        _zstd_encoder()
    except ImportError:
        return False
    return True


def encoder_for(compress: str | None) -> Encoder:
    """ValueError for a compression this process cannot speak."""
    if compress is None:
        return Plain()
    if compress == "zlib-stream":
        return ZlibStream()
    if compress == "zstd-stream" and zstd_available():
        return ZstdStream()
    raise ValueError(f"unsupported compress={compress}")
