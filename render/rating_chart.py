"""A player's rating history as a small chart: their rating after each rated result (a line,
oldest on the left) inside a band of plus and minus one rating deviation, so a provisional
rating reads as the wide band it is.

The ladder passes plain ``ChartPoint`` values, so this module knows nothing about how
ratings are kept. Results are spaced evenly (one step per result, not per day): a chart
about games played, where a month's break is not a gap. The y axis is scaled to the band
and labelled at round numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rules.sides import Side

from . import palette as pal
from .encode import png_bytes
from .fonts import draw_label, fit, font, label
from .palette import to_palette
from .words import ENGLISH, Words

WIDTH, HEIGHT, PAD, TITLE_H, AXIS_W, FOOT_H = 480, 200, 12, 34, 44, 22
LEFT, RIGHT = PAD + AXIS_W, WIDTH - PAD
TOP, BOTTOM = TITLE_H, HEIGHT - FOOT_H
LINE, BAND = pal.FILL[Side.CHALLENGER], pal.EDGE[Side.OPPOSITION]
DOTS_UP_TO = 40  # results drawn as dots too; more would blur into the line
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)  # the y labels' spacing, in rating points


@dataclass(frozen=True)
class ChartPoint:
    rating: float
    deviation: float


def rating_chart_png(
    points: Sequence[ChartPoint], title: str | None = None, words: Words = ENGLISH
) -> bytes:
    """The chart of ``points`` (oldest first); with none, a frame saying so. Its own words
    in ``words``' language ("Rating" the title if None)."""
    title = words._("Rating") if title is None else title
    image = Image.new("RGB", (WIDTH, HEIGHT), pal.FRAME)
    face = font(15, bold=True)
    draw_label(image, (PAD, TITLE_H / 2), fit(title, face, WIDTH - 2 * PAD), pal.TEXT, face, "lm")
    if not points:
        middle = ((LEFT + RIGHT) / 2, (TOP + BOTTOM) / 2)
        empty = fit(words._("No rated games yet"), font(14), RIGHT - LEFT)
        draw_label(image, middle, empty, pal.MUTED, font(14), "mm")
        return png_bytes(to_palette(image))
    low, high = _span(points)
    _band(image, points, low, high)
    _grid(image, low, high)
    _line(image, points, low, high)
    _footer(image, points, words)
    return png_bytes(to_palette(image))


def _span(points: Sequence[ChartPoint]) -> tuple[float, float]:
    """The rating range shown: the band's, at least 100 points, widened to round labels."""
    low = min(p.rating - p.deviation for p in points)
    high = max(p.rating + p.deviation for p in points)
    if high - low < 100:
        middle = (low + high) / 2
        low, high = middle - 50, middle + 50
    step = _step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step


def _step(span: float) -> int:
    """Label spacing that gives at most 5 gaps over ``span``."""
    return next((step for step in STEPS if span / step <= 5), STEPS[-1])


def _y(rating: float, low: float, high: float) -> float:
    return BOTTOM - (rating - low) / (high - low) * (BOTTOM - TOP)


def _x(index: int, count: int) -> float:
    if count == 1:
        return (LEFT + RIGHT) / 2
    return LEFT + index * (RIGHT - LEFT) / (count - 1)


def _grid(image: Image.Image, low: float, high: float) -> None:
    draw = ImageDraw.Draw(image)
    face = font(11)
    step = _step(high - low)
    value = low
    while value <= high:
        y = round(_y(value, low, high))
        draw.line((LEFT, y, RIGHT, y), fill=pal.FRAME_LINE)
        draw_label(image, (LEFT - 6, y), str(round(value)), pal.MUTED, face, "rm")
        value += step


def _band(image: Image.Image, points: Sequence[ChartPoint], low: float, high: float) -> None:
    draw, count = ImageDraw.Draw(image), len(points)
    upper = [(_x(i, count), _y(p.rating + p.deviation, low, high)) for i, p in enumerate(points)]
    lower = [(_x(i, count), _y(p.rating - p.deviation, low, high)) for i, p in enumerate(points)]
    if count == 1:  # a band needs a width: one result is a short bar around its dot
        (x, top), (_, bottom) = upper[0], lower[0]
        draw.rectangle((x - 10, top, x + 10, bottom), fill=BAND)
    else:
        draw.polygon(upper + lower[::-1], fill=BAND)


def _line(image: Image.Image, points: Sequence[ChartPoint], low: float, high: float) -> None:
    draw, count = ImageDraw.Draw(image), len(points)
    line = [(_x(i, count), _y(p.rating, low, high)) for i, p in enumerate(points)]
    if count > 1:
        draw.line(line, fill=LINE, width=2)
    if count <= DOTS_UP_TO:
        for x, y in line:
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=LINE)


def _footer(image: Image.Image, points: Sequence[ChartPoint], words: Words) -> None:
    face, y = font(11), HEIGHT - FOOT_H / 2
    third = (RIGHT - LEFT) / 3
    band = fit(words._("band: ± deviation"), face, int(third))
    room = (RIGHT - LEFT - label(band, face, "mm").width) / 2 - 8  # left of the band's words
    games = words.ngettext("{n} rated result", "{n} rated results", len(points))
    draw_label(image, (LEFT, y), fit(games, face, int(room)), pal.MUTED, face, "lm")
    draw_label(image, ((LEFT + RIGHT) / 2, y), band, pal.MUTED, face, "mm")
    last = points[-1]
    now = words._(
        "now {rating} ± {deviation}", rating=round(last.rating), deviation=round(last.deviation)
    )
    draw_label(image, (RIGHT, y), now, pal.TEXT, font(11, bold=True), "rm")
