"""Anti-aliased thick strokes (arrows, shot lines, dashed paths) painted onto a palette
image over just their bounding box: shared by every game's drawings."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as pal
from .compose import clip, paste_colours
from .shapes import Point

# Every drawing made once and cached (base boards, sprites) is drawn this many times larger and
# shrunk, which anti-aliases it.
SUPERSAMPLE = 4
STROKE_SUPERSAMPLE = 2
# Stroke masks kept: a turn's arrows are drawn again on every picture of it (the public board,
# the next player's own, each preview as the turn is staged)
MASKS = 256

# A stroke's points, width, head, grow and dashed (``Stroke.shape``)
Shape = tuple[tuple[Point, ...], float, tuple[Point, ...] | None, float, bool]


@dataclass(frozen=True)
class Stroke:
    """A thick polyline, optionally ending in an arrow head (grown by ``grow`` pixels all
    round)."""

    points: list[Point]
    width: float
    head: list[Point] | None = None
    grow: float = 0.0
    dashed: bool = False

    def shape(self) -> Shape:
        """All the stroke is, as a key (the same shape at the same place: the same mask)."""
        head = None if self.head is None else tuple(self.head)
        return tuple(self.points), self.width, head, self.grow, self.dashed

    def extent(self) -> list[Point]:
        pad = self.width + self.grow + 2
        every = [*self.points, *(self.head or [])]
        xs, ys = [x for x, _ in every], [y for _, y in every]
        return [(min(xs) - pad, min(ys) - pad), (max(xs) + pad, max(ys) + pad)]


def paint(image: Image.Image, *layers: tuple[pal.RGB, Stroke]) -> None:
    """Fill strokes in their colours, in order, anti-aliased: the mask of each is drawn
    larger over just their bounding box and shrunk."""
    corners = [point for _colour, stroke in layers for point in stroke.extent()]
    box = clip(
        image,
        (
            int(min(x for x, _ in corners)),
            int(min(y for _, y in corners)),
            int(max(x for x, _ in corners)) + 1,
            int(max(y for _, y in corners)) + 1,
        ),
    )
    paste_colours(image, box, [(colour, stroke.shape()) for colour, stroke in layers], mask)


@lru_cache(maxsize=MASKS)
def mask(shape: Shape, box: tuple[int, int, int, int]) -> Image.Image:
    """The coverage of the stroke of ``shape`` over ``box`` (never modify it: it is kept)."""
    points, width, head, grow, dashed = shape
    k = STROKE_SUPERSAMPLE
    left, top, right, bottom = box
    mask = Image.new("L", ((right - left) * k, (bottom - top) * k), 0)
    draw = ImageDraw.Draw(mask)
    local = [((x - left) * k, (y - top) * k) for x, y in points]
    w = round(width * k)
    if dashed:
        dashes(draw, local, w)
    else:
        draw.line(local, fill=255, width=w, joint="curve")
        x, y = local[0]
        draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=255)
    if head:
        poly = [((x - left) * k, (y - top) * k) for x, y in head]
        draw.polygon(poly, fill=255)
        if grow:
            draw.line([*poly, poly[0]], fill=255, width=round(2 * grow * k), joint="curve")
    return mask.reduce(k)


def dashes(draw: ImageDraw.ImageDraw, points: list[Point], width: int) -> None:
    """A dashed polyline: the hidden Assassin's own, secret path."""
    dash, on, carried = width * 1.6, True, 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
        at = 0.0
        while at < length:
            step = min(dash - carried, length - at)
            if on:
                a, b = at / length, (at + step) / length
                start = (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a)
                end = (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)
                draw.line((start, end), fill=255, width=width)
            at += step
            carried += step
            if carried >= dash:
                on, carried = not on, 0.0
