"""PostgreSQL's reads (see ``postgres``): a pool of read-only connections on the
bot's own loop, each lent to one task. A read of several statements (``BEGIN`` ...
``COMMIT``) reads one snapshot (REPEATABLE READ, read only); a read that lost its connection
is run again on a fresh one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
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


class ReadConnection:
    """aiosqlite's reading calls on a pooled asyncpg connection (read only)."""

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
    """What aiosqlite's ``execute`` returns: awaitable, and an async context manager."""

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

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, config: Config) -> Readers:
        pool = await asyncpg.create_pool(
            config.url,
            min_size=1,
            max_size=config.readers,
            server_settings=settings(config, read_only=True),
            reset=_as_left,
        )
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
        async with self._pool.acquire() as conn:
            try:
                yield ReadConnection(conn)
            except BaseException as exc:
                if lost(exc, conn):
                    _terminate(conn)
                    raise _Lost() from exc
                await _finish(conn, exc)
                raise
            await _finish(conn)

    async def close(self) -> None:
        await self._pool.close()


async def _as_left(conn: asyncpg.Connection) -> None:
    """What a connection given back to the pool needs besides asyncpg's own clean-up (which
    rolls back a transaction left open): nothing. A read leaves no session state behind
    (read only; no SET, LISTEN, advisory lock or cursor outlives it), so the reset query
    asyncpg would send, a round trip on every read, has nothing to reset."""


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
