"""Torii's board images (Pillow), drawn from a ``rules.torii.View``: ``board_png``, ``replay_gif``
and ``views_from_record``; registered as Torii's drawing (``render.drawings``). See
docs/TORII.md, "Images"."""

from rules.torii import TORII

from ..drawings import Drawing, register
from .board import board_image, board_png, cells, replay_gif, seen, views_from_record
from .examples import coordinates_png

register(
    Drawing(
        TORII.id,
        board_png,
        board_png,
        views_from_record,
        board_image,
        coordinates_png,
        cells,
        seen=seen,
    )
)

__all__ = ["board_image", "board_png", "replay_gif", "views_from_record"]
