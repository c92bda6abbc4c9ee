"""Opening a backend: SQLite's file (``sqlite``) or, when the config has a URL,
PostgreSQL's server (``postgres``), each migrated first; what the store gets is a writer
and the reads, the same on both."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import asyncpg

from ..config import Config
from ..errors import CannotOpen, DatabaseUnavailable
from . import postgres, postgres_reads, postgres_writer
from .migrations import POSTGRES_MIGRATIONS
from .sql import ReadConnection, Writes
from .sqlite import SqliteReads, connect, prepare
from .sqlite_writer import Writer

T = TypeVar("T")


class Reads(Protocol):
    """Where reads run: ``run(read)`` gives ``read`` a connection (and, on PostgreSQL, a
    fresh one if it was lost: ``read`` is then run again from the start); ``borrow`` lends
    one as it is."""

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T: ...

    def borrow(self) -> contextlib.AbstractAsyncContextManager[ReadConnection]: ...

    async def close(self) -> None: ...


async def open_backend(config: Config) -> tuple[Writes, Reads]:
    """The migrated database of ``config``: its writer and its reads; ``CannotOpen`` saying
    why when there is none to be had (no database in the file, no server to connect to)."""
    try:
        return await _open(config)
    except (
        sqlite3.Error,
        OSError,  # refused, unreachable, timed out, not allowed
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        DatabaseUnavailable,
    ) as exc:
        raise CannotOpen(config.where(), str(exc) or type(exc).__name__) from exc


async def _open(config: Config) -> tuple[Writes, Reads]:
    if config.postgres:
        await postgres.prepare(config, POSTGRES_MIGRATIONS)
        pg_writer = postgres_writer.Writer(config)
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
        return writer, await SqliteReads.open(config)
    except BaseException:
        await writer.close()
        raise
