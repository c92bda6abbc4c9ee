"""Claims: which process handles a due clock or an outbox row, when several share a database.

A process claims rows for a while (a lease: ``claimed_by``, ``claimed_until``) in one
transaction, handles them, then gives them back. Another process skips rows claimed by a
lease that has not run out, so each is handled by one process; the claims of a process that
died run out, and the others take its work over. On PostgreSQL the clocks are claimed with
``FOR UPDATE SKIP LOCKED``: processes claiming at once take different rows without waiting.
The outbox is claimed a whole destination at a time (its posts go out in order), so claims
of one destination by two processes at once conflict, and one of them is run again.
"""

from __future__ import annotations

from collections import defaultdict

from .hosting import COLUMNS, ENDED, OUTBOX_COLUMNS, Hosted, Queued, hosted_of, queued_of
from .sql import Connection, ReadConnection, Row, skip_locked

MOST_CLAIMED = 100  # clocks claimed in one go


def claim_due(conn: Connection, owner: str, now: float, until: float) -> list[Hosted]:
    """Live hosted matches whose deadline or reminder has come by ``now`` and that no other
    process holds, claimed by ``owner`` until ``until``."""
    rows = conn.execute(
        "SELECT id FROM hosted_matches WHERE phase != ? AND (due_at <= ? OR remind_at <= ?)"
        " AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY id LIMIT ?"
        + skip_locked(conn),
        (ENDED, now, now, now, MOST_CLAIMED),
    ).fetchall()
    ids = [int(row[0]) for row in rows]
    if not ids:
        return []
    marks = ", ".join("?" for _ in ids)
    conn.execute(
        f"UPDATE hosted_matches SET claimed_by = ?, claimed_until = ? WHERE id IN ({marks})",
        (owner, until, *ids),
    )
    claimed = conn.execute(
        f"SELECT {COLUMNS} FROM hosted_matches WHERE id IN ({marks}) ORDER BY id", ids
    )
    names = [name.strip() for name in COLUMNS.split(",")]  # a job's rows are plain tuples
    return [hosted_of(dict(zip(names, row, strict=True))) for row in claimed.fetchall()]


def let_go(conn: Connection, hosted_id: int, owner: str, until: float | None) -> None:
    """Give a claimed clock back (``until`` None), or keep others off it until ``until``
    (a clock that failed waits for its retry)."""
    conn.execute(
        "UPDATE hosted_matches SET claimed_by = ?, claimed_until = ?"
        " WHERE id = ? AND claimed_by = ?",
        (None if until is None else owner, until, hosted_id, owner),
    )


async def next_due(db: ReadConnection, now: float) -> float | None:
    """The earliest of: a deadline or reminder no process holds, the end of a claim."""
    [row] = await db.execute_fetchall(
        "SELECT min(CASE WHEN claimed_until > ? THEN NULL ELSE due_at END),"
        " min(CASE WHEN claimed_until > ? THEN NULL ELSE remind_at END),"
        " min(CASE WHEN claimed_until > ? THEN claimed_until END)"
        " FROM hosted_matches WHERE phase != ?",
        (now, now, now, ENDED),
    )
    times = [when for when in row if when is not None]
    return float(min(times)) if times else None


def claim_outbox(conn: Connection, owner: str, now: float, until: float) -> list[Queued]:
    """The undelivered outbox rows of every destination no other process holds, oldest first
    (without files), claimed by ``owner`` until ``until``."""
    rows = conn.execute(
        f"SELECT {OUTBOX_COLUMNS}, claimed_by, claimed_until FROM outbox ORDER BY id"
    ).fetchall()
    held = {_destination(row) for row in rows if row[11] not in (None, owner) and row[12] > now}
    mine: dict[tuple[str, int], list[Queued]] = defaultdict(list)
    for row in rows:
        if _destination(row) not in held:
            mine[_destination(row)].append(queued_of(row))
    ids = [queued.id for queued_rows in mine.values() for queued in queued_rows]
    if ids:
        marks = ", ".join("?" for _ in ids)
        conn.execute(
            f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN ({marks})",
            (owner, until, *ids),
        )
    return sorted((queued for rows_ in mine.values() for queued in rows_), key=lambda q: q.id)


def renew_outbox(conn: Connection, owner: str, until: float) -> None:
    conn.execute("UPDATE outbox SET claimed_until = ? WHERE claimed_by = ?", (until, owner))


def let_go_outbox(conn: Connection, owner: str) -> None:
    conn.execute(
        "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", (owner,)
    )


def _destination(row: Row) -> tuple[str, int]:
    return ("user", row[3]) if row[3] is not None else ("channel", row[2])


def forget_all(conn: Connection) -> None:
    """Drop every claim: for a process that knows it is alone (a claim left can only be of
    its own earlier life, which died before it could give it back)."""
    conn.execute(
        "UPDATE hosted_matches SET claimed_by = NULL, claimed_until = NULL"
        " WHERE claimed_by IS NOT NULL"
    )
    conn.execute(
        "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL"
    )
    conn.execute("DELETE FROM leases")
