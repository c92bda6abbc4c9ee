"""PostgreSQL's reads (see ``postgres``): a pool of read-only connections on the
bot's own loop, each lent to one task (``_Pool``). A read of several statements (``BEGIN``
... ``COMMIT``) reads one snapshot (REPEATABLE READ, read only); a read that lost its
connection is run again on a fresh one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any, TypeVar

import asyncpg

from ..config import Config
from . import postgres
from .postgres import lost, settings, unavailable
from .postgres_sql import AsyncCursor, Cursor, args, statement, translate
from .sql import Params

log = logging.getLogger(__name__)
T = TypeVar("T")
IDLE_SECONDS = 300.0  # a read connection idle this long is closed (but the last one)


class ReadConnection:
    """The reading calls of ``sql.ReadConnection`` on a pooled asyncpg connection (read only)."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute_fetchall(self, sql: str, parameters: Params = (), /) -> list[Any]:
        return list(await self._conn.fetch(translate(sql), *args(parameters)))

    def execute(self, sql: str, parameters: Params = (), /) -> _Statement:
        return _Statement(self._run(sql, parameters))

    async def _run(self, sql: str, parameters: Params) -> Cursor:
        if sql.strip().upper() == "BEGIN":  # a read of several statements: one snapshot
            sql = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        return await statement(self._conn, sql, parameters)


class _Statement:
    """What ``execute`` returns: awaitable, and an async context manager."""

    def __init__(self, work: Awaitable[Cursor]) -> None:
        self._work = work

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._work.__await__()

    async def __aenter__(self) -> AsyncCursor:
        return AsyncCursor(await self._work)

    async def __aexit__(self, *exc: object) -> None:
        return None


class Readers:
    """A pool of read-only connections. ``run(read)`` reads on one, again on a fresh one if
    the connection was lost; ``borrow`` lends one to one task (for the maintenance tools)."""

    def __init__(self, pool: _Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, config: Config) -> Readers:
        pool = _Pool(config)
        pool.release(await pool.acquire())  # the server answers, or the error is the caller's
        return cls(pool)

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T:
        """``read`` on a borrowed connection. A read changes nothing, so one that lost its
        connection is run again from the start on a fresh one (see ``postgres.RECONNECT``)."""
        tries = postgres.RECONNECT
        for attempt, wait in enumerate(tries, 1):
            if wait:
                await asyncio.sleep(wait)
            try:
                async with self._lend() as db:
                    return await read(db)
            except _Lost as cut:
                if attempt == len(tries):
                    raise unavailable("a read", cut.__cause__) from cut.__cause__
                log.warning("a read lost its database connection; reading again (%d)", attempt)
            except postgres.LOST as exc:  # no connection could be had: the server is not back yet
                if attempt == len(tries):
                    raise unavailable("a read", exc) from exc
        raise AssertionError("unreachable")

    @contextlib.asynccontextmanager
    async def borrow(self) -> AsyncIterator[ReadConnection]:
        """A connection for one task, as it is (not read again if it is lost)."""
        try:
            async with self._lend() as db:
                yield db
        except _Lost as cut:
            raise cut.__cause__ or cut from None

    @contextlib.asynccontextmanager
    async def _lend(self) -> AsyncIterator[ReadConnection]:
        """A connection for one task; a lost one raises _Lost from what was met. After a
        failure the connection is given up if it may be in use still."""
        conn = await self._pool.acquire()
        settled = False  # else ``_finish`` was cut short: the connection may be busy still
        try:
            try:
                yield ReadConnection(conn)
            except BaseException as exc:
                if lost(exc, conn):
                    _terminate(conn)
                    raise _Lost() from exc
                await _finish(conn, exc)
                settled = True
                raise
            await _finish(conn)
            settled = True
        finally:
            if not settled:
                _terminate(conn)
            self._pool.release(conn)

    async def close(self) -> None:
        await self._pool.close()


class _Pool:
    """At most ``config.readers`` read-only connections, each lent to one task at a time;
    one given back goes to the task that waited longest, else waits idle. A connection
    given back closed (lost, or given up by ``_finish``) is dropped, and the next task to
    need one opens a new one.

    Lighter than asyncpg's pool, which a read paid as much CPU for as for its statement (a
    proxy object, a holder, an inactivity timer and a reset per loan): a read leaves no
    session state behind (read only; no SET, LISTEN, advisory lock or cursor outlives it,
    and ``_finish`` closes a transaction left open), so a connection given back needs no
    reset."""

    def __init__(self, config: Config) -> None:
        self._config = config
        # idle connections with when each was given back, the most recent last
        self._idle: list[tuple[asyncpg.Connection, float]] = []
        self._waiting: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._count = 0  # connections open or being opened
        self._closed = False

    async def acquire(self) -> asyncpg.Connection:
        while True:
            if self._idle and self._idle[0][1] < time.monotonic() - IDLE_SECONDS:
                await self._retire_idle()
            while self._idle:
                conn, _since = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._count -= 1
            if self._closed:
                raise asyncpg.InterfaceError("the store's reads are closed")
            if self._count < self._config.readers:
                return await self._connect()
            conn = await self._wait()
            if conn is not None:
                return conn  # else a place came free: open a connection in it

    async def _connect(self) -> asyncpg.Connection:
        self._count += 1
        try:
            conn: asyncpg.Connection = await asyncpg.connect(
                self._config.url, server_settings=settings(self._config, read_only=True)
            )
        except BaseException:
            self._count -= 1
            self._hand(None)  # a task waiting for a connection may open one instead
            raise
        return conn

    async def _wait(self) -> asyncpg.Connection | None:
        """A connection given back, or None when a place came free."""
        waiting: asyncio.Future[asyncpg.Connection | None]
        waiting = asyncio.get_running_loop().create_future()
        self._waiting.append(waiting)
        try:
            return await waiting
        except asyncio.CancelledError:
            if waiting.done() and not waiting.cancelled() and waiting.exception() is None:
                conn = waiting.result()  # handed over as it was cancelled: pass it on
                if conn is not None:
                    self.release(conn)
                else:
                    self._hand(None)
            raise

    def release(self, conn: asyncpg.Connection) -> None:
        if self._closed or conn.is_closed():
            _terminate(conn)
            self._count -= 1
            self._hand(None)
        elif not self._hand(conn):
            self._idle.append((conn, time.monotonic()))

    async def _retire_idle(self) -> None:
        """Close connections idle for ``IDLE_SECONDS`` but the most recently used, as
        asyncpg's pool did: a burst's connections do not hold server backends for ever,
        and one a proxy or firewall cut while idle is not met by a read."""
        limit = time.monotonic() - IDLE_SECONDS
        while len(self._idle) > 1 and self._idle[0][1] < limit:
            conn, _since = self._idle.pop(0)
            self._count -= 1
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)

    def _hand(self, conn: asyncpg.Connection | None) -> bool:
        """Give ``conn`` (None: a free place) to the task that waited longest, if any."""
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(conn)
                return True
        return False

    async def close(self) -> None:
        """Close the idle connections; the others are closed as they are given back."""
        self._closed = True
        idle, self._idle = self._idle, []
        for conn, _since in idle:
            self._count -= 1
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_exception(asyncpg.InterfaceError("the store's reads are closed"))


class _Lost(Exception):
    """A read's connection was lost (its cause is what was met)."""


async def _finish(conn: asyncpg.Connection, exc: BaseException | None = None) -> None:
    """Make a read's connection ready for the next: close a transaction it left open (else
    the pool would, noisily). One that cannot be, or that a cancelled read may still be
    using, is given up."""
    if exc is not None and not isinstance(exc, Exception):
        _terminate(conn)
        return
    try:
        if conn.is_in_transaction():
            await conn.execute("ROLLBACK")
    except Exception:
        _terminate(conn)


def _terminate(conn: asyncpg.Connection) -> None:
    """Close ``conn`` at once, whatever it is doing (the pool opens a new one)."""
    with contextlib.suppress(asyncpg.InterfaceError):  # released already, being closed
        conn.terminate()
