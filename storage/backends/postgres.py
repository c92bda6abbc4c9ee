"""The PostgreSQL backend (asyncpg): the same jobs and reads as SQLite's, on a shared server.

The store's statements are written once (``sql``); they are translated (``?`` to ``$1``,
SQLite's ``json_extract`` to ``->>``) and run on asyncpg connections (``postgres_sql``).

- **Writes.** A write job is a plain function of a connection that never awaits (see
  ``sqlite_writer``). Here it runs on one of a few writer threads, each with an asyncpg
  connection on an event loop of its own: each statement runs that loop until it is answered.
  A job runs READ COMMITTED, locking the rows it changes and checking the versions it read
  them at (see ``sql.Writes``), or SERIALIZABLE for the jobs that decide from many rows (the
  ladders', the tournaments'), which then behave as if they ran alone, as on SQLite's single
  writer. A SERIALIZABLE job is a transaction of its own; READ COMMITTED jobs waiting in the
  queue when a writer comes free are committed together (group commit: one commit, one
  fsync for all), each inside a savepoint, so that one job's error undoes only that job. A
  job that meets a deadlock or a serialization failure is run again from the start, alone.
- **Reads** borrow a connection of a pool on the bot's own loop (``postgres_reads``);
  one that spans several statements (``BEGIN`` ... ``COMMIT``) reads one snapshot
  (REPEATABLE READ, read only).
- **A lost connection** (the server restarted, an admin or the network cut it) is invisible
  to the caller: a read is run again on a fresh connection; a job that it cut short is run
  again, and one cut off inside its COMMIT is asked after by its transaction id (committed:
  answered; not: run again), so that no job is lost or applied twice; the same for the jobs
  of a batch together, which share one transaction. New connections are
  tried for a few seconds (``RECONNECT``) before the error reaches the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import (
    Awaitable,
    Callable,
    Iterable,
    Sequence,
)
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg

from ..config import Config
from ..errors import DatabaseUnavailable, SchemaTooNew
from .postgres_schema import BASELINE, SCHEMA, statements
from .postgres_sql import Cursor, args, statement
from .postgres_sql import translate as translate  # the store's tools translate with it too
from .sql import Params

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRIES = 8  # a job that keeps meeting other processes' transactions fails after this many
# The most jobs committed together. Each job's savepoint is a subtransaction, and a backend
# keeps the ids of 64 of them in shared memory before every other snapshot must look them up
# on disk (a "suboverflowed" transaction): stay well below.
MAX_BATCH = 32
_READ_COMMITTED = "READ COMMITTED"
_CONFLICTS = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
_MIGRATION_LOCK = 7_261_000  # pg_advisory_xact_lock key: one process migrates at a time
# Seconds to wait before each try on a fresh connection after one was lost: about 4 s in all,
# what a server's restart or a failover takes; then the error reaches the caller.
RECONNECT = (0.0, 0.05, 0.2, 0.5, 1.0, 2.0)
# What says that a connection is gone or unusable (the server ended it, is restarting or
# refuses connections for now; the network failed; asyncpg's protocol was left mid-operation
# by a connection that died under it), rather than that a statement was wrong.
LOST = (
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.InternalClientError,
    OSError,
)


def _gone(conn: asyncpg.Connection) -> bool:
    """Whether ``conn`` is closed (a pooled one that was closed is released at once)."""
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:
        return True


def lost(exc: BaseException, conn: asyncpg.Connection) -> bool:
    """Whether ``exc``, met on ``conn``, means that the connection is lost (see ``LOST``)."""
    return isinstance(exc, Exception) and (isinstance(exc, LOST) or _gone(conn))


def settings(config: Config, *, read_only: bool = False) -> dict[str, str]:
    settings = {"application_name": "tora-bot"}
    if config.schema:
        settings["search_path"] = config.schema
    if read_only:
        settings["default_transaction_read_only"] = "on"
    return settings


# ---- writes ---------------------------------------------------------------------------------
class ConnectionLost(Exception):
    """The connection was lost before a job's COMMIT was asked for: nothing was written."""


class CommitLost(Exception):
    """The connection was lost while a job's COMMIT was under way: the transaction ``xid``
    may have committed or not (the job's result is ``result`` if it did)."""

    def __init__(self, xid: int, result: Any) -> None:
        super().__init__(f"the connection was lost inside the COMMIT of transaction {xid}")
        self.xid, self.result = xid, result


class SyncConnection:
    """A write job's connection: an asyncpg connection driven from its own thread and loop."""

    dialect = "postgresql"

    def __init__(self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection) -> None:
        self._loop = loop
        self._conn = conn

    def wait(self, work: Awaitable[T]) -> T:
        return self._loop.run_until_complete(work)

    @property
    def closed(self) -> bool:
        return bool(self._conn.is_closed())

    def replace(self, conn: asyncpg.Connection) -> None:
        """Go on with a new connection (the old one was lost)."""
        self._conn = conn

    def close(self) -> None:
        self.wait(self._conn.close())

    def execute(self, sql: str, parameters: Params = (), /) -> Cursor:
        return self.wait(statement(self._conn, sql, parameters))

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> None:
        batch = [args(params) for params in parameters]
        if batch:
            self.wait(self._conn.executemany(translate(sql), batch))

    def alone(self, sql: str, parameters: Params) -> list[asyncpg.Record]:
        """One statement in the server's own transaction of one statement (no BEGIN, no
        COMMIT), run again on a conflict with another. ConnectionLost if the connection
        was lost, whether or not it committed: only for a statement that may run twice."""
        for attempt in range(1, RETRIES + 1):
            try:
                return self.execute(sql, parameters).fetchall()
            except _CONFLICTS:
                if attempt == RETRIES:
                    raise
            except BaseException as exc:
                if not lost(exc, self._conn):
                    raise
                self._conn.terminate()
                raise ConnectionLost() from exc
        raise AssertionError("unreachable")

    def transaction(self, job: Callable[[SyncConnection], T], isolation: str) -> T:
        """``job`` in one transaction, run again on a conflict with another. ConnectionLost
        if the connection was lost before the COMMIT was asked for (nothing was written),
        CommitLost if it was lost inside the COMMIT of a transaction that wrote."""
        for attempt in range(1, RETRIES + 1):
            xid: int | None = None
            try:
                self.wait(self._conn.execute(f"BEGIN ISOLATION LEVEL {isolation}"))
                result = job(self)
                # its id, if it wrote anything, to ask after it should the COMMIT be cut off
                xid = self.wait(self._conn.fetchval(_XID))
                self.wait(self._conn.execute("COMMIT"))
                return result
            except _CONFLICTS:
                self._rollback()
                if attempt == RETRIES:
                    raise
                log.debug("a write met another transaction; running it again (%d)", attempt)
            except BaseException as exc:
                if not lost(exc, self._conn):
                    self._rollback()
                    raise
                self._conn.terminate()  # whatever state asyncpg was left in, it is over
                if xid is not None:
                    raise CommitLost(xid, result) from exc
                raise ConnectionLost() from exc
        raise AssertionError("unreachable")

    def batch(self, jobs: Sequence[Callable[[SyncConnection], Any]]) -> list[Outcome]:
        """READ COMMITTED ``jobs`` in one transaction, each inside a savepoint: what each
        returned or raised (one that raised left nothing; one that met a deadlock is marked
        ``conflict``, to be run again alone). ConnectionLost and CommitLost as
        ``transaction``, for the batch as a whole (CommitLost's result: the outcomes); an
        error of the transaction itself, not of a job, is raised (nothing was written)."""
        xid: int | None = None
        outcomes: list[Outcome] = []
        try:
            # one round trip a job more than its own statements: the savepoint before it
            # (with the release of the one before; COMMIT releases the last)
            before = f"BEGIN ISOLATION LEVEL {_READ_COMMITTED}; "
            for job in jobs:
                outcomes.append(self._savepoint(job, before))
                before = "RELEASE SAVEPOINT tora_job; "
            xid = self.wait(self._conn.fetchval(_XID))
            self.wait(self._conn.execute("COMMIT"))
            return outcomes
        except BaseException as exc:
            if not lost(exc, self._conn):
                self._rollback()
                raise
            self._conn.terminate()
            if xid is not None:
                raise CommitLost(xid, outcomes) from exc
            raise ConnectionLost() from exc

    def _savepoint(self, job: Callable[[SyncConnection], Any], before: str) -> Outcome:
        """One job of a batch (``before`` run first), undone alone if it raises; a lost
        connection is raised."""
        self.wait(self._conn.execute(before + "SAVEPOINT tora_job"))
        try:
            result = job(self)
        except Exception as exc:
            if lost(exc, self._conn):
                raise
            self.wait(self._conn.execute("ROLLBACK TO SAVEPOINT tora_job"))
            return Outcome(None, exc, conflict=isinstance(exc, _CONFLICTS))
        return Outcome(result, None)

    def committed(self, xid: int) -> bool | None:
        """Whether transaction ``xid`` (cut off inside its COMMIT) committed: asked until
        the server has finished with it, for a few seconds; None if it has not by then."""
        until = time.monotonic() + sum(RECONNECT)
        while True:
            status = self.wait(self._conn.fetchval(_XACT_STATUS, xid))
            if status != "in progress" or time.monotonic() >= until:
                break
            time.sleep(0.05)  # the ended backend is still rolling it back
        return {"committed": True, "aborted": False}.get(status)

    def _rollback(self) -> None:
        if not self._conn.is_closed() and self._conn.is_in_transaction():
            self.wait(self._conn.execute("ROLLBACK"))


_XID = "SELECT pg_current_xact_id_if_assigned()"
_XACT_STATUS = "SELECT pg_xact_status($1::xid8)"


@dataclass(frozen=True)
class Outcome:
    """What one job of a batch came to: its result or its error (``conflict``: a deadlock,
    the job to be run again alone)."""

    result: Any
    error: BaseException | None
    conflict: bool = False


@dataclass
class _Pending:
    job: Callable[[SyncConnection], Any]
    future: asyncio.Future[Any]
    isolation: str
    statement: tuple[str, Params] | None = None  # the job is this one statement (``execute``)


class _Queue:
    """The jobs waiting for a writer, first come first taken (None stops one writer)."""

    def __init__(self, writers: int) -> None:
        self._items: deque[_Pending | None] = deque()
        self._ready = threading.Condition()
        self._writers = writers

    def put(self, item: _Pending | None) -> None:
        with self._ready:
            self._items.append(item)
            self._ready.notify()

    def take(self) -> list[_Pending] | None:
        """Wait for the next job; if it is READ COMMITTED, take with it the READ COMMITTED
        jobs queued right behind it, to be committed together: this writer's share of the
        queue (the other writers take the rest as they come free, so that the server works
        on them at once), at most MAX_BATCH. None: stop."""
        with self._ready:
            while not self._items:
                self._ready.wait()
            share = min(MAX_BATCH, -(-len(self._items) // self._writers))
            first = self._items.popleft()
            if first is None:
                return None
            batch = [first]
            items = self._items
            while first.isolation == _READ_COMMITTED and len(batch) < share and items:
                following = items[0]
                if following is None or following.isolation != _READ_COMMITTED:
                    break
                batch.append(following)
                items.popleft()
            return batch


class Writer:
    """``sqlite_writer.Writer``'s twin: ``run(job)`` commits ``job`` on one of
    ``config.writers`` threads (PostgreSQL takes concurrent writers): a SERIALIZABLE job in
    a transaction of its own, READ COMMITTED jobs that queued up together in one."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._queue = _Queue(config.writers)
        self._threads = [
            threading.Thread(target=self._lane, name=f"tora-pg-writer-{n}", daemon=True)
            for n in range(config.writers)
        ]
        self._started: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
        self._closed = False

    async def start(self) -> None:
        for thread in self._threads:
            thread.start()
        errors = [await asyncio.to_thread(self._started.get) for _ in self._threads]
        failure = next((error for error in errors if error is not None), None)
        if failure is not None:
            await self.close()
            raise failure

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            await asyncio.to_thread(thread.join)

    async def run(self, job: Callable[[Any], T], *, serializable: bool = False) -> T:
        """``job`` committed: READ COMMITTED with the locks it takes, or SERIALIZABLE (see
        ``sql.Writes``)."""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        isolation = "SERIALIZABLE" if serializable else _READ_COMMITTED
        self._queue.put(_Pending(job, future, isolation))
        return await future

    async def execute(self, sql: str, parameters: Params = ()) -> list[asyncpg.Record]:
        """One statement that may run twice (see ``sql.Writes``): alone in the queue, it
        needs no transaction of its own (``_one``); taken with others, it is a job of
        their batch."""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[list[asyncpg.Record]] = asyncio.get_running_loop().create_future()
        job = functools.partial(_execute, sql, parameters)
        self._queue.put(_Pending(job, future, _READ_COMMITTED, (sql, parameters)))
        return await future

    def _lane(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            sync = SyncConnection(loop, loop.run_until_complete(self._connect()))
        except BaseException as exc:
            self._started.put(exc)
            loop.close()
            return
        self._started.put(None)
        try:
            while (batch := self._queue.take()) is not None:
                self._serve(sync, batch)
        finally:
            with contextlib.suppress(Exception):
                sync.close()
            loop.close()

    def _connect(self) -> Awaitable[asyncpg.Connection]:
        connecting: Awaitable[asyncpg.Connection]
        connecting = asyncpg.connect(self._config.url, server_settings=settings(self._config))
        return connecting

    def _serve(self, sync: SyncConnection, batch: list[_Pending]) -> None:
        """Commit the jobs taken together (one alone as before) and answer each caller once
        the commit has returned; a job that met a deadlock is then run again alone, and if
        the batch's transaction itself failed, every job is run alone."""
        if len(batch) == 1:
            self._one(sync, batch[0])
            return
        outcomes = self._together(sync, batch)
        if outcomes is None:
            for pending in batch:
                self._one(sync, pending)
            return
        for pending, outcome in zip(batch, outcomes, strict=True):
            if not outcome.conflict:
                _reply(pending, outcome.result, outcome.error)
        for pending, outcome in zip(batch, outcomes, strict=True):
            if outcome.conflict:
                self._one(sync, pending)

    def _together(self, sync: SyncConnection, batch: list[_Pending]) -> list[Outcome] | None:
        """The outcomes of the jobs of ``batch`` committed in one transaction, or None if
        that transaction failed of itself (nothing written). A lost connection is handled
        as for one job (``_one``), for all of them at once: the batch is run again, or
        answered if its COMMIT went through; so none is lost or applied twice."""
        jobs = [pending.job for pending in batch]
        failure: BaseException
        for wait in RECONNECT:
            if wait:
                time.sleep(wait)
            try:
                outcomes: list[Outcome] = self._attempt(sync, lambda: sync.batch(jobs))
                return outcomes
            except _Again as again:
                failure = unavailable("a write", again.__cause__)
            except DatabaseUnavailable as exc:
                failure = exc
                break
            except Exception as exc:
                log.warning("a batch of writes failed (%r); running each alone", exc)
                return None
        return [Outcome(None, failure)] * len(batch)

    def _one(self, sync: SyncConnection, pending: _Pending) -> None:
        """Run one job and answer its caller. A lost connection (the server restarted, say)
        is opened again: a job it cut short is run again, one it cut off inside its COMMIT
        is answered if it committed and run again if not (never twice); a statement that
        may run twice (``execute``) is run without a transaction of its own, and again."""
        outcome: tuple[Any, BaseException | None] = (None, None)
        for wait in RECONNECT:
            if wait:
                time.sleep(wait)
            try:
                if pending.statement is not None:
                    job = functools.partial(sync.alone, *pending.statement)
                else:
                    job = functools.partial(sync.transaction, pending.job, pending.isolation)
                outcome = (self._attempt(sync, job), None)
            except _Again as again:
                outcome = (None, unavailable("a write", again.__cause__))
                continue
            except Exception as exc:
                outcome = (None, exc)
            break
        _reply(pending, *outcome)

    def _attempt(self, sync: SyncConnection, transaction: Callable[[], Any]) -> Any:
        """What ``transaction`` (of ``sync``) returned, or _Again (caused by what was met)
        when the connection was lost and it is to run again on a fresh one."""
        try:
            if sync.closed:
                log.warning("the database connection was lost; connecting again")
                sync.replace(sync.wait(self._connect()))
            return transaction()
        except ConnectionLost as cut:
            raise _Again() from cut.__cause__
        except CommitLost as cut:
            return self._settle(sync, cut)
        except LOST as exc:  # connecting again failed: the server is not back yet
            raise _Again() from exc

    def _settle(self, sync: SyncConnection, cut: CommitLost) -> Any:
        """The result of a job (or a batch's outcomes) whose COMMIT was cut off, if it
        committed; _Again if not. Asked on a new connection, tried as long as a lost one
        is (``RECONNECT``)."""
        for wait in RECONNECT:
            if wait:
                time.sleep(wait)
            try:
                sync.replace(sync.wait(self._connect()))
                committed = sync.committed(cut.xid)
                break
            except LOST as exc:
                unknown = exc
        else:
            raise DatabaseUnavailable(f"{cut}, and whether it did cannot be told") from unknown
        if committed is None:
            raise DatabaseUnavailable(f"{cut}; the server has not finished with it") from cut
        if committed:
            log.warning("the database connection was lost inside a COMMIT, which went through")
            return cut.result
        log.warning("the database connection was lost inside a COMMIT; running the job again")
        raise _Again() from cut.__cause__


def _execute(sql: str, parameters: Params, conn: SyncConnection) -> list[asyncpg.Record]:
    return conn.execute(sql, parameters).fetchall()


class _Again(Exception):
    """The connection was lost and the job is to run again (its cause is what was met)."""


def unavailable(what: str, cause: BaseException | None) -> DatabaseUnavailable:
    error = DatabaseUnavailable(
        f"{what} lost its connection or found none, {len(RECONNECT)} times in "
        f"{sum(RECONNECT):.1f} s (last: {cause!r})"
    )
    error.__cause__ = cause
    return error


def _reply(pending: _Pending, result: Any, error: BaseException | None) -> None:
    """Answer a job's caller on its loop (a closed loop has nobody waiting)."""
    with contextlib.suppress(RuntimeError):
        pending.future.get_loop().call_soon_threadsafe(_answer, pending.future, result, error)


def _answer(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled; the write stands (or failed) all the same
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


# ---- the schema -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Migration:
    number: int
    summary: str
    sql: str


async def prepare(config: Config, migrations: Sequence[Migration]) -> list[int]:
    """Create the schema if missing and apply pending migrations, in one transaction that
    holds an advisory lock (two processes starting at once never migrate twice). Returns the
    migrations applied (the baseline counts as its number)."""
    conn = await asyncpg.connect(config.url)
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            if config.schema:
                await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{config.schema}"')
                await conn.execute(f'SET LOCAL search_path TO "{config.schema}"')
            return await _migrate(conn, migrations)
    finally:
        await conn.close()


async def _migrate(conn: asyncpg.Connection, migrations: Sequence[Migration]) -> list[int]:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
    found = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
    latest = max([BASELINE, *(migration.number for migration in migrations)])
    if found > latest:
        raise SchemaTooNew(found, latest)
    applied = []
    if found < BASELINE:
        for statement in statements(SCHEMA):
            await conn.execute(statement)
        found = BASELINE
        applied.append(BASELINE)
    for migration in migrations:
        if migration.number > found:
            for statement in statements(migration.sql):
                await conn.execute(statement)
            found = migration.number
            applied.append(migration.number)
    await conn.execute("DELETE FROM schema_version")
    await conn.execute("INSERT INTO schema_version VALUES ($1)", found)
    return applied
