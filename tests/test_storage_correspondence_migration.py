"""Migration 16 (issue 27): hosted matches keep each player's bank or allowance, and the log
takes a rewind (a turn taken back by agreement); every row already stored is kept as it
was, on both backends."""

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
    "INSERT INTO matches (id, guild_id, challenger_id, opposition_id, options, status,"
    " side_to_act, round, version, created_at, updated_at, game)"
    " VALUES (5, 7, 1, 2, '{}', 'active', 'O', 1, 2, 0, 0, 'torishogi')",
    "INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)"
    " VALUES (5, 1, 1, 'C', 'act', 'c3c4', 'c3c4', 0, 1), (5, 2, 1, 'C', 'end', '', 'end', 0, 2)",
    "INSERT INTO hosted_matches (guild_id, channel_id, issuer_id, invitee_id, terms, phase,"
    " challenger_id, opposition_id, match_id, version, created_at, updated_at)"
    " VALUES (7, 99, 1, 2, '{}', 'playing', 1, 2, 5, 3, 0, 0)",
)
REWIND = (
    "INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)"
    " VALUES (5, 3, 2, 'O', 'rewind', '0', 'turn 1 taken back', 0, 3)"
)


async def dump(config: Config) -> dict[str, list[tuple]]:
    tables = ("actions", "matches")
    found = {table: sorted(await raw_sql(config, f"SELECT * FROM {table}")) for table in tables}
    found["hosted"] = sorted(
        await raw_sql(config, "SELECT id, match_id, version, phase FROM hosted_matches")
    )
    return found


async def test_migration_16_on_sqlite_keeps_every_row(tmp_path: Path) -> None:
    config = database("sqlite", tmp_path)
    conn = sqlite3.connect(config.path, isolation_level=None)
    migrate(conn, upto=15)
    for statement in ROWS:
        conn.execute(statement)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(REWIND)
    conn.close()
    before = await dump(config)
    conn = sqlite3.connect(config.path, isolation_level=None)
    assert migrate(conn, upto=16) == [16]
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("SELECT clock_c, clock_o FROM hosted_matches").fetchall() == [(None, None)]
    conn.execute(REWIND)
    with pytest.raises(sqlite3.IntegrityError):  # the log stays append-only
        conn.execute("DELETE FROM actions")
    conn.close()
    after = await dump(config)
    assert after["actions"] == [
        *before["actions"],
        (5, 3, 2, "O", "rewind", "0", "turn 1 taken back", 0, 3.0),
    ]
    assert {k: v for k, v in after.items() if k != "actions"} == {
        k: v for k, v in before.items() if k != "actions"
    }


@pytest.mark.postgres
async def test_migration_16_on_postgres_keeps_every_row(tmp_path: Path) -> None:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    try:
        await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number < 16])
        for statement in ROWS:
            await raw_sql(config, statement)
        with pytest.raises(Exception, match="kind_check"):
            await raw_sql(config, REWIND)
        before = await dump(config)
        assert await postgres.prepare(
            config, [m for m in POSTGRES_MIGRATIONS if m.number <= 16]
        ) == [16]
        assert await raw_sql(config, "SELECT clock_c, clock_o FROM hosted_matches") == [
            (None, None)
        ]
        await raw_sql(config, REWIND)
        after = await dump(config)
        assert len(after["actions"]) == len(before["actions"]) + 1
        assert set(before["actions"]) <= set(after["actions"])
        assert {k: v for k, v in after.items() if k != "actions"} == {
            k: v for k, v in before.items() if k != "actions"
        }
    finally:
        await drop(config)
