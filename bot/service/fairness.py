"""The order in which the AI's searches (its turns and the players' hints) get a worker: at
most one per player at a time, and, among those waiting, the server served least recently
first, then within it the player served least recently; each player's own searches in the
order they came. So one player with three long-board matches against the AI takes one
worker, not all of them, and everyone else's searches wait at most for the ones running.

A search is counted for the person it serves: a hint for its asker, an AI's turn for the
person it plays against (a match of two AI players for its channel)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass, field

KEPT = 10_000  # servers and owners remembered as served before the absent ones are dropped


@dataclass(frozen=True)
class Owner:
    """Whom a search serves: ``who`` (a user's id, or a channel's for a match between AI
    players: ``("channel", id)``), from the server ``guild``. One search runs per ``who``
    at a time, whatever the server."""

    guild: int
    who: Hashable


@dataclass(eq=False)
class _Waiting:
    owner: Owner
    ready: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class FairQueue:
    """Grants up to ``slots`` searches at once, one per owner, fairly (the module's doc)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self._running: dict[Hashable, Owner] = {}  # whose searches run (one each, any server)
        self._queues: dict[Owner, deque[_Waiting]] = {}
        self._tick = itertools.count(1)
        self._served: dict[Hashable, int] = {}  # a server's or an owner's last grant

    @property
    def running(self) -> int:
        return len(self._running)

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._queues.values())

    @contextlib.asynccontextmanager
    async def turn(self, owner: Owner) -> AsyncIterator[None]:
        """``async with queue.turn(owner):`` runs its body once the owner's turn has come."""
        waiting = _Waiting(owner)
        self._queues.setdefault(owner, deque()).append(waiting)
        self._grant()
        try:
            await waiting.ready
        except BaseException:
            if waiting.ready.done() and not waiting.ready.cancelled():
                self._release(owner)  # granted as it was cancelled: give the slot back
            else:
                self._forget(waiting)
            raise
        try:
            yield
        finally:
            self._release(owner)

    def _grant(self) -> None:
        while len(self._running) < self.slots:
            owner = self._next()
            if owner is None:
                return
            waiting = self._queues[owner].popleft()
            if not self._queues[owner]:
                del self._queues[owner]
            if waiting.ready.done():  # given up (cancelled) before it could leave the queue
                continue
            self._running[owner.who] = owner
            tick = next(self._tick)
            self._served[("guild", owner.guild)] = self._served[owner] = tick
            waiting.ready.set_result(None)
        if len(self._served) > KEPT:
            self._forget_served()

    def _next(self) -> Owner | None:
        """The owner to serve next: of the server served least recently, then the owner
        served least recently (never served: first), among those not running."""
        ready = [owner for owner in self._queues if owner.who not in self._running]
        if not ready:
            return None
        return min(
            ready,
            key=lambda owner: (
                self._served.get(("guild", owner.guild), 0),
                self._served.get(owner, 0),
            ),
        )

    def _release(self, owner: Owner) -> None:
        self._running.pop(owner.who, None)
        self._grant()

    def _forget_served(self) -> None:
        """Keep the memory of who was served bounded: those neither waiting nor running
        are forgotten (they count as never served, which is what a long absence is)."""
        present = set(self._queues) | set(self._running.values())
        keep = present | {("guild", owner.guild) for owner in present}
        self._served = {key: tick for key, tick in self._served.items() if key in keep}

    def _forget(self, waiting: _Waiting) -> None:
        queue = self._queues.get(waiting.owner)
        if queue is not None and waiting in queue:
            queue.remove(waiting)
            if not queue:
                del self._queues[waiting.owner]
