"""The match service's rows: hosted matches (from the challenge to the end), the players'
private setup choices, and the transactional outbox. Write jobs are plain functions of the
writer's connection (see ``writes``); reads take the read-only connection.

Storage does not interpret a hosted match's ``terms`` or ``offers`` (JSON the service owns),
nor its ``phase`` and ``ending`` (the service's words, kept as text) but for one: a hosted
match is live until its phase is ``ENDED``. It keeps them, checks versions, and keeps the
private rows private: ``setup_choices`` and the outbox rows addressed to a user are read only
by functions named ``private_*``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules import Side

from .errors import StorageError, UnknownPlayer
from .models import side_of
from .sql import Connection, IntegrityError, ReadConnection, Row, can_be_id, lock_row, violates

# The one phase the schema knows: its indexes (one live match per channel, the live ones)
# leave out the hosted matches in it.
ENDED = "ended"

COLUMNS = (
    "id, guild_id, channel_id, issuer_id, invitee_id, terms, phase, ending, challenger_id,"
    " opposition_id, match_id, ready, due_at, remind_at, paused_left, offers, missed_c,"
    " missed_o, turn, version, created_at, updated_at"
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
    """PRIVATE: what one player chose so far. TORA's: ``strategy``, ``ruler``, ``assassin``
    (a square or ``"none"``); any other game's answers to its setup questions by name
    (Torii's ``spirit``), as ``(name, answer)`` pairs in ``answers``."""

    strategy: str | None = None
    ruler: str | None = None
    assassin: str | None = None
    answers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Post:
    """A message to deliver: to ``channel_id`` when ``user_id`` is None, else privately to
    that user (``channel_id`` is then the match's channel, where a fallback may go).
    ``files`` are (name, data) pairs."""

    channel_id: int
    text: str
    user_id: int | None = None
    mentions: tuple[int, ...] = ()
    files: tuple[tuple[str, bytes], ...] = ()
    buttons: str = ""  # the match service's own encoding of the message's buttons


@dataclass(frozen=True)
class Queued:
    """An outbox row waiting for delivery (its files are read when it is delivered)."""

    id: int
    hosted_id: int | None
    post: Post
    attempts: int
    next_try: float
    fallback: bool
    shown: int = 0  # pieces of the fallback already shown (they are never shown twice)

    @property
    def destination(self) -> tuple[str, int]:
        """Posts to one destination are delivered in order."""
        post = self.post
        return ("user", post.user_id) if post.user_id is not None else ("channel", post.channel_id)


@dataclass(frozen=True)
class ButtonMessage:
    """A message a front end sent with buttons for a hosted match: the buttons' verbs and
    the turn they are for."""

    channel_id: int
    message_id: int
    hosted_id: int
    verbs: tuple[str, ...]
    turn: int


# ---- writes --------------------------------------------------------------------------------


def insert_hosted(conn: Connection, hosted: Hosted, now: float) -> Hosted:
    """Insert a new hosted match; ChannelBusy if its channel already has a live one."""
    _check_players(conn, hosted)
    try:
        cursor = conn.execute(
            f"INSERT INTO hosted_matches ({COLUMNS.removeprefix('id, ')}) VALUES"
            " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id",
            (*_values(hosted), now, now),
        )
        hosted_id = int(cursor.fetchone()[0])
    except IntegrityError as exc:
        if violates(exc, *_ONE_LIVE_PER_CHANNEL):
            raise ChannelBusy(hosted.channel_id) from None
        raise
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
    """Write ``hosted`` if it is still at its version (StaleHosted otherwise); returns it at
    the next version."""
    _check_players(conn, hosted)
    try:
        cursor = conn.execute(
            "UPDATE hosted_matches SET guild_id = ?, channel_id = ?, issuer_id = ?,"
            " invitee_id = ?, terms = ?, phase = ?, ending = ?, challenger_id = ?,"
            " opposition_id = ?, match_id = ?, ready = ?, due_at = ?, remind_at = ?,"
            " paused_left = ?, offers = ?, missed_c = ?, missed_o = ?, turn = ?,"
            " version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (*_values(hosted), now, hosted.id, hosted.version),
        )
    except IntegrityError as exc:
        if violates(exc, *_ONE_LIVE_PER_CHANNEL):
            raise ChannelBusy(hosted.channel_id) from None
        raise
    if cursor.rowcount != 1:
        row = conn.execute(
            "SELECT version FROM hosted_matches WHERE id = ?", (hosted.id,)
        ).fetchone()
        if row is None:
            raise HostedNotFound(hosted.id)
        raise StaleHosted(hosted.id, hosted.version, row[0])
    return replace(hosted, version=hosted.version + 1, updated_at=now)


def _values(h: Hosted) -> tuple[object, ...]:
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
    )


def _check_players(conn: Connection, hosted: Hosted) -> None:
    users = (hosted.issuer_id, hosted.invitee_id, hosted.challenger_id, hosted.opposition_id)
    for user_id in users:
        if user_id is None:
            continue
        if conn.execute("SELECT 1 FROM players WHERE user_id = ?", (user_id,)).fetchone() is None:
            raise UnknownPlayer(user_id)


def put_setup_choice(conn: Connection, hosted_id: int, side: Side, choice: SetupChoice) -> None:
    conn.execute(
        "INSERT INTO setup_choices (hosted_id, side, strategy, ruler, assassin, answers)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hosted_id, side) DO UPDATE SET"
        " strategy = excluded.strategy, ruler = excluded.ruler, assassin = excluded.assassin,"
        " answers = excluded.answers",
        (
            hosted_id,
            side.letter,
            choice.strategy,
            choice.ruler,
            choice.assassin,
            json.dumps(dict(choice.answers), sort_keys=True),
        ),
    )


def drop_setup_choices(conn: Connection, hosted_id: int) -> None:
    conn.execute("DELETE FROM setup_choices WHERE hosted_id = ?", (hosted_id,))


def insert_posts(
    conn: Connection, hosted_id: int | None, posts: Sequence[Post], now: float
) -> None:
    for post in posts:
        cursor = conn.execute(
            "INSERT INTO outbox (hosted_id, channel_id, user_id, text, mentions, buttons,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                hosted_id,
                post.channel_id,
                post.user_id,
                post.text,
                " ".join(str(user) for user in post.mentions),
                post.buttons,
                now,
            ),
        )
        outbox_id = int(cursor.fetchone()[0])
        conn.executemany(
            "INSERT INTO outbox_files (outbox_id, position, name, data) VALUES (?, ?, ?, ?)",
            [(outbox_id, n, name, data) for n, (name, data) in enumerate(post.files)],
        )


def delivered(conn: Connection, outbox_id: int) -> None:
    """A delivered row goes, with its files (a private one held hidden information)."""
    conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))


def remember_buttons(conn: Connection, sent: ButtonMessage) -> None:
    conn.execute(
        "INSERT INTO button_messages (channel_id, message_id, hosted_id, verbs, turn)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id, message_id) DO UPDATE SET"
        " hosted_id = excluded.hosted_id, verbs = excluded.verbs, turn = excluded.turn",
        (sent.channel_id, sent.message_id, sent.hosted_id, " ".join(sent.verbs), sent.turn),
    )


def forget_buttons(conn: Connection, channel_id: int, message_id: int) -> None:
    conn.execute(
        "DELETE FROM button_messages WHERE channel_id = ? AND message_id = ?",
        (channel_id, message_id),
    )


def shown(conn: Connection, outbox_id: int, pieces: int) -> None:
    """``pieces`` of a fallback message have been shown to its user."""
    conn.execute("UPDATE outbox SET shown = ? WHERE id = ?", (pieces, outbox_id))


def retry_later(
    conn: Connection, outbox_id: int, attempts: int, next_try: float, fallback: bool
) -> None:
    conn.execute(
        "UPDATE outbox SET attempts = ?, next_try = ?, fallback = ? WHERE id = ?",
        (attempts, next_try, int(fallback), outbox_id),
    )


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
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def hosted(db: ReadConnection, hosted_id: int) -> Hosted:
    if not can_be_id(hosted_id):
        raise HostedNotFound(hosted_id)
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE id = ?", (hosted_id,)
    )
    for row in rows:
        return hosted_of(row)
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


async def button_messages(db: ReadConnection, hosted_id: int) -> list[ButtonMessage]:
    rows = await db.execute_fetchall(
        "SELECT channel_id, message_id, hosted_id, verbs, turn FROM button_messages"
        " WHERE hosted_id = ? ORDER BY message_id",
        (hosted_id,),
    )
    return [ButtonMessage(c, m, h, tuple(verbs.split()), t) for c, m, h, verbs, t in rows]


async def of_user(db: ReadConnection, user_id: int, limit: int) -> list[Hosted]:
    """The user's hosted matches, live or ended, the newest first."""
    rows = await db.execute_fetchall(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE ? IN (issuer_id, invitee_id,"
        " challenger_id, opposition_id) ORDER BY id DESC LIMIT ?",
        (user_id, limit),
    )
    return [hosted_of(row) for row in rows]


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
        "SELECT strategy, ruler, assassin, answers FROM setup_choices"
        " WHERE hosted_id = ? AND side = ?",
        (hosted_id, side.letter),
    )
    return next((_choice(*row) for row in rows), None)


def _choice(
    strategy: str | None, ruler: str | None, assassin: str | None, answers: str
) -> SetupChoice:
    given = json.loads(answers)
    return SetupChoice(strategy, ruler, assassin, tuple(sorted(given.items())))


OUTBOX_COLUMNS = (
    "id, hosted_id, channel_id, user_id, text, mentions, buttons, attempts, next_try, fallback,"
    " shown"
)


def queued_of(row: Row) -> Queued:
    """An outbox row (``OUTBOX_COLUMNS``, by position) as the deliverer takes it."""
    mentions = tuple(int(user) for user in row[5].split())
    post = Post(row[2], row[4], row[3], mentions, buttons=row[6])
    return Queued(row[0], row[1], post, row[7], row[8], bool(row[9]), row[10])


async def private_queue(
    db: ReadConnection, destination: tuple[str, int] | None = None
) -> list[Queued]:
    """Every undelivered outbox row (of one destination), oldest first (without files)."""
    where, args = "", ()
    if destination is not None:
        kind, target = destination
        where, args = ("WHERE user_id = ?", (target,))
        if kind == "channel":
            where, args = ("WHERE user_id IS NULL AND channel_id = ?", (target,))
    rows = await db.execute_fetchall(
        f"SELECT {OUTBOX_COLUMNS} FROM outbox {where} ORDER BY id", args
    )
    return [queued_of(row) for row in rows]


async def private_files(db: ReadConnection, outbox_id: int) -> tuple[tuple[str, bytes], ...]:
    rows = await db.execute_fetchall(
        "SELECT name, data FROM outbox_files WHERE outbox_id = ? ORDER BY position", (outbox_id,)
    )
    return tuple((row[0], bytes(row[1])) for row in rows)
