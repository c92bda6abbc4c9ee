"""SQLite's read connections: under WAL their statements run on the event loop (a reader never
waits for the writer there); in a rollback-journal mode a reader may wait for a lock, so
there they run in a thread and the event loop goes on meanwhile."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

from storage_workload import new_match, play_and_save

from storage import Config, Store
from storage.backends.sqlite import Reader, SqliteReads, connect_reader, prepare


async def test_a_match_saved_in_each_journal_mode_reads_back(tmp_path: Path) -> None:
    for mode in ("WAL", "DELETE"):
        config = Config(path=tmp_path / f"{mode}.sqlite3", journal_mode=mode)
        async with await Store.open(config) as store:
            match = await play_and_save(store, await new_match(store), random.Random(3), 20)
            loaded = await store.load(match.id)
        assert loaded.version == match.version
        assert loaded.game.turns == match.game.turns


async def _threads_of_reads(config: Config) -> set[int]:
    """The threads a reader's statements ran on."""
    seen: set[int] = set()
    reads = await SqliteReads.open(config, count=1)
    try:
        async with reads.borrow() as db:
            db._conn.set_trace_callback(lambda _sql: seen.add(threading.get_ident()))  # type: ignore[attr-defined]
            await db.execute_fetchall("SELECT 1")
            async with db.execute("SELECT 2") as cursor:
                await cursor.fetchall()
    finally:
        await reads.close()
    return seen


async def test_reads_run_on_the_event_loop_under_wal_only(tmp_path: Path) -> None:
    wal = Config(path=tmp_path / "wal.sqlite3")
    rollback = Config(path=tmp_path / "delete.sqlite3", journal_mode="DELETE")
    for config in (wal, rollback):
        await asyncio.to_thread(prepare, config)
    assert await _threads_of_reads(wal) == {threading.get_ident()}
    assert threading.get_ident() not in await _threads_of_reads(rollback)


async def test_a_reader_waiting_for_a_lock_outside_wal_leaves_the_loop_free(
    tmp_path: Path,
) -> None:
    config = Config(
        path=tmp_path / "delete.sqlite3", journal_mode="DELETE", busy_timeout_ms=600_000
    )
    await asyncio.to_thread(prepare, config)
    reader = await connect_reader(config)
    locker = sqlite3.connect(config.path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")  # as a writer's commit holds the file
    try:
        read = asyncio.create_task(reader.execute_fetchall("SELECT count(*) FROM matches"))
        for _ in range(20):  # the loop runs other tasks while the read waits
            await asyncio.sleep(0.001)
        assert not read.done()
        await asyncio.to_thread(locker.execute, "COMMIT")
        assert [tuple(row) for row in await read] == [(0,)]
    finally:
        locker.close()
        await reader.close()


async def test_a_reader_meeting_a_lock_under_wal_waits_in_a_thread(tmp_path: Path) -> None:
    """Under WAL a lock can still be held against readers (here another process's exclusive
    locking mode; SQLite rebuilding the log's index after a crash): the read does not wait
    on the event loop but in a thread, as long as the busy timeout, and then answers."""
    config = Config(path=tmp_path / "wal.sqlite3")
    await asyncio.to_thread(prepare, config)
    locker = sqlite3.connect(config.path, isolation_level=None, check_same_thread=False)
    locker.execute("PRAGMA locking_mode = EXCLUSIVE")
    locker.execute("BEGIN EXCLUSIVE")
    locker.execute("SELECT count(*) FROM matches").fetchall()
    # as connect_reader leaves a WAL reader (which could not open while the file is locked)
    conn = sqlite3.connect(config.path, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 0")
    reader = Reader(conn, threaded=False, patient_ms=600_000)
    try:
        read = asyncio.create_task(reader.execute_fetchall("SELECT count(*) FROM matches"))
        for _ in range(20):  # the loop runs other tasks while the read waits
            await asyncio.sleep(0.001)
        assert not read.done()
        await asyncio.to_thread(locker.close)
        assert [tuple(row) for row in await read] == [(0,)]
        assert [tuple(row) for row in await reader.execute_fetchall("SELECT 1")] == [(1,)]
    finally:
        locker.close()
        await reader.close()
