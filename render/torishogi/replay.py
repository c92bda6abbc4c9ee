"""Animated replays of ToriShogi games: one frame per view, as a looping GIF."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rules.torishogi import View

from .board import board_image
from .status import StatusFields

FRAME_MS = 1200
LAST_FRAME_MS = 4000
DISCORD_LIMIT = 10 * 1024 * 1024


def replay_gif(views: Sequence[View], info: StatusFields) -> bytes:
    """Every frame drawn as ``board_png`` draws its view, all in the one fixed palette."""
    if not views:
        raise ValueError("a replay needs at least one view")
    frames = [board_image(view, info) for view in views]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    data = out.getvalue()
    if len(data) > DISCORD_LIMIT:
        raise ValueError(f"the replay is {len(data)} bytes, over Discord's 10 MiB")
    return data
