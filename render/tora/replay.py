"""Animated replays: one frame per turn, as a GIF (Discord plays GIFs inline everywhere).

``replay_gif`` draws public views only, in order. ``views_from_record`` produces them from a
game record (R50) by replaying it turn by turn through the rules core: the start position,
then the board after each finished turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.tora import View, replay

from ..encode import gif_bytes
from ..status import Mode, StatusFields
from .board import board_image


def replay_gif(views: Sequence[View], info: StatusFields) -> bytes:
    """A looping GIF with one frame per view (spectator views: the public board)."""
    if any(view.viewer is not None for view in views):
        raise ValueError("a replay is drawn from public views (view_for(None)) only")
    return gif_bytes([board_image(view, info, Mode.PUBLIC) for view in views])


def views_from_record(text: str) -> list[View]:
    """The public view at the start and after every turn of a record (RecordError or
    ReplayError, from rules.tora.record, if the record is malformed or illegal)."""
    views: list[View] = []
    replay(text, trusted=True, each_turn=lambda game: views.append(game.view_for(None)))
    return views
