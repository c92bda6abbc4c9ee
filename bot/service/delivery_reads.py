"""What one delivery pass reads once for all its rows: a turn's end queues its post in the
channel and the "your turn" DM, two destinations delivered at once by two workers, both
about the same match and the same player. Each row needs the match (with its players'
names, for its heading) and the notifications of the players it pings or is sent to
(``notify``): read once a pass, not once a row.

A pass begins each time the deliverer looks at the queue (every commit that queued posts
wakes it) and lasts at most ``FRESH`` seconds: a change made meanwhile (by this process or
another) is seen by the next pass, as if it had come just after this pass's rows went; a
row held for its player's quiet hours is decided again, afresh, when it comes due."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from storage import Hosted, HostedNotFound, Store

from .notify import Notify, notify_of

FRESH = 1.0  # seconds (on the service's clock) a pass shares what it read

K = TypeVar("K")
V = TypeVar("V")
WithNames = tuple[Hosted | None, dict[int, str]]


class DeliveryReads:
    """One delivery pass's reads, each made once; concurrent workers asking for the same
    one wait for the same read (one that failed is made again by the next to ask)."""

    def __init__(self, store: Store, began: float) -> None:
        self._store = store
        self.began = began
        self._hosted: dict[int, asyncio.Task[WithNames]] = {}
        self._wants: dict[tuple[int, int | None], asyncio.Task[Notify]] = {}

    def fresh(self, now: float) -> bool:
        return now - self.began < FRESH

    async def hosted(self, hosted_id: int) -> WithNames:
        """The hosted match ``hosted_id`` with its players' names (None if it is gone)."""
        return await _once(self._hosted, hosted_id, lambda: self._with_names(hosted_id))

    async def wants(self, user_id: int, guild_id: int | None) -> Notify:
        """``user_id``'s notifications in ``guild_id``."""
        key = (user_id, guild_id)
        return await _once(self._wants, key, lambda: notify_of(self._store, user_id, guild_id))

    async def _with_names(self, hosted_id: int) -> WithNames:
        try:
            return await self._store.hosting.with_names(hosted_id)
        except HostedNotFound:
            return None, {}


async def _once(cache: dict[K, asyncio.Task[V]], key: K, read: Callable[[], Awaitable[V]]) -> V:
    """``read``'s result, read once for ``key``. Shielded: a worker cancelled while it
    waits leaves the read to the others waiting for it."""
    task = cache.get(key)
    if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
        task = cache[key] = asyncio.ensure_future(read())
        task.add_done_callback(_retrieved)
    return await asyncio.shield(task)


def _retrieved(task: asyncio.Task[V]) -> None:
    """A read's failure is its waiters' to handle: if every one of them was cancelled, none
    is left to retrieve it, and asyncio would log it as never retrieved."""
    if not task.cancelled():
        task.exception()
