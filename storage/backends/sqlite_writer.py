"""The one write path: a thread that owns the only writing connection.

Every write is a *job*, a plain function of the connection run on that thread. A job never
awaits, so no other task's statements can interleave with its transaction, and cancelling the
task that asked for it cannot leave a transaction half-open. Jobs waiting in the queue are
committed together (group commit): one fsync acknowledges all of them, each inside its own
savepoint so one job's error rolls back only that job. A job's caller is answered only after
COMMIT has returned, i.e. once the write is durable under the configured ``synchronous``.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .sql import Together

T = TypeVar("T")
Job = Callable[[sqlite3.Connection], Any]
MAX_BATCH = 64


@dataclass
class _Pending:
    job: Job
    future: asyncio.Future[Any]
    result: Any = None
    error: BaseException | None = None


class Writer:
    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="tora-storage-writer", daemon=True)
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._closed = False

    async def start(self) -> None:
        self._thread.start()
        await asyncio.to_thread(self._ready.wait)
        if self._startup_error is not None:
            raise self._startup_error

    async def close(self) -> None:
        """Finish the queued jobs, then close the connection."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)

    async def run(
        self,
        job: Callable[[sqlite3.Connection], T],
        *,
        serializable: bool = False,
        together: Together[T] | None = None,
    ) -> T:
        """Run ``job`` in a transaction on the writer thread; its result once committed.
        (Every job here is ``serializable``: the one writer runs each alone; ``together`` is
        for PostgreSQL's writer, see ``sql.Together``.)"""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put(_Pending(job, future))
        return await future

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """One statement that may run twice (see ``sql.Writes``): here a job as any other."""
        rows: list[Any] = await self.run(lambda conn: conn.execute(sql, parameters).fetchall())
        return rows

    # ---- the writer thread ---------------------------------------------------------------
    def _run(self) -> None:
        try:
            conn = self._connect()
        except BaseException as exc:
            self._startup_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while True:
                batch, stop = self._take()
                if batch:
                    self._commit(conn, batch)
                if stop:
                    return
        finally:
            conn.close()

    def _take(self) -> tuple[list[_Pending], bool]:
        """Block for one job, then take whatever else is already queued."""
        first = self._queue.get()
        if first is None:
            return [], True
        batch = [first]
        while len(batch) < MAX_BATCH:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                return batch, True
            batch.append(item)
        return batch, False

    def _commit(self, conn: sqlite3.Connection, batch: list[_Pending]) -> None:
        try:
            conn.execute("BEGIN IMMEDIATE")
            for pending in batch:
                self._one(conn, pending)
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for pending in batch:
                pending.error = exc
        for pending in batch:
            # a closed event loop has nobody waiting any more
            with contextlib.suppress(RuntimeError):
                pending.future.get_loop().call_soon_threadsafe(_answer, pending)

    @staticmethod
    def _one(conn: sqlite3.Connection, pending: _Pending) -> None:
        conn.execute("SAVEPOINT job")
        try:
            pending.result = pending.job(conn)
        except Exception as exc:
            conn.execute("ROLLBACK TO job")
            pending.error = exc
        conn.execute("RELEASE job")


def _answer(pending: _Pending) -> None:
    future = pending.future
    if future.done():  # the caller was cancelled; the write stands (or failed) all the same
        return
    if pending.error is not None:
        future.set_exception(pending.error)
    else:
        future.set_result(pending.result)
