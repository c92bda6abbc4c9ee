"""The schema, as numbered migrations. A released migration is never edited: changes are new
migrations appended to ``MIGRATIONS``. ``PRAGMA user_version`` holds the number applied last.

Sides are stored as "C" / "O". Times are Unix seconds (REAL). Columns marked PRIVATE hold
hidden information (R40-R44) and are read only by the loader and by per-player reads.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .errors import SchemaTooNew

FIRST_SCHEMA = """
CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE players (
    user_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at REAL NOT NULL
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER,
    challenger_id INTEGER NOT NULL REFERENCES players (user_id),
    opposition_id INTEGER NOT NULL REFERENCES players (user_id),
    options TEXT NOT NULL,
    headers TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    side_to_act TEXT NOT NULL CHECK (side_to_act IN ('C', 'O')),
    round INTEGER NOT NULL,
    score_c INTEGER NOT NULL DEFAULT 0,
    score_o INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    version INTEGER NOT NULL,
    last_seq INTEGER NOT NULL DEFAULT 0,
    turn_deadline REAL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX matches_by_guild ON matches (guild_id, status);
CREATE INDEX matches_by_deadline ON matches (turn_deadline)
    WHERE status = 'active' AND turn_deadline IS NOT NULL;

-- PRIVATE: each side's secret setup (its Assassin's start square, R41).
CREATE TABLE match_secrets (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    assassin_start TEXT NOT NULL,
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;

-- The action log: append-only, one row per player or bot act, in order (seq 1, 2, ...),
-- clustered by match so that a commit writes one page of it and a load reads a few.
-- arg is PRIVATE when hidden = 1; public is what everyone may see.
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    kind TEXT NOT NULL
        CHECK (kind IN ('act', 'undo', 'take_back', 'end', 'deadline', 'resign', 'draw', 'reset')),
    arg TEXT NOT NULL DEFAULT '',
    public TEXT NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- PRIVATE: the latest pickled Game of a match (hidden state included) after log entry seq.
CREATE TABLE snapshots (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    seq INTEGER NOT NULL,
    state_version INTEGER NOT NULL,
    data BLOB NOT NULL,
    at REAL NOT NULL
);
"""

RESULTS_AND_LADDERS = """
-- Written once, when a match ends: the full record is public from then on (R44).
CREATE TABLE finished_matches (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    winner TEXT CHECK (winner IN ('C', 'O')),
    reason TEXT NOT NULL,
    score_c INTEGER NOT NULL,
    score_o INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished_at REAL NOT NULL
);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, player_id)
) WITHOUT ROWID;

CREATE TABLE rating_history (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    match_id INTEGER NOT NULL REFERENCES finished_matches (match_id),
    before REAL,
    after REAL NOT NULL,
    at REAL NOT NULL,
    UNIQUE (match_id, player_id)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, player_id, id);
CREATE TRIGGER rating_history_no_update BEFORE UPDATE ON rating_history
BEGIN
    SELECT RAISE(ABORT, 'rating history is append-only');
END;
"""


@dataclass(frozen=True)
class Migration:
    number: int
    summary: str
    sql: str


MIGRATIONS = (
    Migration(1, "guild settings, players, matches, action log, snapshots", FIRST_SCHEMA),
    Migration(2, "finished matches, ladder ratings, rating history", RESULTS_AND_LADDERS),
)
LATEST = MIGRATIONS[-1].number


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, upto: int = LATEST) -> list[int]:
    """Apply every migration after the database's version, up to ``upto``, each in its own
    transaction (taken with the write lock, so two processes never apply one twice).
    ``conn`` must be in autocommit mode (``isolation_level=None``). Returns those applied."""
    found = schema_version(conn)
    if found > LATEST:
        raise SchemaTooNew(found, LATEST)
    applied = []
    for migration in MIGRATIONS:
        if migration.number > upto:
            break
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn) < migration.number:
                for statement in statements(migration.sql):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {migration.number}")
                applied.append(migration.number)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return applied


def statements(script: str) -> list[str]:
    """Split a script into whole statements (a trigger body holds semicolons of its own)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in a migration: {buffer.strip()[:60]}")
    return out
