"""What the store's SQL needs from a connection, on either backend.

Every statement is written once, in the SQL that SQLite and PostgreSQL share (``?``
placeholders, ``INSERT ... ON CONFLICT``, ``RETURNING``); the PostgreSQL connections translate
the placeholders (``postgres``). The few places where the two differ ask
``is_postgres``. ``Connection`` is what a write job gets (``sqlite3.Connection`` or its
PostgreSQL twin), ``ReadConnection`` what a read gets (``sqlite.Reader`` or its PostgreSQL twin).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import asyncpg

Params = Sequence[Any]
Statement = tuple[str, Params]  # a statement and its parameters
T = TypeVar("T")

# A unique or check constraint refused a write: SQLite's or PostgreSQL's error.
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """A write job's connection, inside the writer's transaction."""

    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Any: ...


class PostgresConnection(Connection, Protocol):
    """A write job's connection on PostgreSQL (``postgres.SyncConnection``)."""

    def assigned(self, xid: int) -> None:
        """A statement of the job returned its transaction's id (``pg_current_xact_id()``):
        the writer need not ask for it before the COMMIT."""


class ReadConnection(Protocol):
    """A read's connection (one task at a time, see ``Reader``)."""

    async def execute_fetchall(self, sql: str, parameters: Params = ..., /) -> Iterable[Any]: ...

    def execute(self, sql: str, parameters: Params = ..., /) -> Any: ...


class Reader(Protocol):
    """How the store reads: ``await read(fn)`` is ``fn``'s result on a read connection. A
    read must change nothing: on PostgreSQL one whose connection was lost is run again,
    from the start, on a fresh connection (``postgres_reads.Readers.run``)."""

    def __call__(self, read: Callable[[ReadConnection], Awaitable[T]], /) -> Awaitable[T]: ...


@dataclass(frozen=True)
class Together(Generic[T]):
    """What lets the writer run a READ COMMITTED job as one of a group of jobs of its kind:
    ``kind(conn, items)`` does for each of ``items`` what its job would do alone, all at
    once, and answers each one's result, or None for one it left undone (whose job then runs
    alone, after the group's commit, and says why: a refusal, say). ``kind`` must be the
    same function for every job of the kind and change nothing outside its transaction.

    PostgreSQL's writer groups the jobs of one kind that queue up together, in one
    transaction (one statement for all, where each alone would cost round trips of its
    own); SQLite's runs each job alone (its writer is in the bot's own process and commits
    the jobs queued together anyway)."""

    kind: Callable[[Any, Sequence[Any]], Sequence[T | None]]
    item: Any


class Raced(Exception):
    """A group's work (``Together.kind``) met a concurrent change that would leave it half
    done: its transaction is rolled back and the group done again, in a new one."""


class Writes(Protocol):
    """Where write jobs run: ``sqlite_writer.Writer`` or ``postgres_writer.Writer``. A job is
    a function of a ``Connection`` that never awaits; ``run`` answers once it is committed.

    On SQLite every job runs alone (one writer). On PostgreSQL a job locks the rows it changes
    and checks what it read them at: a match's row ``FOR UPDATE`` before its version is
    checked (``lock_row``), a hosted match's version in its UPDATE's WHERE, unique indexes
    for what must be one; claims skip what others hold. A job that reads many rows to decide
    what to write (the ladders', the tournaments') asks to be ``serializable``: it then runs
    as if alone there too (SERIALIZABLE, run again when it meets another transaction)."""

    async def run(
        self,
        job: Callable[[Any], T],
        *,
        serializable: bool = False,
        together: Together[T] | None = None,
    ) -> T:
        """``job``'s result once committed; ``together``: how it may run with others of its
        kind instead (READ COMMITTED jobs only)."""

    async def execute(self, sql: str, parameters: Params = ..., /) -> list[Any]:
        """One statement, committed, that leaves what it leaves and answers what it answers
        however many times it runs (a DELETE by key, an UPDATE to given values, taking a
        lease this process may already hold); its rows (of a RETURNING). On PostgreSQL, when
        no other job is queued with it, it runs in the server's own transaction of one
        statement: one round trip rather than four (BEGIN, the statement, the transaction's
        id, COMMIT), and run again on a fresh connection if its connection is lost,
        committed or not."""

    async def close(self) -> None: ...


LARGEST_ID = 2**63 - 1  # ids are 64-bit signed integers, on both backends


def can_be_id(value: int) -> bool:
    """Whether ``value`` fits an id column. A number outside names no row; neither backend
    takes it as a parameter (SQLite raises OverflowError, asyncpg DataError), so a lookup
    by a number from outside checks it first."""
    return -LARGEST_ID - 1 <= value <= LARGEST_ID


def is_postgres(conn: object) -> bool:
    return getattr(conn, "dialect", "sqlite") == "postgresql"


def violates(exc: BaseException, sqlite_column: str, postgres_constraint: str) -> bool:
    """Whether an integrity error is about this unique column (SQLite names the column,
    PostgreSQL the constraint or index)."""
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return getattr(exc, "constraint_name", None) == postgres_constraint
    return sqlite_column in str(exc)


def lock_row(conn: object) -> str:
    """The clause that locks the rows a change reads before it checks their version, so that
    a concurrent change of another process waits and then finds the version moved on
    (SQLite's writer holds the whole database already)."""
    return " FOR UPDATE" if is_postgres(conn) else ""


def skip_locked(conn: object) -> str:
    """The clause that lets processes claim rows without waiting for each other: PostgreSQL's
    ``FOR UPDATE SKIP LOCKED``. SQLite has one writer at a time, so a claim needs none."""
    return " FOR UPDATE SKIP LOCKED" if is_postgres(conn) else ""


def keep_identity_ahead(conn: Connection, table: str, taken: int) -> None:
    """After a row was inserted with an explicit id: PostgreSQL's identity sequence must not
    hand that id out later (SQLite's next rowid is always past the largest)."""
    if is_postgres(conn):
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" greatest(?, (SELECT last_value FROM {table}_id_seq)))",
            (taken,),
        )


# A row of a result: ``sqlite3.Row`` or ``asyncpg.Record``, by position or by column name.
Row = Any
