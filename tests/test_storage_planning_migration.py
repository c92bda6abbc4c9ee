"""Migration 17 (issue 27): planned replies being made and boards looked at get tables of
their own, and tournaments and events say whether away days apply (yes for those made
before); every row already stored is kept as it was, on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql

from storage import Config
from storage.backends import postgres
from storage.backends.migrations import POSTGRES_MIGRATIONS, migrate

ROWS = (
    "INSERT INTO players (user_id, name, created_at) VALUES (1, 'ann', 0), (2, 'bob', 0)",
    "INSERT INTO hosted_matches (guild_id, channel_id, issuer_id, invitee_id, terms, phase,"
    " challenger_id, opposition_id, version, created_at, updated_at)"
    " VALUES (7, 99, 1, 2, '{}', 'playing', 1, 2, 3, 0, 0)",
    "INSERT INTO tournaments (id, guild_id, channel_id, name, board, target, turn_seconds,"
    " organiser_id, status, created_at) VALUES (4, 7, 99, 'cup', 'short', 49, 86400, 1,"
    " 'registering', 0)",
    "INSERT INTO events (id, guild_id, channel_id, name, game, options, format, rounds,"
    " turn_seconds, round_seconds, rated, bye_points, tiebreaks, max_players, organiser_id,"
    " status, created_at) VALUES (6, 7, 99, 'open', 'torii', '{}', 'swiss', 5, 86400,"
    " 604800, 0, 2, 'buchholz', 64, 1, 'registering', 0)",
)
NEW_ROWS = (
    "INSERT INTO plan_drafts (hosted_id, side, turn, draft) VALUES (1, 'C', 2, '{}')",
    "INSERT INTO board_looks (hosted_id, side, turn) VALUES (1, 'O', 2)",
)


async def dump(config: Config) -> dict[str, list[tuple]]:
    tables = ("players", "hosted_matches", "tournaments", "events")
    return {table: sorted(await raw_sql(config, f"SELECT * FROM {table}")) for table in tables}


def without_away(found: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The rows as they were before the migration: its column (the last) left out."""
    return {
        table: [row[:-1] if table in ("tournaments", "events") else row for row in rows]
        for table, rows in found.items()
    }


async def check_after(config: Config, before: dict[str, list[tuple]]) -> None:
    after = await dump(config)
    assert without_away(after) == before
    assert [row[-1] for row in after["tournaments"] + after["events"]] == [1, 1]
    for statement in NEW_ROWS:
        await raw_sql(config, statement)
    assert await raw_sql(config, "SELECT turn FROM board_looks") == [(2,)]


async def test_migration_17_on_sqlite_keeps_every_row(tmp_path: Path) -> None:
    config = database("sqlite", tmp_path)
    conn = sqlite3.connect(config.path, isolation_level=None)
    migrate(conn, upto=16)
    for statement in ROWS:
        conn.execute(statement)
    conn.close()
    before = await dump(config)
    conn = sqlite3.connect(config.path, isolation_level=None)
    assert migrate(conn, upto=17) == [17]
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE events SET away_days = 2")
    conn.close()
    await check_after(config, before)


@pytest.mark.postgres
async def test_migration_17_on_postgres_keeps_every_row(tmp_path: Path) -> None:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    try:
        await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number < 17])
        for statement in ROWS:
            await raw_sql(config, statement)
        before = await dump(config)
        upto_17 = [m for m in POSTGRES_MIGRATIONS if m.number <= 17]
        assert await postgres.prepare(config, upto_17) == [17]
        with pytest.raises(Exception, match="away_days"):
            await raw_sql(config, "UPDATE events SET away_days = 2")
        await check_after(config, before)
    finally:
        await drop(config)
