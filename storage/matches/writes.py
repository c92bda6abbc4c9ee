"""Write jobs: plain functions of the writer's connection, each run by ``Writer.run`` inside a
transaction (so a job that raises leaves no trace)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn, cast

from rules import Side, game_type

from ..backends.sql import (
    Connection,
    PostgresConnection,
    Statement,
    is_postgres,
    keep_identity_ahead,
)
from ..errors import (
    MatchClosed,
    MatchNotFound,
    StaleMatch,
    StorageError,
    UnknownPlayer,
)
from .codec import headers_to_json
from .games import DEFAULT_GAME, Spec, spec_to_json, split
from .log import CLOSING, REWIND, Entry
from .models import ACTIVE, FINISHED, State


@dataclass(frozen=True)
class NewMatch:
    """A match to store: its ``game`` (the id) is made of ``spec``, secret answers included
    (they are kept apart, ``games.split``)."""

    guild_id: int
    channel_id: int | None
    challenger_id: int
    opposition_id: int
    spec: Spec
    headers: dict[str, str] = field(default_factory=dict)  # extra record headers (R50)
    deadline: float | None = None
    game: str = DEFAULT_GAME


@dataclass(frozen=True)
class Finish:
    """A match's result and full record, written once when it ends (public from then, R44)."""

    winner: Side | None
    reason: str
    score: tuple[int, int]
    record: str


@dataclass(frozen=True)
class Append:
    """Entries played on a match read at ``version``, and what they left: ``state``, the
    ``snapshot`` if one is due, ``finish`` once the game is over. All of it is computed
    before the job runs, so the writer thread never touches a live Game."""

    match_id: int
    version: int
    entries: Sequence[Entry]
    state: State
    deadline: float | None
    snapshot: bytes | None = None
    finish: Finish | None = None
    close: str | None = None  # "aborted" or "cancelled": the match ends without a result


@dataclass(frozen=True)
class Saved:
    version: int
    seqs: list[int]  # the new entries' numbers in the match's log
    also: int = 0  # the rows ``append``'s ``also`` statement changed


def snapshot_due(since: int, kinds: Iterable[str], heavy: bool, every: int) -> bool:
    """Snapshot once ``every`` log entries piled up since the last snapshot, and at every turn
    end of a ``heavy`` game (``GameType.heavy``: TORA's long board), where replaying a turn
    end costs the rules core the most; and after a rewind, so that a load never replays one
    from a snapshot older than the game it goes back to."""
    return (
        since >= every
        or (heavy and any(kind in CLOSING for kind in kinds))
        or any(kind == REWIND for kind in kinds)
    )


def insert_match(
    conn: Connection, new: NewMatch, state: State, now: float, number: int | None = None
) -> int:
    """A new match; with ``number`` it takes that id if it is free (a hosted match's game
    takes the hosted match's number, so that players know one number per match)."""
    for user_id in (new.challenger_id, new.opposition_id):
        if conn.execute("SELECT 1 FROM players WHERE user_id = ?", (user_id,)).fetchone() is None:
            raise UnknownPlayer(user_id)
    taken = number is None or (
        conn.execute("SELECT 1 FROM matches WHERE id = ?", (number,)).fetchone() is not None
    )
    public, secrets = split(new.game, new.spec)
    values: tuple[object, ...] = (
        new.guild_id,
        new.channel_id,
        new.challenger_id,
        new.opposition_id,
        spec_to_json(public),
        headers_to_json(new.headers),
        ACTIVE,
        state.side.letter,
        state.round,
        new.deadline,
        now,
        now,
        new.game,
    )
    columns = (
        "guild_id, channel_id, challenger_id, opposition_id, options, headers, status,"
        " side_to_act, round, turn_deadline, created_at, updated_at, game, version, last_seq"
    )
    marks = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0"
    if not taken:  # the given number, else the next free id
        columns, marks, values = f"id, {columns}", f"?, {marks}", (number, *values)
    cursor = conn.execute(f"INSERT INTO matches ({columns}) VALUES ({marks}) RETURNING id", values)
    match_id = int(cursor.fetchone()[0])
    if not taken:
        keep_identity_ahead(conn, "matches", match_id)
    for side, question, answer in secrets:
        conn.execute(
            "INSERT INTO match_secrets (match_id, side, question, answer) VALUES (?, ?, ?, ?)",
            (match_id, side.letter, question, answer),
        )
    return match_id


def append(conn: Connection, request: Append, now: float, also: Statement | None = None) -> Saved:
    """Append entries to a match's log and update its row, only if the match is still at the
    version the caller read and not closed; its snapshot, finished record and closing in the
    same transaction. The row is checked, locked and moved on by one statement (its UPDATE,
    where a concurrent change waits for the lock and then finds the version moved on); it is
    read apart only to say why it was refused. ``also``: a statement of the caller's
    (an UPDATE of another table) run in the same transaction, on PostgreSQL inside the
    move's own statement (one round trip less); how many rows it changed is returned."""
    match_id = request.match_id
    state = request.state
    new_status = FINISHED if state.over else ACTIVE
    new_deadline = None if state.over or request.close else request.deadline
    if is_postgres(conn):
        moved = _moved_with_entries(conn, request, new_status, new_deadline, now, also)
    else:
        moved = _moved(conn, request, new_status, new_deadline, now)
    if moved is None:
        _refusal(conn, request)
    last_seq, game, status, changed = moved
    if request.close is not None and state.over:
        raise StorageError(f"match {match_id} is over, so it cannot be {request.close}")
    if request.close is not None:
        conn.execute("UPDATE matches SET closed = ? WHERE id = ?", (request.close, match_id))
    if request.finish is not None and status == ACTIVE:
        _insert_finished(conn, match_id, request.finish, now)
    if request.snapshot is not None:
        put_snapshot(conn, match_id, last_seq, request.snapshot, now, game)
    if also is not None and not is_postgres(conn):
        changed = conn.execute(*also).rowcount
    added = len(request.entries)
    return Saved(request.version + 1, list(range(last_seq - added + 1, last_seq + 1)), changed)


# The match row moved on, if still at the version read and not closed: the same in both
# dialects, with what each needs set and returned after it.
_MOVE = (
    "UPDATE matches SET version = version + 1, last_seq = last_seq + ?, side_to_act = ?,"
    " round = ?, score_c = ?, score_o = ?, result = ?, updated_at = ?{also}"
    " WHERE id = ? AND version = ? AND closed IS NULL RETURNING {returned}"
)


def move_values(request: Append) -> tuple[object, ...]:
    """What ``_MOVE`` moves the match row on with, but the time: the entries added, the
    side to act, the round, the scores and the result."""
    state = request.state
    return (
        len(request.entries),
        state.side.letter,
        state.round,
        state.score[0],
        state.score[1],
        state.result,
    )


def _moved(
    conn: Connection, request: Append, status: str, deadline: float | None, now: float
) -> tuple[int, str, str, int] | None:
    """SQLite: the row moved on, then its entries written; its indexed columns are written
    apart and only when they change (one page less per commit). (last_seq, game, the
    status before, 0: ``append`` runs its ``also`` apart), or None if the row was not at
    the version read."""
    match_id = request.match_id
    row = conn.execute(
        _MOVE.format(also="", returned="last_seq, game, status, turn_deadline"),
        (*move_values(request), now, match_id, request.version),
    ).fetchone()
    if row is None:
        return None
    last_seq, game, was, was_deadline = row
    first = last_seq - len(request.entries) + 1
    for seq, entry in enumerate(request.entries, first):
        _insert_entry(conn, match_id, seq, entry, now)
    if (status, deadline) != (was, was_deadline):
        conn.execute(
            "UPDATE matches SET status = ?, turn_deadline = ? WHERE id = ?",
            (status, deadline, match_id),
        )
    return last_seq, game, was, 0


# PostgreSQL's: one statement (one round trip) moves the row on, indexed columns included
# (an UPDATE that leaves an index's columns as they were stays a heap-only update), and
# writes the entries after it; the status before is read in the statement's snapshot (a
# concurrent change would have moved the version on, and the row would not be moved). It
# returns its transaction's id too, which the writer would otherwise ask for before the
# COMMIT (``postgres.SyncConnection.assigned``); ``{also}``: the caller's statement, run
# in the same one (a data-modifying WITH runs whether or not its rows are read).
_MOVE_WITH_ENTRIES = (
    "WITH moved AS ("
    + _MOVE.format(
        also=", status = ?, turn_deadline = ?",
        returned="last_seq, game, (SELECT status FROM matches WHERE id = ?) AS was",
    )
    + "), logged AS (INSERT INTO actions"
    " (match_id, seq, turn, side, kind, arg, public, hidden, at)"
    " SELECT ?, moved.last_seq - ? + e.n, e.turn, e.side, e.kind, e.arg, e.public, e.hidden, ?"
    " FROM moved, unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[])"
    " WITH ORDINALITY AS e (turn, side, kind, arg, public, hidden, n)){also}"
    " SELECT last_seq, game, was, {changed}, pg_current_xact_id() FROM moved"
)


def _moved_with_entries(
    conn: Connection,
    request: Append,
    status: str,
    deadline: float | None,
    now: float,
    also: Statement | None,
) -> tuple[int, str, str, int] | None:
    """PostgreSQL: ``_moved`` in one statement (``_MOVE_WITH_ENTRIES``), with ``also`` in
    it; and how many rows ``also`` changed."""
    match_id = request.match_id
    entries = request.entries
    sql = _MOVE_WITH_ENTRIES.format(also="", changed="0")
    if also is not None:
        sql = _MOVE_WITH_ENTRIES.format(
            also=f", also AS ({also[0]} RETURNING 1)", changed="(SELECT count(*) FROM also)"
        )
    row = conn.execute(
        sql,
        (
            *move_values(request),
            now,
            status,
            deadline,
            match_id,
            request.version,
            match_id,
            match_id,
            len(entries),
            now,
            [entry.turn for entry in entries],
            [entry.side.letter for entry in entries],
            [entry.kind for entry in entries],
            [entry.arg for entry in entries],
            [entry.public for entry in entries],
            [int(entry.hidden) for entry in entries],
            *(also[1] if also is not None else ()),
        ),
    ).fetchone()
    if row is None:
        return None
    cast(PostgresConnection, conn).assigned(row[4])
    return row[0], row[1], row[2], row[3]


def close_unread(conn: Connection, match_id: int, close: str, now: float) -> None:
    """Close a match without a result (``close``: aborted or cancelled), its log neither
    read nor added to: for a match that cannot be loaded (its stored data is damaged). Its
    version moves on, so a write of a copy read before fails; a closed match stays as it
    is."""
    conn.execute(
        "UPDATE matches SET closed = ?, turn_deadline = NULL, version = version + 1,"
        " updated_at = ? WHERE id = ? AND closed IS NULL",
        (close, now, match_id),
    )


def _refusal(conn: Connection, request: Append) -> NoReturn:
    """Why ``append`` changed no row: the match is unknown, was changed since the caller
    read it, or is closed."""
    match_id = request.match_id
    row = conn.execute("SELECT version, closed FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise MatchNotFound(match_id)
    version, closed = row
    if version != request.version:
        raise StaleMatch(match_id, request.version, version)
    raise MatchClosed(match_id, closed)


def _insert_entry(conn: Connection, match_id: int, seq: int, entry: Entry, now: float) -> None:
    conn.execute(
        "INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, seq, *entry_values(entry), now),
    )


def entry_values(entry: Entry) -> tuple[object, ...]:
    """An entry's ``actions`` columns: turn, side, kind, arg, public, hidden."""
    return entry.turn, entry.side.letter, entry.kind, entry.arg, entry.public, int(entry.hidden)


def _insert_finished(conn: Connection, match_id: int, finish: Finish, now: float) -> None:
    conn.execute(
        "INSERT INTO finished_matches (match_id, winner, reason, score_c, score_o, record,"
        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            match_id,
            None if finish.winner is None else finish.winner.letter,
            finish.reason,
            finish.score[0],
            finish.score[1],
            finish.record,
            now,
        ),
    )


def put_snapshot(
    conn: Connection, match_id: int, seq: int, data: bytes, now: float, game: str | None = None
) -> None:
    """Keep one snapshot per match: the newest, or any of its game's current state version
    over one of an older shape. ``game``: the match's game, if the caller has it."""
    if game is None:
        (game,) = conn.execute("SELECT game FROM matches WHERE id = ?", (match_id,)).fetchone()
    conn.execute(
        "INSERT INTO snapshots (match_id, seq, state_version, data, at) VALUES (?, ?, ?, ?, ?)"
        + SNAPSHOT_KEPT,
        (match_id, seq, game_type(game).state_version, data, now),
    )


# A snapshot replaces the match's one if it is newer or of its game's current state version.
SNAPSHOT_KEPT = (
    " ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq,"
    " state_version = excluded.state_version, data = excluded.data, at = excluded.at"
    " WHERE excluded.seq >= snapshots.seq OR snapshots.state_version != excluded.state_version"
)
