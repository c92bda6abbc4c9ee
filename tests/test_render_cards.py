"""Score cards (rule book chapter 7) and ladder tables."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from render import LadderRow, ladder_png, score_card_png
from render.tora.samples import PLAYERS, long_start, short_start
from render.tora.scorecard import POINT_COLUMN_A, POINT_COLUMN_B


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize(
    ("points", "pegs", "over"),
    [
        (0, (0, 0, 0, 0), 0),
        (4, (4, 0, 0, 0), 0),
        (9, (4, 1, 0, 0), 0),  # the book's Tommy: bottom of S1 and top of S2
        (10, (0, 0, 1, 0), 0),  # "he removes his pegs ... and places a peg in S3"
        (19, (4, 1, 1, 0), 0),
        (20, (0, 0, 0, 1), 0),  # the next point after a full S1-S3 goes to the top of S4
        (99, (4, 1, 1, 4), 0),
        (100, (4, 1, 1, 4), 1),
    ],
)
def test_point_column_a_counts_as_the_book_describes(points, pegs, over):
    assert POINT_COLUMN_A.pegs(points) == (pegs, over)


def test_point_column_b_uses_the_optional_row_and_adds_up_to_the_books_total():
    assert POINT_COLUMN_B.capacity == 1295
    assert [column.unit for column in POINT_COLUMN_B.columns] == [1, 6, 36, 216]
    assert POINT_COLUMN_B.pegs(60) == ((0, 4, 1, 0), 0)
    assert POINT_COLUMN_B.pegs(1295) == ((5, 5, 5, 5), 0)


def test_score_cards_for_both_boards():
    short = decode(score_card_png(replace(short_start(), score=(29, 9), pending=(3, 0)), PLAYERS))
    long = decode(score_card_png(replace(long_start(), score=(60, 1400)), PLAYERS))
    assert short.format == long.format == "PNG"
    assert long.height > short.height  # five rows of holes against four


def test_ladder_table():
    rows = [
        LadderRow(1, "Aiko", 1642.4, 31, 24),
        LadderRow(2, "Bram, whose name is far too long for the column", 1588, 40, -12),
        LadderRow(3, "虎", 1500, 3, 0),
    ]
    one = decode(ladder_png(rows[:1]))
    three = decode(ladder_png(rows, "Ladder · TORA club"))
    assert three.width == one.width and three.height > one.height
    assert decode(ladder_png([])).format == "PNG"
