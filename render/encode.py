"""PNG encoding (deterministic: no timestamps, no text chunks) and running renders off the
event loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import ParamSpec

from PIL import Image

# zlib level 6: level 5 saves a tenth of the time but makes files a sixth larger (the short
# board would pass 10 KiB); level 9 saves a tenth of the size for five times the time.
PNG_LEVEL = 6

Params = ParamSpec("Params")


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


async def render_async(
    render: Callable[Params, bytes], *args: Params.args, **kwargs: Params.kwargs
) -> bytes:
    """Run any of the ``*_png`` / replay functions in a worker thread, so drawing and
    compressing never block the bot's event loop: ``await render_async(board_png, view, info)``.
    """
    return await asyncio.to_thread(render, *args, **kwargs)
