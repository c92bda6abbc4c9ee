"""PNG encoding (deterministic: no timestamps, no text chunks) and running renders off the
event loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import ParamSpec

from PIL import Image

# zlib level 6 with the PNG "sub"-free default filter choice: about 2 ms for a long board, and
# within a few percent of the smallest file level 9 gives (which takes six times as long).
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
