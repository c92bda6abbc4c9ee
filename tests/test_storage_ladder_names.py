"""Migration 13: the database checks no list of ladders (the games declare theirs, the ladder
service checks them in code), so a new game's ladder needs no migration; every row of the
ladder tables is kept as it was, on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql

from storage import Config
from storage.backends import postgres
from storage.backends.migrations import LADDER_TABLES, POSTGRES_MIGRATIONS, migrate

ROWS = (
    "INSERT INTO players (user_id, name, created_at) VALUES (1, 'ann', 0), (2, 'bob', 0)",
    "INSERT INTO ladder_seasons (guild_id, board, number, started_at, revision)"
    " VALUES (7, 'short', 1, 10, 0), (7, 'ai-torii', 2, 20, 3), (8, 'torishogi', 1, 5, 1)",
    "INSERT INTO ladder_ratings (guild_id, board, season, player_id, rating, deviation,"
    " volatility, games, wins, losses, draws, last_played, streak)"
    " VALUES (7, 'ai-torii', 2, 1, 1612.5, 80.25, 0.06, 4, 3, 1, 0, 19, 2),"
    " (8, 'torishogi', 1, 2, 1450.0, 120.0, 0.06, 1, 0, 1, 0, 4, -1)",
    "INSERT INTO ladder_queue (guild_id, board, player_id, channel_id, joined_at)"
    " VALUES (7, 'long', 1, 99, 30.5), (7, 'torii', 2, 98, 31)",
    "INSERT INTO ladder_pairings (guild_id, board, channel_id, first_id, second_id, gap,"
    " first_rating, second_rating, created_at)"
    " VALUES (7, 'long', 99, 1, 2, 12.5, 1500, 1512.5, 40)",
)
NEW_LADDER = (
    "INSERT INTO ladder_seasons (guild_id, board, number, started_at)"
    " VALUES (7, 'breakthrough', 1, 50)"
)


async def dump(config: Config) -> dict[str, list[tuple]]:
    tables = ("ladder_seasons", "ladder_ratings", "ladder_queue", "ladder_pairings")
    return {table: sorted(await raw_sql(config, f"SELECT * FROM {table}")) for table in tables}


async def test_migration_13_drops_the_sqlite_ladder_checks_and_keeps_every_row(tmp_path: Path):
    config = database("sqlite", tmp_path)
    conn = sqlite3.connect(config.path, isolation_level=None)
    migrate(conn, upto=12)
    for statement in ROWS:
        conn.execute(statement)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(NEW_LADDER)
    conn.close()
    before = await dump(config)
    conn = sqlite3.connect(config.path, isolation_level=None)
    assert migrate(conn, upto=13) == [13]
    for table in LADDER_TABLES:
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        assert "CHECK (board" not in sql and "board TEXT NOT NULL" in sql
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.execute(NEW_LADDER)
    conn.close()
    after = await dump(config)
    assert after["ladder_seasons"] == sorted(
        [*before["ladder_seasons"], (7, "breakthrough", 1, 50.0, None, None, None, 0)]
    )
    assert {k: v for k, v in after.items() if k != "ladder_seasons"} == {
        k: v for k, v in before.items() if k != "ladder_seasons"
    }


@pytest.mark.postgres
async def test_migration_13_drops_the_postgres_ladder_checks_and_keeps_every_row(
    tmp_path: Path,
):
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    try:
        await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number < 13])
        for statement in ROWS:
            await raw_sql(config, statement)
        with pytest.raises(Exception, match="board_check"):
            await raw_sql(config, NEW_LADDER)
        before = await dump(config)
        assert await postgres.prepare(
            config, [m for m in POSTGRES_MIGRATIONS if m.number <= 13]
        ) == [13]
        # this schema's checks first (materialized): pg_get_constraintdef on a constraint of
        # another test's table, dropped meanwhile, fails ("could not open relation")
        checks = await raw_sql(
            config,
            "WITH ours AS MATERIALIZED (SELECT c.oid, c.conrelid FROM pg_constraint c"
            " JOIN pg_namespace n ON n.oid = c.connamespace"
            " WHERE n.nspname = current_schema() AND c.contype = 'c')"
            " SELECT conrelid::regclass::text FROM ours"
            " WHERE pg_get_constraintdef(oid) LIKE '%board%'",
        )
        assert [table for (table,) in checks if table.startswith("ladder")] == []
        await raw_sql(config, NEW_LADDER)
        after = await dump(config)
        assert len(after["ladder_seasons"]) == len(before["ladder_seasons"]) + 1
        assert {k: v for k, v in after.items() if k != "ladder_seasons"} == {
            k: v for k, v in before.items() if k != "ladder_seasons"
        }
        assert set(before["ladder_seasons"]) <= set(after["ladder_seasons"])
    finally:
        await drop(config)
