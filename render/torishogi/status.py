"""The status strip (names, move number, whose move, check, deadline or outcome) and the two
hand strips, drawn in RGB and mapped onto the fixed palette.

Names and the deadline are not in a View: the caller passes them in ``info``, any object with
``challenger``, ``opposition`` and ``deadline`` string attributes (``render.StatusInfo``); the
strip's own words are in the language of its ``words`` (``render.status.words_of``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw

from render.fonts import Font, draw_label, fit, font, label
from render.status import deadline_parts, headline_of, words_of
from render.words import N_, Words
from rules.sides import Side
from rules.torishogi import View

from . import palette as pal
from .layout import HAND_ROW, MARGIN, STRIP, SUPERSAMPLE, Layout
from .palette import to_palette
from .tiles import OUTLINE, Look, hand_tile

PAD = 12
SEPARATOR = " · "
NAME_ROOM = 120
NOTES = {"check": N_("check"), "checkmate": N_("checkmate")}  # a move's note (the rules')
STRIPS = 256  # drawn status strips kept


class StatusFields(Protocol):
    @property
    def challenger(self) -> str: ...

    @property
    def opposition(self) -> str: ...

    @property
    def deadline(self) -> str: ...


def player_name(info: StatusFields, side: Side) -> str:
    return info.challenger if side == Side.CHALLENGER else info.opposition


@lru_cache(maxsize=8)
def side_icon(side: Side, up: bool, size: int) -> Image.Image:
    """A small pentagon in the side's colours, pointing as its pieces do."""
    k = SUPERSAMPLE
    big = size * k
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    points = [(x * big, (y if up else 1 - y) * big) for x, y in OUTLINE]
    ImageDraw.Draw(image).polygon(
        points, fill=pal.FILL[side], outline=pal.EDGE[side], width=round(big * 0.09)
    )
    return image.reduce(k)


def _icon(image: Image.Image, side: Side, up: bool, x: float, y: float, size: int = 14) -> None:
    icon = side_icon(side, up, size)
    image.paste(icon, (round(x - size / 2), round(y - size / 2)), icon)


def status_strip(layout: Layout, view: View, info: StatusFields) -> Image.Image:
    """The strip, in the fixed palette: drawn from its words and kept (the next player's own
    picture of a turn has the public one's, a preview's repeats), the words worded anew for
    every picture, in its language."""
    words = words_of(info)
    middle = words._("ToriShogi · move {move}", move=view.move_number)
    names = (player_name(info, Side.CHALLENGER), player_name(info, Side.OPPOSITION))
    wordings = tuple(tuple(parts) for parts in _describe(view, info, words))
    red = frozenset({words._("in check"), *(words._(note) for note in NOTES.values())})
    icon_side = None if headline_of(info) else view.winner if view.outcome else view.side
    return _strip(layout, middle, names, wordings, red, icon_side)


@lru_cache(maxsize=STRIPS)
def _strip(
    layout: Layout,
    middle: str,
    names: tuple[str, str],
    wordings: tuple[tuple[str, ...], ...],
    red: frozenset[str],
    icon_side: Side | None,
) -> Image.Image:
    width = layout.width
    image = Image.new("RGB", (width, STRIP), pal.FRAME)
    ImageDraw.Draw(image).line((0, STRIP - 1, width, STRIP - 1), fill=pal.FRAME_LINE)
    _players(image, layout, middle, names)
    _sentence(image, layout, wordings, red, icon_side)
    return to_palette(image)


def _players(image: Image.Image, layout: Layout, middle: str, names: tuple[str, str]) -> None:
    """The Challenger on the left, the Opposition on the right, the move number between."""
    y, width = 19, layout.width
    face = font(15, bold=True)
    mid = draw_label(image, (width / 2, y), middle, pal.MUTED, font(12), "mm")
    room = int((width - mid) / 2 - PAD - 30)
    for side, name, anchor in ((Side.CHALLENGER, names[0], "l"), (Side.OPPOSITION, names[1], "r")):
        x = PAD + 8 if anchor == "l" else width - PAD - 8
        _icon(image, side, layout.points_up(side), x, y)
        x += 14 if anchor == "l" else -14
        draw_label(image, (x, y), fit(name, face, room), pal.TEXT, face, anchor + "m")


def _sentence(
    image: Image.Image,
    layout: Layout,
    wordings: tuple[tuple[str, ...], ...],
    red: frozenset[str],
    icon_side: Side | None,
) -> None:
    """Who is to move (``icon_side``'s mark) in the first of ``wordings`` that fits, the
    parts in ``red`` (check) in red."""
    y, face = 45, font(13)
    room = layout.width - 2 * PAD - 30
    fitting = [parts for parts in wordings if _width(parts, face) <= room]
    parts = fitting[0] if fitting else (fit(SEPARATOR.join(wordings[-1]), face, room),)
    x: float = PAD + 8
    if icon_side is not None:
        _icon(image, icon_side, layout.points_up(icon_side), x, y, 12)
        x += 14
    for i, part in enumerate(parts):
        colour = pal.RED if part in red else pal.TEXT
        if i:
            x += draw_label(image, (x, y), SEPARATOR, pal.MUTED, face, "lm")
        x += draw_label(image, (x, y), part, colour, face, "lm")


def _width(parts: Sequence[str], face: Font) -> float:
    return (
        sum(label(part, face, "lm").width for part in parts)
        + (len(parts) - 1) * label(SEPARATOR, face, "lm").width
    )


def _describe(view: View, info: StatusFields, words: Words) -> list[list[str]]:
    """From the fullest wording to the shortest; each part is drawn as a label of its own."""
    face = font(13)
    names = [fit(player_name(info, side), face, NAME_ROOM) for side in Side]
    if view.outcome:
        reason = view.outcome.partition("(")[2].rstrip(")")
        head = (
            words._("Draw")
            if view.winner is None
            else words._("{name} wins", name=names[view.winner])
        )
        return [[f"{head} ({reason})"], [head]]
    deadline = deadline_parts(info, view.side.other, face, NAME_ROOM)
    headline = headline_of(info)
    if headline:  # nobody is to move: a match called off
        return [[headline, *deadline], [headline]]
    if view.staged:
        move = view.staged[0]
        said = words._("Preview: {move}", move=move.readable)
        check = [words._(NOTES.get(move.note, move.note))] if move.note else []
        return [
            [said, *check, words._("played when you end the turn")],
            [said, *check, *deadline],
            [said, *check],
        ]
    who = names[view.side]
    role = "Challenger" if view.side == Side.CHALLENGER else "Opposition"  # game terms
    check = [words._("in check")] if view.in_check else []
    short = words._("{name} to move", name=who)
    # without players' names (the quick start's picture) the name is the role already
    acting = short if who == role else words._("{name} ({role}) to move", name=who, role=role)
    return [[acting, *check, *deadline], [short, *check, *deadline], [short, *check]]


def hand_strip(layout: Layout, view: View, info: StatusFields, side: Side) -> Image.Image:
    """One player's hand: their name, then each kind they hold with its count, or that they
    hold nothing, in the picture's language."""
    held = tuple(view.hand(side))
    empty = "" if held else words_of(info)._("nothing in hand")
    return _hand_strip(layout, side, player_name(info, side), held, empty)


@dataclass(frozen=True)
class HandStyle:
    """How big a hand's kinds are drawn: the tile, the count's font size, where the count
    starts from the tile's left edge, and the room after a count."""

    tile: int
    count_size: int
    count_at: int
    gap: int


# The tiles at their full size, the count beside each; and smaller, the count tucked against
# the piece (a tile's box has room on either side of its pentagon), for hands of many kinds.
ROOMY = HandStyle(40, 14, 40, 0)
COMPACT = HandStyle(34, 12, 31, 2)
KINDS_AT = MARGIN + 122  # where the kinds start when the name has its full room
NAME_AT = MARGIN + 22
NAME_GAP = 8  # between the name and the first kind
NAME_LEAST = 20  # less room than this, and the side's icon alone says whose hand it is


@dataclass(frozen=True)
class HandSlot:
    """One kind in hand: ``count`` as drawn (a multiplication sign and the number), the
    tile's left edge ``x``, and ``end``, the right edge of the count."""

    kind: int
    count: str
    x: int
    end: int


@dataclass(frozen=True)
class HandPlan:
    """Where a hand's name and kinds go: ``name_room`` pixels for the name (0: none)."""

    style: HandStyle
    name_room: int
    slots: tuple[HandSlot, ...]


def hand_plan(width: int, held: tuple[tuple[int, int], ...]) -> HandPlan:
    """Each kind laid out by the measured width of its count, so that a count of two digits
    is never covered by the next kind. At full size when every kind fits beside a full-sized
    name; otherwise smaller, and the name gets the room left. The largest hands a game can
    reach (all six kinds, the Swallows in two digits) fit."""
    right = width - MARGIN - 2
    roomy = _slots(ROOMY, held, KINDS_AT)
    if not roomy or roomy[-1].end <= right:
        return HandPlan(ROOMY, KINDS_AT - NAME_GAP - NAME_AT, roomy)
    compact = _slots(COMPACT, held, 0)
    start = min(KINDS_AT, right - compact[-1].end)
    room = start - NAME_GAP - NAME_AT
    return HandPlan(COMPACT, room if room >= NAME_LEAST else 0, _slots(COMPACT, held, start))


def _slots(style: HandStyle, held: tuple[tuple[int, int], ...], x: int) -> tuple[HandSlot, ...]:
    face = font(style.count_size, bold=True)
    out = []
    for kind, count in held:
        text = f"\N{MULTIPLICATION SIGN}{count}"
        end = x + style.count_at + round(label(text, face, "lm").width)
        out.append(HandSlot(kind, text, x, end))
        x = end + style.gap
    return tuple(out)


@lru_cache(maxsize=256)
def _hand_strip(
    layout: Layout, side: Side, name: str, held: tuple[tuple[int, int], ...], empty: str
) -> Image.Image:
    """Cached (by its words too: ``empty``, what an empty hand says, is worded in the
    picture's language): a hand changes only when a piece is captured or dropped."""
    width = layout.width
    strip = Image.new("RGB", (width, HAND_ROW), pal.FRAME)
    ImageDraw.Draw(strip).rounded_rectangle(
        (MARGIN - 4, 4, width - MARGIN + 3, HAND_ROW - 5), 8, fill=pal.HAND
    )
    y = HAND_ROW / 2
    up = layout.points_up(side)
    _icon(strip, side, up, MARGIN + 10, y)
    plan = hand_plan(width, held)
    name_face = font(13, bold=True)
    if plan.name_room:
        shown = fit(name, name_face, plan.name_room)
        draw_label(strip, (NAME_AT, y), shown, pal.TEXT, name_face, "lm")
    if empty:
        face = font(12)
        draw_label(
            strip, (KINDS_AT, y), fit(empty, face, width - MARGIN - KINDS_AT), pal.MUTED, face, "lm"
        )
    style = plan.style
    count_face = font(style.count_size, bold=True)
    for slot in plan.slots:
        piece = hand_tile(Look(side, slot.kind, up), style.tile)
        strip.paste(piece.convert("RGB"), (slot.x, round(y - style.tile / 2)))
        at = (slot.x + style.count_at, y + 2)
        draw_label(strip, at, slot.count, pal.TEXT, count_face, "lm")
    return to_palette(strip)
