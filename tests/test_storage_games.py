"""Storage of every game (issue 15): a ToriShogi or Torii match is created, played, saved,
reloaded (from its log and from a snapshot), exported and imported like a TORA one, and every
match stored before there were several games still loads as TORA's."""

from __future__ import annotations

import io
import random
import sqlite3
from dataclasses import replace

import pytest

from rules import game_type
from storage import Config, Spec, Store
from storage.backends.migrations import LADDER_TABLES, migrate
from storage.matches.log import fingerprint
from storage.tools.maintenance import check

GUILD = 1
SPECS = {
    "torishogi": Spec(),
    "torii": Spec({"powers": True}, ({"spirit": "Deer"}, {"spirit": "Monkey"})),
}


def made(game_id: str):
    """A fresh game of ``game_id`` made with its spec."""
    return game_type(game_id).new_game(SPECS[game_id].options, SPECS[game_id].answers)


@pytest.fixture
async def store(db: Config):
    async with await Store.open(replace(db, snapshot_every=5)) as s:
        await s.save_player(11, "ann")
        await s.save_player(22, "bob")
        yield s


async def play(store: Store, match, turns: int, seed: int):
    """Random turns (whole turns, each saved), with a take-back now and then."""
    rng = random.Random(seed)
    for _ in range(turns):
        game = match.game
        if game.is_over():
            break
        while game.actions_left and game.legal_actions():
            match.act(game.notation(rng.choice(game.legal_actions())))
            if rng.random() < 0.2:
                match.undo()
        match.end_turn()
        await store.save(match)
    return match


@pytest.mark.parametrize("game_id", list(SPECS))
async def test_a_match_of_every_game_is_stored_and_reloads_the_same(store, game_id):
    match = await store.create_match(GUILD, 11, 22, made(game_id))
    match = await play(store, match, turns=12, seed=2)
    loaded = await store.load(match.id)
    assert loaded.game.game_type == game_id
    assert fingerprint(loaded.game) == fingerprint(match.game)
    info = await store.match_info(match.id)
    assert info.game == game_id and info.options == SPECS[game_id]
    out, err = io.StringIO(), io.StringIO()
    assert await check(store.config, out, err) == 0, err.getvalue()


@pytest.mark.parametrize("game_id", list(SPECS))
async def test_a_record_of_every_game_exports_and_imports(store, game_id):
    match = await store.create_match(GUILD, 11, 22, made(game_id))
    match = await play(store, match, turns=8, seed=5)
    text = await store.export_record(match.id)
    assert text.startswith(f'[Game "{game_id}"]')
    assert '[Challenger "ann"]' in text
    imported = await store.import_record(text, GUILD, 11, 22)
    assert fingerprint(imported.game) == fingerprint(match.game)
    assert game_type(game_id).read_record(text).fen() == match.game.fen()


def test_matches_stored_before_migration_7_are_tora_matches(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, upto=6)
    conn.execute("INSERT INTO players (user_id, name, created_at) VALUES (1, 'a', 0), (2, 'b', 0)")
    conn.execute(
        "INSERT INTO matches (guild_id, challenger_id, opposition_id, options, status,"
        " side_to_act, round, version, created_at, updated_at)"
        """ VALUES (1, 1, 2, '{"board": "short"}', 'active', 'C', 1, 1, 0, 0)"""
    )
    migrate(conn)
    assert conn.execute("SELECT game FROM matches").fetchall() == [("tora",)]
    conn.close()


def test_migration_7_opens_the_ladder_tables_to_every_game(tmp_path):
    path = tmp_path / "ladders.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, upto=6)
    conn.execute(
        "INSERT INTO ladder_seasons (guild_id, board, number, started_at) VALUES (1, 'long', 1, 0)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO ladder_seasons (guild_id, board, number, started_at)"
            " VALUES (1, 'torishogi', 1, 0)"
        )
    migrate(conn, upto=7)  # migration 13 lets the code check the ladders instead
    conn.execute(
        "INSERT INTO ladder_seasons (guild_id, board, number, started_at)"
        " VALUES (1, 'torishogi', 1, 0)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO ladder_seasons (guild_id, board, number, started_at)"
            " VALUES (1, 'chess', 1, 0)"
        )
    for table in LADDER_TABLES:
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        assert "'torishogi', 'torii'" in sql
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
