"""PostgreSQL's writer (see ``postgres``): the queue of write jobs and the threads that
commit them, each with a connection of its own (``postgres.SyncConnection``).

A SERIALIZABLE job is a transaction of its own; READ COMMITTED jobs waiting in the queue
when a writer comes free are committed together (group commit: one commit, one fsync for
all), each inside a savepoint, so that one job's error undoes only that job. Jobs of one
kind (``sql.Together``: a match's save, say) waiting together are done as one instead, in
one transaction of their own: one statement for all of them, rather than a savepoint and
statements for each. A job that meets a deadlock or a serialization failure is run again
from the start (a batch's alone, a group whole); a job its group left undone is run alone.
A lost connection is opened again and what it cut short is run again, or answered if its
COMMIT went through (``_one``, ``_together``), so that no job is lost or applied twice.
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import asyncpg

from ..config import Config
from ..errors import DatabaseUnavailable
from .postgres import (
    LOST,
    READ_COMMITTED,
    RECONNECT,
    CommitLost,
    ConnectionLost,
    Outcome,
    SyncConnection,
    settings,
    unavailable,
)
from .sql import Params, Raced, Together

log = logging.getLogger(__name__)
T = TypeVar("T")
# The most jobs committed together. Each job's savepoint is a subtransaction, and a backend
# keeps the ids of 64 of them in shared memory before every other snapshot must look them up
# on disk (a "suboverflowed" transaction): stay well below.
MAX_BATCH = 32
# The most jobs of one kind done as one (``Together``): no savepoints, and the work of each
# is a few rows of the group's one statement.
MAX_GROUP = 64
GROUP_TRIES = 3  # a group that keeps racing other processes' changes then runs job by job


@dataclass
class _Pending:
    job: Callable[[SyncConnection], Any]
    future: asyncio.Future[Any]
    isolation: str
    statement: tuple[str, Params] | None = None  # the job is this one statement (``execute``)
    together: Together[Any] | None = None  # how it may run as one of a group of its kind


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
        on them at once), at most MAX_BATCH. A job of a kind (``Together``) is taken with
        the jobs of its kind queued behind it instead (``_group``). None: stop."""
        with self._ready:
            while not self._items:
                self._ready.wait()
            first = self._items.popleft()
            if first is None:
                return None
            if first.together is not None:
                return self._group(first, first.together.kind)
            batch, items = [first], self._items
            share = min(MAX_BATCH, -(-(len(items) + 1) // self._writers))
            while first.isolation == READ_COMMITTED and len(batch) < share and items:
                following = items[0]
                if following is None or not _batched(following):
                    break
                batch.append(following)
                items.popleft()
            return batch

    def _group(self, first: _Pending, kind: Callable[..., Any]) -> list[_Pending]:
        """``first`` and the jobs of its kind queued behind it, wherever they wait (up to a
        stop), at most MAX_GROUP: one statement does them all, whatever the writers'
        shares. The other jobs keep their places. No job is overtaken that should not
        be: each caller waits for its job before it asks for its next."""
        group, others, items = [first], deque[_Pending | None](), self._items
        while items and items[0] is not None and len(group) < MAX_GROUP:
            job = items.popleft()
            if job is not None and job.together is not None and job.together.kind is kind:
                group.append(job)
            else:
                others.append(job)
        items.extendleft(reversed(others))
        return group


def _batched(pending: _Pending) -> bool:
    """Whether a job may be one of a batch of jobs each in a savepoint."""
    return pending.isolation == READ_COMMITTED and pending.together is None


class Writer:
    """``sqlite_writer.Writer``'s twin: ``run(job)`` commits ``job`` on one of
    ``config.writers`` threads (PostgreSQL takes concurrent writers): a SERIALIZABLE job in
    a transaction of its own, READ COMMITTED jobs that queued up together in one."""

    dialect = "postgresql"

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

    async def run(
        self,
        job: Callable[[Any], T],
        *,
        serializable: bool = False,
        together: Together[T] | None = None,
    ) -> T:
        """``job`` committed: READ COMMITTED with the locks it takes, or SERIALIZABLE (see
        ``sql.Writes``); ``together``: how it may run with the jobs of its kind queued with
        it (READ COMMITTED only)."""
        if self._closed:
            raise RuntimeError("the store is closed")
        if serializable and together is not None:
            raise ValueError("a SERIALIZABLE job runs alone; it cannot be one of a group")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        isolation = "SERIALIZABLE" if serializable else READ_COMMITTED
        self._queue.put(_Pending(job, future, isolation, together=together))
        return await future

    async def execute(self, sql: str, parameters: Params = ()) -> list[asyncpg.Record]:
        """One statement that may run twice (see ``sql.Writes``): alone in the queue, it
        needs no transaction of its own (``_one``); taken with others, it is a job of
        their batch."""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[list[asyncpg.Record]] = asyncio.get_running_loop().create_future()
        job = functools.partial(_execute, sql, parameters)
        self._queue.put(_Pending(job, future, READ_COMMITTED, (sql, parameters)))
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
        the commit has returned; a job that met a deadlock, or that its group left undone,
        is then run again alone, and if the batch's transaction itself failed, every job is
        run alone."""
        if len(batch) == 1:
            self._one(sync, batch[0])
            return
        transaction: Callable[[], list[Outcome]]
        if batch[0].together is not None:
            transaction = functools.partial(_grouped, sync, batch)
        else:
            transaction = functools.partial(sync.batch, [pending.job for pending in batch])
        outcomes = self._together(sync, transaction, len(batch))
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

    def _together(
        self, sync: SyncConnection, transaction: Callable[[], list[Outcome]], size: int
    ) -> list[Outcome] | None:
        """The outcomes of ``size`` jobs committed in one ``transaction`` (a batch's or a
        group's), or None if that transaction failed of itself (nothing written). A lost
        connection is handled as for one job (``_one``), for all of them at once: the
        transaction is run again, or answered if its COMMIT went through; so none is lost
        or applied twice."""
        failure: BaseException
        for wait in RECONNECT:
            if wait:
                time.sleep(wait)
            try:
                outcomes: list[Outcome] = self._attempt(sync, transaction)
                return outcomes
            except _Again as again:
                failure = unavailable("a write", again.__cause__)
            except DatabaseUnavailable as exc:
                failure = exc
                break
            except Exception as exc:
                log.warning("writes committed together failed (%r); running each alone", exc)
                return None
        return [Outcome(None, failure)] * size

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
            return self._settled(sync, cut)
        except LOST as exc:  # connecting again failed: the server is not back yet
            raise _Again() from exc

    def _settled(self, sync: SyncConnection, cut: CommitLost) -> Any:
        """``_settle``, whose other errors (a login refused, say) leave it unknown whether
        the COMMIT went through: DatabaseUnavailable then, never a job run again."""
        try:
            return self._settle(sync, cut)
        except (_Again, DatabaseUnavailable):
            raise
        except Exception as exc:
            raise DatabaseUnavailable(f"{cut}, and whether it did cannot be told") from exc

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


def _grouped(sync: SyncConnection, group: list[_Pending]) -> list[Outcome]:
    """The outcomes of a group of jobs of one kind (``Together``) done as one, in one READ
    COMMITTED transaction: each one's result, or ``conflict`` for one the group left
    undone (to be run alone). A group that ``Raced`` is done again (GROUP_TRIES in all);
    any other error raised by the kind's function rolls back the whole group (nothing
    written) and is raised."""
    kind = cast(Together[Any], group[0].together).kind
    items = [cast(Together[Any], pending.together).item for pending in group]

    def job(conn: SyncConnection) -> list[Outcome]:
        results = kind(conn, items)
        if len(results) != len(items):
            raise RuntimeError(f"{kind!r} answered {len(results)} of {len(items)} jobs")
        return [Outcome(None, None, True) if r is None else Outcome(r, None) for r in results]

    for attempt in range(1, GROUP_TRIES + 1):
        try:
            return sync.transaction(job, READ_COMMITTED)
        except Raced:
            if attempt == GROUP_TRIES:
                raise
            log.debug("a group of writes raced another change; doing it again (%d)", attempt)
    raise AssertionError("unreachable")


def _execute(sql: str, parameters: Params, conn: SyncConnection) -> list[asyncpg.Record]:
    return conn.execute(sql, parameters).fetchall()


class _Again(Exception):
    """The connection was lost and the job is to run again (its cause is what was met)."""


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
