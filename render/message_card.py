"""A picture of a chat message, drawn roughly as Discord shows it (its dark theme), from plain
data: the text, the images attached, the select menus (the last one open, its options
listed) and the buttons. For the documentation (``make demo`` draws its Play panels with it),
so that a reader sees the panel without a Discord account."""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from PIL import Image, ImageDraw

from .fonts import font

WIDTH = 640
PAD = 16
BACKGROUND = (49, 51, 56)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
MENU = (30, 31, 34)
BLURPLE = (88, 101, 242)
STYLES = {
    "primary": BLURPLE,
    "secondary": (78, 80, 88),
    "success": (36, 128, 70),
    "danger": (218, 55, 60),
}
LINE = 22
WRAP = 72  # characters of a text line before it wraps


@dataclass(frozen=True)
class CardOption:
    label: str
    description: str = ""
    default: bool = False  # the option picked: the closed menu shows it


@dataclass(frozen=True)
class CardSelect:
    placeholder: str
    options: tuple[CardOption, ...]


@dataclass(frozen=True)
class CardButton:
    label: str
    style: str = "secondary"  # primary, secondary, success or danger
    disabled: bool = False


Part = tuple[str, object]


def message_card(
    text: str,
    images: Sequence[bytes] = (),
    selects: Sequence[CardSelect] = (),
    buttons: Sequence[CardButton] = (),
) -> bytes:
    """The message as a PNG: its text (``**bold**``, ``-#`` small lines), its PNG
    ``images``, its ``selects`` (the last one open) and its ``buttons`` in a row."""
    parts: list[Part] = []
    for line in text.splitlines():
        for piece in textwrap.wrap(line, WRAP) or [""]:
            parts.append(("text", piece))
    for data in images:
        parts.append(("image", Image.open(io.BytesIO(data)).convert("RGB")))
    for index, select in enumerate(selects):
        parts.append(("select", (select, index == len(selects) - 1)))
    if buttons:
        parts.append(("buttons", tuple(buttons)))
    height = PAD + sum(_height(kind, value) for kind, value in parts) + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = PAD
    for kind, value in parts:
        _draw(image, draw, kind, value, y)
        y += _height(kind, value)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _height(kind: str, value: object) -> int:
    if kind == "text":
        return LINE
    if isinstance(value, Image.Image):
        return _scaled(value)[1] + 8
    if kind == "select":
        select, open_ = cast(tuple[CardSelect, bool], value)
        return 44 + (len(select.options) * 26 + 8 if open_ else 0)
    return 48


def _scaled(image: Image.Image) -> tuple[int, int]:
    width = min(image.width, WIDTH - 2 * PAD, 420)
    return width, image.height * width // image.width


def _draw(image: Image.Image, draw: ImageDraw.ImageDraw, kind: str, value: object, y: int) -> None:
    if kind == "text":
        text = str(value)
        bold = text.startswith("**")
        shown = re.sub(r"\*\*|`|^-# ", "", text)
        color = MUTED if text.startswith("-# ") else TEXT
        draw.text((PAD, y + 2), shown, fill=color, font=font(15, bold))
    elif isinstance(value, Image.Image):
        image.paste(value.resize(_scaled(value)), (PAD, y + 4))
    elif kind == "select":
        _select(draw, cast(tuple[CardSelect, bool], value), y)
    else:
        _buttons(draw, cast(tuple[CardButton, ...], value), y)


def _select(draw: ImageDraw.ImageDraw, value: tuple[CardSelect, bool], y: int) -> None:
    select, open_ = value
    options = select.options
    picked = next((o.label for o in options if o.default), None)
    box = (PAD, y + 4, WIDTH - PAD, y + 38)
    draw.rounded_rectangle(box, 6, fill=MENU)
    label = picked or select.placeholder
    draw.text((PAD + 12, y + 13), label, fill=TEXT if picked else MUTED, font=font(14))
    draw.text((WIDTH - PAD - 24, y + 10), "\u25be", fill=MUTED, font=font(16))
    if not open_:
        return
    top = y + 42
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + len(options) * 26 + 6), 6, fill=MENU)
    for n, option in enumerate(options):
        row = top + 4 + n * 26
        draw.text((PAD + 12, row + 4), option.label, fill=TEXT, font=font(14))
        if option.description:
            draw.text((WIDTH // 2 + 20, row + 5), option.description, fill=MUTED, font=font(12))


def _buttons(draw: ImageDraw.ImageDraw, buttons: tuple[CardButton, ...], y: int) -> None:
    x = PAD
    for button in buttons:
        width = int(font(14, True).getlength(button.label)) + 28
        color = STYLES.get(button.style, STYLES["secondary"])
        if button.disabled:
            color = (color[0] // 2, color[1] // 2, color[2] // 2)
        draw.rounded_rectangle((x, y + 8, x + width, y + 40), 4, fill=color)
        draw.text((x + 14, y + 16), button.label, fill=(255, 255, 255), font=font(14, True))
        x += width + 8
