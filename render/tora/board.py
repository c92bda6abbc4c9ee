"""Board images of a View: the public board, a player's private board, the staged preview.

Only the View is drawn (never a Game), and only what the chosen image may show: the public
image refuses a player's view, so a hidden Assassin can never reach a channel by mistake.
"""

from __future__ import annotations

import functools

from PIL import Image

from rules.tora import Event, PieceView, Terrain, View, name, squares

from ..compose import paste_rgba
from ..encode import png_bytes
from ..pointing import Cell, MarkFields, point_out
from ..status import Mode, StatusFields
from .base import base_board, cell_backgrounds
from .layout import Layout, layout_for
from .overlay import Removal, marks_over, marks_under
from .sprites import look_of, small_sprite, sprite, tile
from .status import paste_strip

# Boards under the strip kept (``_board``): a turn's public board, the next player's own and
# the acting player's last preview of it share theirs, with other matches' pictures drawn
# between them (32: up to 7 MiB of short boards, 15 of long ones)
BOARDS = 32


def board_png(view: View, info: StatusFields) -> bytes:
    """The public board, for a channel: needs a spectator's view (``view_for(None)``)."""
    if view.viewer is not None:
        raise ValueError("the public board is drawn from view_for(None), not a player's view")
    return png_bytes(board_image(view, info, Mode.PUBLIC), layout_for(view.size).bands)


def private_png(view: View, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """A player's own board (sent privately): their hidden Assassin and its path included.
    For the player to act with actions staged, this is the preview of those actions; with
    ``marks``, what they are choosing is pointed out (``render.pointing``)."""
    if view.viewer is None:
        raise ValueError("a private board is drawn from a player's view (view_for(side))")
    mode = Mode.PREVIEW if view.staged else Mode.PRIVATE
    image = board_image(view, info, mode)
    point_out(image, marks, cells(view).get, {name(piece.sq) for piece in view.pieces})
    return png_bytes(image, layout_for(view.size).bands)


def cells(view: View) -> dict[str, Cell]:
    """Where each square (``v5h7``) is on the pictures of ``view``: the same on the public
    board and on a player's own, and for every view of a board's size."""
    return dict(_cells(view.size))


@functools.cache
def _cells(size: int) -> dict[str, Cell]:
    layout = layout_for(size)
    return {name(sq): (*layout.corner(sq), layout.cell) for sq in squares(size)}


def preview_png(view: View, info: StatusFields) -> bytes:
    """What the board will look like if the acting player ends the turn now, with the staged
    actions drawn as arrows."""
    if view.viewer is None or view.viewer != view.side or view.outcome:
        raise ValueError("a preview is drawn from the acting player's own view")
    return png_bytes(board_image(view, info, Mode.PREVIEW), layout_for(view.size).bands)


def board_image(view: View, info: StatusFields, mode: Mode) -> Image.Image:
    """The image in the fixed palette (for PNG, or as a frame of a replay)."""
    layout = layout_for(view.size)
    events = _events(view, mode)
    # a new game's board (R28) shows nothing of the last turn: it was played on the board before
    round_end = () if mode == Mode.PREVIEW or view.new_board else view.round_end
    visible = tuple(piece for piece in view.pieces if not piece.hidden)
    image = _board(view.terrain, events, round_end, visible).copy()
    # pasted over the board's marks: none reaches the strip (the badges of the top row's
    # corners, the highest, stay in the room above the squares)
    paste_strip(image, layout, view, info, mode)
    _hidden_pieces(image, layout, view)
    return image


@functools.lru_cache(maxsize=BOARDS)
def _board(
    terrain: Terrain,
    events: tuple[Event, ...],
    round_end: tuple[Removal, ...],
    visible: tuple[PieceView, ...],
) -> Image.Image:
    """The board under the status strip: the visible pieces and the marks of ``events`` and
    ``round_end``, kept by exactly what it is drawn from (the public board of a turn's end
    is the next player's own but for the strip and their hidden pieces, drawn on a copy).
    Never modify the result: callers ``copy()`` it."""
    layout = layout_for(terrain.size)
    image = base_board(terrain).copy()
    standing = {piece.sq for piece in visible}
    touched = marks_under(image, layout, events, round_end, standing)
    _pieces(image, layout, terrain, visible, touched)
    marks_over(image, layout, events, round_end, standing)
    return image


def _events(view: View, mode: Mode) -> tuple[Event, ...]:
    if mode == Mode.PREVIEW:
        return view.staged
    return () if view.new_board else view.last_turn


def _pieces(
    image: Image.Image,
    layout: Layout,
    terrain: Terrain,
    visible: tuple[PieceView, ...],
    touched: set[int],
) -> None:
    """The visible pieces: on a square nothing was drawn on, a finished tile from the cache;
    on a marked square, blended onto what is there."""
    cell = layout.cell
    backgrounds = cell_backgrounds(terrain)
    for piece in visible:
        at = layout.corner(piece.sq)
        if piece.sq in touched:
            paste_rgba(image, sprite(look_of(piece), cell), at)
        else:
            image.paste(tile(look_of(piece), cell, backgrounds[piece.sq]), at)


def _hidden_pieces(image: Image.Image, layout: Layout, view: View) -> None:
    """The viewer's own hidden Assassin, drawn last so nothing covers it; in the top-left
    corner when it shares its square with another piece (R40)."""
    cell = layout.cell
    for piece in view.pieces:
        if not piece.hidden:
            continue
        x, y = layout.corner(piece.sq)
        if any(p.sq == piece.sq and not p.hidden for p in view.pieces):
            paste_rgba(image, small_sprite(look_of(piece), cell), (x - 2, y - 2))
        else:
            paste_rgba(image, sprite(look_of(piece), cell), (x, y))
