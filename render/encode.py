"""PNG and GIF encoding (deterministic: no timestamps, no text chunks) and running renders
off the event loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence
from typing import ParamSpec

from PIL import Image

from .bands import LEVEL, banded_png, is_banded

FRAME_MS = 1200  # a replay's frame; the last one stays longer
LAST_FRAME_MS = 4000
DISCORD_LIMIT = 10 * 1024 * 1024  # bytes of an attachment
REPLAY_BUDGET = 8 * 1024 * 1024  # what a replay's frames are bounded to: room to spare
# GIF bytes per pixel of a replay's busiest frame, with room: measured over random games
# with 32-character names, the worst frames took 0.097 (ToriShogi, full hands), 0.074 (TORA,
# both boards) and 0.075 (Torii).
FRAME_BYTES_PER_PIXEL = 0.1

Params = ParamSpec("Params")


def png_bytes(image: Image.Image, bands: Sequence[int] | None = None) -> bytes:
    """``image`` as a PNG; with ``bands`` (the rows where a board picture's bands start), a
    palette image is deflated band by band, each band kept for the next picture
    (``render.bands``): the same pixels as Pillow's file, in a few more bytes."""
    if bands is not None and is_banded(image):
        return banded_png(image, bands)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=LEVEL)
    return out.getvalue()


class TooLarge(ValueError):
    """A replay GIF over Discord's limit."""


def most_frames(size: tuple[int, int]) -> int:
    """How many frames of ``size`` pixels a replay may have, so that even the busiest stay
    within ``REPLAY_BUDGET``."""
    return max(1, int(REPLAY_BUDGET / (size[0] * size[1] * FRAME_BYTES_PER_PIXEL)))


def gif_bytes(frames: Sequence[Image.Image]) -> bytes:
    """A looping replay GIF of ``frames`` (all in one fixed palette, so not optimised);
    ValueError if there is none, ``TooLarge`` if the file would pass Discord's 10 MiB."""
    if not frames:
        raise ValueError("a replay needs at least one view")
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=list(frames[1:]),
        duration=[FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS],
        loop=0,
        optimize=False,
    )
    data = out.getvalue()
    if len(data) > DISCORD_LIMIT:
        raise TooLarge(f"the replay is {len(data)} bytes, over Discord's 10 MiB")
    return data


async def render_async(
    render: Callable[Params, bytes], *args: Params.args, **kwargs: Params.kwargs
) -> bytes:
    """Run any of the ``*_png`` / replay functions in a worker thread, so drawing and
    compressing never block the bot's event loop: ``await render_async(board_png, view, info)``.
    """
    return await asyncio.to_thread(render, *args, **kwargs)
