"""The board image of a ToriShogi View: what the view holds, from the viewer's side.

One function for every audience (nothing in ToriShogi is hidden): a spectator's view shows
the position, a player's view the board turned to their side and, for the player to move
with a move staged, the preview of that move. Turned (``flipped``), the same from the other
side.
"""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from render.encode import png_bytes
from render.pointing import Cell, MarkFields, point_out
from rules.sides import Side
from rules.torishogi import FILES, RANKS, View, file_of, held_place, rank_of, square

from .base import base_board, zone_dots
from .layout import HAND_ROW, INNER, Layout, layout_for
from .status import StatusFields, hand_plan, hand_strip, status_strip
from .tiles import CHECK, LAST, PLAIN, Look, Mark, empty, tile


def board_png(
    view: View, info: StatusFields, marks: MarkFields | None = None, flipped: bool = False
) -> bytes:
    """The PNG (no metadata: equal views give equal bytes); with ``marks``, what the player
    is choosing pointed out (``render.pointing``): a square, or a kind in their hand."""
    image = board_image(view, info, flipped)
    if marks is not None:
        point_out(image, marks, cells(view, flipped).get, _occupied(view))
    return png_bytes(image, _layout(view, flipped).bands)


def seen(view: View) -> View:
    """``view`` as ``board_png`` draws it (not turned): the Challenger's as a spectator's (both
    see the board from the Challenger's side, the only way the picture reads whose view it is;
    the hand ``cells`` names is the Challenger's for both), so that the Challenger's own
    picture at a turn's end is the public one."""
    return replace(view, viewer=None) if view.viewer is Side.CHALLENGER else view


def turned_png(view: View, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    return board_png(view, info, marks, flipped=True)


def cells(view: View, flipped: bool = False) -> dict[str, Cell]:
    """Where each square (by its machine name, ``d2``) and each kind in each hand is on the
    picture (by ``held_place``: the viewer's ``S@``, where their drops start), so that a
    screen reader reaches both hands, not only the one its player drops from."""
    layout = _layout(view, flipped)
    out: dict[str, Cell] = {
        f + r: (*layout.corner(square(file, rank)), INNER)
        for file, f in enumerate(FILES)
        for rank, r in enumerate(RANKS)
    }
    for side in Side:
        hand = hand_plan(layout.width, tuple(view.hand(side)))
        tile = hand.style.tile
        row = layout.bottom_hand if side == layout.bottom else layout.top_hand
        y = row + (HAND_ROW - tile) // 2
        out.update({held_place(s.kind, side, view.viewer): (s.x, y, tile) for s in hand.slots})
    return out


def turned_cells(view: View) -> dict[str, Cell]:
    return cells(view, flipped=True)


def _layout(view: View, flipped: bool) -> Layout:
    layout = layout_for(view.viewer)
    return Layout(layout.bottom.other) if flipped else layout


def _occupied(view: View) -> set[str]:
    return {FILES[file_of(piece.sq)] + RANKS[rank_of(piece.sq)] for piece in view.pieces}


def board_image(view: View, info: StatusFields, flipped: bool = False) -> Image.Image:
    """The image in the fixed palette (for PNG, or as a frame of a replay)."""
    layout = _layout(view, flipped)
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
