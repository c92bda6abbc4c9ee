"""Score cards in the style of the rule book's Point Columns (chapter 7).

Each card has four columns, S1 to S4, of peg holes; each column holds one marker, and a marker
one hole further down is worth one more of that column's unit. Point Column A (short game): S1
has four blue holes (1 point each), S2 one orange hole (5), S3 one green hole (10), S4 four
black holes (20 each), 99 points in all. Point Column B (long game) has five holes in every
column, the top four blue and the optional bottom row black; we always use the bottom row,
the one version whose figures in the book add up (5 + 30 + 180 + 1080 = 1295 points), so the
units are 1, 6, 36 and 216.

The book's own figures for Column A (S4 worth 60, 79 in all) and for Column B without the
bottom row (S4 worth 600) do not follow from its counting rule; we follow the rule. Points
beyond a full card are written under it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from rules.tora import SHORT, Side, View

from .. import palette as pal
from ..encode import png_bytes
from ..fonts import draw_text, fit, font
from ..palette import to_palette
from ..status import StatusFields, player_name, side_icon, words_of
from ..strokes import SUPERSAMPLE
from ..words import Words


@dataclass(frozen=True)
class Column:
    name: str
    holes: tuple[pal.RGB, ...]  # colour of each hole, top to bottom
    unit: int  # points per hole down the column


@dataclass(frozen=True)
class PointColumn:
    title: str
    columns: tuple[Column, Column, Column, Column]

    @property
    def capacity(self) -> int:
        return sum(len(c.holes) * c.unit for c in self.columns)

    def pegs(self, points: int) -> tuple[tuple[int, ...], int]:
        """The hole (1 = top, 0 = none) of the marker in each column, and the points left
        over beyond a full card. Higher columns are filled first, as the counting moves a
        marker on to the next column whenever the points reach its unit."""
        holes: list[int] = []
        for column in reversed(self.columns):
            filled = min(len(column.holes), points // column.unit)
            holes.append(filled)
            points -= filled * column.unit
        return tuple(reversed(holes)), points


POINT_COLUMN_A = PointColumn(
    "Point Column A",
    (
        Column("S1", (pal.PEG_BLUE,) * 4, 1),
        Column("S2", (pal.PEG_ORANGE,), 5),
        Column("S3", (pal.PEG_GREEN,), 10),
        Column("S4", (pal.PEG_BLACK,) * 4, 20),
    ),
)
POINT_COLUMN_B = PointColumn(
    "Point Column B",
    tuple(  # type: ignore[arg-type]
        Column(f"S{i + 1}", (pal.PEG_BLUE,) * 4 + (pal.PEG_BLACK,), 6**i) for i in range(4)
    ),
)

CARD_W, GAP, HEAD = 232, 16, 44
HOLE_R, ROW, TOP, FOOT = 15, 40, 74, 72


def score_card_png(view: View, info: StatusFields) -> bytes:
    """Both players' cards side by side (the Opposition's on the left, as on the board): the
    booked score of ``view``, with points still pending this round noted."""
    card = POINT_COLUMN_A if view.board == SHORT else POINT_COLUMN_B
    k = SUPERSAMPLE
    rows = max(len(column.holes) for column in card.columns)
    card_h = TOP + (rows - 1) * ROW + HOLE_R + FOOT
    width, height = 2 * CARD_W + 3 * GAP, HEAD + card_h + GAP
    image = Image.new("RGB", (width * k, height * k), pal.FRAME)
    draw = ImageDraw.Draw(image)
    words = words_of(info)
    title = words._("{card} · Round {round}", card=card.title, round=view.round)
    if view.game_number > 1:
        title = words._(
            "{card} · Round {round} · Game {game}",
            card=card.title,
            round=view.round,
            game=view.game_number,
        )
    title_face = font(16 * k, bold=True)
    title = fit(title, title_face, (width - 2 * GAP) * k)
    draw_text(draw, (GAP * k, HEAD / 2 * k), title, pal.TEXT, title_face, "lm")
    for i, side in enumerate((Side.OPPOSITION, Side.CHALLENGER)):
        left = (GAP + i * (CARD_W + GAP)) * k
        _card(
            draw, card, (left, HEAD * k, left + CARD_W * k, (HEAD + card_h) * k), side, view, info
        )
    return png_bytes(to_palette(image.reduce(k)))


def _card(
    draw: ImageDraw.ImageDraw,
    card: PointColumn,
    box: tuple[int, int, int, int],
    side: Side,
    view: View,
    info: StatusFields,
) -> None:
    k = SUPERSAMPLE
    left, top, _right, bottom = box
    draw.rounded_rectangle(box, 10 * k, fill=pal.CARD)
    side_icon(draw, side, left + 20 * k, top + 22 * k, 8 * k)
    name_face = font(15 * k, bold=True)
    name = fit(player_name(info, side), name_face, (CARD_W - 44) * k)
    draw_text(draw, (left + 34 * k, top + 22 * k), name, pal.FRAME, name_face, "lm")
    pegs, over = card.pegs(view.score[side])
    step = CARD_W * k / 4
    for i, column in enumerate(card.columns):
        cx = left + step * (i + 0.5)
        draw.text((cx, top + 50 * k), column.name, pal.MUTED, font(12 * k, bold=True), anchor="mm")
        for row, colour in enumerate(column.holes, start=1):
            cy = top + (TOP + (row - 1) * ROW) * k
            _hole(draw, cx, cy, colour, row * column.unit, row == pegs[i])
    _total(draw, (left, bottom), view.score[side], view.pending[side], over, words_of(info))


def _hole(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, colour: pal.RGB, value: int, pegged: bool
) -> None:
    """A hole labelled with what a marker in it is worth; a marker fills it."""
    k = SUPERSAMPLE
    r = HOLE_R * k
    box = (cx - r, cy - r, cx + r, cy + r)
    face = font((11 if value < 100 else 9 if value < 1000 else 8) * k, bold=True)
    if pegged:
        draw.ellipse(box, fill=colour, outline=pal.FRAME, width=2 * k)
        draw.text((cx, cy), str(value), pal.WHITE, face, anchor="mm")
    else:
        draw.ellipse(box, fill=pal.WHITE, outline=colour, width=3 * k)
        draw.text((cx, cy), str(value), pal.MUTED, face, anchor="mm")


def _total(
    draw: ImageDraw.ImageDraw,
    corner: tuple[int, int],
    score: int,
    pending: int,
    over: int,
    words: Words,
) -> None:
    """The card's score in words under it, and what is pending or beyond the card."""
    k = SUPERSAMPLE
    left, bottom = corner
    y = bottom - 34 * k
    centre = left + CARD_W * k / 2
    text = words.ngettext("{n} point", "{n} points", score)
    draw_text(draw, (centre, y), text, pal.FRAME, font(20 * k, bold=True), "mm")
    notes = []
    if pending:
        notes.append(words._("+{points} at the end of the round", points=pending))
    if over:
        notes.append(words._("+{points} beyond the card", points=over))
    if notes:
        line = fit(" · ".join(notes), font(11 * k), (CARD_W - 12) * k)
        draw_text(draw, (centre, y + 20 * k), line, pal.MUTED, font(11 * k), "mm")
