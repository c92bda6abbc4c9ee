"""Ladder figures (issue: ladders): recomputing a whole season of Glicko-2 ratings."""

from __future__ import annotations

import random
import time

from bot.ladder.glicko2 import Rating, play

from .common import Figure, median


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
    return [Figure("recompute a season: 10,000 games, 500 players", median(times), "s", 2)]
