"""The evaluation graph of an analysed match: the balance after each turn from the
Challenger's side (above the middle line: the Challenger stands better), one step per turn,
with the turns that lost the most ringed, numbered as the analysis lists them.

Evaluations are in each game's own units (material, points, progress) and a won or lost
game is worth far more than any position: the y axis is scaled to the largest value short
of a finished game, and values beyond it are drawn at its edge."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rules.sides import Side

from . import palette as pal
from .encode import png_bytes
from .fonts import draw_label, fit, font, text_length
from .palette import to_palette
from .words import ENGLISH, Words

WIDTH, HEIGHT, PAD, TITLE_H, AXIS_W, FOOT_H = 560, 240, 12, 34, 40, 22
LEFT, RIGHT = PAD + AXIS_W, WIDTH - PAD
TOP, BOTTOM = TITLE_H, HEIGHT - FOOT_H
LINE, MARK = pal.FILL[Side.CHALLENGER], pal.FILL[Side.OPPOSITION]
FINISHED = 100_000.0  # a value at least this large is a finished game, not a position
SMALLEST_SCALE = 1.0  # the y axis spans at least ± this


def evaluation_chart_png(
    values: Sequence[float], marked: Sequence[int], title: str, words: Words = ENGLISH
) -> bytes:
    """The chart of ``values`` (after each turn, the first turn's on the left), ringing the
    turns whose indices are in ``marked`` with their place in that list and their number
    ("1: turn 14")."""
    image = Image.new("RGB", (WIDTH, HEIGHT), pal.FRAME)
    face = font(15, bold=True)
    draw_label(image, (PAD, TITLE_H / 2), fit(title, face, WIDTH - 2 * PAD), pal.TEXT, face, "lm")
    scale = _scale(values)
    _grid(image, scale)
    points = [(_x(i, len(values)), _y(v, scale)) for i, v in enumerate(values)]
    draw = ImageDraw.Draw(image)
    if len(points) > 1:
        draw.line(points, fill=LINE, width=2)
    for rank, index in enumerate(marked, 1):
        if 0 <= index < len(points):
            _ring(image, points[index], words._("{rank}: turn {turn}", rank=rank, turn=index + 1))
    foot = words.ngettext(
        "{n} turn · above the line: the Challenger stands better",
        "{n} turns · above the line: the Challenger stands better",
        len(values),
    )
    foot = fit(foot, font(11), WIDTH - LEFT - PAD)
    draw_label(image, (LEFT, HEIGHT - FOOT_H / 2), foot, pal.MUTED, font(11), "lm")
    return png_bytes(to_palette(image))


def _scale(values: Sequence[float]) -> float:
    positions = [abs(v) for v in values if abs(v) < FINISHED]
    return max([SMALLEST_SCALE, *positions])


def _y(value: float, scale: float) -> float:
    shown = max(-scale, min(scale, value))
    return (TOP + BOTTOM) / 2 - shown / scale * (BOTTOM - TOP) / 2


def _x(index: int, count: int) -> float:
    if count <= 1:
        return (LEFT + RIGHT) / 2
    return LEFT + index * (RIGHT - LEFT) / (count - 1)


def _grid(image: Image.Image, scale: float) -> None:
    draw, face = ImageDraw.Draw(image), font(11)
    for value in (scale, 0.0, -scale):
        y = round(_y(value, scale))
        draw.line((LEFT, y, RIGHT, y), fill=pal.MUTED if value == 0 else pal.FRAME_LINE)
        draw_label(image, (LEFT - 6, y), f"{value:+.3g}" if value else "0", pal.MUTED, face, "rm")


def _ring(image: Image.Image, point: tuple[float, float], label: str) -> None:
    draw, (x, y) = ImageDraw.Draw(image), point
    draw.ellipse((x - 7, y - 7, x + 7, y + 7), outline=MARK, width=3)
    face = font(12, bold=True)
    width = text_length(label, face)
    where = (min(max(x, LEFT + width / 2), RIGHT - width / 2), y - 18 if y - 18 > TOP else y + 18)
    box = (where[0] - width / 2 - 3, where[1] - 8, where[0] + width / 2 + 3, where[1] + 8)
    draw.rectangle(box, fill=pal.FRAME, outline=MARK)
    draw_label(image, where, label, MARK, face, "mm")
