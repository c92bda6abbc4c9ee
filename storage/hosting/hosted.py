"""The match service's rows: hosted matches (from the challenge to the end) and the players'
private setup choices. Write jobs are plain functions of the writer's connection (see
``storage.matches.writes``); reads take a read connection.

Storage does not interpret a hosted match's ``terms`` or ``offers`` (JSON the service owns),
nor its ``phase`` and ``ending`` (the service's words, kept as text) but for one: a hosted
match is live until its phase is ``ENDED``. It keeps them, checks versions, and keeps the
players' setup choices private: they are read only by ``private_setup_choice``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from rules import Side

from ..backends.sql import (
    Connection,
    IntegrityError,
    ReadConnection,
    Row,
    Statement,
    can_be_id,
    lock_row,
    violates,
)
from ..errors import StorageError, UnknownPlayer
from ..matches.models import side_of

# The one phase the schema knows: its indexes (one live match per channel, the live ones)
# leave out the hosted matches in it.
ENDED = "ended"

COLUMNS = (
    "id, guild_id, channel_id, issuer_id, invitee_id, terms, phase, ending, challenger_id,"
    " opposition_id, match_id, ready, due_at, remind_at, paused_left, offers, missed_c,"
    " missed_o, turn, clock_c, clock_o, version, created_at, updated_at"
)
# A second live match in a channel: how each backend names the unique index refusing it.
_ONE_LIVE_PER_CHANNEL = ("hosted_matches.channel_id", "hosted_live_per_channel")


class HostedNotFound(StorageError, LookupError):
    def __init__(self, hosted_id: int) -> None:
        super().__init__(f"there is no hosted match {hosted_id}")
        self.hosted_id = hosted_id


class ChannelBusy(StorageError):
    """A channel already hosts a live match (or challenge): one at a time."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already hosts a match or challenge")
        self.channel_id = channel_id


class StaleHosted(StorageError):
    """A write named a version of a hosted match that is no longer the latest."""

    def __init__(self, hosted_id: int, read: int, current: int) -> None:
        super().__init__(
            f"hosted match {hosted_id} changed since it was read (read at version {read}, now "
            f"at version {current}); nothing was saved: read it again and retry"
        )
        self.hosted_id, self.read, self.current = hosted_id, read, current


@dataclass(frozen=True)
class Hosted:
    """One match as the service hosts it in a channel. ``id`` is 0 until it is inserted;
    ``version`` goes up by one with every write."""

    id: int
    guild_id: int
    channel_id: int
    issuer_id: int
    invitee_id: int | None
    terms: str
    phase: str
    ending: str | None = None
    challenger_id: int | None = None
    opposition_id: int | None = None
    match_id: int | None = None
    ready: str = ""
    due_at: float | None = None
    remind_at: float | None = None
    paused_left: float | None = None
    offers: str = "{}"
    missed: tuple[int, int] = (0, 0)
    turn: int = 0  # the game's public turn number (finished turns + 1), 0 before it starts
    # each side's bank or allowance when the running turn began (a bank or increment clock)
    clocks: tuple[float, float] | None = None
    version: int = 1
    created_at: float = 0.0
    updated_at: float = 0.0

    @property
    def live(self) -> bool:
        return self.phase != ENDED

    def side_of(self, user_id: int) -> Side | None:
        return side_of(user_id, self.challenger_id, self.opposition_id)

    def player(self, side: Side) -> int:
        """The user playing ``side`` (once the challenge is accepted)."""
        user = self.challenger_id if side == Side.CHALLENGER else self.opposition_id
        if user is None:
            raise ValueError(f"hosted match {self.id} has no players yet")
        return user


@dataclass(frozen=True)
class SetupChoice:
    """PRIVATE: what one player chose so far: their answers to their game's setup questions
    by name (TORA's ``strategy``, ``ruler`` and ``assassin``, Torii's ``spirit``), as
    ``(name, answer)`` pairs in the order of the names."""

    answers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, answers: Mapping[str, str]) -> SetupChoice:
        return cls(tuple(sorted(answers.items())))

    @property
    def given(self) -> dict[str, str]:
        """The answers by question name."""
        return dict(self.answers)


# ---- writes --------------------------------------------------------------------------------


def insert_hosted(conn: Connection, hosted: Hosted, now: float) -> Hosted:
    """Insert a new hosted match; ChannelBusy if its channel already has a live one."""
    _check_players(conn, hosted)
    with channel_busy(hosted):
        cursor = conn.execute(
            f"INSERT INTO hosted_matches ({COLUMNS.removeprefix('id, ')}) VALUES"
            " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id",
            (*values_of(hosted), now, now),
        )
        hosted_id = int(cursor.fetchone()[0])
    return replace(hosted, id=hosted_id, version=1, created_at=now, updated_at=now)


def lock_hosted(conn: Connection, hosted: Hosted) -> None:
    """Lock a hosted match's row and check it is still at ``hosted.version`` (StaleHosted
    otherwise): for a change that writes other rows before the hosted match's own."""
    row = conn.execute(
        "SELECT version FROM hosted_matches WHERE id = ?" + lock_row(conn), (hosted.id,)
    ).fetchone()
    if row is None:
        raise HostedNotFound(hosted.id)
    if row[0] != hosted.version:
        raise StaleHosted(hosted.id, hosted.version, row[0])


def update_hosted(conn: Connection, hosted: Hosted, now: float) -> Hosted:
    """Write ``hosted`` if it is still at its version (StaleHosted otherwise) and the store
    knows its players (UnknownPlayer otherwise); returns it at the next version. Its players
    are counted in the same statement (one round trip on PostgreSQL), and which one is
    unknown is asked only when the row was not written."""
    with channel_busy(hosted):
        cursor = conn.execute(*hosted_update(hosted, now))
    return hosted_updated(conn, hosted, cursor.rowcount == 1, now)


def hosted_update(hosted: Hosted, now: float) -> Statement:
    """``update_hosted``'s UPDATE, for a caller that runs it inside a statement of its own
    (``writes.append``'s ``also``); ``hosted_updated`` then, with whether it wrote the row,
    and its errors mapped by ``channel_busy``."""
    wanted = players_of(hosted)
    known = ""
    counted: tuple[int, ...] = ()
    if wanted:
        known = f" AND (SELECT count(*) FROM players WHERE user_id IN ({_marks(wanted)})) = ?"
        counted = (*wanted, len(wanted))
    return (
        f"UPDATE hosted_matches SET {_WRITTEN_SET}, version = version + 1, updated_at = ?"
        " WHERE id = ? AND version = ?" + known,
        (*values_of(hosted), now, hosted.id, hosted.version, *counted),
    )


@contextlib.contextmanager
def channel_busy(hosted: Hosted) -> Iterator[None]:
    """ChannelBusy for a write of ``hosted`` that a live match in its channel refused."""
    try:
        yield
    except IntegrityError as exc:
        if violates(exc, *_ONE_LIVE_PER_CHANNEL):
            raise ChannelBusy(hosted.channel_id) from None
        raise


def hosted_updated(conn: Connection, hosted: Hosted, written: bool, now: float) -> Hosted:
    """After ``hosted_update`` ran (``written``: it changed the row): the match at its next
    version, or why it was not written (StaleHosted, UnknownPlayer, HostedNotFound); an
    ended match's planned replies and looks go."""
    if not written:
        _check_players(conn, hosted)
        row = conn.execute(
            "SELECT version FROM hosted_matches WHERE id = ?", (hosted.id,)
        ).fetchone()
        if row is None:
            raise HostedNotFound(hosted.id)
        raise StaleHosted(hosted.id, hosted.version, row[0])
    if hosted.phase == ENDED:  # planned replies and looks go with the match
        for table in ("plans", "plan_drafts", "board_looks"):
            conn.execute(f"DELETE FROM {table} WHERE hosted_id = ?", (hosted.id,))
    return replace(hosted, version=hosted.version + 1, updated_at=now)


# The columns ``hosted_update`` writes, in ``values_of``'s order, with their PostgreSQL types
# (``saving`` writes them from arrays).
WRITTEN = (
    ("guild_id", "bigint"),
    ("channel_id", "bigint"),
    ("issuer_id", "bigint"),
    ("invitee_id", "bigint"),
    ("terms", "text"),
    ("phase", "text"),
    ("ending", "text"),
    ("challenger_id", "bigint"),
    ("opposition_id", "bigint"),
    ("match_id", "bigint"),
    ("ready", "text"),
    ("due_at", "float8"),
    ("remind_at", "float8"),
    ("paused_left", "float8"),
    ("offers", "text"),
    ("missed_c", "bigint"),
    ("missed_o", "bigint"),
    ("turn", "bigint"),
    ("clock_c", "float8"),
    ("clock_o", "float8"),
)
_WRITTEN_SET = ", ".join(f"{name} = ?" for name, _kind in WRITTEN)


def values_of(h: Hosted) -> tuple[object, ...]:
    """Its ``WRITTEN`` columns' values."""
    return (
        h.guild_id,
        h.channel_id,
        h.issuer_id,
        h.invitee_id,
        h.terms,
        h.phase,
        h.ending,
        h.challenger_id,
        h.opposition_id,
        h.match_id,
        h.ready,
        h.due_at,
        h.remind_at,
        h.paused_left,
        h.offers,
        h.missed[0],
        h.missed[1],
        h.turn,
        None if h.clocks is None else h.clocks[0],
        None if h.clocks is None else h.clocks[1],
    )


def players_of(hosted: Hosted) -> list[int]:
    """The hosted match's players, each once."""
    users = (hosted.issuer_id, hosted.invitee_id, hosted.challenger_id, hosted.opposition_id)
    return list(dict.fromkeys(user_id for user_id in users if user_id is not None))


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


def _check_players(conn: Connection, hosted: Hosted) -> None:
    """UnknownPlayer for the first of the match's players the store does not know, asked
    in one statement."""
    wanted = players_of(hosted)
    if not wanted:
        return
    rows = conn.execute(f"SELECT user_id FROM players WHERE user_id IN ({_marks(wanted)})", wanted)
    known = {row[0] for row in rows.fetchall()}
    for user_id in wanted:
        if user_id not in known:
            raise UnknownPlayer(user_id)


def put_setup_choice(conn: Connection, hosted_id: int, side: Side, choice: SetupChoice) -> None:
    conn.execute(
        "INSERT INTO setup_choices (hosted_id, side, answers) VALUES (?, ?, ?)"
        " ON CONFLICT (hosted_id, side) DO UPDATE SET answers = excluded.answers",
        (hosted_id, side.letter, json.dumps(choice.given, sort_keys=True)),
    )


def drop_setup_choices(conn: Connection, hosted_id: int) -> None:
    conn.execute("DELETE FROM setup_choices WHERE hosted_id = ?", (hosted_id,))


# ---- reads ---------------------------------------------------------------------------------


def hosted_of(row: Row) -> Hosted:
    return Hosted(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        issuer_id=row["issuer_id"],
        invitee_id=row["invitee_id"],
        terms=row["terms"],
        phase=row["phase"],
        ending=row["ending"],
        challenger_id=row["challenger_id"],
        opposition_id=row["opposition_id"],
        match_id=row["match_id"],
        ready=row["ready"],
        due_at=row["due_at"],
        remind_at=row["remind_at"],
        paused_left=row["paused_left"],
        offers=row["offers"],
        missed=(row["missed_c"], row["missed_o"]),
        turn=row["turn"],
        clocks=_clocks(row["clock_c"], row["clock_o"]),
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _clocks(challenger: float | None, opposition: float | None) -> tuple[float, float] | None:
    if challenger is None or opposition is None:
        return None
    return float(challenger), float(opposition)


async def hosted(db: ReadConnection, hosted_id: int) -> Hosted:
    if not can_be_id(hosted_id):
        raise HostedNotFound(hosted_id)
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE id = ?", (hosted_id,)
    )
    for row in rows:
        return hosted_of(row)
    raise HostedNotFound(hosted_id)


async def hosted_and_names(db: ReadConnection, hosted_id: int) -> tuple[Hosted, dict[int, str]]:
    """A hosted match and the names the store knows of its issuer and invitee, by id, in
    one query (what an outbox message's heading says, read for every message)."""
    if not can_be_id(hosted_id):
        raise HostedNotFound(hosted_id)
    columns = ", ".join(f"h.{column.strip()}" for column in COLUMNS.split(","))
    rows = await db.execute_fetchall(
        f"SELECT {columns}, i.name AS issuer_name, v.name AS invitee_name FROM hosted_matches h"
        " LEFT JOIN players i ON i.user_id = h.issuer_id"
        " LEFT JOIN players v ON v.user_id = h.invitee_id WHERE h.id = ?",
        (hosted_id,),
    )
    for row in rows:
        found = hosted_of(row)
        people = ((found.issuer_id, row["issuer_name"]), (found.invitee_id, row["invitee_name"]))
        return found, {user: name for user, name in people if user is not None and name is not None}
    raise HostedNotFound(hosted_id)


async def live_in_channel(db: ReadConnection, channel_id: int) -> Hosted | None:
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE channel_id = ? AND phase != ?",
        (channel_id, ENDED),
    )
    return next((hosted_of(row) for row in rows), None)


async def versions(db: ReadConnection, hosted_id: int) -> tuple[int, int | None] | None:
    rows = await db.execute_fetchall(
        "SELECT h.version, m.version FROM hosted_matches h"
        " LEFT JOIN matches m ON m.id = h.match_id WHERE h.id = ?",
        (hosted_id,),
    )
    return next(((row[0], row[1]) for row in rows), None)


async def versions_of(
    db: ReadConnection, hosted_ids: Sequence[int]
) -> dict[int, tuple[int, int | None]]:
    """The stored versions of several hosted matches at once (those that exist), by id."""
    if not hosted_ids:
        return {}
    marks = ", ".join("?" for _ in hosted_ids)
    rows = await db.execute_fetchall(
        "SELECT h.id, h.version, m.version FROM hosted_matches h"
        f" LEFT JOIN matches m ON m.id = h.match_id WHERE h.id IN ({marks})",
        tuple(hosted_ids),
    )
    return {row[0]: (row[1], row[2]) for row in rows}


# A user's hosted matches, each column naming them on its own index (migration 20).
_USERS = (
    f"SELECT {COLUMNS} FROM hosted_matches WHERE (issuer_id = ? OR invitee_id = ?"
    " OR challenger_id = ? OR opposition_id = ?)"
)
USERS_LIVE = f"{_USERS} AND phase != ?"
# An ended match was last written when it ended: the most recently ended first.
USERS_ENDED = f"{_USERS} AND phase = ? ORDER BY updated_at DESC, id DESC LIMIT ?"


async def of_user(db: ReadConnection, user_id: int, limit: int) -> list[Hosted]:
    """The user's hosted matches: every live one and the ``limit`` most recently ended ones
    (not the newest created: a long match that ends today is among them however many
    challenges were declined since it began), the most recently changed first (however
    many ended since, a live one is never left out)."""
    named = (user_id,) * 4
    live = await db.execute_fetchall(USERS_LIVE, (*named, ENDED))
    ended = await db.execute_fetchall(USERS_ENDED, (*named, ENDED, limit))
    return sorted(map(hosted_of, [*live, *ended]), key=_latest_first)


def _latest_first(hosted: Hosted) -> tuple[float, int]:
    return -hosted.updated_at, -hosted.id


async def latest_in_channel(
    db: ReadConnection, channel_id: int, with_game: bool = False
) -> Hosted | None:
    """The channel's most recent hosted match, live or ended (``with_game``: whose game
    started)."""
    played = " AND match_id IS NOT NULL" if with_game else ""
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE channel_id = ?{played}"
        " ORDER BY id DESC LIMIT 1",
        (channel_id,),
    )
    return next((hosted_of(row) for row in rows), None)


async def any_in_guild(db: ReadConnection, guild_id: int) -> bool:
    """Whether the guild ever hosted a match (a challenge at least), live or ended."""
    rows = await db.execute_fetchall(
        "SELECT 1 FROM hosted_matches WHERE guild_id = ? LIMIT 1", (guild_id,)
    )
    return bool(rows)


async def in_phase(
    db: ReadConnection, guild_id: int, phase: str, issuer_id: int
) -> tuple[int, int]:
    """How many of the guild's hosted matches are in ``phase``: issued by ``issuer_id``, and
    in all."""
    rows = await db.execute_fetchall(
        "SELECT coalesce(sum(CASE WHEN issuer_id = ? THEN 1 ELSE 0 END), 0), count(*)"
        " FROM hosted_matches"
        " WHERE guild_id = ? AND phase = ?",
        (issuer_id, guild_id, phase),
    )
    mine, everyone = next(iter(rows))
    return int(mine), int(everyone)


async def live(db: ReadConnection) -> list[Hosted]:
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE phase != ? ORDER BY id", (ENDED,)
    )
    return [hosted_of(row) for row in rows]


async def private_setup_choice(
    db: ReadConnection, hosted_id: int, side: Side
) -> SetupChoice | None:
    rows = await db.execute_fetchall(
        "SELECT answers FROM setup_choices WHERE hosted_id = ? AND side = ?",
        (hosted_id, side.letter),
    )
    return next((_choice(row[0]) for row in rows), None)


def _choice(answers: str) -> SetupChoice:
    given = json.loads(answers)
    return SetupChoice.of({str(name): str(answer) for name, answer in given.items()})


async def live_ai_matches(db: ReadConnection, guild_id: int) -> int:
    """How many matches against the AI are live in a server (its cap: an AI player's id is
    negative; the count reads the index of migration 11, so the phase is in the text)."""
    rows = await db.execute_fetchall(
        f"SELECT COUNT(*) FROM hosted_matches WHERE guild_id = ? AND phase != '{ENDED}'"
        " AND (challenger_id < 0 OR opposition_id < 0)",
        (guild_id,),
    )
    [(count,)] = rows
    return int(count)


# ---- planned replies (PRIVATE) -------------------------------------------------------------
def put_plans(conn: Connection, hosted_id: int, side: Side, lines: Sequence[str]) -> None:
    """``side``'s planned replies in the match are now ``lines`` (JSON each), numbered from 1."""
    conn.execute("DELETE FROM plans WHERE hosted_id = ? AND side = ?", (hosted_id, side.letter))
    conn.executemany(
        "INSERT INTO plans (hosted_id, side, number, line) VALUES (?, ?, ?, ?)",
        [(hosted_id, side.letter, number, line) for number, line in enumerate(lines, 1)],
    )


async def private_plans(db: ReadConnection, hosted_id: int, side: Side) -> list[str]:
    """PRIVATE to ``side``: its planned replies in the match, in order."""
    rows = await db.execute_fetchall(
        "SELECT line FROM plans WHERE hosted_id = ? AND side = ? ORDER BY number",
        (hosted_id, side.letter),
    )
    return [str(row[0]) for row in rows]
