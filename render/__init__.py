"""Board images (Pillow) for TORA: every picture the bot posts, drawn from a View.

Everything here takes a ``rules.tora.view.View`` (``game.view_for(viewer)``), never a Game, plus
what a View does not hold (player names, deadline) in a ``StatusInfo``, and returns PNG (or,
for replays, GIF) bytes. Only ``private_png`` and ``preview_png`` accept a player's view, the
only kind that can hold hidden information. ``render_async`` runs any of them off the event
loop. See docs/RENDER.md for the design.
"""

from .board import board_png, preview_png, private_png
from .bracket import BracketMatch, bracket_png
from .encode import render_async
from .ladder import LadderRow, ladder_png
from .rating_chart import ChartPoint, rating_chart_png
from .replay import record_status, replay_gif, views_from_record
from .scorecard import score_card_png
from .status import StatusFields, StatusInfo

__all__ = [
    "BracketMatch",
    "ChartPoint",
    "LadderRow",
    "StatusFields",
    "StatusInfo",
    "board_png",
    "bracket_png",
    "ladder_png",
    "preview_png",
    "private_png",
    "rating_chart_png",
    "record_status",
    "render_async",
    "replay_gif",
    "score_card_png",
    "views_from_record",
]
