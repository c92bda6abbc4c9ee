"""Opening a backend: SQLite's connections with the same pragmas everywhere (the writer's,
the reader's, the CLI's), or PostgreSQL's (``storage.postgres``) when the config has a URL."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol, TypeVar

import aiosqlite

from . import postgres, postgres_reads
from .config import Config
from .migrations import POSTGRES_MIGRATIONS, migrate
from .sql import ReadConnection, Writes
from .writer import Writer

T = TypeVar("T")


class Reads(Protocol):
    """Where reads run: ``run(read)`` gives ``read`` a connection (and, on PostgreSQL, a
    fresh one if it was lost: ``read`` is then run again from the start); ``borrow`` lends
    one as it is."""

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T: ...

    def borrow(self) -> contextlib.AbstractAsyncContextManager[ReadConnection]: ...

    async def close(self) -> None: ...


class SqliteReads:
    """SQLite's one read-only connection, for one task at a time (a read may span a
    transaction). Reads never block on writes (WAL)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T:
        async with self.borrow() as db:
            return await read(db)

    @contextlib.asynccontextmanager
    async def borrow(self) -> AsyncIterator[ReadConnection]:
        async with self._lock:
            yield self._conn

    async def close(self) -> None:
        await self._conn.close()


async def open_backend(config: Config) -> tuple[Writes, Reads]:
    """The migrated database of ``config``: its writer and its reads."""
    if config.postgres:
        await postgres.prepare(config, POSTGRES_MIGRATIONS)
        pg_writer = postgres.Writer(config)
        await pg_writer.start()
        try:
            return pg_writer, await postgres_reads.Readers.open(config)
        except BaseException:
            await pg_writer.close()
            raise
    await asyncio.to_thread(prepare, config)
    writer = Writer(lambda: connect(config))
    await writer.start()
    try:
        return writer, SqliteReads(await connect_reader(config))
    except BaseException:
        await writer.close()
        raise


def _pragmas(config: Config) -> list[str]:
    return [
        f"PRAGMA busy_timeout = {config.busy_timeout_ms}",
        "PRAGMA foreign_keys = ON",
        f"PRAGMA synchronous = {config.synchronous}",
    ]


def connect(config: Config) -> sqlite3.Connection:
    """A plain connection in autocommit mode: transactions are always explicit."""
    conn = sqlite3.connect(config.path, isolation_level=None, timeout=config.busy_timeout_ms / 1000)
    for pragma in _pragmas(config):
        conn.execute(pragma)
    return conn


def prepare(config: Config) -> list[int]:
    """Create the database (and its directory) if missing, set the journal mode (it persists
    in the file) and apply pending migrations. Returns the migrations applied."""
    config.path.parent.mkdir(parents=True, exist_ok=True)
    conn = connect(config)
    try:
        mode = conn.execute(f"PRAGMA journal_mode = {config.journal_mode}").fetchone()[0]
        if str(mode).upper() != config.journal_mode:
            raise sqlite3.OperationalError(
                f"could not set journal mode {config.journal_mode} on {config.path} "
                f"(it stays {mode})"
            )
        return migrate(conn)
    finally:
        conn.close()


async def connect_reader(config: Config) -> aiosqlite.Connection:
    """A read-only connection (``query_only``): writes go through the writer and nowhere else."""
    db = await aiosqlite.connect(
        config.path, isolation_level=None, timeout=config.busy_timeout_ms / 1000
    )
    try:
        for pragma in [*_pragmas(config), "PRAGMA query_only = ON"]:
            await db.execute(pragma)
    except BaseException:
        await db.close()
        raise
    db.row_factory = sqlite3.Row
    return db
