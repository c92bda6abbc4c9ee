"""The pool of read-only connections on PostgreSQL (``postgres_reads._Pool``): never more
connections than ``Config.readers``, each lent to one read at a time; a read waiting for
one that is cancelled, or a connection lost, leaves the pool as able as before."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest
from backends import config as database
from backends import drop, postgres_missing

from storage import Config
from storage.backends import postgres_reads
from storage.backends.postgres_reads import Readers
from storage.backends.sql import ReadConnection

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[Config]:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    yield config
    await drop(config)


async def _pid(db: ReadConnection) -> int:
    rows = await db.execute_fetchall("SELECT pg_backend_pid()")
    return int(rows[0][0])


async def _held(
    readers: Readers, count: int, lent: int
) -> tuple[list[int], asyncio.Event, list[asyncio.Task[None]]]:
    """``count`` reads started at once, each keeping its connection until the event is set;
    once ``lent`` of them have one: the backends they got, the event and the reads."""
    held = asyncio.Event()
    pids: list[int] = []

    async def read(db: ReadConnection) -> None:
        pids.append(await _pid(db))
        await held.wait()

    reads = [asyncio.create_task(readers.run(read)) for _ in range(count)]
    while len(pids) < lent:
        await asyncio.sleep(0.01)
    return pids, held, reads


async def test_reads_share_at_most_readers_connections(pg: Config) -> None:
    readers = await Readers.open(replace(pg, readers=2))
    try:
        pids, held, reads = await _held(readers, 6, 2)
        await asyncio.sleep(0.05)
        assert len(pids) == 2  # the other four wait for a connection
        held.set()
        await asyncio.gather(*reads)
        assert len(pids) == 6 and len(set(pids)) == 2
    finally:
        await readers.close()


async def test_a_read_cancelled_while_waiting_leaves_the_pool_whole(pg: Config) -> None:
    readers = await Readers.open(replace(pg, readers=1))
    held, holding = asyncio.Event(), asyncio.Event()

    async def hold(db: ReadConnection) -> int:
        holding.set()
        await held.wait()
        return await _pid(db)

    try:
        first = asyncio.create_task(readers.run(hold))
        await holding.wait()
        waiting = asyncio.create_task(readers.run(_pid))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        held.set()
        pid = await first
        assert await readers.run(_pid) == pid  # the same connection, lent again
    finally:
        await readers.close()


async def test_a_lost_connection_is_replaced(pg: Config) -> None:
    readers = await Readers.open(replace(pg, readers=1))
    try:
        pid = await readers.run(_pid)
        admin = await asyncpg.connect(pg.url)
        try:
            await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        assert await readers.run(_pid) != pid
        assert len({await readers.run(_pid) for _ in range(3)}) == 1
    finally:
        await readers.close()


async def test_connections_idle_too_long_are_closed_but_the_last(
    pg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst's connections do not hold server backends for ever (asyncpg's pool closed
    them after 300 s idle): the next read closes those idle longer, keeping one."""
    readers = await Readers.open(replace(pg, readers=3))
    try:
        pids, held, reads = await _held(readers, 3, 3)
        held.set()
        await asyncio.gather(*reads)
        monkeypatch.setattr(postgres_reads, "IDLE_SECONDS", 0.0)
        await asyncio.sleep(0.01)
        kept = await readers.run(_pid)
        assert kept in pids
        admin = await asyncpg.connect(pg.url)
        try:
            for _ in range(100):  # a closed connection's backend exits a moment later
                alive = await admin.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", pids
                )
                if alive == 1:
                    break
                await asyncio.sleep(0.02)
        finally:
            await admin.close()
        assert alive == 1
    finally:
        await readers.close()
