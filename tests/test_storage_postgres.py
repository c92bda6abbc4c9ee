"""What only the PostgreSQL backend has: SQLite's dialect translated, lost connections
invisible to the caller (reads read again, writes run again or asked after, never applied
twice), processes starting at once migrating once, a URL's password never shown."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

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

from bot.service import Place, Terms, User
from bot.service.testing import Harness
from storage import Config, ConfigError, DatabaseUnavailable, Hosted, Post, Store
from storage.backends import postgres, postgres_reads, postgres_writer
from storage.backends.migrations import LATEST
from storage.backends.postgres import application_name, translate


def test_placeholders_are_numbered_outside_quoted_text() -> None:
    assert translate("SELECT ? , '?', x FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT $1 , '?', x FROM t WHERE a = $2 AND b IN ($3, $4)"
    )
    assert translate("SELECT json_extract(m.options, '$.board') FROM m WHERE id = ?") == (
        "SELECT (m.options::jsonb ->> 'board') FROM m WHERE id = $1"
    )


def test_a_database_url_is_checked_and_its_password_never_shown() -> None:
    config = Config.from_env({"TORA_DB": "postgresql://tora:s3cret@db:5432/tora"})
    assert config.postgres and config.where() == "postgresql://tora:***@db:5432/tora"
    for bad in ({"url": "mysql://db/tora"}, {"url": "postgresql://db", "schema": "Bad-Name"}):
        with pytest.raises(ConfigError):
            Config(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url", ["postgresql://tora:s3/cret@db/tora", "postgresql://tora:s3#cr@et@[::1]:5432/tora"]
)
def test_a_password_holding_a_slash_is_refused_and_masked(url: str) -> None:
    """A generated password often holds a '/' (base64), which ends the URL's host part
    unless percent-encoded: its port then reads "s3", and asyncpg would raise a ValueError
    quoting it. Refused as a setting, and the refusal never shows the password."""
    with pytest.raises(ConfigError, match="percent-encoded") as refused:
        Config(url=url)
    assert "s3" not in str(refused.value) and "cr" not in str(refused.value), refused.value
    assert "postgresql://tora:***@" in str(refused.value)


def test_a_password_given_in_the_urls_query_is_masked() -> None:
    """libpq and asyncpg take the password as a query parameter too (and sslpassword, the
    client key's): masked as the user:password@ form is."""
    config = Config(url="postgresql://tora@db:5432/tora?sslmode=require&password=s3cret")
    assert config.where() == "postgresql://tora@db:5432/tora?sslmode=require&password=***"
    keyed = Config(url="postgresql://db/tora?sslpassword=k3y&PASSWORD=s3cret&port=5432")
    assert keyed.where() == "postgresql://db/tora?sslpassword=***&PASSWORD=***&port=5432"


def test_a_url_with_several_hosts_or_an_ipv6_host_is_kept() -> None:
    for url in ("postgresql://tora@db1:5432,db2/tora", "postgresql://tora:s3%2Fc@[::1]:5432/t"):
        assert Config(url=url).postgres


@pytest.fixture
async def pg(tmp_path: Path):
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    yield config
    await drop(config)


@pytest.mark.postgres
async def test_processes_starting_at_once_migrate_once(pg: Config) -> None:
    stores = await asyncio.gather(*(Store.open(pg) for _ in range(4)))
    try:
        assert await raw_sql(pg, "SELECT version FROM schema_version") == [(LATEST,)]
    finally:
        for store in stores:
            await store.close()


@pytest.mark.postgres
async def test_a_lost_connection_is_opened_again_and_nothing_is_lost(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    async with await Store.open(pg) as store:
        await store.save_player(1, "ann")
        admin = await asyncpg.connect(pg.url)
        try:  # the server drops every connection of the bot (as a restart would)
            await admin.execute(KILL_BOT, application_name(pg))
        finally:
            await admin.close()
        for user_id in range(2, 12):  # every writer finds its connection gone
            await store.save_player(user_id, f"player {user_id}")
        assert [p.name for p in [await store.player(n) for n in (1, 11)] if p] == [
            "ann",
            "player 11",
        ]
    assert "the database connection was lost; connecting again" in caplog.text


@pytest.mark.postgres
async def test_an_admin_can_end_one_bots_connections_and_leave_another_schemas(
    pg: Config, tmp_path: Path
) -> None:
    other = database("postgres", tmp_path)
    try:
        async with await Store.open(pg) as store, await Store.open(other) as neighbour:
            await store.save_player(1, "ann")
            await neighbour.save_player(1, "ann")
            before = await _connections(other)
            await _kill_connections(pg, times=1, every=0)
            async with asyncio.timeout(10):  # the ended server processes leave in a moment
                while await _connections(pg):
                    await asyncio.sleep(0.02)
            assert await _connections(other) == before > 0
    finally:
        await drop(other)


async def _connections(config: Config) -> int:
    """How many connections of the bot on ``config``'s schema the server holds."""
    query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
    return int((await raw_sql(config, query, application_name(config)))[0][0])


# ---- lost connections: invisible to the caller ----------------------------------------------
# this test's bot only: the tests running beside it keep their connections
KILL_BOT = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
    " WHERE application_name = $1 AND pid != pg_backend_pid()"
)


async def _kill_connections(pg: Config, times: int, every: float) -> None:
    """The server drops every connection of the bot, ``times`` times (as an admin or a
    failover would)."""
    admin = await asyncpg.connect(pg.url)
    try:
        for _ in range(times):
            await asyncio.sleep(every)
            await admin.execute(KILL_BOT, application_name(pg))
    finally:
        await admin.close()


@pytest.mark.postgres
async def test_reads_and_writes_while_connections_are_killed_all_succeed(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a read that lost its connection failed (its clean-up asked the released
    connection whether it was in a transaction, hiding the first error), a connection left
    mid-operation by the server failed the next statement ("another operation is in
    progress"), and a write cut off inside its COMMIT failed."""
    async with await Store.open(pg) as store:
        await store.save_player(1, "ann")
        stop = asyncio.Event()
        saved: list[int] = []

        async def read() -> int:
            reads = 0
            while not stop.is_set():
                assert (await store.player(1)) is not None
                assert await store.hosting.live() == []
                reads += 1
            return reads

        async def write(lane: int) -> None:
            for n in range(lane * 10_000, lane * 10_000 + 10_000):
                if stop.is_set():
                    return
                await store.save_player(n, f"player {n}")
                saved.append(n)

        work = [asyncio.create_task(read()) for _ in range(6)]
        work += [asyncio.create_task(write(lane)) for lane in (1, 2, 3)]
        await _kill_connections(pg, times=8, every=0.15)
        await asyncio.sleep(0.2)
        stop.set()
        done = await asyncio.gather(*work)  # any error a caller met is raised here
        assert all(done[:6])
        found = await raw_sql(pg, "SELECT count(*) FROM players WHERE user_id >= 10000")
        assert found == [(len(saved),)]
    assert "a read lost its database connection; reading again" in caplog.text
    assert "the database connection was lost; connecting again" in caplog.text


@pytest.mark.postgres
async def test_deliveries_noted_while_connections_are_killed_all_count_once(
    pg: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """A delivered post's row goes in one statement without a transaction of its own
    (``Writes.execute``): one whose connection is lost, committed or not, is run again, so
    every delivery is noted and none fails."""
    async with await Store.open(pg) as store:
        for user_id, name in ((1, "ann"), (2, "bob")):
            await store.save_player(user_id, name)
        posts = [Post(100, f"post {n}") for n in range(900)]
        await store.hosting.create(Hosted(0, 1, 100, 1, 2, "{}", "challenge"), posts)
        queued = await store.hosting.private_queue()

        async def deliver(lane: int) -> None:
            for row in queued[lane::3]:
                await store.hosting.retry_later(row.id, 1, 0.0, False)
                await store.hosting.delivered(row.id)

        work = [asyncio.create_task(deliver(lane)) for lane in range(3)]
        await _kill_connections(pg, times=6, every=0.05)
        await asyncio.gather(*work)  # any error a caller met is raised here
        assert await store.hosting.private_queue() == []
    assert "the database connection was lost; connecting again" in caplog.text


@pytest.mark.postgres
async def test_a_read_cut_off_by_the_server_is_read_again_on_a_fresh_connection(
    pg: Config,
) -> None:
    async with await Store.open(pg):
        pass  # the schema
    readers = await postgres_reads.Readers.open(pg)
    try:
        slow = readers.run(lambda db: db.execute_fetchall("SELECT pg_sleep(0.4), 7"))
        rows, _ = await asyncio.gather(slow, _kill_connections(pg, times=1, every=0.1))
        assert [row[1] for row in rows] == [7]
    finally:
        await readers.close()


@pytest.mark.postgres
async def test_a_read_that_left_its_snapshot_open_holds_back_no_later_read(pg: Config) -> None:
    """Read connections go back to their pool without a reset query (one round trip less a
    read): what a read left open must still end there, or the next read on that connection
    would answer from the old snapshot."""
    one = dataclasses.replace(pg, readers=1)
    async with await Store.open(one) as store:
        await store.save_player(1, "ann")

        async def left_open(db: postgres_reads.ReadConnection) -> None:
            await db.execute("BEGIN")
            await db.execute_fetchall("SELECT name FROM players")

        await store._read(left_open)
        await store.save_player(1, "ann the second")
        player = await store.player(1)
    assert player is not None and player.name == "ann the second"


@pytest.mark.postgres
async def test_a_write_cut_off_inside_its_commit_is_applied_once(
    pg: Config, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whether the COMMIT went through or not, the caller gets the job's answer, and the
    job's writes are there exactly once: the writer asks the server about the transaction."""
    async with await Store.open(pg):
        pass  # the schema
    for statement in ("CREATE TABLE marks (n INT NOT NULL)", *DIE_IN_FIRST_COMMIT):
        await raw_sql(pg, statement)

    def mark(conn: postgres.SyncConnection) -> str:
        conn.execute("INSERT INTO marks VALUES (?)", (1,))
        return "marked"

    writer = postgres_writer.Writer(pg)
    await writer.start()
    try:  # the server ends the connection inside the COMMIT: it did not commit
        assert await writer.run(mark) == "marked"
    finally:
        await writer.close()
    assert await raw_sql(pg, "SELECT count(*) FROM marks") == [(1,)]
    assert "lost inside a COMMIT; running the job again" in caplog.text

    cut: list[str] = []
    lose_commit_answers(monkeypatch, cut)
    writer = postgres_writer.Writer(pg)
    await writer.start()
    try:  # the COMMIT went through, its answer was lost
        assert await writer.run(mark) == "marked"
    finally:
        await writer.close()
    assert cut and await raw_sql(pg, "SELECT count(*) FROM marks") == [(2,)]
    assert "lost inside a COMMIT, which went through" in caplog.text


@pytest.mark.postgres
async def test_a_database_that_stays_away_is_reported_as_unavailable(
    pg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Store.open(pg) as store:
        monkeypatch.setattr(postgres, "RECONNECT", (0.0, 0.01, 0.01))

        async def refused(self: postgres_writer.Writer) -> asyncpg.Connection:
            raise ConnectionRefusedError("nothing listens there (simulated)")

        monkeypatch.setattr(postgres_writer.Writer, "_connect", refused)
        await _kill_connections(pg, times=1, every=0)
        with pytest.raises(DatabaseUnavailable, match="a write lost its connection or found"):
            await store.save_player(2, "bob")


@pytest.mark.postgres
async def test_players_commands_while_connections_are_killed_all_succeed(pg: Config) -> None:
    """Regression: a command whose read or write lost its connection answered "Something
    went wrong" (nothing applied, though trying again would have worked)."""
    here, ann, bob = Place(guild_id=1, channel_id=100), User(1, "ann"), User(2, "bob")
    async with Harness(pg) as h:
        service = h.service
        await service.challenge(here, ann, bob, Terms(turn_seconds=36_000))
        await service.accept(here, bob)
        await service.setup(here, ann, {"strategy": "aggressive"})
        await service.setup(here, bob, {"strategy": "defensive"})
        killer = asyncio.create_task(_kill_connections(pg, times=6, every=0.1))
        rounds = 0
        while not killer.done() or rounds < 3:
            staged = await service.play(here, ann, "G v5h9-v4h9")
            assert staged.text.startswith("Staged: G v5h9-v4h9")
            taken = await service.undo(here, ann)
            assert taken.text.startswith("Taken back: G v5h9-v4h9")
            assert "Nothing staged" in (await service.board(here, ann)).text
            rounds += 1
        await killer
        await service.play(here, ann, "G v5h9-v4h9")
        ended = await service.end_turn(here, ann)
        assert ended.text == "Your turn is over."
        await h.settle()
        assert "`G v5h9-v4h9`" in h.delivery.texts(here.channel_id)[-1]
