"""TORA's images: the board (public, a player's own, the preview of a staged turn), the score
card, replays. Drawn from a ``rules.tora.View`` over the shared primitives of ``render``;
registered as TORA's drawing (``render.drawings``)."""

from rules.tora import TORA

from ..drawings import Drawing, register
from .board import board_png, cells, private_png
from .examples import coordinates_png
from .replay import frame, views_from_record

register(Drawing(TORA.id, board_png, private_png, views_from_record, frame, coordinates_png, cells))
