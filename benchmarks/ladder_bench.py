"""Ladder figures: recomputing a whole season of Glicko-2 ratings, and
drawing one leaderboard page and one rating history chart."""

from __future__ import annotations

import random
import time

from bot.ladder.boards import PAGE_SIZE, Line, Page
from bot.ladder.glicko2 import Rating, play
from bot.ladder.standings import replay
from render import ChartPoint, rating_chart_png
from storage.competitions.ladders import LadderKey, ResultRow

from .common import Figure, median, samples


def season(games: list[tuple[int, int, float]]) -> dict[int, Rating]:
    ratings: dict[int, Rating] = {}
    for first, second, score in games:
        a, b = ratings.get(first, Rating()), ratings.get(second, Rating())
        ratings[first], ratings[second] = play(a, b, score)
    return ratings


def run() -> list[Figure]:
    rng = random.Random(8)
    games = []
    for _ in range(10_000):
        first, second = rng.sample(range(500), 2)
        games.append((first, second, rng.choice((0.0, 0.5, 1.0))))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        season(games)
        times.append(time.perf_counter() - start)
    return [
        Figure("recompute a season: 10,000 games, 500 players", median(times), "s", 2),
        Figure("the same through the ladder's replay (streaks, idle weeks)", replayed(games), "s"),
        Figure("leaderboard page image (10 rows)", page_image_ms(), "ms", 15),
        Figure("rating history chart image (a season of 40 results)", chart_image_ms(), "ms", 10),
    ]


def replayed(games: list[tuple[int, int, float]]) -> float:
    """Seconds for ``standings.replay``, what an admin's result removal runs, a game an hour."""
    rows = [
        ResultRow(n, n, first, second, score, 3600.0 * n, False)
        for n, (first, second, score) in enumerate(games, 1)
    ]
    start = time.perf_counter()
    replay(rows)
    return time.perf_counter() - start


def page_image_ms() -> float:
    """Median time to draw a full leaderboard page (``Page.png``), in milliseconds."""
    lines = [
        Line(
            n,
            700 + n,
            f"player number {n}",
            1900 - 20 * n,
            80 + n,
            n % 3 == 0,
            40 - n,
            20,
            15,
            5 - n % 5,
            n % 4 - 2,
            (-1) ** n * 7.0 * n,
        )
        for n in range(1, PAGE_SIZE + 1)
    ]
    page = Page(LadderKey(1, "short", 3), 2, 9, lines)
    draw = page.drawing()
    draw()  # warm the font and label caches, as a running bot has them
    return median(samples(draw, 30))


def chart_image_ms() -> float:
    """Median time to draw a profile's rating chart, in milliseconds: 40 results, from a
    newcomer's deviation down to a settled one."""
    rng = random.Random(40)
    rating, points = Rating(), []
    for _ in range(40):
        rating, _other = play(rating, Rating(rng.uniform(1300, 1700), 80), rng.choice((0, 0.5, 1)))
        points.append(ChartPoint(rating.rating, rating.deviation))
    title = "player number 7 - short board, season 3"
    rating_chart_png(points, title)  # warm the font and label caches
    return median(samples(lambda: rating_chart_png(points, title), 30))
