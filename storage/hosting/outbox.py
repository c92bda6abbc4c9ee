"""The transactional outbox: each post in a channel or private message is written in the
same transaction as the change it announces, and deleted once delivered; its files beside
it, in order. The buttons a front end sent for a hosted match are remembered here too.
Rows addressed to a user are PRIVATE to that user: read only by ``private_*`` functions,
for the deliverer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..backends.sql import Connection, ReadConnection, Row, Statement, is_postgres


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

    @property
    def destination(self) -> tuple[str, int]:
        """Posts to one destination are delivered in order."""
        if self.user_id is not None:
            return ("user", self.user_id)
        return ("channel", self.channel_id)


@dataclass(frozen=True)
class Queued:
    """An outbox row waiting for delivery (its files are read when it is delivered:
    ``private_outgoing`` reads them with it, ``private_queue`` leaves them out)."""

    id: int
    hosted_id: int | None
    post: Post
    attempts: int
    next_try: float
    fallback: bool
    shown: int = 0  # pieces of the fallback already shown (they are never shown twice)
    waiting: int = 1  # read by ``private_firsts``: its destination's rows waiting, itself too

    @property
    def destination(self) -> tuple[str, int]:
        return self.post.destination


@dataclass(frozen=True)
class ButtonMessage:
    """A message a front end sent with buttons for a hosted match: the buttons' verbs and
    the turn they are for."""

    channel_id: int
    message_id: int
    hosted_id: int
    verbs: tuple[str, ...]
    turn: int


def insert_posts(
    conn: Connection, hosted_id: int | None, posts: Sequence[Post], now: float
) -> None:
    """Queue ``posts`` with their files, in order: on PostgreSQL one statement a post, all
    sent at once (one round trip), on SQLite a row and then its files."""
    rows = [
        (
            hosted_id,
            post.channel_id,
            post.user_id,
            post.text,
            " ".join(str(user) for user in post.mentions),
            post.buttons,
            now,
        )
        for post in posts
    ]
    if is_postgres(conn):
        batch = [(*row, *_columns(post.files)) for row, post in zip(rows, posts, strict=True)]
        conn.executemany(_POST_WITH_FILES, batch)
        return
    for row, post in zip(rows, posts, strict=True):
        cursor = conn.execute(_POST + " RETURNING id", row)
        outbox_id = int(cursor.fetchone()[0])
        conn.executemany(
            "INSERT INTO outbox_files (outbox_id, position, name, data) VALUES (?, ?, ?, ?)",
            [(outbox_id, n, name, data) for n, (name, data) in enumerate(post.files)],
        )


_POST = (
    "INSERT INTO outbox (hosted_id, channel_id, user_id, text, mentions, buttons, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# PostgreSQL's: the row and its files together (a data-modifying WITH runs even when the
# post has no file to join it to)
_POST_WITH_FILES = (
    f"WITH queued AS ({_POST} RETURNING id)"
    " INSERT INTO outbox_files (outbox_id, position, name, data)"
    " SELECT queued.id, f.position, f.name, f.data FROM queued,"
    " unnest(?::bigint[], ?::text[], ?::bytea[]) AS f (position, name, data)"
)


def _columns(
    files: Sequence[tuple[str, bytes]],
) -> tuple[list[int], list[str], list[bytes]]:
    """A post's files as the columns ``unnest`` reads."""
    return (
        list(range(len(files))),
        [name for name, _data in files],
        [data for _name, data in files],
    )


# The outbox's bookkeeping: statements that leave the same rows however many times they run
# (``Writes.execute``), each committed alone.


def delivered(outbox_id: int) -> Statement:
    """A delivered row goes, with its files (a private one held hidden information)."""
    return "DELETE FROM outbox WHERE id = ?", (outbox_id,)


def remember_buttons(sent: ButtonMessage) -> Statement:
    return (
        "INSERT INTO button_messages (channel_id, message_id, hosted_id, verbs, turn)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id, message_id) DO UPDATE SET"
        " hosted_id = excluded.hosted_id, verbs = excluded.verbs, turn = excluded.turn",
        (sent.channel_id, sent.message_id, sent.hosted_id, " ".join(sent.verbs), sent.turn),
    )


def forget_buttons(channel_id: int, message_id: int) -> Statement:
    return (
        "DELETE FROM button_messages WHERE channel_id = ? AND message_id = ?",
        (channel_id, message_id),
    )


def shown(outbox_id: int, pieces: int) -> Statement:
    """``pieces`` of a fallback message have been shown to its user."""
    return "UPDATE outbox SET shown = ? WHERE id = ?", (pieces, outbox_id)


def retry_later(outbox_id: int, attempts: int, next_try: float, fallback: bool) -> Statement:
    return (
        "UPDATE outbox SET attempts = ?, next_try = ?, fallback = ? WHERE id = ?",
        (attempts, next_try, int(fallback), outbox_id),
    )


async def button_messages(db: ReadConnection, hosted_id: int) -> list[ButtonMessage]:
    return await _kept_where(db, "hosted_id", hosted_id)


async def channel_button_messages(db: ReadConnection, channel_id: int) -> list[ButtonMessage]:
    """Every match's kept messages in a channel (the primary key's order serves it)."""
    return await _kept_where(db, "channel_id", channel_id)


async def _kept_where(db: ReadConnection, column: str, value: int) -> list[ButtonMessage]:
    """The kept messages whose ``column`` (one of this module's names) holds ``value``."""
    rows = await db.execute_fetchall(
        "SELECT channel_id, message_id, hosted_id, verbs, turn FROM button_messages"
        f" WHERE {column} = ? ORDER BY message_id",
        (value,),
    )
    return [ButtonMessage(c, m, h, tuple(verbs.split()), t) for c, m, h, verbs, t in rows]


OUTBOX_COLUMNS = (
    "id, hosted_id, channel_id, user_id, text, mentions, buttons, attempts, next_try, fallback,"
    " shown"
)


def queued_of(row: Row, files: Sequence[tuple[str, bytes]] = (), waiting: int = 1) -> Queued:
    """An outbox row (``OUTBOX_COLUMNS``, by position) as the deliverer takes it, with its
    ``files`` and how many rows its destination has ``waiting`` where they were read."""
    mentions = tuple(int(user) for user in row[5].split())
    post = Post(row[2], row[4], row[3], mentions, tuple(files), row[6])
    return Queued(row[0], row[1], post, row[7], row[8], bool(row[9]), row[10], waiting)


async def private_queue(
    db: ReadConnection, destination: tuple[str, int] | None = None
) -> list[Queued]:
    """Every undelivered outbox row (of one destination), oldest first (without files)."""
    where: str
    args: tuple[int, ...]
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


async def private_firsts(db: ReadConnection) -> list[Queued]:
    """The oldest undelivered row of each destination (a user, or a channel's posts), oldest
    first, without files, with how many rows its destination has waiting: where the
    deliverer has work, read without the rows behind them (a backlog of thousands, while a
    front end is down, is grouped by the database)."""
    columns = ", ".join(f"o.{name.strip()}" for name in OUTBOX_COLUMNS.split(","))
    rows = await db.execute_fetchall(
        f"SELECT {columns}, g.waiting FROM outbox o JOIN (SELECT MIN(id) AS first,"
        " COUNT(*) AS waiting FROM outbox GROUP BY user_id IS NULL, COALESCE(user_id, channel_id))"
        " AS g ON o.id = g.first ORDER BY o.id"
    )
    return [queued_of(row, waiting=int(row[-1])) for row in rows]


async def private_outgoing(
    db: ReadConnection, destination: tuple[str, int], limit: int
) -> list[Queued]:
    """The first ``limit`` undelivered rows of one destination, oldest first, each with its
    files: what the deliverer sends next, read in one query (a row's files used to be a
    query of their own, as many as the rows)."""
    kind, target = destination
    where = "WHERE user_id IS NULL AND channel_id = ?" if kind == "channel" else "WHERE user_id = ?"
    rows = await db.execute_fetchall(
        f"SELECT {OUTBOX_COLUMNS}, f.name, f.data"
        f" FROM (SELECT {OUTBOX_COLUMNS} FROM outbox {where} ORDER BY id LIMIT ?) AS o"
        " LEFT JOIN outbox_files f ON f.outbox_id = o.id ORDER BY o.id, f.position",
        (target, limit),
    )
    found: dict[int, tuple[Row, list[tuple[str, bytes]]]] = {}
    for row in rows:
        _first, files = found.setdefault(row[0], (row, []))
        if row[-2] is not None:  # a row without files has one line with no file
            files.append((row[-2], bytes(row[-1])))
    return [queued_of(row, files) for row, files in found.values()]


async def private_files(db: ReadConnection, outbox_id: int) -> tuple[tuple[str, bytes], ...]:
    rows = await db.execute_fetchall(
        "SELECT name, data FROM outbox_files WHERE outbox_id = ? ORDER BY position", (outbox_id,)
    )
    return tuple((row[0], bytes(row[1])) for row in rows)
