"""What only the PostgreSQL backend has: SQLite's dialect translated, a lost connection
opened again, processes starting at once migrating once, a URL's password never shown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql

from storage import Config, ConfigError, Store
from storage.migrations import LATEST
from storage.postgres import translate


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
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'tora-bot' AND pid != pg_backend_pid()"
            )
        finally:
            await admin.close()
        for user_id in range(2, 12):  # every writer finds its connection gone
            await store.save_player(user_id, f"player {user_id}")
        assert [p.name for p in [await store.player(n) for n in (1, 11)] if p] == [
            "ann",
            "player 11",
        ]
    assert "the database connection was lost; connecting again" in caplog.text
