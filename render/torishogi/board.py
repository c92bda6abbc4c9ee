"""The board image of a ToriShogi View: what the view holds, from the viewer's side.

One function for every audience (nothing in ToriShogi is hidden): a spectator's view shows
the position, a player's view the board turned to their side and, for the player to move
with a move staged, the preview of that move.
"""

from __future__ import annotations

from PIL import Image

from render.encode import png_bytes
from rules.torishogi import View

from .base import base_board, zone_dots
from .layout import INNER, layout_for
from .status import StatusFields, hand_strip, status_strip
from .tiles import CHECK, LAST, PLAIN, Look, Mark, empty, tile


def board_png(view: View, info: StatusFields) -> bytes:
    """The PNG (no metadata: equal views give equal bytes)."""
    return png_bytes(board_image(view, info))


def board_image(view: View, info: StatusFields) -> Image.Image:
    """The image in the fixed palette (for PNG, or as a frame of a replay)."""
    layout = layout_for(view.viewer)
    image = base_board(layout.bottom).copy()
    image.paste(status_strip(layout, view, info), (0, 0))
    top_side = layout.bottom.other
    image.paste(hand_strip(layout, view, info, top_side), (0, layout.top_hand))
    image.paste(hand_strip(layout, view, info, layout.bottom), (0, layout.bottom_hand))
    marks = _marks(view)
    occupied = set()
    for piece in view.pieces:
        occupied.add(piece.sq)
        look = Look(piece.side, piece.kind, layout.points_up(piece.side))
        image.paste(tile(look, INNER, marks.get(piece.sq, PLAIN)), layout.corner(piece.sq))
    for sq, mark in marks.items():
        if sq not in occupied:
            image.paste(empty(mark, INNER), layout.corner(sq))
    zone_dots(image, layout)
    return image


def _marks(view: View) -> dict[int, Mark]:
    marks: dict[int, Mark] = {}
    if view.last_move is not None:
        if view.last_move.origin is not None:
            marks[view.last_move.origin] = LAST
        marks[view.last_move.target] = LAST
    if view.check_square is not None:
        marks[view.check_square] = CHECK
    return marks
