"""SQLite's dialect run on asyncpg: a statement translated (``?`` to ``$1``, ``json_extract``
to ``->>``), run, and its rows given back as ``sqlite3``'s cursors give them
(``postgres`` writes with these, ``postgres_reads`` reads)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from typing import Any

import asyncpg

from rules.digits import whole_number

from .sql import Params

_JSON_EXTRACT = re.compile(r"json_extract\(([\w.]+), '\$\.(\w+)'\)")


@functools.lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """SQLite's dialect of a statement to PostgreSQL's: placeholders numbered, JSON fields read
    with ``->>``. Quoted text is left alone. Linear in the statement's length."""
    sql = _JSON_EXTRACT.sub(r"(\1::jsonb ->> '\2')", sql)
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def args(params: Params) -> list[Any]:
    return [int(value) if isinstance(value, bool) else value for value in params]


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip()[:6].upper()
    return head.startswith(("SELECT", "WITH", "VALUES")) or "RETURNING" in sql.upper()


def _count(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    count = whole_number(last)
    return -1 if count is None else count


async def statement(conn: asyncpg.Connection, sql: str, parameters: Params) -> Cursor:
    """One statement of SQLite's dialect run on ``conn``: its rows, or how many it changed."""
    text, values = translate(sql), args(parameters)
    if _returns_rows(text):
        rows = await conn.fetch(text, *values)
        return Cursor(rows, len(rows))
    return Cursor([], _count(await conn.execute(text, *values)))


class Cursor:
    """The rows of one statement, as ``sqlite3.Cursor`` gives them."""

    def __init__(self, rows: Sequence[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[asyncpg.Record]:
        rest = list(self._rows[self._next :])
        self._next = len(self._rows)
        return rest

    def __iter__(self) -> Iterator[asyncpg.Record]:
        return iter(self.fetchall())


class AsyncCursor:
    """A ``Cursor`` with awaitable fetches, as ``sql.ReadConnection`` gives them."""

    def __init__(self, cursor: Cursor) -> None:
        self._cursor = cursor

    async def fetchone(self) -> asyncpg.Record | None:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[asyncpg.Record]:
        return self._cursor.fetchall()
