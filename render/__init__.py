"""Images (Pillow): every picture the bot posts, drawn from a view, never from a game.

One drawing package per game over shared primitives (``palette``, ``fonts``, ``shapes``,
``strokes``, ``compose``, ``encode``, ``bands``, ``status``): ``render.tora``, ``render.torishogi``,
``render.torii``; the ladder, rating and bracket charts are shared. TORA's images are exported
here too (the host's first game): they take a ``rules.tora.View``, plus
what a View does not hold (player names, deadline) in a ``StatusInfo``, and returns PNG (or,
for replays, GIF) bytes. Only ``private_png`` and ``preview_png`` accept a player's view, the
only kind that can hold hidden information. ``render_async`` runs any of them off the event
loop. See docs/RENDER.md for the design.
"""

from .bracket import BracketMatch, bracket_png
from .encode import TooLarge, render_async
from .ladder import LadderRow, ladder_png
from .rating_chart import ChartPoint, rating_chart_png
from .replays import (
    HIDDEN,
    TOO_LARGE,
    Picture,
    Replay,
    board_of,
    own_board_of,
    picture_of,
    record_status,
    replay_of,
    replay_or_why,
)
from .status import StatusFields, StatusInfo
from .tora.board import board_png, preview_png, private_png
from .tora.replay import replay_gif, views_from_record
from .tora.scorecard import score_card_png

__all__ = [
    "HIDDEN",
    "TOO_LARGE",
    "BracketMatch",
    "ChartPoint",
    "LadderRow",
    "Picture",
    "Replay",
    "StatusFields",
    "StatusInfo",
    "TooLarge",
    "board_of",
    "board_png",
    "bracket_png",
    "ladder_png",
    "own_board_of",
    "picture_of",
    "preview_png",
    "private_png",
    "rating_chart_png",
    "record_status",
    "render_async",
    "replay_gif",
    "replay_of",
    "replay_or_why",
    "score_card_png",
    "views_from_record",
]
