"""Animated replays of ToriShogi games: one frame per view, as a looping GIF."""

from __future__ import annotations

from collections.abc import Sequence

from rules.torishogi import View, read_record

from ..encode import gif_bytes
from .board import board_image
from .status import StatusFields


def views_from_record(text: str) -> list[View]:
    """The public view at the start and after every line of a ToriShogi record (its
    ``RecordError`` or ``ReplayError`` if it is malformed or illegal)."""
    views: list[View] = []
    read_record(text, each_turn=lambda game: views.append(game.view_for(None)))
    return views


def replay_gif(views: Sequence[View], info: StatusFields) -> bytes:
    """Every frame drawn as ``board_png`` draws its view, all in the one fixed palette."""
    return gif_bytes([board_image(view, info) for view in views])
