"""What a turn did, drawn on the board: arrows along each move's path, red lines for attacks
at a distance and cannon shots, marks where pieces died or were doomed, search areas.

``marks_under`` goes below the pieces (a red cross on the empty squares of removed pieces);
``marks_over`` goes above them: the arrows and red lines, a small struck-through copy of each
removed piece in its square's corner (the only mark where the taker now stands, so the taker
never looks removed), and each action's numbered badge where it started, so a turn of several
actions reads in order; a badge moves to a corner of its square rather than sit on a red line.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rules.tora import Event, Side

from .. import palette as pal
from ..compose import paste_rgba
from ..shapes import Point, arrow_head
from ..strokes import Stroke, paint
from .layout import Layout
from .sprites import BADGE_RADIUS, DISC_RADIUS, badge, ghost

Removal = tuple[Side, str, int]
Line = tuple[Point, Point]  # a red line's two ends, pixels
PIECE_EDGE = DISC_RADIUS + 0.02  # an arrow stops this far (in cells) before a piece's centre


def marks_under(
    image: Image.Image,
    layout: Layout,
    events: Sequence[Event],
    round_end: Sequence[Removal],
    occupied: set[int],
) -> set[int]:
    """Draw the marks that go below the pieces; returns the squares drawn on. A square
    where a piece now stands (``occupied``: it took its victim by moving there) gets no red
    cross, which would show round it and make the taker look removed: the victim's struck
    small copy in the corner marks the capture."""
    draw = ImageDraw.Draw(image)
    touched: set[int] = set()
    for event in events:
        for _side, _letter, sq in event.removed:
            if sq not in occupied:
                _cross(draw, layout, sq)
                touched.add(sq)
        for sq in event.doomed:
            _frame(draw, layout, sq, pal.DOOM)
            touched.add(sq)
        if event.searched:
            _search_area(draw, layout, event.searched)
            touched.update(event.searched)
        if event.revealed:
            _frame(draw, layout, event.revealed, pal.HIDDEN)
            touched.add(event.revealed)
    for _side, _letter, sq in round_end:
        _cross(draw, layout, sq)
        touched.add(sq)
    return touched


def marks_over(
    image: Image.Image,
    layout: Layout,
    events: Sequence[Event],
    round_end: Sequence[Removal],
    occupied: set[int],
) -> None:
    """Draw the marks that go above the pieces; an arrow stops short of the piece standing
    where it ends (``occupied``: squares with a piece)."""
    lines: list[Line] = []
    for event in events:
        lines += _action(image, layout, event, occupied)
    for number, event in enumerate(events, start=1):
        if event.origin:
            _badge(image, layout, event, number, lines)
    for event in events:
        for side, letter, sq in event.removed:
            _ghost(image, layout, side, letter, sq)
    for side, letter, sq in round_end:
        _ghost(image, layout, side, letter, sq)


def _action(image: Image.Image, layout: Layout, event: Event, occupied: set[int]) -> list[Line]:
    """Draw one action; returns its red lines (attacks at a distance, shots) as drawn."""
    colour = pal.HIDDEN if event.hidden else pal.ARROW[event.side]
    walk, strikes = _split_path(event)
    if walk:
        points = [layout.centre(event.origin), *(layout.centre(sq) for sq in walk)]
        stop = PIECE_EDGE if walk[-1] in occupied else BADGE_RADIUS
        _arrow(image, layout, points, colour, stop, dashed=event.hidden)
    start = event.rest or event.origin
    if not start:  # the public form of a hidden Assassin's attack: only its victims show
        return []
    pairs = [(start, sq) for sq in (*strikes, *_struck_nearby(event))] + list(event.shots)
    return [_shot(image, layout, shooter, target) for shooter, target in pairs]


def _struck_nearby(event: Event) -> list[int]:
    """Victims of an attack on a neighbouring square, which no arrow or shot reaches yet."""
    covered = {target for _shooter, target in event.shots} | set(event.path) | {event.rest}
    enemies = [sq for side, _letter, sq in event.removed if side != event.side]
    return [sq for sq in (*enemies, *event.doomed) if sq not in covered]


def _split_path(event: Event) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The squares walked to where the piece stopped, and the squares it struck beyond that
    (a piece landing on a command piece strikes from the square before it)."""
    path = event.path
    if event.rest and event.rest in path:
        stop = path.index(event.rest) + 1
        return path[:stop], path[stop:]
    return path, ()


def _arrow(
    image: Image.Image,
    layout: Layout,
    points: list[Point],
    colour: pal.RGB,
    stop: float,
    dashed: bool,
) -> None:
    cell = layout.cell
    *body, (x1, y1) = points
    x0, y0 = body[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    cut = min(stop * cell, length * 0.45) / length
    tip = (x1 - (x1 - x0) * cut, y1 - (y1 - y0) * cut)
    head = arrow_head(body[-1], tip, cell * 0.34, cell * 0.42)
    base = ((head[0][0] + head[2][0]) / 2, (head[0][1] + head[2][1]) / 2)
    width = cell * 0.13
    halo = max(1.5, cell * 0.04)
    paint(
        image,
        (pal.WHITE, Stroke([*body, base], width + 2 * halo, head, grow=halo)),
        (colour, Stroke([*body, base], width, head, dashed=dashed)),
    )


def _shot(image: Image.Image, layout: Layout, start: int, target: int) -> Line:
    """A thin red line from the attacker to its target; returns its two ends."""
    cell = layout.cell
    (x0, y0), (x1, y1) = layout.centre(start), layout.centre(target)
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
    cut = cell * 0.3 / length
    a = (x0 + (x1 - x0) * cut, y0 + (y1 - y0) * cut)
    b = (x1 - (x1 - x0) * cut, y1 - (y1 - y0) * cut)
    width = max(2.0, cell * 0.085)
    paint(
        image,
        (pal.WHITE, Stroke([a, b], width + 2)),
        (pal.DOOM, Stroke([a, b], width)),
    )
    return a, b


# Where a number may sit in its square, as fractions of a cell from the centre: the middle
# of a square a piece left, else a corner (those away from where the piece went first); the
# first that no red line crosses is taken.
CORNERS = ((-0.34, -0.34), (0.34, -0.34), (-0.34, 0.34), (0.34, 0.34))


def _badge(
    image: Image.Image, layout: Layout, event: Event, number: int, lines: list[Line]
) -> None:
    """The action's number, where it started (in a corner if the piece is still there),
    never under a red line of the turn (a Cannon's shot through that square)."""
    cell = layout.cell
    cx, cy = layout.centre(event.origin)
    colour = pal.HIDDEN if event.hidden else pal.ARROW[event.side]
    marker = badge(colour, number, cell)
    radius = marker.width / 2 + max(2.0, cell * 0.085)
    offsets = list(CORNERS)
    if event.path:
        gx, gy = layout.centre(event.path[0])
        offsets.sort(key=lambda d: d[0] * (gx - cx) + d[1] * (gy - cy))
        offsets.insert(0, (0.0, 0.0))
    spots = [(cx + dx * cell, cy + dy * cell) for dx, dy in offsets]
    x, y = next((p for p in spots if all(_apart(p, line, radius) for line in lines)), spots[0])
    paste_rgba(image, marker, (round(x - marker.width / 2), round(y - marker.height / 2)))


def _apart(point: Point, line: Line, radius: float) -> bool:
    """Whether ``point`` is more than ``radius`` from the segment ``line``."""
    (x0, y0), (x1, y1) = line
    px, py = point
    dx, dy = x1 - x0, y1 - y0
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length))
    nx, ny = x0 + t * dx, y0 + t * dy
    return (px - nx) ** 2 + (py - ny) ** 2 > radius * radius


def _ghost(image: Image.Image, layout: Layout, side: Side, letter: str, sq: int) -> None:
    marker = ghost(side, letter, layout.cell)
    x, y = layout.corner(sq)
    paste_rgba(
        image, marker, (x + layout.cell - marker.width + 2, y + layout.cell - marker.height + 2)
    )


def _cross(draw: ImageDraw.ImageDraw, layout: Layout, sq: int) -> None:
    x, y = layout.corner(sq)
    c, red = layout.cell, pal.index(pal.DOOM)
    a, b, w = c * 0.08, c * 0.92, max(2, round(c * 0.06))
    draw.line((x + a, y + a, x + b, y + b), fill=red, width=w)
    draw.line((x + a, y + b, x + b, y + a), fill=red, width=w)


def _frame(draw: ImageDraw.ImageDraw, layout: Layout, sq: int, colour: pal.RGB) -> None:
    x, y = layout.corner(sq)
    c = layout.cell
    box = (x + 1, y + 1, x + c - 1, y + c - 1)
    draw.rectangle(box, outline=pal.index(colour), width=max(2, c // 14))


def _search_area(draw: ImageDraw.ImageDraw, layout: Layout, squares: Sequence[int]) -> None:
    corners = [layout.corner(sq) for sq in squares]
    c = layout.cell
    left, top = min(x for x, _ in corners), min(y for _, y in corners)
    right, bottom = max(x for x, _ in corners) + c, max(y for _, y in corners) + c
    width, dash, purple = max(2, c // 14), max(4, c // 5), pal.index(pal.HIDDEN)
    for x in range(left, right, 2 * dash):
        for y in (top, bottom - width):
            draw.rectangle((x, y, min(x + dash, right) - 1, y + width - 1), fill=purple)
    for y in range(top, bottom, 2 * dash):
        for x in (left, right - width):
            draw.rectangle((x, y, x + width - 1, min(y + dash, bottom) - 1), fill=purple)
