"""What the ladders, the tournaments and the events share: writes as functions of a
transaction object (``Tx``) that run as one job of the writer, as if alone (SERIALIZABLE on
PostgreSQL), so that reading, deciding and writing are one transaction; reads on a read
connection; and a competition read whole (its row and the rows under it) in one
transaction, in either."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from ..backends.sql import Connection, ReadConnection, Reader, Row, Writes
from ..hosting.outbox import Post, insert_posts

T = TypeVar("T")
Whole = tuple[Row, list[list[Row]]]  # a competition's row and, per part, the rows under it
NAMES_SQL = "SELECT user_id, name FROM players WHERE user_id IN ({marks})"


class Tx:
    """Statements inside one writer transaction; ``now`` (the caller's clock) stamps what
    they write."""

    def __init__(self, conn: Connection, now: float) -> None:
        self.conn = conn
        self.now = now

    def names(self, player_ids: Iterable[int]) -> dict[int, str]:
        ids = sorted(set(player_ids))
        rows = self.conn.execute(NAMES_SQL.format(marks=", ".join("?" * len(ids))), ids)
        return {int(user_id): str(name) for user_id, name in rows.fetchall()}

    def whole(self, head_sql: str, parts_sql: Sequence[str], key: int, what: str) -> Whole:
        """The row ``head_sql`` finds by ``key`` and the rows each of ``parts_sql`` finds by
        it; LookupError naming ``what`` if there is no such row."""
        row = self.conn.execute(head_sql, (key,)).fetchone()
        if row is None:
            raise LookupError(f"there is no {what} {key}")
        return row, [self.conn.execute(sql, (key,)).fetchall() for sql in parts_sql]

    def post(self, posts: Sequence[Post]) -> None:
        """Queue posts and private messages in the match service's outbox, in this
        transaction: they go out if and only if the change they tell of is committed. They
        belong to no hosted match."""
        insert_posts(self.conn, None, posts, self.now)


TxT = TypeVar("TxT", bound=Tx)


class Area(Generic[TxT]):
    """One part of the schema: its writes (``transact``) and reads."""

    def __init__(self, writer: Writes, read: Reader, tx: type[TxT]) -> None:
        self._writer = writer
        self._read = read
        self._tx = tx

    async def transact(self, work: Callable[[TxT], T], now: float) -> T:
        """Run ``work`` as one transaction on the writer (it must not await): all or
        nothing. ``now`` (the caller's clock) stamps what it writes. The work sees the
        caller's context variables (the language its posts and refusals are made in), though
        it runs on the writer's thread."""
        context = contextvars.copy_context()
        return await self._writer.run(
            lambda conn: context.run(work, self._tx(conn, now)), serializable=True
        )

    async def _rows(self, sql: str, args: tuple[object, ...]) -> list[Row]:
        async def read(db: ReadConnection) -> list[Row]:
            async with db.execute(sql, args) as cursor:
                return list(await cursor.fetchall())

        return await self._read(read)

    async def _whole(self, head_sql: str, parts_sql: Sequence[str], key: int, what: str) -> Whole:
        """``Tx.whole`` on a read connection, in one transaction."""

        async def read(db: ReadConnection) -> Whole:
            await db.execute("BEGIN")
            try:
                async with db.execute(head_sql, (key,)) as cursor:
                    row = await cursor.fetchone()
                if row is None:
                    raise LookupError(f"there is no {what} {key}")
                parts = []
                for sql in parts_sql:
                    async with db.execute(sql, (key,)) as cursor:
                        parts.append(list(await cursor.fetchall()))
            finally:
                await db.execute("COMMIT")
            return row, parts

        return await self._read(read)

    async def names(self, player_ids: Iterable[int]) -> dict[int, str]:
        ids = tuple(sorted(set(player_ids)))
        if not ids:
            return {}
        rows = await self._rows(NAMES_SQL.format(marks=", ".join("?" * len(ids))), ids)
        return {int(user_id): str(name) for user_id, name in rows}
