"""Timing helpers and the random middle games the benchmarks measure on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from rules.tora import Game, IllegalAction, Options
from storage import Config as StoreConfig


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = False

    def line(self) -> str:
        shown = f"{self.value:.3f} {self.unit}"
        if self.target is None:
            return f"{self.name:<58} {shown:>14}   (reference)"
        ok = self.value >= self.target if self.higher_is_better else self.value <= self.target
        sign = ">=" if self.higher_is_better else "<="
        verdict = "ok" if ok else "MISSED"
        return f"{self.name:<58} {shown:>14}   target {sign} {self.target:g} {self.unit}  {verdict}"


def samples(fn: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of each of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def image_figures(
    draw: Callable[[Any], bytes],
    views: Sequence[Any],
    warm: Sequence[Any],
    label: str,
    ms_target: float,
    kib_target: float,
) -> list[Figure]:
    """The time to draw each of ``views`` (p50) and the largest PNG, after drawing ``warm``
    first (the caches a running bot has warm)."""
    for view in warm:
        draw(view)
    times, sizes = [], []
    for view in views:
        start = time.perf_counter()
        sizes.append(len(draw(view)))
        times.append((time.perf_counter() - start) * 1000)
    return [
        Figure(f"{label} (p50)", median(times), "ms", ms_target),
        Figure(
            f"  its PNG size, largest of {len(sizes)} positions",
            max(sizes) / 1024,
            "KiB",
            kib_target,
        ),
    ]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def play_random_turn(game: Game, rng: random.Random) -> None:
    for _ in range(game.actions_left):
        actions = game.legal_actions()
        if not actions:
            break
        with contextlib.suppress(IllegalAction):  # a command piece's search refused (R43)
            game.apply(rng.choice(actions))
    while True:
        try:
            game.end_turn()
            return
        except IllegalAction:
            game.undo()


def middle_game(board: str, seed: int, turns: int, assassins: bool = False) -> Game:
    """A game after ``turns`` random turns (restarted with the next seed if it ended); with
    ``assassins``, both sides field one, starting in a corner of their home edge."""
    while True:
        rng = random.Random(seed)
        if assassins:
            game = Game(Options(board=board, assassins=True), ("v1h17", "v17h1"))
        else:
            game = Game(board=board)
        for _ in range(turns):
            if game.is_over():
                break
            play_random_turn(game, rng)
        if not game.is_over():
            return game
        seed += 1000


async def poisson_arrivals(rate: float, seconds: float, rng: random.Random) -> AsyncIterator[float]:
    """Arrivals of a Poisson process at ``rate`` per second for ``seconds`` of wall time:
    yields at each one its planned time (``time.perf_counter``), once that time has come."""
    begin = time.perf_counter()
    at = 0.0
    while True:
        at += rng.expovariate(rate)
        if at > seconds:
            return
        delay = begin + at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        yield begin + at


POSTGRES_ENV = ("TORA_BENCH_POSTGRES", "TORA_TEST_POSTGRES")


@contextlib.contextmanager
def postgres_schema(name: str) -> Iterator[StoreConfig | None]:
    """A fresh schema of the PostgreSQL server at ``TORA_BENCH_POSTGRES`` (or the tests'
    ``TORA_TEST_POSTGRES``), dropped afterwards; None, said so, where there is none."""
    url = next((os.environ[key] for key in POSTGRES_ENV if os.environ.get(key)), None)
    if url is None:
        print(f"({name} on PostgreSQL skipped: set TORA_BENCH_POSTGRES to a server's URL)")
        yield None
        return
    schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
    try:
        yield StoreConfig(url=url, schema=schema)
    finally:
        asyncio.run(_drop_schema(url, schema))


async def _drop_schema(url: str, schema: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()
