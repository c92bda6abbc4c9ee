"""An event's standings as an image: a Swiss table (rank, player, points, tiebreaks) or a
round robin's crosstable (each player's result against each other, by number).

The event service passes plain text cells, so this module knows nothing of pairings or
tiebreaks. The first column is the rank, the second the player (left-aligned, the name cut
to fit, not what marks it); the rest are centred in columns as wide as their widest cell.
Rows past ``MOST_ROWS`` are left out and said to be; so are a crosstable's cross columns
(those before the points) past ``MOST_CROSSED`` players: a larger round robin gets the
standings without them, which a picture of that many columns could not show readably.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import palette as pal
from .encode import png_bytes
from .fonts import Font, draw_label, fit, fit_name, font
from .palette import to_palette
from .words import ENGLISH, Words

PAD, TITLE_H, HEAD_H, ROW_H = 14, 44, 28, 28
RANK_W, NAME_W, CELL_PAD = 40, 190, 14
MOST_ROWS = 100
MOST_CROSSED = 30  # a crosstable's columns of results against each player


@dataclass(frozen=True)
class EventTable:
    title: str
    header: tuple[str, ...]  # "#", "Player", then the other columns' headings
    rows: tuple[tuple[str, ...], ...]  # one cell per heading
    points: int = 2  # the column of the points, in bold
    # each row's player's own name, within its player cell (beside a seed number, a mark
    # such as "(withdrawn)"): what is cut when the cell is too wide, so that the mark stays
    names: tuple[str, ...] = ()


def uncrossed(table: EventTable) -> EventTable:
    """``table`` without its cross columns (those between the player and the points)."""

    def kept(cells: tuple[str, ...]) -> tuple[str, ...]:
        return cells[:2] + cells[table.points :]

    return EventTable(
        table.title, kept(table.header), tuple(map(kept, table.rows)), names=table.names
    )


def event_table_png(table: EventTable, words: Words = ENGLISH) -> bytes:
    crossed = table.points - 2
    notes = []
    if crossed > MOST_CROSSED:
        table = uncrossed(table)
        notes.append(
            words.ngettext(
                "Crosstable only up to {most} player",
                "Crosstable only up to {most} players",
                MOST_CROSSED,
                most=MOST_CROSSED,
            )
        )
    if len(table.rows) > MOST_ROWS:
        more = len(table.rows) - MOST_ROWS
        notes.insert(0, words.ngettext("...and {n} more", "...and {n} more", more))
    rows = table.rows[:MOST_ROWS]
    face, bold = font(14), font(14, bold=True)
    widths = [RANK_W, NAME_W] + [
        max(int(bold.getlength(cell)) for cell in (heading, *(row[i] for row in rows))) + CELL_PAD
        for i, heading in enumerate(table.header[2:], start=2)
    ]
    width = max(360, PAD * 2 + sum(widths))
    height = TITLE_H + HEAD_H + ROW_H * (max(1, len(rows)) + len(notes)) + PAD
    image = Image.new("RGB", (width, height), pal.FRAME)
    draw = ImageDraw.Draw(image)
    title_face = font(17, bold=True)
    draw_label(
        image, (PAD, TITLE_H / 2), fit(table.title, title_face, width - 2 * PAD), pal.TEXT,
        title_face, "lm",
    )  # fmt: skip
    _cells(image, table.header, "", widths, TITLE_H + HEAD_H / 2, font(12, bold=True), pal.MUTED)
    for i, row in enumerate(rows):
        top = TITLE_H + HEAD_H + i * ROW_H
        if i % 2 == 0:
            draw.rectangle((0, top, width, top + ROW_H - 1), fill=pal.FRAME_LINE)
        name = table.names[i] if i < len(table.names) else ""
        _cells(image, row, name, widths, top + ROW_H / 2, face, pal.TEXT, (table.points, bold))
    if not rows:
        draw_label(
            image,
            (width / 2, TITLE_H + HEAD_H + ROW_H / 2),
            fit(words._("Nobody yet"), face, width - 2 * PAD),
            pal.MUTED,
            face,
            "mm",
        )
    for i, note in enumerate(notes):
        y = TITLE_H + HEAD_H + ROW_H * (max(1, len(rows)) + i) + ROW_H / 2
        draw_label(image, (PAD, y), fit(note, face, width - 2 * PAD), pal.MUTED, face, "lm")
    return png_bytes(to_palette(image))


def _cells(
    image: Image.Image,
    cells: Sequence[str],
    name: str,
    widths: Sequence[int],
    y: float,
    face: Font,
    colour: pal.RGB,
    points: tuple[int, Font] | None = None,
) -> None:
    x = PAD
    for i, (cell, w) in enumerate(zip(cells, widths, strict=False)):
        if i == 0:
            draw_label(image, (x + w - 8, y), cell, colour, face, "rm")
        elif i == 1:
            text = fit_name(cell, name, face, w - 8)
            draw_label(image, (x, y), text, colour, face, "lm")
        else:
            chosen = points[1] if points is not None and i == points[0] else face
            draw_label(image, (x + w / 2, y), cell, colour, chosen, "mm")
        x += w
