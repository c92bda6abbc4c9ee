"""A hosted match's rows kept beside it for its players (migration 17): the planned reply a
player is putting together (PRIVATE to them) and the last turn in which each player looked
at their board (no reminder for that turn). Both go with the match's end (``hosted``)."""

from __future__ import annotations

from rules import Side

from ..backends.sql import Connection, ReadConnection


def put_draft(conn: Connection, hosted_id: int, side: Side, turn: int, draft: str | None) -> None:
    """``side``'s draft in the match is now ``draft`` (of public turn ``turn``); None: none."""
    conn.execute(
        "DELETE FROM plan_drafts WHERE hosted_id = ? AND side = ?", (hosted_id, side.letter)
    )
    if draft is not None:
        conn.execute(
            "INSERT INTO plan_drafts (hosted_id, side, turn, draft) VALUES (?, ?, ?, ?)",
            (hosted_id, side.letter, turn, draft),
        )


async def private_draft(db: ReadConnection, hosted_id: int, side: Side) -> tuple[int, str] | None:
    """PRIVATE to ``side``: its draft in the match and the public turn it is of."""
    rows = list(
        await db.execute_fetchall(
            "SELECT turn, draft FROM plan_drafts WHERE hosted_id = ? AND side = ?",
            (hosted_id, side.letter),
        )
    )
    return (int(rows[0][0]), str(rows[0][1])) if rows else None


def put_look(conn: Connection, hosted_id: int, side: Side, turn: int) -> None:
    """``side``'s player looked at their board (or acted) in public turn ``turn``."""
    conn.execute(
        "DELETE FROM board_looks WHERE hosted_id = ? AND side = ?", (hosted_id, side.letter)
    )
    conn.execute(
        "INSERT INTO board_looks (hosted_id, side, turn) VALUES (?, ?, ?)",
        (hosted_id, side.letter, turn),
    )


def drop_look(conn: Connection, hosted_id: int, side: Side) -> None:
    """``side``'s look is of a turn whose clock started again (a missed turn in a game that
    cannot pass one keeps its number): it says nothing of the new deadline."""
    conn.execute(
        "DELETE FROM board_looks WHERE hosted_id = ? AND side = ?", (hosted_id, side.letter)
    )


def forget_game(conn: Connection, hosted_id: int) -> None:
    """Both players' drafts and looks go: a takeback (or a reset) brings back turn numbers
    they drafted and looked at in a game that is no longer the one played."""
    conn.execute("DELETE FROM plan_drafts WHERE hosted_id = ?", (hosted_id,))
    conn.execute("DELETE FROM board_looks WHERE hosted_id = ?", (hosted_id,))


async def last_look(db: ReadConnection, hosted_id: int, side: Side) -> int | None:
    """The last public turn in which ``side``'s player looked at their board, if any."""
    rows = list(
        await db.execute_fetchall(
            "SELECT turn FROM board_looks WHERE hosted_id = ? AND side = ?",
            (hosted_id, side.letter),
        )
    )
    return int(rows[0][0]) if rows else None
