"""Clocks: the system's, and one that moves only when told (tests, simulations)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable


class SystemClock:
    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> Awaitable[None]:
        return asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """Time stands still until ``advance``; sleepers wake when it passes their time."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> Awaitable[None]:
        """The wake-up time is fixed when ``sleep`` is called, not when the awaiting task
        first runs: a clock moved in between still wakes it."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if seconds <= 0:
            future.get_loop().call_soon(_wake, future)
        else:
            heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        return future

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` and wake every sleeper whose time has come."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _when, _n, future = heapq.heappop(self._sleepers)
            _wake(future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
