"""The channels' locks, counting the service calls that hold or wait on one: what a pause
of the bot's process (a garbage collection, ``bot.collector``) would hold up."""

from __future__ import annotations

import asyncio
from types import TracebackType


class Locks:
    """One lock a channel, taken only through ``hold`` (so that every call counts); one a
    server, for what is counted across its channels (``server``); and one a player, for what
    is counted across theirs (``player``)."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._servers: dict[int, asyncio.Lock] = {}
        self._players: dict[int, asyncio.Lock] = {}
        self.under_way = 0  # calls in a ``hold`` or ``Counting`` now

    def hold(self, channel_id: int) -> Held:
        """``async with`` it: the channel's lock, counted while waited on and held."""
        return Held(self, self._locks.setdefault(channel_id, asyncio.Lock()))

    def server(self, guild_id: int) -> Held:
        """``async with`` it: the server's lock, held around a check of what its channels
        hold together and the change it allows (the caps on waiting challenges). Taken
        before a channel's lock, never while holding one."""
        return Held(self, self._servers.setdefault(guild_id, asyncio.Lock()))

    def player(self, user_id: int) -> Held:
        """``async with`` it: the player's lock, held around a check of what they hold in
        every server and the change it allows (their cap of matches against the AI). Taken
        before a server's lock, never while holding one or a channel's."""
        return Held(self, self._players.setdefault(user_id, asyncio.Lock()))

    def counting(self) -> Counting:
        """``with`` it: work under way that takes no lock (the endings' listeners, the
        clocks' and the digests' looks)."""
        return Counting(self)

    def busy(self) -> bool:
        """Whether a call is under way."""
        return self.under_way > 0


class Counting:
    """Counts itself in ``Locks.under_way`` while entered."""

    def __init__(self, locks: Locks) -> None:
        self._locks = locks

    def __enter__(self) -> None:
        self._locks.under_way += 1

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._locks.under_way -= 1


class Held:
    """A channel's lock, counted in ``Locks.under_way`` from the wait for it to its release."""

    def __init__(self, locks: Locks, lock: asyncio.Lock) -> None:
        self._locks, self._lock = locks, lock

    async def __aenter__(self) -> None:
        self._locks.under_way += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._locks.under_way -= 1
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lock.release()
        self._locks.under_way -= 1
