"""Migration 18: the messages showing an event's Join and Leave buttons get a table of their
own (a front end disables each button once it stops applying, after a restart too); every
row already stored is kept as it was, on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql
from test_storage_planning_migration import ROWS

from storage import Config
from storage.backends import postgres
from storage.backends.migrations import POSTGRES_MIGRATIONS, migrate

KEPT = (
    "INSERT INTO event_buttons (channel_id, message_id, event_id, verbs)"
    " VALUES (99, 5, 6, 'enter quit')"
)
TABLES = ("players", "hosted_matches", "tournaments", "events")


async def dump(config: Config) -> dict[str, list[tuple]]:
    return {table: sorted(await raw_sql(config, f"SELECT * FROM {table}")) for table in TABLES}


async def check_after(config: Config, before: dict[str, list[tuple]]) -> None:
    assert await dump(config) == before
    await raw_sql(config, KEPT)
    assert await raw_sql(config, "SELECT verbs FROM event_buttons") == [("enter quit",)]


def test_migration_18_on_sqlite_keeps_every_row(tmp_path: Path) -> None:
    config = database("sqlite", tmp_path)
    conn = sqlite3.connect(config.path, isolation_level=None)
    migrate(conn, upto=17)
    for statement in ROWS:
        conn.execute(statement)
    before = {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall()) for t in TABLES}
    assert migrate(conn, upto=18) == [18]
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.execute("PRAGMA foreign_keys = ON")
    with pytest.raises(sqlite3.IntegrityError):  # the event must exist
        conn.execute(KEPT.replace("5, 6,", "5, 60,"))
    conn.close()
    after = sqlite3.connect(config.path)
    assert {t: sorted(after.execute(f"SELECT * FROM {t}").fetchall()) for t in TABLES} == before
    after.close()


@pytest.mark.postgres
async def test_migration_18_on_postgres_keeps_every_row(tmp_path: Path) -> None:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    try:
        await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number < 18])
        for statement in ROWS:
            await raw_sql(config, statement)
        before = await dump(config)
        upto_18 = [m for m in POSTGRES_MIGRATIONS if m.number <= 18]
        assert await postgres.prepare(config, upto_18) == [18]
        await check_after(config, before)
    finally:
        await drop(config)
