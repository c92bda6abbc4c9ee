"""PostgreSQL's group commit (issue 26): READ COMMITTED jobs that queue up while the writer
is busy are committed in one transaction, each inside a savepoint. Each caller still gets
its own answer; one job's error undoes only that job; a connection lost in the middle of a
batch or inside its COMMIT loses nothing and writes nothing twice; a SERIALIZABLE job runs
alone; a job that met a deadlock is run again alone."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from backends import (
    DIE_IN_FIRST_COMMIT,
    drop,
    lose_commit_answers,
    postgres_missing,
    raw_sql,
)
from backends import config as database

from storage import Config, DatabaseUnavailable, Store
from storage.backends import postgres_writer
from storage.backends.postgres import SyncConnection
from storage.backends.postgres_writer import Writer
from storage.backends.sql import Raced, Together

pytestmark = pytest.mark.postgres
Job = Callable[[SyncConnection], Any]
Kind = Callable[[SyncConnection, Sequence[int]], list[int | None]]


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[Config]:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path, writers=1)
    async with await Store.open(config):
        pass  # the schema
    await raw_sql(config, "CREATE TABLE marks (n INT PRIMARY KEY)")
    yield config
    await drop(config)


@asynccontextmanager
async def _writer(config: Config) -> AsyncIterator[Writer]:
    writer = Writer(config)
    await writer.start()
    try:
        yield writer
    finally:
        await writer.close()


async def _queued_together(
    writer: Writer, jobs: Sequence[tuple[Job, bool]], kind: Kind | None = None
) -> list[Any]:
    """Run ``jobs`` (each with whether it is serializable) queued while the one writer is
    busy with another job, so that it finds them all waiting; each one's result or error.
    ``kind``: the jobs are of this kind (``Together``), each job's item its number."""
    started, gate = threading.Event(), threading.Event()

    def busy(conn: SyncConnection) -> None:
        started.set()
        gate.wait(10)

    first = asyncio.create_task(writer.run(busy))
    await asyncio.to_thread(started.wait, 10)
    tasks = [
        asyncio.create_task(writer.run(job, serializable=ser, together=kind and Together(kind, n)))
        for n, (job, ser) in enumerate(jobs)
    ]
    await asyncio.sleep(0)  # every task has queued its job, in this order
    gate.set()
    await first
    return await asyncio.gather(*tasks, return_exceptions=True)


def _mark(n: int, runs: list[int] | None = None) -> Job:
    """A job that writes mark ``n`` and returns its transaction's id (and counts its runs)."""

    def job(conn: SyncConnection) -> int:
        if runs is not None:
            runs.append(n)
        conn.execute("INSERT INTO marks VALUES (?)", (n,))
        return int(conn.execute("SELECT pg_current_xact_id()::text::bigint").fetchone()[0])

    return job


async def _marks(config: Config) -> list[int]:
    return [row[0] for row in await raw_sql(config, "SELECT n FROM marks ORDER BY n")]


async def test_jobs_batched_get_their_own_answers_and_one_error_undoes_only_its_job(
    pg: Config,
) -> None:
    def fails(conn: SyncConnection) -> None:
        conn.execute("INSERT INTO marks VALUES (?)", (2,))
        raise ValueError("refused by the job")

    def duplicate(conn: SyncConnection) -> None:
        conn.execute("INSERT INTO marks VALUES (?)", (1,))  # mark 1 is written already

    async with _writer(pg) as writer:
        answers = await _queued_together(
            writer, [(_mark(1), False), (fails, False), (_mark(3), False), (duplicate, False)]
        )
        answers += await _queued_together(writer, [(_mark(5), False)])
    one, refused, three, taken, five = answers
    assert one == three, "the jobs waiting together are committed in one transaction"
    assert five != one
    assert isinstance(refused, ValueError) and str(refused) == "refused by the job"
    assert isinstance(taken, asyncpg.UniqueViolationError)
    assert await _marks(pg) == [1, 3, 5]


async def test_a_serializable_job_runs_alone(pg: Config) -> None:
    def serializable(conn: SyncConnection) -> tuple[int, str]:
        xid = _mark(3)(conn)
        return xid, conn.execute("SELECT current_setting('transaction_isolation')").fetchone()[0]

    async with _writer(pg) as writer:
        one, two, (three, isolation), four, five = await _queued_together(
            writer,
            [
                (_mark(1), False),
                (_mark(2), False),
                (serializable, True),
                (_mark(4), False),
                (_mark(5), False),
            ],
        )
    assert isolation == "serializable"
    assert one == two and four == five, "read committed jobs on either side are batched"
    assert len({one, three, four}) == 3
    assert await _marks(pg) == [1, 2, 3, 4, 5]


async def test_a_connection_lost_in_the_middle_of_a_batch_loses_and_repeats_nothing(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    runs: list[int] = []

    def cut_once(conn: SyncConnection) -> str:
        runs.append(3)
        conn.execute("INSERT INTO marks VALUES (?)", (3,))
        if runs.count(3) == 1:  # the server ends the connection under the batch's third job
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return "third"

    async with _writer(pg) as writer:
        one, two, three, four = await _queued_together(
            writer,
            [
                (_mark(1, runs), False),
                (_mark(2, runs), False),
                (cut_once, False),
                (_mark(4, runs), False),
            ],
        )
    assert three == "third" and one == two == four
    assert sorted(runs) == [1, 1, 2, 2, 3, 3, 4], "nothing ran again once committed"
    assert await _marks(pg) == [1, 2, 3, 4]
    assert "the database connection was lost; connecting again" in caplog.text


async def test_a_batch_cut_off_inside_its_commit_is_applied_once(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the connection inside the batch's COMMIT (a deferred trigger): it
    did not commit, and the whole batch runs again."""
    for statement in DIE_IN_FIRST_COMMIT:
        await raw_sql(pg, statement)
    runs: list[int] = []
    async with _writer(pg) as writer:
        answers = await _queued_together(writer, [(_mark(n, runs), False) for n in (1, 2, 3)])
    assert len(set(answers)) == 1 and not isinstance(answers[0], BaseException)
    assert sorted(runs) == [1, 1, 2, 2, 3, 3]
    assert await _marks(pg) == [1, 2, 3]
    assert "lost inside a COMMIT; running the job again" in caplog.text


async def test_a_batch_whose_commit_went_through_unheard_is_answered_not_run_again(
    pg: Config, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    state: list[str] = []
    runs: list[int] = []

    def arming(conn: SyncConnection) -> int:
        state.append("armed")  # the COMMIT of this job's batch loses its answer
        return _mark(1, runs)(conn)

    def refused(conn: SyncConnection) -> None:
        conn.execute("INSERT INTO marks VALUES (?)", (7,))
        raise LookupError("refused")

    lose_commit_answers(monkeypatch, state, when=("armed",))
    async with _writer(pg) as writer:
        one, error, two = await _queued_together(
            writer, [(arming, False), (refused, False), (_mark(2, runs), False)]
        )
    assert state == ["armed", "cut"]
    assert one == two and isinstance(error, LookupError)
    assert sorted(runs) == [1, 2], "a batch that committed is never run again"
    assert await _marks(pg) == [1, 2]
    assert "lost inside a COMMIT, which went through" in caplog.text


async def test_a_batch_whose_commit_cannot_be_told_is_answered_unavailable_not_run_again(
    pg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch's COMMIT goes through unheard, and asking whether it did fails with an
    error that is not a lost connection (the server refusing the new connection's login,
    say): every job is answered DatabaseUnavailable, none is run again (a job that writes
    without a version check would be written twice)."""
    state: list[str] = []
    runs: list[int] = []

    def arming(conn: SyncConnection) -> int:
        state.append("armed")
        return _mark(1, runs)(conn)

    def refused_login(self: SyncConnection, xid: int) -> bool:
        raise asyncpg.InvalidAuthorizationSpecificationError("no pg_hba.conf entry (simulated)")

    lose_commit_answers(monkeypatch, state, when=("armed",))
    monkeypatch.setattr(SyncConnection, "committed", refused_login)
    async with _writer(pg) as writer:
        answers = await _queued_together(writer, [(arming, False), (_mark(2, runs), False)])
    assert state == ["armed", "cut"]
    assert all(isinstance(answer, DatabaseUnavailable) for answer in answers), answers
    assert "cannot be told" in str(answers[0])
    assert sorted(runs) == [1, 2], "a batch that may have committed is never run again"
    assert await _marks(pg) == [1, 2]


async def test_a_job_that_meets_a_deadlock_in_a_batch_runs_again_alone(pg: Config) -> None:
    runs: list[int] = []

    def deadlocked_once(conn: SyncConnection) -> int:
        xid = _mark(2, runs)(conn)
        if runs.count(2) == 1:
            raise asyncpg.DeadlockDetectedError("deadlock detected (simulated)")
        return xid

    async with _writer(pg) as writer:
        one, two, three = await _queued_together(
            writer, [(_mark(1), False), (deadlocked_once, False), (_mark(3), False)]
        )
    assert one == three != two
    assert runs == [2, 2]
    assert await _marks(pg) == [1, 2, 3]


async def test_a_group_that_keeps_racing_other_changes_runs_job_by_job(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """A group whose kind keeps meeting a concurrent change (``Raced``) is rolled back and
    done again, GROUP_TRIES times in all; then each job runs alone."""
    tries: list[list[int]] = []

    def raced(conn: SyncConnection, items: Sequence[int]) -> list[int | None]:
        tries.append(list(items))
        conn.execute("INSERT INTO marks VALUES (?)", (100 + len(tries),))  # rolled back
        raise Raced("another process changed a row the group wrote")

    async with _writer(pg) as writer:
        answers = await _queued_together(writer, [(_mark(n), False) for n in (1, 2, 3)], raced)
    assert tries == [[0, 1, 2]] * postgres_writer.GROUP_TRIES
    assert len(set(answers)) == 3, "each job committed alone"
    assert await _marks(pg) == [1, 2, 3]
    assert "running each alone" in caplog.text


def test_a_batch_stays_below_the_subtransactions_a_backend_caches() -> None:
    assert postgres_writer.MAX_BATCH < 64
