"""What the delivery remembers between messages, in memory (a restart forgets it, which only
costs one more attempt): the pace of direct messages, whose DMs are closed, and each user's
latest interaction per channel (the only way to show them a message nobody else sees)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


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


class Closed:
    """Users whose DMs refused the bot (403, code 50007), each remembered for ``seconds``:
    meanwhile their private messages go straight to the fallback instead of asking Discord
    again for every message (a loop of refusals Discord may count against the bot). After
    that one message tries the DM again; a user who writes to the bot in a DM is forgotten
    at once (their DMs are open)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._until: dict[int, float] = {}

    def mark(self, user_id: int) -> None:
        self._until[user_id] = self._clock() + self.seconds

    def forget(self, user_id: int) -> None:
        self._until.pop(user_id, None)

    def __contains__(self, user_id: int) -> bool:
        until = self._until.get(user_id)
        if until is None:
            return False
        if until <= self._clock():
            del self._until[user_id]
            return False
        return True


@dataclass
class _Seen(Generic[T]):
    item: T
    at: float


class Latest(Generic[T]):
    """The latest interaction of each user in each channel, for ``max_age`` seconds (its
    token lasts 15 minutes; a margin is left for the message to go out)."""

    def __init__(self, max_age: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_age = max_age
        self._clock = clock
        self._seen: dict[tuple[int, int], _Seen[T]] = {}

    def remember(self, channel_id: int, user_id: int, item: T) -> None:
        now = self._clock()
        self._seen[(channel_id, user_id)] = _Seen(item, now)
        if len(self._seen) > 10_000:
            self._seen = {k: v for k, v in self._seen.items() if now - v.at < self.max_age}

    def get(self, channel_id: int, user_id: int) -> T | None:
        seen = self._seen.get((channel_id, user_id))
        if seen is None or self._clock() - seen.at >= self.max_age:
            return None
        return seen.item
