"""Migration 19: tournament and event names are unique on a server by a key folded in Python
(``casefold``), the same on both backends. Names already stored that fold alike (SQLite folded
ASCII only, PostgreSQL's lower() keeps "ß") do not stop it: the oldest keeps its name, each
later one gets the first free " (2)", " (3)", ...; every other column stays as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from backends import BACKENDS, drop, postgres_missing, raw_sql
from backends import config as database

from storage import Config, Store
from storage.backends import postgres
from storage.backends.migrations import POSTGRES_MIGRATIONS, migrate

TOURNAMENT = (
    "INSERT INTO tournaments (id, guild_id, channel_id, name, board, target, turn_seconds,"
    " organiser_id, status, created_at) VALUES ({id}, {guild}, 99, '{name}', 'short', 49,"
    " 86400, 1, 'registering', {at})"
)
EVENT = (
    "INSERT INTO events (id, guild_id, channel_id, name, game, options, format, rounds,"
    " turn_seconds, round_seconds, rated, bye_points, tiebreaks, max_players, organiser_id,"
    " status, created_at) VALUES ({id}, {guild}, 99, '{name}', 'torii', '{{}}', 'swiss', 5,"
    " 86400, 604800, 0, 2, 'buchholz', 64, 1, 'registering', {at})"
)
# Legal before the migration on both backends (each table's index alone, lower() on
# PostgreSQL): (statement, id, guild, name, created_at).
ROWS = (
    (TOURNAMENT, 4, 7, "Été", 1),
    (EVENT, 6, 7, "été", 2),  # as the tournament: the desks refuse it, a race let it in
    (TOURNAMENT, 5, 7, "été (2)", 3),  # the suffix the event above is given
    (TOURNAMENT, 9, 8, "ÉTÉ", 0),  # another server's
    (EVENT, 10, 7, "Straße", 5),
    (EVENT, 11, 7, "STRASSE", 6),  # lower() keeps ß, casefold makes it ss
)
SQLITE_ROWS = ((TOURNAMENT, 12, 7, "ÉTÉ", 7),)  # NOCASE folds ASCII only
AFTER = [
    ("events", 6, "été (2)", "été (2)"),
    ("events", 10, "Straße", "strasse"),
    ("events", 11, "STRASSE (2)", "strasse (2)"),
    ("tournaments", 4, "Été", "été"),
    ("tournaments", 5, "été (2) (2)", "été (2) (2)"),
    ("tournaments", 9, "ÉTÉ", "été"),
]
SQLITE_AFTER = [("tournaments", 12, "ÉTÉ (3)", "été (3)")]
NAMES = (
    "SELECT 'tournaments', id, name, name_key FROM tournaments UNION ALL"
    " SELECT 'events', id, name, name_key FROM events ORDER BY 1, 2"
)
OTHERS = (  # every other column of the two tables
    "SELECT id, guild_id, channel_id, board, target, status, created_at, away_days"
    " FROM tournaments ORDER BY id",
    "SELECT id, guild_id, channel_id, game, rounds, status, created_at, away_days"
    " FROM events ORDER BY id",
)


def statements(backend: str) -> list[str]:
    rows = ROWS + (SQLITE_ROWS if backend == "sqlite" else ())
    return [sql.format(id=n, guild=g, name=name, at=at) for sql, n, g, name, at in rows]


async def others(config: Config) -> list[list[tuple]]:
    return [await raw_sql(config, sql) for sql in OTHERS]


async def at_18(backend: str, tmp_path: Path) -> Config:
    """A database of ``backend`` at schema 18 with the rows."""
    config = database(backend, tmp_path)
    if backend == "sqlite":
        conn = sqlite3.connect(config.path, isolation_level=None)
        migrate(conn, upto=18)
        conn.close()
    else:
        await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number <= 18])
    await raw_sql(config, "INSERT INTO players (user_id, name, created_at) VALUES (1, 'ann', 0)")
    for statement in statements(backend):
        await raw_sql(config, statement)
    return config


async def to_19(config: Config) -> None:
    if not config.postgres:
        conn = sqlite3.connect(config.path, isolation_level=None)
        assert migrate(conn, upto=19) == [19]
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
    else:
        migrations = [m for m in POSTGRES_MIGRATIONS if m.number <= 19]
        assert await postgres.prepare(config, migrations) == [19]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_migration_19_keys_every_name_and_renames_the_later_of_names_alike(
    backend: str, tmp_path: Path
) -> None:
    if backend == "postgres" and (reason := postgres_missing()):
        pytest.skip(reason)
    config = await at_18(backend, tmp_path)
    try:
        before = await others(config)
        await to_19(config)
        after = AFTER + (SQLITE_AFTER if backend == "sqlite" else [])
        assert await raw_sql(config, NAMES) == sorted(after)
        assert await others(config) == before
        keyed = TOURNAMENT.replace("name,", "name, name_key,").replace(
            "'{name}',", "'{name}', 'été',"
        )
        await raw_sql(config, keyed.format(id=20, guild=9, name="ete", at=9))  # per server
        with pytest.raises(Exception, match=r"(?i)unique"):
            await raw_sql(config, keyed.format(id=21, guild=7, name="ete", at=9))
        async with await Store.open(config) as store:
            found = await store.tournaments.named(7, " ÉTÉ ")
            assert found is not None and found.id == 4
            event = await store.events.named(7, "strasse (2)")
            assert event is not None and event.name == "STRASSE (2)"
    finally:
        await drop(config)


@pytest.mark.postgres
async def test_migration_19_on_postgres_leaves_no_default_key(tmp_path: Path) -> None:
    """The DEFAULT '' only filled the rows already there: an insert that names no key is
    refused, as SQLite's unique index refuses a second one."""
    if reason := postgres_missing():
        pytest.skip(reason)
    config = await at_18("postgres", tmp_path)
    try:
        await to_19(config)
        with pytest.raises(Exception, match="name_key"):
            await raw_sql(config, TOURNAMENT.format(id=20, guild=7, name="x", at=9))
    finally:
        await drop(config)
