"""What the Discord delivery remembers between messages, in memory (a restart forgets it,
which only costs one more attempt): whose DMs are closed, and each user's latest interactions
per channel (the only way to show them a message nobody else sees)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
MOST_PAIRS = 10_000  # (channel, user) pairs remembered before the old ones are looked for


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
    """The latest few interactions of each user in each channel (``kept``, newest first),
    each for ``max_age`` seconds (its token lasts 15 minutes; a margin is left for the
    message to go out). More than one: the newest may not do (not answered yet, or never:
    a pick acted on by another process), where an older one still does."""

    def __init__(
        self, max_age: float, clock: Callable[[], float] = time.monotonic, kept: int = 4
    ) -> None:
        self.max_age = max_age
        self.kept = kept
        self._clock = clock
        self._seen: dict[tuple[int, int], list[_Seen[T]]] = {}
        self._sweep_at = MOST_PAIRS

    def remember(self, channel_id: int, user_id: int, item: T) -> None:
        now = self._clock()
        key = (channel_id, user_id)
        self._seen[key] = [_Seen(item, now), *self._seen.get(key, [])][: self.kept]
        if len(self._seen) > self._sweep_at:
            self._seen = {k: v for k, v in self._seen.items() if now - v[0].at < self.max_age}
            # the next sweep once as many pairs again have come (as ``RateLimit``'s): a
            # crowd still young costs one look through it per as many clicks, not per click
            self._sweep_at = max(MOST_PAIRS, 2 * len(self._seen))

    def get(
        self, channel_id: int, user_id: int, fits: Callable[[T], bool] = lambda _: True
    ) -> T | None:
        """The newest item of that user in that channel, still young enough, that ``fits``."""
        now = self._clock()
        for seen in self._seen.get((channel_id, user_id), []):
            if now - seen.at < self.max_age and fits(seen.item):
                return seen.item
        return None
