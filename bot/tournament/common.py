"""What chapter 10's tournaments and the Swiss and round robin events share: a flow that
keeps each running competition moving (the match service, the threads, the clock, one lock
in this process and a lease per competition across processes), and a desk in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from typing import ClassVar, Generic, TypeVar

from bot.i18n import _
from bot.service import Clock, MatchService, Refused, SystemClock, Threads
from bot.service.languages import server_language
from bot.service.terms import Settings
from bot.service.texts import escape
from storage import Store
from storage.hosting.sharing import HOLD_POLL, Lease, LeaseHeld

log = logging.getLogger(__name__)
BUSY_WAIT = 2.0  # seconds a command waits for another process's hold on a competition
_LEASE: ContextVar[Lease | None] = ContextVar("competition_lease", default=None)


class Running:
    """The competitions of one kind being run. ``kind`` names their leases and the log."""

    kind: ClassVar[str]

    def __init__(
        self,
        store: Store,
        service: MatchService,
        threads: Threads,
        clock: Clock,
        claim_seconds: float = 60.0,
    ) -> None:
        self.store = store
        self.service = service
        self.threads = threads
        self.clock = clock
        self.claim_seconds = claim_seconds  # a competition's lease (TORA_CLAIM_SECONDS)
        self.lock = asyncio.Lock()
        # called with a competition's key after it may have changed (a front end disables
        # its buttons that stopped applying); each returns at once, its work in the background
        self.watchers: list[Callable[[int], None]] = []

    def changed(self, key: int) -> None:
        """Competition ``key`` may have changed: tell its watchers."""
        for watcher in self.watchers:
            watcher(key)

    async def language(self, guild_id: int) -> str:
        """The server's language: a competition's posts, threads and pictures are public."""
        return await server_language(self.store, guild_id)

    @contextlib.asynccontextmanager
    async def _holding(self, key: int, wait: float | None = None) -> AsyncIterator[None]:
        """Competition ``key``'s lease: it changes in one process at a time. ``LeaseHeld``
        after ``wait`` seconds while another process holds it (``Sharing.holding``). Taken
        for ``claim_seconds`` (a dead holder's runs out then) and renewed every third of
        them while held, however long the work (opening a large round's games takes
        minutes)."""
        name = f"{self.kind}:{key}"
        async with self.store.sharing.holding(
            name, self.clock.now, self.claim_seconds, sleep=self.clock.sleep, wait=wait
        ) as lease:
            token = _LEASE.set(lease)
            try:
                yield
            finally:
                _LEASE.reset(token)

    @contextlib.asynccontextmanager
    async def guarded(self, key: int, name: str) -> AsyncIterator[None]:
        """This process's lock and the competition's lease (one change of it at a time, in
        any process). While another process holds the lease (its tick opening a round's
        games: minutes), the lock is let go (never held while waiting for a lease, which
        would hold up every competition of this process) and the lease tried again for
        ``BUSY_WAIT`` seconds; then the command is refused, naming competition ``name``.
        A game called off inside must be decided first: its end is heard here and must not
        wait for the lock."""
        for attempt in range(round(BUSY_WAIT / HOLD_POLL)):
            if attempt:
                await asyncio.sleep(HOLD_POLL)
            async with contextlib.AsyncExitStack() as held:
                await held.enter_async_context(self.lock)
                try:
                    await held.enter_async_context(self._holding(key, wait=0.0))
                except LeaseHeld:
                    continue
                yield
                return
        raise Refused(
            _(
                "**{name}** is being updated just now; please try again in a minute.",
                name=escape(name),
            )
        )

    @contextlib.asynccontextmanager
    async def _unless_held(self, key: int) -> AsyncIterator[bool]:
        """Competition ``key``'s lease in one try, for a game's ending listener (under the
        lock): it runs inside the command that ended the game, whose answer must not wait
        for another process's work (minutes). Yields whether it holds the lease: if not,
        the ending is left to the catch-up of the next tick, which records every game that
        ended unheard."""
        async with contextlib.AsyncExitStack() as held:
            try:
                await held.enter_async_context(self._holding(key, wait=0.0))
            except LeaseHeld:
                log.info(
                    "%s %d is held by another process: an ending left to its tick", self.kind, key
                )
                taken = False
            else:
                taken = True
            yield taken

    def check_lease(self) -> None:
        """Before an effect outside the database (a thread, a game): ``LeaseLost`` if another
        process took the competition over (this one hung past its lease), which does the
        same work from what is stored."""
        lease = _LEASE.get()
        if lease is not None:
            lease.check()

    async def _each(
        self,
        keys: Callable[[], Awaitable[list[int]]],
        work: Callable[[int], Awaitable[None]],
        failing: str,
    ) -> None:
        """Under the lock, ``work`` on each competition ``keys`` names, holding its lease;
        one another process holds is skipped (its holder moves it on; the lease is never
        waited for under the lock, which would hold up every other competition), and one
        that fails waits for the next try (logged: it could not ``failing``); the rest go
        on."""
        async with self.lock:
            for key in await keys():
                try:
                    async with self._holding(key, wait=0.0):
                        await work(key)
                except LeaseHeld:
                    log.debug("%s %d is held by another process: skipped", self.kind, key)
                except Exception:
                    log.exception("%s %d could not %s", self.kind, key, failing)


RunningT = TypeVar("RunningT", bound=Running)


class Desk(Generic[RunningT]):
    """What a front end calls for ``/tora-tournament ...``, in front of its ``flow``."""

    flow_type: type[RunningT]

    def __init__(
        self,
        store: Store,
        service: MatchService,
        threads: Threads,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
    ) -> None:
        self._store = store
        self._settings = settings or Settings()
        self.flow = self.flow_type(
            store, service, threads, clock or SystemClock(), self._settings.claim_seconds
        )

    def _now(self) -> float:
        return self.flow.clock.now()

    def _cmd(self, name: str) -> str:
        return self._settings.cmd(f"tournament {name}", localized=True)
