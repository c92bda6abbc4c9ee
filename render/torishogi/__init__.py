"""ToriShogi images (Pillow): the board of a ``rules.torishogi.View`` and animated replays.

``board_png(view, info)`` draws exactly what the view holds, turned to the viewer's side
(spectators see the Challenger at the bottom); ``info`` is any object with ``challenger``,
``opposition`` and ``deadline`` strings (``render.StatusInfo`` fits). Both return bytes and are
pure: equal views give byte-identical images.
"""

from .board import board_image, board_png
from .replay import replay_gif, views_from_record

__all__ = ["board_image", "board_png", "replay_gif", "views_from_record"]
