"""A quiet player's AI reply while another floods the AI: one player's practice ToriShogi
match against the hard AI (2 s a turn), first alone, then while another player ends empty
turns as fast as the AI answers in three long-board TORA matches against it (8 s searches,
and the long board's turn ends in the rules' worker). The searches take turns for the
workers fairly (``bot.service.fairness``: one per player at a time), in the default pool
(one worker per core but one, at least two). Target: the quiet reply during the flood
within 1.5 times its value alone (medians).

    python -m benchmarks.ai_flood_bench
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.service import Place, Refused, Settings, Terms, User
from bot.service.offload import default_ai_workers
from bot.service.testing import Harness

from .common import Figure

QUIET, FLOODER = User(1, "ann"), User(2, "flo")
FLOODED = [Place(1 + n % 2, 200 + n) for n in range(3)]  # two servers, as it may be
TURNS = 6  # the quiet player's turns measured, alone and in the flood
SLOWER = 1.5  # the most the flood may slow the quiet reply down


async def _reply(h: Harness, here: Place, rng: random.Random) -> float | None:
    """The quiet player's move and turn end, and the time until the AI's turn is saved
    (None once the match is over)."""
    choices = await h.running.choices(here, QUIET, "", limit=25)
    if not choices:
        return None
    await h.running.play(here, QUIET, rng.choice(choices)[1])
    before = (await h.running.stamp_of(here)).turn
    start = time.perf_counter()
    await h.running.end_turn(here, QUIET)
    try:
        while (await h.running.stamp_of(here)).turn < before + 2:
            await asyncio.sleep(0.01)
    except Refused:  # the match is over
        return None
    return time.perf_counter() - start


class Quiet:
    """The quiet player's matches, one after another (random moves lose to the hard AI)."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.rng = random.Random(1)
        self.channel = 100
        self.live = False

    async def replies(self, count: int) -> list[float]:
        waits: list[float] = []
        while len(waits) < count:
            if not self.live:
                self.channel += 1
                terms = Terms(game="torishogi", rated=False)
                await self.h.running.challenge_ai(Place(1, self.channel), QUIET, "hard", terms)
                self.live = True
            wait = await _reply(self.h, Place(1, self.channel), self.rng)
            if wait is None:
                self.live = False
            else:
                waits.append(wait)
        return waits


async def _flood(h: Harness) -> None:
    """End an empty turn in each long-board match whenever it is the flooder's turn."""
    while True:
        for place in FLOODED:
            with contextlib.suppress(Refused):
                await h.running.end_turn(place, FLOODER)
        await asyncio.sleep(0.02)


async def _open_flood(h: Harness) -> None:
    terms = Terms(options={"board": "long"}, rated=False, turn_seconds=86400.0)
    for place in FLOODED:
        await h.running.challenge_ai(place, FLOODER, "hard", terms)
        await h.running.setup(place, FLOODER, {"strategy": "aggressive", "ruler": "K"})


async def flooded_reply(workers: int | None = None) -> tuple[float, float]:
    """The quiet player's median AI reply alone and during the flood, in seconds."""
    settings = Settings(burst=10_000, every=0.001, ai_processes=workers, ai_matches=3)
    with tempfile.TemporaryDirectory() as folder:
        async with Harness(Path(folder) / "bench.sqlite3", settings=settings) as h:
            quiet = Quiet(h)
            await quiet.replies(1)  # starts the workers
            alone = await quiet.replies(TURNS)
            await _open_flood(h)
            flood = asyncio.create_task(_flood(h))
            try:
                await asyncio.sleep(3.0)  # the flood under way: its searches running
                flooded = await quiet.replies(TURNS)
            finally:
                flood.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await flood
                await h.running.robots_idle()
    return statistics.median(alone), statistics.median(flooded)


def run() -> list[Figure]:
    alone, flooded = asyncio.run(flooded_reply())
    workers = default_ai_workers()
    return [
        Figure(f"quiet AI reply alone (ToriShogi hard, {workers} workers)", alone, "s", None),
        Figure(
            f"quiet AI reply while one player floods 3 long boards ({flooded:.2f} s)",
            flooded / alone,
            "x",
            SLOWER,
        ),
    ]


def main() -> int:
    print("A quiet player's AI reply while another floods the AI")
    for figure in run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
