"""Small geometric helpers shared by the board, the sprites and the overlays."""

from __future__ import annotations

import math

from PIL import ImageDraw

from .palette import RGB

Point = tuple[float, float]


def arrow_head(start: Point, tip: Point, length: float, width: float) -> list[Point]:
    """The triangle of an arrow pointing from ``start`` to ``tip``: wing, tip, wing."""
    (x0, y0), (x1, y1) = start, tip
    distance = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / distance, (y1 - y0) / distance
    length = min(length, distance)
    bx, by = x1 - ux * length, y1 - uy * length
    w = width / 2
    return [(bx - uy * w, by + ux * w), (x1, y1), (bx + uy * w, by - ux * w)]


def arrow_polygon(
    start: Point, tip: Point, shaft: float, head: float, spread: float
) -> list[Point]:
    """A whole arrow from ``start`` to ``tip``: shaft width, head length, head width."""
    left, point, right = arrow_head(start, tip, head, spread)
    (x0, y0), (x1, y1) = start, tip
    distance = math.hypot(x1 - x0, y1 - y0) or 1.0
    px, py = -(y1 - y0) / distance * shaft / 2, (x1 - x0) / distance * shaft / 2
    bx, by = (left[0] + right[0]) / 2, (left[1] + right[1]) / 2
    return [
        (x0 + px, y0 + py),
        (bx + px, by + py),
        left,
        point,
        right,
        (bx - px, by - py),
        (x0 - px, y0 - py),
    ]


def dashed_ellipse(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    colour: RGB,
    width: int,
    dashes: int,
) -> None:
    step = 360 / dashes
    for i in range(dashes):
        start = i * step
        draw.arc(box, start, start + step * 0.55, fill=colour, width=width)
