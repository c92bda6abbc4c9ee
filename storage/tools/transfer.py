"""``python -m storage copy SRC DST``: a whole database copied to another, of either backend
(SQLite to PostgreSQL when a deployment grows to several processes, and back).

The rows are copied as they are, ids included, in one transaction on the destination: it
holds all of them or none. The source is read in one snapshot, so the bot should be stopped
(a running bot's later writes are not copied; the row counts compared afterwards show them).
Ids are never handed out twice: the destination's sequences are set past every id the source
ever gave (an outbox row's id keys its delivery, and delivered rows are deleted).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from typing import Any, TextIO

import asyncpg

from ..backends.postgres import translate
from ..backends.postgres_schema import TABLES as SCHEMA_TABLES
from ..backends.sqlite import connect
from ..config import Config
from ..errors import CannotOpen, StorageError
from ..store import Store
from .maintenance import OK, PROBLEMS, UNUSABLE, check

# Parents before children: the later migrations' tables follow the schema's.
LATER_TABLES = (
    "leases",
    "interactions",
    "web_links",
    "web_secret",
    "events",
    "event_entries",
    "event_pairings",
    "event_seats",
    "event_log",
    "event_buttons",
    "player_settings",
    "away_days",
    "plans",
    "plan_drafts",
    "board_looks",
)
TABLES = (*SCHEMA_TABLES, *(t for t in LATER_TABLES if t not in SCHEMA_TABLES))
BATCH = 500
Row = tuple[Any, ...]


def _quoted(columns: Sequence[str]) -> str:
    return ", ".join(f'"{column}"' for column in columns)


def _insert(table: str, columns: Sequence[str]) -> str:
    return f"INSERT INTO {table} ({_quoted(columns)}) VALUES ({', '.join('?' * len(columns))})"


class _Sqlite:
    """A SQLite file on a plain connection (autocommit: transactions are explicit)."""

    def __init__(self, config: Config) -> None:
        self.conn = connect(config)

    async def value(self, sql: str, *params: Any) -> Any:
        return self.conn.execute(sql, params).fetchone()[0]

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")]

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = self.conn.execute(f"SELECT {_quoted(columns)} FROM {table}")
        while batch := cursor.fetchmany(BATCH):
            yield batch

    async def insert(self, table: str, columns: Sequence[str], rows: list[Row]) -> None:
        self.conn.executemany(_insert(table, columns), rows)  # any of asyncpg's values fit

    async def used_ids(self, table: str) -> int:
        """The largest id ever handed out (AUTOINCREMENT remembers deleted rows' ids)."""
        given = "coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)"
        return int(
            await self.value(f"SELECT max(coalesce(max(id), 0), {given}) FROM {table}", table)
        )

    async def keep_ids_past(self, table: str, used: int) -> None:
        """Only AUTOINCREMENT tables consult sqlite_sequence; the others take max(id) + 1."""
        found = await self.value("SELECT sql FROM sqlite_master WHERE name = ?", table)
        if "AUTOINCREMENT" in str(found).upper():
            self.conn.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
            self.conn.execute("INSERT INTO sqlite_sequence VALUES (?, ?)", (table, used))

    @contextlib.asynccontextmanager
    async def transaction(self, write: bool) -> AsyncIterator[None]:
        self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    async def close(self) -> None:
        self.conn.close()


class _Postgres:
    """A PostgreSQL schema on one asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.floats: dict[str, set[int]] = {}  # per table: the DOUBLE PRECISION columns

    @classmethod
    async def open(cls, config: Config) -> _Postgres:
        settings = {"search_path": config.schema} if config.schema else {}
        return cls(await asyncpg.connect(config.url, server_settings=settings))

    async def value(self, sql: str, *params: Any) -> Any:
        return await self.conn.fetchval(translate(sql), *params)

    async def columns(self, table: str, only: str = "%") -> list[str]:
        rows = await self.conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = $1 AND data_type LIKE $2 ORDER BY ordinal_position",
            table,
            only,
        )
        return [row[0] for row in rows]

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = await self.conn.cursor(f"SELECT {_quoted(columns)} FROM {table}")
        while batch := await cursor.fetch(BATCH):
            yield [tuple(record) for record in batch]

    async def insert(self, table: str, columns: Sequence[str], rows: list[Row]) -> None:
        """SQLite may hand back an int from a REAL column; asyncpg wants a float for one."""
        if table not in self.floats:
            doubles = set(await self.columns(table, "double precision"))
            self.floats[table] = {n for n, column in enumerate(columns) if column in doubles}
        floats = self.floats[table]
        rows = [
            tuple(float(v) if n in floats and v is not None else v for n, v in enumerate(row))
            for row in rows
        ]
        await self.conn.executemany(translate(_insert(table, columns)), rows)

    async def used_ids(self, table: str) -> int:
        given = "pg_sequence_last_value(pg_get_serial_sequence(?, 'id')::regclass)"
        return int(await self.value(f"SELECT greatest(max(id), {given}, 0) FROM {table}", table))

    async def keep_ids_past(self, table: str, used: int) -> None:
        if used > 0:  # a table without an identity (interactions) has no sequence: no row
            await self.value(
                "SELECT setval(s::regclass, ?) FROM pg_get_serial_sequence(?, 'id') AS s"
                " WHERE s IS NOT NULL",
                used,
                table,
            )

    def transaction(self, write: bool) -> contextlib.AbstractAsyncContextManager[Any]:
        transaction: contextlib.AbstractAsyncContextManager[Any]
        if write:
            transaction = self.conn.transaction()
        else:
            transaction = self.conn.transaction(isolation="repeatable_read", readonly=True)
        return transaction

    async def close(self) -> None:
        await self.conn.close()


End = _Sqlite | _Postgres
_PG_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError)
_FAILURES = (OSError, ValueError, StorageError, sqlite3.Error, *_PG_ERRORS)


def _identity(config: Config) -> tuple[object, ...]:
    return (config.url, config.schema) if config.postgres else (config.path.resolve(),)


async def _count(end: End, table: str) -> int:
    return int(await end.value(f"SELECT count(*) FROM {table}"))


async def _missing(config: Config) -> str | None:
    """Why ``config`` holds no database to copy from, else None. Asked without creating
    anything: opening the source migrates it, and would make a mistyped schema (or file)
    into an empty database copied "successfully"."""
    if not config.postgres:
        return None if config.path.is_file() else f"no database at {config.path}"
    end = await _Postgres.open(config)
    try:  # a schema that does not exist leaves the search path empty: no table found
        found = await end.value("SELECT to_regclass('schema_version') IS NOT NULL")
    finally:
        await end.close()
    return None if found else f"no tora-bot schema at {config.where()}"


async def _open(config: Config) -> End:
    """The migrated database of ``config`` (``Store.open`` creates and migrates it), then a
    raw connection to it: the copy is plain SQL, not the store's jobs."""
    store = await Store.open(config)
    await store.close()
    return await _Postgres.open(config) if config.postgres else _Sqlite(config)


async def copy(source: Config, dest: Config, out: TextIO, err: TextIO) -> int:
    """Copy every row of ``source`` into the empty ``dest``, then check the copy: the same row
    counts, and every match replays (``python -m storage check`` on the destination)."""
    if _identity(source) == _identity(dest):
        print("the source and the destination are the same database", file=err)
        return UNUSABLE
    try:
        missing = await _missing(source)
    except _FAILURES as exc:
        print(f"cannot open {source.where()}: {exc}", file=err)
        return UNUSABLE
    if missing:
        print(missing, file=err)
        return UNUSABLE
    ends: list[End] = []
    try:
        for config in (source, dest):
            try:
                ends.append(await _open(config))
            except _FAILURES as exc:
                why = exc.why if isinstance(exc, CannotOpen) else exc  # said once
                print(f"cannot open {config.where()}: {why}", file=err)
                return UNUSABLE
        src, dst = ends
        if full := [table for table in TABLES if await _count(dst, table)]:
            tables = ", ".join(full[:3]) + (", ..." if len(full) > 3 else "")
            print(f"{dest.where()} is not empty (rows in {tables}): copy into a new one", file=err)
            return UNUSABLE
        try:
            await _copy_rows(src, dst)
        except _FAILURES as exc:
            print(f"the copy failed and nothing was written: {exc}", file=err)
            return PROBLEMS
        counts = {t: (await _count(src, t), await _count(dst, t)) for t in TABLES}
    finally:
        for end in ends:
            await end.close()
    for table, (had, has) in counts.items():
        print(f"{table}: {has} row{'' if has == 1 else 's'}", file=out)
        if had != has:
            print(f"{table}: {had} rows in the source (still written to?), {has} here", file=err)
    if any(had != has for had, has in counts.values()) or await check(dest, out, err) != OK:
        return PROBLEMS
    print(f"copied {counts['matches'][1]} matches, every one replays the same", file=out)
    return OK


async def _copy_rows(src: End, dst: End) -> None:
    """Every table in one transaction on ``dst``, read in one snapshot of ``src``."""
    async with src.transaction(write=False), dst.transaction(write=True):
        for table in TABLES:
            columns = await src.columns(table)
            async for batch in src.rows(table, columns):
                await dst.insert(table, columns, batch)
            if "id" in columns:
                await dst.keep_ids_past(table, await src.used_ids(table))
