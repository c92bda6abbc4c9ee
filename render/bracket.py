"""A tournament bracket as an image: one column per tier, each match a box with both players
and their Game Points, the winner in bold with a green mark, and the champion at the end.

The tournament service passes plain ``BracketMatch`` values per tier, so this module knows
nothing about how tournaments are scored. Each tier's boxes are spread over the same height,
so later (smaller) tiers sit between the matches that led to them, as in a printed bracket.
A bracket larger than a readable picture is shown in part and says what it leaves out: its
latest ``MOST_TIERS`` tiers, the first ``MOST_BOXES`` matches of each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import palette as pal
from .encode import png_bytes
from .fonts import draw_label, fit, fit_name, font
from .palette import to_palette
from .words import ENGLISH, Words

PAD, TITLE_H, HEAD_H = 14, 44, 26
COL_W, COL_GAP, BOX_H, BOX_GAP = 230, 26, 56, 22
POINTS_W = 44  # the Game Points column at each box's right
MOST_TIERS, MOST_BOXES = 6, 32  # what is drawn of a larger bracket: about 1,800 x 2,600 px
NOTE_H = 24


@dataclass(frozen=True)
class BracketMatch:
    first: str
    second: str
    points: tuple[int, int]  # Game Points, as they stand
    winner: int | None  # 0 the first, 1 the second, None while it is played
    games: int  # games played (tie-breakers not counted)
    # the players' own names, within ``first`` and ``second`` (beside a mark such as
    # "(sub)"): what is cut when one is too wide, so that the mark stays
    names: tuple[str, str] = ("", "")


def bracket_png(
    title: str,
    tiers: Sequence[Sequence[BracketMatch]],
    champion: str | None = None,
    words: Words = ENGLISH,
) -> bytes:
    """The tiers' boxes left to right, then the champion's (its own words in ``words``'
    language)."""
    skipped = max(0, len(tiers) - MOST_TIERS)
    shown = [tier[:MOST_BOXES] for tier in tiers[skipped:]]
    note = _left_out(
        skipped, sum(len(tier) for tier in tiers[skipped:]) - sum(map(len, shown)), words
    )
    columns = len(shown) + 1  # the champion's column
    most = max((len(tier) for tier in shown), default=1)
    body = most * (BOX_H + BOX_GAP)
    width = 2 * PAD + columns * COL_W + (columns - 1) * COL_GAP
    height = TITLE_H + HEAD_H + body + (NOTE_H if note else 0) + PAD
    image = Image.new("RGB", (width, height), pal.FRAME)
    title_face = font(17, bold=True)
    fitted = fit(title, title_face, width - 2 * PAD)
    draw_label(image, (PAD, TITLE_H / 2), fitted, pal.TEXT, title_face, "lm")
    top = TITLE_H + HEAD_H
    for index, tier in enumerate(shown):
        left = PAD + index * (COL_W + COL_GAP)
        _heading(image, left, words._("Tier {tier}", tier=skipped + index + 1))
        for n, match in enumerate(tier):
            centre = top + (n + 0.5) * body / len(tier)
            _match(image, match, left, centre - BOX_H / 2, words)
    if note:
        face = font(13)
        at = (PAD, top + body + NOTE_H / 2)
        draw_label(image, at, fit(note, face, width - 2 * PAD), pal.MUTED, face, "lm")
    left = PAD + len(shown) * (COL_W + COL_GAP)
    _heading(image, left, words._("Champion"))
    _champion(
        image,
        champion or words._("to be decided"),
        bool(champion),
        (left, top + body / 2 - BOX_H / 4),
    )
    return png_bytes(to_palette(image))


def _left_out(tiers: int, matches: int, words: Words) -> str:
    """What a bracket too large to draw whole leaves out: its first ``tiers`` tiers and
    ``matches`` of the tiers it draws ("" for nothing)."""
    notes = []
    if tiers:
        notes.append(
            words.ngettext(
                "{n} earlier tier is not shown", "{n} earlier tiers are not shown", tiers
            )
        )
    if matches:
        notes.append(
            words.ngettext("{n} more match is not shown", "{n} more matches are not shown", matches)
        )
    return " · ".join(notes)


def _heading(image: Image.Image, left: int, text: str) -> None:
    face = font(12, bold=True)
    draw_label(image, (left, TITLE_H + HEAD_H / 2), fit(text, face, COL_W), pal.MUTED, face, "lm")


def _match(image: Image.Image, match: BracketMatch, left: int, top: float, words: Words) -> None:
    draw = ImageDraw.Draw(image)
    edge = pal.GOOD if match.winner is not None else pal.FRAME_LINE
    draw.rectangle((left, top, left + COL_W, top + BOX_H), fill=pal.FRAME_LINE, outline=edge)
    for seat, (name, own) in enumerate(zip((match.first, match.second), match.names, strict=True)):
        y = top + BOX_H * (0.27 + 0.46 * seat)
        won = match.winner == seat
        face = font(13, bold=won)
        colour = pal.MUTED if match.winner is not None and not won else pal.TEXT
        mark = "\u25b6 " if won else "   "
        text = fit_name(mark + name, own, face, COL_W - POINTS_W - 12)
        draw_label(image, (left + 8, y), text, colour, face, "lm")
        points = str(match.points[seat])
        draw_label(image, (left + COL_W - 8, y), points, colour, font(13, bold=True), "rm")
    games = words.ngettext("{n} game", "{n} games", match.games)
    draw_label(image, (left + COL_W - 8, top + BOX_H + 9), games, pal.MUTED, font(10), "rm")


def _champion(image: Image.Image, name: str, decided: bool, corner: tuple[int, float]) -> None:
    """The champion's box: their ``name``, or (not ``decided``) that it is to be decided."""
    draw = ImageDraw.Draw(image)
    left, top = corner
    height = BOX_H / 2
    edge = pal.GOOD if decided else pal.FRAME_LINE
    draw.rectangle((left, top, left + COL_W, top + height), fill=pal.FRAME_LINE, outline=edge)
    face = font(14, bold=True)
    text = fit(name, face, COL_W - 16)
    colour = pal.TEXT if decided else pal.MUTED
    draw_label(image, (left + 8, top + height / 2), text, colour, face, "lm")
