"""The drawing of a game that has none of its own, from the square map its view says
(``rules.protocol.Mapped``): a plain checkered grid with the coordinates on its edges, each
piece its side's mark (the amber disc and the blue rounded square every game uses) with its
letter, the squares of the last turn framed (in the acting player's own picture, those of
their staged actions), and a status line below: the view's summary and the deadline.

A spectator sees the Challenger's side at the bottom, each player their own side; turned
(``turned_board_png``...), the other side at the bottom. Nothing is
drawn but what the view holds, so a public picture shows only what ``view_for(None)`` says.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rules import ActionError, GameState, Side, game_type
from rules.protocol import Mapped, SquareMap
from rules.records import game_of
from rules.registry import DEFAULT

from . import palette as pal
from .encode import png_bytes
from .fonts import draw_text, fit, font
from .pointing import Cell, MarkFields, point_out
from .status import StatusFields, StatusInfo, headline_of, player_name, side_icon
from .words import ENGLISH, Words

SCALE = 2  # drawn twice the size and shrunk: smooth edges on discs and letters
CELL = 56  # pixels of a square
MARGIN = 24  # around the board, where the coordinates are
STATUS = 52  # the status strip under the board
MIN_WIDTH = 440  # room for the status line on a small board
FRAME_WIDTH = 3  # of a touched square's frame


def square_map(view: Any) -> SquareMap:
    """The view's square map; ValueError for a view that says none (its game needs a
    drawing of its own)."""
    if not isinstance(view, Mapped):
        raise ValueError(f"the game {str(getattr(view, 'game', '?'))[:40]!r} has no drawing")
    return view.square_map()


class Layout:
    """Where each square of a board lies on the picture, as ``viewer`` sees it (from the
    other side when ``flipped``)."""

    def __init__(self, board: SquareMap, viewer: Side | None, flipped: bool = False) -> None:
        self.board = board
        self.turned = (viewer == Side.OPPOSITION) != flipped
        self.files, self.ranks = len(board.files), len(board.ranks)
        self.width = max(MIN_WIDTH, 2 * MARGIN + CELL * self.files)
        self.left = (self.width - CELL * self.files) // 2
        self.height = 2 * MARGIN + CELL * self.ranks + STATUS
        self.cells = {
            board.name(file, rank): self.cell(file, rank)
            for rank in range(self.ranks)
            for file in range(self.files)
        }

    def cell(self, file: int, rank: int) -> Cell:
        """The top-left corner and size of square (``file``, ``rank``), counted from the
        Challenger's bottom-left."""
        column = self.files - 1 - file if self.turned else file
        row = rank if self.turned else self.ranks - 1 - rank
        return self.left + column * CELL, MARGIN + row * CELL, CELL

    def locate(self, square: str) -> Cell | None:
        return self.cells.get(square)


def board_image(
    view: Any, info: StatusFields, marks: MarkFields | None = None, flipped: bool = False
) -> Image.Image:
    """The picture of ``view``, in the fixed palette (from the other side when ``flipped``)."""
    board = square_map(view)
    layout = Layout(board, view.viewer, flipped)
    k = SCALE
    image = Image.new("RGB", (layout.width * k, layout.height * k), pal.FRAME)
    draw = ImageDraw.Draw(image)
    _squares(draw, layout)
    _coordinates(draw, layout)
    for square, placed in board.pieces.items():
        cell = layout.locate(square)
        if cell is not None:
            _piece(draw, cell, placed.side, placed.letter)
    _status(draw, layout, view, info)
    shrunk = pal.to_palette(image.resize((layout.width, layout.height), Image.Resampling.LANCZOS))
    point_out(shrunk, marks, layout.locate, busy=tuple(board.pieces))
    return shrunk


def _squares(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    k = SCALE
    touched = set(layout.board.touched)
    for rank in range(layout.ranks):
        for file in range(layout.files):
            x, y, size = layout.cell(file, rank)
            box = (x * k, y * k, (x + size) * k - 1, (y + size) * k - 1)
            draw.rectangle(box, fill=pal.DARK if (file + rank) % 2 == 0 else pal.LIGHT)
            if layout.board.name(file, rank) in touched:
                draw.rectangle(box, outline=pal.BLACK, width=FRAME_WIDTH * k)
    left, top = layout.left * k, MARGIN * k
    right, bottom = left + layout.files * CELL * k, top + layout.ranks * CELL * k
    draw.rectangle((left - k, top - k, right, bottom), outline=pal.GRID, width=k)


def _coordinates(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """File labels under the board, rank labels left of it."""
    k = SCALE
    face = font(13 * k)
    bottom = (MARGIN + layout.ranks * CELL) * k
    for file, label in enumerate(layout.board.files):
        x, _y, size = layout.cell(file, 0)
        at = ((x + size / 2) * k, bottom + MARGIN * k / 2)
        draw_text(draw, at, fit(label, face, CELL * k), pal.MUTED, face, "mm")
    for rank, label in enumerate(layout.board.ranks):
        _x, y, size = layout.cell(0, rank)
        at = ((layout.left - MARGIN / 2) * k, (y + size / 2) * k)
        draw_text(draw, at, fit(label, face, MARGIN * k), pal.MUTED, face, "mm")


def _piece(draw: ImageDraw.ImageDraw, cell: Cell, side: Side, letter: str) -> None:
    k = SCALE
    x, y, size = cell
    cx, cy = (x + size / 2) * k, (y + size / 2) * k
    side_icon(draw, side, cx, cy, size * 0.36 * k)
    face = font(round(size * 0.38) * k, bold=True)
    draw_text(draw, (cx, cy), fit(letter[:2], face, size * k), pal.INK[side], face, "mm")


def _status(draw: ImageDraw.ImageDraw, layout: Layout, view: Any, info: StatusFields) -> None:
    """The view's summary with the players' names, the side to act's mark, the deadline."""
    k = SCALE
    top = (layout.height - STATUS) * k
    draw.line((0, top, layout.width * k, top), fill=pal.FRAME_LINE, width=k)
    names = (player_name(info, Side.CHALLENGER), player_name(info, Side.OPPOSITION))
    face, small = font(14 * k, bold=True), font(12 * k)
    headline = headline_of(info)
    mark = None if view.outcome is not None or headline else view.side
    text_left = MARGIN * k if mark is None else (MARGIN + 22) * k
    if mark is not None:
        side_icon(draw, mark, (MARGIN + 8) * k, top + 18 * k, 7 * k)
    room = (layout.width - MARGIN) * k - text_left
    summary = fit(headline or view.summary(names), face, room)
    draw_text(draw, (text_left, top + 18 * k), summary, pal.TEXT, face, "lm")
    if info.deadline:
        deadline = fit(info.deadline, small, room)
        draw_text(draw, (text_left, top + 38 * k), deadline, pal.MUTED, small, "lm")


def board_png(view: Any, info: StatusFields) -> bytes:
    """The picture of ``view`` (the public one, or a player's own)."""
    return png_bytes(board_image(view, info))


def own_png(view: Any, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """A player's own picture, pointing out ``marks``."""
    return png_bytes(board_image(view, info, marks))


def turned_board_png(view: Any, info: StatusFields) -> bytes:
    return png_bytes(board_image(view, info, flipped=True))


def turned_own_png(view: Any, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    return png_bytes(board_image(view, info, marks, flipped=True))


def cells(view: Any) -> dict[str, Cell]:
    """Where each square is on the pictures of ``view``."""
    return dict(Layout(square_map(view), view.viewer).cells)


def turned_cells(view: Any) -> dict[str, Cell]:
    return dict(Layout(square_map(view), view.viewer, flipped=True).cells)


def views_from_record(text: str) -> list[Any]:
    """The public views of a record of any game, at the start and after each turn: the
    record read by its game (its ``RecordError`` or ``ReplayError``), then its turns played
    again from the start it was made with; the last view is the record's end (a game
    ended by a resignation, a draw or a forfeit ends on that). A game whose setup holds
    secrets draws its replays itself."""
    kind = game_type(game_of(text, DEFAULT))
    final = kind.read_record(text)
    options, answers = kind.setup_of(final)
    game: GameState = kind.new_game(options, answers)
    views = [game.view_for(None)]
    for turn in final.turns:
        try:
            for action in turn.texts:
                game.apply(action)
            game.end_turn()
        except ActionError:
            break  # a game-ending act: the final view shows it
        views.append(game.view_for(None))
    if len(game.turns) != len(final.turns):
        views.append(final.view_for(None))
    return views


def coordinates_png(game: str, words: Words = ENGLISH) -> bytes:
    """The start of ``game`` with its coordinates (its sample setup's game), its own words
    in ``words``' language."""
    kind = game_type(game)
    options, answers = kind.sample_setup({})
    return board_png(kind.new_game(options, answers).view_for(None), StatusInfo(words=words))
