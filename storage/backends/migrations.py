"""The schema, as numbered migrations. A released migration is never edited: changes are new
migrations appended to ``MIGRATIONS``. ``PRAGMA user_version`` holds the number applied last.

Sides are stored as "C" / "O". Times are Unix seconds (REAL). Columns marked PRIVATE hold
hidden information (R40-R44) and are read only by the loader and by per-player reads.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from ..competitions.names import keyed
from ..errors import SchemaTooNew
from .postgres import Migration as PostgresMigration
from .postgres import translate

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


MATCH_SERVICE = """
-- A match the service ended without a result (aborted before the first round was complete,
-- or cancelled by an admin): it is no longer active and is never rated.
ALTER TABLE matches ADD COLUMN closed TEXT CHECK (closed IN ('aborted', 'cancelled'));

-- The match service's life of a match in a channel, from the challenge to its end. At most
-- one is live (not ended) per channel. Every column is public.
CREATE TABLE hosted_matches (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    issuer_id INTEGER NOT NULL REFERENCES players (user_id),
    invitee_id INTEGER REFERENCES players (user_id),  -- NULL: an open challenge
    terms TEXT NOT NULL,  -- JSON, the service's match terms
    phase TEXT NOT NULL CHECK (phase IN ('challenge', 'setup', 'playing', 'ended')),
    ending TEXT,  -- how it ended, once phase is 'ended'
    challenger_id INTEGER REFERENCES players (user_id),  -- both set once accepted
    opposition_id INTEGER REFERENCES players (user_id),
    match_id INTEGER UNIQUE REFERENCES matches (id),  -- set once the game has started
    ready TEXT NOT NULL DEFAULT '',  -- sides whose setup is complete: '', 'C', 'O' or 'CO'
    due_at REAL,  -- challenge expiry, setup deadline or turn deadline; NULL while paused
    remind_at REAL,  -- the reminder before due_at; NULL once sent
    paused_left REAL,  -- while paused: seconds that were left on the turn clock
    offers TEXT NOT NULL DEFAULT '{}',  -- JSON: pending proposals (draw, reset, pause) by side
    missed_c INTEGER NOT NULL DEFAULT 0,  -- consecutive turns missed without any action
    missed_o INTEGER NOT NULL DEFAULT 0,
    acted INTEGER NOT NULL DEFAULT 0 CHECK (acted IN (0, 1)),  -- in the running turn
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX hosted_live_per_channel ON hosted_matches (channel_id)
    WHERE phase != 'ended';
CREATE INDEX hosted_live ON hosted_matches (phase) WHERE phase != 'ended';

-- PRIVATE: each player's choices in the setup phase (strategy, Ruler, Assassin square or
-- 'none'), secret until the game starts; the Assassin square stays secret (R41) and moves to
-- match_secrets then. Rows are deleted when the game starts or the setup ends.
CREATE TABLE setup_choices (
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    strategy TEXT,
    ruler TEXT,
    assassin TEXT,
    PRIMARY KEY (hosted_id, side)
) WITHOUT ROWID;

-- The transactional outbox: posts and private messages, written in the same transaction as
-- the change they announce, deleted once delivered. A row with a user_id is PRIVATE to that
-- user (a player's own board may show their hidden Assassin).
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: it keys the delivery
    hosted_id INTEGER REFERENCES hosted_matches (id),
    channel_id INTEGER NOT NULL,  -- where a post goes; for a private message, its fallback
    user_id INTEGER,  -- NULL: a public post; else a private message to this user
    text TEXT NOT NULL,
    mentions TEXT NOT NULL DEFAULT '',  -- user ids, space-separated
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0,  -- on the service's clock; 0: at once
    fallback INTEGER NOT NULL DEFAULT 0 CHECK (fallback IN (0, 1)),  -- 1 once DMs were closed
    created_at REAL NOT NULL
);

CREATE TABLE outbox_files (
    outbox_id INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (outbox_id, position)
) WITHOUT ROWID;
"""


LADDERS = """
-- Accounts the front end reported as bots: their games are never rated.
CREATE TABLE bot_accounts (
    user_id INTEGER PRIMARY KEY REFERENCES players (user_id)
);

-- One ladder per guild and board size; its seasons, numbered from 1. At most one is open.
-- A closed season keeps its final standings (JSON, best first) and is never written again.
-- revision counts the recomputes (result removals) of the season's ratings.
CREATE TABLE ladder_seasons (
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    number INTEGER NOT NULL CHECK (number >= 1),
    started_at REAL NOT NULL,
    closed_at REAL,
    closed_by INTEGER,
    standings TEXT,
    revision INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, board, number)
) WITHOUT ROWID;
CREATE UNIQUE INDEX ladder_one_open_season ON ladder_seasons (guild_id, board)
    WHERE closed_at IS NULL;

-- One row per rated result (a single game, or a whole series to a point target: R28), in the
-- order they were rated; score is the first player's (1 win, 0.5 draw, 0 loss).
CREATE TABLE ladder_results (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    season INTEGER NOT NULL,
    match_id INTEGER NOT NULL UNIQUE REFERENCES finished_matches (match_id),
    first_id INTEGER NOT NULL REFERENCES players (user_id),
    second_id INTEGER NOT NULL REFERENCES players (user_id),
    score REAL NOT NULL CHECK (score IN (0, 0.5, 1)),
    played_at REAL NOT NULL,
    CHECK (first_id != second_id),
    FOREIGN KEY (guild_id, board, season) REFERENCES ladder_seasons (guild_id, board, number)
);
CREATE INDEX ladder_results_by_season ON ladder_results (guild_id, board, season, id);
CREATE INDEX ladder_results_by_first ON ladder_results (first_id, id);
CREATE INDEX ladder_results_by_second ON ladder_results (second_id, id);
CREATE TRIGGER ladder_results_no_update BEFORE UPDATE ON ladder_results
BEGIN
    SELECT RAISE(ABORT, 'ladder results are never changed: remove one with a reason');
END;
CREATE TRIGGER ladder_results_no_delete BEFORE DELETE ON ladder_results
BEGIN
    SELECT RAISE(ABORT, 'ladder results are never deleted: remove one with a reason');
END;

-- An admin took a result off the ladder: it no longer counts, and the season is recomputed.
CREATE TABLE ladder_removals (
    result_id INTEGER PRIMARY KEY REFERENCES ladder_results (id),
    removed_by INTEGER NOT NULL,
    reason TEXT NOT NULL CHECK (length(reason) > 0),
    removed_at REAL NOT NULL
);

-- The current ratings of a season, rewritten when the season is recomputed. streak: wins in
-- a row (> 0), losses in a row (< 0), 0 after a draw.
CREATE TABLE ladder_ratings (
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    season INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    last_played REAL NOT NULL,
    streak INTEGER NOT NULL,
    PRIMARY KEY (guild_id, board, season, player_id)
) WITHOUT ROWID;
CREATE INDEX ladder_ratings_by_rating ON ladder_ratings (guild_id, board, season, rating DESC);

-- Append-only: each player's rating after each rated result. A recompute appends the whole
-- season again under the season's next revision; reads take the season's current revision.
CREATE TABLE ladder_history (
    id INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL REFERENCES ladder_results (id),
    revision INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    change REAL NOT NULL,
    UNIQUE (result_id, revision, player_id)
);
CREATE INDEX ladder_history_by_player ON ladder_history (player_id, revision, result_id);
CREATE TRIGGER ladder_history_no_update BEFORE UPDATE ON ladder_history
BEGIN
    SELECT RAISE(ABORT, 'ladder history is append-only');
END;
CREATE TRIGGER ladder_history_no_delete BEFORE DELETE ON ladder_history
BEGIN
    SELECT RAISE(ABORT, 'ladder history is append-only');
END;

-- The matchmaking queue: who waits for a rated opponent, per guild and board size.
CREATE TABLE ladder_queue (
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    channel_id INTEGER NOT NULL,
    joined_at REAL NOT NULL,
    PRIMARY KEY (guild_id, board, player_id)
) WITHOUT ROWID;
"""


TOURNAMENTS = """
-- Tournaments by chapter 10 of the rule book (bot/tournament): a knockout in tiers of
-- four-game matches, per guild and board size. Every column is public.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,  -- where it was created: its posts, and its matches' threads
    name TEXT NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    target INTEGER NOT NULL,  -- Game Points that win a match (181-240 long, 49-64 short)
    turn_seconds REAL NOT NULL,  -- the turn deadline of its games
    organiser_id INTEGER NOT NULL REFERENCES players (user_id),
    status TEXT NOT NULL
        CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    tier INTEGER NOT NULL DEFAULT 0,  -- the tier being played, 0 before the start
    champion_id INTEGER REFERENCES players (user_id),
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL
);
CREATE UNIQUE INDEX tournaments_by_name ON tournaments (guild_id, name COLLATE NOCASE);

-- Who registered: players, and substitutes (who only ever play a player left without an
-- opponent: chapter 10, "Cheating and Substitute Players"). rank: the Current Rank then.
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rank INTEGER NOT NULL CHECK (rank >= 1),
    substitute INTEGER NOT NULL DEFAULT 0 CHECK (substitute IN (0, 1)),
    registered_at REAL NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
) WITHOUT ROWID;

-- The pairings of each tier: a four-game match, first and second seat (the first is the
-- Challenger of the odd games), both Current Ranks when paired; substitute = 1 when the
-- second is a substitute. The winner and Game Points are set once, when it is decided.
CREATE TABLE tournament_matches (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    tier INTEGER NOT NULL CHECK (tier >= 1),
    position INTEGER NOT NULL,
    first_id INTEGER NOT NULL REFERENCES players (user_id),
    second_id INTEGER NOT NULL REFERENCES players (user_id),
    first_rank INTEGER NOT NULL,
    second_rank INTEGER NOT NULL,
    substitute INTEGER NOT NULL DEFAULT 0 CHECK (substitute IN (0, 1)),
    thread_id INTEGER,  -- the thread its games are played in, once opened
    winner_id INTEGER REFERENCES players (user_id),
    first_points INTEGER,
    second_points INTEGER,
    decided_by TEXT,  -- 'game points', 'record' or 'tie-breaker'
    finished_at REAL,
    CHECK (first_id != second_id),
    UNIQUE (tournament_id, tier, position)
);

-- The games of a match, each a hosted match of the service: 1-4, then tie-breakers. A game
-- that ended without a result (aborted, cancelled) is 'void' and played again under the same
-- number. Captures are JSON counts of the enemy pieces each seat scored (R27).
CREATE TABLE tournament_games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES tournament_matches (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    hosted_id INTEGER NOT NULL UNIQUE REFERENCES hosted_matches (id),
    state TEXT NOT NULL CHECK (state IN ('open', 'scored', 'void')),
    ending TEXT,
    winner_seat INTEGER CHECK (winner_seat IN (0, 1)),
    first_captures TEXT,
    second_captures TEXT,
    scored_at REAL
);
CREATE UNIQUE INDEX tournament_games_one_open ON tournament_games (match_id)
    WHERE state = 'open';

-- Tournament ranks per guild and board size, never mixed with the ladders' ratings: the
-- Current Rank and a pending Transitional Rank with what the player played like since.
CREATE TABLE tournament_ranks (
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rank INTEGER NOT NULL CHECK (rank >= 1),
    transition_rank INTEGER,
    played_like TEXT NOT NULL DEFAULT '',  -- ranks, space-separated
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, board, player_id)
) WITHOUT ROWID;

-- Append-only: each player's rank after each of their tournament matches.
CREATE TABLE tournament_rank_history (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    match_id INTEGER NOT NULL REFERENCES tournament_matches (id),
    rank_before INTEGER NOT NULL,
    rank_after INTEGER NOT NULL,
    transition_rank INTEGER,
    played_like TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL,
    UNIQUE (match_id, player_id)
);
CREATE INDEX tournament_rank_history_by_player
    ON tournament_rank_history (guild_id, board, player_id, id);
CREATE TRIGGER tournament_rank_history_no_update BEFORE UPDATE ON tournament_rank_history
BEGIN
    SELECT RAISE(ABORT, 'rank history is append-only');
END;
CREATE TRIGGER tournament_rank_history_no_delete BEFORE DELETE ON tournament_rank_history
BEGIN
    SELECT RAISE(ABORT, 'rank history is append-only');
END;
"""


HOSTILE_USERS = """
-- Two more kinds of log entries: a forfeit (missed turns), and the discarding of a turn that
-- never ended (its staged actions, before a resignation, an agreed draw or an abort). SQLite
-- cannot change a CHECK constraint, so the log is copied into a table that allows them
-- (dropping a table fires no trigger).
CREATE TABLE actions_6 (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    kind TEXT NOT NULL CHECK (kind IN (
        'act', 'undo', 'take_back', 'end', 'deadline', 'resign', 'draw', 'reset', 'forfeit',
        'discard'
    )),
    arg TEXT NOT NULL DEFAULT '',
    public TEXT NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
INSERT INTO actions_6 (match_id, seq, turn, side, kind, arg, public, hidden, at)
    SELECT match_id, seq, turn, side, kind, arg, public, hidden, at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_6 RENAME TO actions;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- The public turn number of a hosted match's game (finished turns + 1; 0 before it starts):
-- what a button is for, so that a front end can tell which buttons have stopped applying.
ALTER TABLE hosted_matches ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;

-- Messages a front end sent with buttons, until their buttons stop applying (then it
-- disables them): the match, the buttons' verbs (space-separated) and the turn they are for.
CREATE TABLE button_messages (
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    verbs TEXT NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (channel_id, message_id)
) WITHOUT ROWID;
CREATE INDEX button_messages_by_match ON button_messages (hosted_id);

-- The buttons a post or private message carries, as the match service wrote them (JSON:
-- verbs and the public turn they are for; the match is the row's hosted_id). '' for none.
ALTER TABLE outbox ADD COLUMN buttons TEXT NOT NULL DEFAULT '';

-- How many pieces of a fallback message (shown in the match's channel to its user alone,
-- when their DMs are closed) Discord has already shown: a retry or a restart never shows
-- them again (such messages cannot carry an idempotency key).
ALTER TABLE outbox ADD COLUMN shown INTEGER NOT NULL DEFAULT 0;

-- Ladder pairings taken off the queue whose match is not open yet. Written in the same
-- transaction as the dequeue and deleted once the match is open, so a crash in between
-- leaves the pairing here for the start-up catch-up to open: nobody is dropped silently.
CREATE TABLE ladder_pairings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    board TEXT NOT NULL CHECK (board IN ('short', 'long')),
    channel_id INTEGER NOT NULL,  -- where the longer waiter joined the queue
    first_id INTEGER NOT NULL REFERENCES players (user_id),
    second_id INTEGER NOT NULL REFERENCES players (user_id),
    gap REAL NOT NULL,
    first_rating REAL NOT NULL,
    second_rating REAL NOT NULL,
    thread_id INTEGER,  -- the thread opened for its match, once there is one
    created_at REAL NOT NULL
);
"""

SEVERAL_GAMES = """
-- Which game a match is of (rules.registry's ids). Every match stored before there were
-- several games is TORA's. TORA's options keep their shape; another game's options are
-- {"options": {...}, "answers": [{...}, {...}]} (storage.matches.games).
ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'tora';
"""

SETUP_ANSWERS = """
-- PRIVATE like the rest of the row: a player's answers to their game's setup questions
-- (Torii's Spirit), JSON by question name; TORA's keep their own columns.
ALTER TABLE setup_choices ADD COLUMN answers TEXT NOT NULL DEFAULT '{}';
"""

# The ladders are per TORA board and per other game (migration 7), then also per AI ladder
# (migration 9: rated games against the host's AI players, never mixed with human ratings):
# their CHECK constraints on ``board`` widen (see ``widen_ladder_boards``).
GAME_LADDERS = ("short", "long", "torishogi", "torii")
AI_LADDERS = tuple(f"ai-{board}" for board in GAME_LADDERS)
LADDER_BOARDS = GAME_LADDERS + AI_LADDERS
LADDER_TABLES = (
    "ladder_seasons",
    "ladder_results",
    "ladder_ratings",
    "ladder_queue",
    "ladder_pairings",
)

# Migration 9: the host's AI players are players with negative ids (Discord's are positive),
# one per strength; a rated match with one is rated on the AI ladder of its board.
AI_PLAYERS = """
-- No table of its own: the ladder tables' board CHECKs widen (the step after this script).
"""


SHARED_WORK = """
-- Several bot processes on one database (docs/DEPLOY.md). A process claims a hosted match's
-- due clock for a while (a lease) before it handles it, so that each fires in one process;
-- the claim of a process that died runs out and another takes over.
ALTER TABLE hosted_matches ADD COLUMN claimed_by TEXT;
ALTER TABLE hosted_matches ADD COLUMN claimed_until REAL;

-- Work that one process does for all at a time (delivering one destination's posts in
-- order, the ladders' matchmaking, a tournament's steps): whoever holds its lease, until it
-- runs out.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL
) WITHOUT ROWID;

-- Discord interactions a process has taken: one delivered twice has one effect. Kept a day.
CREATE TABLE interactions (
    id INTEGER PRIMARY KEY,
    seen_at REAL NOT NULL
);
CREATE INDEX interactions_by_age ON interactions (seen_at);
"""


AI_MATCHES_PER_SERVER = """
-- A server's admins cap how many matches against the AI may be live there at once (the
-- guild_settings row 'ai_matches', a setting like the others); each challenge to the AI
-- counts the server's live ones (an AI player's id is negative) on this index.
CREATE INDEX hosted_live_ai ON hosted_matches (guild_id)
    WHERE phase != 'ended' AND (challenger_id < 0 OR opposition_id < 0);
"""


# Migration 12: every game's options and setup answers are stored one way
# (``storage.matches.games``): TORA's match rows move from the fields of its rules' options
# to the checked options and each side's answers, its Assassin squares to the secret
# answers, the setup choices' TORA columns into their answers, and the hosted matches'
# terms hold a game's options as one mapping (``bot.service.Terms.options``).
ONE_WAY_SUMMARY = "every game's options and setup answers stored one way"
ONE_WAY = """
-- PRIVATE: each side's secret setup answers (SetupQuestion.secret: TORA's Assassin start
-- square or 'none', R41), one row per question.
CREATE TABLE match_secrets_by_question (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (match_id, side, question)
) WITHOUT ROWID;
INSERT INTO match_secrets_by_question (match_id, side, question, answer)
    SELECT match_id, side, 'assassin', assassin_start FROM match_secrets;
DROP TABLE match_secrets;
ALTER TABLE match_secrets_by_question RENAME TO match_secrets;

-- TORA's options: the checked options (a custom terrain is the terrain 'custom' with its
-- map) and each side's answers; a field an old row leaves out has its default.
UPDATE matches SET options = json_object(
    'options', json_object(
        'assassins',
        json(CASE WHEN json_extract(options, '$.assassins') THEN 'true' ELSE 'false' END),
        'board', coalesce(json_extract(options, '$.board'), 'short'),
        'target', coalesce(json_extract(options, '$.target'), 0),
        'terrain', CASE WHEN coalesce(json_extract(options, '$.terrain_map'), '') != ''
            THEN 'custom' ELSE coalesce(json_extract(options, '$.terrain'), 'none') END,
        'terrain_map', coalesce(json_extract(options, '$.terrain_map'), '')
    ),
    'answers', json_array(
        json_object(
            'ruler', coalesce(json_extract(options, '$.rulers[0]'), 'K'),
            'strategy', coalesce(json_extract(options, '$.challenger_setup'), 'aggressive')
        ),
        json_object(
            'ruler', coalesce(json_extract(options, '$.rulers[1]'), 'K'),
            'strategy', coalesce(json_extract(options, '$.opposition_setup'), 'aggressive')
        )
    )
) WHERE game = 'tora';

-- A side that fielded no Assassin in a match with Assassins answered 'none': kept as
-- secret as a square (whether it fielded one is hidden too).
INSERT INTO match_secrets (match_id, side, question, answer)
    SELECT m.id, s.side, 'assassin', 'none'
    FROM matches m CROSS JOIN (SELECT 'C' AS side UNION ALL SELECT 'O' AS side) s
    WHERE m.game = 'tora' AND json_extract(m.options, '$.options.assassins')
    AND NOT EXISTS (
        SELECT 1 FROM match_secrets x
        WHERE x.match_id = m.id AND x.side = s.side AND x.question = 'assassin'
    );

-- The setup choices: TORA's answers join the others' (a patch's nulls add nothing).
UPDATE setup_choices SET answers = json_patch(
    answers, json_object('strategy', strategy, 'ruler', ruler, 'assassin', assassin)
);
ALTER TABLE setup_choices DROP COLUMN strategy;
ALTER TABLE setup_choices DROP COLUMN ruler;
ALTER TABLE setup_choices DROP COLUMN assassin;

-- The hosted matches' terms: the game's options as one mapping, holding those given (an
-- option stored at its unset value was not given); the rest of the terms as they were.
UPDATE hosted_matches SET terms = json_set(
    json_remove(
        terms, '$.board', '$.terrain', '$.terrain_map', '$.assassins', '$.target', '$.powers'
    ),
    '$.options',
    json_patch('{}', json_object(
        'board', CASE WHEN json_extract(terms, '$.board') != 'short'
            THEN json_extract(terms, '$.board') END,
        'terrain', CASE WHEN json_extract(terms, '$.terrain') != 'none'
            THEN json_extract(terms, '$.terrain') END,
        'terrain_map', CASE WHEN json_extract(terms, '$.terrain_map') != ''
            THEN json_extract(terms, '$.terrain_map') END,
        'assassins', CASE WHEN json_type(terms, '$.assassins') = 'true' THEN json('true') END,
        'target', CASE WHEN json_extract(terms, '$.target') != 0
            THEN json_extract(terms, '$.target') END,
        'powers', CASE WHEN json_type(terms, '$.powers') IN ('true', 'false')
            THEN json(json_type(terms, '$.powers')) END
    ))
) WHERE json_type(terms, '$.options') IS NULL;
"""
ONE_WAY_POSTGRES = """
ALTER TABLE match_secrets ADD COLUMN question TEXT;
ALTER TABLE match_secrets ADD COLUMN answer TEXT;
UPDATE match_secrets SET question = 'assassin', answer = assassin_start;
ALTER TABLE match_secrets ALTER COLUMN question SET NOT NULL;
ALTER TABLE match_secrets ALTER COLUMN answer SET NOT NULL;
ALTER TABLE match_secrets DROP CONSTRAINT match_secrets_pkey;
ALTER TABLE match_secrets DROP COLUMN assassin_start;
ALTER TABLE match_secrets ADD PRIMARY KEY (match_id, side, question);

UPDATE matches AS m SET options = jsonb_build_object(
    'options', jsonb_build_object(
        'assassins', coalesce(j.o -> 'assassins', 'false'),
        'board', coalesce(j.o -> 'board', '"short"'),
        'target', coalesce(j.o -> 'target', '0'),
        'terrain', CASE WHEN coalesce(j.o ->> 'terrain_map', '') <> ''
            THEN '"custom"' ELSE coalesce(j.o -> 'terrain', '"none"') END,
        'terrain_map', coalesce(j.o -> 'terrain_map', '""')
    ),
    'answers', jsonb_build_array(
        jsonb_build_object(
            'ruler', coalesce(j.o -> 'rulers' -> 0, '"K"'),
            'strategy', coalesce(j.o -> 'challenger_setup', '"aggressive"')
        ),
        jsonb_build_object(
            'ruler', coalesce(j.o -> 'rulers' -> 1, '"K"'),
            'strategy', coalesce(j.o -> 'opposition_setup', '"aggressive"')
        )
    )
)::text
FROM (SELECT id, options::jsonb AS o FROM matches WHERE game = 'tora') AS j
WHERE m.id = j.id;

INSERT INTO match_secrets (match_id, side, question, answer)
    SELECT m.id, s.side, 'assassin', 'none'
    FROM matches m CROSS JOIN (VALUES ('C'), ('O')) AS s (side)
    WHERE m.game = 'tora' AND (m.options::jsonb -> 'options' ->> 'assassins')::boolean
    AND NOT EXISTS (
        SELECT 1 FROM match_secrets x
        WHERE x.match_id = m.id AND x.side = s.side AND x.question = 'assassin'
    );

UPDATE setup_choices SET answers = (
    answers::jsonb
    || jsonb_strip_nulls(
        jsonb_build_object('strategy', strategy, 'ruler', ruler, 'assassin', assassin)
    )
)::text;
ALTER TABLE setup_choices DROP COLUMN strategy;
ALTER TABLE setup_choices DROP COLUMN ruler;
ALTER TABLE setup_choices DROP COLUMN assassin;

UPDATE hosted_matches AS h SET terms = (
    (j.t - 'board' - 'terrain' - 'terrain_map' - 'assassins' - 'target' - 'powers')
    || jsonb_build_object('options', jsonb_strip_nulls(jsonb_build_object(
        'board', CASE WHEN j.t ->> 'board' <> 'short' THEN j.t -> 'board' END,
        'terrain', CASE WHEN j.t ->> 'terrain' <> 'none' THEN j.t -> 'terrain' END,
        'terrain_map', CASE WHEN j.t ->> 'terrain_map' <> '' THEN j.t -> 'terrain_map' END,
        'assassins', CASE WHEN j.t -> 'assassins' = 'true'::jsonb THEN j.t -> 'assassins' END,
        'target', CASE WHEN j.t -> 'target' <> '0'::jsonb THEN j.t -> 'target' END,
        'powers', CASE WHEN jsonb_typeof(j.t -> 'powers') = 'boolean' THEN j.t -> 'powers' END
    )))
)::text
FROM (SELECT id, terms::jsonb AS t FROM hosted_matches) AS j
WHERE h.id = j.id AND NOT (j.t ? 'options');
"""

# Migration 13: the ladders are the games' own (each game type declares its ladders,
# ``rules.registry``) and are checked in code, so a new game needs no migration: the ladder
# tables' board columns lose their CHECK (SQLite: ``drop_ladder_board_checks``).
LADDERS_SUMMARY = "ladders checked in code, not listed in the schema"
LADDERS_IN_CODE = """
-- No table of its own: the ladder tables' board CHECKs are dropped (the step after this script).
"""
LADDERS_IN_CODE_POSTGRES = "\n".join(
    f"ALTER TABLE {table} DROP CONSTRAINT {table}_board_check;" for table in LADDER_TABLES
)


def _board_check(boards: tuple[str, ...]) -> str:
    return "CHECK (board IN (" + ", ".join(f"'{board}'" for board in boards) + "))"


def widen_ladder_boards(
    before: tuple[str, ...], after: tuple[str, ...]
) -> Callable[[sqlite3.Connection], None]:
    """A step that lets the ladder tables hold the ladders ``after`` where they held
    ``before``. SQLite cannot alter a CHECK constraint; widening one keeps every stored row
    valid, so the table's stored definition is edited in place (the procedure of SQLite's
    ALTER TABLE documentation for loosening constraints: edit sqlite_master, bump the schema
    version, check integrity)."""

    def widen(conn: sqlite3.Connection) -> None:
        _edit_ladder_tables(conn, _board_check(before), _board_check(after))

    return widen


def _edit_ladder_tables(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the stored definitions of the ladder tables: only to
    loosen a constraint, which keeps every stored row valid."""
    _edit_tables(conn, LADDER_TABLES, old, new)


def _edit_tables(conn: sqlite3.Connection, tables: tuple[str, ...], old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the stored definitions of ``tables``: only to loosen a
    constraint, which keeps every stored row valid."""
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    conn.execute("PRAGMA writable_schema = ON")
    try:
        marks = ", ".join("?" for _ in tables)
        conn.execute(
            f"UPDATE sqlite_master SET sql = replace(sql, ?, ?)"
            f" WHERE type = 'table' AND name IN ({marks})",
            (old, new, *tables),
        )
        conn.execute(f"PRAGMA schema_version = {version + 1}")
    finally:
        conn.execute("PRAGMA writable_schema = OFF")
    problems = conn.execute("PRAGMA quick_check").fetchall()
    if problems != [("ok",)]:
        raise RuntimeError(f"the tables {', '.join(tables)} did not change cleanly: {problems[:3]}")


def drop_ladder_board_checks(conn: sqlite3.Connection) -> None:
    """Migration 13's step: the ladder tables' ``board`` columns lose their CHECK (the list
    of ladders migration 9 left), edited in place as ``widen_ladder_boards`` does: dropping a
    CHECK keeps every stored row valid."""
    _edit_ladder_tables(conn, " " + _board_check(LADDER_BOARDS), "")
    marks = ", ".join("?" for _ in LADDER_TABLES)
    left = conn.execute(
        f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({marks})"
        " AND sql LIKE '%CHECK (board IN%'",
        LADDER_TABLES,
    ).fetchall()
    if left:
        raise RuntimeError(f"a ladder table still checks its board: {left[0][0]}")


WEB_LINKS = """
-- The web board's private links: each names a hosted match, a side and a generation, the
-- first (1) while the side has no row here. A player asking for a new link moves the
-- generation on, and the links of older generations refuse.
CREATE TABLE web_links (
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    generation INTEGER NOT NULL CHECK (generation >= 1),
    PRIMARY KEY (hosted_id, side)
) WITHOUT ROWID;

-- PRIVATE: the key the links are signed with where TORA_WEB_SECRET is not set, made at first
-- use and shared by every process on the database. One row.
CREATE TABLE web_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
"""
WEB_LINKS_SUMMARY = "the web board's links: their generations and the kept secret"

LOG_KINDS_6 = "'forfeit',\n        'discard'"  # how migration 6's CHECK on the log's kinds ends
LOG_KINDS_16 = LOG_KINDS_6 + ", 'rewind'"


def allow_rewinds(conn: sqlite3.Connection) -> None:
    """Migration 16's step: the log takes a rewind (a finished turn taken back by agreement),
    its CHECK loosened in place as the ladder tables' were."""
    _edit_tables(conn, ("actions",), LOG_KINDS_6, LOG_KINDS_16)
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()
    if "'rewind'" not in sql:
        raise RuntimeError("the log's kinds did not widen")


CORRESPONDENCE = """
-- Each player's own time on a bank or increment clock (the service's terms say which): the
-- bank's reserve, or the increment clock's allowance, as it stood when the running turn
-- began; NULL on a fixed time per turn and before the game starts. (The step after this
-- lets the log hold a 'rewind', ``allow_rewinds``.)
ALTER TABLE hosted_matches ADD COLUMN clock_c REAL;
ALTER TABLE hosted_matches ADD COLUMN clock_o REAL;
"""
# Tables of migration 16 written once for both backends.
CORRESPONDENCE_TABLES = """
-- A player's own settings (their time zone, notifications...): text the bot interprets.
CREATE TABLE player_settings (
    user_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;

-- A player's time away in a server, from starts_at to ends_at (moved earlier when they come
-- back early); automatic: given by the bot before a missed turn. Their clocks stop then.
CREATE TABLE away_days (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES players (user_id),
    starts_at REAL NOT NULL,
    ends_at REAL NOT NULL,
    automatic INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
    PRIMARY KEY (guild_id, user_id, starts_at)
) WITHOUT ROWID;
CREATE INDEX away_days_ending ON away_days (guild_id, ends_at);

-- PRIVATE: a player's planned replies (conditional moves) in a live hosted match, each a
-- line of (the opponent's turn, the reply) pairs as JSON, in their own words of the game;
-- read only by that side and the match service, deleted when the match ends.
CREATE TABLE plans (
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    number INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (hosted_id, side, number)
) WITHOUT ROWID;
"""
CORRESPONDENCE_SUMMARY = (
    "correspondence: each player's bank or allowance, turns taken back, players' settings, "
    "away days, planned replies"
)
CORRESPONDENCE_POSTGRES = f"""
ALTER TABLE hosted_matches ADD COLUMN clock_c DOUBLE PRECISION;
ALTER TABLE hosted_matches ADD COLUMN clock_o DOUBLE PRECISION;
ALTER TABLE actions DROP CONSTRAINT actions_kind_check;
ALTER TABLE actions ADD CONSTRAINT actions_kind_check CHECK (kind IN (
        'act', 'undo', 'take_back', 'end', 'deadline', 'resign', 'draw', 'reset', {LOG_KINDS_16}
    ));
"""


# Migration 17 (issue 27): the reply a player is planning from the Play panel or the web
# board, when each player last looked at their board, and whether a tournament's games
# give away days. Written once for both backends.
PLANNING = """
-- PRIVATE: the planned reply a player is putting together (their opponent's expected turn,
-- then their answer), JSON; of the public turn ``turn`` only (a later turn makes it stale).
-- Deleted when saved as a plan, and with the match's end.
CREATE TABLE plan_drafts (
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    turn INTEGER NOT NULL,
    draft TEXT NOT NULL,
    PRIMARY KEY (hosted_id, side)
) WITHOUT ROWID;

-- The last public turn in which each player looked at their board or staged an action: no
-- reminder for that turn (kept so that a restart does not remind them). Deleted with the
-- match's end.
CREATE TABLE board_looks (
    hosted_id INTEGER NOT NULL REFERENCES hosted_matches (id),
    side TEXT NOT NULL CHECK (side IN ('C', 'O')),
    turn INTEGER NOT NULL,
    PRIMARY KEY (hosted_id, side)
) WITHOUT ROWID;

-- Whether the players' away days stop the clocks of the event's games (as the organiser
-- chose at creation; 1 for the events made before).
ALTER TABLE events ADD COLUMN away_days INTEGER NOT NULL DEFAULT 1
    CHECK (away_days IN (0, 1));
ALTER TABLE tournaments ADD COLUMN away_days INTEGER NOT NULL DEFAULT 1
    CHECK (away_days IN (0, 1));
"""
PLANNING_SUMMARY = "planned replies being made, boards looked at, tournaments' away days"

# Migration 20: a player's matches (``/tora games``, the Activity, the caller's last match)
# are found by the columns naming them, where each read scanned every hosted match ever made.
PLAYERS_MATCHES_SUMMARY = "hosted matches found by their players"
PLAYERS_MATCHES = """
CREATE INDEX hosted_by_issuer ON hosted_matches (issuer_id);
CREATE INDEX hosted_by_invitee ON hosted_matches (invitee_id);
CREATE INDEX hosted_by_challenger ON hosted_matches (challenger_id);
CREATE INDEX hosted_by_opposition ON hosted_matches (opposition_id);
"""

# Migration 18: the messages a front end showed an event's Join and Leave buttons in, so that
# it can disable each once it stops applying (after a restart too).
EVENT_BUTTONS_SUMMARY = "messages with an event's Join and Leave buttons"
EVENT_BUTTONS = """
-- A message showing an event's buttons (its announcement), and the verbs of those still
-- enabled on it (space-separated); deleted once none is.
CREATE TABLE event_buttons (
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    event_id INTEGER NOT NULL REFERENCES events (id),
    verbs TEXT NOT NULL,
    PRIMARY KEY (channel_id, message_id)
) WITHOUT ROWID;
CREATE INDEX event_buttons_by_event ON event_buttons (event_id);
"""

# Migration 15: Swiss and round robin tournaments of every game (bot/tournament/events.py),
# beside chapter 10's (migration 5). Every column is public.
EVENTS_SUMMARY = "Swiss and round robin tournaments: entries, pairings, seats, log"
EVENTS = """
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,  -- where it was created: its posts, and its games' threads
    name TEXT NOT NULL,
    game TEXT NOT NULL,  -- the registry's game; checked in code
    options TEXT NOT NULL,  -- that game's options, JSON
    format TEXT NOT NULL CHECK (format IN ('swiss', 'round-robin', 'double-round-robin')),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    turn_seconds REAL NOT NULL,  -- the turn deadline of its games
    round_seconds REAL NOT NULL,  -- how long a round may last before it is adjudicated
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),  -- its games count on the game's ladder
    bye_points INTEGER NOT NULL CHECK (bye_points IN (0, 1, 2)),  -- half points
    tiebreaks TEXT NOT NULL,  -- comma-separated, in order
    max_players INTEGER NOT NULL CHECK (max_players >= 2),
    ai_fill TEXT,  -- the AI level that may fill an odd slot; NULL: a bye instead
    organiser_id INTEGER NOT NULL REFERENCES players (user_id),
    status TEXT NOT NULL
        CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    round INTEGER NOT NULL DEFAULT 0,  -- the last round paired, 0 before the start
    round_deadline REAL,  -- when the current round is adjudicated
    entry_closes REAL,  -- no entries after (NULL: open until the start)
    starts_at REAL,  -- it starts by itself then (NULL: the organiser starts it)
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL
);
CREATE INDEX events_by_status ON events (status);

-- rating seeds the Swiss; joined_round > 1 for a late entry; left_round: withdrawn, not
-- paired from that round on.
CREATE TABLE event_entries (
    event_id INTEGER NOT NULL REFERENCES events (id),
    player_id INTEGER NOT NULL REFERENCES players (user_id),
    rating INTEGER NOT NULL,
    joined_round INTEGER NOT NULL CHECK (joined_round >= 1),
    left_round INTEGER,
    joined_at REAL NOT NULL,
    PRIMARY KEY (event_id, player_id)
);

-- A round's boards, written all at once with the round (one transaction: a crash pairs a
-- round wholly or not at all). second_id NULL: first_id has the bye. outcome is the first
-- player's (bot/tournament/records.Outcome) once decided; hosted_id once its game is open.
CREATE TABLE event_pairings (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id),
    round INTEGER NOT NULL CHECK (round >= 1),
    board INTEGER NOT NULL CHECK (board >= 1),
    first_id INTEGER NOT NULL REFERENCES players (user_id),
    second_id INTEGER REFERENCES players (user_id),
    thread_id INTEGER,
    hosted_id INTEGER UNIQUE REFERENCES hosted_matches (id),
    outcome TEXT,
    decided_by TEXT,
    decided_at REAL,
    CHECK (first_id != second_id),
    UNIQUE (event_id, round, board)
);
CREATE INDEX event_pairings_by_event ON event_pairings (event_id, round);

-- Each player's seat in a round: nobody is paired twice in one round, whoever pairs it.
CREATE TABLE event_seats (
    event_id INTEGER NOT NULL REFERENCES events (id),
    round INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    pairing_id INTEGER NOT NULL REFERENCES event_pairings (id),
    PRIMARY KEY (event_id, round, player_id)
);

-- Append-only: what organisers and admins did (replacements, adjusted results with their
-- reasons, cancellations), who and when.
CREATE TABLE event_log (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id),
    actor_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    at REAL NOT NULL
);
"""
EVENTS_SQLITE = EVENTS + (
    "CREATE UNIQUE INDEX events_by_name ON events (guild_id, name COLLATE NOCASE);\n"
)


# Migration 19: tournament and event names are unique on a server by a key folded in Python
# (competitions/names.py: words joined by one space, then casefold), the same rule on both
# backends, where SQLite's NOCASE folded ASCII letters only ("Été" and "été" were two names
# there) and PostgreSQL's lower() others than Python's ("Straße", "STRASSE"); every lookup
# reads the key. Names already stored that fold alike do not stop the migration: the oldest
# (by created_at, tournaments and events together, as the desks refuse a name either has)
# keeps its name, each later one gets the first free suffix " (2)", " (3)", ... in its name
# and key, so that players see which is which. The DEFAULT only fills the rows before their
# keys are written (every insert names the key; PostgreSQL drops it after).
NAME_KEYS_SUMMARY = "tournament and event names unique by a key folded as Python does"
NAME_KEYS = """
ALTER TABLE tournaments ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
DROP INDEX tournaments_by_name;
DROP INDEX events_by_name;
"""
NAME_KEY_INDEXES = """
CREATE UNIQUE INDEX tournaments_by_name ON tournaments (guild_id, name_key);
CREATE UNIQUE INDEX events_by_name ON events (guild_id, name_key);
"""
NAME_KEYS_POSTGRES_DEFAULTS = """
ALTER TABLE tournaments ALTER COLUMN name_key DROP DEFAULT;
ALTER TABLE events ALTER COLUMN name_key DROP DEFAULT;
"""
NAMES_BY_AGE = (
    "SELECT created_at, 'tournaments', id, guild_id, name FROM tournaments UNION ALL"
    " SELECT created_at, 'events', id, guild_id, name FROM events ORDER BY 1, 2, 3"
)
RENAMED = "UPDATE {table} SET name = ?, name_key = ? WHERE id = ?"  # tournaments or events


def _renamed(rows: Iterable[Sequence[Any]]) -> dict[str, list[tuple[str, str, int]]]:
    """Per table, the (name, key, id) of every row, from the rows of ``NAMES_BY_AGE``."""
    found: dict[str, list[tuple[str, str, int]]] = {"tournaments": [], "events": []}
    for table, row_id, name, key in keyed((r[1], r[2], r[3], r[4]) for r in rows):
        found[table].append((name, key, row_id))
    return found


def fill_name_keys(conn: sqlite3.Connection) -> None:
    for table, values in _renamed(conn.execute(NAMES_BY_AGE).fetchall()).items():
        conn.executemany(RENAMED.format(table=table), values)
    for statement in statements(NAME_KEY_INDEXES):
        conn.execute(statement)


async def fill_name_keys_postgres(conn: asyncpg.Connection) -> None:
    for table, values in _renamed(await conn.fetch(NAMES_BY_AGE)).items():
        await conn.executemany(translate(RENAMED.format(table=table)), values)
    for statement in statements(NAME_KEY_INDEXES + NAME_KEYS_POSTGRES_DEFAULTS):
        await conn.execute(statement)


@dataclass(frozen=True)
class Migration:
    number: int
    summary: str
    sql: str
    then: Callable[[sqlite3.Connection], None] | None = None  # a step SQL cannot say


# A number may be missing (15 is kept for a migration of other work): each runner applies, in
# order, every migration numbered above the database's version.
MIGRATIONS = (
    Migration(1, "guild settings, players, matches, action log, snapshots", FIRST_SCHEMA),
    Migration(2, "finished matches, ladder ratings, rating history", RESULTS_AND_LADDERS),
    Migration(3, "match service: closed matches, hosted matches, setup, outbox", MATCH_SERVICE),
    Migration(4, "ladders: seasons, results, removals, ratings, history, queue", LADDERS),
    Migration(5, "tournaments: entries, matches, games, ranks, rank history", TOURNAMENTS),
    Migration(
        6,
        "log: forfeits, discarded turns; post buttons, fallback progress, ladder pairings",
        HOSTILE_USERS,
    ),
    Migration(
        7,
        "several games: the game of each match, ladders per game",
        SEVERAL_GAMES,
        widen_ladder_boards(("short", "long"), GAME_LADDERS),
    ),
    Migration(8, "setup answers of every game", SETUP_ANSWERS),
    Migration(9, "AI ladders", AI_PLAYERS, widen_ladder_boards(GAME_LADDERS, LADDER_BOARDS)),
    Migration(10, "several processes: leases of clocks, outbox rows and shared work", SHARED_WORK),
    Migration(11, "a server's cap on its live matches against the AI", AI_MATCHES_PER_SERVER),
    Migration(12, ONE_WAY_SUMMARY, ONE_WAY),
    Migration(13, LADDERS_SUMMARY, LADDERS_IN_CODE, drop_ladder_board_checks),
    Migration(14, WEB_LINKS_SUMMARY, WEB_LINKS),
    Migration(15, EVENTS_SUMMARY, EVENTS_SQLITE),
    Migration(16, CORRESPONDENCE_SUMMARY, CORRESPONDENCE + CORRESPONDENCE_TABLES, allow_rewinds),
    Migration(17, PLANNING_SUMMARY, PLANNING),
    Migration(18, EVENT_BUTTONS_SUMMARY, EVENT_BUTTONS),
    Migration(19, NAME_KEYS_SUMMARY, NAME_KEYS, fill_name_keys),
    Migration(20, PLAYERS_MATCHES_SUMMARY, PLAYERS_MATCHES),
)
LATEST = MIGRATIONS[-1].number


def _postgres(script: str) -> str:
    """A migration's tables in PostgreSQL's types (written for SQLite)."""
    return (
        script.replace(" REAL", " DOUBLE PRECISION")
        .replace(" INTEGER", " BIGINT")
        .replace(" WITHOUT ROWID", "")
    )


EVENTS_POSTGRES = _postgres(EVENTS).replace(
    "id BIGINT PRIMARY KEY", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
) + ("CREATE UNIQUE INDEX events_by_name ON events (guild_id, lower(name));\n")


# PostgreSQL's schema starts at migration 9 (``postgres_schema``); every later
# migration is written for both backends under the same number.
POSTGRES_MIGRATIONS = (
    PostgresMigration(10, MIGRATIONS[9].summary, _postgres(SHARED_WORK)),
    PostgresMigration(11, MIGRATIONS[10].summary, AI_MATCHES_PER_SERVER),
    PostgresMigration(12, ONE_WAY_SUMMARY, ONE_WAY_POSTGRES),
    PostgresMigration(13, LADDERS_SUMMARY, LADDERS_IN_CODE_POSTGRES),
    PostgresMigration(14, WEB_LINKS_SUMMARY, _postgres(WEB_LINKS)),
    PostgresMigration(15, EVENTS_SUMMARY, EVENTS_POSTGRES),
    PostgresMigration(
        16,
        CORRESPONDENCE_SUMMARY,
        _postgres(CORRESPONDENCE_TABLES) + CORRESPONDENCE_POSTGRES,
    ),
    PostgresMigration(17, PLANNING_SUMMARY, _postgres(PLANNING)),
    PostgresMigration(18, EVENT_BUTTONS_SUMMARY, _postgres(EVENT_BUTTONS)),
    PostgresMigration(19, NAME_KEYS_SUMMARY, NAME_KEYS, fill_name_keys_postgres),
    PostgresMigration(20, PLAYERS_MATCHES_SUMMARY, PLAYERS_MATCHES),
)


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
                if migration.then is not None:
                    migration.then(conn)
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
