"""Animated replays: one frame per turn, as a GIF (Discord plays GIFs inline everywhere).

``replay_gif`` draws public views only, in order. ``views_from_record`` produces them from a
game record (R50) by replaying it turn by turn through the rules core: the start position,
then the board after each finished turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from rules.tora import Game, View, replay

from ..encode import gif_bytes
from ..status import Mode, StatusFields
from .board import board_image


def replay_gif(views: Sequence[View], info: StatusFields) -> bytes:
    """A looping GIF with one frame per view (spectator views: the public board)."""
    return gif_bytes([frame(view, info) for view in views])


def frame(view: View, info: StatusFields) -> Image.Image:
    """A replay's frame: the public board of a spectator's view."""
    if view.viewer is not None:
        raise ValueError("a replay is drawn from public views (view_for(None)) only")
    return board_image(view, info, Mode.PUBLIC)


def views_from_record(text: str) -> list[View]:
    """The public view at the start and after every turn of a record (RecordError or
    ReplayError, from rules.tora.record, if the record is malformed or illegal), every
    Assassin record of the game published (R44). A record that replays has every Assassin
    action in full (a public record's hidden ones, ``X ?``, do not replay: a public record
    replays once they are published), so each turn shows them as the record does, not
    hidden as they were when played."""
    views: list[View] = []

    def published(game: Game) -> None:
        game.publish()
        views.append(game.view_for(None))

    replay(text, trusted=True, each_turn=published)
    return views
