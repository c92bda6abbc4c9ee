"""Fonts: DejaVu Sans (committed under render/fonts, see its LICENSE), so images look the same
on every machine, with or without system fonts. Text from outside (player names) may hold
characters the font lacks; ``printable`` swaps those for plain ones instead of drawing boxes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .palette import RGB

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """The basic layout engine: faster than raqm, and the same on every machine (raqm is an
    optional system library), which keeps images identical across hosts."""
    path = str(FONT_DIR / (BOLD if bold else REGULAR))
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def _missing_mask() -> bytes:
    """What the font draws for a character it does not have (its .notdef box)."""
    return bytes(font(16).getmask("\U000f0000"))


@cache
def has_glyph(char: str) -> bool:
    return char.isspace() or bytes(font(16).getmask(char)) != _missing_mask()


def printable(text: str) -> str:
    """``text`` with every character the font lacks replaced: accents dropped where that
    leaves a known letter (so a name stays readable), otherwise a ``?``."""
    out = []
    for char in text:
        if has_glyph(char):
            out.append(char)
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", char) if has_glyph(c))
        out.append(plain if plain.strip() else "?")
    return "".join(out)


@lru_cache(maxsize=1024)
def fit(text: str, face: Font, width: int) -> str:
    """``text`` (made printable), cut with an ellipsis to at most ``width`` pixels."""
    text = printable(text)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@dataclass(frozen=True)
class Label:
    """A line of text rendered once: its coverage mask, where the mask's top-left corner
    lies from the anchor point, and its advance width."""

    mask: Image.Image
    dx: int
    dy: int
    width: float


@lru_cache(maxsize=2048)
def label(text: str, face: Font, anchor: str) -> Label:
    # Whole pixels: the basic layout engine (``font``) measures in them.
    left, top, right, bottom = (int(edge) for edge in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, 255, face, anchor=anchor)
    return Label(mask, left, top, face.getlength(text))


def draw_label(
    image: Image.Image, at: tuple[float, float], text: str, colour: RGB, face: Font, anchor: str
) -> float:
    """Draw ``text`` anchored at ``at`` (Pillow's anchors, e.g. "lm"), from a cache of
    rendered labels: names, numbers and phrases repeat from one image to the next.
    Returns the advance width."""
    shown = label(text, face, anchor)
    x, y = round(at[0]) + shown.dx, round(at[1]) + shown.dy
    image.paste(colour, (x, y, x + shown.mask.width, y + shown.mask.height), shown.mask)
    return shown.width
