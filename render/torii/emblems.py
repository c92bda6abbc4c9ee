"""The six Spirits' emblems (TI4), drawn in the token's ink over its fill: antlers for the
Deer, a fox's face for the Kitsune, a crane in flight, a monkey's face, a winding dragon for
the Tatsu, a boar's head with white tusks. Each draws around (x, y) within radius r."""

from __future__ import annotations

import math

from PIL import ImageDraw

from render import palette as pal
from render.palette import RGB
from rules.torii import BOAR, CRANE, DEER, KITSUNE, MONKEY, TATSU


def _deer(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """Antlers over a narrow head."""
    w = round(r * 0.13)
    draw.ellipse((x - r * 0.24, y - r * 0.05, x + r * 0.24, y + r * 0.8), fill=ink)
    for s in (-1, 1):
        draw.ellipse(
            (x + s * r * 0.42 - r * 0.16, y, x + s * r * 0.42 + r * 0.16, y + r * 0.2), fill=ink
        )
        beam = [
            (x + s * r * 0.12, y + r * 0.05),
            (x + s * r * 0.38, y - r * 0.4),
            (x + s * r * 0.55, y - r * 0.9),
        ]
        draw.line(beam, fill=ink, width=w, joint="curve")
        draw.line(
            [(x + s * r * 0.3, y - r * 0.25), (x + s * r * 0.75, y - r * 0.35)], fill=ink, width=w
        )
        draw.line(
            [(x + s * r * 0.45, y - r * 0.62), (x + s * r * 0.2, y - r * 0.85)], fill=ink, width=w
        )
    draw.ellipse((x - r * 0.08, y + r * 0.55, x + r * 0.08, y + r * 0.7), fill=fill)


def _kitsune(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """A fox's face: tall pointed ears, wide cheeks, a pointed muzzle, slanted eyes."""
    face = [
        (x - r * 0.72, y - r * 0.85),
        (x - r * 0.22, y - r * 0.38),
        (x + r * 0.22, y - r * 0.38),
        (x + r * 0.72, y - r * 0.85),
        (x + r * 0.78, y - r * 0.05),
        (x + r * 0.5, y + r * 0.2),
        (x, y + r * 0.85),
        (x - r * 0.5, y + r * 0.2),
        (x - r * 0.78, y - r * 0.05),
    ]
    draw.polygon(face, fill=ink)
    for s in (-1, 1):
        eye = [
            (x + s * r * 0.15, y + r * 0.02),
            (x + s * r * 0.48, y - r * 0.14),
            (x + s * r * 0.4, y + r * 0.08),
        ]
        draw.polygon(eye, fill=fill)
    draw.ellipse((x - r * 0.1, y + r * 0.58, x + r * 0.1, y + r * 0.74), fill=fill)


def _crane(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """A crane in flight: raised wings, a long neck forward, trailing legs."""
    wings = [
        (x - r * 0.9, y - r * 0.6),
        (x - r * 0.05, y + r * 0.05),
        (x + r * 0.4, y - r * 0.75),
        (x + r * 0.2, y + r * 0.25),
        (x - r * 0.2, y + r * 0.3),
    ]
    draw.polygon(wings, fill=ink)
    draw.ellipse((x - r * 0.45, y + r * 0.05, x + r * 0.35, y + r * 0.45), fill=ink)
    draw.line(
        [(x + r * 0.2, y + r * 0.2), (x + r * 0.65, y + r * 0.05), (x + r * 0.8, y - r * 0.3)],
        fill=ink,
        width=round(r * 0.14),
        joint="curve",
    )
    draw.ellipse((x + r * 0.68, y - r * 0.45, x + r * 0.92, y - r * 0.22), fill=ink)
    draw.line(
        [(x - r * 0.4, y + r * 0.3), (x - r * 0.85, y + r * 0.7)], fill=ink, width=round(r * 0.09)
    )
    draw.line(
        [(x - r * 0.3, y + r * 0.38), (x - r * 0.7, y + r * 0.82)], fill=ink, width=round(r * 0.09)
    )


def _monkey(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """A monkey's face: round head and ears, a pale face with two eyes."""
    for s in (-1, 1):
        draw.ellipse(
            (x + s * r * 0.68 - r * 0.26, y - r * 0.2, x + s * r * 0.68 + r * 0.26, y + r * 0.32),
            fill=ink,
        )
    draw.ellipse((x - r * 0.62, y - r * 0.7, x + r * 0.62, y + r * 0.72), fill=ink)
    draw.ellipse((x - r * 0.44, y - r * 0.32, x + r * 0.44, y + r * 0.6), fill=fill)
    draw.ellipse((x - r * 0.3, y - r * 0.5, x + r * 0.3, y - r * 0.05), fill=fill)
    for s in (-1, 1):
        draw.ellipse(
            (x + s * r * 0.17 - r * 0.08, y - r * 0.2, x + s * r * 0.17 + r * 0.08, y - r * 0.04),
            fill=ink,
        )
    draw.arc(
        (x - r * 0.2, y + r * 0.1, x + r * 0.2, y + r * 0.42),
        20,
        160,
        fill=ink,
        width=round(r * 0.07),
    )


def _tatsu(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """A dragon: a winding body, a horned head on the right."""
    body = [
        (
            x - r * 0.9 + r * 1.45 * t / 24,
            y + r * 0.28 * math.sin(t / 24 * 2.4 * math.pi) + r * 0.12,
        )
        for t in range(25)
    ]
    draw.line(body, fill=ink, width=round(r * 0.26), joint="curve")
    hx, hy = x + r * 0.62, y - r * 0.22
    draw.ellipse((hx - r * 0.26, hy - r * 0.22, hx + r * 0.26, hy + r * 0.22), fill=ink)
    draw.polygon(
        [
            (hx + r * 0.1, hy - r * 0.05),
            (hx + r * 0.5, hy + r * 0.08),
            (hx + r * 0.12, hy + r * 0.2),
        ],
        fill=ink,
    )
    for dx in (-0.12, 0.08):
        draw.line(
            [(hx + r * dx, hy - r * 0.15), (hx + r * (dx - 0.12), hy - r * 0.55)],
            fill=ink,
            width=round(r * 0.08),
        )
    draw.ellipse((hx - r * 0.02, hy - r * 0.1, hx + r * 0.1, hy + r * 0.02), fill=fill)
    for t in (5, 11, 17):
        px, py = body[t]
        draw.polygon(
            [(px - r * 0.08, py - r * 0.1), (px, py - r * 0.3), (px + r * 0.08, py - r * 0.1)],
            fill=ink,
        )


def _boar(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: RGB, fill: RGB) -> None:
    """A boar's head from the front: ears, a broad head, a snout, white tusks."""
    for s in (-1, 1):
        draw.polygon(
            [
                (x + s * r * 0.35, y - r * 0.55),
                (x + s * r * 0.75, y - r * 0.85),
                (x + s * r * 0.72, y - r * 0.3),
            ],
            fill=ink,
        )
    draw.ellipse((x - r * 0.72, y - r * 0.65, x + r * 0.72, y + r * 0.55), fill=ink)
    draw.ellipse(
        (x - r * 0.36, y + r * 0.12, x + r * 0.36, y + r * 0.72),
        fill=ink,
        outline=fill,
        width=round(r * 0.08),
    )
    for s in (-1, 1):
        draw.ellipse(
            (x + s * r * 0.14 - r * 0.07, y + r * 0.35, x + s * r * 0.14 + r * 0.07, y + r * 0.5),
            fill=fill,
        )
        draw.ellipse(
            (x + s * r * 0.28 - r * 0.07, y - r * 0.25, x + s * r * 0.28 + r * 0.07, y - r * 0.11),
            fill=fill,
        )
        tusk = [
            (x + s * r * 0.36, y + r * 0.45),
            (x + s * r * 0.62, y + r * 0.38),
            (x + s * r * 0.7, y + r * 0.05),
        ]
        draw.line(tusk, fill=pal.WHITE, width=round(r * 0.13), joint="curve")


EMBLEMS = {
    DEER: _deer,
    KITSUNE: _kitsune,
    CRANE: _crane,
    MONKEY: _monkey,
    TATSU: _tatsu,
    BOAR: _boar,
}
