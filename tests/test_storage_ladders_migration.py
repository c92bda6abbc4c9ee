"""Migration 4 (ladders) on a database of schema 3 with a finished match: the match and the
old migration-2 tables stay as they were, and the match can be rated on the new tables."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ladder_fixtures import GUILD, ManualClock

from bot.ladder.results import Results
from rules.tora import Game, Options, Side
from storage import Config, Store
from storage.backends.migrations import LATEST, migrate


async def test_a_v3_database_migrates_to_the_ladder_tables(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, upto=3) == [1, 2, 3]
    conn.close()
    # a finished match and an old-style rating, written by the schema-3 bot
    config = Config(path=path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO players VALUES (1, 'ann', 0), (2, 'bob', 0)")
    conn.execute("INSERT INTO ratings VALUES (?, 1, 1510.0, 1, 0)", (GUILD,))
    conn.close()
    assert LATEST >= 4
    async with await Store.open(config) as store:  # applies migration 4 and any later ones
        match = await store.create_match(GUILD, 1, 2, Game(Options(board="short")))
        match.resign(Side.OPPOSITION)
        await store.save(match)
        recorded = await Results(store, ManualClock()).record_match(match.id)
        assert recorded.challenger.wins == 1
        assert [r.rating for r in await store.ladder(GUILD)] == [1510.0]  # untouched
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert conn.execute("SELECT count(*) FROM bot_accounts").fetchone() == (0,)
    conn.close()
