"""SQLite's connections, with the same pragmas everywhere (the writer's, the reader's, the
CLI's): creating and migrating the file, and the few read-only connections reads share."""

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


READERS = 4  # read-only connections: reads run side by side (WAL never blocks a reader)


class SqliteReads:
    """SQLite's read-only connections, each lent to one task at a time (a read may span a
    transaction): several, so that one slow read (a board image's bytes) or a burst of them
    does not hold up every other match's reads behind one connection."""

    def __init__(self, conns: list[aiosqlite.Connection]) -> None:
        self._conns = conns
        self._free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for conn in conns:
            self._free.put_nowait(conn)

    @classmethod
    async def open(cls, config: Config, count: int = READERS) -> SqliteReads:
        conns: list[aiosqlite.Connection] = []
        try:
            for _ in range(count):
                conns.append(await connect_reader(config))
        except BaseException:
            for conn in conns:
                await conn.close()
            raise
        return cls(conns)

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T:
        async with self.borrow() as db:
            return await read(db)

    @contextlib.asynccontextmanager
    async def borrow(self) -> AsyncIterator[ReadConnection]:
        conn = await self._free.get()
        try:
            yield conn
        finally:
            self._free.put_nowait(conn)

    async def close(self) -> None:
        for conn in self._conns:
            await conn.close()


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
