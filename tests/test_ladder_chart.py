"""The rating history chart: a small, deterministic PNG drawn from plain points, also for
a history of one result or none."""

from __future__ import annotations

import io

from PIL import Image

from render import ChartPoint, rating_chart_png
from render.palette import index
from render.rating_chart import BAND, BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH

HISTORY = [ChartPoint(1500 + 30 * (n % 5) - n, 350 * 0.9**n + 50) for n in range(30)]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_a_chart_is_a_small_png_of_fixed_size() -> None:
    data = rating_chart_png(HISTORY, "ann - short board, season 1")
    image = decode(data)
    assert (image.format, image.size) == ("PNG", (WIDTH, HEIGHT))
    assert len(data) < 12_000


def test_the_same_history_draws_the_same_bytes_and_another_differs() -> None:
    first = rating_chart_png(HISTORY, "ann")
    assert rating_chart_png(list(HISTORY), "ann") == first
    assert rating_chart_png(HISTORY[:-1], "ann") != first


def test_empty_and_one_point_histories_still_draw() -> None:
    empty, one = rating_chart_png([], "bob"), rating_chart_png(HISTORY[:1], "bob")
    assert decode(empty).size == decode(one).size == (WIDTH, HEIGHT)
    assert empty != one


def test_the_band_narrows_as_the_deviation_does() -> None:
    """The band (its own colour) is taller at the provisional start than after 30 results."""
    image = decode(rating_chart_png(HISTORY))
    band = index(BAND)

    def height(x: int) -> int:
        return sum(image.getpixel((x, y)) == band for y in range(TOP, BOTTOM))

    assert height(LEFT + 1) > 3 * height(RIGHT - 1) > 0
