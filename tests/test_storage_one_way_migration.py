"""Migration 12: every game's options and setup answers are stored one way. A database written
before it (TORA's matches holding the fields of its rules' options, the Assassin squares in
their own column, the setup choices' TORA columns, the hosted terms' options at their top)
comes through on both backends with nothing lost: its matches load as the same games, each
side's secret square stays its own, and the choices and terms read as they did."""

from __future__ import annotations

import dataclasses
import io
import json
import sqlite3
from pathlib import Path

import pytest
from backends import BACKENDS, drop, postgres_missing, raw_sql
from backends import config as database

from bot.service import Terms
from rules import Side
from rules.tora import ASSASSIN, Options, name, start_squares
from storage import Config, Store
from storage.backends import postgres
from storage.backends.migrations import POSTGRES_MIGRATIONS, migrate
from storage.tools.maintenance import UNUSABLE, check

LONG = Options(
    board="long",
    challenger_setup="defensive",
    opposition_setup="aggressive",
    assassins=True,
    rulers=("Q", "K"),
)
CUSTOM = Options(terrain_map="water v4h6 v5h6; forest v3h3", target=10)
SQUARE = name(start_squares(LONG, Side.CHALLENGER)[0])
MATCH = (
    "INSERT INTO matches (id, guild_id, challenger_id, opposition_id, options, status,"
    " side_to_act, round, version, created_at, updated_at, game)"
    " VALUES ({id}, 7, 1, 2, '{options}', 'active', 'C', 1, 1, 0, 0, '{game}')"
)
OLD_TERMS = {
    "board": "long",
    "terrain": "none",
    "terrain_map": "",
    "assassins": True,
    "turn_seconds": 3600.0,
    "target": 0,
    "rated": False,
    "roles": "challenger",
    "forfeit_after": 3,
    "game": "tora",
    "powers": None,
}
TORII_TERMS = OLD_TERMS | {"board": "short", "assassins": False, "game": "torii", "powers": False}
HOSTED = (
    "INSERT INTO hosted_matches (id, guild_id, channel_id, issuer_id, invitee_id, terms, phase,"
    " challenger_id, opposition_id, version, created_at, updated_at)"
    " VALUES ({id}, 7, {id}0, 1, 2, '{terms}', 'setup', 1, 2, 1, 0, 0)"
)
CHOICE = (
    "INSERT INTO setup_choices (hosted_id, side, strategy, ruler, assassin, answers)"
    " VALUES ({id}, '{side}', {strategy}, {ruler}, {assassin}, '{answers}')"
)


def old_rows() -> list[str]:
    """What a database before migration 12 held."""
    options = (json.dumps(dataclasses.asdict(o), sort_keys=True) for o in (LONG, CUSTOM))
    return [
        "INSERT INTO players (user_id, name, created_at) VALUES (1, 'ann', 0), (2, 'bob', 0)",
        MATCH.format(id=1, options=next(options), game="tora"),
        MATCH.format(id=2, options=next(options), game="tora"),
        MATCH.format(id=3, options='{"answers": [{}, {}], "options": {}}', game="torishogi"),
        f"INSERT INTO match_secrets (match_id, side, assassin_start) VALUES (1, 'C', '{SQUARE}')",
        HOSTED.format(id=1, terms=json.dumps(OLD_TERMS)),
        HOSTED.format(id=2, terms=json.dumps(TORII_TERMS)),
        CHOICE.format(
            id=1,
            side="C",
            strategy="'defensive'",
            ruler="'Q'",
            assassin=f"'{SQUARE}'",
            answers="{}",
        ),
        CHOICE.format(
            id=1, side="O", strategy="'aggressive'", ruler="NULL", assassin="NULL", answers="{}"
        ),
        CHOICE.format(
            id=2,
            side="C",
            strategy="NULL",
            ruler="NULL",
            assassin="NULL",
            answers='{"spirit": "x"}',
        ),
    ]


async def old(backend: str, tmp_path: Path) -> Config:
    """A database of ``backend`` at schema 11 with the old rows (as an older bot left it)."""
    config = database(backend, tmp_path)
    if backend == "sqlite":
        conn = sqlite3.connect(config.path, isolation_level=None)
        migrate(conn, upto=11)
        for statement in old_rows():
            conn.execute(statement)
        conn.close()
        return config
    await postgres.prepare(config, [m for m in POSTGRES_MIGRATIONS if m.number < 12])
    for statement in old_rows():
        await raw_sql(config, statement)
    return config


async def migrated(backend: str, tmp_path: Path) -> Config:
    """A database of ``backend`` with the old rows, migrated to the latest schema."""
    config = await old(backend, tmp_path)
    if backend == "sqlite":
        conn = sqlite3.connect(config.path, isolation_level=None)
        assert migrate(conn)[0] == 12
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
        return config
    assert (await postgres.prepare(config, POSTGRES_MIGRATIONS))[0] == 12
    return config


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_old_databases_matches_choices_and_terms_come_through(backend, tmp_path):
    if backend == "postgres" and (reason := postgres_missing()):
        pytest.skip(reason)
    config = await migrated(backend, tmp_path)
    try:
        async with await Store.open(config) as store:
            long, custom = (await store.load(1)).game, (await store.load(2)).game
            assert long.options == LONG and custom.options == CUSTOM
            assassins = [(p.side, name(p.sq)) for p in long.pieces() if p.kind == ASSASSIN]
            assert assassins == [(Side.CHALLENGER, SQUARE)]  # the Opposition fielded none
            assert (await store.load(3)).game.game_type == "torishogi"
            assert await store.private_secrets(1, Side.CHALLENGER) == {"assassin": SQUARE}
            assert await store.private_secrets(1, Side.OPPOSITION) == {"assassin": "none"}
            assert await store.private_secrets(2, Side.CHALLENGER) == {}
            hosting = store.hosting
            challenger = await hosting.private_setup_choice(1, Side.CHALLENGER)
            opposition = await hosting.private_setup_choice(1, Side.OPPOSITION)
            torii = await hosting.private_setup_choice(2, Side.CHALLENGER)
            assert challenger is not None and opposition is not None and torii is not None
            assert challenger.given == {"strategy": "defensive", "ruler": "Q", "assassin": SQUARE}
            assert opposition.given == {"strategy": "aggressive"}
            assert torii.given == {"spirit": "x"}
        terms = [Terms.from_json(t) for (t,) in await raw_sql(config, TERMS)]
        assert terms == [
            Terms("tora", {"board": "long", "assassins": True}, 3600.0, rated=False),
            Terms("torii", {"powers": False}, 3600.0, rated=False),
        ]
    finally:
        await drop(config)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_check_of_a_database_from_an_older_bot_says_so_instead_of_crashing(
    backend: str, tmp_path: Path
) -> None:
    """`python -m storage check` on a database an older bot wrote (a backup taken before an
    upgrade, say) reads nothing with this bot's queries: it says the schema is older and how
    to migrate it, exit status 2 (unusable), and leaves the database as it was."""
    if backend == "postgres" and (reason := postgres_missing()):
        pytest.skip(reason)
    config = await old(backend, tmp_path)
    try:
        out, err = io.StringIO(), io.StringIO()
        assert await check(config, out, err) == UNUSABLE
        assert "schema version 11 is older than this bot's" in err.getvalue()
        assert "The bot migrates its database when it starts" in err.getvalue()
        asked = "SELECT version FROM schema_version"
        assert await raw_sql(config, "PRAGMA user_version" if backend == "sqlite" else asked) == [
            (11,)
        ]
    finally:
        await drop(config)


TERMS = "SELECT terms FROM hosted_matches ORDER BY id"
