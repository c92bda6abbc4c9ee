"""The channels' locks, counting the service calls that hold or wait on one: what a pause
of the bot's process (a garbage collection, ``bot.collector``) would hold up. A lock is kept
only while someone holds or waits for it (``KeyedLocks``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable
from types import TracebackType
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class KeyedLocks(Generic[Key]):
    """A lock a key (a channel, a server, a player, a match), kept only while someone holds
    it or waits for it: one nobody holds nor waits for is as good as a new one, and keeping
    one for every key ever used (each channel ever typed in) would grow for as long as the
    bot runs. The same lock object stays while anyone holds or waits on it."""

    def __init__(self) -> None:
        self._locks: dict[Key, asyncio.Lock] = {}
        self._users: dict[Key, int] = {}  # holders and waiters, by key

    def __len__(self) -> int:
        """How many keys have a lock now (held or waited for)."""
        return len(self._locks)

    async def acquire(self, key: Key) -> None:
        """Wait for ``key``'s lock and take it (``release`` it after)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        self._users[key] = self._users.get(key, 0) + 1
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no longer one of its users
            self._let_go(key)
            raise

    def release(self, key: Key) -> None:
        self._locks[key].release()
        self._let_go(key)

    @contextlib.asynccontextmanager
    async def hold(self, key: Key) -> AsyncIterator[None]:
        """``async with`` it: ``key``'s lock, held inside."""
        await self.acquire(key)
        try:
            yield
        finally:
            self.release(key)

    def _let_go(self, key: Key) -> None:
        left = self._users[key] - 1
        if left:
            self._users[key] = left
        else:
            del self._users[key], self._locks[key]


class Locks:
    """One lock a channel, taken only through ``hold`` (so that every call counts); one a
    server, for what is counted across its channels (``server``); and one a player, for what
    is counted across theirs (``player``)."""

    def __init__(self) -> None:
        # each kept only while held or waited for (``KeyedLocks``): autocomplete takes a
        # channel's at every keystroke, in every channel and DM the bot is typed in
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._servers: KeyedLocks[int] = KeyedLocks()
        self._players: KeyedLocks[int] = KeyedLocks()
        self.under_way = 0  # calls in a ``hold`` or ``Counting`` now

    def hold(self, channel_id: int) -> Held:
        """``async with`` it: the channel's lock, counted while waited on and held."""
        return Held(self, self._locks, channel_id)

    def server(self, guild_id: int) -> Held:
        """``async with`` it: the server's lock, held around a check of what its channels
        hold together and the change it allows (the caps on waiting challenges). Taken
        before a channel's lock, never while holding one."""
        return Held(self, self._servers, guild_id)

    def player(self, user_id: int) -> Held:
        """``async with`` it: the player's lock, held around a check of what they hold in
        every server and the change it allows (their cap of matches against the AI). Taken
        before a server's lock, never while holding one or a channel's."""
        return Held(self, self._players, user_id)

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
    """The lock of ``key`` among ``keyed`` (a channel's, a server's, a player's), counted in
    ``Locks.under_way`` from the wait for it to its release."""

    def __init__(self, locks: Locks, keyed: KeyedLocks[int], key: int) -> None:
        self._locks, self._keyed, self._key = locks, keyed, key

    async def __aenter__(self) -> None:
        self._locks.under_way += 1
        try:
            await self._keyed.acquire(self._key)
        except BaseException:
            self._locks.under_way -= 1
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._keyed.release(self._key)
        self._locks.under_way -= 1
