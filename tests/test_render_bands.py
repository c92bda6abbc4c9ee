"""Board pictures written band by band (``render.bands``, issue 26): every game's board is the
very picture drawn, a picture is the same file whatever the band cache held, and a kept band
(or a kept blend of a sprite) is only ever reused for the very same pixels (nothing of one
picture, a player's own with its hidden Assassin, reaches another)."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable

import pytest
from PIL import Image

from render import bands
from render import palette as pal
from render.bands import BandCache, banded_png
from render.compose import paste_rgba
from render.status import Mode, StatusInfo
from render.tora import board as tora_board
from render.tora.layout import layout_for
from render.tora.samples import (
    PLAYERS,
    assassin_turn,
    long_start,
    mid_game,
    private_preview,
    short_start,
)
from render.torii import board as torii_board
from render.torii.examples import start_view
from render.torii.layout import BANDS as TORII_BANDS
from render.torishogi import board as torishogi_board
from render.torishogi.examples import check_game
from render.torishogi.layout import layout_for as torishogi_layout
from rules.sides import Side

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")

Drawn = Callable[[], tuple[Image.Image, tuple[int, ...]]]


def _tora(view_of: Callable[[], object], mode: Mode) -> Drawn:
    def drawn() -> tuple[Image.Image, tuple[int, ...]]:
        view = view_of()
        image = tora_board.board_image(view, PLAYERS, mode)  # type: ignore[arg-type]
        return image, layout_for(view.size).bands  # type: ignore[attr-defined]

    return drawn


def _torishogi(viewer: Side | None) -> Drawn:
    def drawn() -> tuple[Image.Image, tuple[int, ...]]:
        view = check_game().view_for(viewer)
        return torishogi_board.board_image(view, INFO), torishogi_layout(view.viewer).bands

    return drawn


def _torii() -> tuple[Image.Image, tuple[int, ...]]:
    return torii_board.board_image(start_view(), INFO), TORII_BANDS


PICTURES: dict[str, Drawn] = {
    "TORA short start": _tora(short_start, Mode.PUBLIC),
    "TORA long start, highlands": _tora(long_start, Mode.PUBLIC),
    "TORA long mid-game": _tora(mid_game, Mode.PUBLIC),
    "TORA preview with a hidden Assassin": _tora(private_preview, Mode.PREVIEW),
    "ToriShogi, a spectator's": _torishogi(None),
    "ToriShogi, the Opposition's own": _torishogi(Side.OPPOSITION),
    "Torii start": _torii,
}


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def idat(data: bytes) -> bytes:
    """The PNG's image data, inflated (zlib checks the stream's Adler-32)."""
    at, stream = 8, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"{kind!r} chunk's CRC"
        stream += body if kind == b"IDAT" else b""
        at += 12 + length
    return zlib.decompress(stream)


@pytest.mark.parametrize("name", PICTURES)
def test_every_games_board_is_the_very_picture_drawn(name):
    image, starts = PICTURES[name]()
    data = banded_png(image, starts, BandCache(1 << 20))
    back = decoded(data)
    assert back.mode == "P" and back.size == image.size
    assert back.tobytes() == image.tobytes()
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert len(idat(data)) == image.height * (image.width + 1)


@pytest.mark.parametrize("name", PICTURES)
def test_a_picture_is_the_same_file_whatever_the_cache_held(name):
    image, starts = PICTURES[name]()
    alone = banded_png(image, starts, BandCache(1 << 20))
    warm = BandCache(1 << 20)
    for other in PICTURES.values():
        banded_png(*other(), warm)
    assert banded_png(image, starts, warm) == alone
    assert banded_png(image, starts, warm) == alone  # every band from the cache
    assert banded_png(image, starts, BandCache(0)) == alone  # none kept


def test_the_board_files_are_hardly_larger_than_one_deflated_whole():
    image, starts = PICTURES["TORA long mid-game"]()
    whole = io.BytesIO()
    image.save(whole, "PNG", compress_level=bands.LEVEL)
    assert len(banded_png(image, starts, BandCache(0))) <= 1.2 * len(whole.getvalue())


def test_a_kept_band_is_reused_only_for_the_same_pixels_and_the_same_row_above():
    """A band's deflated bytes refer back to the row above it: a band whose own pixels are
    unchanged under a changed row is deflated again, not taken from the cache."""
    image, starts = PICTURES["TORA short start"]()
    cache = BandCache(1 << 20)
    banded_png(image, starts, cache)
    changed = image.copy()
    row = layout_for(9).bands[3] - 1  # the last row of a band: the history of the next one
    for x in range(0, image.width, 3):
        changed.putpixel((x, row), 0)
    changed.putpixel((image.width // 2, image.height - 1), 0)  # the last band's own pixels
    back = decoded(banded_png(changed, starts, cache))
    assert back.tobytes() == changed.tobytes()
    assert banded_png(changed, starts, cache) == banded_png(changed, starts, BandCache(0))


def test_a_players_own_picture_leaves_nothing_in_the_next_public_file(monkeypatch):
    """The owner's picture of their hidden Assassin's move, then the public board of the
    same turn: the public file is what it is with an empty cache, byte for byte."""
    game = assassin_turn()
    public = game.view_for(None)
    monkeypatch.setattr(bands, "CACHE", BandCache(bands.CACHE_BYTES))
    alone = tora_board.board_png(public, INFO)
    monkeypatch.setattr(bands, "CACHE", BandCache(bands.CACHE_BYTES))
    for side in Side:
        tora_board.private_png(game.view_for(side), INFO)
    assert tora_board.board_png(public, INFO) == alone


def test_the_band_cache_keeps_at_most_its_bytes():
    image, starts = PICTURES["TORA long mid-game"]()
    cache = BandCache(64 * 1024)
    for colour in range(8):
        changed = image.copy()
        changed.paste(colour, (0, 0, image.width, image.height // 2))
        banded_png(changed, starts, cache)
        assert cache.size <= 64 * 1024
    assert decoded(banded_png(image, starts, cache)).tobytes() == image.tobytes()


def test_a_kept_blend_is_reused_only_over_the_same_pixels():
    """A sprite blended onto a square is kept by the pixels under it: the same sprite over
    other pixels (an arrow under it this time) is blended anew."""
    image, _starts = PICTURES["TORA short start"]()
    sprite = Image.new("RGBA", (30, 30), (0, 0, 0, 0))
    sprite.paste((200, 30, 30, 128), (5, 5, 25, 25))
    plain, marked = image.copy(), image.copy()
    marked.paste(pal.index(pal.BLACK), (100, 110, 140, 114))
    expected = []
    for canvas in (plain, marked):
        region = canvas.crop((100, 100, 130, 130)).convert("RGB")
        region.paste(sprite, (0, 0), sprite)
        expected.append(pal.to_palette(region).tobytes())
    for canvas, blended in zip((plain, marked, plain), (*expected, expected[0]), strict=True):
        drawn = canvas.copy()
        paste_rgba(drawn, sprite, (100, 100))
        assert drawn.crop((100, 100, 130, 130)).tobytes() == blended
