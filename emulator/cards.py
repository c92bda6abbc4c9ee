"""Pictures of messages as the emulator holds them, drawn roughly as Discord shows them (its
dark theme): the text, the attached image, the select menus (the last one open, its
options listed) and the buttons. For the documentation (``make demo`` writes them beside
its transcript), so that a reader sees the Play panel without a Discord account."""

from __future__ import annotations

import io
import re
import textwrap

from PIL import Image, ImageDraw

from emulator import Msg
from emulator.models import walk_components
from render.fonts import font

WIDTH = 640
PAD = 16
BACKGROUND = (49, 51, 56)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
MENU = (30, 31, 34)
BLURPLE = (88, 101, 242)
STYLES = {1: BLURPLE, 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
LINE = 22


def card(msg: Msg) -> bytes:
    """``msg`` as a PNG."""
    parts: list[tuple[str, object]] = []
    for line in msg.text().splitlines():
        for piece in textwrap.wrap(line, 72) or [""]:
            parts.append(("text", piece))
    for file in msg.files:
        if file.name.endswith(".png"):
            parts.append(("image", Image.open(io.BytesIO(file.data)).convert("RGB")))
    selects = [c for c in walk_components(msg.components) if c.get("type") == 3]
    for index, select in enumerate(selects):
        parts.append(("select", (select, index == len(selects) - 1)))
    buttons = [c for c in walk_components(msg.components) if c.get("type") == 2]
    if buttons:
        parts.append(("buttons", buttons))
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
    if kind == "image":
        assert isinstance(value, Image.Image)
        return _scaled(value)[1] + 8
    if kind == "select":
        select, open_ = value  # type: ignore[misc]
        return 44 + (len(select.get("options", [])) * 26 + 8 if open_ else 0)
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
    elif kind == "image":
        assert isinstance(value, Image.Image)
        size = _scaled(value)
        image.paste(value.resize(size), (PAD, y + 4))
    elif kind == "select":
        _select(draw, value, y)  # type: ignore[arg-type]
    else:
        _buttons(draw, value, y)  # type: ignore[arg-type]


def _select(draw: ImageDraw.ImageDraw, value: tuple[dict, bool], y: int) -> None:
    select, open_ = value
    options = select.get("options", [])
    picked = next((o["label"] for o in options if o.get("default")), None)
    box = (PAD, y + 4, WIDTH - PAD, y + 38)
    draw.rounded_rectangle(box, 6, fill=MENU)
    label = picked or select.get("placeholder", "")
    draw.text((PAD + 12, y + 13), label, fill=TEXT if picked else MUTED, font=font(14))
    draw.text((WIDTH - PAD - 24, y + 10), "\u25be", fill=MUTED, font=font(16))
    if not open_:
        return
    top = y + 42
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + len(options) * 26 + 6), 6, fill=MENU)
    for n, option in enumerate(options):
        row = top + 4 + n * 26
        draw.text((PAD + 12, row + 4), option["label"], fill=TEXT, font=font(14))
        note = option.get("description") or ""
        if note:
            draw.text((WIDTH // 2 + 20, row + 5), note, fill=MUTED, font=font(12))


def _buttons(draw: ImageDraw.ImageDraw, buttons: list[dict], y: int) -> None:
    x = PAD
    for button in buttons:
        label = button.get("label", "")
        width = int(font(14, True).getlength(label)) + 28
        color = STYLES.get(button.get("style", 2), STYLES[2])
        if button.get("disabled"):
            color = tuple(c // 2 for c in color)
        draw.rounded_rectangle((x, y + 8, x + width, y + 40), 4, fill=color)
        draw.text((x + 14, y + 16), label, fill=(255, 255, 255), font=font(14, True))
        x += width + 8
