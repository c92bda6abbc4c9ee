"""Who plays and where: the players the bot has met (a Discord user id and a name) and each
server's settings (text the bot interprets)."""

from __future__ import annotations

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


def set_guild_setting(conn: Connection, guild_id: int, key: str, value: str | None) -> None:
    if value is None:
        conn.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
    else:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, value),
        )


async def guild_settings(db: ReadConnection, guild_id: int) -> dict[str, str]:
    rows = await db.execute_fetchall(
        "SELECT key, value FROM guild_settings WHERE guild_id = ? ORDER BY key", (guild_id,)
    )
    return {row[0]: row[1] for row in rows}
