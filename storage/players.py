"""Who plays and where: the players the bot has met (a Discord user id and a name), each
server's settings and each player's own (text the bot interprets), and the players' away
days (per server: when each time away starts and ends, and whether the bot gave it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from .backends.sql import Connection, ReadConnection


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


def save_player(conn: Connection, user_id: int, name: str, now: float) -> None:
    conn.execute(
        "INSERT INTO players (user_id, name, created_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
        (user_id, name, now),
    )


async def player(db: ReadConnection, user_id: int) -> Player | None:
    rows = await db.execute_fetchall(
        "SELECT user_id, name FROM players WHERE user_id = ?", (user_id,)
    )
    return next((Player(r[0], r[1]) for r in rows), None)


async def names(db: ReadConnection, user_ids: Sequence[int]) -> dict[int, str]:
    """The names of those of ``user_ids`` the store knows, by id."""
    wanted = list(dict.fromkeys(user_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    rows = await db.execute_fetchall(
        f"SELECT user_id, name FROM players WHERE user_id IN ({marks})", wanted
    )
    return {row[0]: row[1] for row in rows}


def set_guild_setting(conn: Connection, guild_id: int, key: str, value: str | None) -> None:
    _set_setting(conn, _GUILD, guild_id, key, value)


def guild_setting(conn: Connection, guild_id: int, key: str) -> str | None:
    """One setting of a guild as a write job reads it (None: not set)."""
    row = conn.execute(
        "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
    ).fetchone()
    return None if row is None else str(row[0])


async def guild_settings(db: ReadConnection, guild_id: int) -> dict[str, str]:
    return await _settings(db, _GUILD, guild_id)


def set_player_setting(conn: Connection, user_id: int, key: str, value: str | None) -> None:
    _set_setting(conn, _PLAYER, user_id, key, value)


async def player_settings(db: ReadConnection, user_id: int) -> dict[str, str]:
    return await _settings(db, _PLAYER, user_id)


async def settings_in(
    db: ReadConnection, user_id: int, guild_id: int | None
) -> tuple[dict[str, str], dict[str, str]]:
    """A player's own settings and those of the server (none without one), in one
    statement."""
    rows = await db.execute_fetchall(
        "SELECT 0, key, value FROM player_settings WHERE user_id = ?"
        " UNION ALL SELECT 1, key, value FROM guild_settings WHERE guild_id = ?",
        (user_id, guild_id),
    )
    found: tuple[dict[str, str], dict[str, str]] = ({}, {})
    for row in rows:
        found[row[0]][row[1]] = row[2]
    return found


# A settings table and the column of whom its settings are (both fixed here, never input).
_GUILD = ("guild_settings", "guild_id")
_PLAYER = ("player_settings", "user_id")


def _set_setting(
    conn: Connection, table: tuple[str, str], owner: int, key: str, value: str | None
) -> None:
    """One setting of ``owner`` in ``table``: set to ``value``, or removed when None."""
    name, column = table
    if value is None:
        conn.execute(f"DELETE FROM {name} WHERE {column} = ? AND key = ?", (owner, key))
    else:
        conn.execute(
            f"INSERT INTO {name} ({column}, key, value) VALUES (?, ?, ?)"
            f" ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
            (owner, key, value),
        )


async def _settings(db: ReadConnection, table: tuple[str, str], owner: int) -> dict[str, str]:
    name, column = table
    rows = await db.execute_fetchall(
        f"SELECT key, value FROM {name} WHERE {column} = ? ORDER BY key", (owner,)
    )
    return {row[0]: row[1] for row in rows}


@dataclass(frozen=True)
class Away:
    """A player's time away in a server: from ``starts_at`` to ``ends_at`` (moved earlier
    when they come back early); ``automatic`` when the bot gave it before a missed turn."""

    guild_id: int
    user_id: int
    starts_at: float
    ends_at: float
    automatic: bool = False


def add_away(conn: Connection, away: Away, saved: int | None = None) -> None:
    """``away`` stored; an automatic day with the hosted match whose turn it ``saved``,
    noted as one whose player's other matches have yet to be moved (``unmoved``)."""
    conn.execute(
        "INSERT INTO away_days (guild_id, user_id, starts_at, ends_at, automatic)"
        " VALUES (?, ?, ?, ?, ?)",
        (away.guild_id, away.user_id, away.starts_at, away.ends_at, int(away.automatic)),
    )
    if saved is not None:
        note = json.dumps({"saved": saved, "ends": away.ends_at})
        set_player_setting(conn, away.user_id, _unmoved_key(away), note)


# The note of an automatic day whose player's other matches in the server have not been
# moved yet: a setting of the player, keyed by the day (its server and start), written with
# the day and taken in the transaction that moves them, so that a process that dies in
# between leaves it for the next to find, and two that find it move them once.
_UNMOVED = "unmoved_away:"


def _unmoved_key(away: Away) -> str:
    return f"{_UNMOVED}{away.guild_id}:{away.starts_at!r}"


def take_unmoved(conn: Connection, away: Away) -> bool:
    """Take ``away``'s note (its other matches are being moved); False if it is gone."""
    row = conn.execute(
        "DELETE FROM player_settings WHERE user_id = ? AND key = ? RETURNING key",
        (away.user_id, _unmoved_key(away)),
    ).fetchone()
    return row is not None


async def unmoved(db: ReadConnection) -> list[tuple[Away, int]]:
    """The automatic days whose players' other matches have yet to be moved, each with the
    hosted match whose turn it saved (moved already)."""
    rows = await db.execute_fetchall(
        "SELECT user_id, key, value FROM player_settings WHERE key LIKE ? ORDER BY key",
        (_UNMOVED + "%",),
    )
    found = []
    for user_id, key, value in rows:
        guild_id, starts_at = key[len(_UNMOVED) :].split(":")
        note = json.loads(value)
        day = Away(int(guild_id), int(user_id), float(starts_at), float(note["ends"]), True)
        found.append((day, int(note["saved"])))
    return found


def end_away(conn: Connection, away: Away, at: float) -> None:
    """``away`` ends at ``at`` (an early return; not before it starts: then it is gone)."""
    if at <= away.starts_at:
        conn.execute(
            "DELETE FROM away_days WHERE guild_id = ? AND user_id = ? AND starts_at = ?",
            (away.guild_id, away.user_id, away.starts_at),
        )
        return
    conn.execute(
        "UPDATE away_days SET ends_at = ? WHERE guild_id = ? AND user_id = ? AND starts_at = ?",
        (at, away.guild_id, away.user_id, away.starts_at),
    )


async def aways(
    db: ReadConnection, guild_id: int, user_ids: Sequence[int], since: float
) -> list[Away]:
    """The players' times away in a server that end after ``since``, the earliest first."""
    if not user_ids:
        return []
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.execute_fetchall(
        "SELECT guild_id, user_id, starts_at, ends_at, automatic FROM away_days"
        f" WHERE guild_id = ? AND user_id IN ({marks}) AND ends_at > ? ORDER BY starts_at",
        (guild_id, *user_ids, since),
    )
    return [Away(r[0], r[1], float(r[2]), float(r[3]), bool(r[4])) for r in rows]


async def aways_between(
    db: ReadConnection, guild_id: int, user_id: int, start: float, end: float
) -> list[Away]:
    """A player's times away in a server that started in [start, end) (a year's)."""
    rows = await db.execute_fetchall(
        "SELECT guild_id, user_id, starts_at, ends_at, automatic FROM away_days"
        " WHERE guild_id = ? AND user_id = ? AND starts_at >= ? AND starts_at < ?"
        " ORDER BY starts_at",
        (guild_id, user_id, start, end),
    )
    return [Away(r[0], r[1], float(r[2]), float(r[3]), bool(r[4])) for r in rows]


async def players_with(db: ReadConnection, key: str) -> list[tuple[int, str]]:
    """Every player who set ``key``, with its value."""
    rows = await db.execute_fetchall(
        "SELECT user_id, value FROM player_settings WHERE key = ? ORDER BY user_id", (key,)
    )
    return [(int(row[0]), str(row[1])) for row in rows]


def swap_player_setting(
    conn: Connection, user_id: int, key: str, old: str | None, new: str
) -> bool:
    """Set ``key`` to ``new`` if it is still ``old`` (None: unset); whether it was (of
    several processes, one wins)."""
    if old is None:
        cursor = conn.execute(
            "INSERT INTO player_settings (user_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id, key) DO NOTHING",
            (user_id, key, new),
        )
    else:
        cursor = conn.execute(
            "UPDATE player_settings SET value = ? WHERE user_id = ? AND key = ? AND value = ?",
            (new, user_id, key, old),
        )
    return cursor.rowcount == 1
