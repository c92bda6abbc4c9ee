"""Claims: which process fires a due clock, when several share a database.

A process claims due hosted matches for a while (a lease: ``claimed_by``, ``claimed_until``)
in one transaction, fires their clocks, then gives them back. Another process skips rows
claimed by a lease that has not run out, so each clock fires in one process; the claims of a
process that died run out, and the others take its work over. On PostgreSQL the rows are
claimed with ``FOR UPDATE SKIP LOCKED``: processes claiming at once take different rows
without waiting for each other.
(The outbox is delivered a destination at a time under a lease: ``Store.sharing``.)
"""

from __future__ import annotations

from ..backends.sql import Connection, ReadConnection, skip_locked
from .hosted import COLUMNS, ENDED, Hosted, hosted_of

MOST_CLAIMED = 100  # clocks claimed in one go
# live hosted matches whose deadline or reminder has come by a time, and that nobody holds
_DUE_FREE = (
    "phase != ? AND (due_at <= ? OR remind_at <= ?)"
    " AND (claimed_until IS NULL OR claimed_until <= ?)"
)
_NAMES = [name.strip() for name in COLUMNS.split(",")]  # a job's rows are plain tuples


def _due_free(now: float) -> tuple[object, ...]:
    return (ENDED, now, now, now)


def claim_due(conn: Connection, owner: str, now: float, until: float) -> list[Hosted]:
    """Live hosted matches whose deadline or reminder has come by ``now`` and that no other
    process holds, claimed by ``owner`` until ``until``."""
    rows = conn.execute(
        f"SELECT id FROM hosted_matches WHERE {_DUE_FREE} ORDER BY id LIMIT ?" + skip_locked(conn),
        (*_due_free(now), MOST_CLAIMED),
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
    return [hosted_of(dict(zip(_NAMES, row, strict=True))) for row in claimed.fetchall()]


def renew(conn: Connection, ids: list[int], owner: str, until: float) -> set[int]:
    """Of the clocks ``ids``, those ``owner`` still holds, claimed on until ``until``; a
    claim that ran out and that another process took (or fired and gave back) is left."""
    marks = ", ".join("?" for _ in ids)
    conn.execute(
        f"UPDATE hosted_matches SET claimed_until = ? WHERE id IN ({marks}) AND claimed_by = ?",
        (until, *ids, owner),
    )
    held = conn.execute(
        f"SELECT id FROM hosted_matches WHERE id IN ({marks}) AND claimed_by = ?", (*ids, owner)
    )
    return {int(row[0]) for row in held.fetchall()}


def let_go(conn: Connection, hosted_id: int, owner: str, until: float | None) -> None:
    """Give a claimed clock back (``until`` None), or keep others off it until ``until``
    (a clock that failed waits for its retry)."""
    conn.execute(
        "UPDATE hosted_matches SET claimed_by = ?, claimed_until = ?"
        " WHERE id = ? AND claimed_by = ?",
        (None if until is None else owner, until, hosted_id, owner),
    )


async def any_due(db: ReadConnection, now: float) -> bool:
    """Whether a clock is due that nobody holds: a read, before a claim writes anything."""
    rows = await db.execute_fetchall(
        f"SELECT 1 FROM hosted_matches WHERE {_DUE_FREE} LIMIT 1", _due_free(now)
    )
    return bool(list(rows))


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


def forget_all(conn: Connection) -> None:
    """Drop every claim: for a process that knows it is alone (a claim left can only be of
    its own earlier life, which died before it could give it back)."""
    conn.execute(
        "UPDATE hosted_matches SET claimed_by = NULL, claimed_until = NULL"
        " WHERE claimed_by IS NOT NULL"
    )
    conn.execute("DELETE FROM leases")
