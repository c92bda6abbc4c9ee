"""Migration 2's ladder: one rating per guild and player, with its history. The bot rates on
the ladders of migration 4 (``ladders``), not on these tables; the store still reads and
writes them (``Store.rate``, ``Store.ladder``, ``Store.rating_history``), and a copy
carries their rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..backends.sql import Connection, ReadConnection
from ..errors import AlreadyRated, MatchNotFinished, MatchNotFound, StaleRating, StorageError


@dataclass(frozen=True)
class Rating:
    guild_id: int
    player_id: int
    rating: float
    games: int
    updated_at: float


@dataclass(frozen=True)
class RatingChange:
    """A new rating for one player after a finished match. ``before`` is the rating the
    caller read (None for a player new to the ladder): a stale one is refused."""

    player_id: int
    before: float | None
    after: float


@dataclass(frozen=True)
class RatingEvent:
    match_id: int
    before: float | None
    after: float
    at: float


def rate(conn: Connection, match_id: int, changes: Sequence[RatingChange], now: float) -> None:
    """New ladder ratings after a finished match, with their history, all or nothing."""
    row = conn.execute(
        "SELECT m.guild_id, m.challenger_id, m.opposition_id, f.match_id FROM matches m"
        " LEFT JOIN finished_matches f ON f.match_id = m.id WHERE m.id = ?",
        (match_id,),
    ).fetchone()
    if row is None:
        raise MatchNotFound(match_id)
    guild_id, challenger_id, opposition_id, finished = row
    if finished is None:
        raise MatchNotFinished(match_id)
    if conn.execute("SELECT 1 FROM rating_history WHERE match_id = ?", (match_id,)).fetchone():
        raise AlreadyRated(match_id)
    for change in changes:
        if change.player_id not in (challenger_id, opposition_id):
            raise StorageError(f"player {change.player_id} did not play match {match_id}")
        current = conn.execute(
            "SELECT rating FROM ratings WHERE guild_id = ? AND player_id = ?",
            (guild_id, change.player_id),
        ).fetchone()
        if current is not None and current[0] != change.before:
            raise StaleRating(guild_id, change.player_id, change.before, current[0])
        conn.execute(
            "INSERT INTO rating_history (guild_id, player_id, match_id, before, after, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, change.player_id, match_id, change.before, change.after, now),
        )
        conn.execute(
            "INSERT INTO ratings (guild_id, player_id, rating, games, updated_at)"
            " VALUES (?, ?, ?, 1, ?) ON CONFLICT (guild_id, player_id) DO UPDATE SET"
            " rating = excluded.rating, games = ratings.games + 1,"
            " updated_at = excluded.updated_at",
            (guild_id, change.player_id, change.after, now),
        )


async def ladder(db: ReadConnection, guild_id: int) -> list[Rating]:
    rows = await db.execute_fetchall(
        "SELECT guild_id, player_id, rating, games, updated_at FROM ratings WHERE guild_id = ?"
        " ORDER BY rating DESC, player_id",
        (guild_id,),
    )
    return [Rating(*row) for row in rows]


async def rating_history(db: ReadConnection, guild_id: int, player_id: int) -> list[RatingEvent]:
    rows = await db.execute_fetchall(
        "SELECT match_id, before, after, at FROM rating_history"
        " WHERE guild_id = ? AND player_id = ? ORDER BY id",
        (guild_id, player_id),
    )
    return [RatingEvent(*row) for row in rows]
