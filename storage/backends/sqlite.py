"""SQLite's connections, with the same pragmas everywhere (the writer's, the reader's, the
CLI's): creating and migrating the file, and the one read-only connection reads share."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

import aiosqlite

from ..config import Config
from .migrations import migrate
from .sql import ReadConnection

T = TypeVar("T")


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
