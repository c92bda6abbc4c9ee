"""TORA's status strip above the board: players and score, round, who acts, deadline,
outcome. Everything but the names and the deadline (``render.status.StatusInfo``) comes from
the View's public fields; its own words are in the language of ``words_of(info)``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from rules.tora import Side, View

from .. import palette as pal
from ..fonts import Font, draw_label, fit, font, label
from ..palette import to_palette
from ..status import (
    Mode,
    StatusFields,
    deadline_parts,
    headline_of,
    player_name,
    side_icon,
    words_of,
)
from ..words import N_, Words
from .layout import STATUS_LINE as LINE
from .layout import Layout

PAD = 12
GAP = 8  # between a name, its score and its pending points, and before the round
SEPARATOR = " · "
NAME_ROOM = 120  # pixels a name may take in the sentence under the names
TAGS = {Mode.PRIVATE: N_("PRIVATE"), Mode.PREVIEW: N_("PREVIEW")}  # on a player's own image
LINES = 256  # drawn lines kept, of each kind

Player = tuple[str, str, str]  # a side's name, score and pending points, as shown


def paste_strip(
    image: Image.Image, layout: Layout, view: View, info: StatusFields, mode: Mode
) -> None:
    """The strip across the top of the board ``image`` (in the fixed palette). Each of its
    two lines is drawn from its words and kept (a match's names and scores, a preview's
    sentence, repeat from picture to picture); the words are the view's and ``info``'s,
    worded anew every time."""
    width = layout.width
    words = words_of(info)
    middle = words._("Round {round}", round=view.round)
    if view.game_number > 1:
        middle = words._("Game {game} · Round {round}", game=view.game_number, round=view.round)
    sides = tuple(
        (player_name(info, side), str(view.score[side]), _pending(view.pending[side]))
        for side in (Side.OPPOSITION, Side.CHALLENGER)
    )
    tag = words._(TAGS[mode]) if mode in TAGS else ""
    wordings = tuple(tuple(parts) for parts in _describe(view, info, mode))
    icon_side = None if headline_of(info) else view.winner if view.outcome else view.side
    image.paste(_players(width, middle, sides), (0, 0))
    image.paste(_sentence(width, layout.strip - LINE, tag, wordings, icon_side), (0, LINE))


def _pending(points: int) -> str:
    return f"+{points}" if points else ""


@lru_cache(maxsize=LINES)
def _players(width: int, middle: str, sides: tuple[Player, Player]) -> Image.Image:
    """The first line: the Opposition on the left and the Challenger on the right, as on
    the board (each as name, score and pending points), ``middle`` between them."""
    image = Image.new("RGB", (width, LINE), pal.FRAME)
    draw = ImageDraw.Draw(image)
    y = 19
    name_face, score_face, small = font(15, bold=True), font(18, bold=True), font(12)
    mid_width = draw_label(image, (width / 2, y), middle, pal.MUTED, small, "mm")
    half = (width - mid_width) / 2 - GAP  # each side's, up to a gap before the middle
    for (name, score, pending), side, anchor in zip(
        sides, (Side.OPPOSITION, Side.CHALLENGER), ("l", "r"), strict=True
    ):
        after = [(score, score_face, pal.TEXT), (pending, small, pal.MUTED)]
        taken = sum(label(text, face, "lm").width + GAP for text, face, _c in after if text)
        room = int(half - PAD - 22 - GAP - taken)  # the icon, then name, score, pending
        parts = [(fit(name, name_face, room), name_face, pal.TEXT), *after]
        if anchor == "r":
            parts.reverse()
        x: float = PAD + 8 if anchor == "l" else width - PAD - 8
        side_icon(draw, side, x, y, 7)
        x += 14 if anchor == "l" else -14
        for text, face, colour in parts:
            if not text:
                continue
            step = draw_label(image, (x, y), text, colour, face, anchor + "m") + GAP
            x += step if anchor == "l" else -step
    return to_palette(image)


@lru_cache(maxsize=LINES)
def _sentence(
    width: int,
    height: int,
    tag: str,
    wordings: tuple[tuple[str, ...], ...],
    icon_side: Side | None,
) -> Image.Image:
    """The second line: who is to act (``icon_side``'s mark) in the first of ``wordings``
    that fits, ``tag`` (PRIVATE, PREVIEW) on the right; the strip's bottom edge under it."""
    image = Image.new("RGB", (width, height), pal.FRAME)
    draw = ImageDraw.Draw(image)
    draw.line((0, height - 1, width, height - 1), fill=pal.FRAME_LINE)
    y = 45 - LINE
    face = font(13)
    tag_width = 0
    if tag:
        tag_face = font(11, bold=True)
        shown = label(tag, tag_face, "mm")
        tag_width = int(shown.width) + 14
        box = (width - PAD - tag_width, y - 9, width - PAD, y + 9)
        draw.rounded_rectangle(box, 9, fill=pal.HIDDEN)
        draw_label(image, ((box[0] + box[2]) / 2, y), tag, pal.WHITE, tag_face, "mm")
    room = width - 2 * PAD - tag_width - 30
    fitting = [parts for parts in wordings if _width(parts, face) <= room]
    parts = fitting[0] if fitting else (fit(SEPARATOR.join(wordings[-1]), face, room),)
    x: float = PAD + 8
    if icon_side is not None:
        side_icon(draw, icon_side, x, y, 6)
        x += 14
    for i, part in enumerate(parts):
        text = part if i == 0 else SEPARATOR + part
        x += draw_label(image, (x, y), text, pal.TEXT, face, "lm")
    return to_palette(image)


def _width(parts: Sequence[str], face: Font) -> float:
    return sum(
        label(part if i == 0 else SEPARATOR + part, face, "lm").width
        for i, part in enumerate(parts)
    )


def _describe(view: View, info: StatusFields, mode: Mode) -> list[list[str]]:
    """The sentence under the names, from the fullest to the shortest wording, in parts (each
    part is a label of its own, so the parts that repeat from turn to turn are drawn from the
    label cache)."""
    face, words = font(13), words_of(info)
    if view.outcome:
        reason = view.outcome.partition("(")[2].rstrip(")")
        winner = view.winner
        head = (
            words._("Tie")
            if winner is None
            else words._("{name} wins", name=fit(player_name(info, winner), face, NAME_ROOM))
        )
        return [[f"{head} ({reason})" if reason else head], [head]]
    deadline = deadline_parts(info, view.side.other, face, NAME_ROOM)
    headline = headline_of(info)
    if headline:  # before the game: nobody is to act, nothing is staged
        return [[headline, *deadline], [headline]]
    if mode == Mode.PREVIEW:
        return _preview(view, words, deadline)
    who = fit(player_name(info, view.side), face, NAME_ROOM)
    role = "Challenger" if view.side == Side.CHALLENGER else "Opposition"  # game terms
    short = words._("{name} to act", name=who)
    # without players' names (the quick start's picture) the name is the role already
    acting = short if who == role else words._("{name} ({role}) to act", name=who, role=role)
    counts = {"left": view.actions_left, "total": view.actions_total}
    actions = words._("{left} of {total} actions left", **counts)
    brief = words._("{left} of {total} left", **counts)
    return [[acting, actions, *deadline], [short, actions, *deadline], [short, brief, *deadline]]


def _preview(view: View, words: Words, deadline: list[str]) -> list[list[str]]:
    """The sentence of a preview: what is staged and what is left."""
    staged = words.ngettext("{n} action staged", "{n} actions staged", len(view.staged))
    left = words.ngettext("{n} left", "{n} left", view.actions_left)
    whole = words._("If you end the turn now: {staged}", staged=staged)
    return [[whole, left, *deadline], [staged, left, *deadline]]
