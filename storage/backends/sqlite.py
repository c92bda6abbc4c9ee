"""SQLite's connections, with the same pragmas everywhere (the writer's, the reader's, the
CLI's): creating and migrating the file, and the few read-only connections reads share."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any, TypeVar

from ..config import Config
from .migrations import migrate
from .sql import Params, ReadConnection

T = TypeVar("T")


READERS = 4  # read-only connections (side by side only where reads run in threads)


class SqliteReads:
    """SQLite's read-only connections, each lent to one task at a time (a read may span a
    transaction): several, so that where reads run in threads (outside WAL, ``Reader``)
    one slow read or a burst of them does not hold up every other match's reads behind one
    connection."""

    def __init__(self, conns: list[Reader]) -> None:
        self._conns = conns
        self._free: asyncio.Queue[Reader] = asyncio.Queue()
        for conn in conns:
            self._free.put_nowait(conn)

    @classmethod
    async def open(cls, config: Config, count: int = READERS) -> SqliteReads:
        conns: list[Reader] = []
        try:
            for _ in range(count):
                conns.append(await connect_reader(config))
        except BaseException:
            for conn in conns:
                await conn.close()
            raise
        return cls(conns)

    async def run(self, read: Callable[[ReadConnection], Awaitable[T]]) -> T:
        conn = await self._free.get()
        try:
            return await read(conn)
        finally:
            self._free.put_nowait(conn)

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


class Reader:
    """A read-only connection with the awaitable calls reads make (``ReadConnection``).

    Under WAL a read never waits for the writer, and reading a few rows costs SQLite tens of
    microseconds: less than handing the statement to a thread and the answer back (a queue,
    a future, a wake-up of the event loop), so its statements run at once on the caller's
    thread, the event loop's. In the other journal modes a reader waits while the writer
    commits (its fsync), so there each statement runs in a thread (``threaded``).

    On the event loop a statement does not wait for a lock (busy timeout 0): where one is
    held all the same (SQLite rebuilding the WAL's index after another process crashed, a
    checkpoint truncating the log), it is run again in a thread, waiting there for up to
    the configured busy timeout (``patient_ms``)."""

    def __init__(self, conn: sqlite3.Connection, threaded: bool, patient_ms: int) -> None:
        self._conn = conn
        self._threaded = threaded
        self._patient_ms = patient_ms

    async def execute_fetchall(self, sql: str, parameters: Params = (), /) -> list[Any]:
        return await self._call(_fetchall, self._conn, sql, parameters)

    def execute(self, sql: str, parameters: Params = (), /) -> _Statement:
        return _Statement(self._cursor(sql, parameters))

    async def close(self) -> None:
        # in a thread: the last connection to close checkpoints the log and syncs the file
        await asyncio.to_thread(self._conn.close)

    async def _cursor(self, sql: str, parameters: Params) -> _Cursor:
        return _Cursor(await self._call(self._conn.execute, sql, parameters), self)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._threaded:
            return await asyncio.to_thread(fn, *args)
        try:
            return fn(*args)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
        return await asyncio.to_thread(self._patiently, fn, *args)

    def _patiently(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` waiting for a lock up to the busy timeout (in a thread)."""
        self._conn.execute(f"PRAGMA busy_timeout = {self._patient_ms}")
        try:
            return fn(*args)
        finally:
            self._conn.execute("PRAGMA busy_timeout = 0")


def _fetchall(conn: sqlite3.Connection, sql: str, parameters: Params) -> list[Any]:
    return conn.execute(sql, parameters).fetchall()


class _Statement:
    """What ``Reader.execute`` returns: awaitable (its cursor), and an async context manager
    that closes its cursor."""

    def __init__(self, work: Awaitable[_Cursor]) -> None:
        self._work = work
        self._cursor: _Cursor | None = None

    def __await__(self) -> Generator[Any, None, _Cursor]:
        return self._work.__await__()

    async def __aenter__(self) -> _Cursor:
        self._cursor = await self._work
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class _Cursor:
    """A cursor's awaitable fetches (run where its reader runs its statements)."""

    def __init__(self, cursor: sqlite3.Cursor, reader: Reader) -> None:
        self._cursor = cursor
        self._reader = reader

    async def fetchone(self) -> Any:
        return await self._reader._call(self._cursor.fetchone)

    async def fetchall(self) -> list[Any]:
        return await self._reader._call(self._cursor.fetchall)

    async def close(self) -> None:
        await self._reader._call(self._cursor.close)


def _pragmas(config: Config) -> list[str]:
    return [
        f"PRAGMA busy_timeout = {config.busy_timeout_ms}",
        "PRAGMA foreign_keys = ON",
        f"PRAGMA synchronous = {config.synchronous}",
    ]


def connect(config: Config, *, any_thread: bool = False) -> sqlite3.Connection:
    """A plain connection in autocommit mode: transactions are always explicit.
    ``any_thread``: it may be used from a thread other than the one that opened it (one
    thread at a time)."""
    conn = sqlite3.connect(
        config.path,
        isolation_level=None,
        timeout=config.busy_timeout_ms / 1000,
        check_same_thread=not any_thread,
    )
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


async def connect_reader(config: Config) -> Reader:
    """A read-only connection (``query_only``): writes go through the writer and nowhere else.
    Its statements run on the event loop where the file is in WAL mode (``Reader``)."""

    def opened() -> tuple[sqlite3.Connection, bool]:
        conn = connect(config, any_thread=True)
        try:
            conn.execute("PRAGMA query_only = ON")
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        except BaseException:
            conn.close()
            raise
        threaded = str(mode).upper() != "WAL"
        if not threaded:
            conn.execute("PRAGMA busy_timeout = 0")  # on the event loop: never wait there
        conn.row_factory = sqlite3.Row
        return conn, threaded

    conn, threaded = await asyncio.to_thread(opened)
    return Reader(conn, threaded, config.busy_timeout_ms)
