"""Ladder tables as images: rank, player, rating, games, trend.

The ladder service passes plain ``LadderRow`` values, so this module knows nothing about how
ratings are kept. A trend is the rating change over whatever period the caller chose; it is
drawn as a green up-triangle or a red down-triangle with the number, so it reads without
colour too. Its own words (the headings, "No games yet") are in the language of ``words``;
the title is the caller's, already in it.
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

WIDTH, PAD, TITLE_H, HEAD_H, ROW_H = 520, 14, 44, 28, 30
# Right edges of the number columns (the player column runs from PLAYER_X to RATING_X - PAD).
RANK_X, PLAYER_X, RATING_X, GAMES_X, TREND_X = 44, 58, 360, 430, WIDTH - PAD
HEADING_W = 66  # the most a number column's heading may take (the trend's: TREND_W)
TREND_W = 72


@dataclass(frozen=True)
class LadderRow:
    rank: int
    player: str
    rating: float
    games: int
    trend: int  # rating change: positive up, negative down, 0 unchanged
    provisional: bool = False  # marked "?" after the name, which is cut rather than the mark


def ladder_png(
    rows: Sequence[LadderRow], title: str | None = None, words: Words = ENGLISH
) -> bytes:
    """The table of ``rows`` under ``title`` ("Ladder" in ``words``' language if None)."""
    title = words._("Ladder") if title is None else title
    height = TITLE_H + HEAD_H + ROW_H * max(1, len(rows)) + PAD
    image = Image.new("RGB", (WIDTH, height), pal.FRAME)
    draw = ImageDraw.Draw(image)
    title_face = font(17, bold=True)
    draw_label(
        image,
        (PAD, TITLE_H / 2),
        fit(title, title_face, WIDTH - 2 * PAD),
        pal.TEXT,
        title_face,
        "lm",
    )
    _header(image, TITLE_H + HEAD_H / 2, words)
    if not rows:
        draw_label(
            image,
            (WIDTH / 2, TITLE_H + HEAD_H + ROW_H / 2),
            fit(words._("No games yet"), font(14), WIDTH - 2 * PAD),
            pal.MUTED,
            font(14),
            "mm",
        )
    for i, row in enumerate(rows):
        top = TITLE_H + HEAD_H + i * ROW_H
        if i % 2 == 0:
            draw.rectangle((0, top, WIDTH, top + ROW_H - 1), fill=pal.FRAME_LINE)
        _row(image, row, top + ROW_H / 2)
    return png_bytes(to_palette(image))


def _header(image: Image.Image, y: float, words: Words) -> None:
    face = font(12, bold=True)
    draw_label(image, (RANK_X, y), "#", pal.MUTED, face, "rm")
    player = fit(words._("Player"), face, RATING_X - PLAYER_X - 2 * PAD - HEADING_W)
    draw_label(image, (PLAYER_X, y), player, pal.MUTED, face, "lm")
    for x, heading in ((RATING_X, words._("Rating")), (GAMES_X, words._("Games"))):
        draw_label(image, (x, y), fit(heading, face, HEADING_W), pal.MUTED, face, "rm")
    draw_label(image, (TREND_X, y), fit(words._("Trend"), face, TREND_W), pal.MUTED, face, "rm")


def _row(image: Image.Image, row: LadderRow, y: float) -> None:
    face, bold = font(14), font(14, bold=True)
    draw_label(image, (RANK_X, y), str(row.rank), pal.TEXT, bold, "rm")
    shown = f"{row.player} ?" if row.provisional else row.player
    name = fit_name(shown, row.player, face, RATING_X - PLAYER_X - 2 * PAD - 40)
    draw_label(image, (PLAYER_X, y), name, pal.TEXT, face, "lm")
    draw_label(image, (RATING_X, y), str(round(row.rating)), pal.TEXT, bold, "rm")
    draw_label(image, (GAMES_X, y), str(row.games), pal.TEXT, face, "rm")
    if row.trend > 0:
        text, colour = f"▲ {row.trend}", pal.GOOD
    elif row.trend < 0:
        text, colour = f"▼ {-row.trend}", pal.BAD
    else:
        text, colour = "\u2013", pal.MUTED  # an en dash: no change
    draw_label(image, (TREND_X, y), text, colour, bold, "rm")
