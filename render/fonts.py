"""Fonts: DejaVu Sans (committed under render/fonts, see its LICENSE), so images look the same
on every machine, with or without system fonts, and for the texts DejaVu cannot draw
(Japanese) a subset of Noto Sans CJK JP (kana, JIS level 1 kanji, CJK punctuation; its
LICENSE too). A text is drawn in DejaVu when it has every character; otherwise it is cut
into runs (``runs``): Noto for every character Noto has, DejaVu for the rest (a Cyrillic,
Greek or Polish name in a Japanese sentence). ``label``, ``fit``, ``draw_label``,
``draw_text`` and ``text_length`` cut and measure by themselves. Text from outside (player
names) may still hold characters neither has; ``printable`` swaps those for plain ones
instead of drawing boxes."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import groupby
from operator import itemgetter
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


@cache
def _in_wide(char: str) -> bool | None:
    """Which face draws ``char`` in a text DejaVu cannot draw whole: the Japanese face
    (True) when it has it, else DejaVu (False) when it has it, else neither (None)."""
    if has_wide_glyph(char):
        return True
    return False if has_glyph(char) else None


@cache
def _bold_dejavu(face: Font) -> bool | None:
    """Whether ``face`` is DejaVu's bold (True) or regular (False); None: another face."""
    name = Path(str(face.path)).name
    return None if name not in (REGULAR, BOLD) else name == BOLD


Run = tuple[str, Font]


def runs(text: str, face: Font) -> tuple[Run, ...]:
    """``text`` cut into runs, each with the face to draw it in: all of it in ``face`` (a
    ``font``) when DejaVu has every character, as nearly always; otherwise, ``text`` made
    ``printable``, the Japanese face for every character it has (so Japanese lines look as
    they always did) and ``face`` for the rest (a Cyrillic, Greek or Polish name in a
    Japanese sentence)."""
    bold = _bold_dejavu(face)
    if bold is None or all(map(has_glyph, text)):
        return ((text, face),)
    picks = list(map(_in_wide, text))
    if None in picks:
        text = printable(text)
        picks = list(map(_in_wide, text))
    wide = wide_font(int(face.size), bold)
    if all(picks) or not any(picks):
        return ((text, wide if picks[0] else face),)
    return tuple(
        ("".join(char for char, _pick in group), wide if pick else face)
        for pick, group in groupby(zip(text, picks, strict=True), key=itemgetter(1))
    )


def text_length(text: str, face: Font) -> float:
    """The advance width of ``text`` drawn run by run (``runs``)."""
    return sum(run_face.getlength(run) for run, run_face in runs(text, face))


def printable(text: str) -> str:
    """``text`` with every character neither face has replaced: accents dropped where that
    leaves a known letter (so a name stays readable), otherwise a ``?``."""

    def drawn(char: str) -> bool:
        return _in_wide(char) is not None

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
    ``draw_label`` draws it)."""
    text = printable(text)
    if text_length(text, face) <= width:
        return text
    while text and text_length(text + "…", face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_name(text: str, name: str, face: Font, width: int) -> str:
    """``text``, a player's ``name`` with what marks it ("(withdrawn)", "(sub)", in any
    language and order), fitted to ``width`` pixels by cutting the name alone: the mark
    stays. ``fit`` of the whole where ``name`` is not in ``text``."""
    if not name or name not in text:
        return fit(text, face, width)
    before, _name, after = (printable(part) for part in text.partition(name))
    room = width - text_length(before + after, face)
    return before + fit(name, face, max(0, int(room))) + after


Placed = tuple[str, Font, float, float, str]


@lru_cache(maxsize=2048)
def placed(text: str, face: Font, anchor: str) -> tuple[Placed, ...]:
    """Where to draw each of ``text``'s runs from the anchor point: (run, face, dx, dy,
    the run's own anchor). One run keeps ``anchor``; several are set on one baseline, placed
    as the Japanese face would place the whole line."""
    cut = runs(text, face)
    if len(cut) == 1:
        return ((*cut[0], 0.0, 0.0, anchor),)
    wide = next(run_face for _run, run_face in cut if run_face is not face)
    dy = _baseline(wide, anchor[1])
    total = sum(run_face.getlength(run) for run, run_face in cut)
    x = {"l": 0.0, "m": -total / 2, "r": -total}[anchor[0]]
    out = []
    for run, run_face in cut:
        out.append((run, run_face, x, dy, "ls"))
        x += run_face.getlength(run)
    return tuple(out)


@cache
def _baseline(face: Font, vertical: str) -> float:
    """How far below a line's anchor point (Pillow's ``vertical`` anchor) its baseline lies
    in ``face``: the same for every text, but for "t" (the text's top: here a capital's)."""
    return float(face.getbbox("H", anchor="l" + vertical)[1] - face.getbbox("H", anchor="ls")[1])


def draw_text(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    colour: RGB | int,
    face: Font,
    anchor: str,
) -> None:
    """``ImageDraw.text`` run by run (``runs``): for pictures drawn with ``ImageDraw``."""
    for run, run_face, dx, dy, run_anchor in placed(text, face, anchor):
        draw.text((at[0] + dx, at[1] + dy), run, colour, run_face, anchor=run_anchor)


@dataclass(frozen=True)
class Label:
    """A line of text rendered once: its coverage mask, where the mask's top-left corner
    lies from the anchor point, and its advance width."""

    mask: Image.Image
    dx: int
    dy: int
    width: float


def _box(part: Placed) -> tuple[int, int, int, int]:
    """A placed run's bounding box from the anchor point, in whole pixels."""
    run, run_face, dx, dy, anchor = part
    left, top, right, bottom = run_face.getbbox(run, anchor=anchor)
    return int(left + dx), int(top + dy), int(right + dx), int(bottom + dy)


@lru_cache(maxsize=2048)
def label(text: str, face: Font, anchor: str) -> Label:
    # Whole pixels: the basic layout engine (``font``) measures in them.
    parts = placed(text, face, anchor)
    boxes = [_box(part) for part in parts]
    left, top = min(box[0] for box in boxes), min(box[1] for box in boxes)
    right, bottom = max(box[2] for box in boxes), max(box[3] for box in boxes)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw_text(ImageDraw.Draw(mask), (-left, -top), text, 255, face, anchor)
    return Label(mask, left, top, sum(run_face.getlength(run) for run, run_face, *_ in parts))


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
