"""Small geometric helpers shared by the board, the sprites and the overlays."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from rules.geometry import DIRECTION_VECTORS

Point = tuple[float, float]


def screen_vector(direction: int) -> Point:
    """Unit vector on screen of a direction index (N is up: v grows upwards, y downwards)."""
    dh, dv = DIRECTION_VECTORS[direction]
    length = math.hypot(dh, dv)
    return dh / length, -dv / length


def arrow_polygon(
    start: Point, end: Point, shaft: float, head: float, spread: float
) -> list[Point]:
    """An arrow from ``start`` to the tip ``end``: shaft width, head length, head width."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    px, py = -uy, ux
    head = min(head, length)
    bx, by = x1 - ux * head, y1 - uy * head
    s, w = shaft / 2, spread / 2
    return [
        (x0 + px * s, y0 + py * s),
        (bx + px * s, by + py * s),
        (bx + px * w, by + py * w),
        (x1, y1),
        (bx - px * w, by - py * w),
        (bx - px * s, by - py * s),
        (x0 - px * s, y0 - py * s),
    ]


def shrink(image: Image.Image, factor: int) -> Image.Image:
    """Box-filter an image drawn ``factor`` times too large down to size (anti-aliasing)."""
    return image.reduce(factor)


def dashed_ellipse(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    colour,
    width: int,
    dashes: int,
) -> None:
    step = 360 / dashes
    for i in range(dashes):
        start = i * step
        draw.arc(box, start, start + step * 0.55, fill=colour, width=width)
