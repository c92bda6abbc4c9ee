"""A pace for what goes out in bursts: a token bucket for the whole process. A front end's
delivery holds back what a platform limits without publishing how (Discord: opening DM
channels), so that many turns ending at once never burst past it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Pace:
    """A token bucket for the whole process: ``burst`` messages at once, then ``rate`` a
    second. Direct messages wait their turn here, so that the bot never bursts past
    Discord's limits on opening DM channels (which it does not publish) when many turns end at
    once; discord.py still honours any 429 it gets on top."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst = rate, burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:  # first come, first served
            while True:
                now = self._clock()
                self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
                self._at = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)
