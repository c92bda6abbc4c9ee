"""The PostgreSQL backend (asyncpg): the same jobs and reads as SQLite's, on a shared server.

The store's statements are written once (``sql``); they are translated (``?`` to ``$1``,
SQLite's ``json_extract`` to ``->>``) and run on asyncpg connections (``postgres_sql``).

- **Writes.** A write job is a plain function of a connection that never awaits (see
  ``sqlite_writer``). Here it runs on one of a few writer threads (``postgres_writer``:
  the queue, the threads, the group commit), each with an asyncpg connection on an event
  loop of its own (``SyncConnection``, here): each statement runs that loop until it is
  answered. A job runs READ COMMITTED, locking the rows it changes and checking the
  versions it read them at (see ``sql.Writes``), or SERIALIZABLE for the jobs that decide
  from many rows (the ladders', the tournaments'), which then behave as if they ran alone,
  as on SQLite's single writer; READ COMMITTED jobs queued together share one transaction,
  each in a savepoint (``SyncConnection.batch``), or, of one kind (a match's save), are done
  as one (``postgres_writer``).
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
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
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
READ_COMMITTED = "READ COMMITTED"
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
    """A connection's settings. Its application name says the schema too, so that an admin
    of a server several bots share tells their connections apart (``pg_stat_activity``)."""
    settings = {"application_name": application_name(config)}
    if config.schema:
        settings["search_path"] = config.schema
    if read_only:
        settings["default_transaction_read_only"] = "on"
    return settings


def application_name(config: Config) -> str:
    return f"tora-bot {config.schema}" if config.schema else "tora-bot"


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
        self._xid: int | None = None  # the running transaction's id, once a statement said it

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

    def assigned(self, xid: int) -> None:
        """A statement of the running transaction returned its id (``sql.PostgresConnection``)."""
        self._xid = xid

    def _transaction_id(self) -> int | None:
        """The running transaction's id if it wrote anything (None if not), to ask after it
        should its COMMIT be cut off: as a statement returned it, else asked for."""
        if self._xid is not None:
            return self._xid
        xid: int | None = self.wait(self._conn.fetchval(_XID))
        return xid

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
                self._xid = None
                self.wait(self._conn.execute(f"BEGIN ISOLATION LEVEL {isolation}"))
                result = job(self)
                xid = self._transaction_id()
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
        self._xid = None  # a job's statement may say the batch's: a savepoint's is its top's
        try:
            # one round trip a job more than its own statements: the savepoint before it
            # (with the release of the one before; COMMIT releases the last)
            before = f"BEGIN ISOLATION LEVEL {READ_COMMITTED}; "
            for job in jobs:
                outcomes.append(self._savepoint(job, before))
                before = "RELEASE SAVEPOINT tora_job; "
            xid = self._transaction_id()
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
    """What one job of a batch or a group came to: its result or its error (``conflict``:
    it met a deadlock, or its group left it undone; it is to be run again alone)."""

    result: Any
    error: BaseException | None
    conflict: bool = False


def unavailable(what: str, cause: BaseException | None) -> DatabaseUnavailable:
    error = DatabaseUnavailable(
        f"{what} lost its connection or found none, {len(RECONNECT)} times in "
        f"{sum(RECONNECT):.1f} s (last: {cause!r})"
    )
    error.__cause__ = cause
    return error


# ---- the schema -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Migration:
    number: int
    summary: str
    sql: str
    then: Callable[[asyncpg.Connection], Awaitable[None]] | None = None  # a step SQL cannot say


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
            if migration.then is not None:
                await migration.then(conn)
            found = migration.number
            applied.append(migration.number)
    await conn.execute("DELETE FROM schema_version")
    await conn.execute("INSERT INTO schema_version VALUES ($1)", found)
    return applied
