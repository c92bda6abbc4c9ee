"""ToriShogi images (Pillow): the board of a ``rules.torishogi.View`` and animated replays;
registered as ToriShogi's drawing (``render.drawings``).

``board_png(view, info)`` draws exactly what the view holds, turned to the viewer's side
(spectators see the Challenger at the bottom); ``info`` is any object with ``challenger``,
``opposition`` and ``deadline`` strings (``render.StatusInfo`` fits). Both return bytes and are
pure: equal views give byte-identical images.
"""

from rules.torishogi import TORISHOGI

from ..drawings import Drawing, Turned, register
from .board import board_image, board_png, cells, seen, turned_cells, turned_png
from .examples import coordinates_png
from .replay import replay_gif, views_from_record

register(
    Drawing(
        TORISHOGI.id,
        board_png,
        board_png,
        views_from_record,
        board_image,
        coordinates_png,
        cells,
        Turned(turned_png, turned_png, turned_cells),
        seen,
    )
)

__all__ = ["board_image", "board_png", "replay_gif", "views_from_record"]
