"""Commands that draw or search cost far more than the others (an animated replay is a
second of CPU and a large file), so each kind has an allowance of its own per user, on top
of the match service's, and a cap on how many run at once in the whole bot: a crowd asking
at the same moment waits its turn instead of stalling every channel."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.i18n import N_
from bot.service.ratelimit import RateLimit

T = TypeVar("T")
# What a user does too fast: the rate limit words it where it refuses, in the reader's language
# TRANSLATORS: it completes "You are {doing}: up to 5 at once, ..." (a rate limit's refusal).
REPLAYS = N_("asking for replays faster than I make them")
# TRANSLATORS: it completes "You are {doing}: up to 5 at once, ..." (a rate limit's refusal).
PICTURES = N_("asking for pictures faster than I make them")
# TRANSLATORS: it completes "You are {doing}: up to 5 at once, ..." (a rate limit's refusal).
HINTS = N_("asking for hints faster than I make them")
# TRANSLATORS: it completes "You are {doing}: up to 5 at once, ..." (a rate limit's refusal).
ANALYSES = N_("asking for hints and analyses faster than I make them")


class Costly:
    """``burst`` requests of one user at once, then one every ``every`` seconds (a refusal
    says how long to wait and that nothing was done), and at most ``at_once`` running."""

    def __init__(
        self,
        doing: str,
        burst: int,
        every: float,
        at_once: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._limit = RateLimit(burst, every, doing)
        self._running = asyncio.Semaphore(at_once)
        self._clock = clock

    def take(self, user_id: int, doing: str | None = None) -> None:
        """Count one request of ``user_id`` (refused beyond the allowance, saying ``doing``
        if given) for work that does not hold a place among those running: an analysis,
        whose searches each wait their own turn for an AI worker."""
        self._limit.take(user_id, self._clock(), doing)

    async def run(self, user_id: int, work: Callable[[], Awaitable[T]]) -> T:
        self._limit.take(user_id, self._clock())
        async with self._running:
            return await work()


class Limits:
    """The bot's allowances for costly commands: ``replays`` (animated GIFs: 2 at once per
    user, then one every 30 s; 2 drawn at a time), ``pictures`` (boards, leaderboards,
    profiles, brackets: 6 at once per user, then one every 3 s; 4 at a time) and ``hints``
    (an AI's search of seconds: 3 at once per user, then one every 10 s; 2 at a time)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.replays = Costly(REPLAYS, 2, 30.0, 2, clock)
        self.pictures = Costly(PICTURES, 6, 3.0, 4, clock)
        self.hints = Costly(HINTS, 3, 10.0, 2, clock)
