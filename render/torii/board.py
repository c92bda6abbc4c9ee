"""Board images of a Torii ``View`` (``board_png``) and replays (``replay_gif``).

Only the View is drawn: names and the deadline come in ``info``. Torii hides nothing, so any
viewer's view may be drawn; the acting player's own view shows their staged turn applied.
The last turn (or the staged one) is drawn as an arrow from where the steps began through each
landing square (jumped squares get no dot), the Crane's flight, the Kitsune's push and the
Boar's Torii move as thin dashed arrows, and each Torii built that turn framed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as pal
from render.compose import paste_rgba
from render.encode import gif_bytes, png_bytes
from render.pointing import Cell, MarkFields, point_out
from render.shapes import arrow_head
from render.status import StatusFields
from render.strokes import SUPERSAMPLE, Stroke, paint
from rules.sides import Side
from rules.torii import FILES, SQUARES, Event, View, file_of, rank_of, read_record

from .base import base_board, cell_background
from .layout import BANDS, CELL, centre, corner, panel_top
from .panels import paste_panel, status_strip
from .sprites import SPIRIT_RADIUS, Look, sprite, tile


def board_png(view: View, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """The PNG; with ``marks``, what the player is choosing pointed out (``render.pointing``)."""
    image = board_image(view, info)
    if marks is not None:
        busy = {_name(sq) for side in Side for sq in view.followers[side]}
        busy |= {_name(spirit.square) for spirit in view.spirits}
        point_out(image, marks, cells(view).get, busy)
    return png_bytes(image, BANDS)


def seen(view: View) -> View:
    """``view`` as its pictures draw it: nobody's (Torii's pictures never read whose view it
    is), so that the next player's own picture at a turn's end is the public one."""
    return view if view.viewer is None else replace(view, viewer=None)


def _name(sq: int) -> str:
    """A square as the notation names it (``c3``)."""
    return f"{FILES[file_of(sq)]}{rank_of(sq) + 1}"


_SQUARES = {_name(sq): sq for sq in SQUARES}


def cells(view: View) -> dict[str, Cell]:
    """Where each square (``c3``) is on the picture: the same for every view."""
    return {where: (*corner(sq), CELL) for where, sq in _SQUARES.items()}


def replay_gif(views: Sequence[View], info: StatusFields) -> bytes:
    """A looping GIF, one frame per view, every frame in the one fixed palette."""
    return gif_bytes([board_image(view, info) for view in views])


def views_from_record(text: str) -> list[View]:
    """The public view at the start and after every turn of a Torii record (its
    ``RecordError`` or ``ReplayError`` if it is malformed or illegal)."""
    views: list[View] = []
    read_record(text, each_turn=lambda game: views.append(game.view_for(None)))
    return views


def board_image(view: View, info: StatusFields) -> Image.Image:
    """The image in the fixed palette (for PNG, or as a frame of a replay).

    Squares nothing is drawn over are pasted finished (background, shade and piece); the move's
    arrows go under the pieces, so the pieces on the squares they cross are blended on after
    them, then the landing dots, then the Spirits on top."""
    image = base_board().copy()
    image.paste(status_strip(view, info), (0, 0))
    for side in Side:
        paste_panel(image, view, info, side, panel_top(side))
    looks = _looks(view)
    shade = None if view.outcome is not None else view.side.other
    lanes = set(view.lanes)
    spirits = {s.square for s in view.spirits}
    crossed = _crossed(view.move)
    for sq in SQUARES:
        look = looks.get(sq, Look())
        if sq in spirits or sq in crossed:
            look = Look()
        if look != Look() or sq in lanes or sq in crossed:
            image.paste(tile(look, cell_background(sq, shade if sq in lanes else None)), corner(sq))
    if view.move is not None:
        _arrows(image, view.move, spirits)
    for sq in sorted(crossed - spirits):
        if sq in looks:
            paste_rgba(image, sprite(looks[sq]), corner(sq))
    if view.move is not None:
        _marks(image, view.move)
    for sq in sorted(spirits):
        paste_rgba(image, sprite(looks[sq]), corner(sq))
    return image


def _lines(move: Event | None) -> list[tuple[tuple[int, ...], bool]]:
    """The move's arrows, each as its squares from first to last and whether it is thin (a
    power's move) or the path of the steps."""
    if move is None:
        return []
    out: list[tuple[tuple[int, ...], bool]] = []
    if move.fly_from is not None and move.start is not None:
        out.append(((move.fly_from, move.start), True))
    if move.push is not None:
        out.append((move.push, True))
    if move.torii_move is not None:
        out.append((move.torii_move, True))
    if move.start is not None and move.landings:
        out.append(((move.start, *move.landings), False))
    return out


def _crossed(move: Event | None) -> set[int]:
    """The squares the move's arrows may cover: every square in their bounding boxes."""
    out: set[int] = set()
    for squares, _thin in _lines(move):
        files = [file_of(sq) for sq in squares]
        ranks = [rank_of(sq) for sq in squares]
        out |= {
            sq
            for sq in SQUARES
            if min(files) <= file_of(sq) <= max(files) and min(ranks) <= rank_of(sq) <= max(ranks)
        }
    return out


def _looks(view: View) -> dict[int, Look]:
    looks: dict[int, Look] = {}
    for side in Side:
        torii = set(view.torii[side])
        for sq in view.followers[side]:
            looks[sq] = Look(side, sq in torii)
    for spirit in view.spirits:
        held = looks.get(spirit.square, Look())
        looks[spirit.square] = held._replace(spirit=(spirit.kind, spirit.side))
    if view.move is not None:
        for build in view.move.builds:
            for side, squares in (
                (view.move.side, build.returned),
                (view.move.side.other, build.removed),
            ):
                for sq in squares:
                    looks.setdefault(sq, Look(ghost=side))
    return looks


def _arrows(image: Image.Image, move: Event, spirits: set[int]) -> None:
    for squares, thin in _lines(move):
        _arrow(image, squares, pal.ARROW[move.side], squares[-1] in spirits, thin)


def _marks(image: Image.Image, move: Event) -> None:
    """Over the pieces: a frame on each Torii built, a ring where the steps began and a dot
    on each landing but the last (the Spirit stands there); none on the squares jumped."""
    colour = pal.ARROW[move.side]
    draw = ImageDraw.Draw(image)
    for build in move.builds:
        x, y = corner(build.square)
        box = (x + 2, y + 2, x + CELL - 3, y + CELL - 3)
        draw.rectangle(box, outline=pal.index(colour), width=3)
    if move.start is None or not move.landings:
        return
    for sq in (move.start, *move.landings[:-1]):
        dot = _dot(colour, hollow=sq == move.start)
        cx, cy = centre(sq)
        paste_rgba(image, dot, (round(cx - dot.width / 2), round(cy - dot.height / 2)))


def _arrow(
    image: Image.Image, squares: tuple[int, ...], colour: pal.RGB, to_spirit: bool, thin: bool
) -> None:
    """A polyline through the squares' centres with a head, stopping short of a Spirit
    standing at its end."""
    *body, (x1, y1) = [centre(sq) for sq in squares]
    x0, y0 = body[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
    stop = (SPIRIT_RADIUS + 0.03) * CELL if to_spirit else CELL * 0.2
    cut = min(stop, length * 0.6) / length
    tip = (x1 - (x1 - x0) * cut, y1 - (y1 - y0) * cut)
    scale = 0.6 if thin else 1.0
    head = arrow_head(body[-1], tip, CELL * 0.3 * scale, CELL * 0.36 * scale)
    base = ((head[0][0] + head[2][0]) / 2, (head[0][1] + head[2][1]) / 2)
    width = CELL * (0.06 if thin else 0.1)
    halo = max(1.5, CELL * 0.03)
    paint(
        image,
        (pal.WHITE, Stroke([*body, base], width + 2 * halo, head, grow=halo, dashed=thin)),
        (colour, Stroke([*body, base], width, head, dashed=thin)),
    )


@lru_cache(maxsize=8)
def _dot(colour: pal.RGB, hollow: bool) -> Image.Image:
    k, r = SUPERSAMPLE, CELL * 0.08
    size = round((2 * r + 4) * k)
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c, rr = size / 2, r * k
    draw.ellipse((c - rr - k, c - rr - k, c + rr + k, c + rr + k), fill=pal.WHITE)
    draw.ellipse((c - rr, c - rr, c + rr, c + rr), fill=colour)
    if hollow:
        inner = rr * 0.5
        draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=pal.WHITE)
    return image.reduce(k)
