"""Fonts: DejaVu Sans (committed under render/fonts, see its LICENSE), so images look the same
on every machine, with or without system fonts, and for the texts DejaVu cannot draw
(Japanese) a subset of Noto Sans CJK JP (kana, JIS level 1 kanji, CJK punctuation; its
LICENSE too). A text is drawn in one face: DejaVu when it has every character, else Noto
when Noto has them (``face_for``; ``label``, ``fit`` and ``draw_label`` choose by
themselves, ``font_for`` gives the face for a text drawn otherwise). Text from outside
(player names) may still hold characters neither has; ``printable`` swaps those for plain
ones instead of drawing boxes."""

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
WIDE_REGULAR = "NotoSansJP-Regular.otf"  # for the texts DejaVu lacks (Japanese)
WIDE_BOLD = "NotoSansJP-Bold.otf"

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """The basic layout engine: faster than raqm, and the same on every machine (raqm is an
    optional system library), which keeps images identical across hosts."""
    path = str(FONT_DIR / (BOLD if bold else REGULAR))
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def wide_font(size: int, bold: bool = False) -> Font:
    """The Japanese face, ``font``'s size and weight."""
    path = str(FONT_DIR / (WIDE_BOLD if bold else WIDE_REGULAR))
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def _missing_mask(wide: bool) -> bytes:
    """What a font draws for a character it does not have (its .notdef box)."""
    return bytes((wide_font if wide else font)(16).getmask("\U000f0000"))


@cache
def has_glyph(char: str) -> bool:
    """Whether DejaVu draws ``char``."""
    return char.isspace() or bytes(font(16).getmask(char)) != _missing_mask(False)


@cache
def has_wide_glyph(char: str) -> bool:
    """Whether the Japanese face draws ``char``."""
    return char.isspace() or bytes(wide_font(16).getmask(char)) != _missing_mask(True)


def _wide(text: str) -> bool:
    """Whether ``text`` needs the Japanese face: DejaVu lacks one of its characters, the
    Japanese face has it."""
    return any(not has_glyph(c) and has_wide_glyph(c) for c in text)


def font_for(text: str, size: int, bold: bool = False) -> Font:
    """The face to draw ``text`` in at ``size``: DejaVu, or Noto for a Japanese text."""
    return wide_font(size, bold) if _wide(text) else font(size, bold)


def face_for(text: str, face: Font) -> Font:
    """``face`` (a ``font``), or the Japanese face of its size and weight if ``text``
    needs it."""
    if not _wide(text) or Path(str(face.path)).name not in (REGULAR, BOLD):
        return face
    return wide_font(int(face.size), Path(str(face.path)).name == BOLD)


def printable(text: str) -> str:
    """``text`` with every character neither face has replaced: accents dropped where that
    leaves a known letter (so a name stays readable), otherwise a ``?``. A text that needs
    the Japanese face keeps what that face draws."""
    drawn = has_wide_glyph if _wide(text) else has_glyph
    out = []
    for char in text:
        if drawn(char):
            out.append(char)
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", char) if drawn(c))
        out.append(plain if plain.strip() else "?")
    return "".join(out)


@lru_cache(maxsize=1024)
def fit(text: str, face: Font, width: int) -> str:
    """``text`` (made printable), cut with an ellipsis to at most ``width`` pixels (as
    ``face_for`` draws it)."""
    text = printable(text)
    face = face_for(text, face)
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
    face = face_for(text, face)
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
