"""Torii's board images (Pillow), drawn from a ``rules.torii.View``: ``board_png``, ``replay_gif``
and ``views_from_record``. See docs/TORII.md, "Images"."""

from .board import board_image, board_png, replay_gif, views_from_record

__all__ = ["board_image", "board_png", "replay_gif", "views_from_record"]
