"""The status strip (whose turn, the deadline or the outcome, a Monkey's pause) and each
player's panel on their side of the board (name, Spirit, tiles, supply, Torii left).

Player names and the deadline are not part of a View: ``info`` is any object with
``challenger``, ``opposition`` and ``deadline`` string attributes; the strip's own words are
in the language of its ``words`` (``render.status.words_of``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as pal
from render.fonts import draw_label, fit, font
from render.palette import to_palette
from render.status import StatusFields, deadline_parts, headline_of, side_icon, words_of
from rules.sides import Side
from rules.torii import View

from .layout import PANEL, STRIP, WIDTH
from .sprites import icon, spirit_icon

PAD = 10
TILE = 22
COUNTERS = 3 * (TILE + 4) + 12 + 2 * 54  # the counters' width, at the panel's right
SEPARATOR = " · "
FACE = 13  # the strip's font size
NAME_ROOM = 120  # pixels a name may take in the strip, so that the deadline after it shows


def name_of(info: StatusFields, side: Side) -> str:
    return info.challenger if side == Side.CHALLENGER else info.opposition


def _strip_name(info: StatusFields, side: Side) -> str:
    """``side``'s name as the strip words it: cut to ``NAME_ROOM``."""
    return fit(name_of(info, side), font(FACE), NAME_ROOM)


def status_strip(view: View, info: StatusFields) -> Image.Image:
    side = None if headline_of(info) else view.winner if view.outcome else view.side
    return _strip(_sentence(view, info), side)


@lru_cache(maxsize=256)
def _strip(text: str, side: Side | None) -> Image.Image:
    image = Image.new("RGB", (WIDTH, STRIP), pal.FRAME)
    draw = ImageDraw.Draw(image)
    draw.line((0, STRIP - 1, WIDTH, STRIP - 1), fill=pal.FRAME_LINE)
    x, y = PAD + 7, STRIP // 2
    if side is not None:
        side_icon(draw, side, x, y, 6)
        x += 13
    face = font(FACE)
    draw_label(image, (x, y), fit(text, face, WIDTH - x - PAD), pal.TEXT, face, "lm")
    return to_palette(image)


def _sentence(view: View, info: StatusFields) -> str:
    deadline = deadline_parts(info, view.side.other, font(FACE), NAME_ROOM)
    words = words_of(info)
    if view.outcome is not None:
        reason = view.outcome.partition("(")[2].rstrip(")")
        winner = view.winner
        head = (
            words._("Draw")
            if winner is None
            else words._("{name} wins", name=_strip_name(info, winner))
        )
        return SEPARATOR.join([head, reason] if reason else [head])
    headline = headline_of(info)
    if headline:  # nobody is to play: a setup, a match called off
        return SEPARATOR.join([headline, *deadline])
    who = _strip_name(info, view.side)
    if view.staged:
        staged = words._("Preview: {name}'s turn as staged", name=who)
        return SEPARATOR.join([staged, *deadline])
    if view.monkey_decision:
        waiting = words.ngettext(
            "Waiting for {name}'s Monkey ({n} decision)",
            "Waiting for {name}'s Monkey ({n} decisions)",
            view.actions_left,
            name=who,
        )
        return SEPARATOR.join([waiting, *deadline])
    powers = [] if view.powers else [words._("powers off")]
    return SEPARATOR.join([words._("{name} to play", name=who), *deadline, *powers])


def paste_panel(image: Image.Image, view: View, info: StatusFields, side: Side, top: int) -> None:
    """The panel of ``side`` at ``top``: who (drawn once per name and Spirit) and the
    counters (drawn once per tiles, supply and Torii left)."""
    acting = view.outcome is None and view.side == side
    image.paste(_identity(side, name_of(info, side), view.spirits[side].kind, acting), (0, top))
    counters = _counters(side, view.tiles[side], view.supply[side], view.torii_left[side], acting)
    image.paste(counters, (WIDTH - COUNTERS, top))


def _background(acting: bool) -> pal.RGB:
    return pal.FRAME_LINE if acting else pal.FRAME


@lru_cache(maxsize=64)
def _identity(side: Side, name: str, kind: str, acting: bool) -> Image.Image:
    """The Spirit's token, the player's name and the Spirit's kind."""
    image = Image.new("RGB", (WIDTH - COUNTERS, PANEL), _background(acting))
    y = PANEL // 2
    token = spirit_icon(kind, side, 34)
    image.paste(token, (PAD - 2, y - 17), token)
    x = PAD + 36
    bold = font(15, bold=True)
    draw_label(image, (x, y - 7), fit(name, bold, WIDTH - COUNTERS - x), pal.TEXT, bold, "lm")
    draw_label(image, (x, y + 10), kind, pal.MUTED, font(12), "lm")
    return to_palette(image)


@lru_cache(maxsize=512)
def _counters(
    side: Side, tiles: tuple[bool, bool, bool], supply: int, torii_left: int, acting: bool
) -> Image.Image:
    """The three tiles (used: hollow), then the supply and the Torii left."""
    image = Image.new("RGB", (COUNTERS, PANEL), _background(acting))
    draw = ImageDraw.Draw(image)
    y = PANEL // 2
    number_face = font(13, bold=True)
    for number, used in enumerate(tiles, start=1):
        left = (number - 1) * (TILE + 4)
        box = (left, y - TILE // 2, left + TILE - 1, y + TILE // 2 - 1)
        if used:
            draw.rounded_rectangle(box, 4, outline=pal.MUTED, width=1)
        else:
            draw.rounded_rectangle(box, 4, fill=pal.FILL[side], outline=pal.EDGE[side])
        ink = pal.MUTED if used else pal.INK[side]
        draw_label(image, (left + TILE / 2, y), str(number), ink, number_face, "mm")
    face = font(14, bold=True)
    x = 3 * (TILE + 4) + 12
    for count, torii in ((supply, False), (torii_left, True)):
        mark = icon(side, torii, 24)
        image.paste(mark, (x, y - 12), mark)
        draw_label(image, (x + 26, y), str(count), pal.TEXT, face, "lm")
        x += 54
    return to_palette(image)
